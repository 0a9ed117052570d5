//! The act of `reject`: the opponent's standing offer (a draw, or taking back the
//! last turn) is turned down.

use super::{Act, Asked};
use crate::command::reject::Reject;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::play::answer_offer;
use crate::service::play::board_action;
use crate::service::{Failure, MailCtx};

impl Act for Reject {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, mut loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, false)?;
        // The challenged player's first word on the board accepts the
        // challenge, as a turn does, and then acts.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        let opponent = loaded.board.player(!color);
        answer_offer(ctx, number, &player, opponent, &mut loaded, false)?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
