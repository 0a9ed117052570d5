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

#[cfg(test)]
mod tests {
    use rusqlite_migration::Migrations;
    use time::macros::datetime;

    use super::*;
    use crate::store::{MIGRATION_NAMES, MIGRATIONS, players};

    /// Migration 0019 lets the board column hold `list` and keeps the rows
    /// made before it, their player's cascade included.
    #[test]
    fn the_list_is_stored_after_migration_0019_and_older_rows_stay() {
        let mut conn = Connection::open_in_memory().expect("a database");
        conn.pragma_update(None, "foreign_keys", "ON")
            .expect("foreign keys");
        let before = MIGRATION_NAMES
            .iter()
            .position(|name| *name == "0019_board_list")
            .expect("migration 0019");
        Migrations::from_slice(&MIGRATIONS[..before])
            .to_latest(&mut conn)
            .expect("the migrations before 0019");
        let now = datetime!(2026-03-01 12:00 UTC);
        let alice = players::insert(&conn, "alice", "x", &[], now).expect("alice");
        let bob = players::insert(&conn, "bob", "x", &[], now).expect("bob");
        let compact = Preferences {
            board: BoardChoice::Compact,
            mail: MailChoice::Digest,
            pgn: false,
        };
        set(&conn, alice, compact).expect("a preference of then");
        let list = Preferences {
            board: BoardChoice::List,
            ..Preferences::default()
        };
        assert!(set(&conn, bob, list).is_err(), "refused before 0019");

        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .expect("migration 0019");
        assert_eq!(get(&conn, alice).expect("read"), compact);
        set(&conn, bob, list).expect("stored");
        assert_eq!(get(&conn, bob).expect("read"), list);
        conn.execute("DELETE FROM players WHERE id = ?1", [bob.0])
            .expect("bob leaves");
        let left: i64 = conn
            .query_row("SELECT count(*) FROM preferences", [], |row| row.get(0))
            .expect("count");
        assert_eq!(left, 1, "bob's preferences went with him");
    }

    #[test]
    fn every_board_choice_reads_back_from_its_word() {
        for choice in [
            BoardChoice::Ascii,
            BoardChoice::Compact,
            BoardChoice::Html,
            BoardChoice::List,
        ] {
            assert_eq!(BoardChoice::from_word(choice.word()), Some(choice));
        }
        assert_eq!(BoardChoice::from_word("LIST"), Some(BoardChoice::List));
    }
}
