//! The act of `move` (and of a turn alone in a reply): the turn is judged
//! and stored, the queued turn of the opponent follows, and the board mails
//! go out at the end of the mail.

use super::{Act, Asked};
use crate::command::MoveTurn;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::{challenges, deadlines};
use crate::service::play::{my_active_board, play_queued, play_turn};
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards::{self, OfferKind};

impl Act for MoveTurn {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let player = ctx.speaker(&self.speaker, asked.token, Some(number))?;
        let (mut loaded, color) = my_active_board(ctx, number, &player)?;
        let due = loaded.turns.len() as u32 + 1;
        if let Some(guard) = self.guard
            && guard != due
        {
            return Err(refuse(
                format!(
                    "this mail is for turn #{guard}, but turn #{due} is being played; nothing was changed"
                ),
                Some(number),
            ));
        }
        if loaded.game.state().turn() != color {
            return Err(refuse(
                format!("it is not your turn on board {number}; your opponent is to move"),
                Some(number),
            ));
        }
        // A turn after the mover's time ran out is not played: the game is
        // lost on time at once, as the sweep would have scored it.
        if boards::unaccepted(ctx.conn, number)?.is_none()
            && let Some(reason) = deadlines::lost_before_turn(&mut ctx.ctx, number, player.id)?
        {
            ctx.tell_player(
                number,
                player.id,
                format!(
                    "Your turn {} was not played: the game was lost on time ({reason}).",
                    self.turn
                ),
            );
            return Ok(board_mail::board_mails(ctx, number, Occasion::Update)?);
        }
        // The challenged player's first turn accepts the challenge.
        challenges::accept_if_waiting(ctx, &loaded.board, &player)?;
        play_turn(ctx, &mut loaded, player.id, &self.turn)?;
        // A turn answers the opponent's standing offers by ignoring them.
        for (kind, what) in [
            (OfferKind::Draw, "draw offer"),
            (OfferKind::Undo, "request to take back the last turn"),
        ] {
            if boards::offer(ctx.conn, number, kind)?.is_some_and(|offer| offer.by != player.id) {
                ctx.tell(
                    number,
                    format!("{} played on: the {what} lapsed.", player.userid),
                );
            }
            boards::clear_offer(ctx.conn, number, kind)?;
        }
        play_queued(ctx, &mut loaded)?;
        ctx.keep_after_turn(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
