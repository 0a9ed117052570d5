//! Revised Double Move Chess (`chess2`) and Two Move Chess (`twomove`):
//! docs/rules.md sections "chess2" and "twomove", the seed's example games, and
//! the inventor's reference games in `tests/fixtures/twomove/` (see the
//! README there).
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{
    allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids, game,
    play_record, side_name, start,
};
use pbem_rules::variant::Forbidden;
use pbem_rules::{EndReason, Game, Illegal, Phase, PlayError, Variant};
use shakmaty::{Color, Role, Square};

/// Both variants of the family.
const BOTH: [Variant; 2] = [Variant::Chess2, Variant::TwoMove];

// ---------------------------------------------------------------------------
// chess2 (and, where twomove does not differ, twomove)

/// "White's first turn is a single move."
#[test]
fn whites_first_turn_is_a_single_move() {
    for variant in BOTH {
        let new = Game::new(variant);
        assert_eq!(new.state().phase(), Phase::OpeningMove);
        let after = allows(&new, "e4");
        assert_eq!(after.state().turn(), Color::Black);
        assert_eq!(after.state().phase(), Phase::TurnStart);
        forbids(
            &new,
            "e4,d4",
            "2nd move d4: no second move is allowed: White's first turn is a single move",
        );
        // A FEN with White to move on move 1 is White's first turn too.
        let fen = start(variant, Some("4k3/8/8/8/8/8/P6P/4K3 w - - 0 1"));
        allows(&fen, "Kd2");
        forbids(&fen, "a3,h3", "White's first turn is a single move");
    }
}

/// "Afterwards a turn is one or two moves, each legal by FIDE in the position where it is played."
#[test]
fn each_move_is_legal_where_it_is_played() {
    for variant in BOTH {
        // The second move may use what the first opened...
        let opened = game(variant, None, "1.e4 e5,d6");
        assert_eq!(canonical(&opened, "d3,Bd2"), "d3,Bd2");
        forbids(&opened, "Bd2,d3", "1st move Bd2: no bishop can reach d2");
        // ... and may not leave the king in check after the first.
        let pin = start(variant, Some("4r1k1/8/8/8/8/8/P3N3/3K4 w - - 0 10"));
        allows(&pin, "Ke1,a3");
        let error = forbids(
            &pin,
            "Ke1,Nc3",
            "2nd move Nc3: it would leave your king in check",
        );
        assert_eq!(error.index, Some(1));
        assert_eq!(error.reason, Illegal::LeavesKingInCheck);
    }
}

/// "Two-move turn: the same piece may not move twice".
#[test]
fn the_same_piece_may_not_move_twice() {
    for variant in BOTH {
        let black = game(variant, None, "1.e4");
        allows(&black, "Nc6,Nf6");
        let error = forbids(
            &black,
            "Nc6,Ne5",
            "2nd move Ne5: the knight on c6 already moved this turn",
        );
        assert_eq!(
            error.reason,
            Illegal::Forbidden(Forbidden::SamePieceTwice {
                role: Role::Knight,
                square: Square::C6,
            })
        );
        // A pawn too, also as a double step in two moves.
        forbids(&black, "e6,e5", "the pawn on e6 already moved this turn");
    }
}

/// "castling moves king and rook: neither may move again that turn".
#[test]
fn after_castling_neither_king_nor_rook_moves_again() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 10";
    for variant in BOTH {
        let castles = start(variant, Some(fen));
        allows(&castles, "O-O,Ra5");
        allows(&castles, "O-O-O,Rh5");
        forbids(
            &castles,
            "O-O,Rf5",
            "the rook on f1 already moved this turn",
        );
        forbids(
            &castles,
            "O-O,Kh1",
            "the king on g1 already moved this turn",
        );
        forbids(
            &castles,
            "O-O-O,Rd5",
            "the rook on d1 already moved this turn",
        );
        forbids(
            &castles,
            "O-O-O,Kb1",
            "the king on c1 already moved this turn",
        );
        let black = game(variant, Some(fen), "Ra2,Rh2");
        forbids(&black, "O-O,Rf5", "the rook on f8 already moved this turn");
        forbids(
            &black,
            "O-O-O,Kb8",
            "the king on c8 already moved this turn",
        );
    }
}

