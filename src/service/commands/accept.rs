//! The act of `accept`: the challenge waiting for the speaker, or else the
//! opponent's standing offer (a draw, or taking back the last turn).

use super::{Act, Asked};
use crate::command::accept::Accept;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::play::answer_offer;
use crate::service::play::board_action;
use crate::service::{Failure, MailCtx};

impl Act for Accept {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, mut loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, true)?;
        // The challenged player's `accept` accepts the challenge (not an
        // offer the challenger made meanwhile).
        if challenges::accept_if_waiting(ctx, &loaded.board, &player)? {
            drop(loaded);
            return Ok(board_mail::board_mails(ctx, number, Occasion::Update)?);
        }
        let opponent = loaded.board.player(!color);
        answer_offer(ctx, number, &player, opponent, &mut loaded, true)?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
