//! Rebuilding the ratings of 10,000 players from 200,000 stored rated
//! games in a real SQLite file (goal: under 2 s), beside a bare
//! `skillratings` loop over the same games in memory, measured in the
//! same run.
//!
//! Timed: the rebuild from nothing (the ratings and rated-game tables
//! empty, so every row is written: what a change of rating parameters
//! costs), including reading the results from `boards` and the commit;
//! the rebuild of figures that are already right (everything read and
//! compared, nothing written); and the reference, which rates the same
//! games in the same order with `skillratings::glicko2::glicko2` into a
//! vector, with no database and no bookkeeping. Beside the wall-clock
//! times it prints the processor time the rebuilds used (on Linux), which
//! a machine busy with other work does not inflate.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pbem::rules::Variant;
use pbem::store::{Store, ratings, time_text};
use rusqlite::params;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};
use time::macros::datetime;

const PLAYERS: u32 = 10_000;
const GAMES: u32 = 200_000;
const VARIANTS: [Variant; 3] = [Variant::Chess2, Variant::Chess, Variant::Doublemove];

/// A small deterministic generator (64-bit LCG, high bits).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % u64::from(below)) as u32
    }
}

/// One stored game, as the reference reads it.
struct Game {
    white: usize,
    black: usize,
    outcome: Outcomes,
}

/// A database file with `players` players and `games` finished rated
/// boards (a few unrated and declined among them); returns the games in
/// rating order for the reference.
fn setup(players: u32, games: u32) -> (tempfile::TempDir, Store, Vec<Game>) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = Store::open(&dir.path().join("pbem.sqlite3")).expect("database");
    let start = datetime!(2024-01-01 00:00 UTC);
    let tx = store.transaction().expect("transaction");
    {
        let mut insert = tx
            .prepare("INSERT INTO players (id, userid, password_hash, created_at) VALUES (?1, ?2, 'x', ?3)")
            .expect("statement");
        // Each with a confirmed address: only confirmed players are rated.
        let mut address = tx
            .prepare("INSERT INTO addresses (address, player_id, position) VALUES (?1, ?2, 0)")
            .expect("statement");
        for id in 1..=players {
            insert
                .execute(params![id, format!("player{id}"), time_text(start)])
                .expect("player");
            address
                .execute(params![format!("player{id}@example.org"), id])
                .expect("address");
        }
    }
    let mut reference = Vec::new();
    {
        let mut insert = tx
            .prepare(
                "INSERT INTO boards (number, variant, white_id, black_id, rated, nag_days,
                                     forfeit_days, created_at, last_turn_at, result, end_reason,
                                     finished_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, 7, 21, ?6, ?6, ?7, 'bench', ?6)",
            )
            .expect("statement");
        let mut random = Lcg(12);
        let mut at = start;
        for n in 0..games {
            let white = random.next(players) + 1;
            let black = (white + random.next(players - 1)) % players + 1;
            let variant = VARIANTS[random.next(VARIANTS.len() as u32) as usize];
            let (result, outcome) = match random.next(100) {
                0..=41 => ("1-0", Outcomes::WIN),
                42..=77 => ("0-1", Outcomes::LOSS),
                _ => ("1/2-1/2", Outcomes::DRAW),
            };
            // Mostly a few minutes apart, with nanoseconds; now and then
            // several games end at one time.
            if random.next(10) != 0 {
                at += time::Duration::nanoseconds(i64::from(random.next(600_000_000)) * 1_000);
            }
            let (rated, result) = match random.next(200) {
                0 => (false, result),
                1 => (true, "-"),
                _ => (true, result),
            };
            insert
                .execute(params![
                    101 + n,
                    variant.id(),
                    white,
                    black,
                    rated,
                    time_text(at),
                    result
                ])
                .expect("board");
            if rated && result != "-" {
                let slot = |player: u32| {
                    (player as usize - 1) * VARIANTS.len()
                        + VARIANTS.iter().position(|v| *v == variant).expect("known")
                };
                reference.push(Game {
                    white: slot(white),
                    black: slot(black),
                    outcome,
                });
            }
        }
    }
    tx.commit().expect("commit");
    (dir, store, reference)
}

