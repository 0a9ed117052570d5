//! The weight of the benchmarked pages (issue 38: each under 30 KB): a
//! board page of 46 turns from each side, the front page, and the event
//! page of a 30-player round robin played by mail with every game started
//! (435 games, the largest round robin `--max` allows). The same stores
//! as `benches/web.rs`, which times them.

use pbem::server::TimeSource;
use pbem::store::Store;
use pbem::web::{Site, pages};
use pbem_testkit::Harness;
use shakmaty::Color;

/// Each page's budget, in bytes of HTML.
const BUDGET: usize = 30 * 1024;

#[test]
fn a_board_page_and_the_front_page_weigh_under_30_kb() {
    let h = Harness::new();
    let store = Store::open(&h.config.database).expect("store");
    pbem_testkit::pages::ruy_lopez(&store, h.now);
    let site = Site::new(&h.config, TimeSource::Fixed(h.now));
    for side in [Color::White, Color::Black] {
        let page = pages::board(&site, store.conn(), 101, side, None).expect("the board page");
        println!("board page ({side:?}): {} bytes", page.body.len());
        assert!(page.body.contains("Rae8"), "the whole game: {}", page.body);
        assert!(page.body.len() < BUDGET, "{} bytes", page.body.len());
    }
    let page = pages::index(&site, store.conn(), 1).expect("the front page");
    println!("front page: {} bytes", page.body.len());
    assert!(page.body.contains("/boards/101"), "{}", page.body);
    assert!(page.body.len() < BUDGET, "{} bytes", page.body.len());
}

#[test]
fn a_30_player_round_robins_event_page_weighs_under_30_kb() {
    let h = pbem_testkit::pages::round_robin(30, 60);
    let site = Site::new(&h.config, TimeSource::Fixed(h.now));
    let page = pages::event(&site, &h.database(), "club").expect("the event page");
    println!("event page: {} bytes", page.body.len());
    // Every player and the crosstable are on it.
    assert!(page.body.contains("/players/p29"), "{}", page.body);
    assert!(page.body.contains("<h2>Crosstable</h2>"), "{}", page.body);
    assert!(page.body.len() < BUDGET, "{} bytes", page.body.len());
    // One round's pairings, linked to the others; the crosstable's cells
    // unlinked (each game is linked from its round).
    let page = page.body;
    assert_eq!(page.matches("<h3>").count(), 1, "{page}");
    assert!(
        page.contains(r#"<a href="/events/club?round=29">Round 29</a>"#),
        "{page}"
    );
    assert!(
        page.contains("Each game is linked from its round's pairings."),
        "{page}"
    );
    let round = |n| pages::event_round(&site, &h.database(), "club", Some(n));
    let second = round(2).expect("round 2").body;
    assert!(second.contains("<h3>Round 2</h3>"), "{second}");
    assert!(
        second.contains(r#"<strong aria-current="page">Round 2</strong>"#),
        "{second}"
    );
    assert!(!second.contains("<h3>Round 1</h3>"), "{second}");
    assert!(second.len() < BUDGET, "{} bytes", second.len());
    assert!(matches!(round(30), Err(pbem::web::WebError::NotFound)));
}
