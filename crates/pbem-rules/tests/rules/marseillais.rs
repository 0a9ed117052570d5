//! Marseillais Chess (`marseillais`) and Balanced Marseillais Chess
//! (`balanced-marseillais`): docs/rules.md sections "marseillais" and
//! "balanced-marseillais".
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use common::{
    allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids, game, start,
};
use pbem_rules::{EndReason, Game, Illegal, Phase, Variant};
use shakmaty::{Color, Square};

/// Both variants of the family.
const BOTH: [Variant; 2] = [Variant::Marseillais, Variant::BalancedMarseillais];

/// "Two moves per turn, each legal by FIDE".
#[test]
fn two_moves_per_turn_each_legal_by_fide() {
    for variant in BOTH {
        let position = start(variant, Some("4k3/8/8/8/8/8/P6P/4K3 w - - 0 10"));
        assert_eq!(canonical(&position, "a3,h3"), "a3,h3");
        let error = forbids(
            &position,
            "a3",
            "a turn is two moves here, so a second move must follow",
        );
        assert!(matches!(error.reason, Illegal::SecondMoveRequired(_)));
        // The second move is judged in the position after the first.
        let pin = start(variant, Some("4r1k1/8/8/8/8/8/P3N3/3K4 w - - 0 10"));
        allows(&pin, "Ke1,a3");
        let error = forbids(
            &pin,
            "Ke1,Nc3",
            "2nd move Nc3: it would leave your king in check",
        );
        assert_eq!(error.reason, Illegal::LeavesKingInCheck);
    }
}

/// "the same piece may move twice".
#[test]
fn the_same_piece_may_move_twice() {
    for variant in BOTH {
        let black = game(variant, None, first_turn(variant));
        assert_eq!(canonical(&black, "Nf6,Ng4"), "Nf6,Ng4");
        assert_eq!(canonical(&black, "e6,e5"), "e6,e5");
        // Still each move must be possible: the knight cannot jump to e4.
        forbids(&black, "Nf6,Ne3", "2nd move Ne3: no knight can reach e3");
    }
}

/// "castling is one move".
#[test]
fn castling_is_one_move() {
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 10";
    for variant in BOTH {
        let castles = start(variant, Some(fen));
        // Castling and a second move by the same rook (or king).
        assert_eq!(canonical(&castles, "O-O,Rf1-e1"), "O-O,Rfe1");
        assert_eq!(canonical(&castles, "O-O-O,Kb1"), "O-O-O,Kb1");
        forbids(&castles, "O-O", "a turn is two moves here");
        forbids(
            &castles,
            "O-O,O-O-O",
            "cannot castle queenside: the king or that rook has moved",
        );
    }
}

/// "In balanced-marseillais White's first turn is a single move."
#[test]
fn balanced_marseillais_starts_with_a_single_move() {
    let balanced = Game::new(Variant::BalancedMarseillais);
    let after = allows(&balanced, "e4");
    assert_eq!(after.state().turn(), Color::Black);
    allows(&after, "e5,Nf6");
    forbids(&after, "e5", "a turn is two moves here");
    forbids(
        &balanced,
        "e4,d4",
        "2nd move d4: no second move is allowed: White's first turn is a single move",
    );
    // Plain Marseillais starts with two moves.
    let plain = Game::new(Variant::Marseillais);
    assert_eq!(canonical(&plain, "e4,d4"), "e4,d4");
    forbids(&plain, "e4", "a turn is two moves here");
}

/// "A first move that gives check ends the turn."
#[test]
fn a_first_move_that_checks_ends_the_turn() {
    for variant in BOTH {
        let position = start(variant, Some("4k3/8/8/8/8/8/7P/R3K3 w - - 0 10"));
        let checked = allows(&position, "Ra8+");
        assert_eq!(checked.state().turn(), Color::Black);
        assert_eq!(checked.state().phase(), Phase::TurnStart);
        forbids(
            &position,
            "Ra8+,h3",
            "2nd move h3: no second move is allowed: Ra8+ gives check, which ends the turn",
        );
        // A check with the second move is fine.
        assert_eq!(canonical(&position, "h3,Ra8+"), "h3,Ra8+");
        // A capture does not end the turn (unlike chess2).
        let capture = start(variant, Some("4k3/8/8/3p4/4P3/8/7P/4K3 w - - 0 10"));
        allows(&capture, "exd5,h3");
        forbids(&capture, "exd5", "a turn is two moves here");
    }
}

/// "A player in check must escape with the first move."
#[test]
fn a_check_must_be_met_with_the_first_move() {
    for variant in BOTH {
        let checked = start(variant, Some("4k3/8/8/8/8/8/P7/r3K3 w - - 0 10"));
        allows(&checked, "Kd2,a3");
        let error = forbids(
            &checked,
            "a3,Kd2",
            "1st move a3: your king is in check and this move does not end the check",
        );
        assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
    }
}

