//! Delivery: what pbem knows of the mail it sent after sending it (issue
//! 30, migration 0025). The health of each address bounces reported
//! ([`AddressHealth`]), the pauses of a player's clocks while every
//! address of the player fails, the sent mails a bounce may name, and the
//! state of the outbox that `pbem status` (and any other monitoring)
//! reads.

use rusqlite::{Connection, OptionalExtension, params};
use time::{Duration, OffsetDateTime};

use super::players::PlayerId;
use super::{CachedStatements, StoreError, parse_time, time_text};
use crate::domain::Vacation;

/// The delivery trouble of one address (no row: none known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AddressHealth {
    pub address: String,
    /// Mail to it does not arrive: a permanent bounce, or
    /// [`TRANSIENT_IN_A_ROW`] transient ones in a row.
    pub failing: bool,
    /// Transient bounces in a row so far.
    pub transient: u32,
    /// The outbox id of the mail last counted (a mail counts once, however
    /// many bounces it brings back: a delay warning, then the failure).
    pub last_outbox_id: Option<i64>,
    /// When the trouble began.
    pub since: OffsetDateTime,
    /// The newest bounce.
    pub last_at: OffsetDateTime,
    /// What the mail system last said, for the player and the operator.
    pub diagnostic: Option<String>,
}

/// Transient bounces in a row that mark an address failing.
pub const TRANSIENT_IN_A_ROW: u32 = 3;

const HEALTH_COLUMNS: &str =
    "address, failing, transient, last_outbox_id, since, last_at, diagnostic";

fn health_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<(AddressHealthRow, String, String)> {
    Ok((
        AddressHealthRow {
            address: row.get(0)?,
            failing: row.get(1)?,
            transient: row.get(2)?,
            last_outbox_id: row.get(3)?,
            diagnostic: row.get(6)?,
        },
        row.get(4)?,
        row.get(5)?,
    ))
}

/// The columns of an `address_health` row that need no parsing.
struct AddressHealthRow {
    address: String,
    failing: bool,
    transient: u32,
    last_outbox_id: Option<i64>,
    diagnostic: Option<String>,
}

fn health(
    (row, since, last_at): (AddressHealthRow, String, String),
) -> Result<AddressHealth, StoreError> {
    Ok(AddressHealth {
        address: row.address,
        failing: row.failing,
        transient: row.transient,
        last_outbox_id: row.last_outbox_id,
        since: parse_time(&since)?,
        last_at: parse_time(&last_at)?,
        diagnostic: row.diagnostic,
    })
}

/// The delivery trouble known of `address`, if any.
pub fn health_of(conn: &Connection, address: &str) -> Result<Option<AddressHealth>, StoreError> {
    conn.query_row_cached(
        &format!("SELECT {HEALTH_COLUMNS} FROM address_health WHERE address = ?1"),
        [address],
        health_row,
    )
    .optional()?
    .map(health)
    .transpose()
}

/// Records what is known of an address now.
pub fn set_health(conn: &Connection, health: &AddressHealth) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO address_health (address, failing, transient, last_outbox_id, since, last_at, diagnostic)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (address) DO UPDATE SET failing = excluded.failing,
           transient = excluded.transient, last_outbox_id = excluded.last_outbox_id,
           since = excluded.since, last_at = excluded.last_at, diagnostic = excluded.diagnostic",
        params![
            health.address,
            health.failing,
            health.transient,
            health.last_outbox_id,
            time_text(health.since),
            time_text(health.last_at),
            health.diagnostic,
        ],
    )?;
    Ok(())
}

/// Forgets the trouble of `address` (it works again); whether there was any.
pub fn clear_health(conn: &Connection, address: &str) -> Result<bool, StoreError> {
    Ok(conn.execute_cached("DELETE FROM address_health WHERE address = ?1", [address])? > 0)
}

/// Every failing address, with the userid of the player it belongs to (if
/// it still belongs to one), the longest failing first.
pub fn failing_addresses(
    conn: &Connection,
) -> Result<Vec<(AddressHealth, Option<String>)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT h.address, h.failing, h.transient, h.last_outbox_id, h.since, h.last_at, h.diagnostic, p.userid
         FROM address_health h
         LEFT JOIN addresses a ON a.address = h.address
         LEFT JOIN players p ON p.id = a.player_id
         WHERE h.failing = 1 ORDER BY h.since, h.address",
    )?;
    let rows = statement.query_map([], |row| Ok((health_row(row)?, row.get(7)?)))?;
    rows.map(|row| {
        let (health_columns, userid) = row?;
        Ok((health(health_columns)?, userid))
    })
    .collect()
}

