//! What a board's time control keeps (migration 0020): the control and
//! reminders, the log of clock events the clock is replayed from, and the
//! reminders sent. Boards without a control (made before clocks, or
//! without `--time`/`--remind`) keep their deadlines in
//! [`deadlines`](super::deadlines) as before.
//!
//! Turns, take-backs and acceptances are logged by the store functions
//! that record them (`boards::append_turn`, `boards::remove_last_turn`,
//! `boards::accept_challenge`), so every way of playing a turn is counted.

use pbem_clock::{Clock, Days, Event, History, Interval, Reminded, Reminders, Side, TimeControl};
use rusqlite::{Connection, OptionalExtension, params};
use shakmaty::Color;
use time::OffsetDateTime;

use super::boards::Board;
use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};
use crate::domain::BoardNumber;

/// A board's control as stored, and what its clock is replayed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredClock {
    pub control: TimeControl,
    pub reminders: Reminders,
    /// When the first clock started: the challenge's acceptance, or the
    /// board's creation.
    pub started_at: OffsetDateTime,
    /// Turns, take-backs and extensions in the order stored.
    pub events: Vec<Event>,
    pub reminded: Reminded,
}

impl StoredClock {
    /// How many turns and take-backs the clock counted: each hands the
    /// move to the other side.
    pub fn turns_and_takebacks(&self) -> usize {
        self.events
            .iter()
            .filter(|event| !matches!(event, Event::Extend { .. }))
            .count()
    }
}

fn side_text(side: Side) -> &'static str {
    match side {
        Side::White => "white",
        Side::Black => "black",
    }
}

/// Gives `board` its control and reminders (at its creation).
pub fn set_control(
    conn: &Connection,
    board: BoardNumber,
    control: TimeControl,
    reminders: Reminders,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET time_control = ?2, reminders = ?3 WHERE number = ?1",
        params![board, control.to_string(), reminders.to_string()],
    )?;
    Ok(())
}

/// Gives an event the control and reminders its games take (see the
/// trigger of migration 0020).
pub fn set_event_control(
    conn: &Connection,
    event: i64,
    control: TimeControl,
    reminders: Reminders,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE tournaments SET time_control = ?2, reminders = ?3 WHERE id = ?1",
        params![event, control.to_string(), reminders.to_string()],
    )?;
    Ok(())
}

/// An event's control and reminders, if it has them.
pub fn event_control(
    conn: &Connection,
    event: i64,
) -> Result<Option<(TimeControl, Reminders)>, StoreError> {
    let row: Option<(Option<String>, Option<String>)> = conn
        .query_row_cached(
            "SELECT time_control, reminders FROM tournaments WHERE id = ?1",
            [event],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    match row {
        Some((Some(control), reminders)) => Ok(Some((
            parse_control(&control)?,
            parse_reminders(reminders.as_deref())?,
        ))),
        _ => Ok(None),
    }
}

fn parse_control(text: &str) -> Result<TimeControl, StoreError> {
    text.parse()
        .map_err(|e| StoreError::Corrupt(format!("time control {text:?}: {e}")))
}

fn parse_reminders(text: Option<&str>) -> Result<Reminders, StoreError> {
    match text {
        None => Ok(Reminders::default()),
        Some(text) => text
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("reminders {text:?}: {e}"))),
    }
}

/// The control of `board` and the events of its clock; `None` for a board
/// without a control.
pub fn stored_clock(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<StoredClock>, StoreError> {
    type Row = (Option<String>, Option<String>, String, u32, Option<String>);
    let row: Option<Row> = conn
        .query_row_cached(
            "SELECT time_control, reminders, created_at, nags_sent, reminded_at
             FROM boards WHERE number = ?1",
            [board],
            |row| {
                Ok((
                    row.get(0)?,
                    row.get(1)?,
                    row.get(2)?,
                    row.get(3)?,
                    row.get(4)?,
                ))
            },
        )
        .optional()?;
    let Some((Some(control), reminders, created_at, this_turn, reminded_at)) = row else {
        return Ok(None);
    };
    let mut started_at = parse_time(&created_at)?;
    let mut events = Vec::new();
    let mut statement = conn.prepare_cached(
        "SELECT kind, at, side, hundredths FROM clock_events WHERE board = ?1 ORDER BY id",
    )?;
    let rows = statement.query_map([board], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, Option<String>>(2)?,
            row.get::<_, Option<u32>>(3)?,
        ))
    })?;
    for row in rows {
        let (kind, at, side, hundredths) = row?;
        let at = parse_time(&at)?;
        match (kind.as_str(), side.as_deref(), hundredths) {
            ("start", _, _) => started_at = at,
            ("turn", _, _) => events.push(Event::Turn { at }),
            ("takeback", _, _) => events.push(Event::TakeBack { at }),
            ("extend", Some(side), Some(hundredths)) => events.push(Event::Extend {
                at,
                to: if side == "white" {
                    Side::White
                } else {
                    Side::Black
                },
                days: Days::from_hundredths(hundredths),
            }),
            _ => {
                return Err(StoreError::Corrupt(format!(
                    "clock event {kind:?} of board {board}"
                )));
            }
        }
    }
    Ok(Some(StoredClock {
        control: parse_control(&control)?,
        reminders: parse_reminders(reminders.as_deref())?,
        started_at,
        events,
        reminded: Reminded {
            this_turn,
            last_at: reminded_at.as_deref().map(parse_time).transpose()?,
        },
    }))
}

