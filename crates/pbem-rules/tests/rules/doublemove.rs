//! Doublemove Chess under the AISE rules (`doublemove`) and under Galvin's
//! original regulations (`doublemove-classic`): docs/rules.md sections
//! "doublemove" and "doublemove-classic". The king-capture rules they share
//! with other variants are in `common_ground.rs`.
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use std::path::Path;

use common::{
    allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids, game,
    play_record, start,
};
use pbem_rules::variant::Forbidden;
use pbem_rules::{EndReason, FirstMoveKind, Game, Illegal, Phase, Variant};
use shakmaty::{Color, Position, Square};

/// Both rule sets.
const BOTH: [Variant; 2] = [Variant::Doublemove, Variant::DoublemoveClassic];

/// White's pieces on the king side cannot move at all; only the pawn on a2
/// can, to a3 (the black pawn on a4 blocks it then).
const ONE_MOVE_LEFT: &str = "4k3/8/8/8/p3p1p1/3pPpPp/P2P1PRP/5NBK w - - 0 10";
/// As [`ONE_MOVE_LEFT`], with the black pawn on a5: a3 can be followed by a4.
const TWO_MOVES_LEFT: &str = "4k3/8/8/p7/4p1p1/3pPpPp/P2P1PRP/5NBK w - - 0 10";
/// White can move only the king to g1 (and then only back to h1) or the
/// rook to g1 (and then the king to g2, or the rook back).
const ONLY_BACK: &str = "4k3/8/8/8/4p1p1/3pPpPp/3P1PRP/5N1K w - - 0 10";

/// "White starts with one move".
#[test]
fn white_starts_with_one_move() {
    for variant in BOTH {
        let new = Game::new(variant);
        assert_eq!(new.state().phase(), Phase::OpeningMove);
        let after = allows(&new, "Nc3");
        assert_eq!(after.state().turn(), Color::Black);
        forbids(
            &new,
            "Nc3,e3",
            "2nd move e3: no second move is allowed: White's first turn is a single move",
        );
    }
}

/// "then two moves per turn; the same piece may move twice".
#[test]
fn two_moves_per_turn_the_same_piece_may_move_twice() {
    for variant in BOTH {
        let black = game(variant, None, "1.Nc3");
        assert_eq!(canonical(&black, "Nc6,e6"), "Nc6,e6");
        assert_eq!(canonical(&black, "Nc6,Ne5"), "Nc6,Ne5");
        let error = forbids(
            &black,
            "Nc6",
            "Nc6: a turn is two moves here, so a second move must follow",
        );
        assert!(matches!(error.reason, Illegal::SecondMoveRequired(_)));
    }
}

/// "King capture, check ignored": no check signs, checks may be ignored, the king is taken.
#[test]
fn check_is_ignored_and_the_king_is_captured() {
    for variant in BOTH {
        let opening = game(variant, None, "1.e4 e6,d6");
        // Bb5 "checks", but no sign is written and Black need not react.
        let checked = allows(&opening, "Bb5,Nf3");
        assert_eq!(checked.record(), "1.e4 e6,d6 2.Bb5,Nf3");
        let ignored = allows(&checked, "Nf6,Be7");
        let won = allows(&ignored, "Bxe8");
        assert_end(&won, Some(Color::White), EndReason::KingCaptured);
        assert_rejects_after_end(&won, "Nxe8,a6");
        forbids(
            &ignored,
            "Bxe8,O-O",
            "Bxe8 captures the king and ends the game",
        );
    }
}

/// doublemove: "no en passant".
#[test]
fn doublemove_has_no_en_passant() {
    let fen = "4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    for record in ["d5,Kf7", "Kf7,d5"] {
        let position = game(Variant::Doublemove, Some(fen), record);
        forbids(
            &position,
            "exd6,h3",
            "1st move exd6: no pawn can capture on d6: the square is empty and en passant is not open now",
        );
        allows(&position, "e6,h3");
    }
}

/// "If a first move leaves no second move at all, the turn ends after it."
#[test]
fn a_first_move_without_a_second_ends_the_turn() {
    for variant in BOTH {
        let position = start(variant, Some(ONE_MOVE_LEFT));
        let firsts = position.state().legal_first_moves(position.rules());
        assert_eq!(firsts.len(), 1);
        assert_eq!(firsts[0].kind, FirstMoveKind::EndsTurn);
        let after = allows(&position, "a3");
        assert_eq!(after.state().turn(), Color::Black);
        assert_eq!(after.state().phase(), Phase::TurnStart);
        assert_not_over(&after);
        // When a second move exists, it is compulsory.
        let two = start(variant, Some(TWO_MOVES_LEFT));
        allows(&two, "a3,a4");
        forbids(
            &two,
            "a3",
            "a turn is two moves here, so a second move must follow",
        );
    }
}

/// doublemove: the same piece may also move away and back (AISE abolished Galvin's rule).
#[test]
fn doublemove_allows_a_turn_that_changes_nothing() {
    let knight = start(
        Variant::Doublemove,
        Some("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 10"),
    );
    let after = allows(&knight, "Nd4,Nf3");
    assert_eq!(
        after.fen().split(' ').next(),
        Some("4k3/8/8/4p3/8/5N2/8/4K3")
    );
    let only_back = start(Variant::Doublemove, Some(ONLY_BACK));
    assert_not_over(&allows(&only_back, "Kg1,Kh1"));
    forbids(&only_back, "Kg1", "a turn is two moves here");
}

