//! Private notes (issue 35): each player's notes on a board they play,
//! written with `note` and read by their writer alone. Whoever reads them
//! asks `crate::reader::may_read_notes` first; no query of the web site
//! or of a shared mail reads this table.

use rusqlite::{Connection, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, time_text};
use crate::domain::BoardNumber;

/// One note as its writer reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredNote {
    /// The number of turns played when it was written.
    pub at_turn: u32,
    pub text: String,
}

/// Keeps a note of `player` on `board`.
pub fn add(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
    at_turn: u32,
    text: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO notes (board, player_id, at_turn, text, written_at) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![board, player.0, at_turn, text, time_text(now)],
    )?;
    Ok(())
}

/// The notes of `player` on `board`, oldest first.
pub fn of(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<Vec<StoredNote>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT at_turn, text FROM notes WHERE board = ?1 AND player_id = ?2 ORDER BY id",
    )?;
    let rows = statement.query_map(params![board, player.0], |row| {
        Ok(StoredNote {
            at_turn: row.get(0)?,
            text: row.get(1)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// How many characters the notes of `player` on `board` hold in all.
pub fn chars(conn: &Connection, board: BoardNumber, player: PlayerId) -> Result<usize, StoreError> {
    let chars: i64 = conn.query_row_cached(
        "SELECT COALESCE(SUM(length(text)), 0) FROM notes WHERE board = ?1 AND player_id = ?2",
        params![board, player.0],
        |row| row.get(0),
    )?;
    Ok(usize::try_from(chars).unwrap_or(usize::MAX))
}

/// Drops every note of `player` on `board`; how many there were.
pub fn clear(conn: &Connection, board: BoardNumber, player: PlayerId) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM notes WHERE board = ?1 AND player_id = ?2",
        params![board, player.0],
    )?)
}
