//! Web site benchmark: building a board page (goal: under 10 ms and
//! 20 KB), an event page (goal: under 10 ms) and the front page, from a
//! store on disk as `pbem serve` reads it, without the HTTP around them (a
//! page's time is the store's reads, the game's replay, the SVG, the
//! tables and the template).
//!
//! Setup (not timed): two players, and board 101 with the 46 turns of a
//! Ruy Lopez played into the middlegame, written straight into the store;
//! and, played by mail through the service, a 10-player round robin (45
//! games, every round started at once) with 20 of its games decided.

use std::hint::black_box;

use criterion::Criterion;
use pbem::config::Config;
use pbem::rules::notation::parse_turn;
use pbem::rules::{Game, Variant};
use pbem::server::TimeSource;
use pbem::store::boards::{self, BoardOptions};
use pbem::store::{Store, players};
use pbem::web::{Site, pages};
use pbem_testkit::{Harness, address, to};
use shakmaty::Color;
use time::macros::datetime;

const TURNS: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 \
    c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 \
    Nc4 Nxc4 Bxc4 Nb6 Ne5 Rae8";

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = Config::defaults(dir.path());
    let now = datetime!(2026-03-01 12:00 UTC);
    let store = Store::open(&config.database).expect("store");
    {
        let tx = store.transaction().expect("transaction");
        let white =
            players::insert(&tx, "alice", "x", &["a@example.org".into()], now).expect("alice");
        let black = players::insert(&tx, "bob", "x", &["b@example.org".into()], now).expect("bob");
        let options = BoardOptions {
            rated: true,
            days_per_turn: None,
            nag_days: 7,
            forfeit_days: 21,
            start_position: None,
            opening: None,
        };
        let board = boards::insert(&tx, Variant::Chess, white, black, options, now).expect("board");
        let mut game = Game::new(Variant::Chess);
        for (i, text) in TURNS.split_whitespace().enumerate() {
            let played = game
                .play(&parse_turn(text).expect("a turn"))
                .unwrap_or_else(|e| panic!("turn {i} {text}: {e}"))
                .text();
            let mover = if i % 2 == 0 { white } else { black };
            boards::append_turn(&tx, board, i as u32 + 1, &played, mover, None, now)
                .expect("turn stored");
        }
        tx.commit().expect("commit");
    }
    let site = Site::new(&config, TimeSource::Fixed(now));
    let page = pages::board(&site, store.conn(), 101, Color::White, None).expect("the board page");
    println!("board page: {} bytes", page.body.len());
    assert!(page.body.len() < 20 * 1024, "a board page under 20 KB");

    let mut criterion = Criterion::default().configure_from_args();
    for side in [Color::White, Color::Black] {
        criterion.bench_function(&format!("board page ({side:?}'s side)"), |b| {
            b.iter(|| black_box(pages::board(&site, store.conn(), 101, side, None).expect("page")))
        });
    }
    criterion.bench_function("front page", |b| {
        b.iter(|| black_box(pages::index(&site, store.conn(), 1).expect("page")))
    });

    let event = played_event();
    let event_site = Site::new(&event.config, TimeSource::Fixed(event.now));
    let event_store = Store::open(&event.config.database).expect("the event's store");
    let page = pages::event(&event_site, event_store.conn(), "club").expect("the event page");
    println!("event page: {} bytes", page.body.len());
    criterion.bench_function("event page (10-player round robin)", |b| {
        b.iter(|| black_box(pages::event(&event_site, event_store.conn(), "club").expect("page")))
    });
    criterion.final_summary();
}

/// A 10-player round robin "club" played by mail: every game started,
/// the first 20 decided (Black resigns after 1.e4).
fn played_event() -> Harness {
    let mut h = Harness::new();
    let players: Vec<String> = (0..10).map(|i| format!("p{i}")).collect();
    h.signup("td", &address("td"));
    for player in &players {
        h.signup(player, &address(player));
    }
    h.send(
        &address("td"),
        "new",
        "tournament create td td-pw club chess --max=10",
    );
    for player in &players {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter club {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "start", "tournament start club td td-pw");
    let pairings: Vec<(u32, String, String)> = to(&started, &address("td"))
        .body
        .lines()
        .filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", _, "board", board, white, "-", black] => {
                    Some((board.parse().ok()?, white.to_string(), black.to_string()))
                }
                _ => None,
            },
        )
        .collect();
    assert_eq!(pairings.len(), 45, "every game of the round robin");
    for (board, white, black) in pairings.iter().take(20) {
        h.send(
            &address(white),
            "move",
            &format!("move {board} {white} {white}-pw e4"),
        );
        h.send(
            &address(black),
            "resign",
            &format!("resign {board} {black} {black}-pw"),
        );
    }
    h
}
