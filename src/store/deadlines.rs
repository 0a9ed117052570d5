//! What the deadline sweep reads and writes: the per-turn deadlines of active boards,
//! reminders sent, and vacations.

use rusqlite::{Connection, params};
use time::OffsetDateTime;

pub use crate::domain::{TurnDeadlines, Vacation};

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};
use crate::domain::BoardNumber;

/// The columns of a [`TurnDeadlines`], for [`read_deadlines`].
const DEADLINES_SELECT: &str = "SELECT b.number, b.to_move_id, b.last_turn_at, b.nag_days, b.forfeit_days, b.nags_sent, o.created_at
     FROM boards b LEFT JOIN offers o ON o.board = b.number AND o.kind = 'draw'
     WHERE b.result IS NULL AND b.challenged_id IS NULL";

/// The per-turn deadlines of every board still being played. A challenge that waits
/// for its challenged player has no clock yet (it lapses instead: see
/// `service::challenges`).
pub fn active_deadlines(conn: &Connection) -> Result<Vec<TurnDeadlines>, StoreError> {
    read_deadlines(conn, &format!("{DEADLINES_SELECT} ORDER BY b.number"), [])
}

/// The per-turn deadlines of `board`, if it is still being played.
pub fn deadlines_of(
    conn: &Connection,
    board: BoardNumber,
) -> Result<Option<TurnDeadlines>, StoreError> {
    let sql = format!("{DEADLINES_SELECT} AND b.number = ?1");
    Ok(read_deadlines(conn, &sql, [board])?.pop())
}

fn read_deadlines(
    conn: &Connection,
    sql: &str,
    params: impl rusqlite::Params,
) -> Result<Vec<TurnDeadlines>, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    let rows = statement.query_map(params, |row| {
        Ok((
            row.get::<_, BoardNumber>(0)?,
            row.get::<_, Option<i64>>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, u32>(3)?,
            row.get::<_, u32>(4)?,
            row.get::<_, u32>(5)?,
            row.get::<_, Option<String>>(6)?,
        ))
    })?;
    rows.map(|row| {
        let (board, to_move, last, nag_days, forfeit_days, nags_sent, offered) = row?;
        Ok(TurnDeadlines {
            board,
            to_move: to_move.map(PlayerId),
            last_turn_at: parse_time(&last)?,
            nag_days,
            forfeit_days,
            nags_sent,
            draw_offered_at: offered.as_deref().map(parse_time).transpose()?,
        })
    })
    .collect()
}

/// Records who is to move now, and restarts the reminder count.
pub fn set_to_move(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET to_move_id = ?2, nags_sent = 0 WHERE number = ?1",
        params![board, player.0],
    )?;
    Ok(())
}

pub fn set_nags_sent(conn: &Connection, board: BoardNumber, nags: u32) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE boards SET nags_sent = ?2 WHERE number = ?1",
        params![board, nags],
    )?;
    Ok(())
}

/// Active boards whose player to move is not recorded yet.
pub fn boards_without_to_move(conn: &Connection) -> Result<Vec<BoardNumber>, StoreError> {
    let mut statement = conn
        .prepare_cached("SELECT number FROM boards WHERE result IS NULL AND to_move_id IS NULL")?;
    let rows = statement.query_map([], |row| row.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

pub fn add_vacation(
    conn: &Connection,
    player: PlayerId,
    vacation: Vacation,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO vacations (player_id, starts_at, ends_at) VALUES (?1, ?2, ?3)",
        params![
            player.0,
            time_text(vacation.starts_at),
            time_text(vacation.ends_at)
        ],
    )?;
    Ok(())
}

/// Every vacation that ends after `after`, by player.
pub fn vacations_ending_after(
    conn: &Connection,
    after: OffsetDateTime,
) -> Result<Vec<(PlayerId, Vacation)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT player_id, starts_at, ends_at FROM vacations WHERE ends_at > ?1 ORDER BY player_id, starts_at",
    )?;
    let rows = statement.query_map([time_text(after)], |row| {
        Ok((
            PlayerId(row.get(0)?),
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
        ))
    })?;
    rows.map(|row| {
        let (player, starts, ends) = row?;
        Ok((
            player,
            Vacation {
                starts_at: parse_time(&starts)?,
                ends_at: parse_time(&ends)?,
            },
        ))
    })
    .collect()
}

/// The vacations of `player` that stop the clock of `board` (its last turn
/// at `last_turn_at`): those since its last turn, or, on a board of an
/// event with a vacation allowance, that many days of them since the start
/// of the event. The times every address of the player was failing
/// (bounces, see `service::bounces`) count as vacation: each is cut to the
/// yearly vacation days the player had left when it began, and in an
/// event it is within the event's allowance with the rest (so none under
/// `--vacation=0`). Overlapping times are merged. The sweep, the board
/// mails and the web site all reckon with this.
pub fn honoured_vacations(
    conn: &Connection,
    board: BoardNumber,
    last_turn_at: OffsetDateTime,
    player: PlayerId,
) -> Result<Vec<Vacation>, StoreError> {
    Ok(
        match super::tournaments::vacation_allowance_of(conn, board)? {
            Some((days, since)) => {
                let mut times = vacations_of(conn, player, since)?;
                times.extend(super::delivery::pauses_of(conn, player, since)?);
                crate::schedule::within_allowance(&merged(times), since, days)
            }
            None => {
                let mut times = vacations_of(conn, player, last_turn_at)?;
                times.extend(super::delivery::pauses_of(conn, player, last_turn_at)?);
                merged(times)
            }
        },
    )
}

/// `times` sorted, overlapping ones joined into one.
fn merged(mut times: Vec<Vacation>) -> Vec<Vacation> {
    times.sort_by_key(|v| v.starts_at);
    let mut joined: Vec<Vacation> = Vec::with_capacity(times.len());
    for time in times {
        match joined.last_mut() {
            Some(last) if time.starts_at <= last.ends_at => {
                last.ends_at = last.ends_at.max(time.ends_at);
            }
            _ => joined.push(time),
        }
    }
    joined
}

/// The vacations of `player` that end after `after`.
pub fn vacations_of(
    conn: &Connection,
    player: PlayerId,
    after: OffsetDateTime,
) -> Result<Vec<Vacation>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT starts_at, ends_at FROM vacations WHERE player_id = ?1 AND ends_at > ?2 ORDER BY starts_at",
    )?;
    let rows = statement.query_map(params![player.0, time_text(after)], |row| {
        Ok((row.get::<_, String>(0)?, row.get::<_, String>(1)?))
    })?;
    rows.map(|row| {
        let (starts, ends) = row?;
        Ok(Vacation {
            starts_at: parse_time(&starts)?,
            ends_at: parse_time(&ends)?,
        })
    })
    .collect()
}
