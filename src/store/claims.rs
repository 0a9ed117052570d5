//! Address claims: addresses a player named (at signup or with `address`)
//! that have not yet confirmed, by a reply from the address with the code
//! pbem mailed it. Until then the address is no player's: it gets no mail
//! but the one confirmation mail, and it blocks nobody.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};

/// Records (or renews) `player`'s claim on `address` with `code`; `mailed`
/// says whether the confirmation mail goes out for it. A renewed claim
/// never forgets that a mail went out (the weekly limit counts it).
pub fn claim(
    conn: &Connection,
    address: &str,
    player: PlayerId,
    code: &str,
    mailed: bool,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO address_claims (address, player_id, code, created_at, mailed)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (address, player_id) DO UPDATE
         SET code = excluded.code,
             created_at = CASE WHEN excluded.mailed THEN excluded.created_at ELSE created_at END,
             mailed = mailed OR excluded.mailed",
        params![address, player.0, code, time_text(now), mailed],
    )?;
    Ok(())
}

/// Whether a confirmation mail went to `address` since `since` (for any
/// player's claim).
pub fn mailed_since(
    conn: &Connection,
    address: &str,
    since: OffsetDateTime,
) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM address_claims WHERE address = ?1 AND mailed AND created_at >= ?2 LIMIT 1",
            params![address, time_text(since)],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// Whether `player` claimed `address` since `since`.
pub fn claimed_by(
    conn: &Connection,
    address: &str,
    player: PlayerId,
    since: OffsetDateTime,
) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM address_claims
             WHERE address = ?1 AND player_id = ?2 AND code != '' AND created_at >= ?3",
            params![address, player.0, time_text(since)],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

/// The player whose claim on `address`, made since `since`, has `code`.
pub fn claimant(
    conn: &Connection,
    address: &str,
    code: &str,
    since: OffsetDateTime,
) -> Result<Option<PlayerId>, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT player_id FROM address_claims
             WHERE address = ?1 AND code = ?2 AND code != '' AND created_at >= ?3",
            params![address, code, time_text(since)],
            |row| row.get(0),
        )
        .optional()?
        .map(PlayerId))
}

/// Drops every claim on `address` (it is confirmed now, or refused).
pub fn drop_address(conn: &Connection, address: &str) -> Result<(), StoreError> {
    conn.execute_cached("DELETE FROM address_claims WHERE address = ?1", [address])?;
    Ok(())
}

/// Withdraws `player`'s claims on addresses not in `keep`: their codes no
/// longer confirm anything, but the rows stay until they lapse, so a mail
/// that went out still counts against the address's weekly limit.
pub fn withdraw_claims_except(
    conn: &Connection,
    player: PlayerId,
    keep: &[String],
) -> Result<(), StoreError> {
    let mut statement =
        conn.prepare_cached("SELECT address FROM address_claims WHERE player_id = ?1")?;
    let claimed = statement
        .query_map([player.0], |row| row.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    for address in claimed {
        if !keep.iter().any(|k| k.eq_ignore_ascii_case(&address)) {
            conn.execute_cached(
                "UPDATE address_claims SET code = '' WHERE address = ?1 AND player_id = ?2",
                params![address, player.0],
            )?;
        }
    }
    Ok(())
}

/// Forgets claims made before `before` (they have lapsed).
pub fn prune(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM address_claims WHERE created_at < ?1",
        [time_text(before)],
    )?)
}

/// Wrong confirmation codes from `address` so far, and when the last came.
pub fn code_failures(
    conn: &Connection,
    address: &str,
) -> Result<Option<(u32, OffsetDateTime)>, StoreError> {
    let row: Option<(u32, String)> = conn
        .query_row_cached(
            "SELECT failures, last_at FROM code_failures WHERE address = ?1",
            [address],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    row.map(|(failures, last)| Ok((failures, parse_time(&last)?)))
        .transpose()
}

/// Records `count` more wrong confirmation codes from `address`.
pub fn codes_failed(
    conn: &Connection,
    address: &str,
    count: u32,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO code_failures (address, failures, last_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (address) DO UPDATE
         SET failures = MIN(failures + excluded.failures, 1000000), last_at = excluded.last_at",
        params![address, count, time_text(now)],
    )?;
    Ok(())
}

/// Forgets the wrong codes from `address` (a right one came).
pub fn code_succeeded(conn: &Connection, address: &str) -> Result<(), StoreError> {
    conn.execute_cached("DELETE FROM code_failures WHERE address = ?1", [address])?;
    Ok(())
}

/// Forgets wrong codes whose last one was before `before`.
pub fn prune_code_failures(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM code_failures WHERE last_at < ?1",
        [time_text(before)],
    )?)
}
