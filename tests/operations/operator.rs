//! The operator's day (issue 30, sections 2 and 3): `pbem process` never
//! has the mail system bounce a player's mail for a setup error, the
//! example configuration works where there is no environment (.forward,
//! procmail, cron), the log goes where it is read, and the Subject is a
//! command only when the body holds none. Run as real processes, as the
//! mail system and cron run pbem.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use pbem_testkit::{ALICE, Harness, outbox_files};

/// What `pbem process` writes on standard error when it fails and the log
/// is elsewhere (`pbem::cli::MDA_FAILURE`).
pub(crate) const MDA_FAILURE: &str = pbem::cli::MDA_FAILURE;

/// Runs `pbem` with no environment at all (as .forward and cron do) and
/// `stdin` on its standard input.
pub(crate) fn pbem(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .env_clear()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem starts");
    // pbem may end before reading (bad arguments): a broken pipe is fine.
    child.stdin.take().expect("stdin").write_all(stdin).ok();
    child.wait_with_output().expect("pbem ends")
}

pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

pub(crate) fn help_mail(id: &str) -> Vec<u8> {
    format!("From: {ALICE}\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <{id}@example.org>\r\n\r\nhelp\r\n")
        .into_bytes()
}

/// A configuration file in `dir` with `text`.
fn config(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("pbem.toml");
    std::fs::write(&path, text).expect("config written");
    path
}

#[test]
fn pbem_process_exits_75_on_every_setup_error_and_says_why_only_in_the_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let data_arg = data.to_str().expect("UTF-8 path");
    // An unset token_secret_env (the guide's old example, run from .forward).
    let broken = config(
        dir.path(),
        "[server]\ntoken_secret_env = \"PBEM_TOKEN_SECRET\"\nlog_file = \"pbem.log\"\n[inbound]\nkind = \"stdin\"\n",
    );
    let broken_arg = broken.to_str().expect("UTF-8 path");
    std::fs::create_dir_all(&data).expect("data dir");
    let output = pbem(
        &["--config", broken_arg, "--data-dir", data_arg, "process"],
        &help_mail("m1"),
    );
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    // Postfix would quote standard error to the player: nothing of pbem's setup.
    assert_eq!(text(&output.stderr).trim_end(), MDA_FAILURE);
    assert!(output.stdout.is_empty(), "{output:?}");
    let log = std::fs::read_to_string(data.join("pbem.log")).expect("the log file");
    assert!(
        log.contains("ERROR") && log.contains("PBEM_TOKEN_SECRET, which is not set"),
        "{log}"
    );
    assert!(outbox_files(&data).is_empty());

    // Other setup errors: no configuration file, a data directory that
    // cannot be made, arguments the mail system's command gets wrong.
    let missing = dir.path().join("missing.toml");
    let a_file = dir.path().join("a-file");
    std::fs::write(&a_file, "").expect("file");
    let under_a_file = a_file.join("data");
    for args in [
        vec![
            "--config",
            missing.to_str().expect("UTF-8"),
            "--data-dir",
            data_arg,
            "process",
        ],
        vec![
            "--data-dir",
            under_a_file.to_str().expect("UTF-8"),
            "process",
        ],
        vec!["--data-dir", data_arg, "process", "--no-such-option"],
        vec!["--data-dir", data_arg, "--now", "yesterday", "process"],
    ] {
        let output = pbem(&args, &help_mail("m1"));
        assert_eq!(output.status.code(), Some(75), "{args:?}: {output:?}");
        let stderr = text(&output.stderr);
        assert!(
            !stderr.contains(dir.path().to_str().expect("UTF-8")),
            "{args:?}: {stderr}"
        );
        assert!(!stderr.starts_with('5'), "no status code: {stderr}");
    }

    // The same mail, given again once the setup is right, is answered.
    std::fs::write(
        dir.path().join("token-secret"),
        "0123456789abcdef0123456789abcdef\n",
    )
    .expect("secret file");
    config(
        dir.path(),
        &format!(
            "[server]\ntoken_secret_file = \"{}\"\nlog_file = \"pbem.log\"\n[inbound]\nkind = \"stdin\"\n",
            dir.path().join("token-secret").display()
        ),
    );
    // The database is made once, before the mail system runs pbem.
    let output = pbem(
        &["--config", broken_arg, "--data-dir", data_arg, "init"],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    let output = pbem(
        &["--config", broken_arg, "--data-dir", data_arg, "process"],
        &help_mail("m1"),
    );
    assert!(output.status.success(), "{output:?}");
    assert!(
        output.stderr.is_empty(),
        "the log is in the file: {output:?}"
    );
    assert_eq!(outbox_files(&data).len(), 1);
}

