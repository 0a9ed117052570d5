//! The crosstable and standings of a 30-player double round robin with all
//! 870 games finished (goal: under 10 ms), read from a real SQLite file,
//! computed and rendered as the mails show them; beside a reference
//! measured in the same run: reading the same 870 game rows and writing one
//! plain line per game (the least any table of the event costs).

use std::fmt::Write;
use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pbem::rules::Variant;
use pbem::store::Store;
use pbem::store::boards::{self, BoardOptions};
use pbem::store::players::{self, PlayerId};
use pbem::store::tournaments::{self, Game, Settings, Status};
use pbem::tournament::{Crosstable, Format, Tiebreak, berger, text};
use time::macros::datetime;

const PLAYERS: u32 = 30;

fn setup() -> (tempfile::TempDir, Store, tournaments::Event) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let store = Store::open(&dir.path().join("pbem.sqlite3")).expect("database");
    let now = datetime!(2026-03-01 12:00 UTC);
    let tx = store.transaction().expect("transaction");
    let ids: Vec<PlayerId> = (0..=PLAYERS)
        .map(|i| {
            players::insert(
                &tx,
                &format!("player{i:02}"),
                "$argon2id$none",
                &[format!("player{i}@example.org")],
                now,
            )
            .expect("player")
        })
        .collect();
    let settings = Settings {
        name: "big".into(),
        variant: Variant::Chess,
        director: ids[PLAYERS as usize],
        format: Format::RoundRobin { double: true },
        days_per_turn: None,
        nag_days: 1,
        forfeit_days: 7,
        vacation_days: None,
        max_entrants: PLAYERS,
        rated: true,
        closes_at: None,
        invite_only: false,
        tiebreaks: Tiebreak::ROUND_ROBIN.to_vec(),
        round_days: None,
        min_rating: None,
        max_rating: None,
        start_position: None,
        opening: None,
    };
    let event = tournaments::insert(&tx, &settings, now).expect("event");
    for (i, id) in ids.iter().take(PLAYERS as usize).enumerate() {
        tournaments::add_entry(&tx, event, *id, Some(i as u32 + 1), now).expect("entry");
    }
    let options = BoardOptions {
        rated: true,
        days_per_turn: None,
        nag_days: 1,
        forfeit_days: 7,
        start_position: None,
        opening: None,
    };
    let mut n = 0u32;
    for (round, pairs) in berger::double(PLAYERS).iter().enumerate() {
        for pair in pairs {
            let white = ids[pair.white as usize - 1];
            let black = ids[pair.black as usize - 1];
            let board = boards::insert(&tx, Variant::Chess, white, black, options.clone(), now)
                .expect("board");
            n += 1;
            let result = ["1-0", "0-1", "1/2-1/2", "1-0", "0-1"][(n % 5) as usize];
            tournaments::add_game(
                &tx,
                event,
                &Game {
                    round: round as u32 + 1,
                    white,
                    black,
                    board,
                    result: Some(result.into()),
                    forfeit: n.is_multiple_of(97),
                },
            )
            .expect("game");
        }
    }
    assert_eq!(n, 870);
    tournaments::set_status(&tx, event, Status::Finished, now).expect("status");
    tx.commit().expect("commit");
    let event = tournaments::by_id(store.conn(), event).expect("event");
    (dir, store, event)
}

/// What `tournament crosstable` and `tournament standings` compute.
fn tables(store: &Store, event: &tournaments::Event) -> (String, String) {
    let results = tournaments::results(store.conn(), event).expect("results");
    let table = Crosstable::compute(&results);
    (text::crosstable(&table), text::standings(&table))
}

/// The reference: the same game rows, one line each.
fn reference(store: &Store, event: &tournaments::Event) -> String {
    let mut out = String::new();
    for game in tournaments::games(store.conn(), event.id).expect("games") {
        let _ = writeln!(
            out,
            "{} {} {} {} {}",
            game.round,
            game.board,
            game.white.0,
            game.black.0,
            game.result.unwrap_or_default()
        );
    }
    out
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let (_dir, store, event) = setup();
    let mut criterion = Criterion::default().configure_from_args().sample_size(20);
    criterion.bench_function("crosstable-30-player-double-round-robin", |b| {
        b.iter(|| black_box(tables(&store, &event)))
    });
    criterion.bench_function("reference-870-game-lines", |b| {
        b.iter(|| black_box(reference(&store, &event)))
    });
    criterion.final_summary();
    if measuring {
        let (crosstable, standings) = tables(&store, &event);
        assert_eq!(crosstable.lines().count(), 31);
        assert_eq!(standings.lines().count(), 31);
        let ours = best_of(50, || {
            black_box(tables(&store, &event));
        });
        let plain = best_of(50, || {
            black_box(reference(&store, &event));
        });
        println!("\n== pbem tournament tables: summary ==");
        println!(
            "30-player double round robin, 870 games: crosstable + standings read, computed and rendered in {ours:.2?} (goal < 10 ms); reference (870 rows read, a line each): {plain:.2?}; ratio {:.1}x",
            ours.as_secs_f64() / plain.as_secs_f64()
        );
        println!(
            "widest crosstable line: {} characters",
            crosstable
                .lines()
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0)
        );
    }
}