/// Single-move turn when the move "(a) checks".
#[test]
fn a_checking_move_is_a_single_move_turn() {
    let fen = "4k3/8/8/8/8/8/7P/R3K3 w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        let checked = allows(&position, "Ra8+");
        assert_eq!(checked.state().phase(), Phase::Response);
        allows(&position, "Kd2,h3");
        forbids(
            &position,
            "Kd2",
            "it neither checks, captures, promotes nor gives the opponent a legal en passant capture, so a second move must follow",
        );
    }
}

/// Decision: "a first move that gives check always ends the turn".
#[test]
fn a_first_move_that_checks_ends_the_turn() {
    for variant in BOTH {
        let position = start(variant, Some("4k3/8/8/8/8/8/7P/R3K3 w - - 0 10"));
        let error = forbids(
            &position,
            "Ra8+,h3",
            "2nd move h3: no second move is allowed: Ra8+ gives check, which ends the turn",
        );
        assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
        // The second move of a two-move turn may check (seed, Example 2).
        let checked = allows(&position, "h3,Ra8+");
        assert_eq!(checked.state().phase(), Phase::TurnStart);
        // Violation 10 of the reference games: 2.Bb5+,Nf3.
        let opening = game(variant, None, "1.e4 c5,d6");
        forbids(
            &opening,
            "Bb5+,Nf3",
            "Bb5+ gives check, which ends the turn",
        );
        assert_eq!(canonical(&opening, "Nf3,Bb5+"), "Nf3,Bb5+");
    }
}

/// Single-move turn when the move "(b) gives the opponent a *legal* en passant capture".
#[test]
fn a_legal_en_passant_chance_allows_a_single_move_turn() {
    let legal = "4k3/8/8/8/3p4/8/4P2P/4K3 w - - 0 10";
    // The black pawn on d4 is pinned along the fourth rank: dxe3 would
    // expose its king on a4 to the rook on h4.
    let pinned = "8/8/8/8/k2p3R/8/4P2P/4K3 w - - 0 10";
    for variant in BOTH {
        let chance = allows(&start(variant, Some(legal)), "e4");
        assert_eq!(chance.state().phase(), Phase::Response);
        let no_chance = start(variant, Some(pinned));
        allows(&no_chance, "e4,h3");
        forbids(
            &no_chance,
            "e4",
            "it neither checks, captures, promotes nor gives the opponent a legal en passant capture",
        );
    }
    // A double step next to no pawn is no chance at all.
    forbids(
        &start(Variant::Chess2, Some(legal)),
        "h4",
        "so a second move must follow",
    );
}

/// Single-move turn when the move "(c) captures".
#[test]
fn a_capture_allows_a_single_move_turn() {
    let fen = "4k3/8/8/3p4/4P3/8/7P/4K3 w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        let captured = allows(&position, "exd5");
        assert_eq!(captured.state().phase(), Phase::Response);
        forbids(&position, "e5", "so a second move must follow");
    }
    // chess2: a qualifying first move *may* end the turn.
    let chess2 = start(Variant::Chess2, Some(fen));
    let two = allows(&chess2, "exd5,h3");
    assert_eq!(two.state().phase(), Phase::TurnStart);
}

/// Single-move turn when the move "(d) promotes".
#[test]
fn a_promotion_allows_a_single_move_turn() {
    // a8=Q gives no check to the king on e6.
    let fen = "8/P7/4k3/8/8/8/7P/4K3 w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        let promoted = allows(&position, "a8=Q");
        assert_eq!(promoted.state().phase(), Phase::Response);
        forbids(&position, "h3", "so a second move must follow");
    }
    let chess2 = start(Variant::Chess2, Some(fen));
    assert_eq!(canonical(&chess2, "a8=N,h3"), "a8=N,h3");
}

/// "After a single-move turn the opponent plays a single *response* move".
#[test]
fn a_single_move_turn_is_answered_by_one_response_move() {
    for variant in BOTH {
        let checked = game(variant, None, "1.e4 c5,d6 2.Bb5+");
        assert_eq!(checked.state().phase(), Phase::Response);
        allows(&checked, "Nd7");
        let error = forbids(
            &checked,
            "Nd7,Ngf6",
            "2nd move Ngf6: no second move is allowed: a response turn is a single move",
        );
        assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
        // A response needs no check, capture, promotion or en passant chance.
        let captured = game(
            variant,
            Some("3qk3/8/8/3p4/4P3/8/P7/4K3 w - - 0 10"),
            "exd5",
        );
        allows(&captured, "Kd7");
    }
}

