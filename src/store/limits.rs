//! What the rate ceilings and the password throttle remember: mails per
//! clock hour (inbound from everybody and per sender domain; outbound per
//! payer, see `service::charge`), and failed password logins per userid as
//! written and per where they came from (see `service::limits`).

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::{CachedStatements, StoreError, parse_time, time_text};

/// The key under which all mail is counted.
pub const ALL_MAIL: &str = "*";

/// The key of a sender domain's count.
pub fn domain_key(sender: &str) -> String {
    let domain = sender.rsplit_once('@').map_or(sender, |(_, domain)| domain);
    format!("@{}", domain.to_ascii_lowercase())
}

/// The clock hour of `now`, as counts are kept.
fn hour(now: OffsetDateTime) -> String {
    let text = time_text(now);
    text[..13.min(text.len())].to_string()
}

/// Counts one more mail under `key` in this hour; returns the count before.
pub fn count_mail(conn: &Connection, key: &str, now: OffsetDateTime) -> Result<u32, StoreError> {
    let hour = hour(now);
    let before: u32 = conn
        .query_row_cached(
            "SELECT count FROM mail_counts WHERE key = ?1 AND hour = ?2",
            params![key, hour],
            |row| row.get(0),
        )
        .optional()?
        .unwrap_or(0);
    conn.execute_cached(
        "INSERT INTO mail_counts (key, hour, count) VALUES (?1, ?2, 1)
         ON CONFLICT (key, hour) DO UPDATE SET count = count + 1",
        params![key, hour],
    )?;
    Ok(before)
}

/// Counts `mails` more under `key` in the clock hour of `now`.
pub fn add_mails(
    conn: &Connection,
    key: &str,
    mails: u32,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO mail_counts (key, hour, count) VALUES (?1, ?2, ?3)
         ON CONFLICT (key, hour) DO UPDATE SET count = count + excluded.count",
        params![key, hour(now), mails],
    )?;
    Ok(())
}

/// The mails counted under `key` in the clock hours from the one of
/// `since` to now.
pub fn mails_since(conn: &Connection, key: &str, since: OffsetDateTime) -> Result<u32, StoreError> {
    let total: i64 = conn.query_row_cached(
        "SELECT COALESCE(SUM(count), 0) FROM mail_counts WHERE key = ?1 AND hour >= ?2",
        params![key, hour(since)],
        |row| row.get(0),
    )?;
    Ok(u32::try_from(total).unwrap_or(u32::MAX))
}

/// Failed password logins under `userid` from `sender` (an address, or
/// the key of every other sender) so far, and when the last was.
pub fn login_failures(
    conn: &Connection,
    userid: &str,
    sender: &str,
) -> Result<Option<(u32, OffsetDateTime)>, StoreError> {
    let row: Option<(u32, String)> = conn
        .query_row_cached(
            "SELECT failures, last_at FROM login_failures WHERE userid = ?1 AND sender = ?2",
            params![userid, sender],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    row.map(|(failures, last)| Ok((failures, parse_time(&last)?)))
        .transpose()
}

/// Records a failed login under `userid` from `sender`.
pub fn login_failed(
    conn: &Connection,
    userid: &str,
    sender: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO login_failures (userid, sender, failures, last_at) VALUES (?1, ?2, 1, ?3)
         ON CONFLICT (userid, sender)
         DO UPDATE SET failures = failures + 1, last_at = excluded.last_at",
        params![userid, sender, time_text(now)],
    )?;
    Ok(())
}

/// Forgets the failures under `userid` from `sender` (a login from there
/// succeeded); those from elsewhere stay.
pub fn login_succeeded(conn: &Connection, userid: &str, sender: &str) -> Result<(), StoreError> {
    conn.execute_cached(
        "DELETE FROM login_failures WHERE userid = ?1 AND sender = ?2",
        params![userid, sender],
    )?;
    Ok(())
}

/// Forgets the counts of hours before `before`.
pub fn prune_counts(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached("DELETE FROM mail_counts WHERE hour < ?1", [hour(before)])?)
}

/// Forgets login failures whose last one was before `before`.
pub fn prune_failures(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM login_failures WHERE last_at < ?1",
        [time_text(before)],
    )?)
}
