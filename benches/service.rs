//! Service benchmark: mails per second from the Maildir to the outbox for a
//! burst of 10,000 move mails over 1,000 boards, and peak memory (goal: at
//! least 2,000 mails/s on 2 cores, every turn durably committed).
//!
//! A burst is one pass of [`Server::process_waiting`], the library call
//! behind `pbem serve`: the mails read from `new/` in batches of [`BATCH`],
//! each mail's turn, its two board mails and its Message-ID committed with
//! its batch in one SQLite transaction (WAL, `synchronous=FULL`, as
//! [`pbem::store::Store`] sets it), then the batch moved to `cur/`; then the
//! outbox drained into `.eml` files two hundred at a time, each batch made
//! durable on a thread of its own while the next is written, then marked
//! sent, and the write-ahead log copied into the database by that sender
//! thread; the replies' MIME put together on a thread beside the inbound
//! one. It is one long pass,
//! not a loop criterion could repeat, so it is timed directly and reported
//! at the end of `cargo bench`.
//!
//! Setup (not timed): 1,000 players in a ring, player `i` White on board
//! `101 + i` and Black on the board before, so each plays two boards and
//! sends ten of the 10,000 mails (far below the hourly limit per sender).
//! Their Argon2 hashes are written straight into the store, made with the
//! smallest parameters (a hash names its own): the burst never runs Argon2,
//! and with the server's defaults the setup would spend half a minute and
//! 19 MiB a check on it, which the allocator may keep. The 1,000 challenges
//! that open the boards come by mail, each verifying its challenger's
//! password.
//! A verified password is remembered by the running server (Argon2 is slow
//! on purpose), so the burst, processed by that same server, finds every
//! password verified: the figure is that of a server in its stride. What a
//! freshly started server pays on top, one Argon2 verification per player
//! on the first mail, is measured apart (20 checks of hashes made with the
//! server's default parameters, with a new [`PasswordCheck`]) and the rate
//! of such a cold burst is derived from it.
//!
//! The mails are `move <board> <userid> <password> <turn>#<n>` in the body,
//! boards interleaved in delivery order (turns 1 to 10 of every board: no
//! capture, check or repetition). Peak memory is the process's VmHWM, reset
//! just before the burst; the resident memory at that moment is printed
//! beside it, since it holds whatever heap the setup left (each Argon2
//! check of the setup's challenges allocates 19 MiB, which the allocator
//! may keep), so the difference is what the burst itself needed.
//!
//! The reference, measured in the same run: the durable I/O of the same
//! design without the service. The burst's mails go through the same
//! Maildir, a [`Store`] with the same schema and settings and the same
//! outbox drain and file sender; per mail, its Message-ID is checked and
//! recorded and the two replies pbem wrote for it are queued, [`BATCH`]
//! mails to a committed transaction as pbem does; no parsing, commands,
//! chess or templates. The replies are queued as pbem queued them (board
//! pictures described, not drawn), so the drain draws the pictures here
//! too. The
//! ratio pbem / reference tells how much the service's own work (parsing,
//! commands, chess, rendering and its queries) adds to the I/O that a
//! durable design of this shape must do. One more floor
//! is printed: copying each mail into another folder with an fsync, the
//! disk's rate for one durable write per mail (about one fsync's latency
//! per mail; it varies a lot with the other writes on the machine).
//!
//! Each timed phase starts after a `sync`, so that it does not pay for the
//! writes the phase before it left pending. The temporary directory follows `TMPDIR`: `TMPDIR=/dev/shm cargo bench
//! --bench service` runs on tmpfs, where an fsync costs nothing, and so
//! shows the rate the CPU alone allows.
//!
//! Under `cargo test --all-targets` (no `--bench`) the same code runs on two
//! boards with ten mails each, as a check that it works.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use argon2::password_hash::PasswordHasher;
use argon2::{Algorithm, Argon2, Params, Version};
use pbem::config::{Config, Outbound};
use pbem::mail::ServerAddress;
use pbem::mail::bounce::Verp;
use pbem::mail::maildir::Maildir;
use pbem::mail::outbox::Outbox;
use pbem::mail::token::TokenKey;
use pbem::mail::transport::FileSender;
use pbem::server::{BATCH, Pass, Server, TimeSource};
use pbem::service::PasswordCheck;
use pbem::store::players::{self, Player};
use pbem::store::{Store, mailbox};
use time::OffsetDateTime;