/// A database that cannot be written (another process holds it locked,
/// or its file is not pbem's) is a failure of the server: 75 too.
#[test]
fn pbem_process_exits_75_when_the_database_cannot_be_opened() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).expect("data dir");
    // Not a database.
    std::fs::write(data.join("pbem.sqlite3"), vec![b'x'; 4096]).expect("garbage");
    let output = pbem(
        &["--data-dir", data.to_str().expect("UTF-8"), "process"],
        &help_mail("m2"),
    );
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    assert_eq!(text(&output.stderr).trim_end(), MDA_FAILURE);
}

/// The example configuration, its paths moved into `dir`, with `sections`
/// (`[inbound]`, `[outbound]`) in place of its own; its secret files made.
fn the_example_in(dir: &Path, inbound: &str, outbound: &str) -> PathBuf {
    let etc = dir.join("etc");
    std::fs::create_dir_all(&etc).expect("etc");
    std::fs::write(
        etc.join("token-secret"),
        "0123456789abcdef0123456789abcdef\n",
    )
    .expect("secret");
    let example = include_str!("../../deploy/pbem.example.toml")
        .replace("/etc/pbem/", &format!("{}/", etc.display()))
        .replace(
            "/var/lib/pbem/",
            &format!("{}/", dir.join("data").display()),
        );
    let start = example.find("\n[inbound]").expect("an inbound section");
    let limits = example.find("\n[limits]").expect("a limits section");
    let text = format!(
        "{}\n{inbound}\n{outbound}\n{}",
        &example[..start],
        &example[limits..]
    );
    config(dir, &text)
}

#[test]
fn the_example_config_works_in_mda_mode_with_no_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = the_example_in(
        dir.path(),
        "[inbound]\nkind = \"stdin\"",
        "[outbound]\nkind = \"file\"",
    );
    let data = dir.path().join("data");
    let args = |command: &'static str| {
        vec![
            "--config".to_string(),
            config.display().to_string(),
            "--data-dir".to_string(),
            data.display().to_string(),
            command.to_string(),
        ]
    };
    let run = |command: &'static str, stdin: &[u8]| {
        let args = args(command);
        pbem(&args.iter().map(String::as_str).collect::<Vec<_>>(), stdin)
    };
    let output = run("init", b"");
    assert!(output.status.success(), "{output:?}");
    let output = run("process", &help_mail("m3"));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(outbox_files(&data).len(), 1);
    // cron's `pbem tick`, with no environment either.
    let output = run("tick", b"");
    assert!(output.status.success(), "{output:?}");
    assert!(text(&output.stdout).starts_with("sweep: "), "{output:?}");
}

