//! The act of `decline`: the challenged player refuses a challenge before moving; an
//! event's or a ladder's game cannot be declined.

use super::{Act, Asked};
use crate::command::decline::Decline;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::ending::{Ending, end_game};
use crate::service::play::board_action;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::{ladders, tournaments};

impl Act for Decline {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let (number, player, loaded, color) =
            board_action(ctx, self.board, &self.speaker, asked.token, true)?;
        let _ = color;
        if let Some((event, _)) = tournaments::game_of_board(ctx.conn, number)? {
            let event = tournaments::by_id(ctx.conn, event)?;
            return Err(refuse(
                format!(
                    "board {number} is a game of the event \"{}\" and cannot be declined; resign it, or ask the director",
                    event.settings.name
                ),
                Some(number),
            ));
        }
        if let Some(ladder) = ladders::ladder_name_of_board(ctx.conn, number)? {
            return Err(refuse(
                format!(
                    "board {number} is a game of the ladder \"{ladder}\" and cannot be declined: joining the ladder was consent; resign it instead"
                ),
                Some(number),
            ));
        }
        if loaded.turns.iter().any(|turn| turn.player == player.id) {
            return Err(refuse(
                format!("you already moved on board {number}; resign instead of declining"),
                Some(number),
            ));
        }
        end_game(
            ctx,
            number,
            Ending::Declined {
                reason: &format!("declined by {}", player.userid),
            },
        )?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
