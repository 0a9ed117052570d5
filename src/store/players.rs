//! Players and their mail addresses.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::{CachedStatements, StoreError, parse_time, time_text};

pub use crate::domain::PlayerId;

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub userid: String,
    pub password_hash: String,
    /// Where mail goes first, then the other addresses the player may
    /// write from.
    pub addresses: Vec<String>,
    /// The addresses among them that bounces showed failing (see
    /// `store::delivery`).
    pub failing: Vec<String>,
    pub vacation_until: Option<OffsetDateTime>,
    pub vacation_days_used: u32,
    pub vacation_year: i32,
}

impl Player {
    /// The address board mail is sent to: the first that is not failing,
    /// or the first when all are (a player whose every address fails
    /// still gets mail, in case one works again).
    pub fn mail_address(&self) -> &str {
        self.addresses
            .iter()
            .find(|a| !self.is_failing(a))
            .or(self.addresses.first())
            .map_or("", String::as_str)
    }

    /// Whether bounces showed `address` failing.
    pub fn is_failing(&self, address: &str) -> bool {
        self.failing.iter().any(|f| f.eq_ignore_ascii_case(address))
    }

    /// Whether every address of a confirmed player is failing.
    pub fn all_failing(&self) -> bool {
        !self.addresses.is_empty() && self.addresses.iter().all(|a| self.is_failing(a))
    }

    /// Whether an address of the player has confirmed: until then the
    /// account does not exist, and its userid is only reserved.
    pub fn is_confirmed(&self) -> bool {
        !self.addresses.is_empty()
    }

    pub fn owns_address(&self, address: &str) -> bool {
        self.addresses
            .iter()
            .any(|a| a.eq_ignore_ascii_case(address))
    }
}

pub fn insert(
    conn: &Connection,
    userid: &str,
    password_hash: &str,
    addresses: &[String],
    now: OffsetDateTime,
) -> Result<PlayerId, StoreError> {
    conn.execute_cached(
        "INSERT INTO players (userid, password_hash, created_at) VALUES (?1, ?2, ?3)",
        params![userid, password_hash, time_text(now)],
    )?;
    let id = PlayerId(conn.last_insert_rowid());
    set_addresses(conn, id, addresses)?;
    Ok(id)
}

/// Replaces the player's addresses (the first is where mail goes).
pub fn set_addresses(
    conn: &Connection,
    id: PlayerId,
    addresses: &[String],
) -> Result<(), StoreError> {
    conn.execute_cached("DELETE FROM addresses WHERE player_id = ?1", [id.0])?;
    for (position, address) in addresses.iter().enumerate() {
        conn.execute_cached(
            "INSERT INTO addresses (address, player_id, position) VALUES (?1, ?2, ?3)",
            params![address, id.0, position as i64],
        )?;
    }
    Ok(())
}

/// Adds a (confirmed) address after the player's others.
pub fn add_address(conn: &Connection, id: PlayerId, address: &str) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO addresses (address, player_id, position)
         SELECT ?1, ?2, COALESCE(MAX(position) + 1, 0) FROM addresses WHERE player_id = ?2",
        params![address, id.0],
    )?;
    Ok(())
}

pub fn set_password_hash(conn: &Connection, id: PlayerId, hash: &str) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE players SET password_hash = ?2 WHERE id = ?1",
        params![id.0, hash],
    )?;
    Ok(())
}

pub fn set_vacation(
    conn: &Connection,
    id: PlayerId,
    until: OffsetDateTime,
    days_used: u32,
    year: i32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE players SET vacation_until = ?2, vacation_days_used = ?3, vacation_year = ?4 WHERE id = ?1",
        params![id.0, time_text(until), days_used, year],
    )?;
    Ok(())
}

/// Sets the vacation days `id` used in `year` (a bounce pause, charged
/// when it ends), leaving any vacation running as it is.
pub fn set_vacation_days_used(
    conn: &Connection,
    id: PlayerId,
    days_used: u32,
    year: i32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE players SET vacation_days_used = ?2, vacation_year = ?3 WHERE id = ?1",
        params![id.0, days_used, year],
    )?;
    Ok(())
}

