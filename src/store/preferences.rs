//! Each player's mail preferences (`set`, `settings`): the board style of
//! board mails, every turn or the daily digest, and the PGN attachment.

use rusqlite::{Connection, OptionalExtension, params};

pub use crate::domain::{BoardChoice, MailChoice, Preferences};

use super::players::PlayerId;
use super::{CachedStatements, StoreError};

/// The preferences of `player` (the defaults when never set).
pub fn get(conn: &Connection, player: PlayerId) -> Result<Preferences, StoreError> {
    let row = conn
        .prepare_cached("SELECT board, mail, pgn FROM preferences WHERE player_id = ?1")?
        .query_row([player.0], |row| {
            Ok((
                row.get::<_, String>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, bool>(2)?,
            ))
        })
        .optional()?;
    let Some((board, mail, pgn)) = row else {
        return Ok(Preferences::default());
    };
    let defaults = Preferences::default();
    Ok(Preferences {
        board: BoardChoice::from_word(&board).unwrap_or(defaults.board),
        mail: MailChoice::from_word(&mail).unwrap_or(defaults.mail),
        pgn,
    })
}

/// Stores `player`'s preferences.
pub fn set(
    conn: &Connection,
    player: PlayerId,
    preferences: Preferences,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO preferences (player_id, board, mail, pgn) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (player_id) DO UPDATE SET board = excluded.board, mail = excluded.mail, pgn = excluded.pgn",
        params![
            player.0,
            preferences.board.word(),
            preferences.mail.word(),
            preferences.pgn
        ],
    )?;
    Ok(())
}
