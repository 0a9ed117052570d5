//! The fuzz suite (proptest), run by `cargo test` for a bounded number of
//! cases: command lines (every command of the command table, tournament,
//! rating and preference commands among them, and their blanked quotes),
//! turn notation, game records, inbound MIME, mail addresses and the mails
//! built for them, and whole mail conversations through the service on a
//! real SQLite file, with tournament, rating and preference commands among
//! their mails. The properties: nothing panics, the service never fails on
//! a mail, a stored board always replays, and no mail pbem sends holds a
//! player's password. `PBEM_FUZZ_CASES` multiplies the number of cases
//! (default 1; e.g. 50 for a long run); a failing case is printed with its
//! seed, and proptest keeps the seed in
//! `tests/safety/fuzz.proptest-regressions` ([`REGRESSIONS`]) and reruns
//! it first in every later run: commit that file with the fix.

use std::sync::OnceLock;

use mail_parser::MessageParser;
use pbem::command;
use pbem::command::blank::Blanking;
use pbem::domain::BoardNumber;
use pbem::mail::ServerAddress;
use pbem::mail::address;
use pbem::mail::inbound::Inbound;
use pbem::mail::outgoing::{self, Outgoing};
use pbem::rules::notation::{parse_move, parse_record, parse_turn};
use pbem::rules::{Game, Variant};
use pbem::service::{Service, ServiceConfig};
use pbem::store::players::PlayerId;
use pbem::store::{Store, boards, mailbox, players};
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};
use shakmaty::CastlingMode;
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

/// The file that keeps the seeds of failing cases, of this suite and of the
/// password property of `commands`. Named outright: proptest's default
/// place derives from the test's source file, which a runner built by hand
/// does not know (proptest then warns and keeps nothing).
pub const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/safety/fuzz.proptest-regressions"
);

/// A proptest configuration of `cases` cases whose failing seeds are kept
/// in [`REGRESSIONS`].
pub fn keeping_failures(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(REGRESSIONS))),
        ..Config::default()
    }
}

/// The number of cases: `base` times `PBEM_FUZZ_CASES` (default 1).
fn cases(base: u32) -> Config {
    static FACTOR: OnceLock<u32> = OnceLock::new();
    let factor = *FACTOR.get_or_init(|| {
        std::env::var("PBEM_FUZZ_CASES")
            .ok()
            .map(|text| text.parse().expect("PBEM_FUZZ_CASES is a number"))
            .unwrap_or(1)
    });
    keeping_failures(base.saturating_mul(factor))
}

/// Words that command lines are made of, hostile ones among them.
fn word() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(
            // Every command word, so a new command is fuzzed as soon as
            // it exists, then hostile arguments.
            pbem::command::Word::ALL
                .iter()
                .flat_map(|word| word.definition().words.iter().copied())
                // The fixed words of every command's grammar (tournament
                // sub-commands and options, preference names and values).
                .chain(
                    pbem::command::Word::ALL.iter().flat_map(|word| word
                        .definition()
                        .fixed
                        .iter()
                        .copied()),
                )
                .chain([
                    "chess2",
                    "marseillais",
                    "101",
                    "#3",
                    "101#0",
                    "alice",
                    "alice-pw",
                    "--days=4294967295",
                    "--nag=0",
                    "--forfeit=99999999999",
                    "--white",
                    "4294967295",
                    "-1",
                    "e4",
                    "Nf3,Bb5+",
                    "O-O-O",
                    "a@",
                    "@b",
                    "\"a b\"@x.org",
                    "a@[1.2.3.4]",
                    "variants",
                    "compact",
                    "all",
                    "spring",
                    "Spring-2026_x",
                    "9lives",
                    "td",
                    "--swiss=4294967295",
                    "--max=99999999999",
                    "--round-days=0",
                    "--closes=2026-02-30",
                    "--tiebreaks=sb,sb,nosuch",
                    "--min-rating=4001",
                    "--vacation=-1",
                    "1/2-1/2",
                    "½-½",
                    "open",
                    "running",
                    "finished",
                    "board",
                    "mail",
                    "html",
                    "digest",
                    "on",
                    "off",
                ])
                .collect::<Vec<_>>()
        )
        .prop_map(str::to_string),
        "\\PC{0,12}",
        any::<u64>().prop_map(|n| n.to_string()),
    ]
}