/// "a response never triggers another response".
#[test]
fn a_response_never_triggers_a_response() {
    for variant in BOTH {
        // White captures (single-move turn), Black's response captures too.
        let fen = "3qk3/8/8/3p4/4P3/8/P7/4K3 w - - 0 10";
        let after = game(variant, Some(fen), "exd5 Qxd5");
        assert_eq!(after.state().phase(), Phase::TurnStart);
        allows(&after, "a3,Kf2");
        forbids(&after, "a3", "so a second move must follow");
        // The same for a checking response: the opponent then has an
        // ordinary turn, whose first move must meet the check.
        let checked = game(variant, Some(fen), "exd5 Qe7+");
        assert_eq!(checked.state().phase(), Phase::TurnStart);
        allows(&checked, "Kd2,a3");
        forbids(&checked, "a3,Kd2", "1st move a3: your king is in check");
    }
}

/// "En passant may only be the very next move after the double step (so never the second move".
#[test]
fn en_passant_only_as_the_very_next_move() {
    let fen = "4k3/8/8/8/3p4/8/4P2P/4K3 w - - 0 10";
    for variant in BOTH {
        // A response move may take en passant.
        let single = game(variant, Some(fen), "e4");
        assert_eq!(canonical(&single, "dxe3"), "dxe3");
        // A double step as the second move: the first move of the next
        // turn may take, the second may not.
        let second = game(variant, Some(fen), "Kd1,e4");
        assert_eq!(second.state().phase(), Phase::TurnStart);
        allows(&second, "dxe3");
        forbids(
            &second,
            "Kd7,dxe3",
            "2nd move dxe3: no pawn can capture on e3: the square is empty and en passant is not open now",
        );
    }
    // chess2: a double step that may end the turn but does not; the chance
    // is gone after the second move.
    let later = game(Variant::Chess2, Some(fen), "e4,h3");
    forbids(&later, "dxe3", "en passant is not open now");
    assert_eq!(canonical(&later, "Kd7,d3"), "Kd7,d3");
    // chess2: a capture by en passant may be followed by a second move.
    let second = game(Variant::Chess2, Some(fen), "Kd1,e4");
    assert_eq!(canonical(&second, "dxe3,Kd7"), "dxe3,Kd7");
}

/// "Stalemate: at the start of a turn, not in check and no legal turn (for a response turn: no legal move".
#[test]
fn stalemate_in_a_response_turn() {
    // Rxa2 is a single-move turn; the black king then has no legal move.
    let fen = "7k/5K2/6P1/8/8/8/r7/R7 w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        let stalemated = allows(&position, "Rxa2");
        assert_end(&stalemated, None, EndReason::Stalemate);
        assert_rejects_after_end(&stalemated, "Kg8");
        // Another first move leaves Black a legal turn.
        assert_not_over(&allows(&position, "Kf6,Rb1"));
    }
}

/// "otherwise no two-move and no single-move turn".
#[test]
fn stalemate_without_a_single_or_two_move_turn() {
    // A lone king with a capture has a single-move turn.
    let lone = "8/8/8/8/8/1k6/1P6/7K b - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(lone));
        assert_not_over(&position);
        assert_eq!(canonical(&position, "Kxb2"), "Kxb2");
        let error = forbids(
            &position,
            "Kc4",
            "no legal second move can follow it, so it cannot start a turn",
        );
        assert_eq!(error.reason, Illegal::NoSecondMovePossible);
        // When the pawn is protected, the king's moves give no whole turn.
        let protected = start(variant, Some("8/8/8/8/8/1k6/1P6/1K6 b - - 0 10"));
        assert_end(&protected, None, EndReason::Stalemate);
    }
    // By FIDE rules it is no stalemate.
    assert_not_over(&start(
        Variant::Chess,
        Some("8/8/8/8/8/1k6/1P6/1K6 b - - 0 10"),
    ));
}

/// Rule 6 of the seed (and common ground): checkmate ends the game, with no response.
#[test]
fn checkmate_with_a_single_move() {
    for variant in BOTH {
        let opening = game(variant, None, "1.e4 f6,g5");
        let mated = allows(&opening, "Qh5+");
        assert_end(&mated, Some(Color::White), EndReason::Checkmate);
        assert_eq!(mated.record(), "1.e4 f6,g5 2.Qh5#");
        assert_rejects_after_end(&mated, "Nf6");
        forbids(
            &opening,
            "Qh5#,Nc3",
            "Qh5+ gives check, which ends the turn",
        );
    }
}