/// doublemove-classic: "a piece may not move away and back to its square in one turn unless the first move captured".
#[test]
fn classic_a_piece_may_not_move_away_and_back() {
    let fen = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 10";
    let knight = start(Variant::DoublemoveClassic, Some(fen));
    let error = forbids(
        &knight,
        "Nd4,Nf3",
        "2nd move Nf3: a piece may not return to f3, the square it left this turn, unless the first move captured",
    );
    assert_eq!(
        error.reason,
        Illegal::Forbidden(Forbidden::ReturnToStart { square: Square::F3 })
    );
    forbids(&knight, "Ke2,Ke1", "a piece may not return to e1");
    assert_eq!(canonical(&knight, "Nd4,Nb5"), "Nd4,Nb5");
    // Unless the first move captured.
    assert_eq!(canonical(&knight, "Nxe5,Nf3"), "Nxe5,Nf3");
    // Decision (help text): also for a pawn that promoted on the first move.
    let promotion = "4k3/P7/8/8/8/8/8/4K3 w - - 0 10";
    let classic = start(Variant::DoublemoveClassic, Some(promotion));
    forbids(&classic, "a8=Q,Qa7", "a piece may not return to a7");
    allows(&classic, "a8=Q,Qb7");
    allows(&start(Variant::Doublemove, Some(promotion)), "a8=Q,Qa7");
}

/// doublemove-classic: "a first move that leaves only forbidden second moves draws the game".
#[test]
fn classic_only_forbidden_second_moves_draw() {
    let classic = start(Variant::DoublemoveClassic, Some(ONLY_BACK));
    let drawn = allows(&classic, "Kg1");
    assert_end(&drawn, None, EndReason::NoPermittedSecondMove);
    assert_rejects_after_end(&drawn, "Kd7,Ke8");
    forbids(&classic, "Kg1,Kh1", "a piece may not return to h1");
    // Another first move leaves a permitted second move: no draw.
    let played = allows(&classic, "Rg1,Kg2");
    assert_not_over(&played);
    forbids(&classic, "Rg1", "a turn is two moves here");
    // With no second move at all, the turn simply ends (not a draw).
    let one_left = start(Variant::DoublemoveClassic, Some(ONE_MOVE_LEFT));
    assert_not_over(&allows(&one_left, "a3"));
}

/// doublemove-classic: "en passant is allowed when a pawn double-stepped and did not move again that turn".
#[test]
fn classic_en_passant_after_a_double_step() {
    let fen = "4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    // With the first or the second move of Black's turn.
    for record in ["d5,Kf7", "Kf7,d5"] {
        let position = game(Variant::DoublemoveClassic, Some(fen), record);
        assert_eq!(canonical(&position, "exd6,h3"), "exd6,h3", "{record}");
    }
    // Not once the pawn moved on.
    let moved_on = game(Variant::DoublemoveClassic, Some(fen), "d5,d4");
    forbids(&moved_on, "exd6,h3", "no pawn can capture on d6");
    allows(&moved_on, "e6,h3");
}

/// doublemove-classic: "the passed square is empty".
#[test]
fn classic_en_passant_needs_an_empty_passed_square() {
    let fen = "4kq2/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    let blocked = game(Variant::DoublemoveClassic, Some(fen), "d5,Qd6");
    let firsts = blocked.state().legal_first_moves(blocked.rules());
    assert!(!firsts.iter().any(|first| first.m.is_en_passant()));
    // exd6 takes the queen on d6; the pawn on d5 stays.
    let after = allows(&blocked, "exd6,h3");
    let board = after.state().pos().board();
    assert_eq!(board.piece_at(Square::D5), Some(Color::Black.pawn()));
    assert_eq!(board.piece_at(Square::D6), Some(Color::White.pawn()));
    // With the square empty, the same capture is en passant.
    let open = game(Variant::DoublemoveClassic, Some(fen), "d5,Qe7");
    let after = allows(&open, "exd6,h3");
    assert_eq!(after.state().pos().board().piece_at(Square::D5), None);
    forbids(&blocked, "exd5,h3", "no pawn can reach d5");
}

/// doublemove-classic: "and the capture is the first move of the opponent's next turn".
#[test]
fn classic_en_passant_only_as_the_next_first_move() {
    let fen = "4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    let position = game(Variant::DoublemoveClassic, Some(fen), "d5,Kf7");
    forbids(
        &position,
        "h3,exd6",
        "2nd move exd6: no pawn can capture on d6: the square is empty and en passant is not open now",
    );
    let later = game(
        Variant::DoublemoveClassic,
        Some(fen),
        "d5,Kf7 h3,Kd2 Ke8,Kd8",
    );
    forbids(&later, "exd6,Ke3", "en passant is not open now");
}

/// The seed's sample game (R. Salvadori - A. Castelli, 1995) in its own
/// notation: `//`, `/`, `:` and `000`, printed back in canonical SAN.
#[test]
fn the_seed_game_replays_in_its_own_notation() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/doublemove/salvadori-castelli-1995.txt");
    let text = std::fs::read_to_string(path).expect("the seed game is readable");
    for variant in BOTH {
        let mut game = Game::new(variant);
        if let Err(failure) = play_record(&mut game, &text) {
            panic!("{variant}: {failure}");
        }
        assert_eq!(
            game.record(),
            "1.Nc3 Nc6,e6 2.Nf3,e3 Bb4,b6 3.Ba6,Bxc8 Qxc8,Nf6 4.Ne4,c3 Nxe4,Qa6 \
             5.Qe2,Qxa6 Nb8,Nxa6 6.Ng5,Nxe4 d5,dxe4 7.cxb4,Ke2 Nxb4,O-O-O 8.Rb1,d4 Rxd4,Nc2"
        );
        assert_not_over(&game);
    }
}
