//! The crash test: `pbem serve` is killed with SIGKILL at random points
//! during a burst of move mails, and restarted, again and again; at the end
//! every mail must have been applied exactly once and every reply must be in
//! the outbox exactly once.
//!
//! The real binary runs in a temporary data directory. One `serve --once`
//! signs up four players and opens twenty chess boards; then 160 move mails
//! (eight knight-shuffling turns per board, boards interleaved, each mail
//! with its own Message-ID and a `#n` guard) are delivered into the Maildir
//! at once. The test then starts `pbem serve` (the watching server, not
//! `--once`), SIGKILLs it after a random delay and starts it again, until
//! the inbox is empty and the outbox sent. Half the delays count from the
//! start (they also hit start-up and a run's first mail) and adapt so that
//! a run gets only a step or two further; the other half count from the
//! moment the server is seen at work (a mail gone from `new/`, a reply file
//! written), plus up to 1.5 ms, to land in the middle of the stream of mails
//! and replies. The delays come from a PRNG whose seed is printed (set
//! `PBEM_CRASH_SEED` to repeat the draws; the machine's timing still
//! varies). Kills land inside a mail's transaction, between its commit and
//! its move to `cur/`, between writing an outbox file and marking it sent;
//! the test prints how often the windows it can see were hit. A server
//! that exits by itself fails the test, with the tail of its log.
//!
//! After every kill the store must be all-or-nothing: as many turns as
//! processed move mails, two outbox rows per turn, every turn's Message-ID
//! processed. At the end, besides the counts: each board holds exactly its
//! eight turns in order, each made by its own mail; no mail was refused (no
//! `... Error` subject); and the outbox directory holds one `.eml` per
//! outbox row, byte for byte the stored message with its board pictures
//! drawn in (`pbem::mail::pictures::complete`), and nothing else. In
//! particular no temporary file may be left: the file sender writes
//! `.<id>.eml.tmp` and renames it, and a send repeated after a kill
//! rewrites that very name, so once every row is sent no temporary file can
//! remain; a stray one would mean a mail half-written and never finished.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mail_parser::MessageParser;
use pbem::mail::maildir::Maildir;
use pbem_testkit::{Rng, bare_mail, seed};
use rusqlite::{Connection, OpenFlags};

const BOARDS: u32 = 20;
const FIRST_BOARD: u32 = 101;
/// Eight turns that end no game: the knights go out and back, twice.
const TURNS: [&str; 8] = ["Nf3", "Nf6", "Ng1", "Ng8", "Nc3", "Nc6", "Nb1", "Nb8"];
const PLAYERS: [&str; 4] = ["anna", "boris", "clara", "dmitri"];
/// At least this many kills, so that many points of the work are hit.
const MIN_KILLS: usize = 30;
/// The killing stops after this long even if work remains (a final
/// `serve --once` finishes it), to keep the test short on a slow machine.
const KILL_PHASE: Duration = Duration::from_secs(40);

fn address(player: &str) -> String {
    format!("{player}@example.org")
}

fn password(player: &str) -> String {
    format!("{player}-secret")
}

/// White and Black of board `number`: two pairs of players share the boards,
/// so that nobody comes near the per-sender hourly mail limit.
fn players_of(number: u32) -> (&'static str, &'static str) {
    let pair = ((number - FIRST_BOARD) % 2) as usize;
    (PLAYERS[2 * pair], PLAYERS[2 * pair + 1])
}

/// The Message-ID (without brackets) of the mail playing turn `seq` (from
/// 1) on board `number`.
fn move_id(number: u32, seq: usize) -> String {
    format!("crash-{number}-{seq}@example.org")
}

/// The data directory and how to run `pbem` on it.
struct Data {
    dir: PathBuf,
    log: PathBuf,
}

impl Data {
    fn inbox(&self) -> PathBuf {
        self.dir.join("inbox")
    }

    fn outbox(&self) -> PathBuf {
        self.dir.join("outbox")
    }

    fn command(&self, args: &[&str]) -> Command {
        let log = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("server log opens");
        let mut command = Command::new(env!("CARGO_BIN_EXE_pbem"));
        command
            .arg("--data-dir")
            .arg(&self.dir)
            .args(args)
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(log);
        command
    }

    /// `pbem serve --once`, which must succeed; returns its summary line.
    fn serve_once(&self) -> String {
        let output = self
            .command(&["serve", "--once"])
            .output()
            .expect("pbem runs");
        assert!(
            output.status.success(),
            "serve --once failed ({}); log:\n{}",
            output.status,
            self.log_tail()
        );
        String::from_utf8_lossy(&output.stdout).trim().to_string()
    }

