//! The mails pbem sent that a player may reply to: which board, player and
//! position each showed, and digests of its lines (migration 0008).

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, time_text};
use crate::domain::BoardNumber;

/// A mail pbem sent on a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentMail {
    pub message_id: String,
    pub board: BoardNumber,
    pub player: Option<PlayerId>,
    /// The number of the turn being played when it was sent.
    pub turn_seq: u32,
    /// Digests of its lines (`mail::reply::Known::to_bytes`).
    pub lines: Vec<u8>,
}

/// Records a mail sent to `address` on `board`.
pub fn record(
    conn: &Connection,
    mail: &SentMail,
    address: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT OR IGNORE INTO sent_mails (message_id, board, player_id, address, turn_seq, lines, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            mail.message_id,
            mail.board,
            mail.player.map(|p| p.0),
            address,
            mail.turn_seq,
            mail.lines,
            time_text(now)
        ],
    )?;
    Ok(())
}

/// Deletes the record of the mail `message_id` (as [`record`] stored it).
pub fn forget(conn: &Connection, message_id: &str) -> Result<(), StoreError> {
    conn.execute_cached("DELETE FROM sent_mails WHERE message_id = ?1", [message_id])?;
    Ok(())
}

/// A `sent_mails` row selected as `message_id, board, player_id, turn_seq, lines`.
fn sent_mail(row: &rusqlite::Row<'_>) -> rusqlite::Result<SentMail> {
    Ok(SentMail {
        message_id: row.get(0)?,
        board: row.get(1)?,
        player: row.get::<_, Option<i64>>(2)?.map(PlayerId),
        turn_seq: row.get(3)?,
        lines: row.get(4)?,
    })
}

/// The recorded mail with this Message-ID.
pub fn by_message_id(conn: &Connection, message_id: &str) -> Result<Option<SentMail>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT message_id, board, player_id, turn_seq, lines FROM sent_mails WHERE message_id = ?1",
            [message_id],
            sent_mail,
        )
        .optional()?)
}

/// The Message-ID of the first mail of `board` sent to `address`, or of
/// the board's first mail to anyone when `address` got none yet: the root
/// of the board's conversation.
pub fn thread_root(
    conn: &Connection,
    board: BoardNumber,
    address: &str,
) -> Result<Option<String>, StoreError> {
    let own = conn
        .query_row_cached(
            "SELECT message_id FROM sent_mails WHERE board = ?1 AND address = ?2 ORDER BY rowid LIMIT 1",
            params![board, address],
            |row| row.get(0),
        )
        .optional()?;
    if own.is_some() {
        return Ok(own);
    }
    Ok(conn
        .query_row_cached(
            "SELECT message_id FROM sent_mails WHERE board = ?1 ORDER BY rowid LIMIT 1",
            [board],
            |row| row.get(0),
        )
        .optional()?)
}

/// The Message-ID of the newest mail of `board` sent to `address`.
pub fn latest(
    conn: &Connection,
    board: BoardNumber,
    address: &str,
) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT message_id FROM sent_mails WHERE board = ?1 AND address = ?2 ORDER BY rowid DESC LIMIT 1",
            params![board, address],
            |row| row.get(0),
        )
        .optional()?)
}

/// The newest mail of `board` sent to `player`.
pub fn latest_to_player(
    conn: &Connection,
    board: BoardNumber,
    player: PlayerId,
) -> Result<Option<SentMail>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT message_id, board, player_id, turn_seq, lines FROM sent_mails
             WHERE board = ?1 AND player_id = ?2 ORDER BY rowid DESC LIMIT 1",
            params![board, player.0],
            sent_mail,
        )
        .optional()?)
}

/// The number of turns played on `board`.
pub fn turns_played(conn: &Connection, board: BoardNumber) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM turns WHERE board = ?1",
        [board],
        |row| row.get(0),
    )?)
}

/// Forgets the sent mails of boards that ended before `before`, and those
/// about no board (a tournament's, board 0) sent before it; returns how
/// many. An active board keeps them all: they thread its conversation and
/// tell a stale reply from a current one.
pub fn prune_finished(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM sent_mails WHERE (board = 0 AND created_at < ?1) OR board IN
             (SELECT number FROM boards WHERE finished_at IS NOT NULL AND finished_at < ?1)",
        [time_text(before)],
    )?)
}
