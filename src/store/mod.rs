//! Persistent state in SQLite: players, boards, turns, offers, tournaments,
//! the outbox and the record of processed mail.
//!
//! [`Store`] owns the connection: it opens the file in WAL mode and applies
//! the migrations in `migrations/`. The query functions in the submodules
//! take a plain `&Connection`, so the service can run them inside a
//! transaction or a savepoint of one; everything a mail changes is committed
//! together or not at all.

pub mod boards;
pub mod claims;
pub mod clocks;
pub mod conditional;
pub mod cups;
pub mod deadlines;
pub mod delivery;
pub mod ladders;
pub mod limits;
pub mod mailbox;
pub mod notes;
pub mod players;
pub mod preferences;
pub mod ratings;
pub mod resets;
pub mod sent;
pub mod tournaments;
pub mod web;

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};

use rusqlite::{Connection, OptionalExtension, Params, Row, Transaction, TransactionBehavior};
use rusqlite_migration::{M, Migrations};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// The migrations of `migrations/` by file name, oldest first: the
/// schema (`MIGRATIONS`) and [`SCHEMA`], the name of the newest. Never edit
/// or reorder a released migration: add one at the end (a database knows
/// only how many it has applied).
macro_rules! migrations {
    ($($name:literal),+ $(,)?) => {
        const MIGRATIONS: &[M<'static>] = &[
            $(M::up(include_str!(concat!("../../migrations/", $name, ".sql")))),+
        ];
        const MIGRATION_NAMES: &[&str] = &[$($name),+];
    };
}

migrations!(
    "0001_initial",
    "0002_deadlines",
    "0005_hardening",
    "0008_dialogue",
    "0009_ratings",
    "0010_preferences",
    "0011_tournaments",
    "0012_swiss",
    "0013_rated_games_unindexed",
    "0014_outbox_pictures",
    "0015_outbox_messages_apart",
    "0016_accounts",
    "0017_challenges",
    "0018_events",
    "0019_board_list",
    "0020_clocks",
    "0021_conditional",
    "0022_cups",
    "0023_ladders",
    "0024_private",
    "0025_bounces",
    "0026_notes",
    "0027_bounce_pauses_as_vacation",
    "0028_password_resets",
    "0029_starts",
    "0030_given_up_mail",
    "0031_openings",
);

/// The schema an opened [`Store`] is at: the file name of the newest
/// migration (the files' numbers have gaps, so the count of migrations
/// applied, which SQLite keeps, is not it).
pub const SCHEMA: &str = MIGRATION_NAMES[MIGRATION_NAMES.len() - 1];

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
    /// Shared by this process's connections to the same file.
    write_turn: Arc<Mutex<()>>,
}

/// A write transaction: rolls back unless committed. While it lives, the
/// other connections of this process to the same database wait for their
/// turn (see `write_turn`).
pub struct WriteTx<'a> {
    // Dropped first: the transaction ends before the turn passes on.
    tx: Transaction<'a>,
    _turn: MutexGuard<'a, ()>,
}

impl<'a> WriteTx<'a> {
    pub fn commit(self) -> Result<(), StoreError> {
        Ok(self.tx.commit()?)
    }
}

impl<'a> Deref for WriteTx<'a> {
    type Target = Transaction<'a>;

    fn deref(&self) -> &Transaction<'a> {
        &self.tx
    }
}

