//! Password resets by mail (migration 0028): one row per reset mail sent,
//! used once (see `service::commands::password`).

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};

/// Records a reset of `player` made `now`; returns its number.
pub fn insert(conn: &Connection, player: PlayerId, now: OffsetDateTime) -> Result<i64, StoreError> {
    conn.execute_cached(
        "INSERT INTO password_resets (player_id, created_at) VALUES (?1, ?2)",
        params![player.0, time_text(now)],
    )?;
    Ok(conn.last_insert_rowid())
}

/// Whether a reset of `player` was made since `since`.
pub fn made_since(
    conn: &Connection,
    player: PlayerId,
    since: OffsetDateTime,
) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM password_resets WHERE player_id = ?1 AND created_at >= ?2 LIMIT 1",
            params![player.0, time_text(since)],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// When reset `id` of `player` was made, if it exists and is unused.
pub fn unused(
    conn: &Connection,
    id: i64,
    player: PlayerId,
) -> Result<Option<OffsetDateTime>, StoreError> {
    let made: Option<String> = conn
        .query_row_cached(
            "SELECT created_at FROM password_resets
             WHERE id = ?1 AND player_id = ?2 AND used_at IS NULL",
            params![id, player.0],
            |row| row.get(0),
        )
        .optional()?;
    made.as_deref().map(parse_time).transpose()
}

/// Marks reset `id` used.
pub fn mark_used(conn: &Connection, id: i64, now: OffsetDateTime) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE password_resets SET used_at = ?2 WHERE id = ?1",
        params![id, time_text(now)],
    )?;
    Ok(())
}