    fn spawn_server(&self) -> Child {
        self.command(&["serve"]).spawn().expect("pbem serve starts")
    }

    fn log_tail(&self) -> String {
        let text = fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(40)..].join("\n")
    }

    /// The database, read-only, so that looking does not checkpoint or
    /// otherwise tidy up what a killed server left behind.
    fn db(&self) -> Connection {
        Connection::open_with_flags(
            self.dir.join("pbem.sqlite3"),
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .expect("the database opens")
    }

    fn eml_files(&self) -> usize {
        self.names_in(&self.outbox())
            .iter()
            .filter(|name| name.ends_with(".eml"))
            .count()
    }

    /// Waits (at most `limit`) until a running server has visibly done
    /// something since `before`: taken a mail out of `new/` or written a
    /// reply into the outbox.
    fn wait_for_work(&self, before: Snapshot, limit: Duration) {
        let start = Instant::now();
        while start.elapsed() < limit {
            if self.names_in(&self.inbox().join("new")).len() < before.waiting
                || self.eml_files() > before.files
            {
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    fn names_in(&self, dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("directory lists")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }
}

fn count(db: &Connection, sql: &str) -> usize {
    db.query_row(sql, [], |row| row.get::<_, i64>(0))
        .expect("count query") as usize
}

/// What the store and the folders look like between two runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Snapshot {
    /// Mails still in the inbox's `new/`.
    waiting: usize,
    processed: usize,
    turns: usize,
    outbox: usize,
    unsent: usize,
    /// `.eml` files in the outbox directory.
    files: usize,
}

/// Counters of the windows the kills hit.
#[derive(Debug, Default)]
struct Windows {
    /// The run was killed before it processed or sent anything.
    no_progress: usize,
    /// A mail's transaction was written to the WAL (the kill may have come
    /// while its commit's fsync was still running) but the mail was still
    /// in `new/`: the next run must see it as a duplicate.
    committed_not_moved: usize,
    /// The kill came while replies were being sent (nothing left in
    /// `new/`, unsent rows in the outbox).
    while_sending: usize,
    /// An outbox file was written but its row not yet marked sent.
    written_not_marked: usize,
    /// A temporary outbox file was left half-written.
    partial_outbox_file: usize,
}

/// Looks at the data directory after a kill, and checks that the store is
/// all-or-nothing: each processed move mail has its turn and its two board
/// mails, and nothing else was committed.
fn inspect(
    data: &Data,
    setup: Snapshot,
    moves_by_file: &HashMap<String, String>,
    windows: &mut Windows,
) -> Snapshot {
    let db = data.db();
    let snapshot = Snapshot {
        waiting: data.names_in(&data.inbox().join("new")).len(),
        processed: count(&db, "SELECT COUNT(*) FROM processed"),
        turns: count(&db, "SELECT COUNT(*) FROM turns"),
        outbox: count(&db, "SELECT COUNT(*) FROM outbox"),
        unsent: count(&db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        files: data.eml_files(),
    };
    assert_eq!(
        snapshot.turns,
        snapshot.processed - setup.processed,
        "a turn without its processed mail or the reverse: {snapshot:?}"
    );
    assert_eq!(
        snapshot.outbox,
        setup.outbox + 2 * snapshot.turns,
        "board mails not committed with their turn: {snapshot:?}"
    );
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) FROM turns WHERE message_id NOT IN (SELECT message_id FROM processed)"
        ),
        0,
        "a turn whose mail is not marked processed"
    );
    let processed: HashSet<String> = db
        .prepare("SELECT message_id FROM processed")
        .expect("query")
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("ids");
    windows.committed_not_moved += data
        .names_in(&data.inbox().join("new"))
        .iter()
        .filter(|name| {
            moves_by_file
                .get(*name)
                .is_some_and(|id| processed.contains(id))
        })
        .count();
    let on_disk: HashSet<String> = data.names_in(&data.outbox()).into_iter().collect();
    windows.partial_outbox_file += on_disk.iter().filter(|n| n.ends_with(".tmp")).count();
    let unsent: Vec<i64> = db
        .prepare("SELECT id FROM outbox WHERE sent_at IS NULL")
        .expect("query")
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("ids");
    windows.written_not_marked += unsent
        .iter()
        .filter(|id| on_disk.contains(&format!("{id:010}.eml")))
        .count();
    snapshot
}

