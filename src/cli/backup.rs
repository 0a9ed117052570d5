//! `pbem backup FILE`: a consistent copy of the database, taken with
//! SQLite's online backup API while the server keeps running (it sees a
//! snapshot; the server's writes go on). The copy is written next to FILE
//! and renamed into place when complete, so FILE is always a whole
//! database. Restore by stopping the server and copying FILE over the
//! database (removing its `-wal` and `-shm` files).

use std::path::Path;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

use super::{CliError, serve};

pub fn run(data_dir: &Path, config: Option<&Path>, target: &Path) -> Result<(), CliError> {
    let database = &serve::database(data_dir, config)?;
    let failed = |what: String| CliError::Server(what);
    if !database.is_file() {
        return Err(CliError::Input(format!(
            "there is no database at {} to back up; check --data-dir, --config and its `database` key",
            database.display()
        )));
    }
    let source = Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| failed(format!("cannot open {}: {e}", database.display())))?;
    source
        .busy_timeout(Duration::from_secs(10))
        .map_err(|e| failed(e.to_string()))?;
    let mut partial = target.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    // A partial copy left by an interrupted run is simply replaced.
    std::fs::remove_file(&partial).ok();
    // The copy holds the token key and password hashes: owner only.
    crate::store::private_file(&partial).map_err(|e| {
        failed(format!(
            "cannot create {}: {e}; check that its directory exists and is writable",
            partial.display()
        ))
    })?;
    {
        let mut copy = Connection::open(&partial).map_err(|e| {
            failed(format!(
                "cannot create {}: {e}; check that its directory exists and is writable",
                partial.display()
            ))
        })?;
        let backup = rusqlite::backup::Backup::new(&source, &mut copy)
            .map_err(|e| failed(format!("cannot start the backup: {e}")))?;
        backup
            .run_to_completion(1024, Duration::from_millis(5), None)
            .map_err(|e| failed(format!("the backup failed: {e}")))?;
    }
    std::fs::File::open(&partial)
        .and_then(|file| file.sync_all())
        .and_then(|()| std::fs::rename(&partial, target))
        .map_err(|e| failed(format!("cannot put the copy at {}: {e}", target.display())))?;
    println!("backed up {} to {}", database.display(), target.display());
    Ok(())
}