fn command_line() -> impl Strategy<Value = String> {
    prop::collection::vec(word(), 0..8).prop_map(|words| words.join(" "))
}

fn notation() -> impl Strategy<Value = String> {
    prop_oneof!["[a-hKQRBNPOo0-9x+#=,/:.()!?{} -]{0,40}", "\\PC{0,40}"]
}

const RECORDS: [&str; 3] = [
    include_str!("../../crates/pbem-rules/tests/fixtures/chess2/example-1.txt"),
    include_str!("../../crates/pbem-rules/tests/fixtures/chess2/example-4.txt"),
    include_str!("../../crates/pbem-rules/tests/fixtures/twomove/example-01.txt"),
];

/// A byte string changed in a few places: deleted, replaced or inserted
/// runs (the inserts from `pool`, or random bytes).
fn mutated(
    original: &'static [u8],
    pool: &'static [&'static str],
) -> impl Strategy<Value = Vec<u8>> {
    let edit = (
        any::<prop::sample::Index>(),
        0..3u8,
        0..24usize,
        any::<prop::sample::Index>(),
        prop::collection::vec(any::<u8>(), 0..8),
    );
    prop::collection::vec(edit, 0..6).prop_map(move |edits| {
        let mut bytes = original.to_vec();
        for (at, kind, len, pick, random) in edits {
            let at = at.index(bytes.len() + 1);
            match kind {
                0 => {
                    let end = (at + len).min(bytes.len());
                    bytes.drain(at..end);
                }
                1 => {
                    let text = pool[pick.index(pool.len())].as_bytes();
                    bytes.splice(at..at, text.iter().copied());
                }
                _ => {
                    bytes.splice(at..at, random);
                }
            }
        }
        bytes
    })
}

const SAMPLE_MAIL: &str = "From: Alice <alice@example.org>\r\nTo: pbem+101.1.0123456789abcdef@localhost\r\nSubject: Re: Chess2 Board 101 alice\r\nMessage-ID: <m1@example.org>\r\nMIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nNf6,d5\r\nSch=C3=B6n!\r\n\r\nOn Mon, 1 Jan 2026, pbem wrote:\r\n> Summary\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>Nf6</p>\r\n--b--\r\n";

const MIME_POOL: &[&str] = &[
    "\r\nFrom: b@x.org",
    "\r\nFrom: a@",
    "\r\nContent-Type: multipart/mixed; boundary=\"",
    "\r\nContent-Transfer-Encoding: base64\r\n",
    "=?utf-8?b?w7Y=?=",
    "=?iso-8859-1?q?Gr=FC=DFe?=",
    "\r\n--b\r\n",
    "\r\nAuto-Submitted: no\r\n",
    "\r\nMessage-ID: <",
    "\0",
    "\r\n\r\n",
    ">>>>",
    "=\r\n",
];

proptest! {
    #![proptest_config(cases(512))]

    #[test]
    fn command_lines_never_panic(line in command_line()) {
        let blanking = Blanking::of_mail([line.as_str()], Vec::new());
        let _ = blanking.line(&line);
        match command::parse_line(&line) {
            Some(Ok(parsed)) => {
                // What the service asks of every command must hold too.
                let _ = parsed.command.board();
                let _ = parsed.command.credentials();
                let _ = parsed.command.passwords();
                let _ = parsed.command.word();
            }
            Some(Err(error)) => {
                let _ = blanking.message(&line, &error.to_string());
            }
            None => {}
        }
    }

    #[test]
    fn arbitrary_lines_never_panic(line in "\\PC{0,200}") {
        let _ = command::parse_line(&line);
        let _ = command::split_guard(&line);
    }

    #[test]
    fn notation_never_panics(text in notation()) {
        let _ = parse_turn(&text);
        let _ = parse_move(&text);
        let _ = parse_record(&text);
    }
}