fn wipe(store: &Store) {
    let tx = store.transaction().expect("transaction");
    tx.execute_batch("DELETE FROM rated_games; DELETE FROM ratings")
        .expect("wipe");
    tx.commit().expect("commit");
}

/// The processor time this thread has used (Linux's schedstat; `None`
/// elsewhere): on a machine whose processors are shared, what the rebuild
/// itself costs, without the time it waited for a processor.
fn thread_cpu() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// Rebuilds in a transaction of its own; returns the time it took, the
/// processor time it used and what it did.
fn rebuild(store: &Store) -> (Duration, Option<Duration>, ratings::Rebuilt) {
    let (start, cpu) = (Instant::now(), thread_cpu());
    let tx = store.transaction().expect("transaction");
    let done = ratings::rebuild(&tx, None).expect("rebuild");
    tx.commit().expect("commit");
    let used = cpu.zip(thread_cpu()).map(|(before, after)| after - before);
    (start.elapsed(), used, done)
}

fn reference(games: &[Game], players: u32) -> Duration {
    let start = Instant::now();
    let mut table = vec![Glicko2Rating::new(); players as usize * VARIANTS.len()];
    let config = Glicko2Config::new();
    for game in games {
        let (w, b) = glicko2(
            &table[game.white],
            &table[game.black],
            &game.outcome,
            &config,
        );
        table[game.white] = w;
        table[game.black] = b;
    }
    black_box(&table);
    start.elapsed()
}

fn main() {
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let (players, games, runs) = if measuring {
        (PLAYERS, GAMES, 3)
    } else {
        (200, 2_000, 1)
    };
    let (_dir, store, games_in_order) = setup(players, games);

    let mut full = Vec::new();
    let mut full_cpu = Vec::new();
    let mut verify = Vec::new();
    let mut verify_cpu = Vec::new();
    let mut bare = Vec::new();
    let mut summary = ratings::Rebuilt::default();
    for _ in 0..runs {
        wipe(&store);
        let (elapsed, cpu, done) = rebuild(&store);
        full_cpu.extend(cpu);
        assert_eq!(done.games, games_in_order.len());
        assert_eq!(
            done.ratings_changed, done.ratings,
            "from nothing, every rating is written"
        );
        summary = done;
        full.push(elapsed);
        let (elapsed, cpu, done) = rebuild(&store);
        verify_cpu.extend(cpu);
        assert!(
            done.unchanged(),
            "a second rebuild changes nothing: {done:?}"
        );
        verify.push(elapsed);
        bare.push(reference(&games_in_order, players));
    }
    let best = |v: &[Duration]| v.iter().copied().min().unwrap_or_default();
    let median = |v: &[Duration]| {
        let mut v = v.to_vec();
        v.sort();
        v[v.len() / 2]
    };
    let (full_best, verify_best, bare_best) = (best(&full), best(&verify), best(&bare));
    println!("\n== pbem ratings benchmark ==");
    println!(
        "{} rated games ({} stored boards), {} players, {} ratings",
        summary.games, games, players, summary.ratings
    );
    println!(
        "rebuild from nothing (every row written, commit included): best {full_best:.2?}, median {:.2?} over {runs} runs (goal < 2 s)",
        median(&full)
    );
    println!(
        "rebuild of right figures (read and compare, nothing written): best {verify_best:.2?}, median {:.2?}",
        median(&verify)
    );
    if !full_cpu.is_empty() {
        println!(
            "processor time of this thread (waits for a busy machine's processors left out): from nothing best {:.2?}, right figures best {:.2?}",
            best(&full_cpu),
            best(&verify_cpu)
        );
    }
    println!(
        "reference, a bare skillratings::glicko2 loop over the same games in memory: best {bare_best:.2?}"
    );
    println!(
        "ratio rebuild/reference: {:.1}x (from nothing), {:.1}x (right figures)",
        full_best.as_secs_f64() / bare_best.as_secs_f64(),
        verify_best.as_secs_f64() / bare_best.as_secs_f64()
    );
}
