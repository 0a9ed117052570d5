//! A test harness for the mail service: a real data directory with the real
//! Maildir inbox, SQLite file and `.eml` outbox, driven through the same
//! `Server` the `pbem serve` command runs. Mails go in as files; replies are
//! read back from the outbox files with mail-parser, as a mail client would.
//!
//! pbem's integration tests share it (a dev-dependency of the root package,
//! compiled once rather than into each test binary), with the small helpers
//! more than one test file needs: `flat`, running the real `pbem` (`tick`,
//! `run_pbem`), reading the store and the outbox, ports and seeds.

use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use mail_parser::MessageParser;
use pbem::config::Config;
use pbem::server::{Pass, Server, TimeSource};
use time::macros::datetime;
use time::{Duration, OffsetDateTime};

pub mod pages;

/// The addresses of the two players most tests set up.
pub const ALICE: &str = "alice@example.org";
pub const BOB: &str = "bob@example.org";

/// The address of player `userid` in tests with many players.
pub fn address(userid: &str) -> String {
    format!("{userid}@example.org")
}

/// A mail the server sent, as read from the outbox.
#[derive(Clone, Debug)]
pub struct Sent {
    pub file: PathBuf,
    pub to: String,
    pub subject: String,
    pub body: String,
    pub reply_to: Option<String>,
    pub message_id: String,
    pub in_reply_to: Option<String>,
    pub references: Vec<String>,
    pub auto_submitted: Option<String>,
}

/// A data directory and a server on it.
pub struct Harness {
    pub dir: tempfile::TempDir,
    pub config: Config,
    pub server: Server,
    pub now: OffsetDateTime,
    /// The outbox files already returned by [`Harness::new_mails`] (a
    /// mail held back in the outbox is written after later ones, under
    /// its earlier name).
    seen: std::collections::HashSet<PathBuf>,
    sequence: u32,
}

impl Default for Harness {
    fn default() -> Harness {
        Harness::new()
    }
}

impl Harness {
    pub fn new() -> Harness {
        Harness::with_config(|_| {})
    }

    /// A harness whose configuration `adjust` may change first.
    pub fn with_config(adjust: impl FnOnce(&mut Config)) -> Harness {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut config = Config::defaults(dir.path());
        // The tests' passwords are short (`bob-pw`); the tests of the
        // minimum length set the default back.
        config.service.min_password_length = 4;
        adjust(&mut config);
        let server = Server::open(&config).expect("the server opens on a fresh data directory");
        Harness {
            dir,
            config,
            server,
            now: datetime!(2026-03-01 12:00 UTC),
            seen: std::collections::HashSet::new(),
            sequence: 0,
        }
    }

    /// Delivers a raw mail, runs a server pass, returns the new outbox mails.
    pub fn deliver_raw(&mut self, raw: &[u8]) -> Vec<Sent> {
        self.server
            .inbox()
            .deliver(raw)
            .expect("the inbox takes the mail");
        self.pass();
        self.new_mails()
    }

    /// Runs one server pass over the inbox.
    pub fn pass(&mut self) -> Pass {
        self.now += Duration::minutes(1);
        let stop = AtomicBool::new(false);
        self.server
            .process_waiting(TimeSource::Fixed(self.now), &stop)
            .expect("the server pass succeeds")
    }

    /// Runs the deadline sweep as if at `at`; returns the new outbox mails.
    pub fn sweep(&mut self, at: OffsetDateTime) -> Vec<Sent> {
        self.server
            .sweep(TimeSource::Fixed(at))
            .expect("the sweep succeeds");
        self.new_mails()
    }

    /// Sends the daily digest as if at `at`; returns the new outbox mails.
    pub fn digest(&mut self, at: OffsetDateTime) -> Vec<Sent> {
        self.server
            .digest(TimeSource::Fixed(at))
            .expect("the digest succeeds");
        self.new_mails()
    }

    /// Stops the server and starts a new one on the same data directory.
    pub fn restart(&mut self) {
        self.server = Server::open(&self.config).expect("the server opens again");
    }