proptest! {
    #![proptest_config(cases(128))]

    #[test]
    fn mutated_records_replay_or_are_refused(
        which in 0..RECORDS.len(),
        bytes in prop::collection::vec(any::<(prop::sample::Index, u8)>(), 0..6),
    ) {
        let mut text = RECORDS[which].as_bytes().to_vec();
        for (at, byte) in bytes {
            let at = at.index(text.len());
            text[at] = byte;
        }
        let text = String::from_utf8_lossy(&text);
        if let Ok(record) = parse_record(&text) {
            let mut game = Game::new(Variant::Chess2);
            for turn in &record.turns {
                if game.play(&turn.moves).is_err() {
                    break;
                }
            }
            // What was played is a record that replays by itself.
            let mut again = Game::new(Variant::Chess2);
            for played in game.turns() {
                let moves = parse_turn(&played.text()).expect("a played turn reads back");
                again.play(&moves).expect("a played turn replays");
            }
            prop_assert_eq!(again.fen(), game.fen());
        }
    }

    #[test]
    fn inbound_mime_never_panics(raw in mutated(SAMPLE_MAIL.as_bytes(), MIME_POOL)) {
        let mail = Inbound::parse(&raw);
        let _ = mail.command_lines();
        let _ = mail.authenticated("mx.example.org");
        if let Some(from) = &mail.from {
            prop_assert_eq!(address::normalize(from), Ok(from.clone()));
        }
    }

    #[test]
    fn random_bytes_are_a_mail_without_panic(raw in prop::collection::vec(any::<u8>(), 0..2000)) {
        let _ = Inbound::parse(&raw).command_lines();
        let _ = MessageParser::default().parse(&raw);
    }

    #[test]
    fn every_address_pbem_accepts_can_be_written_to(
        text in prop_oneof!["\\PC{0,40}", "[a-zA-Z0-9.+\"@\\[\\]<>:_ -]{0,30}", "[a-z]{1,8}@[a-z]{1,8}\\.[a-z]{2,3}"],
        message_id in "\\PC{0,300}",
    ) {
        if let Ok(address) = address::normalize(&text) {
            prop_assert_eq!(address::normalize(&address), Ok(address.clone()), "stable");
            let server = ServerAddress { local: "pbem".into(), domain: "localhost".into() };
            let mail = Outgoing {
                to: vec![address],
                subject: text.clone(),
                body: text.clone(),
                reply_to: None,
                in_reply_to: Some(message_id.clone()),
                references: vec![message_id.clone(), message_id],
                ..Outgoing::default()
            };
            let built = outgoing::build(&server, &mail, "<x@localhost>", datetime!(2026-03-01 12:00 UTC));
            let bytes = built.expect("a normalized address builds").message;
            for line in bytes.split(|b| *b == b'\n') {
                prop_assert!(line.len() <= 998, "a header or body line of {} bytes", line.len());
            }
        }
    }
}

/// One step of a conversation: what kind of mail, and the randomness it
/// draws on.
#[derive(Clone, Debug)]
struct Step {
    kind: u8,
    pick: u64,
    text: String,
}

fn step() -> impl Strategy<Value = Step> {
    (
        0..12u8,
        any::<u64>(),
        prop_oneof![command_line(), notation(), "\\PC{0,60}"],
    )
        .prop_map(|(kind, pick, text)| Step { kind, pick, text })
}

/// A service on a real SQLite file with alice and bob on board 101.
struct Conversation {
    _dir: tempfile::TempDir,
    service: Service,
    now: OffsetDateTime,
    sequence: u32,
    alice: PlayerId,
    bob: PlayerId,
}