/// "The seed's Example 1 prints `2.Bb4+` ... must be rejected with a clear error."
#[test]
fn the_misprinted_example_is_rejected_clearly() {
    let printed = fixture_record(&fixtures("chess2").join("example-1-as-printed.txt"));
    let mut chess2 = Game::new(Variant::Chess2);
    let failure = play_record(&mut chess2, &printed).unwrap_err();
    assert_eq!((failure.number, failure.side), (2, Color::White));
    assert_eq!(failure.written, "Bb4+");
    assert!(
        failure
            .error
            .to_string()
            .contains("Bb4+: no bishop can reach b4"),
        "{failure}"
    );
    let fixed = game(Variant::Chess2, None, "1.e4 c5,d6");
    assert_eq!(canonical(&fixed, "Bb5+"), "Bb5+");
}

/// The seed's example games (chess2) replay and print as written.
#[test]
fn the_seed_examples_replay() {
    for name in [
        "example-1.txt",
        "example-2.txt",
        "example-3.txt",
        "example-4.txt",
    ] {
        let record = fixture_record(&fixtures("chess2").join(name));
        for variant in BOTH {
            let mut game = Game::new(variant);
            if let Err(failure) = play_record(&mut game, &record) {
                panic!("{variant} {name}: {failure}");
            }
            assert_not_over(&game);
        }
    }
    let example_2 = game(Variant::Chess2, None, "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6");
    assert_eq!(example_2.record(), "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6");
}

// ---------------------------------------------------------------------------
// twomove

/// twomove: "a first move meeting any of (a)-(d) ends the turn".
#[test]
fn twomove_a_qualifying_first_move_ends_the_turn() {
    let cases = [
        (
            "4k3/8/8/3p4/4P3/8/7P/4K3 w - - 0 10",
            "exd5,h3",
            "exd5 captures, which ends the turn in TwoMove",
        ),
        (
            "8/P7/4k3/8/8/8/7P/4K3 w - - 0 10",
            "a8=Q,h3",
            "a8=Q promotes, which ends the turn in TwoMove",
        ),
        (
            "4k3/8/8/8/3p4/8/4P2P/4K3 w - - 0 10",
            "e4,h3",
            "e4 gives the opponent a legal en passant capture, which ends the turn in TwoMove",
        ),
        (
            "4k3/8/8/8/8/8/7P/R3K3 w - - 0 10",
            "Ra8+,h3",
            "Ra8+ gives check, which ends the turn",
        ),
    ];
    for (fen, turn, reason) in cases {
        let twomove = start(Variant::TwoMove, Some(fen));
        let error = forbids(&twomove, turn, reason);
        assert!(
            matches!(error.reason, Illegal::TurnAlreadyOver(_)),
            "{turn}"
        );
        let single = turn.split(',').next().expect("a first move");
        let after = allows(&twomove, single);
        assert_eq!(after.state().phase(), Phase::Response, "{turn}");
        // chess2 lets the player go on, except after a check.
        if !turn.contains('+') {
            allows(&start(Variant::Chess2, Some(fen)), turn);
        }
    }
}

/// twomove: "the first move of a two-move turn may meet none of them" (the second may).
#[test]
fn twomove_the_second_move_may_qualify() {
    let cases = [
        ("4k3/8/8/3p4/4P3/8/7P/4K3 w - - 0 10", "h3,exd5"),
        ("8/P7/4k3/8/8/8/7P/4K3 w - - 0 10", "h3,a8=Q"),
        ("4k3/8/8/8/3p4/8/4P2P/4K3 w - - 0 10", "h3,e4"),
        ("4k3/8/8/8/8/8/7P/R3K3 w - - 0 10", "h3,Ra8+"),
    ];
    for (fen, turn) in cases {
        let twomove = start(Variant::TwoMove, Some(fen));
        let after = allows(&twomove, turn);
        assert_eq!(after.state().phase(), Phase::TurnStart, "{turn}");
        forbids(&twomove, "h3", "so a second move must follow");
    }
    // An en passant chance that is not legal does not end the turn.
    let pinned = start(
        Variant::TwoMove,
        Some("8/8/8/8/k2p3R/8/4P2P/4K3 w - - 0 10"),
    );
    allows(&pinned, "e4,h3");
}

