//! The mail side of the store: which inbound mails were processed, and the
//! outbox of mails to send.

use rusqlite::{Connection, OptionalExtension, params};
use time::OffsetDateTime;

use super::{CachedStatements, Store, StoreError, time_text};

/// Whether a mail with this Message-ID from this sender was already
/// processed. The same Message-ID from another sender is another mail.
pub fn is_processed(conn: &Connection, message_id: &str, sender: &str) -> Result<bool, StoreError> {
    Ok(conn
        .query_row_cached(
            "SELECT 1 FROM processed WHERE message_id = ?1 AND sender = ?2",
            [message_id, sender],
            |_| Ok(()),
        )
        .optional()?
        .is_some())
}

pub fn mark_processed(
    conn: &Connection,
    message_id: &str,
    sender: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO processed (message_id, sender, processed_at) VALUES (?1, ?2, ?3)",
        params![message_id, sender, time_text(now)],
    )?;
    Ok(())
}

/// How many mails from `sender` were processed since `since`.
pub fn mails_from_since(
    conn: &Connection,
    sender: &str,
    since: OffsetDateTime,
) -> Result<u32, StoreError> {
    Ok(conn.query_row_cached(
        "SELECT COUNT(*) FROM processed WHERE sender = ?1 AND processed_at >= ?2",
        params![sender, time_text(since)],
        |row| row.get(0),
    )?)
}

/// A mail waiting in the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    pub id: i64,
    pub message_id: String,
    /// The envelope recipients.
    pub recipients: Vec<String>,
    /// The RFC 5322 message; with `pictures`, each picture's body is a
    /// placeholder the sender replaces.
    pub message: Vec<u8>,
    /// What the message's pictures show, to be drawn when it is sent
    /// (`mail::pictures`); `None`: the message is complete as stored.
    pub pictures: Option<String>,
}

/// Queues a mail; `pictures` describes the pictures still to be drawn
/// into `message` (see [`Queued::pictures`]). Two rows: call it inside
/// the mail's transaction.
pub fn enqueue(
    conn: &Connection,
    message_id: &str,
    recipients: &[String],
    message: &[u8],
    pictures: Option<&str>,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO outbox (message_id, recipients, pictures, created_at) VALUES (?1, ?2, ?3, ?4)",
        params![message_id, recipients.join("\n"), pictures, time_text(now)],
    )?;
    // Apart from its row, so that marking the mail sent does not write the
    // message again (migration 0015).
    conn.execute_cached(
        "INSERT INTO outbox_message (id, message) VALUES (?1, ?2)",
        params![conn.last_insert_rowid(), message],
    )?;
    Ok(())
}

/// Holds the queued mail `message_id` back until `at` (see
/// [`unsent`]).
pub fn send_after(
    conn: &Connection,
    message_id: &str,
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE outbox SET send_after = ?2 WHERE message_id = ?1",
        params![message_id, time_text(at)],
    )?;
    Ok(())
}

/// Up to `limit` unsent mails, oldest first, held back or not.
pub fn unsent(conn: &Connection, limit: u32) -> Result<Vec<Queued>, StoreError> {
    queued(conn, limit, None)
}

/// Up to `limit` unsent mails due at `now` (not held back past it by
/// [`send_after`]), oldest first: what the outbox sends.
pub fn due(conn: &Connection, limit: u32, now: OffsetDateTime) -> Result<Vec<Queued>, StoreError> {
    queued(conn, limit, Some(now))
}

fn queued(
    conn: &Connection,
    limit: u32,
    now: Option<OffsetDateTime>,
) -> Result<Vec<Queued>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT outbox.id, message_id, recipients, message, pictures FROM outbox
         JOIN outbox_message ON outbox_message.id = outbox.id
         WHERE sent_at IS NULL AND given_up_at IS NULL
           AND (?2 IS NULL OR send_after IS NULL OR send_after <= ?2)
         ORDER BY outbox.id LIMIT ?1",
    )?;
    let rows = statement.query_map(params![limit, now.map(time_text)], |row| {
        Ok(Queued {
            id: row.get(0)?,
            message_id: row.get(1)?,
            recipients: row
                .get::<_, String>(2)?
                .lines()
                .map(str::to_owned)
                .collect(),
            message: row.get(3)?,
            pictures: row.get(4)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Marks several mails sent in one transaction (one disk flush).
pub fn mark_all_sent(store: &Store, ids: &[i64], now: OffsetDateTime) -> Result<(), StoreError> {
    let tx = store.transaction()?;
    for &id in ids {
        mark_sent(&tx, id, now)?;
    }
    tx.commit()?;
    Ok(())
}

fn mark_sent(conn: &Connection, id: i64, now: OffsetDateTime) -> Result<(), StoreError> {
    conn.execute_cached(
        "UPDATE outbox SET sent_at = ?2 WHERE id = ?1",
        params![id, time_text(now)],
    )?;
    Ok(())
}

/// Forgets processed-mail records from before `before`; returns how many.
pub fn prune_processed(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM processed WHERE processed_at < ?1",
        [time_text(before)],
    )?)
}

/// Deletes outbox mails sent, or given up, before `before` (unsent ones
/// stay, however old); returns how many. The newest row always stays: SQLite gives a new
/// row the highest id plus one, and an outbox id must never come back (the
/// file sender names its files by it).
pub fn prune_sent(conn: &Connection, before: OffsetDateTime) -> Result<usize, StoreError> {
    Ok(conn.execute_cached(
        "DELETE FROM outbox WHERE coalesce(sent_at, given_up_at) < ?1
         AND id < (SELECT MAX(id) FROM outbox)",
        [time_text(before)],
    )?)
}