#[test]
fn killed_at_random_points_every_mail_is_applied_and_answered_once() {
    let started = Instant::now();
    let seed = seed("PBEM_CRASH_SEED");
    println!("crash test seed: {seed} (set PBEM_CRASH_SEED={seed} to repeat the delays)");
    let mut rng = Rng(seed);
    let temp = tempfile::tempdir().expect("temp dir");
    let data = Data {
        dir: temp.path().join("data"),
        log: temp.path().join("serve.log"),
    };
    let inbox = Maildir::create(&data.inbox()).expect("inbox");

    // Setup: players and boards, in one clean run.
    for (n, player) in PLAYERS.iter().enumerate() {
        let subject = format!("signup {player} {}", password(player));
        inbox
            .deliver(&bare_mail(
                &address(player),
                "pbem@localhost",
                &subject,
                &format!("signup-{n}@example.org"),
                "",
            ))
            .expect("deliver");
    }
    // Each address confirms with the code pbem mailed it.
    data.serve_once();
    let codes: Vec<(String, String)> = {
        let db = data.db();
        let mut statement = db
            .prepare("SELECT address, code FROM address_claims ORDER BY address")
            .expect("claims");
        statement
            .query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
            .expect("claims")
            .collect::<Result<_, _>>()
            .expect("claims")
    };
    assert_eq!(codes.len(), PLAYERS.len(), "a claim per signup");
    for (n, (address, code)) in codes.iter().enumerate() {
        inbox
            .deliver(&bare_mail(
                address,
                "pbem@localhost",
                &format!("confirm {code}"),
                &format!("confirm-{n}@example.org"),
                "",
            ))
            .expect("deliver");
    }
    for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
        let (white, black) = players_of(number);
        let subject = format!(
            "chess challenge {white} {} {black} --white",
            password(white)
        );
        inbox
            .deliver(&bare_mail(
                &address(white),
                "pbem@localhost",
                &subject,
                &format!("challenge-{number}@example.org"),
                "",
            ))
            .expect("deliver");
        // Black accepts at once: at most 3 challenges may wait for the
        // same opponent.
        let subject = format!("accept {number} {black} {}", password(black));
        inbox
            .deliver(&bare_mail(
                &address(black),
                "pbem@localhost",
                &subject,
                &format!("accept-{number}@example.org"),
                "",
            ))
            .expect("deliver");
    }
    let summary = data.serve_once();
    let db = data.db();
    let setup = Snapshot {
        waiting: 0,
        processed: count(&db, "SELECT COUNT(*) FROM processed"),
        turns: count(&db, "SELECT COUNT(*) FROM turns"),
        outbox: count(&db, "SELECT COUNT(*) FROM outbox"),
        unsent: count(&db, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL"),
        files: data.eml_files(),
    };
    let setup_mails = 2 * PLAYERS.len() + 2 * BOARDS as usize;
    assert_eq!(setup.processed, setup_mails, "setup: {summary}");
    // A confirmation mail and a welcome per signup, a new-board mail to
    // each player per challenge, and a board mail to each when it is
    // accepted.
    assert_eq!(setup.outbox, 2 * PLAYERS.len() + 4 * BOARDS as usize);
    assert_eq!(setup.unsent, 0);
    for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
        let (white, black) = players_of(number);
        let (w, b): (String, String) = db
            .query_row(
                "SELECT w.userid, b.userid FROM boards
                 JOIN players w ON w.id = white_id JOIN players b ON b.id = black_id
                 WHERE number = ?1",
                [number],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap_or_else(|e| panic!("board {number} was not set up: {e}"));
        assert_eq!((w.as_str(), b.as_str()), (white, black), "board {number}");
    }
    drop(db);

    // The burst: turn by turn, board by board, all delivered at once.
    let mut moves_by_file = HashMap::new();
    for (index, turn) in TURNS.iter().enumerate() {
        let seq = index + 1;
        for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
            let (white, black) = players_of(number);
            let mover = if index.is_multiple_of(2) {
                white
            } else {
                black
            };
            let subject = format!("move {number} {mover} {} {turn}#{seq}", password(mover));
            let id = move_id(number, seq);
            let path = inbox
                .deliver(&bare_mail(
                    &address(mover),
                    "pbem@localhost",
                    &subject,
                    &id,
                    "",
                ))
                .expect("deliver");
            let name = path.file_name().expect("name").to_string_lossy();
            moves_by_file.insert(name.into_owned(), id);
        }
    }
    let move_mails = moves_by_file.len();
    assert_eq!(move_mails, TURNS.len() * BOARDS as usize);

    // Kill, restart, kill... until everything is processed and sent.
    let mut windows = Windows::default();
    let mut kills = 0;
    let mut span_us: f64 = 40_000.0;
    let mut before = inspect(&data, setup, &moves_by_file, &mut windows);
    let kill_phase = Instant::now();
    while (before.waiting > 0 || before.unsent > 0 || kills < MIN_KILLS)
        && kill_phase.elapsed() < KILL_PHASE
    {
        if before.waiting == 0 && before.unsent > 0 {
            windows.while_sending += 1;
        }
        let mut server = data.spawn_server();
        let delay = if rng.next_u64().is_multiple_of(2) {
            // A moment from the start: often during start-up or the first
            // mail of the run.
            rng.between(200, span_us as u64)
        } else {
            // A moment shortly after the server is seen at work, to land
            // in the middle of the stream of mails or of replies sent.
            data.wait_for_work(before, Duration::from_secs(2));
            rng.between(0, 1_500)
        };
        std::thread::sleep(Duration::from_micros(delay));
        if let Some(status) = server.try_wait().expect("wait") {
            panic!(
                "pbem serve stopped by itself ({status}); log:\n{}",
                data.log_tail()
            );
        }
        server.kill().expect("SIGKILL");
        server.wait().expect("reaped");
        kills += 1;
        let after = inspect(&data, setup, &moves_by_file, &mut windows);
        // Aim at one or two steps of work per run: a mail processed or sent.
        let progress = (after.processed - before.processed)
            + (before.unsent + after.outbox - before.outbox).saturating_sub(after.unsent);
        if progress == 0 {
            windows.no_progress += 1;
            span_us = (span_us * 1.25).min(2_000_000.0);
        } else if progress > 2 {
            span_us = (span_us * 0.8).max(1_000.0);
        }
        before = after;
    }
    let kill_time = kill_phase.elapsed();
    let last = data.serve_once();
    println!(
        "crash test: {kills} kills in {kill_time:.1?} (last delay span {:.1} ms); \
         kills without progress {}, committed but still in new/ {}, while sending {}, \
         outbox file written but not marked sent {}, half-written outbox file {}; \
         final pass: {last}",
        span_us / 1000.0,
        windows.no_progress,
        windows.committed_not_moved,
        windows.while_sending,
        windows.written_not_marked,
        windows.partial_outbox_file
    );
    assert!(
        kills >= MIN_KILLS,
        "only {kills} kills within {KILL_PHASE:?}"
    );

    verify(&data, setup, move_mails);
    println!("crash test took {:.1?}", started.elapsed());
}