    /// A fresh Message-ID.
    pub fn message_id(&mut self) -> String {
        self.sequence += 1;
        format!("<test-{}@players.example>", self.sequence)
    }

    /// Sends a plain mail; returns the replies.
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Sent> {
        let id = self.message_id();
        self.send_with_id(from, "pbem@localhost", subject, body, &id)
    }

    pub fn send_with_id(
        &mut self,
        from: &str,
        to: &str,
        subject: &str,
        body: &str,
        id: &str,
    ) -> Vec<Sent> {
        self.deliver_raw(&text_mail(from, to, subject, id, body))
    }

    /// Replies to a board mail the way a mail client does: to its Reply-To,
    /// with `Re:` and the original quoted below the text.
    pub fn reply(&mut self, to: &Sent, from: &str, text: &str) -> Vec<Sent> {
        let id = self.message_id();
        let reply_to = to.reply_to.clone().expect("board mails carry a Reply-To");
        let quoted: String = to
            .body
            .lines()
            .map(|line| format!("> {line}\r\n"))
            .collect();
        let raw = format!(
            "From: {from}\r\nTo: {reply_to}\r\nSubject: Re: {}\r\nMessage-ID: {id}\r\nIn-Reply-To: {}\r\n\r\n{text}\r\n\r\nOn Sun, 1 Mar 2026, pbem wrote:\r\n{quoted}",
            to.subject, to.message_id
        );
        self.deliver_raw(raw.as_bytes())
    }

