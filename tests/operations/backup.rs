//! `pbem backup`: a whole, consistent copy of a database in use.

use std::process::Command;

fn pbem(data: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .output()
        .expect("pbem runs")
}

#[test]
fn backup_copies_the_database_while_it_is_open() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let inbox = pbem::mail::maildir::Maildir::create(&data.join("inbox")).expect("inbox");
    inbox
        .deliver(b"From: alice@example.org\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <b1@example.org>\r\n\r\nsignup alice alice-pw\r\n")
        .expect("deliver");
    let once = pbem(&data, &["serve", "--once"]);
    assert!(
        once.status.success(),
        "{}",
        String::from_utf8_lossy(&once.stderr)
    );

    // Another connection holds a read transaction meanwhile.
    let open = rusqlite::Connection::open(data.join("pbem.sqlite3")).expect("db");
    open.execute_batch("BEGIN; SELECT COUNT(*) FROM players;")
        .expect("read");
    let copy = dir.path().join("copy.sqlite3");
    let output = pbem(&data, &["backup", copy.to_str().expect("utf-8 path")]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("backed up"));

    let restored = rusqlite::Connection::open(&copy).expect("the copy opens");
    let check: String = restored
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("check");
    assert_eq!(check, "ok");
    let players: i64 = restored
        .query_row("SELECT COUNT(*) FROM players", [], |row| row.get(0))
        .expect("players");
    assert_eq!(players, 1);
    assert!(!dir.path().join("copy.sqlite3.partial").exists());

    // The database and the copy hold the token key and password hashes:
    // nobody but their owner may read them, whatever the umask.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        for file in [data.join("pbem.sqlite3"), copy] {
            let mode = std::fs::metadata(&file).expect("file").permissions().mode();
            assert_eq!(mode & 0o077, 0, "{} has mode {mode:o}", file.display());
        }
    }
}

#[test]
fn backup_without_a_database_says_where_it_looked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = pbem(&dir.path().join("nothing"), &["backup", "x.sqlite3"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no database at"), "{stderr}");
}