/// twomove: "Example games and 14 "violation" games are published with the inventor's reference validator".
#[test]
fn twomove_reference_games() {
    let mut seen = 0;
    for path in fixture_files("twomove", "txt") {
        let name = path
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        let expect = fixture_expect(&path);
        let record = fixture_record(&path);
        let mut game = Game::new(Variant::TwoMove);
        let outcome = play_record(&mut game, &record);
        match (expect, outcome) {
            (Expect::Ok { result }, Ok(())) => {
                if result == "*" {
                    assert_not_over(&game);
                } else if let Some(end) = game.end() {
                    assert_eq!(end.score(), result, "{name}");
                }
            }
            (Expect::Ok { .. }, Err(failure)) => panic!("{name}: expected ok, got {failure}"),
            (Expect::Illegal { number, side }, Ok(())) => panic!(
                "{name}: expected illegal at turn {number} {}, but every turn was played",
                side_name(side)
            ),
            (Expect::Illegal { number, side }, Err(failure)) => {
                assert_eq!(
                    (failure.number, failure.side),
                    (number, side),
                    "{name}: rejected at the wrong turn: {failure}"
                );
                assert!(
                    matches!(failure.error, PlayError::Illegal(_)),
                    "{name}: {failure}"
                );
                println!("{name}: {failure}");
            }
        }
        seen += 1;
    }
    assert_eq!(seen, 18, "4 example games and 14 violation games");
}

/// twomove fixture example-04.fen: "a position, not a game: stalemate under rule 7".
#[test]
fn example_4_is_stalemate_under_twomove_and_chess2() {
    let path = fixtures("twomove").join("example-04.fen");
    let text = fs::read_to_string(&path).expect("example-04.fen is readable");
    let fen = text
        .lines()
        .find(|line| !line.starts_with('#') && !line.trim().is_empty())
        .expect("a FEN line");
    for variant in BOTH {
        let game = start(variant, Some(fen));
        assert_eq!(game.state().phase(), Phase::TurnStart);
        assert!(!game.state().in_check());
        assert_end(&game, None, EndReason::Stalemate);
        assert_eq!(game.state().count_turns(game.rules()), 0);
        // White has legal chess moves, but none starts a whole turn.
        assert!(game.state().legal_first_moves(game.rules()).is_empty());
        assert_rejects_after_end(&game, "Kd2");
    }
    let chess = start(Variant::Chess, Some(fen));
    assert_not_over(&chess);
    allows(&chess, "Kd2");
}

// ---------------------------------------------------------------------------
// Fixtures

/// What a reference game's `# expect:` line says.
enum Expect {
    Ok { result: String },
    Illegal { number: u32, side: Color },
}

fn fixtures(family: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(family)
}

/// The files of a fixture directory with this extension, sorted by name.
fn fixture_files(family: &str, extension: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(fixtures(family))
        .expect("the fixture directory is readable")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    files.sort();
    files
}

/// The record of a fixture: every line that is not a `#` comment.
fn fixture_record(path: &Path) -> String {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|line| !line.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Reads `# expect: ok result=<r>` or `# expect: illegal turn=<n> <White|Black> ...`.
fn fixture_expect(path: &Path) -> Expect {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let line = text
        .lines()
        .find_map(|line| line.strip_prefix("# expect: "))
        .unwrap_or_else(|| panic!("{}: no expect line", path.display()));
    let mut words = line.split_whitespace();
    match words.next() {
        Some("ok") => {
            let result = words
                .find_map(|word| word.strip_prefix("result="))
                .unwrap_or("*");
            Expect::Ok {
                result: result.to_string(),
            }
        }
        Some("illegal") => {
            let number = words
                .next()
                .and_then(|word| word.strip_prefix("turn="))
                .and_then(|number| number.parse().ok())
                .unwrap_or_else(|| panic!("{}: bad turn in {line:?}", path.display()));
            let side = match words.next() {
                Some("White") => Color::White,
                Some("Black") => Color::Black,
                other => panic!("{}: bad side {other:?}", path.display()),
            };
            Expect::Illegal { number, side }
        }
        other => panic!("{}: bad expectation {other:?}", path.display()),
    }
}