    /// Every mail in the outbox, oldest first.
    pub fn all_mails(&self) -> Vec<Sent> {
        outbox_files(self.dir.path())
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "eml"))
            .map(|file| read_sent(&file))
            .collect()
    }

    /// Outbox mails written since the last call.
    pub fn new_mails(&mut self) -> Vec<Sent> {
        let new: Vec<Sent> = self
            .all_mails()
            .into_iter()
            .filter(|mail| !self.seen.contains(&mail.file))
            .collect();
        self.seen.extend(new.iter().map(|mail| mail.file.clone()));
        new
    }

    /// Everything the store holds about games and players, to compare
    /// before and after a refused command (the processed-mail record and the
    /// outbox are left out: they change with every mail).
    pub fn game_state(&self) -> String {
        self.rows(&[
            "players",
            "addresses",
            "boards",
            "turns",
            "comments",
            "offers",
            "queued_turns",
            "observers",
        ])
    }

    /// Every row of `tables`, one line each (`table: value | value`),
    /// ordered by the first two columns.
    pub fn rows(&self, tables: &[&str]) -> String {
        let conn = self.database();
        let mut dump = String::new();
        for table in tables {
            let mut statement = conn
                .prepare(&format!("SELECT * FROM {table} ORDER BY 1, 2"))
                .expect("query");
            let columns = statement.column_count();
            let rows = statement
                .query_map([], |row| {
                    (0..columns)
                        .map(|i| row.get_ref(i).map(|v| format!("{v:?}")))
                        .collect::<Result<Vec<_>, _>>()
                })
                .expect("rows");
            for row in rows {
                dump.push_str(&format!("{table}: {}\n", row.expect("row").join(" | ")));
            }
        }
        dump
    }

    /// The store's SQLite file, opened anew as another process would
    /// open it.
    pub fn database(&self) -> rusqlite::Connection {
        rusqlite::Connection::open(self.dir.path().join("pbem.sqlite3")).expect("database")
    }

    /// The number a query of the store answers (`SELECT COUNT(*) ...`),
    /// read from the real database file.
    pub fn count(&self, sql: &str) -> i64 {
        self.database()
            .query_row(sql, [], |row| row.get(0))
            .expect(sql)
    }

    /// Every mail in the outbox as one text, subject and body of each (to
    /// look for what must never be sent).
    pub fn outbox_text(&self) -> String {
        self.all_mails()
            .iter()
            .map(|m| format!("{}\n{}\n", m.subject, m.body))
            .collect()
    }

    /// Runs `pbem --now <at> tick` as a process on this data directory:
    /// its report and the mails it sent.
    pub fn tick(&mut self, at: OffsetDateTime) -> (String, Vec<Sent>) {
        let report = tick(self.dir.path(), None, at);
        (report, self.new_mails())
    }

    /// Runs the real `pbem --data-dir <this directory>` with `args`; it
    /// must succeed. Returns what it printed.
    pub fn run(&self, args: &[&str]) -> String {
        let mut all = vec![OsStr::new("--data-dir"), self.dir.path().as_os_str()];
        all.extend(args.iter().map(OsStr::new));
        run_pbem(&all)
    }

    /// Runs `pbem ratings --rebuild` on this data directory (the real
    /// binary) and returns what it printed; it must succeed.
    pub fn rebuild_ratings(&self) -> String {
        self.run(&["ratings", "--rebuild"])
    }

    /// Alice (`alice@example.org`) and Bob (`bob@example.org`) signed up,
    /// and board 101 of `variant` between them, Alice White: the new-board
    /// mails to Alice and to Bob.
    pub fn alice_and_bob_on(&mut self, variant: &str) -> (Sent, Sent) {
        self.signup("alice", ALICE);
        self.signup("bob", BOB);
        let mails = self.send(
            ALICE,
            "new game",
            &format!("{variant} challenge alice alice-pw bob --white"),
        );
        assert_eq!(mails.len(), 2, "{mails:#?}");
        (to(&mails, ALICE).clone(), to(&mails, BOB).clone())
    }

    /// Bob accepts Alice's challenge on board 101 (a challenge waits for
    /// the challenged player, who gets no chat, comment or offer before
    /// accepting).
    pub fn bob_accepts(&mut self) {
        let accepted = self.send(BOB, "ok", "accept 101 bob bob-pw");
        assert_eq!(accepted.len(), 2, "{accepted:#?}");
        assert!(
            to(&accepted, ALICE)
                .body
                .contains("bob accepted the challenge.")
        );
    }

    /// Signs up a player from `address`, and confirms the address by
    /// replying to the confirmation mail.
    pub fn signup(&mut self, userid: &str, address: &str) {
        let replies = self.send(address, "hello", &format!("signup {userid} {userid}-pw"));
        assert_eq!(replies.len(), 1, "one confirmation mail: {replies:#?}");
        let replies = self.confirm(&replies[0], address);
        assert_eq!(replies.len(), 1, "one welcome mail: {replies:#?}");
        assert_eq!(
            replies[0].subject,
            format!("pbem signup {userid}"),
            "{}",
            replies[0].body
        );
    }

    /// Replies from `address` to a confirmation mail, as a mail client
    /// does (Subject `Re: confirm <code>`, the mail quoted); returns the
    /// replies.
    pub fn confirm(&mut self, confirmation: &Sent, address: &str) -> Vec<Sent> {
        self.reply_to_confirmation(confirmation, address, "")
    }

    /// Replies from `address` to a confirmation mail as [`Harness::confirm`]
    /// does, with `text` written above the quote; returns the replies.
    pub fn reply_to_confirmation(
        &mut self,
        confirmation: &Sent,
        address: &str,
        text: &str,
    ) -> Vec<Sent> {
        assert!(
            confirmation.subject.starts_with("confirm "),
            "a confirmation mail: {confirmation:#?}"
        );
        let id = self.message_id();
        let quoted: String = confirmation
            .body
            .lines()
            .map(|line| format!("> {line}\r\n"))
            .collect();
        let raw = format!(
            "From: {address}\r\nTo: pbem@localhost\r\nSubject: Re: {}\r\nMessage-ID: {id}\r\nIn-Reply-To: {}\r\n\r\n{text}\r\n\r\nOn Sun, 1 Mar 2026, pbem wrote:\r\n{quoted}",
            confirmation.subject, confirmation.message_id
        );
        self.deliver_raw(raw.as_bytes())
    }
}

