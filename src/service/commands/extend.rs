//! The act of `extend`: extra days on the clock of the speaker's
//! opponent.

use super::{Act, Asked};
use crate::command::Extend;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion};
use crate::service::clocks::{BoardClock, board_clock, side_of};
use crate::service::{Failure, MailCtx, refuse};
use crate::store::{boards, clocks, players};
use pbem_clock::{Days, MAX_EXTENSION_DAYS};

/// `extend`: the speaker gives their opponent `days` more on the clock,
/// at most [`pbem_clock::MAX_EXTENSION_DAYS`] a game (both players'
/// grants together), never once the player to move's time ran out. Both
/// players read it in the board mail it brings, and under the board until
/// the next turn.
impl Act for Extend {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        // In a reply, the reply's board.
        let number = if self.board == 0 {
            asked.token.map_or(BoardNumber(0), |(board, _)| board)
        } else {
            BoardNumber(self.board)
        };
        let player = ctx.speaker(&self.speaker, asked.token, Some(number))?;
        let loaded = board_mail::load(ctx, number)?;
        let Some(color) = loaded.board.color_of(player.id) else {
            return Err(refuse(
                format!("{} does not play on board {number}", player.userid),
                Some(number),
            ));
        };
        if let Some(result) = &loaded.board.result {
            return Err(refuse(
                format!("board {number} is finished ({result})"),
                Some(number),
            ));
        }
        if boards::unaccepted(ctx.conn, number)?.is_some() {
            return Err(refuse(
                format!("the challenge of board {number} is not accepted yet: no clock runs"),
                Some(number),
            ));
        }
        let Some(BoardClock { clock, .. }) =
            board_clock(ctx.conn, &loaded.board, loaded.game.state().turn(), ctx.now)?
        else {
            return Err(refuse(
                format!(
                    "board {number} has no time control (it was made without --time): its deadlines cannot be extended"
                ),
                Some(number),
            ));
        };
        clock
            .check_extension(self.days)
            .map_err(|why| refuse(format!("board {number}: {why}"), Some(number)))?;
        let opponent = players::by_id(ctx.conn, loaded.board.player(!color))?;
        clocks::add_extension(
            ctx.conn,
            number,
            ctx.now,
            side_of(!color),
            self.days,
            player.id,
        )?;
        let left = clock
            .extension_room()
            .checked_sub(self.days)
            .unwrap_or(Days::ZERO);
        let note = format!(
            "{} gave {} {} more on the clock (extend); {} of the {MAX_EXTENSION_DAYS} extra days a game may have {} left.",
            player.userid,
            opponent.userid,
            pbem_clock::days_text(self.days),
            left,
            if left.to_string() == "1" { "is" } else { "are" }
        );
        boards::add_comment(
            ctx.conn,
            number,
            None,
            loaded.turns.len() as u32,
            &note,
            ctx.now,
        )?;
        drop(loaded);
        Ok(board_mail::board_mails(ctx, number, Occasion::Update)?)
    }
}