/// The player registered under `userid` (any case). A signup none of
/// whose addresses has confirmed yet is no player: its userid is only
/// reserved (see [`by_userid_or_reserved`]), and it is answered like a
/// userid nobody has.
pub fn by_userid(conn: &Connection, userid: &str) -> Result<Option<Player>, StoreError> {
    let id: Option<i64> = conn
        .query_row_cached(
            "SELECT id FROM players p WHERE userid = ?1
               AND EXISTS (SELECT 1 FROM addresses a WHERE a.player_id = p.id)",
            [userid],
            |row| row.get(0),
        )
        .optional()?;
    id.map(|id| by_id(conn, PlayerId(id))).transpose()
}

/// The player or the unconfirmed signup under `userid` (any case): for
/// `signup`, which must not take a reserved userid, and for a login,
/// which tells the signup's owner to confirm first.
pub fn by_userid_or_reserved(
    conn: &Connection,
    userid: &str,
) -> Result<Option<Player>, StoreError> {
    let id: Option<i64> = conn
        .query_row_cached(
            "SELECT id FROM players WHERE userid = ?1",
            [userid],
            |row| row.get(0),
        )
        .optional()?;
    id.map(|id| by_id(conn, PlayerId(id))).transpose()
}

/// The player who registered `address`.
pub fn by_address(conn: &Connection, address: &str) -> Result<Option<Player>, StoreError> {
    let id: Option<i64> = conn
        .query_row_cached(
            "SELECT player_id FROM addresses WHERE address = ?1",
            [address],
            |row| row.get(0),
        )
        .optional()?;
    id.map(|id| by_id(conn, PlayerId(id))).transpose()
}

/// Which player (if any) already uses `address`.
pub fn address_owner(conn: &Connection, address: &str) -> Result<Option<PlayerId>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT player_id FROM addresses WHERE address = ?1",
            [address],
            |row| row.get(0),
        )
        .optional()?
        .map(PlayerId))
}

pub fn by_id(conn: &Connection, id: PlayerId) -> Result<Player, StoreError> {
    let (userid, password_hash, vacation_until, vacation_days_used, vacation_year): (
        String,
        String,
        Option<String>,
        u32,
        i32,
    ) = conn.query_row_cached(
        "SELECT userid, password_hash, vacation_until, vacation_days_used, vacation_year
         FROM players WHERE id = ?1",
        [id.0],
        |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ))
        },
    )?;
    let mut statement = conn
        .prepare_cached("SELECT address FROM addresses WHERE player_id = ?1 ORDER BY position")?;
    let addresses = statement
        .query_map([id.0], |row| row.get(0))?
        .collect::<Result<Vec<String>, _>>()?;
    let failing = super::delivery::failing_among(conn, &addresses)?;
    Ok(Player {
        id,
        userid,
        password_hash,
        addresses,
        failing,
        vacation_until: vacation_until.as_deref().map(parse_time).transpose()?,
        vacation_days_used,
        vacation_year,
    })
}

/// Deletes the players created before `before` that never got an address:
/// no confirmed address, no claim waiting, no board. Their userids are free
/// again. A player something else still refers to (a table added later)
/// is kept: the foreign key refuses its deletion, and that is no error.
pub fn prune_abandoned(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    let candidates: Vec<i64> = conn
        .prepare_cached(
            "SELECT id FROM players p WHERE created_at < ?1
               AND NOT EXISTS (SELECT 1 FROM addresses a WHERE a.player_id = p.id)
               AND NOT EXISTS (SELECT 1 FROM address_claims c WHERE c.player_id = p.id)
               AND NOT EXISTS (SELECT 1 FROM boards b WHERE b.white_id = p.id OR b.black_id = p.id)",
        )?
        .query_map([time_text(before)], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    let mut deleted = 0;
    for id in candidates {
        match conn.execute_cached("DELETE FROM players WHERE id = ?1", [id]) {
            Ok(n) => deleted += n,
            Err(rusqlite::Error::SqliteFailure(error, _))
                if error.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(deleted)
}