/// The failing ones among `addresses`.
pub fn failing_among(conn: &Connection, addresses: &[String]) -> Result<Vec<String>, StoreError> {
    let mut failing = Vec::new();
    for address in addresses {
        if health_of(conn, address)?.is_some_and(|h| h.failing) {
            failing.push(address.clone());
        }
    }
    Ok(failing)
}

/// The pause of `player`'s clocks that still lasts: when it began.
pub fn open_pause(
    conn: &Connection,
    player: PlayerId,
) -> Result<Option<OffsetDateTime>, StoreError> {
    conn.query_row_cached(
        "SELECT starts_at FROM bounce_pauses WHERE player_id = ?1 AND ends_at IS NULL",
        [player.0],
        |row| row.get::<_, String>(0),
    )
    .optional()?
    .map(|text| parse_time(&text))
    .transpose()
}

/// Starts a pause of `player`'s clocks at `now`, for at most
/// `allowed_days` (the vacation days the player has left this year).
pub fn start_pause(
    conn: &Connection,
    player: PlayerId,
    now: OffsetDateTime,
    allowed_days: u32,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO bounce_pauses (player_id, starts_at, allowed_days) VALUES (?1, ?2, ?3)",
        params![player.0, time_text(now), allowed_days],
    )?;
    Ok(())
}

/// Ends the pause of `player`'s clocks at `now`: the vacation days it
/// used (whole days begun, at most its allowed days), or `None` when no
/// pause lasted.
pub fn end_pause(
    conn: &Connection,
    player: PlayerId,
    now: OffsetDateTime,
) -> Result<Option<u32>, StoreError> {
    let open: Option<(String, u32)> = conn
        .query_row_cached(
            "SELECT starts_at, allowed_days FROM bounce_pauses WHERE player_id = ?1 AND ends_at IS NULL",
            [player.0],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .optional()?;
    let Some((starts, allowed)) = open else {
        return Ok(None);
    };
    conn.execute_cached(
        "UPDATE bounce_pauses SET ends_at = max(starts_at, ?2) WHERE player_id = ?1 AND ends_at IS NULL",
        params![player.0, time_text(now)],
    )?;
    let lasted = (now - parse_time(&starts)?).max(Duration::ZERO);
    // Each day begun counts once, however many boards it stopped.
    let begun = lasted.whole_days() + i64::from(lasted.whole_seconds() % 86_400 != 0);
    Ok(Some(u32::try_from(begun).unwrap_or(u32::MAX).min(allowed)))
}

/// The pauses of `player`'s clocks that end after `after` (or still
/// last), as vacations, each cut to its allowed days.
pub fn pauses_of(
    conn: &Connection,
    player: PlayerId,
    after: OffsetDateTime,
) -> Result<Vec<Vacation>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT starts_at, ends_at, allowed_days FROM bounce_pauses
         WHERE player_id = ?1 AND (ends_at IS NULL OR ends_at > ?2) ORDER BY starts_at",
    )?;
    let rows = statement.query_map(params![player.0, time_text(after)], |row| {
        Ok((
            row.get::<_, String>(0)?,
            row.get::<_, Option<String>>(1)?,
            row.get::<_, u32>(2)?,
        ))
    })?;
    rows.map(|row| {
        let (starts, ends, allowed) = row?;
        let starts_at = parse_time(&starts)?;
        let most = starts_at
            .checked_add(Duration::days(i64::from(allowed)))
            .unwrap_or(starts_at);
        let ends_at = match ends {
            Some(ends) => parse_time(&ends)?.min(most),
            None => most,
        };
        Ok(Vacation { starts_at, ends_at })
    })
    .filter(|v| !matches!(v, Ok(v) if v.ends_at <= after || v.ends_at <= v.starts_at))
    .collect()
}

/// A mail pbem sent, as a bounce may name it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentRecord {
    pub outbox_id: i64,
    pub message_id: String,
    pub recipients: Vec<String>,
    pub sent_at: OffsetDateTime,
}

fn sent_record(
    conn: &Connection,
    sql: &str,
    key: impl rusqlite::ToSql,
) -> Result<Option<SentRecord>, StoreError> {
    let row = conn
        .query_row_cached(sql, [key], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, String>(2)?,
                row.get::<_, String>(3)?,
            ))
        })
        .optional()?;
    row.map(|(outbox_id, message_id, recipients, sent_at)| {
        Ok(SentRecord {
            outbox_id,
            message_id,
            recipients: recipients.lines().map(str::to_owned).collect(),
            sent_at: parse_time(&sent_at)?,
        })
    })
    .transpose()
}

