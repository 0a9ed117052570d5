//! Persistent state in SQLite: players, boards, turns, offers, the outbox and
//! the record of processed mail.
//!
//! [`Store`] owns the connection: it opens the file in WAL mode and applies
//! the migrations in `migrations/`. The query functions in the submodules
//! take a plain `&Connection`, so the service can run them inside a
//! transaction or a savepoint of one; everything a mail changes is committed
//! together or not at all.

pub mod boards;
pub mod deadlines;
pub mod mailbox;
pub mod players;

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, Params, Row};
use rusqlite_migration::{M, Migrations};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The schema, oldest first. Never edit a released migration: add one.
const MIGRATIONS: &[M<'static>] = &[
    M::up(include_str!("../../migrations/0001_initial.sql")),
    M::up(include_str!("../../migrations/0002_deadlines.sql")),
];

/// Compiled statements kept per connection: more than a mail's commands
/// and the deadline sweep use, so none is compiled twice.
const STATEMENT_CACHE: usize = 128;

/// `execute` and `query_row` through the connection's statement cache.
/// The statements of a mail are compiled once per connection instead of on
/// every use; compiling them took a sixth of the service's CPU time.
pub trait CachedStatements {
    fn execute_cached<P: Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, row: F) -> rusqlite::Result<T>
    where
        P: Params,
        F: FnOnce(&Row<'_>) -> rusqlite::Result<T>;
}

impl CachedStatements for Connection {
    fn execute_cached<P: Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn query_row_cached<T, P, F>(&self, sql: &str, params: P, row: F) -> rusqlite::Result<T>
    where
        P: Params,
        F: FnOnce(&Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, row)
    }
}

/// A failure of the database.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("cannot bring the database schema up to date: {0}")]
    Migration(#[from] rusqlite_migration::Error),
    #[error("the database holds an unreadable value: {0}")]
    Corrupt(String),
}

/// The database.
pub struct Store {
    conn: Connection,
}

impl Store {
    /// Opens (creating if needed) the database file and migrates it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::setup(Connection::open(path)?)
    }

    /// A private in-memory database, for tests and benchmarks.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?)
    }

    fn setup(mut conn: Connection) -> Result<Store, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Every committed turn must survive a crash or power loss.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        Migrations::from_slice(MIGRATIONS).to_latest(&mut conn)?;
        Ok(Store { conn })
    }

    /// The connection, for reads outside a transaction.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Starts a transaction; it rolls back unless committed. It takes the
    /// write lock at once (`BEGIN IMMEDIATE`, waiting up to the busy
    /// timeout): a deferred transaction that read first would fail outright
    /// when another connection (the outbox sender, `pbem process`) wrote
    /// in between.
    pub fn transaction(&mut self) -> Result<rusqlite::Transaction<'_>, StoreError> {
        Ok(self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?)
    }
}

/// Reads a server setting.
pub fn setting(conn: &Connection, key: &str) -> Result<Option<String>, StoreError> {
    Ok(conn
        .query_row_cached("SELECT value FROM settings WHERE key = ?1", [key], |row| {
            row.get(0)
        })
        .optional()?)
}

/// Writes a server setting.
pub fn set_setting(conn: &Connection, key: &str, value: &str) -> Result<(), StoreError> {
    conn.execute_cached(
        "INSERT INTO settings (key, value) VALUES (?1, ?2)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, value],
    )?;
    Ok(())
}

/// A time as stored: RFC 3339 in UTC.
pub fn time_text(time: OffsetDateTime) -> String {
    time.to_offset(time::UtcOffset::UTC)
        .format(&Rfc3339)
        .expect("every UTC time formats as RFC 3339")
}

/// Reads a stored time.
pub fn parse_time(text: &str) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::parse(text, &Rfc3339)
        .map_err(|e| StoreError::Corrupt(format!("time {text:?}: {e}")))
}
