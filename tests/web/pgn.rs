//! What a board's PGN says besides its moves (issue 38), by mail and on
//! the web alike: the ratings before a rated game (`WhiteElo`,
//! `BlackElo`), the time control in the PGN standard's seconds
//! (`TimeControl`), how the game ended (`Termination`); an event without
//! games has no PGN (404); and the web writes a variant's name in words.

use std::net::SocketAddr;

use pbem_testkit::{ALICE, BOB, Harness, address, days};

use super::privacy::play;
use super::site::{get, start_in_process};

/// Board 101 of chess, Alice White, Bob Black, with `options`, accepted.
fn game(h: &mut Harness, options: &str) {
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let made = h.send(
        ALICE,
        "new game",
        &format!("chess challenge alice alice-pw bob --white {options}"),
    );
    assert_eq!(made.len(), 2, "{made:#?}");
    h.bob_accepts();
}

/// The scholar's mate on board 101: four turns of White, three of Black
/// (enough to be rated).
fn scholars_mate(h: &mut Harness) {
    play(
        h,
        101,
        &[
            ("alice", "e4"),
            ("bob", "e5"),
            ("alice", "Qh5"),
            ("bob", "Nc6"),
            ("alice", "Bc4"),
            ("bob", "Nf6"),
            ("alice", "Qxf7"),
        ],
    );
}

/// Board 101's PGN by mail (`pgn 101`, from a stranger) and on the web,
/// checked to be the same text with tag lines of the standard's form.
fn both_pgns(h: &mut Harness, site: SocketAddr) -> String {
    let web = get(site, "/boards/101.pgn");
    assert_eq!(web.status, 200, "{web:?}");
    let mailed = h.send(&address("carol"), "pgn", "pgn 101");
    assert!(
        mailed[0].body.contains(web.body.trim_end()),
        "web:\n{}\nmail:\n{}",
        web.body,
        mailed[0].body
    );
    let tags: Vec<&str> = web.body.lines().take_while(|l| !l.is_empty()).collect();
    for line in &tags {
        let inner = line
            .strip_prefix('[')
            .and_then(|l| l.strip_suffix("\"]"))
            .unwrap_or_else(|| panic!("a tag line: {line:?}"));
        let (name, value) = inner
            .split_once(" \"")
            .unwrap_or_else(|| panic!("a tag and its value: {line:?}"));
        assert!(
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
            "{line:?}"
        );
        assert!(!value.contains('"') || value.contains("\\\""), "{line:?}");
    }
    web.body
}

