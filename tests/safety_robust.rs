//! Robustness findings of the second safety issue (issue 24), through the
//! real Maildir, SQLite file and outbox: a panic while handling one mail
//! is that mail's failure alone (finding 7), the deadline sweep works in
//! short transactions so that mail is never turned away while it runs
//! (finding 2), and the outbox keeps its mails from other users of the
//! machine (finding 6).

mod support;

use std::io::Write;
use std::process::{Command, Stdio};

use support::{ALICE, BOB, Harness, Sent, to};

const CAROL: &str = "carol@example.org";
const DAVE: &str = "dave@example.org";

fn db(h: &Harness) -> rusqlite::Connection {
    rusqlite::Connection::open(h.dir.path().join("pbem.sqlite3")).expect("database")
}

fn count(h: &Harness, sql: &str) -> i64 {
    db(h).query_row(sql, [], |row| row.get(0)).expect(sql)
}

fn raw_mail(from: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: pbem@localhost\r\nSubject: m\r\nMessage-ID: {id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

fn turns_on(h: &Harness, board: u32) -> i64 {
    count(
        h,
        &format!("SELECT COUNT(*) FROM turns WHERE board = {board}"),
    )
}

fn is_processed(h: &Harness, id: &str) -> bool {
    let id = id.trim_matches(['<', '>']);
    count(
        h,
        &format!("SELECT COUNT(*) FROM processed WHERE message_id IN ('{id}', '<{id}>')"),
    ) == 1
}

/// The fault: a board whose stored forfeit time lies beyond the calendar
/// (a corrupt row no command can write: `--forfeit` is bounded). Showing
/// the board computes the date of the loss on time, and that addition
/// panics. Any other way to make one mail panic serves as well; the tests
/// below check that the fault did strike (the mail is answered with the
/// server error, not with its board).
fn corrupt_the_clock_of(h: &Harness, board: u32) {
    let changed = db(h)
        .execute(
            "UPDATE boards SET forfeit_days = 3000000 WHERE number = ?1",
            [board],
        )
        .expect("update");
    assert_eq!(changed, 1);
}

/// Alice and Bob on board 101, Carol and Dave on board 102.
fn two_boards(h: &mut Harness) {
    h.alice_and_bob_on("chess");
    h.signup("carol", CAROL);
    h.signup("dave", DAVE);
    let mails = h.send(CAROL, "new", "chess challenge carol carol-pw dave --white");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    assert!(to(&mails, DAVE).subject.contains("Board 102"), "{mails:#?}");
}

fn assert_server_error(mail: &Sent, answered: &str) {
    assert_eq!(mail.subject, "pbem Error", "{mail:#?}");
    assert_eq!(
        mail.in_reply_to.as_deref(),
        Some(answered.trim_matches(['<', '>']))
    );
    let body = mail.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        body.contains("because of an error on the server, so none of it was done"),
        "{body}"
    );
}

/// Finding 7: a mail whose handling panics is taken back alone, recorded
/// as processed and answered with the server error; the other mails of its
/// batch are committed, and after a restart it is not handled again.
#[test]
fn a_mail_that_panics_is_answered_with_the_error_and_the_batch_goes_on() {
    let mut h = Harness::new();
    two_boards(&mut h);
    corrupt_the_clock_of(&h, 101);

    let (panics, plays, after) = (h.message_id(), h.message_id(), h.message_id());
    let inbox = h.server.inbox().clone();
    let panicking = raw_mail(ALICE, &panics, "move 101 alice alice-pw e4");
    for raw in [
        panicking.clone(),
        raw_mail(CAROL, &plays, "move 102 carol carol-pw e4"),
        raw_mail(BOB, &after, "help"),
    ] {
        inbox.deliver(&raw).expect("delivered");
    }
    let pass = h.pass();
    assert_eq!(pass.mails, 3, "{pass:?}");
    let mails = h.new_mails();

    assert_server_error(to(&mails, ALICE), &panics);
    assert_eq!(turns_on(&h, 101), 0, "the panicking turn is taken back");
    assert!(
        !mails
            .iter()
            .any(|m| m.to == BOB && m.subject.contains("Board 101")),
        "no board mail of the taken-back turn: {mails:#?}"
    );
    assert!(is_processed(&h, &panics), "recorded as processed");
    // The mails before and after it in the batch went through.
    assert!(to(&mails, DAVE).subject.contains("Board 102"), "{mails:#?}");
    assert_eq!(turns_on(&h, 102), 1);
    assert!(to(&mails, BOB).subject.contains("help"), "{mails:#?}");
    assert_eq!(mails.len(), 4, "alice, dave, carol and bob: {mails:#?}");
    assert!(
        inbox.waiting().expect("inbox").is_empty(),
        "nothing is left"
    );

    // After a restart nothing is handled again, and the same mail
    // delivered again is a duplicate.
    h.restart();
    assert_eq!(h.pass().mails, 0);
    inbox.deliver(&panicking).expect("delivered again");
    let again = h.pass();
    assert_eq!((again.mails, again.duplicates), (1, 1), "{again:?}");
    assert!(h.new_mails().is_empty());
    assert_eq!(turns_on(&h, 101), 0);
}

/// Finding 7 in MDA mode: `pbem process` answers a panicking mail with the
/// server error and exits 0 (the mail is done with), instead of dying and
/// having the mail system deliver it again and again.
#[test]
fn pbem_process_answers_a_panicking_mail_and_succeeds() {
    let mut h = Harness::new();
    two_boards(&mut h);
    corrupt_the_clock_of(&h, 101);
    let id = h.message_id();
    let raw = raw_mail(ALICE, &id, "move 101 alice alice-pw e4");
    let data_dir = h.dir.path().to_path_buf();
    let process = || {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbem"))
            .arg("--data-dir")
            .arg(&data_dir)
            .arg("process")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pbem process starts");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&raw)
            .expect("the mail is written");
        child.wait_with_output().expect("pbem process ends")
    };
    let output = process();
    assert!(
        output.status.success(),
        "{output:?}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mails = h.new_mails();
    assert_eq!(mails.len(), 1, "{mails:#?}");
    assert_server_error(&mails[0], &id);
    assert!(is_processed(&h, &id));
    assert_eq!(turns_on(&h, 101), 0);

    // Delivered again (the mail system retrying), it is a duplicate.
    assert!(process().status.success());
    assert!(h.new_mails().is_empty());
}