/// The lock that the connections of this process to the database at
/// `path` take before SQLite's own write lock. A writer that finds SQLite's
/// lock taken polls it, sleeping up to 100 ms between tries; between the
/// threads of one busy server (the inbound loop commits a batch every few
/// milliseconds) the outbox sender would sleep through nearly every gap
/// and starve. A waiter on this mutex wakes as soon as it is free. Other
/// processes (`pbem process`) still meet SQLite's busy timeout.
fn write_turn(path: Option<PathBuf>) -> Arc<Mutex<()>> {
    static TURNS: Mutex<Vec<(PathBuf, Weak<Mutex<()>>)>> = Mutex::new(Vec::new());
    let Some(path) = path else {
        return Arc::default();
    };
    let mut turns = TURNS.lock().unwrap_or_else(PoisonError::into_inner);
    turns.retain(|(_, turn)| turn.strong_count() > 0);
    if let Some(turn) = turns
        .iter()
        .find(|(known, _)| *known == path)
        .and_then(|(_, turn)| turn.upgrade())
    {
        return turn;
    }
    let turn = Arc::default();
    turns.push((path, Arc::downgrade(&turn)));
    turn
}

/// Pages (4 KiB each) the write-ahead log grows to before a commit copies
/// it into the database itself, when no sender checkpoints meanwhile.
const WAL_BACKSTOP_PAGES: u32 = 16_384;

impl Store {
    /// Opens (creating if needed) the database file and migrates it. A new
    /// file is readable by its owner only (see [`private_file`]).
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        private_file(path).map_err(|e| {
            StoreError::Corrupt(format!("cannot create {} privately: {e}", path.display()))
        })?;
        let conn = Connection::open(path)?;
        // The file exists now; its canonical name identifies it.
        Store::setup(conn, path.canonicalize().ok())
    }

    /// A private in-memory database, for tests and benchmarks.
    pub fn open_in_memory() -> Result<Store, StoreError> {
        Store::setup(Connection::open_in_memory()?, None)
    }

    fn setup(mut conn: Connection, path: Option<PathBuf>) -> Result<Store, StoreError> {
        // First: what follows may meet another process's write (a sweep,
        // `pbem process`), and waits for it rather than failing.
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        // Every committed turn must survive a crash or power loss.
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        // Each mail, command and queued turn runs in a savepoint, whose
        // statement journal SQLite otherwise spills to a temporary file
        // beyond 64 KiB: a write system call per page changed. In memory it
        // holds the pages one savepoint changes, and the few sorts pbem asks
        // for are of one variant's ratings at most.
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        // A commit copies the log into the database only past this many
        // pages: the outbox sender checkpoints every few batches it marks
        // sent and after each drain (see [`Store::checkpoint`]), on its own
        // thread and outside the write turn, so the inbound commits need
        // not. This is the bound for when nothing is being sent.
        conn.pragma_update(None, "wal_autocheckpoint", WAL_BACKSTOP_PAGES)?;
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        let write_turn = write_turn(path);
        {
            let _turn = write_turn.lock().unwrap_or_else(PoisonError::into_inner);
            let applied = applied_migrations(&conn)?;
            Migrations::from_slice(MIGRATIONS).to_latest(&mut conn)?;
            if applied < MIGRATIONS.len() {
                let from = applied
                    .checked_sub(1)
                    .and_then(|newest| MIGRATION_NAMES.get(newest))
                    .unwrap_or(&"none");
                tracing::info!(from, to = SCHEMA, "database schema migrated");
            }
        }
        Ok(Store { conn, write_turn })
    }

    /// Copies what the write-ahead log holds into the database file as far
    /// as the other connections' reads allow, without waiting for them or
    /// for a writer (a passive checkpoint). Called outside a transaction.
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))?;
        Ok(())
    }

    /// The connection, for reads outside a transaction.
    pub fn conn(&self) -> &Connection {
        &self.conn
    }

    /// Starts a write transaction; it rolls back unless committed. It
    /// waits for this process's other connections to the file (see
    /// `write_turn`), then takes SQLite's write lock at once (`BEGIN
    /// IMMEDIATE`, waiting up to the busy timeout): a deferred transaction
    /// that read first would fail outright when another connection wrote in
    /// between. Transactions do not nest: starting one inside another fails.
    pub fn transaction(&self) -> Result<WriteTx<'_>, StoreError> {
        let turn = self
            .write_turn
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let tx = Transaction::new_unchecked(&self.conn, TransactionBehavior::Immediate)?;
        Ok(WriteTx { tx, _turn: turn })
    }
}

