//! The act of `undo`: the speaker asks to take back the last turn; the opponent
//! answers with `accept` or `reject`.

use super::{Act, Asked};
use crate::command::undo::Undo;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::play::board_action;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards::{self, OfferKind};

impl Act for Undo {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, false)?;
        // The challenged player's first word on the board accepts the
        // challenge, as a turn does, and then acts.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        let opponent = loaded.board.player(!color);
        let _ = opponent;
        if loaded.turns.is_empty() {
            return Err(refuse(
                format!("board {number} has no turn to take back"),
                Some(number),
            ));
        }
        boards::set_offer(
            ctx.conn,
            number,
            OfferKind::Undo,
            player.id,
            loaded.turns.len() as u32,
            ctx.now,
        )?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