/// Logs a clock event of `kind` at `at` on `board`, if it has a control.
pub(super) fn log(
    conn: &Connection,
    board: BoardNumber,
    kind: &str,
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO clock_events (board, kind, at)
         SELECT number, ?2, ?3 FROM boards WHERE number = ?1 AND time_control IS NOT NULL",
        params![board, kind, time_text(at)],
    )?;
    Ok(())
}

/// Logs `days` given to `to` on `board` by `by` (the `extend` command).
pub fn add_extension(
    conn: &Connection,
    board: BoardNumber,
    at: OffsetDateTime,
    to: Side,
    days: Days,
    by: PlayerId,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO clock_events (board, kind, at, side, hundredths, by_player)
         VALUES (?1, 'extend', ?2, ?3, ?4, ?5)",
        params![board, time_text(at), side_text(to), days.hundredths(), by.0],
    )?;
    Ok(())
}

/// Records the reminders counted for the turn in progress, and when the
/// last one was sent.
pub fn set_reminded(
    conn: &Connection,
    board: BoardNumber,
    this_turn: u32,
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET nags_sent = ?2, reminded_at = ?3 WHERE number = ?1",
        params![board, this_turn, time_text(at)],
    )?;
    Ok(())
}

/// The boards being played (not waiting for a challenge's answer) that
/// have a time control.
pub fn controlled_boards(
    conn: &Connection,
) -> Result<std::collections::HashSet<BoardNumber>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT number FROM boards
         WHERE result IS NULL AND challenged_id IS NULL AND time_control IS NOT NULL",
    )?;
    let rows = statement.query_map([], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Whether `board` has a time control.
pub fn has_control(conn: &Connection, board: BoardNumber) -> Result<bool, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM boards WHERE number = ?1 AND time_control IS NOT NULL",
        [board],
        |row| row.get::<_, i64>(0),
    )? > 0)
}

/// A board's clock now, with what it was replayed from.
pub struct BoardClock {
    pub clock: Clock,
    pub stored: StoredClock,
}

/// The clock of `board` at `now`, replayed by pbem-clock with the
/// vacations of [`honoured_vacations`](super::deadlines::honoured_vacations)
/// (the one place that says what stops a clock), `to_move` being the side
/// to move; `None` for a board without a time control.
pub fn board_clock(
    conn: &Connection,
    board: &Board,
    to_move: Color,
    now: OffsetDateTime,
) -> Result<Option<BoardClock>, StoreError> {
    let Some(stored) = stored_clock(conn, board.number)? else {
        return Ok(None);
    };
    let away = |player| -> Result<Vec<Interval>, StoreError> {
        Ok(
            super::deadlines::honoured_vacations(conn, board.number, stored.started_at, player)?
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
    let to_move = match to_move {
        Color::White => Side::White,
        Color::Black => Side::Black,
    };
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
    let clock = history.clock_at(now).map_err(|error| {
        StoreError::Corrupt(format!("the clock of board {}: {error}", board.number))
    })?;
    Ok(Some(BoardClock { clock, stored }))
}

/// The control `board` is played under: its stored control, or for a
/// board without one, its days for a turn (the loss-on-time days its
/// deadlines keep) as `D`.
pub fn control_of(conn: &Connection, board: &Board) -> Result<TimeControl, StoreError> {
    let stored: Option<String> = conn.query_row_cached(
        "SELECT time_control FROM boards WHERE number = ?1",
        [board.number],
        |row| row.get(0),
    )?;
    match stored {
        Some(text) => parse_control(&text),
        None => Ok(TimeControl::per_turn_days(board.options.forfeit_days)),
    }
}