const FIRST_BOARD: u32 = 101;
/// Ten turns per board: no capture, no check, no repetition.
const TURNS: [&str; 10] = ["a3", "a6", "b3", "b6", "c3", "c6", "d3", "d6", "e3", "e6"];
/// Players whose first password check is timed.
const PASSWORD_SAMPLE: u32 = 20;
const GOAL_MAILS_PER_SECOND: f64 = 2000.0;

/// How big a run is.
#[derive(Clone, Copy)]
struct Scale {
    boards: u32,
}

impl Scale {
    fn mails(self) -> usize {
        self.boards as usize * TURNS.len()
    }
}

fn userid(index: u32) -> String {
    format!("p{index:04}")
}

fn address(index: u32) -> String {
    format!("{}@example.org", userid(index))
}

fn password(index: u32) -> String {
    format!("secret-{index:04}")
}

/// Players (indexes) of board `number`: White and Black.
fn players_of(scale: Scale, number: u32) -> (u32, u32) {
    let white = number - FIRST_BOARD;
    (white, (white + 1) % scale.boards)
}

fn move_mail(scale: Scale, number: u32, seq: usize, turn: &str) -> Vec<u8> {
    let (white, black) = players_of(scale, number);
    let mover = if seq.is_multiple_of(2) { black } else { white };
    format!(
        "From: {user} <{from}>\r\nTo: pbem@localhost\r\nSubject: my move on board {number}\r\n\
         Message-ID: <bench-{number}-{seq}@example.org>\r\nDate: Sat, 21 Nov 2026 12:00:00 +0000\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n\
         move {number} {user} {password} {turn}#{seq}\r\n\r\n-- \r\nsent from my chess club\r\n",
        user = userid(mover),
        from = address(mover),
        password = password(mover),
    )
    .into_bytes()
}

/// The burst, turn by turn, each turn on every board, in delivery order.
fn burst(scale: Scale) -> Vec<Vec<u8>> {
    let mut mails = Vec::with_capacity(scale.mails());
    for (index, turn) in TURNS.iter().enumerate() {
        for number in FIRST_BOARD..FIRST_BOARD + scale.boards {
            mails.push(move_mail(scale, number, index + 1, turn));
        }
    }
    mails
}

fn deliver(inbox: &Maildir, mails: &[Vec<u8>]) {
    for mail in mails {
        inbox.deliver(mail).expect("delivered");
    }
}