#[test]
fn a_rated_game_mated_in_10_in_50_carries_elo_time_control_and_termination() {
    let mut h = Harness::new();
    game(&mut h, "--time=10/50");
    let site = start_in_process(&h);
    // While the game runs it is unterminated.
    let running = both_pgns(&mut h, site);
    assert!(
        running.contains("[Termination \"unterminated\"]"),
        "{running}"
    );
    scholars_mate(&mut h);
    let pgn = both_pgns(&mut h, site);
    for tag in [
        "[WhiteElo \"1500\"]",
        "[BlackElo \"1500\"]",
        "[TimeControl \"10/4320000\"]",
        "[Termination \"normal\"]",
        "[Variant \"Chess\"]",
    ] {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    // The ratings before the game, not after.
    assert!(
        h.count("SELECT COUNT(*) FROM rated_games WHERE white_after > 1500 AND board = 101") == 1
    );
}

#[test]
fn an_unrated_resigned_3_day_game_has_no_elo_and_a_per_turn_control() {
    let mut h = Harness::new();
    game(&mut h, "--unrated --days=3");
    play(
        &mut h,
        101,
        &[
            ("alice", "e4"),
            ("bob", "e5"),
            ("alice", "Nf3"),
            ("bob", "Nc6"),
        ],
    );
    h.send(BOB, "resign", "resign 101 bob bob-pw");
    let site = start_in_process(&h);
    let pgn = both_pgns(&mut h, site);
    assert!(pgn.contains("[TimeControl \"1/259200\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"normal\"]"), "{pgn}");
    assert!(!pgn.contains("Elo"), "{pgn}");
}

#[test]
fn a_loss_on_time_is_a_time_forfeit_and_a_bank_is_in_seconds() {
    let mut h = Harness::new();
    game(&mut h, "--time=3+1 --remind=none");
    let start = h.now;
    play(&mut h, 101, &[("alice", "e4")]);
    // Bob never answers: his bank of 3 days runs out.
    h.tick(start + days(10));
    let site = start_in_process(&h);
    let pgn = both_pgns(&mut h, site);
    assert!(pgn.contains("[Result \"1-0\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"259200+86400\"]"), "{pgn}");
}

#[test]
fn an_event_without_games_has_no_pgn() {
    let mut h = Harness::new();
    h.signup("td", &address("td"));
    let made = h.send(
        &address("td"),
        "event",
        "tournament create td td-pw spring chess",
    );
    assert!(
        !made.iter().any(|m| m.subject.ends_with("Error")),
        "{made:#?}"
    );
    let site = start_in_process(&h);
    assert_eq!(
        get(site, "/events/spring").status,
        200,
        "the event is shown"
    );
    assert_eq!(get(site, "/events/spring.pgn").status, 404);
}

#[test]
fn the_web_spells_a_variant_in_words_and_mail_subjects_keep_theirs() {
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("balanced-marseillais");
    assert!(
        alice.subject.contains("BalancedMarseillais Board 101"),
        "{}",
        alice.subject
    );
    h.bob_accepts();
    let site = start_in_process(&h);
    let page = get(site, "/boards/101").body;
    assert!(page.contains("Balanced Marseillais"), "{page}");
    assert!(!page.contains("BalancedMarseillais"), "{page}");
}

/// A Chess960 board names its array on its page, and its PGN carries the
/// start's FEN; a chess board has neither.
#[test]
fn a_chess960_board_names_its_start_on_the_web() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(
        ALICE,
        "new",
        "chess960 challenge alice alice-pw bob --white --position=0",
    );
    h.send(ALICE, "new", "chess challenge alice alice-pw bob --white");
    // Challenges are public once accepted.
    h.send(BOB, "ok", "accept 101 bob bob-pw\naccept 102 bob bob-pw");
    let site = start_in_process(&h);
    let page = get(site, "/boards/101").body;
    assert!(
        page.contains("Start: Chess960 position 0 (BBQNNRKR)"),
        "{page}"
    );
    let pgn = get(site, "/boards/101.pgn").body;
    assert!(
        pgn.contains("[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]"),
        "{pgn}"
    );
    assert!(!get(site, "/boards/102").body.contains("Start:"));
    assert!(!get(site, "/boards/102.pgn").body.contains("[FEN"));
}

/// A thematic board names its opening on its page, and its PGN carries
/// `ECO`, `Opening` and the opening's moves; a chess board has none.
#[test]
fn a_thematic_board_names_its_opening_on_the_web() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(
        ALICE,
        "new",
        "chess challenge alice alice-pw bob --white --opening=sicilian-najdorf",
    );
    h.send(ALICE, "new", "chess challenge alice alice-pw bob --white");
    h.send(BOB, "ok", "accept 101 bob bob-pw\naccept 102 bob bob-pw");
    h.send(ALICE, "turn", "move 101 alice alice-pw Be3");
    let site = start_in_process(&h);
    let page = get(site, "/boards/101").body;
    assert!(
        page.contains("Opening: B90 Sicilian Defense: Najdorf Variation"),
        "{page}"
    );
    let pgn = get(site, "/boards/101.pgn").body;
    assert!(pgn.contains("[ECO \"B90\"]"), "{pgn}");
    assert!(
        pgn.contains("1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6 6.Be3 *"),
        "{pgn}"
    );
    assert!(!get(site, "/boards/102").body.contains("Opening:"));
    assert!(!get(site, "/boards/102.pgn").body.contains("[ECO"));
}
