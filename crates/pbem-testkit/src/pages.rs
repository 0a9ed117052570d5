//! The stores behind the web site's benchmarked pages, shared by the
//! benchmark (`benches/web.rs`) and the test that holds each page to its
//! weight: board 101 with the 46 turns of a Ruy Lopez played into the
//! middlegame, and a round robin played by mail.

use pbem::rules::notation::parse_turn;
use pbem::rules::{Game, Variant};
use pbem::store::boards::{self, BoardOptions};
use pbem::store::{Store, players};
use time::OffsetDateTime;

use crate::{Harness, address, games_in, to};

/// The 46 turns of board 101.
pub const RUY_LOPEZ: &str = "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 \
    Nbd7 c4 c6 cxb5 axb5 Nc3 Bb7 Bg5 b4 Nb1 h6 Bh4 c5 dxe5 Nxe4 Bxe7 Qxe7 exd6 Qf6 Nbd2 Nxd6 \
    Nc4 Nxc4 Bxc4 Nb6 Ne5 Rae8";

/// Writes players alice and bob and their rated board 101 (the turns of
/// [`RUY_LOPEZ`]) straight into an empty `store`.
pub fn ruy_lopez(store: &Store, now: OffsetDateTime) {
    let tx = store.transaction().expect("transaction");
    let white = players::insert(&tx, "alice", "x", &["a@example.org".into()], now).expect("alice");
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
    for (i, text) in RUY_LOPEZ.split_whitespace().enumerate() {
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

/// A round robin "club" of `count` players (`p0` ..) played by mail:
/// every game started at once, the first `decided` of them decided
/// (Black resigns after 1.e4).
pub fn round_robin(count: usize, decided: usize) -> Harness {
    let mut h = Harness::new();
    let players: Vec<String> = (0..count).map(|i| format!("p{i}")).collect();
    h.signup("td", &address("td"));
    for player in &players {
        h.signup(player, &address(player));
    }
    h.send(
        &address("td"),
        "new",
        &format!("tournament create td td-pw club chess --max={count}"),
    );
    for player in &players {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter club {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "start", "tournament start club td td-pw");
    let games = games_in(&to(&started, &address("td")).body);
    assert_eq!(games.len(), count * (count - 1) / 2, "every game started");
    for game in games.iter().take(decided) {
        let (board, white, black) = (game.board, &game.white, &game.black);
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
