//! The operator's day (issue 36, items 8 and 9), through the real binary
//! as Postfix, procmail and cron run it: `pbem process` makes nothing and
//! says where the reason is, `pbem init` makes the database, `tick` leaves
//! its line in the log and `status` shows the last sweep, each mail leaves
//! one line in the log (never a password or a move), and handled mails
//! are pruned from the Maildir.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use pbem_testkit::{ALICE, Harness, outbox_files, text_mail};

use super::operator::{MDA_FAILURE, help_mail, pbem, text};

fn path(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// A configuration in `dir` that logs to `<dir>/pbem.log`, with `more`.
fn logging_config(dir: &Path, more: &str) -> (PathBuf, PathBuf) {
    let log = dir.join("pbem.log");
    let config = dir.join("pbem.toml");
    std::fs::write(
        &config,
        format!("[server]\nlog_file = \"{}\"\n{more}", log.display()),
    )
    .expect("config written");
    (config, log)
}

#[test]
fn process_without_a_data_directory_or_database_exits_75_and_makes_nothing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let output = pbem(&["--data-dir", path(&data), "process"], &help_mail("d1"));
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    assert_eq!(text(&output.stderr).trim_end(), MDA_FAILURE);
    assert!(MDA_FAILURE.contains("`pbem status`"), "{MDA_FAILURE}");
    assert!(!data.exists(), "process made the data directory");

    // A data directory without a database: nothing made in it either.
    std::fs::create_dir(&data).expect("data dir");
    let output = pbem(&["--data-dir", path(&data), "process"], &help_mail("d1"));
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    assert_eq!(text(&output.stderr).trim_end(), MDA_FAILURE);
    assert_eq!(
        std::fs::read_dir(&data).expect("data dir").count(),
        0,
        "process made something in the data directory"
    );
    // `pbem status`, as the sentence says, names the reason and the step.
    let status = pbem(&["--data-dir", path(&data), "status"], b"");
    assert!(!status.status.success(), "{status:?}");
    assert!(text(&status.stderr).contains("pbem init"), "{status:?}");

    // `pbem init` makes them; the same mail is then answered.
    let output = pbem(&["--data-dir", path(&data), "init"], b"");
    assert!(output.status.success(), "{output:?}");
    assert!(data.join("pbem.sqlite3").is_file());
    let output = pbem(&["--data-dir", path(&data), "process"], &help_mail("d1"));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(outbox_files(&data).len(), 1);
}

#[test]
fn a_misspelt_configuration_is_logged_in_its_log_file_and_shown_by_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    std::fs::create_dir(&data).expect("data dir");
    assert!(
        pbem(&["--data-dir", path(&data), "init"], b"")
            .status
            .success()
    );
    let (config, log) =
        logging_config(dir.path(), "[inbound]\nkind = \"stdin\"\npol_seconds = 5\n");
    let args = |command| {
        vec![
            "--config",
            path(&config),
            "--data-dir",
            path(&data),
            command,
        ]
    };
    let output = pbem(&args("process"), &help_mail("d2"));
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    assert_eq!(text(&output.stderr).trim_end(), MDA_FAILURE);
    // The log file the broken configuration names has the reason.
    let logged = std::fs::read_to_string(&log).expect("the log file");
    assert!(
        logged.contains("ERROR") && logged.contains("pol_seconds"),
        "{logged}"
    );
    // `pbem status` with the same options prints it in full.
    let status = pbem(&args("status"), b"");
    assert_eq!(status.status.code(), Some(2), "{status:?}");
    let stderr = text(&status.stderr);
    assert!(
        stderr.contains(path(&config)) && stderr.contains("unknown field `pol_seconds`"),
        "{stderr}"
    );
    // The configuration mended, status succeeds.
    logging_config(dir.path(), "[inbound]\nkind = \"stdin\"\n");
    let status = pbem(&args("status"), b"");
    assert!(status.status.success(), "{status:?}");
}

/// A configuration that reads (no misspelt key) but does not load, for
/// the want of a secret: `status` prints the reason, after its report.
#[test]
fn status_prints_why_a_configuration_does_not_load() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    assert!(
        pbem(&["--data-dir", path(&data), "init"], b"")
            .status
            .success()
    );
    let (config, _) = logging_config(dir.path(), "token_secret_env = \"PBEM_TOKEN_SECRET\"\n");
    let args = |command| {
        vec![
            "--config",
            path(&config),
            "--data-dir",
            path(&data),
            command,
        ]
    };
    let output = pbem(&args("process"), &help_mail("d3"));
    assert_eq!(output.status.code(), Some(75), "{output:?}");
    let status = pbem(&args("status"), b"");
    assert_eq!(status.status.code(), Some(2), "{status:?}");
    assert!(
        text(&status.stdout).contains("outbox: 0 unsent"),
        "{status:?}"
    );
    assert!(
        text(&status.stderr).contains("PBEM_TOKEN_SECRET, which is not set"),
        "{status:?}"
    );
}