/// En passant: "a pawn that made its double step during the opponent's last turn ... on the first move".
#[test]
fn en_passant_on_the_first_move_after_the_opponents_turn() {
    let fen = "4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    for variant in BOTH {
        // The double step was the first move of Black's turn: not the very
        // last move, but still open.
        let first = game(variant, Some(fen), "d5,Kf7");
        assert_eq!(canonical(&first, "exd6,h3"), "exd6,h3");
        forbids(
            &first,
            "h3,exd6",
            "2nd move exd6: no pawn can capture on d6: the square is empty and en passant is not open now",
        );
        // The double step as the second move.
        let second = game(variant, Some(fen), "Kf7,d5");
        allows(&second, "exd6,h3");
        // Only during the opponent's *last* turn.
        let older = game(variant, Some(fen), "d5,Kf7 h3,Kd2 Ke8,Kf7");
        forbids(&older, "exd6,Ke3", "en passant is not open now");
    }
}

/// En passant: "and did not move again that turn".
#[test]
fn en_passant_not_after_the_pawn_moved_again() {
    for variant in BOTH {
        let moved_on = game(
            variant,
            Some("4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10"),
            "d5,d4",
        );
        forbids(
            &moved_on,
            "exd6,h3",
            "1st move exd6: no pawn can capture on d6",
        );
        allows(&moved_on, "e6,h3");
    }
}

/// En passant: "if two such pawns exist both may be taken, the second on the second move".
#[test]
fn two_double_steps_may_both_be_taken() {
    let fen = "4k3/2p1p3/8/3P1P2/8/8/7P/4K3 b - - 0 10";
    for variant in BOTH {
        let two = game(variant, Some(fen), "c5,e5");
        assert_eq!(canonical(&two, "dxc6,fxe6"), "dxc6,fxe6");
        assert_eq!(canonical(&two, "fxe6,dxc6"), "fxe6,dxc6");
        allows(&two, "dxc6,h3");
        // "Otherwise en passant is never the second move."
        forbids(&two, "h3,dxc6", "2nd move dxc6: no pawn can capture on c6");
        forbids(&two, "h3,fxe6", "2nd move fxe6: no pawn can capture on e6");
    }
}

/// "A first move after which no legal second move exists is not a complete turn".
#[test]
fn a_first_move_without_a_second_is_not_a_turn() {
    // White is in check from the pawn on g3. Ke1 escapes, but then the
    // knight is pinned by the rook on e8 and the king has no square.
    let fen = "k2rr3/8/8/8/8/6pb/4NK2/8 w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        assert_not_over(&position);
        allows(&position, "Kf3,Nc3");
        let error = forbids(
            &position,
            "Ke1",
            "Ke1: no legal second move can follow it, so it cannot start a turn",
        );
        assert_eq!(error.reason, Illegal::NoSecondMovePossible);
        forbids(
            &position,
            "Ke1,Nc3",
            "2nd move Nc3: it would leave your king in check",
        );
        let firsts = position.state().legal_first_moves(position.rules());
        assert!(
            firsts.iter().all(|first| first.m.to() != Square::E1),
            "Ke1 is offered as a first move"
        );
    }
    // In chess, Ke1 is a whole turn.
    allows(&start(Variant::Chess, Some(fen)), "Ke1");
}

/// "(published rule: this can be stalemate)".
#[test]
fn no_complete_turn_is_stalemate() {
    // White's only move, c3, leaves no second move: the king is boxed in.
    let fen = "8/8/8/8/2p5/6p1/2P2k2/7K w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(fen));
        assert_end(&position, None, EndReason::Stalemate);
        assert_rejects_after_end(&position, "c3");
        assert_eq!(position.state().count_turns(position.rules()), 0);
    }
    // With a second pawn to move, c3 starts a whole turn.
    let free = "8/8/8/8/2p5/6p1/P1P2k2/7K w - - 0 10";
    for variant in BOTH {
        let position = start(variant, Some(free));
        assert_not_over(&position);
        allows(&position, "c3,a4");
        forbids(&position, "c3", "a turn is two moves here");
    }
    // By FIDE rules c3 is a legal move.
    let chess = start(Variant::Chess, Some(fen));
    assert_not_over(&allows(&chess, "c3"));
}

/// White's first turn in each variant, to reach Black's first turn.
fn first_turn(variant: Variant) -> &'static str {
    match variant {
        Variant::BalancedMarseillais => "1.e4",
        _ => "1.e4,d4",
    }
}