/// The sent mail of outbox id `id` (kept for bounces: see
/// `service::prune::SENT_KEPT`).
pub fn sent_by_outbox_id(conn: &Connection, id: i64) -> Result<Option<SentRecord>, StoreError> {
    sent_record(
        conn,
        "SELECT id, message_id, recipients, sent_at FROM outbox WHERE id = ?1 AND sent_at IS NOT NULL",
        id,
    )
}

/// The sent mail with this Message-ID.
pub fn sent_by_message_id(
    conn: &Connection,
    message_id: &str,
) -> Result<Option<SentRecord>, StoreError> {
    sent_record(
        conn,
        "SELECT id, message_id, recipients, sent_at FROM outbox WHERE message_id = ?1 AND sent_at IS NOT NULL",
        message_id,
    )
}

/// Records why the transport did not take the unsent mail `id` and when it
/// is tried again.
pub fn record_send_failure(
    conn: &Connection,
    id: i64,
    error: &str,
    retry_at: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE outbox SET last_error = ?2, attempts = attempts + 1, retry_at = ?3
         WHERE id = ?1 AND sent_at IS NULL AND given_up_at IS NULL",
        params![id, error, time_text(retry_at)],
    )?;
    Ok(())
}

/// An unsent mail the transport refused or put off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldMail {
    pub outbox_id: i64,
    pub message_id: String,
    pub recipients: Vec<String>,
    pub queued_at: OffsetDateTime,
    pub attempts: u32,
    pub last_error: String,
    pub retry_at: Option<OffsetDateTime>,
}

/// The unsent mails the transport refused or put off, oldest first, at
/// most `limit`.
pub fn held_mails(conn: &Connection, limit: u32) -> Result<Vec<HeldMail>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT id, message_id, recipients, created_at, attempts, last_error, retry_at FROM outbox
         WHERE sent_at IS NULL AND given_up_at IS NULL AND last_error IS NOT NULL ORDER BY id LIMIT ?1",
    )?;
    let rows = statement.query_map([limit], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
            row.get::<_, u32>(4)?,
            row.get::<_, String>(5)?,
            row.get::<_, Option<String>>(6)?,
        ))
    })?;
    rows.map(|row| {
        let (outbox_id, message_id, recipients, queued, attempts, last_error, retry) = row?;
        Ok(HeldMail {
            outbox_id,
            message_id,
            recipients: recipients.lines().map(str::to_owned).collect(),
            queued_at: parse_time(&queued)?,
            attempts,
            last_error,
            retry_at: retry.as_deref().map(parse_time).transpose()?,
        })
    })
    .collect()
}

/// When the unsent mail `id` was queued; `None` once it is sent, given
/// up or gone.
pub fn queued_at(conn: &Connection, id: i64) -> Result<Option<OffsetDateTime>, StoreError> {
    let queued: Option<String> = conn
        .query_row_cached(
            "SELECT created_at FROM outbox WHERE id = ?1 AND sent_at IS NULL AND given_up_at IS NULL",
            [id],
            |row| row.get(0),
        )
        .optional()?;
    queued.as_deref().map(parse_time).transpose()
}

/// The unsent mails (not given up) with `address` among their recipients
/// (compared without case): each one's id and recipients.
pub fn unsent_to(conn: &Connection, address: &str) -> Result<Vec<(i64, Vec<String>)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT id, recipients FROM outbox
         WHERE sent_at IS NULL AND given_up_at IS NULL AND instr(lower(recipients), lower(?1)) > 0
         ORDER BY id",
    )?;
    let rows = statement.query_map([address], |row| {
        Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
    })?;
    let mut mails = Vec::new();
    for row in rows {
        let (id, recipients) = row?;
        let recipients: Vec<String> = recipients.lines().map(str::to_owned).collect();
        if recipients.iter().any(|r| r.eq_ignore_ascii_case(address)) {
            mails.push((id, recipients));
        }
    }
    Ok(mails)
}

/// Sends the unsent mail `id` to `recipients` instead (its envelope; the
/// message stays as it is).
pub fn set_recipients(conn: &Connection, id: i64, recipients: &[String]) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE outbox SET recipients = ?2 WHERE id = ?1 AND sent_at IS NULL",
        params![id, recipients.join("\n")],
    )?;
    Ok(())
}

