//! The one way a game ends. Every path that finishes a board (a mating
//! turn, resignation, an agreed or claimed draw, `decline`, a loss on time,
//! an unanswered offer) calls [`end_game`], inside the transaction of the
//! mail or sweep that ended it, so whatever else a result must change
//! happens together with it or not at all.

use super::{Ctx, ServiceError};
use crate::store::boards;

/// How a game ended, as the board records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Ending<'a> {
    /// A game played to a result: `1-0`, `0-1` or `1/2-1/2`.
    Played { score: &'a str, reason: &'a str },
    /// Declined before the decliner moved: no result, the game never counted.
    Declined { reason: &'a str },
}

/// Records the end of board `number`.
pub(super) fn end_game(ctx: &Ctx<'_>, number: u32, ending: Ending<'_>) -> Result<(), ServiceError> {
    let (score, reason) = match ending {
        Ending::Played { score, reason } => (score, reason),
        Ending::Declined { reason } => ("-", reason),
    };
    boards::set_result(ctx.conn, number, score, reason, ctx.now)?;
    if let Ending::Played { .. } = ending {
        // A rated board's result changes both ratings, here or never.
        super::ratings::rate_result(ctx, number)?;
    }
    Ok(())
}