/// `pbem backup` reads no secret: the example as it stands works for it
/// even where its secret files cannot be read (a root cron job on a
/// machine where they are pbem's, or the IMAP and SMTP passwords' files
/// not made at all, as here).
#[test]
fn backup_and_ratings_need_no_secret() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).expect("data dir");
    let example = include_str!("../../deploy/pbem.example.toml")
        .replace("/etc/pbem/", "/nonexistent/pbem/")
        .replace("/var/lib/pbem/", &format!("{}/", data.display()));
    let config = config(dir.path(), &example);
    let database = rusqlite::Connection::open(data.join("pbem.sqlite3")).expect("db");
    database
        .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (1);")
        .expect("a table");
    drop(database);
    let copy = dir.path().join("copy.sqlite3");
    let output = pbem(
        &[
            "--config",
            config.to_str().expect("UTF-8"),
            "--data-dir",
            data.to_str().expect("UTF-8"),
            "backup",
            copy.to_str().expect("UTF-8"),
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    assert!(copy.is_file());
    // A typo in the file is still named.
    std::fs::write(&config, "databse = \"x\"\n").expect("typo");
    let output = pbem(
        &[
            "--config",
            config.to_str().expect("UTF-8"),
            "backup",
            copy.to_str().expect("UTF-8"),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert!(text(&output.stderr).contains("databse"), "{output:?}");
}

#[test]
fn the_log_goes_to_the_log_file_and_carries_no_colours_off_a_terminal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let data_arg = data.to_str().expect("UTF-8");
    // Standard error is a pipe here: no ANSI escapes, with or without NO_COLOR.
    let output = pbem(&["--data-dir", data_arg, "tick"], b"");
    assert!(output.status.success(), "{output:?}");
    let stderr = text(&output.stderr);
    assert!(
        stderr.contains("INFO"),
        "the log is on standard error: {stderr}"
    );
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");

    // With a log file, lines are appended to it, not written to stderr
    // (each new data directory logs its database's creation).
    let log_file = dir.path().join("pbem.log");
    let config = config(
        dir.path(),
        &format!("[server]\nlog_file = \"{}\"\n", log_file.display()),
    );
    let config_arg = config.to_str().expect("UTF-8");
    std::fs::write(&log_file, "an earlier line\n").expect("log");
    for data in ["one", "two"] {
        let data = dir.path().join(data);
        let output = pbem(
            &[
                "--config",
                config_arg,
                "--data-dir",
                data.to_str().expect("UTF-8"),
                "tick",
            ],
            b"",
        );
        assert!(output.status.success(), "{output:?}");
        assert!(output.stderr.is_empty(), "{output:?}");
    }
    let log = std::fs::read_to_string(&log_file).expect("log file");
    assert!(log.starts_with("an earlier line\n"), "{log}");
    assert!(
        log.lines().filter(|l| l.contains("INFO")).count() >= 2,
        "{log}"
    );
    assert!(!log.contains('\u{1b}'), "{log:?}");
}

/// Every Maildir folder `deploy/procmailrc.example` delivers to is made by
/// the rc itself (procmail makes the last directory of a Maildir, not the
/// ones above it, so on a fresh account `~/Maildir` did not exist).
#[test]
fn the_procmailrc_example_makes_the_folders_it_delivers_to() {
    let rc = include_str!("../../deploy/procmailrc.example");
    let folders: Vec<&str> = rc
        .lines()
        .filter(|line| line.starts_with("$HOME/Maildir/"))
        .collect();
    assert_eq!(folders.len(), 2, "{rc}");
    let made = rc
        .lines()
        .find(|line| !line.starts_with('#') && line.contains("mkdir -p"))
        .unwrap_or_else(|| panic!("no mkdir line in {rc}"));
    for folder in folders {
        for sub in ["cur", "new", "tmp"] {
            let path = format!("{folder}{sub}");
            assert!(made.contains(&path), "{path} is not made by: {made}");
        }
    }
}

/// The Subject is a command only when the body holds none: `settings` in
/// both is answered once, as the body's, and the answer is no error.
#[test]
fn a_subject_repeating_the_body_command_is_answered_once() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let mails = h.send(ALICE, "settings", "settings alice alice-pw");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_ne!(mails[0].subject, "pbem Error", "{}", mails[0].body);
    assert!(!mails[0].body.contains("Error"), "{}", mails[0].body);

    let mails = h.send(ALICE, "help", "help");
    assert_eq!(mails.len(), 1, "{mails:#?}");
    let once = h.send(ALICE, "x", "help");
    assert_eq!(
        mails[0].body.len(),
        once[0].body.len(),
        "help answered once"
    );

    // With no command in the body, the Subject is the command.
    let mails = h.send(ALICE, "help", "Thanks!");
    assert_eq!(
        mails[0].body.len(),
        once[0].body.len(),
        "help from the Subject"
    );
}

/// Where cron's `pbem tick` stands in for `serve` (MDA mode), it prunes
/// old records as `serve` does at each sweep.
#[test]
fn tick_prunes_old_records_as_serve_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let data_arg = data.to_str().expect("UTF-8");
    assert!(
        pbem(&["--data-dir", data_arg, "init"], b"")
            .status
            .success()
    );
    let output = pbem(
        &[
            "--data-dir",
            data_arg,
            "--now",
            "2026-03-01T12:00:00Z",
            "process",
        ],
        &help_mail("m4"),
    );
    assert!(output.status.success(), "{output:?}");
    let processed = || -> i64 {
        let db = rusqlite::Connection::open(data.join("pbem.sqlite3")).expect("db");
        db.query_row("SELECT COUNT(*) FROM processed", [], |row| row.get(0))
            .expect("count")
    };
    assert_eq!(processed(), 1);
    let output = pbem(
        &[
            "--data-dir",
            data_arg,
            "--now",
            "2026-03-02T12:00:00Z",
            "tick",
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(processed(), 1, "a day later it is kept");
    let output = pbem(
        &[
            "--data-dir",
            data_arg,
            "--now",
            "2026-04-15T12:00:00Z",
            "tick",
        ],
        b"",
    );
    assert!(output.status.success(), "{output:?}");
    assert_eq!(processed(), 0, "after 30 days it is forgotten");
}

/// A mail pbem handled is done with even when its answer cannot be sent
/// now (the local sendmail fails): exit 0, the answer waits in the outbox;
/// exit 75 would have the mail system hand it over again and again, and
/// bounce it after days although it was acted on.
#[test]
fn pbem_process_succeeds_when_only_the_sending_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let config = config(
        dir.path(),
        "[inbound]\nkind = \"stdin\"\n[outbound]\nkind = \"sendmail\"\nsendmail = \"/bin/false\"\n",
    );
    let init = pbem(
        &[
            "--config",
            config.to_str().expect("UTF-8"),
            "--data-dir",
            data.to_str().expect("UTF-8"),
            "init",
        ],
        b"",
    );
    assert!(init.status.success(), "{init:?}");
    let output = pbem(
        &[
            "--config",
            config.to_str().expect("UTF-8"),
            "--data-dir",
            data.to_str().expect("UTF-8"),
            "process",
        ],
        &help_mail("m5"),
    );
    assert!(output.status.success(), "{output:?}");
    let db = rusqlite::Connection::open(data.join("pbem.sqlite3")).expect("db");
    let unsent: i64 = db
        .query_row(
            "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL",
            [],
            |row| row.get(0),
        )
        .expect("count");
    assert_eq!(unsent, 1, "the answer waits in the outbox");
}

/// On a terminal the log is in colour, unless `NO_COLOR` is set
/// (<https://no-color.org>). The terminal is util-linux's `script`.
#[test]
fn the_log_is_coloured_on_a_terminal_unless_no_color_is_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let on_a_terminal = |data: &str, no_color: Option<&str>| {
        let command = format!(
            "{} --data-dir {} tick",
            env!("CARGO_BIN_EXE_pbem"),
            dir.path().join(data).display()
        );
        let mut script = Command::new("script");
        script.args(["-qec", &command, "/dev/null"]);
        script.env_remove("NO_COLOR");
        if let Some(value) = no_color {
            script.env("NO_COLOR", value);
        }
        let output = script.output().expect("util-linux's script runs");
        assert!(output.status.success(), "{output:?}");
        // The new database's creation is logged at INFO.
        let shown = text(&output.stdout);
        assert!(shown.contains("INFO"), "{shown}");
        shown.contains('\u{1b}')
    };
    assert!(on_a_terminal("one", None), "colours on a terminal");
    assert!(!on_a_terminal("two", Some("1")), "NO_COLOR=1");
    assert!(
        on_a_terminal("three", Some("")),
        "an empty NO_COLOR is unset"
    );
}
