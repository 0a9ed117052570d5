//! The act of `resign`: the speaker gives up the game.

use super::{Act, Asked};
use crate::command::resign::Resign;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::challenges;
use crate::service::ending::{Ending, end_game};
use crate::service::play::board_action;
use crate::service::{Failure, MailCtx};
use shakmaty::Color;

impl Act for Resign {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, false)?;
        // The challenged player's first word on the board accepts the
        // challenge, as a turn does, and then acts.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        let opponent = loaded.board.player(!color);
        let _ = opponent;
        let score = if color == Color::White { "0-1" } else { "1-0" };
        end_game(
            ctx,
            number,
            Ending::Played {
                score,
                reason: &format!("{} resigned", player.userid),
            },
        )?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
