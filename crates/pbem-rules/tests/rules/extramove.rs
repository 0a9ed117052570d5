//! Extra Move Chess (`extramove`): docs/rules.md section "extramove".
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use common::{
    allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids, game, start,
};
use pbem_rules::variant::Forbidden;
use pbem_rules::{EndReason, FirstMoveKind, Game, Illegal, Phase, Variant};
use shakmaty::{Color, Role, Square};

const EXTRAMOVE: Variant = Variant::Extramove;

/// "White's first turn is one move."
#[test]
fn whites_first_turn_is_one_move() {
    let new = Game::new(EXTRAMOVE);
    assert_eq!(new.state().phase(), Phase::OpeningMove);
    let after = allows(&new, "e4");
    assert_eq!(after.state().turn(), Color::Black);
    forbids(
        &new,
        "e4,Nf3",
        "2nd move Nf3: no second move is allowed: White's first turn is a single move",
    );
}

/// "afterwards two moves per turn, the second optional".
#[test]
fn two_moves_per_turn_the_second_optional() {
    let black = game(EXTRAMOVE, None, "1.e4");
    let one = allows(&black, "Nf6");
    assert_eq!(one.state().turn(), Color::White);
    assert_eq!(one.state().phase(), Phase::TurnStart);
    assert_eq!(canonical(&black, "Nf6,Nc6"), "Nf6,Nc6");
    forbids(&black, "Nf6,Nc6,e6", "a turn has at most two moves");
    // A first move that checks does not end the turn: the seed allows a
    // check with both moves.
    let check = start(EXTRAMOVE, Some("4k3/8/8/8/8/8/7P/R3K3 w - - 0 10"));
    let both = allows(&check, "Ra8+,h3");
    assert_eq!(both.turns()[0].sans[0], "Ra8+");
    assert_eq!(both.state().turn(), Color::Black);
    assert_eq!(canonical(&check, "Ra8+"), "Ra8+");
}

/// "Each move legal by FIDE."
#[test]
fn each_move_is_legal_by_fide() {
    let pin = start(EXTRAMOVE, Some("4r1k1/8/8/8/8/8/P3N3/3K4 w - - 0 10"));
    allows(&pin, "Ke1,a3");
    let error = forbids(
        &pin,
        "Ke1,Nc3",
        "2nd move Nc3: it would leave your king in check",
    );
    assert_eq!(error.reason, Illegal::LeavesKingInCheck);
}

/// "The second move may not move the piece just moved".
#[test]
fn the_second_move_may_not_move_the_piece_just_moved() {
    let black = game(EXTRAMOVE, None, "1.e4");
    let error = forbids(
        &black,
        "Nf6,Ng4",
        "2nd move Ng4: the knight on f6 already moved this turn",
    );
    assert_eq!(
        error.reason,
        Illegal::Forbidden(Forbidden::SamePieceTwice {
            role: Role::Knight,
            square: Square::F6,
        })
    );
    allows(&black, "Nf6,Nc6");
}

/// "(after castling: neither king nor rook)".
#[test]
fn after_castling_neither_king_nor_rook_moves() {
    let castles = start(EXTRAMOVE, Some("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 10"));
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
}

/// "and may not capture".
#[test]
fn the_second_move_may_not_capture() {
    let position = start(EXTRAMOVE, Some("4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 10"));
    assert_eq!(canonical(&position, "Nxd5,Kd2"), "Nxd5,Kd2");
    let error = forbids(
        &position,
        "Kd2,Nxd5",
        "2nd move Nxd5: the second move of a turn may not capture",
    );
    assert_eq!(
        error.reason,
        Illegal::Forbidden(Forbidden::CaptureOnSecondMove)
    );
}

