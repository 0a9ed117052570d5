//! Robustness findings of the second safety issue (issue 24), through the
//! real Maildir, SQLite file and outbox: a panic while handling one mail
//! is that mail's failure alone (finding 7), the deadline sweep works in
//! short transactions so that mail is never turned away while it runs
//! (finding 2), and the outbox keeps its mails from other users of the
//! machine (finding 6).

use std::io::Write;
use std::process::{Command, Stdio};

use pbem_testkit::{ALICE, BOB, Harness, Sent, flat, text_mail, to};

const CAROL: &str = "carol@example.org";
const DAVE: &str = "dave@example.org";

fn turns_on(h: &Harness, board: u32) -> i64 {
    h.count(&format!("SELECT COUNT(*) FROM turns WHERE board = {board}"))
}

fn is_processed(h: &Harness, id: &str) -> bool {
    let id = id.trim_matches(['<', '>']);
    h.count(&format!(
        "SELECT COUNT(*) FROM processed WHERE message_id IN ('{id}', '<{id}>')"
    )) == 1
}

/// The fault: a board whose stored forfeit time lies beyond the calendar
/// (a corrupt row no command can write: `--forfeit` is bounded). Showing
/// the board computes the date of the loss on time, and that addition
/// panics. Any other way to make one mail panic serves as well; the tests
/// below check that the fault did strike (the mail is answered with the
/// server error, not with its board).
fn corrupt_the_deadlines_of(h: &Harness, board: u32) {
    let changed = h
        .database()
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
    // Both challenges accepted: their clocks run.
    for (from, line) in [
        (BOB, "accept 101 bob bob-pw"),
        (DAVE, "accept 102 dave dave-pw"),
    ] {
        let accepted = h.send(from, "accept", line);
        assert!(!accepted.is_empty(), "{accepted:#?}");
    }
}

