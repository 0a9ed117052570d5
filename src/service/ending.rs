//! The one way a game ends. Every path that finishes a board (a mating
//! turn, resignation, an agreed or claimed draw, `decline`, a loss on time,
//! an unanswered offer, a director's ruling, a withdrawal from an event,
//! a lapsed challenge) calls [`end_game`], inside the transaction of the
//! mail or sweep that ended it, so whatever else a result must change (the
//! event's bookkeeping: `service::event_rounds`) happens together with it or
//! not at all. A game that ends before each side made two turns is an
//! abort and never rated (`service::challenges`).

use super::{Ctx, ServiceError, event_rounds};
use crate::domain::BoardNumber;
use crate::store::boards;

/// How a game ended, as the board records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending<'a> {
    /// A game played to a result: `1-0`, `0-1` or `1/2-1/2` (a loss on
    /// time and a director's adjudication included).
    Played { score: &'a str, reason: &'a str },
    /// Scored without being played out (a player withdrew from the event):
    /// `1-0` or `0-1`. Not rated; an event counts it as a forfeit.
    Forfeit { score: &'a str, reason: &'a str },
    /// Declined before the decliner moved, a challenge that lapsed
    /// unanswered, or cancelled by a director: no result, the game never
    /// counted.
    Declined { reason: &'a str },
}

/// Records the end of board `number`.
pub(super) fn end_game(
    ctx: &Ctx<'_>,
    number: BoardNumber,
    ending: Ending<'_>,
) -> Result<(), ServiceError> {
    let (score, reason, forfeit) = match ending {
        Ending::Played { score, reason } => (score, reason, false),
        Ending::Forfeit { score, reason } => (score, reason, true),
        Ending::Declined { reason } => ("-", reason, false),
    };
    boards::set_result(ctx.conn, number, score, reason, ctx.now)?;
    if forfeit {
        // A score without a game is never rated; the board says so, for
        // the ratings rebuild, which rates every rated board with a score.
        boards::set_unrated(ctx.conn, number)?;
    }
    if let Ending::Played { .. } = ending {
        if super::challenges::is_abort(ctx, number)? {
            // A game hardly begun is no evidence of strength (and puppet
            // accounts resigning at once would farm ratings): an abort is
            // never rated, though an event still scores it.
            if boards::get(ctx.conn, number)?.is_some_and(|b| b.options.rated) {
                boards::set_unrated(ctx.conn, number)?;
                ctx.tell(
                    number,
                    format!(
                        "Not rated: the game ended before each player had made {} (an abort).",
                        crate::render::count(super::challenges::TURNS_TO_RATE, "turn")
                    ),
                );
            }
        } else {
            // A rated board's result changes both ratings, here or never.
            super::ratings::rate_result(ctx, number)?;
        }
    }
    event_rounds::game_ended(ctx, number, score, reason, forfeit)?;
    super::ladders::game_ended(ctx, number, score)?;
    Ok(())
}