fn read_sent(file: &PathBuf) -> Sent {
    let raw = fs::read(file).expect("outbox file");
    let message = MessageParser::default()
        .parse(&raw)
        .expect("the server writes parseable mail");
    let address = |a: Option<&mail_parser::Address<'_>>| {
        a.and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(str::to_string)
    };
    let ids = |value: &mail_parser::HeaderValue<'_>| -> Vec<String> {
        match value {
            mail_parser::HeaderValue::Text(text) => vec![text.to_string()],
            mail_parser::HeaderValue::TextList(list) => {
                list.iter().map(|t| t.to_string()).collect()
            }
            _ => Vec::new(),
        }
    };
    Sent {
        file: file.clone(),
        to: address(message.to()).unwrap_or_default(),
        subject: message.subject().unwrap_or_default().to_string(),
        body: message
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
        reply_to: address(message.reply_to()),
        message_id: message.message_id().unwrap_or_default().to_string(),
        in_reply_to: ids(message.in_reply_to()).into_iter().next(),
        references: ids(message.references()),
        auto_submitted: message
            .header_raw("Auto-Submitted")
            .map(|v| v.trim().to_string()),
    }
}

/// The `pbem` binary, as Cargo names it to the integration test it runs
/// (`CARGO_BIN_EXE_pbem` is set when the test is built and when it runs;
/// this crate is built before the binary exists, so it reads it at run time).
pub fn pbem_binary() -> PathBuf {
    std::env::var_os("CARGO_BIN_EXE_pbem")
        .map(PathBuf::from)
        .expect("CARGO_BIN_EXE_pbem is set: run the integration tests with `cargo test`")
}

/// The mail among `mails` addressed to `address`.
pub fn to<'a>(mails: &'a [Sent], address: &str) -> &'a Sent {
    mails
        .iter()
        .find(|m| m.to.eq_ignore_ascii_case(address))
        .unwrap_or_else(|| panic!("no mail to {address} among {mails:#?}"))
}

/// A plain-text mail as a player's mail client writes it: From, To,
/// Subject, the Message-ID `message_id` as given (with its angle
/// brackets), a UTF-8 text part holding `body`.
pub fn text_mail(from: &str, to: &str, subject: &str, message_id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: {message_id}\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// A bare mail as a script or an attacker writes it: From, To, Subject
/// and the Message-ID `<id>`, no MIME headers, then `body`.
pub fn bare_mail(from: &str, to: &str, subject: &str, id: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nMessage-ID: <{id}>\r\n\r\n{body}\r\n"
    )
    .into_bytes()
}

/// A game of an event as a notice announces it, on a line of its own:
/// `Round 2 board 104 ann - bob`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Game {
    pub round: u32,
    pub board: u32,
    pub white: String,
    pub black: String,
}

/// The games the lines of `text` (a director's or an entrant's notice)
/// announce, in their order.
pub fn games_in(text: &str) -> Vec<Game> {
    text.lines()
        .filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", round, "board", board, white, "-", black] => Some(Game {
                    round: round.parse().expect("a round number"),
                    board: board.parse().expect("a board number"),
                    white: white.to_string(),
                    black: black.to_string(),
                }),
                _ => None,
            },
        )
        .collect()
}

/// A text with its lines joined and its spaces collapsed: mails are
/// wrapped, so tests compare their words.
pub fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `n` days.
pub fn days(n: i64) -> Duration {
    Duration::days(n)
}

/// A time as the mails show it: `2026-04-01 12:05 UTC`.
pub fn readable(time: OffsetDateTime) -> String {
    let format = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute] UTC");
    time.format(&format).expect("formats")
}

