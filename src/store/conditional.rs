//! Conditional lines (issue 26): one row per player and board holding the
//! player's tree in the stored text form of `pbem-conditional`, and the
//! number of turns of the position it is relative to. The text is read
//! back (and checked against the position) by the service only.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, time_text};
use crate::domain::BoardNumber;

/// One player's stored tree on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLines {
    pub player: PlayerId,
    /// The tree is relative to the position after this many turns.
    pub at_turn: u32,
    pub stored: String,
}

/// The stored trees of a board (at most one per player).
pub fn of_board(conn: &Connection, board: BoardNumber) -> Result<Vec<StoredLines>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT player_id, at_turn, stored FROM conditional_lines WHERE board = ?1 ORDER BY player_id",
    )?;
    let rows = statement.query_map([board], |row| {
        Ok(StoredLines {
            player: PlayerId(row.get(0)?),
            at_turn: row.get(1)?,
            stored: row.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The stored tree of `player` on `board`, if any.
pub fn of_player(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<Option<StoredLines>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT player_id, at_turn, stored FROM conditional_lines WHERE board = ?1 AND player_id = ?2",
            params![board, player.0],
            |row| {
                Ok(StoredLines {
                    player: PlayerId(row.get(0)?),
                    at_turn: row.get(1)?,
                    stored: row.get(2)?,
                })
            },
        )
        .optional()?)
}

/// Stores `player`'s tree on `board`, relative to the position after
/// `at_turn` turns, in place of any before.
pub fn set(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
    at_turn: u32,
    stored: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO conditional_lines (board, player_id, at_turn, stored, updated_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (board, player_id) DO UPDATE SET at_turn = excluded.at_turn, stored = excluded.stored, updated_at = excluded.updated_at",
        params![board, player.0, at_turn, stored, time_text(now)],
    )?;
    Ok(())
}

/// Drops `player`'s lines on `board`; whether there were any.
pub fn clear(conn: &Connection, board: BoardNumber, player: PlayerId) -> Result<bool, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM conditional_lines WHERE board = ?1 AND player_id = ?2",
        params![board, player.0],
    )? > 0)
}