/// "(en passant included)" and "En passant is therefore only ever a first move."
#[test]
fn en_passant_only_as_a_first_move() {
    let fen = "4k3/3p4/8/4P3/8/8/7P/4K3 b - - 0 10";
    let position = game(EXTRAMOVE, Some(fen), "Kf7,d5");
    assert_eq!(canonical(&position, "exd6"), "exd6");
    assert_eq!(canonical(&position, "exd6,h3"), "exd6,h3");
    forbids(
        &position,
        "h3,exd6",
        "2nd move exd6: no pawn can capture on d6: the square is empty and en passant is not open now",
    );
}

/// "An unmoved pawn may advance two squares only on a second move, or on White's very first move."
#[test]
fn double_steps_only_on_a_second_move() {
    let black = game(EXTRAMOVE, None, "1.e4");
    let error = forbids(
        &black,
        "d5",
        "d5: a pawn may advance two squares only on a second move (or White's very first move)",
    );
    assert_eq!(error.reason, Illegal::DoubleStepNotAllowed);
    allows(&black, "d6");
    assert_eq!(canonical(&black, "Nf6,d5"), "Nf6,d5");
    let white = game(EXTRAMOVE, None, "1.e4 Nf6,d5");
    forbids(
        &white,
        "d4",
        "a pawn may advance two squares only on a second move",
    );
    allows(&white, "Nf3,d4");
    // Also from a FEN on White's first move.
    let first = start(EXTRAMOVE, Some("4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1"));
    allows(&first, "d4");
}

/// "A player in check must escape with the first move".
#[test]
fn a_check_must_be_met_with_the_first_move() {
    let checked = start(EXTRAMOVE, Some("4k3/8/8/8/8/8/P7/r3K3 w - - 0 10"));
    allows(&checked, "Kd2,a3");
    allows(&checked, "Kd2");
    let error = forbids(
        &checked,
        "a3,Kd2",
        "1st move a3: your king is in check and this move does not end the check",
    );
    assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
}

/// "if he cannot, he is mated".
#[test]
fn no_escape_with_the_first_move_is_mate() {
    let position = start(EXTRAMOVE, Some("r3k3/8/8/8/8/8/6PP/7K b - - 0 10"));
    let mated = allows(&position, "Ra1");
    assert_end(&mated, Some(Color::Black), EndReason::Checkmate);
    assert_eq!(mated.record(), "10...Ra1#");
    assert_rejects_after_end(&mated, "h3");
    // Another rook move leaves White a move.
    assert_not_over(&allows(&position, "Ra2"));
}

/// "Having no legal second move is not stalemate: the turn simply ends."
#[test]
fn no_second_move_is_not_stalemate() {
    // After c3 White has no move at all: in Marseillais that is stalemate.
    let fen = "8/8/8/8/2p5/6p1/2P2k2/7K w - - 0 10";
    let position = start(EXTRAMOVE, Some(fen));
    assert_not_over(&position);
    let firsts = position.state().legal_first_moves(position.rules());
    assert_eq!(firsts.len(), 1);
    assert_eq!(firsts[0].kind, FirstMoveKind::EndsTurn);
    let after = allows(&position, "c3");
    assert_eq!(after.state().turn(), Color::Black);
    forbids(&position, "c3,c4", "2nd move c4: no pawn can reach c4");
    let marseillais = start(Variant::Marseillais, Some(fen));
    assert_end(&marseillais, None, EndReason::Stalemate);
}

/// "You are stalemated if you have no moves available at the beginning of your turn" (seed rule 5).
#[test]
fn no_move_at_the_start_of_a_turn_is_stalemate() {
    let stalemated = start(EXTRAMOVE, Some("7k/5Q2/6K1/8/8/8/8/8 b - - 0 10"));
    assert_end(&stalemated, None, EndReason::Stalemate);
    assert_rejects_after_end(&stalemated, "Kg8");
    let position = start(EXTRAMOVE, Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 10"));
    assert_end(&allows(&position, "Qf7"), None, EndReason::Stalemate);
    assert_not_over(&allows(&position, "Qf2,Kh6"));
}