impl Conversation {
    fn start() -> Conversation {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("pbem.sqlite3")).expect("store");
        let service = Service::new(store, ServiceConfig::default()).expect("service");
        let mut c = Conversation {
            _dir: dir,
            service,
            now: datetime!(2026-03-01 12:00 UTC),
            sequence: 0,
            alice: PlayerId(0),
            bob: PlayerId(0),
        };
        for who in ["alice", "bob"] {
            let from = format!("{who}@example.org");
            c.send(
                &from,
                "pbem@localhost",
                "hi",
                &format!("signup {who} {who}-password"),
            );
            let code: String = c
                .service
                .store()
                .conn()
                .query_row(
                    "SELECT code FROM address_claims WHERE address = ?1",
                    [&from],
                    |row| row.get(0),
                )
                .expect("a claim");
            c.send(&from, "pbem@localhost", &format!("Re: confirm {code}"), "");
        }
        let conn = c.service.store().conn();
        c.alice = players::by_userid(conn, "alice")
            .expect("db")
            .expect("alice")
            .id;
        c.bob = players::by_userid(conn, "bob")
            .expect("db")
            .expect("bob")
            .id;
        c.send(
            "alice@example.org",
            "pbem@localhost",
            "game",
            "chess challenge alice alice-password bob --white",
        );
        c
    }

    fn send(&mut self, from: &str, to: &str, subject: &str, body: &str) {
        self.sequence += 1;
        self.now += Duration::minutes(1);
        let raw = format!(
            "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <c{}@example.org>\r\n\r\n{body}\r\n",
            self.sequence
        );
        self.send_raw(raw.as_bytes());
    }

    fn send_raw(&mut self, raw: &[u8]) {
        if let Err(error) = self.service.handle(raw, self.now) {
            panic!(
                "the service failed on a mail: {error}\n{}",
                String::from_utf8_lossy(raw)
            );
        }
        // No mail pbem sends holds a player's password.
        let store = self.service.store();
        let queued = mailbox::unsent(store.conn(), 10_000).expect("outbox");
        for mail in &queued {
            let message = MessageParser::default()
                .parse(&mail.message)
                .expect("pbem writes parseable mail");
            let mut text = message.subject().unwrap_or_default().to_string();
            for part in &message.parts {
                text.push_str(&String::from_utf8_lossy(part.contents()));
            }
            for password in ["alice-password", "bob-password"] {
                assert!(
                    !text.contains(password),
                    "a mail holds {password}:\n{text}\nanswering:\n{}",
                    String::from_utf8_lossy(raw)
                );
            }
        }
        let ids: Vec<i64> = queued.iter().map(|q| q.id).collect();
        mailbox::mark_all_sent(store, &ids, self.now).expect("marked sent");
    }

    /// Board 101 as stored, replayed (it must replay).
    fn game(&self) -> Game {
        let conn = self.service.store().conn();
        let board = boards::get(conn, BoardNumber(101))
            .expect("db")
            .expect("board 101");
        let mut game = Game::new(board.variant);
        for turn in boards::turns(conn, BoardNumber(101)).expect("turns") {
            let moves = parse_turn(&turn.text).unwrap_or_else(|e| {
                panic!(
                    "stored turn {} {:?} does not read: {e}",
                    turn.seq, turn.text
                )
            });
            game.play(&moves).unwrap_or_else(|e| {
                panic!(
                    "stored turn {} {:?} does not replay: {e}",
                    turn.seq, turn.text
                )
            });
        }
        game
    }

    fn step(&mut self, step: &Step) {
        let game = self.game();
        let white_to_move = game.state().turn() == shakmaty::Color::White;
        let (mover, mover_id, other) = if white_to_move {
            ("alice", self.alice, "bob")
        } else {
            ("bob", self.bob, "alice")
        };
        let legal = game.state().next_moves(game.rules());
        let turn = if legal.is_empty() {
            step.text.clone()
        } else {
            legal[(step.pick % legal.len() as u64) as usize]
                .to_uci(CastlingMode::Standard)
                .to_string()
        };
        let token_address = self
            .service
            .config()
            .address
            .with_token(&self.service.token(101, mover_id));
        let from = format!("{mover}@example.org");
        let number = game.turns().len() + 1;
        match step.kind {
            0 => self.send(&from, &token_address, "Re: Chess Board 101", &turn),
            1 => self.send(
                &from,
                "pbem@localhost",
                "t",
                &format!("move 101 {mover} {mover}-password {turn}#{number}"),
            ),
            2 => self.send(&from, &token_address, "Re: Chess Board 101", &step.text),
            3 => self.send(
                &format!("{other}@example.org"),
                "pbem@localhost",
                "t",
                &format!("move 101 {other} {other}-password {turn}"),
            ),
            4 => self.send(
                "mallory@example.net",
                "pbem@localhost",
                &step.text,
                &step.text,
            ),
            5 => self.send(&from, "pbem@localhost", "x", &step.text),
            6 => {
                let action =
                    ["draw", "accept", "reject", "undo", "queue", "show"][(step.pick % 6) as usize];
                self.send(
                    &from,
                    "pbem@localhost",
                    "x",
                    &format!("{action} 101 {mover} {mover}-password {turn}"),
                );
            }
            7 => self.send(
                &from,
                &token_address,
                "Re: Chess Board 101",
                &format!("{turn}\n{}", step.text),
            ),
            9 => {
                let line = tournament_line(mover, other, step.pick, &step.text);
                self.send(&from, "pbem@localhost", "t", &line);
            }
            10 => {
                let line = match step.pick % 5 {
                    0 => "ratings".to_string(),
                    1 => format!("ratings {}", step.text),
                    2 => "standings chess".to_string(),
                    3 => format!("rating {other}"),
                    _ => format!("rating {}", step.text),
                };
                self.send(&from, "pbem@localhost", "r", &line);
            }
            11 => {
                let line = preference_line(mover, step.pick, &step.text);
                // By password, or without in a reply to the board mail.
                if step.pick.is_multiple_of(2) {
                    self.send(&from, "pbem@localhost", "p", &line);
                } else {
                    self.send(&from, &token_address, "Re: Chess Board 101", &line);
                }
            }
            _ => {
                let mut raw = SAMPLE_MAIL.as_bytes().to_vec();
                let at = (step.pick as usize) % raw.len();
                raw.splice(at..at, step.text.bytes());
                self.send_raw(&raw);
            }
        }
    }
}