/// An outbox row as the crash test reads it back.
struct OutboxRow {
    id: i64,
    message: Vec<u8>,
    sent_at: Option<String>,
    /// The description of its pictures, drawn when it is sent.
    pictures: Option<String>,
}

/// The final checks, on the store and the folders.
fn verify(data: &Data, setup: Snapshot, move_mails: usize) {
    let db = data.db();
    let total_mails = setup.processed + move_mails;

    // The inbox: every mail handled and moved to cur/.
    assert!(data.names_in(&data.inbox().join("new")).is_empty());
    assert_eq!(data.names_in(&data.inbox().join("cur")).len(), total_mails);

    // Every board has exactly its turns, in order, each by its own mail.
    for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
        let (white, black) = players_of(number);
        let turns: Vec<(u32, String, String, Option<String>)> = db
            .prepare(
                "SELECT seq, text, p.userid, message_id FROM turns
                 JOIN players p ON p.id = player_id WHERE board = ?1 ORDER BY seq",
            )
            .expect("query")
            .query_map([number], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })
            .expect("rows")
            .collect::<Result<_, _>>()
            .expect("turns");
        let expected: Vec<(u32, String, String, Option<String>)> = TURNS
            .iter()
            .enumerate()
            .map(|(index, turn)| {
                let seq = index + 1;
                let mover = if index.is_multiple_of(2) {
                    white
                } else {
                    black
                };
                (
                    seq as u32,
                    turn.to_string(),
                    mover.to_string(),
                    Some(move_id(number, seq)),
                )
            })
            .collect();
        assert_eq!(turns, expected, "the turns of board {number}");
        let result: Option<String> = db
            .query_row(
                "SELECT result FROM boards WHERE number = ?1",
                [number],
                |r| r.get(0),
            )
            .expect("board");
        assert_eq!(result, None, "board {number} must still be on");
    }

    // Every mail is recorded as processed exactly once.
    let processed: Vec<String> = db
        .prepare("SELECT message_id FROM processed")
        .expect("query")
        .query_map([], |row| row.get(0))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("ids");
    assert_eq!(processed.len(), total_mails);
    let processed: HashSet<String> = processed.into_iter().collect();
    assert_eq!(processed.len(), total_mails, "a Message-ID twice");
    for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
        for seq in 1..=TURNS.len() {
            assert!(
                processed.contains(&move_id(number, seq)),
                "{} not processed",
                move_id(number, seq)
            );
        }
    }

    // The outbox: two board mails per move mail, all sent.
    let rows: Vec<OutboxRow> = db
        .prepare("SELECT id, message, sent_at, pictures FROM outbox JOIN outbox_message USING (id) ORDER BY id")
        .expect("query")
        .query_map([], |row| {
            Ok(OutboxRow {
                id: row.get(0)?,
                message: row.get(1)?,
                sent_at: row.get(2)?,
                pictures: row.get(3)?,
            })
        })
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("outbox");
    assert_eq!(rows.len(), setup.outbox + 2 * move_mails);
    assert!(
        rows.iter().all(|row| row.sent_at.is_some()),
        "outbox rows left unsent"
    );

    // The outbox directory: exactly one file per row, the stored bytes with
    // the pictures drawn in, nothing else (no temporary file either: see
    // the module comment).
    let files: HashSet<String> = data.names_in(&data.outbox()).into_iter().collect();
    let expected: HashSet<String> = rows
        .iter()
        .map(|row| format!("{:010}.eml", row.id))
        .collect();
    let mut missing: Vec<&String> = expected.difference(&files).collect();
    let mut unexpected: Vec<&String> = files.difference(&expected).collect();
    missing.sort();
    unexpected.sort();
    assert!(
        missing.is_empty() && unexpected.is_empty(),
        "the outbox directory lacks {missing:?} and holds unexpected {unexpected:?}"
    );
    for row in &rows {
        let id = row.id;
        let on_disk = fs::read(data.outbox().join(format!("{id:010}.eml"))).expect("read");
        let sent = pbem::mail::pictures::complete(id, &row.message, row.pictures.as_deref());
        assert!(on_disk == *sent, "outbox file {id} differs from its row");
    }

    // Every reply exactly once: after each turn, a board mail to each of
    // the two players, and no error mail anywhere.
    let mut board_mails: BTreeMap<(u32, usize, String), usize> = BTreeMap::new();
    for OutboxRow { id, message, .. } in rows.iter().skip(setup.outbox) {
        let parsed = MessageParser::default()
            .parse(message)
            .unwrap_or_else(|| panic!("outbox mail {id} does not parse"));
        let subject = parsed.subject().unwrap_or_default().to_string();
        assert!(
            !subject.ends_with("Error"),
            "mail {id} is an error mail: {subject}"
        );
        let to = parsed
            .to()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .unwrap_or_default()
            .to_string();
        let body = parsed.body_text(0).unwrap_or_default();
        let words: Vec<&str> = subject.split_whitespace().collect();
        let [_variant, "Board", number, to_move] = words[..] else {
            panic!("mail {id} has an unexpected subject: {subject}");
        };
        let number: u32 = number.parse().expect("board number");
        // "It is <userid>'s turn: move <m>, <side> to move (turn #<n>)": n - 1
        // turns were played.
        let due: usize = body
            .split_once("(turn #")
            .and_then(|(_, rest)| rest.split(')').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("mail {id} names no turn:\n{body}"));
        let played = due - 1;
        let (white, black) = players_of(number);
        let expected_to_move = if played.is_multiple_of(2) {
            white
        } else {
            black
        };
        assert_eq!(to_move, expected_to_move, "mail {id}: {subject}");
        *board_mails.entry((number, played, to)).or_default() += 1;
    }
    for number in FIRST_BOARD..FIRST_BOARD + BOARDS {
        let (white, black) = players_of(number);
        for played in 1..=TURNS.len() {
            for player in [white, black] {
                let key = (number, played, address(player));
                assert_eq!(
                    board_mails.get(&key).copied().unwrap_or(0),
                    1,
                    "board mails of board {number} after turn {played} to {player}"
                );
            }
        }
    }
    assert_eq!(board_mails.len(), 2 * move_mails);
}
