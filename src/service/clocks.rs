//! Boards with a time control (issue 27): their clock, replayed by the
//! crate pbem-clock from what the store keeps (`store::clocks`), and the
//! vacations that stop it (`store::deadlines::honoured_vacations`, the one
//! place that says what stops a clock). The sweep, the board mails, the
//! web page and `extend` all read a board's clock here.

use pbem_clock::{Clock, History, Interval, Reminders, Side, TimeControl};
use rusqlite::Connection;
use shakmaty::Color;
use time::OffsetDateTime;

use super::ServiceError;
use crate::store::boards::Board;
use crate::store::clocks::{self, StoredClock};
use crate::store::deadlines;

/// A board's clock now, with what it was replayed from.
pub struct BoardClock {
    pub clock: Clock,
    pub stored: StoredClock,
}

pub fn side_of(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// The clock of `board` at `now`, `to_move` being the side to move; `None`
/// for a board without a time control.
pub fn board_clock(
    conn: &Connection,
    board: &Board,
    to_move: Color,
    now: OffsetDateTime,
) -> Result<Option<BoardClock>, ServiceError> {
    let Some(stored) = clocks::stored_clock(conn, board.number)? else {
        return Ok(None);
    };
    let away = |player| -> Result<Vec<Interval>, ServiceError> {
        Ok(
            deadlines::honoured_vacations(conn, board.number, stored.started_at, player)?
                .into_iter()
                .map(|v| Interval {
                    starts_at: v.starts_at,
                    ends_at: v.ends_at,
                })
                .collect(),
        )
    };
    let (white_away, black_away) = (away(board.white)?, away(board.black)?);
    // Each turn and take-back hands the move over: the side that moved
    // first is found back from the side to move now.
    let to_move = side_of(to_move);
    let first = if stored.turns_and_takebacks() % 2 == 0 {
        to_move
    } else {
        to_move.opponent()
    };
    let history = History {
        control: stored.control,
        started_at: stored.started_at,
        first,
        events: &stored.events,
        white_away: &white_away,
        black_away: &black_away,
    };
    let clock = history
        .clock_at(now)
        .map_err(|error| ServiceError::CorruptGame {
            board: board.number,
            reason: error.to_string(),
        })?;
    Ok(Some(BoardClock { clock, stored }))
}

/// Both players' clocks for the board mail, by name: `alice (White): 12
/// days 4 hours left`.
pub fn clock_lines(clock: &Clock, white: &str, black: &str) -> Vec<String> {
    [(Side::White, white), (Side::Black, black)]
        .into_iter()
        .map(|(side, name)| format!("{name} ({side}): {}", clock.line(side)))
        .collect()
}

/// The control and reminders `--time` and `--remind` ask for (of a
/// challenge or an event); `None` when neither is given: the board keeps
/// the deadlines of `--days`/`--forfeit`/`--nag` as before. `--days=D`
/// (or `--forfeit=D`) with `--remind` is the control `D`, which
/// `forfeit_days` holds.
pub(super) fn chosen_control(
    time: Option<TimeControl>,
    remind: Option<Reminders>,
    days_given: bool,
    nag_given: bool,
    forfeit_days: u32,
) -> Result<Option<(TimeControl, Reminders)>, String> {
    if time.is_none() && remind.is_none() {
        return Ok(None);
    }
    if time.is_some() && days_given {
        return Err(
            "give --time or --days/--forfeit, not both: they all set the time for a turn (--days=3 is --time=3)"
                .into(),
        );
    }
    if nag_given {
        return Err(
            "with --time or --remind, --remind says when reminders come (e.g. --remind=25%,1), not --nag"
                .into(),
        );
    }
    Ok(Some((
        time.unwrap_or(TimeControl::per_turn_days(forfeit_days)),
        remind.unwrap_or_default(),
    )))
}