/// A tournament command of `mover` (password right) on the event
/// `spring`, picked by `pick`, with the fuzzed `text` where a command takes
/// words of its own.
fn tournament_line(mover: &str, other: &str, pick: u64, text: &str) -> String {
    let login = format!("{mover} {mover}-password");
    match pick % 13 {
        0 => format!("tournament create {login} spring chess {text}"),
        1 => format!("tournament create {login} spring chess --swiss=3 --max=3"),
        2 => format!("tournament enter spring {login}"),
        3 => format!("tournament leave spring {login}"),
        4 => format!("tournament invite spring {login} {other} {text}"),
        5 => format!("tournament start spring {login}"),
        6 => format!("tournament withdraw spring {login} {other} {text}"),
        7 => format!("tournament adjudicate spring {login} 101 1-0 {text}"),
        8 => format!("tournament broadcast spring {login} {text}"),
        9 => {
            let view = ["show", "standings", "crosstable", "pgn", "trf"][(pick / 13 % 5) as usize];
            format!("tournament {view} spring")
        }
        10 => format!("tournaments {text}"),
        11 => "tournaments open".to_string(),
        _ => format!("tournament {text}"),
    }
}

/// A preference command: with `mover`'s password for an even `pick`,
/// without (as a reply writes it) for an odd one.
fn preference_line(mover: &str, pick: u64, text: &str) -> String {
    let login = if pick.is_multiple_of(2) {
        format!("{mover} {mover}-password ")
    } else {
        String::new()
    };
    match pick / 2 % 6 {
        0 => format!("set {login}board html"),
        1 => format!("set {login}mail digest"),
        2 => format!("set {login}pgn off"),
        3 => format!("set {login}{text}"),
        4 => format!("settings {login}"),
        _ => format!("settings {login}{text}"),
    }
}

proptest! {
    #![proptest_config(cases(8))]

    #[test]
    fn whole_conversations_never_fail_and_the_board_always_replays(
        steps in prop::collection::vec(step(), 1..60),
    ) {
        let mut conversation = Conversation::start();
        for step in &steps {
            conversation.step(step);
        }
        let _ = conversation.game();
    }
}
