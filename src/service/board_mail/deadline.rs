//! When the player to move loses on time: one answer for board mails and
//! `games`, from the board's clock where it has a time control, from its
//! days without a move otherwise.

use shakmaty::Color;
use time::OffsetDateTime;

use crate::domain::{TurnDeadlines, Vacation};
use crate::schedule;
use crate::service::ServiceError;
use crate::store::boards::{self, Board};
use rusqlite::Connection;

/// The deadlines of a board without a time control, with the vacations of
/// the player to move that stop them; `now` is never before the last turn.
pub(super) fn untimed(
    conn: &Connection,
    board: &Board,
    to_move: Color,
    now: OffsetDateTime,
) -> Result<(TurnDeadlines, Vec<Vacation>, OffsetDateTime), ServiceError> {
    let mover = board.player(to_move);
    let away =
        crate::store::deadlines::honoured_vacations(conn, board.number, board.last_turn_at, mover)?;
    let deadlines = TurnDeadlines {
        board: board.number,
        to_move: Some(mover),
        last_turn_at: board.last_turn_at,
        nag_days: board.options.nag_days,
        forfeit_days: board.options.forfeit_days,
        nags_sent: 0,
        draw_offered_at: None,
    };
    Ok((deadlines, away, now.max(board.last_turn_at)))
}

/// When `to_move` loses `board` on time if no turn comes; `None` for a
/// finished game and for a challenge that waits (no clock runs).
pub fn loses_on_time_at(
    conn: &Connection,
    board: &Board,
    to_move: Color,
    now: OffsetDateTime,
) -> Result<Option<OffsetDateTime>, ServiceError> {
    if board.is_finished() || boards::unaccepted(conn, board.number)?.is_some() {
        return Ok(None);
    }
    if let Some(timed) = crate::service::clocks::board_clock(conn, board, to_move, now)? {
        return Ok(Some(timed.clock.loses_at()));
    }
    let (deadlines, away, now) = untimed(conn, board, to_move, now)?;
    Ok(Some(schedule::forfeit_at(&deadlines, &away, now)))
}
