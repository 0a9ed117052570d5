//! The act of `queue`: a turn kept to be played after the opponent's next
//! one, if it is legal then.

use super::{Act, Asked};
use crate::command::Queue;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::rules::notation::parse_turn;
use crate::service::challenges;
use crate::service::play::my_active_board;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards::{self};

impl Act for Queue {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let player = ctx.speaker(&self.speaker, asked.token, Some(number))?;
        let (loaded, color) = my_active_board(ctx, number, &player)?;
        if loaded.game.state().turn() == color {
            return Err(refuse(
                format!(
                    "it is your turn on board {number}: send the turn with move instead of queueing it"
                ),
                Some(number),
            ));
        }
        parse_turn(&self.turn).map_err(|e| refuse(e.to_string(), Some(number)))?;
        // A turn queued by the challenged player accepts the challenge too.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        boards::set_queued_turn(ctx.conn, number, player.id, &self.turn, ctx.now)?;
        let mut text = format!(
            "Queued on board {number}: {} will be played after your opponent's next turn, if it is legal then.",
            self.turn
        );
        // A queued turn answers whatever is played: it replaces conditional moves.
        if crate::store::conditional::clear(ctx.conn, number, player.id)? {
            text.push_str(" Your conditional moves on this board were dropped: the queued turn takes their place.");
        }
        let subject = format!(
            "{} Board {number} queued",
            loaded.board.variant.display_name()
        );
        Ok(vec![ctx.notice_to_sender(&subject, &text)?])
    }
}