/// Runs `pbem --now <at> tick` as cron does (the real binary) on the data
/// directory `data`, with the configuration file `config` if given; it
/// must succeed. Returns its report.
pub fn tick(data: &Path, config: Option<&Path>, at: OffsetDateTime) -> String {
    let at = at
        .format(&time::format_description::well_known::Rfc3339)
        .expect("formats");
    let mut args: Vec<&OsStr> = Vec::new();
    if let Some(config) = config {
        args.extend([OsStr::new("--config"), config.as_os_str()]);
    }
    args.extend([OsStr::new("--data-dir"), data.as_os_str()]);
    args.extend(["--now", at.as_str(), "tick"].map(OsStr::new));
    run_pbem(&args)
}

/// Runs the real `pbem` with `args`; it must succeed. Returns what it
/// printed.
pub fn run_pbem(args: &[impl AsRef<OsStr>]) -> String {
    let output = std::process::Command::new(pbem_binary())
        .args(args)
        .output()
        .expect("pbem runs");
    let args: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
    assert!(
        output.status.success(),
        "pbem {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The files in the outbox of the data directory `data`, in name order
/// (the order they were written).
pub fn outbox_files(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(data.join("outbox"))
        .map(|entries| entries.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.sort();
    files
}

/// A port on 127.0.0.1 free a moment ago (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .unwrap_or_else(|e| panic!("no free loopback port: {e}"))
}

/// SplitMix64: a small deterministic PRNG for the load tests (their seed
/// is printed, so a failing run can be repeated).
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low + 1)
    }
}

/// The load tests' seed: `PBEM_LOAD_SEED`, or the time.
pub fn load_seed() -> u64 {
    seed("PBEM_LOAD_SEED")
}

/// A random test's seed: the environment variable `variable` (to repeat
/// a failing run), or the time.
pub fn seed(variable: &str) -> u64 {
    match std::env::var(variable) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{variable} is a number")),
        Err(_) => std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1),
    }
}

/// Debian's headless Chromium, which the picture, mail-HTML and web-page
/// tests open their pages in (`scripts/test` installs it).
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// Runs headless Chromium on `url` with `arguments` (a window size, a
/// screenshot, settings) in a profile of its own; fails the test, never
/// skips it, when Chromium is missing.
pub fn chromium(url: &str, arguments: &[String]) -> std::process::Output {
    assert!(
        std::path::Path::new(CHROMIUM).is_file(),
        "{CHROMIUM} is missing: this test needs Debian's chromium package (scripts/test installs it; as root: apt-get install -y chromium)"
    );
    let profile = tempfile::tempdir().expect("profile dir");
    std::process::Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .args(arguments)
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(url)
        .output()
        .expect("chromium runs")
}

/// A screenshot of `url` in a window of `size` (`"800,1000"`), kept at
/// `keep`: its width, height, pixels and channels per pixel.
pub fn screenshot(
    url: &str,
    size: &str,
    keep: &std::path::Path,
    arguments: &[String],
) -> (u32, u32, Vec<u8>, usize) {
    let _ = fs::remove_file(keep);
    let mut all = vec![
        format!("--window-size={size}"),
        format!("--screenshot={}", keep.display()),
    ];
    all.extend_from_slice(arguments);
    let output = chromium(url, &all);
    assert!(
        keep.is_file(),
        "chromium made no screenshot: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = fs::read(keep).expect("screenshot");
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("a PNG screenshot");
    let mut buffer = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buffer).expect("a frame");
    buffer.truncate(info.buffer_size());
    (info.width, info.height, buffer, info.color_type.samples())
}

/// The pixels of a `width` x `height` screenshot at which `inside` holds
/// (the board's colours, say): how many, and the box around them as
/// (count, left, right, top, bottom).
pub fn pixel_box(
    width: u32,
    height: u32,
    inside: impl Fn(u32, u32) -> bool,
) -> (u32, u32, u32, u32, u32) {
    let (mut count, mut left, mut right, mut top, mut bottom) = (0u32, width, 0, height, 0);
    for y in 0..height {
        for x in 0..width {
            if inside(x, y) {
                count += 1;
                left = left.min(x);
                right = right.max(x);
                top = top.min(y);
                bottom = bottom.max(y);
            }
        }
    }
    (count, left, right, top, bottom)
}