/// The stored hash of player `index`'s password, with the smallest Argon2
/// parameters.
fn cheap_hash(index: u32) -> String {
    let params = Params::new(Params::MIN_M_COST, Params::MIN_T_COST, 1, None).expect("valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(password(index).as_bytes())
        .expect("hashable")
        .to_string()
}

/// Players straight into the store; then the boards by challenge mails,
/// through `server`.
fn set_up(config: &Config, scale: Scale) -> Server {
    fs::create_dir_all(&config.data_dir).expect("data dir");
    let store = Store::open(&config.database).expect("store");
    let tx = store.transaction().expect("transaction");
    let now = OffsetDateTime::now_utc();
    for i in 0..scale.boards {
        players::insert(&tx, &userid(i), &cheap_hash(i), &[address(i)], now).expect("player");
    }
    tx.commit().expect("commit");
    drop(store);

    let mut server = Server::open(config).expect("server");
    for number in FIRST_BOARD..FIRST_BOARD + scale.boards {
        let (white, black) = players_of(scale, number);
        let mail = format!(
            "From: {from}\r\nTo: pbem@localhost\r\nSubject: chess challenge {user} {password} {opponent} --white\r\n\
             Message-ID: <challenge-{number}@example.org>\r\n\r\n\r\n",
            from = address(white),
            user = userid(white),
            password = password(white),
            opponent = userid(black),
        );
        server.inbox().deliver(mail.as_bytes()).expect("delivered");
    }
    let pass = server
        .process_waiting(TimeSource::System, &AtomicBool::new(false))
        .expect("setup pass");
    assert_eq!(pass.replies, 2 * scale.boards as usize, "setup: {pass:?}");
    let boards: u32 = server
        .service()
        .store()
        .conn()
        .query_row("SELECT COUNT(*) FROM boards", [], |row| row.get(0))
        .expect("count");
    assert_eq!(boards, scale.boards);
    server
}

/// The mean time of a first (uncached) password check, over the first
/// `count` players, their passwords hashed as the server hashes them.
fn password_check(server: &Server, count: u32) -> Duration {
    let conn = server.service().store().conn();
    let sample: Vec<(Player, String)> = (0..count)
        .map(|i| {
            let mut player = players::by_userid(conn, &userid(i))
                .expect("query")
                .expect("player");
            player.password_hash = Argon2::default()
                .hash_password(password(i).as_bytes())
                .expect("hashable")
                .to_string();
            (player, password(i))
        })
        .collect();
    let mut check = PasswordCheck::default();
    let start = Instant::now();
    for (player, password) in &sample {
        assert!(check.verify(player, password));
    }
    start.elapsed() / count
}

/// One timed burst.
struct Burst {
    elapsed: Duration,
    /// Processor time of the process (both threads, user and system).
    cpu: Option<Duration>,
    /// Processor time of the thread that handled the inbound mail.
    inbound_cpu: Option<Duration>,
    pass: Pass,
    /// Resident memory when the burst began, in KiB.
    start_kib: Option<u64>,
    /// Peak resident memory during the burst, in KiB.
    peak_kib: Option<u64>,
}

impl Burst {
    fn rate(&self) -> f64 {
        self.pass.mails as f64 / self.elapsed.as_secs_f64()
    }
}

fn run_burst(server: &mut Server, mails: &[Vec<u8>]) -> Burst {
    deliver(server.inbox(), mails);
    let turns_before = turn_count(server);
    settle_disk();
    reset_peak_memory();
    let start_kib = memory_kib("VmRSS");
    let cpu_before = cpu_time();
    let inbound_before = thread_cpu_time();
    let start = Instant::now();
    let pass = server
        .process_waiting(TimeSource::System, &AtomicBool::new(false))
        .expect("burst pass");
    let elapsed = start.elapsed();
    let cpu = cpu_time()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    let inbound_cpu = thread_cpu_time()
        .zip(inbound_before)
        .map(|(after, before)| after - before);
    let peak_kib = memory_kib("VmHWM");
    // Every mail applied, two board mails each, all sent: no refusals.
    assert_eq!(pass.mails, mails.len(), "{pass:?}");
    assert_eq!(pass.replies, 2 * mails.len(), "{pass:?}");
    assert_eq!(pass.sent, 2 * mails.len(), "{pass:?}");
    assert_eq!(turn_count(server) - turns_before, mails.len());
    Burst {
        elapsed,
        cpu,
        inbound_cpu,
        pass,
        start_kib,
        peak_kib,
    }
}

fn turn_count(server: &Server) -> usize {
    server
        .service()
        .store()
        .conn()
        .query_row("SELECT COUNT(*) FROM turns", [], |row| row.get::<_, i64>(0))
        .expect("count") as usize
}

/// A queued reply: its message and the description of its pictures.
type Reply = (Vec<u8>, Option<String>);

/// The last `count` mails of the outbox, oldest first, as queued.
fn last_replies(server: &Server, count: usize) -> Vec<Reply> {
    let conn = server.service().store().conn();
    let mut statement = conn
        .prepare("SELECT message, pictures FROM outbox JOIN outbox_message USING (id) ORDER BY id DESC LIMIT ?1")
        .expect("query");
    let mut replies: Vec<Reply> = statement
        .query_map([count as i64], |row| Ok((row.get(0)?, row.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("replies");
    replies.reverse();
    replies
}

/// The durable I/O of pbem's design without the service: see the module
/// comment. `replies` holds two replies per mail, in order.
fn io_reference(dir: &Path, mails: &[Vec<u8>], replies: &[Reply]) -> Duration {
    let inbox = Maildir::create(&dir.join("inbox")).expect("inbox");
    deliver(&inbox, mails);
    let database = dir.join("reference.sqlite3");
    let store = Store::open(&database).expect("store");
    let sender = FileSender::new(&dir.join("outbox")).expect("outbox");
    let server = ServerAddress::parse("pbem@localhost").expect("address");
    let verp = Verp::new(server, TokenKey::generate().expect("randomness"));
    let mut outbox = Outbox::new(Box::new(sender), &database, verp);
    let recipients = ["player@example.org".to_string()];
    let now = OffsetDateTime::now_utc();
    settle_disk();
    let start = Instant::now();
    let waiting = inbox.waiting().expect("waiting");
    for (batch, paths) in waiting.chunks(BATCH).enumerate() {
        let tx = store.transaction().expect("transaction");
        for (offset, path) in paths.iter().enumerate() {
            let index = batch * BATCH + offset;
            let raw = fs::read(path).expect("mail");
            let id = format!("mail-{index}-{}", raw.len());
            if !mailbox::is_processed(&tx, &id, "player@example.org").expect("lookup") {
                for (n, (reply, pictures)) in replies[2 * index..2 * index + 2].iter().enumerate() {
                    let reply_id = format!("reply-{index}-{n}");
                    mailbox::enqueue(&tx, &reply_id, &recipients, reply, pictures.as_deref(), now)
                        .expect("enqueue");
                }
                mailbox::mark_processed(&tx, &id, "player@example.org", now).expect("mark");
            }
        }
        tx.commit().expect("commit");
        for path in paths {
            inbox.mark_handled(path).expect("to cur/");
        }
    }
    let sent = outbox.drain(&store, now).expect("drain");
    let elapsed = start.elapsed();
    assert_eq!(sent, replies.len());
    elapsed
}

/// The mean size of the last `count` `.eml` files the burst sent.
fn sent_size(config: &Config, count: usize) -> usize {
    let Outbound::Directory(dir) = &config.outbound else {
        return 0;
    };
    let mut files: Vec<_> = fs::read_dir(dir)
        .expect("outbox")
        .map(|entry| entry.expect("entry").path())
        .collect();
    files.sort();
    let last = &files[files.len().saturating_sub(count)..];
    last.iter()
        .map(|file| fs::metadata(file).expect("size").len() as usize)
        .sum::<usize>()
        / last.len().max(1)
}

/// One fsync'd copy per mail into another folder.
fn fsync_floor(dir: &Path, mails: &[Vec<u8>]) -> Duration {
    let from = dir.join("from");
    let to = dir.join("to");
    fs::create_dir_all(&from).expect("dir");
    fs::create_dir_all(&to).expect("dir");
    for (index, mail) in mails.iter().enumerate() {
        fs::write(from.join(format!("{index:06}")), mail).expect("write");
    }
    settle_disk();
    let start = Instant::now();
    for index in 0..mails.len() {
        let name = format!("{index:06}");
        let raw = fs::read(from.join(&name)).expect("read");
        let mut file = fs::File::create(to.join(&name)).expect("create");
        file.write_all(&raw).expect("write");
        file.sync_all().expect("fsync");
    }
    start.elapsed()
}

/// Writes out every file system's pending data, so that a timed phase
/// does not pay for the writes of the one before it.
fn settle_disk() {
    rustix::fs::sync();
}

/// The processor time the process has used (user and system, all its
/// threads), on Linux: fields 14 and 15 of `/proc/self/stat`, in ticks of
/// 10 ms.
fn cpu_time() -> Option<Duration> {
    cpu_time_of("/proc/self/stat")
}

/// The processor time of the calling thread (the one that handles the
/// inbound mail in a pass), as [`cpu_time`] reads it.
fn thread_cpu_time() -> Option<Duration> {
    cpu_time_of("/proc/thread-self/stat")
}

fn cpu_time_of(path: &str) -> Option<Duration> {
    let stat = fs::read_to_string(path).ok()?;
    // The fields after the command name, which is in parentheses.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// Resets the process's peak resident memory (Linux `clear_refs`).
fn reset_peak_memory() {
    fs::write("/proc/self/clear_refs", "5").ok();
}

/// A memory figure of the process in KiB, on Linux: `VmRSS` (resident
/// now) or `VmHWM` (peak resident).
fn memory_kib(field: &str) -> Option<u64> {
    let status = fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| {
        l.strip_prefix(field)
            .is_some_and(|rest| rest.starts_with(':'))
    })?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn memory(kib: Option<u64>) -> String {
    kib.map_or("unknown".to_string(), |k| {
        format!("{:.1} MiB", k as f64 / 1024.0)
    })
}

fn pragma(server: &Server, name: &str) -> String {
    server
        .service()
        .store()
        .conn()
        .query_row(&format!("PRAGMA {name}"), [], |row| {
            row.get::<_, rusqlite::types::Value>(0)
        })
        .map(|value| match value {
            rusqlite::types::Value::Integer(n) => n.to_string(),
            rusqlite::types::Value::Text(text) => text,
            other => format!("{other:?}"),
        })
        .unwrap_or_else(|e| e.to_string())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let benchmarking = args.iter().any(|a| a == "--bench") && !args.iter().any(|a| a == "--test");
    if args.iter().any(|a| a == "--list") {
        println!("service: benchmark");
        return;
    }
    // `cargo bench <filter>`: run only if the filter names this benchmark.
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    if !filters.is_empty() && !filters.iter().any(|f| "service".contains(f.as_str())) {
        return;
    }
    let scale = Scale {
        boards: if benchmarking { 1000 } else { 2 },
    };
    let temp = tempfile::tempdir().expect("temp dir");
    let mut config = Config::defaults(&temp.path().join("data"));
    // The burst sends 22,000 mails within the hour, past the default
    // ceiling of all pbem sends (20,000 an hour), which would hold back
    // the last of them: this measures the work, not the ceiling.
    config.service.sent.total.hour = 100_000;

    let setup_start = Instant::now();
    let mut server = set_up(&config, scale);
    let setup = setup_start.elapsed();
    let synchronous = pragma(&server, "synchronous");
    let journal = pragma(&server, "journal_mode");

    let mails = burst(scale);
    let result = run_burst(&mut server, &mails);
    let replies = last_replies(&server, 2 * mails.len());
    let queued_bytes = replies
        .iter()
        .map(|(message, pictures)| message.len() + pictures.as_ref().map_or(0, String::len))
        .sum::<usize>()
        / replies.len();
    let sent_bytes = sent_size(&config, replies.len());
    let first_check = password_check(&server, PASSWORD_SAMPLE.min(scale.boards));
    drop(server);

    let reference = io_reference(&temp.path().join("reference"), &mails, &replies);
    let floor = fsync_floor(&temp.path().join("floor"), &mails);

    if !benchmarking {
        println!(
            "service bench (test mode): {} mails over {} boards processed and sent",
            mails.len(),
            scale.boards
        );
        return;
    }
    let mails = mails.len();
    let per_second = |time: Duration| mails as f64 / time.as_secs_f64();
    println!("\n== pbem service benchmark: summary ==");
    println!(
        "setup: {} players, {} boards by challenge mail in {setup:.1?}; store: journal_mode={journal}, synchronous={synchronous} (2 = FULL: an fsync per commit)",
        scale.boards, scale.boards
    );
    let verdict = if result.rate() >= GOAL_MAILS_PER_SECOND {
        "met"
    } else {
        "MISSED"
    };
    println!(
        "burst: {mails} move mails over {} boards, Maildir to outbox ({} board mails sent) in {:.2?}: {:.0} mails/s (goal >= {GOAL_MAILS_PER_SECOND:.0}: {verdict}); peak RSS {} ({} resident when it began)",
        scale.boards,
        result.pass.sent,
        result.elapsed,
        result.rate(),
        memory(result.peak_kib),
        memory(result.start_kib),
    );
    if let Some(cpu) = result.cpu {
        println!(
            "burst processor time (both threads, user and system): {cpu:.2?}, {:.0} µs per move mail; on two free cores at most {:.0} mails/s",
            cpu.as_secs_f64() * 1e6 / mails as f64,
            2.0 * mails as f64 / cpu.as_secs_f64()
        );
        if let Some(inbound) = result.inbound_cpu {
            println!(
                "of which the inbound thread (mail to outbox): {inbound:.2?}; the other threads (reply builder, outbox sender, flushes): {:.2?}",
                cpu.saturating_sub(inbound)
            );
        }
    }
    println!(
        "a board mail: {:.1} KB queued (message and picture description), {:.1} KB sent (the .eml)",
        queued_bytes as f64 / 1000.0,
        sent_bytes as f64 / 1000.0
    );
    println!(
        "reference, the same durable I/O without the service (same Maildir, store, transactions, outbox drain and files): {reference:.2?}, {:.0} mails/s; pbem / reference = {:.2}",
        per_second(reference),
        result.elapsed.as_secs_f64() / reference.as_secs_f64()
    );
    println!(
        "floor, one fsync'd copy per mail: {floor:.2?}, {:.0} mails/s ({:.2?} per fsync)",
        per_second(floor),
        floor / mails as u32
    );
    let cold = result.elapsed + first_check * scale.boards;
    println!(
        "first password check of a player (Argon2, uncached): {first_check:.2?}; a freshly started server pays it once per player: {:.0} mails/s for this burst",
        mails as f64 / cold.as_secs_f64()
    );
}
