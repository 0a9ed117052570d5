//! Web site benchmark: building a board page, an event page and the front
//! page (goal: each under 10 ms and 30 KB, issue 38), from a
//! store on disk as `pbem serve` reads it, without the HTTP around them (a
//! page's time is the store's reads, the game's replay, the SVG, the
//! tables and the template).
//!
//! Setup (not timed, `pbem_testkit::pages`, which the page-weight test
//! shares): two players, and board 101 with the 46 turns of a Ruy Lopez
//! played into the middlegame, written straight into the store; and,
//! played by mail through the service, a 30-player round robin (435
//! games, every round started at once) with 60 of its games decided.

use std::hint::black_box;

use criterion::Criterion;
use pbem::config::Config;
use pbem::server::TimeSource;
use pbem::store::Store;
use pbem::web::{Site, pages};
use shakmaty::Color;
use time::macros::datetime;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let config = Config::defaults(dir.path());
    let now = datetime!(2026-03-01 12:00 UTC);
    let store = Store::open(&config.database).expect("store");
    pbem_testkit::pages::ruy_lopez(&store, now);
    let site = Site::new(&config, TimeSource::Fixed(now));
    let page = pages::board(&site, store.conn(), 101, Color::White, None).expect("the board page");
    println!("board page: {} bytes", page.body.len());
    assert!(page.body.len() < 30 * 1024, "a board page under 30 KB");

    let mut criterion = Criterion::default().configure_from_args();
    for side in [Color::White, Color::Black] {
        criterion.bench_function(&format!("board page ({side:?}'s side)"), |b| {
            b.iter(|| black_box(pages::board(&site, store.conn(), 101, side, None).expect("page")))
        });
    }
    criterion.bench_function("front page", |b| {
        b.iter(|| black_box(pages::index(&site, store.conn(), 1).expect("page")))
    });

    let event = pbem_testkit::pages::round_robin(30, 60);
    let event_site = Site::new(&event.config, TimeSource::Fixed(event.now));
    let event_store = Store::open(&event.config.database).expect("the event's store");
    let page = pages::event(&event_site, event_store.conn(), "club").expect("the event page");
    println!("event page: {} bytes", page.body.len());
    assert!(page.body.len() < 30 * 1024, "an event page under 30 KB");
    criterion.bench_function("event page (30-player round robin)", |b| {
        b.iter(|| black_box(pages::event(&event_site, event_store.conn(), "club").expect("page")))
    });
    criterion.final_summary();
}