#[test]
fn tick_logs_its_line_and_status_shows_the_last_sweep() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let (config, log) = logging_config(dir.path(), "");
    let args = |command| {
        vec![
            "--config",
            path(&config),
            "--data-dir",
            path(&data),
            command,
        ]
    };
    assert!(pbem(&args("init"), b"").status.success());
    let status = pbem(&args("status"), b"");
    assert!(
        text(&status.stdout).contains("last sweep: never"),
        "{status:?}"
    );

    let mut tick = args("tick");
    tick.splice(0..0, ["--now", "2026-03-01T04:00:00Z"]);
    let output = pbem(&tick, b"");
    assert!(output.status.success(), "{output:?}");
    let logged = std::fs::read_to_string(&log).expect("the log file");
    assert!(
        logged
            .lines()
            .any(|line| line.contains("INFO")
                && line.contains("sweep: 0 reminders, 0 losses on time")),
        "{logged}"
    );
    let status = pbem(&args("status"), b"");
    assert!(
        text(&status.stdout).contains(
            "last sweep: 2026-03-01T04:00:00Z 0 reminders, 0 losses on time, 0 draws by timeout"
        ),
        "{status:?}"
    );
}

#[test]
fn each_mail_leaves_one_line_without_its_arguments() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let (config, log) = logging_config(h.dir.path(), "");
    let id = h.message_id();
    let mail = text_mail(
        ALICE,
        "pbem@localhost",
        "my move",
        &id,
        "move 101 alice alice-pw e4\r\nsecret-comment-words",
    );
    let output = pbem(
        &[
            "--config",
            path(&config),
            "--data-dir",
            path(h.dir.path()),
            "process",
        ],
        &mail,
    );
    assert!(output.status.success(), "{output:?}");
    let logged = std::fs::read_to_string(&log).expect("the log file");
    let lines: Vec<&str> = logged
        .lines()
        .filter(|l| l.contains("mail handled"))
        .collect();
    assert_eq!(lines.len(), 1, "{logged}");
    let line = lines[0];
    assert!(line.contains(" INFO "), "{line}");
    assert!(
        line.contains(&format!("message_id={}", id.trim_matches(['<', '>']))),
        "{line}"
    );
    assert!(line.contains("player=alice"), "{line}");
    assert!(line.contains("commands=move 101"), "{line}");
    assert!(line.contains("replies=2"), "{line}");
    for secret in ["alice-pw", "e4", "secret-comment-words"] {
        assert!(!logged.contains(secret), "{secret} in the log: {logged}");
    }

    // A stranger's mail proves no player.
    let mail = text_mail(
        "stranger@example.org",
        "pbem@localhost",
        "help",
        "<stranger-1@example.org>",
        "help",
    );
    let output = pbem(
        &[
            "--config",
            path(&config),
            "--data-dir",
            path(h.dir.path()),
            "process",
        ],
        &mail,
    );
    assert!(output.status.success(), "{output:?}");
    let logged = std::fs::read_to_string(&log).expect("the log file");
    let last = logged
        .lines()
        .rfind(|l| l.contains("mail handled"))
        .expect("a line");
    assert!(
        last.contains("player=unproven") && last.contains("commands=help"),
        "{last}"
    );
}

/// Sets a file's modification time `days` days back.
fn age(file: &Path, days: u64) {
    let when = SystemTime::now() - Duration::from_secs(days * 24 * 3600);
    std::fs::File::options()
        .write(true)
        .open(file)
        .expect("open")
        .set_modified(when)
        .expect("set mtime");
}

#[test]
fn tick_prunes_the_maildirs_handled_mails_after_keep_processed_days() {
    let dir = tempfile::tempdir().expect("temp dir");
    let data = dir.path().join("data");
    let inbox = data.join("inbox");
    let (config, _) = logging_config(
        dir.path(),
        &format!(
            "[inbound]\nkind = \"maildir\"\nmaildir = \"{}\"\nkeep_processed_days = 10\n",
            inbox.display()
        ),
    );
    let args = |command| {
        vec![
            "--config",
            path(&config),
            "--data-dir",
            path(&data),
            command,
        ]
    };
    assert!(pbem(&args("init"), b"").status.success());
    let cur = inbox.join("cur");
    let (old, recent) = (cur.join("1.old:2,S"), cur.join("2.recent:2,S"));
    std::fs::write(&old, help_mail("old")).expect("old mail");
    std::fs::write(&recent, help_mail("recent")).expect("recent mail");
    age(&old, 11);
    age(&recent, 9);
    let output = pbem(&args("tick"), b"");
    assert!(output.status.success(), "{output:?}");
    assert!(!old.exists(), "the mail of 11 days is kept");
    assert!(recent.exists(), "the mail of 9 days is gone");
}