/// How many migrations the database has applied (SQLite's `user_version`,
/// where the migrations keep it).
fn applied_migrations(conn: &Connection) -> Result<usize, StoreError> {
    let applied: i64 = conn.query_row("PRAGMA user_version", [], |row| row.get(0))?;
    Ok(usize::try_from(applied).unwrap_or(0))
}

/// Creates `path` as an empty file only its owner may read and write
/// (0600), whatever the umask, unless it exists; an existing file loses
/// any access by others (its group keeps what it has, for the shared-group
/// MDA setup). The database holds the reply-token key and the password
/// hashes, and SQLite gives its `-wal` and `-shm` files the database's
/// mode.
pub fn private_file(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(path)
        {
            Ok(_) => return Ok(()),
            Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(error) => return Err(error),
        }
        let mode = std::fs::metadata(path)?.permissions().mode();
        if mode & 0o007 != 0 {
            tracing::warn!(
                path = %path.display(),
                "the file was readable by everybody; pbem takes that away (mode {:o})",
                mode & 0o770
            );
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode & 0o770))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
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

/// A board number is stored as its integer.
impl rusqlite::ToSql for crate::domain::BoardNumber {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}

impl rusqlite::types::FromSql for crate::domain::BoardNumber {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        u32::column_result(value).map(crate::domain::BoardNumber)
    }
}

/// Reads a stored time.
pub fn parse_time(text: &str) -> Result<OffsetDateTime, StoreError> {
    OffsetDateTime::parse(text, &Rfc3339)
        .map_err(|e| StoreError::Corrupt(format!("time {text:?}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_to_one_file_share_a_write_turn() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("pbem.sqlite3");
        let first = Store::open(&path).expect("first");
        // The same file by another name.
        let second = Store::open(&dir.path().join(".").join("pbem.sqlite3")).expect("second");
        let other = Store::open(&dir.path().join("other.sqlite3")).expect("other");
        assert!(Arc::ptr_eq(&first.write_turn, &second.write_turn));
        assert!(!Arc::ptr_eq(&first.write_turn, &other.write_turn));

        // A writer waits for the other's transaction, then goes ahead.
        let tx = first.transaction().expect("first transaction");
        set_setting(&tx, "order", "first").expect("write");
        std::thread::scope(|scope| {
            let waiter = scope.spawn(move || {
                let tx = second.transaction().expect("second transaction");
                let seen = setting(&tx, "order").expect("read");
                set_setting(&tx, "order", "second").expect("write");
                tx.commit().expect("commit");
                seen
            });
            tx.commit().expect("commit");
            assert_eq!(waiter.join().expect("waiter").as_deref(), Some("first"));
        });
        assert_eq!(
            setting(first.conn(), "order").expect("read").as_deref(),
            Some("second")
        );
    }

    #[test]
    fn in_memory_stores_have_their_own_turn() {
        let a = Store::open_in_memory().expect("a");
        let b = Store::open_in_memory().expect("b");
        assert!(!Arc::ptr_eq(&a.write_turn, &b.write_turn));
        let _held = a.transaction().expect("a's transaction");
        b.transaction()
            .expect("b does not wait for a")
            .commit()
            .expect("commit");
    }

    /// The schema named at startup is the newest file of `migrations/`,
    /// and every file there is applied, in the order of its number.
    #[test]
    fn the_schema_is_the_newest_migration_file() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .expect("migrations/")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter_map(|name| name.strip_suffix(".sql").map(str::to_string))
            .collect();
        files.sort();
        assert_eq!(MIGRATION_NAMES, files.as_slice());
        assert_eq!(Some(&SCHEMA.to_string()), files.last());
        let store = Store::open_in_memory().expect("store");
        let applied = applied_migrations(store.conn()).expect("user_version");
        assert_eq!(applied, MIGRATION_NAMES.len());
    }
}