fn assert_server_error(mail: &Sent, answered: &str) {
    assert_eq!(mail.subject, "pbem Error", "{mail:#?}");
    assert_eq!(
        mail.in_reply_to.as_deref(),
        Some(answered.trim_matches(['<', '>']))
    );
    let body = flat(&mail.body);
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
    corrupt_the_deadlines_of(&h, 101);

    let (panics, plays, after) = (h.message_id(), h.message_id(), h.message_id());
    let inbox = h.server.inbox().clone();
    let panicking = text_mail(
        ALICE,
        "pbem@localhost",
        "m",
        &panics,
        "move 101 alice alice-pw e4",
    );
    for raw in [
        panicking.clone(),
        text_mail(
            CAROL,
            "pbem@localhost",
            "m",
            &plays,
            "move 102 carol carol-pw e4",
        ),
        text_mail(BOB, "pbem@localhost", "m", &after, "help"),
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

    // The deadline sweep meets the same fault on board 101 (its reminder
    // shows the date of the loss on time): that board is taken back and
    // logged, the others get their reminders.
    let nags = h.sweep(h.now + time::Duration::days(8));
    assert_eq!(nags.len(), 1, "{nags:#?}");
    assert_eq!(nags[0].to, DAVE);
    assert_eq!(nags[0].subject, "Nag: Chess Board 102 dave");
    assert_eq!(
        h.count("SELECT nags_sent FROM boards WHERE number = 101"),
        0
    );
}

/// Finding 7 in MDA mode: `pbem process` answers a panicking mail with the
/// server error and exits 0 (the mail is done with), instead of dying and
/// having the mail system deliver it again and again.
#[test]
fn pbem_process_answers_a_panicking_mail_and_succeeds() {
    let mut h = Harness::new();
    two_boards(&mut h);
    corrupt_the_deadlines_of(&h, 101);
    let id = h.message_id();
    let raw = text_mail(
        ALICE,
        "pbem@localhost",
        "m",
        &id,
        "move 101 alice alice-pw e4",
    );
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

/// The boards a sweep finds, made directly in the store (signing up
/// thousands of players by mail would take minutes): `reminders` boards
/// whose player to move is due a first reminder at `at`, `losses` boards
/// lost on time, and `idle` boards with nothing due, interleaved; each
/// board between two players of its own. Returns the numbers of the boards
/// due a reminder and of those lost on time.
fn due_boards(
    h: &Harness,
    at: time::OffsetDateTime,
    reminders: usize,
    losses: usize,
    idle: usize,
) -> (Vec<u32>, Vec<u32>) {
    use pbem::store::boards::{self, BoardOptions};
    use pbem::store::{Store, deadlines, players};
    let store = Store::open(&h.dir.path().join("pbem.sqlite3")).expect("store");
    let tx = store.transaction().expect("transaction");
    let options = BoardOptions {
        rated: false,
        days_per_turn: None,
        nag_days: 7,
        forfeit_days: 21,
        start_position: None,
        opening: None,
    };
    let (mut nagged, mut lost) = (Vec::new(), Vec::new());
    let kinds = std::iter::repeat_n(0, reminders)
        .chain(std::iter::repeat_n(1, losses))
        .chain(std::iter::repeat_n(2, idle));
    // Interleaved (7919 is a prime, so this takes each once): every
    // transaction of the sweep meets each kind.
    let kinds: Vec<u8> = kinds.collect();
    let total = kinds.len();
    assert_ne!(total % 7919, 0);
    let kinds: Vec<u8> = (0..total).map(|i| kinds[(i * 7919) % total]).collect();
    for (i, kind) in kinds.into_iter().enumerate() {
        let player = |colour: &str| {
            let userid = format!("{colour}{i}");
            let mail = format!("{userid}@example.org");
            players::insert(&tx, &userid, "not a hash", &[mail], at).expect("player")
        };
        let (white, black) = (player("w"), player("b"));
        let since = at
            - time::Duration::days(match kind {
                0 => 8,
                1 => 22,
                _ => 1,
            });
        let number = boards::insert(
            &tx,
            pbem::rules::Variant::Chess,
            white,
            black,
            options.clone(),
            since,
        )
        .expect("board");
        deadlines::set_to_move(&tx, number, white).expect("to move");
        match kind {
            0 => nagged.push(number.0),
            1 => lost.push(number.0),
            _ => {}
        }
    }
    tx.commit().expect("commit");
    (nagged, lost)
}

/// Every player chooses the daily digest (`set mail digest`): the digest
/// goes to nobody else.
fn choose_the_digest(h: &Harness) {
    use pbem::store::Store;
    use pbem::store::players::PlayerId;
    use pbem::store::preferences::{self, MailChoice, Preferences};
    let store = Store::open(&h.dir.path().join("pbem.sqlite3")).expect("store");
    let tx = store.transaction().expect("transaction");
    let ids: Vec<i64> = tx
        .prepare("SELECT id FROM players")
        .expect("query")
        .query_map([], |row| row.get(0))
        .expect("players")
        .collect::<Result<_, _>>()
        .expect("ids");
    let digest = Preferences {
        mail: MailChoice::Digest,
        ..Preferences::default()
    };
    for id in ids {
        preferences::set(&tx, PlayerId(id), digest).expect("preferences");
    }
    tx.commit().expect("commit");
}

fn rfc3339(time: time::OffsetDateTime) -> String {
    time.format(&time::format_description::well_known::Rfc3339)
        .expect("formats")
}

/// `pbem tick` as a process of its own, as cron runs it.
fn spawn_tick(h: &Harness, at: time::OffsetDateTime) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .args(["--now", &rfc3339(at), "tick"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem tick starts")
}

/// Waits until the sweep has committed some of its work.
fn wait_for_the_first_commit(h: &Harness, tick: &mut std::process::Child) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while h.count("SELECT COUNT(*) FROM boards WHERE nags_sent > 0 OR result IS NOT NULL") == 0 {
        assert!(
            tick.try_wait().expect("tick").is_none(),
            "the sweep ended before any of it was seen"
        );
        assert!(
            std::time::Instant::now() < deadline,
            "the sweep never began"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// Finding 2: a sweep over thousands of due boards works in short
/// transactions: a mail that comes meanwhile (`pbem process`, another
/// process) is handled in between, and does not wait for the whole sweep
/// (before, the sweep was one transaction, of half a minute for 13,920
/// boards, and the mail got exit 75 after its 10 s wait). The sweep does what it did before: one reminder per
/// board due one, each loss on time scored and mailed to both players.
#[test]
fn a_sweep_over_thousands_of_boards_lets_mail_through() {
    let mut h = Harness::new();
    let at = h.now + time::Duration::days(30);
    let (nagged, lost) = due_boards(&h, at, 1500, 300, 200);
    let mut tick = spawn_tick(&h, at);
    wait_for_the_first_commit(&h, &mut tick);

    let stranger = "mail@example.org";
    let id = h.message_id();
    let mut process = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .args(["--now", &rfc3339(at), "process"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem process starts");
    process
        .stdin
        .take()
        .expect("stdin")
        .write_all(&text_mail(stranger, "pbem@localhost", "m", &id, "help"))
        .expect("the mail is written");
    let processed = process.wait_with_output().expect("pbem process ends");
    assert!(
        processed.status.success(),
        "{processed:?}\n{}",
        String::from_utf8_lossy(&processed.stderr)
    );
    let ticked = tick.wait_with_output().expect("pbem tick ends");
    assert!(
        ticked.status.success(),
        "{}",
        String::from_utf8_lossy(&ticked.stderr)
    );
    let report = String::from_utf8_lossy(&ticked.stdout);
    assert!(
        report.starts_with(&format!(
            "sweep: {} reminders, {} losses on time, 0 draws by timeout;",
            nagged.len(),
            lost.len()
        )),
        "{report}"
    );

    // Every mail in the outbox, in the order they were queued: the
    // answer to the mail sits among the sweep's mails, committed in
    // between. (`pbem process` itself ends only after the sweep: it sends
    // what is in the outbox, and the sweep keeps adding to it.)
    let mails = h.new_mails();
    let answer = mails
        .iter()
        .position(|m| m.to == stranger)
        .expect("the mail is answered");
    let is_nag = |m: &Sent| m.subject.starts_with("Nag: ");
    assert!(
        mails[..answer].iter().any(is_nag),
        "a nag before the answer"
    );
    assert!(mails[answer..].iter().any(is_nag), "a nag after the answer");
    assert_eq!(mails.iter().filter(|m| is_nag(m)).count(), nagged.len());
    assert_eq!(mails.len(), nagged.len() + 2 * lost.len() + 1);
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE nags_sent = 1"),
        nagged.len() as i64
    );
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE result IS NOT NULL"),
        lost.len() as i64
    );
}

/// A sweep killed half way has committed whole boards only: the next
/// sweep does the rest, and every board gets its reminder or its loss on
/// time exactly once.
#[test]
fn a_sweep_killed_half_way_acts_on_every_board_once() {
    let mut h = Harness::new();
    let at = h.now + time::Duration::days(30);
    let (nagged, lost) = due_boards(&h, at, 600, 150, 50);
    let mut tick = spawn_tick(&h, at);
    wait_for_the_first_commit(&h, &mut tick);
    tick.kill().expect("killed");
    tick.wait().expect("ended");
    let acted = |h: &Harness| {
        h.count("SELECT COUNT(*) FROM boards WHERE nags_sent > 0 OR result IS NOT NULL")
    };
    let before = acted(&h);
    let due = (nagged.len() + lost.len()) as i64;
    assert!(0 < before && before < due, "killed half way: {before}");

    let again = spawn_tick(&h, at).wait_with_output().expect("tick");
    assert!(again.status.success(), "{again:?}");
    let report = String::from_utf8_lossy(&again.stdout);
    let (reminders, losses): (i64, i64) = {
        let words: Vec<&str> = report.split_whitespace().collect();
        (
            words[1].parse().expect("reminders"),
            words[3].parse().expect("losses"),
        )
    };
    assert_eq!(before + reminders + losses, due, "{report}");
    assert_eq!(acted(&h), due);
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE nags_sent > 1"),
        0
    );
    let mails = h.new_mails();
    let nags = mails.iter().filter(|m| m.subject.starts_with("Nag: "));
    let mut nag_boards: Vec<&str> = nags.map(|m| m.subject.as_str()).collect();
    nag_boards.sort();
    nag_boards.dedup();
    assert_eq!(nag_boards.len(), nagged.len(), "one reminder per board");
    assert_eq!(mails.len(), nagged.len() + 2 * lost.len());
    // A third sweep finds nothing left.
    let third = spawn_tick(&h, at).wait_with_output().expect("tick");
    assert!(
        String::from_utf8_lossy(&third.stdout)
            .starts_with("sweep: 0 reminders, 0 losses on time, 0 draws by timeout;")
    );
}

fn mode(path: &std::path::Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .permissions()
        .mode()
        & 0o777
}

/// Finding 6 (part): the outbox's mails hold confirmation codes and reply
/// tokens, the inbox's passwords. The folders pbem creates are its own
/// (0700: the data directory, the outbox, the inbox Maildir and its
/// folders), every mail it writes is readable by its owner only (0600),
/// and an outbox folder others could enter loses that at start.
#[test]
fn mail_folders_and_files_are_kept_from_other_users() {
    use std::os::unix::fs::PermissionsExt;
    let root = tempfile::tempdir().expect("temporary directory");
    let data = root.path().join("data");
    let config = pbem::config::Config::defaults(&data);
    let mut server = pbem::server::Server::open(&config).expect("server");
    let raw = text_mail(
        ALICE,
        "pbem@localhost",
        "m",
        "<perm-1@example.org>",
        "signup alice alice-password",
    );
    let delivered = server.inbox().deliver(&raw).expect("delivered");
    assert_eq!(mode(&delivered), 0o600, "a delivered mail");
    let pass = server
        .process_waiting(
            pbem::server::TimeSource::System,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .expect("pass");
    assert_eq!(pass.sent, 1, "the confirmation mail: {pass:?}");

    for folder in ["", "outbox", "inbox", "inbox/new", "inbox/cur", "inbox/tmp"] {
        assert_eq!(mode(&data.join(folder)), 0o700, "folder {folder:?}");
    }
    let outbox: Vec<_> = std::fs::read_dir(data.join("outbox"))
        .expect("outbox")
        .map(|entry| entry.expect("entry").path())
        .collect();
    assert_eq!(outbox.len(), 1, "{outbox:?}");
    for mail in &outbox {
        assert_eq!(mode(mail), 0o600, "{}", mail.display());
        let text = std::fs::read_to_string(mail).expect("mail");
        assert!(text.contains("confirm"), "the code is in it");
    }

    // An outbox others may enter (made before this version) loses that.
    drop(server);
    std::fs::set_permissions(data.join("outbox"), std::fs::Permissions::from_mode(0o755))
        .expect("chmod");
    let _server = pbem::server::Server::open(&config).expect("server again");
    assert_eq!(mode(&data.join("outbox")), 0o750);
}

/// The daily digest works in short transactions like the sweep: one cut
/// short goes on where it stopped, and every player waiting gets one
/// digest that day, however often it is started.
#[test]
fn a_digest_killed_half_way_sends_every_player_one() {
    // Enough players that the digest takes many short transactions: the
    // test stops it after the first, before the last.
    const PLAYERS: usize = 3_000;
    let mut h = Harness::new();
    let at = h.now + time::Duration::days(30);
    let (_, _) = due_boards(&h, at, 0, 0, PLAYERS);
    choose_the_digest(&h);
    let digest = |h: &Harness| {
        Command::new(env!("CARGO_BIN_EXE_pbem"))
            .arg("--data-dir")
            .arg(h.dir.path())
            .args(["--now", &rfc3339(at), "tick", "--digest"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("pbem tick starts")
    };
    let mut first = digest(&h);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while h.count("SELECT COUNT(*) FROM settings WHERE key = 'digest_partial'") == 0 {
        assert!(first.try_wait().expect("tick").is_none(), "ended unseen");
        assert!(std::time::Instant::now() < deadline, "never began");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    first.kill().expect("killed");
    first.wait().expect("ended");
    let queued = h.count("SELECT COUNT(*) FROM outbox");
    assert!(
        0 < queued && queued < PLAYERS as i64,
        "killed half way: {queued}"
    );
    for _ in 0..2 {
        let output = digest(&h).wait_with_output().expect("tick");
        assert!(output.status.success(), "{output:?}");
    }
    let mails = h.new_mails();
    let mut players: Vec<&str> = mails
        .iter()
        .map(|m| {
            assert!(m.subject.starts_with("pbem digest for w"), "{m:#?}");
            m.to.as_str()
        })
        .collect();
    players.sort();
    players.dedup();
    assert_eq!(players.len(), PLAYERS, "every player waiting has a digest");
    assert_eq!(mails.len(), PLAYERS, "and only one");
}

/// `pbem serve` outlasts a database kept locked past its busy timeout by
/// another process (before, its inbox loop ended the server): the mail
/// that came meanwhile is handled once the lock is gone.
#[test]
fn serve_outlasts_a_database_locked_past_the_busy_timeout() {
    let mut h = Harness::new();
    let config = h.dir.path().join("pbem.toml");
    std::fs::write(&config, "[inbound]\nkind = \"maildir\"\npoll_seconds = 1\n").expect("config");
    let mut serve = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pbem serve starts");
    let inbox = h.server.inbox().clone();
    let answered = |h: &mut Harness, what: &str| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            if !h.new_mails().is_empty() {
                return;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "{what} never answered"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    inbox
        .deliver(&text_mail(
            ALICE,
            "pbem@localhost",
            "m",
            "<before@example.org>",
            "help",
        ))
        .expect("delivered");
    answered(&mut h, "the first mail");

    let lock = h.database();
    lock.execute_batch("BEGIN IMMEDIATE").expect("locked");
    inbox
        .deliver(&text_mail(
            BOB,
            "pbem@localhost",
            "m",
            "<during@example.org>",
            "help",
        ))
        .expect("delivered");
    std::thread::sleep(std::time::Duration::from_secs(12));
    assert!(serve.try_wait().expect("serve").is_none(), "serve ended");
    lock.execute_batch("COMMIT").expect("unlocked");
    answered(&mut h, "the mail that came while locked");
    assert!(serve.try_wait().expect("serve").is_none(), "serve ended");

    let stopped = Command::new("kill")
        .args(["-TERM", &serve.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(stopped.success());
    let output = serve.wait_with_output().expect("serve stops");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert!(log.contains("the database stayed busy"), "{log}");
}