/// Gives the unsent mail `id` up: it is no longer sent, and `pbem status`
/// lists it with `why` until it is pruned.
pub fn give_up(
    conn: &Connection,
    id: i64,
    why: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE outbox SET given_up_at = ?2, last_error = ?3 WHERE id = ?1 AND sent_at IS NULL",
        params![id, time_text(now), why],
    )?;
    Ok(())
}

/// A mail given up ([`give_up`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GivenUp {
    pub outbox_id: i64,
    pub recipients: Vec<String>,
    pub given_up_at: OffsetDateTime,
    pub why: String,
}

/// The mails given up, newest first, at most `limit`, and how many there
/// are in all.
pub fn given_up_mails(conn: &Connection, limit: u32) -> Result<(i64, Vec<GivenUp>), StoreError> {
    let count: i64 = conn.query_row_cached(
        "SELECT COUNT(*) FROM outbox WHERE given_up_at IS NOT NULL",
        [],
        |row| row.get(0),
    )?;
    let mut statement = conn.prepare_cached(
        "SELECT id, recipients, given_up_at, coalesce(last_error, '') FROM outbox
         WHERE given_up_at IS NOT NULL ORDER BY id DESC LIMIT ?1",
    )?;
    let rows = statement.query_map([limit], |row| {
        Ok((
            row.get::<_, i64>(0)?,
            row.get::<_, String>(1)?,
            row.get::<_, String>(2)?,
            row.get::<_, String>(3)?,
        ))
    })?;
    let mut mails = Vec::new();
    for row in rows {
        let (outbox_id, recipients, at, why) = row?;
        mails.push(GivenUp {
            outbox_id,
            recipients: recipients.lines().map(str::to_owned).collect(),
            given_up_at: parse_time(&at)?,
            why,
        });
    }
    Ok((count, mails))
}

/// How many mails wait in the outbox, and since when the oldest waits.
pub fn outbox_depth(conn: &Connection) -> Result<(i64, Option<OffsetDateTime>), StoreError> {
    let (count, oldest): (i64, Option<String>) = conn.query_row_cached(
        "SELECT COUNT(*), MIN(created_at) FROM outbox WHERE sent_at IS NULL AND given_up_at IS NULL",
        [],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )?;
    Ok((count, oldest.as_deref().map(parse_time).transpose()?))
}

/// When the newest inbound mail was processed.
pub fn last_inbound(conn: &Connection) -> Result<Option<OffsetDateTime>, StoreError> {
    let last: Option<String> =
        conn.query_row_cached("SELECT MAX(processed_at) FROM processed", [], |row| {
            row.get(0)
        })?;
    last.as_deref().map(parse_time).transpose()
}

/// When the transport last took a mail.
pub fn last_outbound(conn: &Connection) -> Result<Option<OffsetDateTime>, StoreError> {
    let last: Option<String> =
        conn.query_row_cached("SELECT MAX(sent_at) FROM outbox", [], |row| row.get(0))?;
    last.as_deref().map(parse_time).transpose()
}

/// The settings key of the last error of each kind (`send`: the outbound
/// transport failed as a whole; `mail`: an inbound mail could not be
/// handled), for `pbem status`.
pub fn last_error_key(kind: &str) -> String {
    format!("last_error.{kind}")
}

/// Records the last error of `kind` at `now`.
pub fn record_error(
    conn: &Connection,
    kind: &str,
    error: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    super::set_setting(
        conn,
        &last_error_key(kind),
        &format!("{} {error}", time_text(now)),
    )
}

/// The settings key of the last deadline sweep (`tick` or `serve`'s).
const LAST_SWEEP: &str = "last_sweep";

/// Records that a deadline sweep ran at `now` and did `what`.
pub fn record_sweep(conn: &Connection, what: &str, now: OffsetDateTime) -> Result<(), StoreError> {
    super::set_setting(conn, LAST_SWEEP, &format!("{} {what}", time_text(now)))
}

/// The last deadline sweep recorded: "time what".
pub fn last_sweep(conn: &Connection) -> Result<Option<String>, StoreError> {
    super::setting(conn, LAST_SWEEP)
}

/// The last errors recorded, by kind: `(kind, "time error")`.
pub fn last_errors(conn: &Connection) -> Result<Vec<(String, String)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT substr(key, 12), value FROM settings WHERE key LIKE 'last\\_error.%' ESCAPE '\\' ORDER BY key",
    )?;
    let rows = statement.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}
