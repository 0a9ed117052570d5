//! The three points docs/rules.md settled after an independent reference was
//! written (issue 16; its sections "doublestep" and "twinmove-free"): a
//! doublestep is one move, legal by the position it leaves; en passant of a
//! doublestepper is judged as though its second step had not been taken;
//! twinmove-free begins with a pawn move.
//!
//! Each test plays turns the rule allows and turns it forbids (checking the
//! reason), and, where the point changes whether a position is mate, checks
//! `Game::end`.

use crate::common;

use common::{allows, assert_end, assert_not_over, canonical, forbids, game, start};
use pbem_rules::variant::Forbidden;
use pbem_rules::{EndReason, Game, Illegal, Variant};
use shakmaty::{Color, Position, Square};

/// Both doublestep variants.
const BOTH: [Variant; 2] = [Variant::Doublestep, Variant::Doubletime];

/// The rook on h5 checks the king on a5 along the fifth rank.
const CHECK_ON_THE_FIFTH: &str = "7k/8/8/K6r/8/4P3/8/8 w - - 0 10";
/// The queen on e2 is pinned to the king by the rook on e8.
const PINNED_QUEEN: &str = "4r2k/8/8/8/8/8/4Q3/4K3 w - - 0 10";
/// The knight on e2 is pinned to the king by the rook on e8.
const PINNED_KNIGHT: &str = "4r1k1/8/8/8/8/8/P2PNP2/4K3 w - - 0 10";
/// White is in check from the rook on e8; Rb5-e5 and Ng1-e2 block it.
const CHECKED: &str = "4r1k1/8/8/1R6/8/8/8/4K1N1 w - - 0 10";
/// The rook on a8 checks the king on a1, whose flight squares the pawns
/// cover; only the knight can block, and only in two steps (via c5 to a4
/// or a6). Mate if each step had to be legal on its own.
const BLOCK_IN_TWO: &str = "r6k/8/8/8/4N3/2p5/2p5/K7 w - - 0 10";
/// Rooks facing each other on the a-file.
const ROOKS_ON_A: &str = "r6k/8/8/8/8/8/8/R6K w - - 0 10";
/// The rook on e8 looks down the e-file at the pawn on e2 (the pawns on
/// a2 and b2 and the rook on b1 keep the king safe in doubletime, where a
/// lone king against a rook is mate; the black pawns do the same for the
/// black king).
const ROOK_ON_E8: &str = "4r2k/6pp/8/8/8/8/PP2P3/KR6 w - - 0 10";
/// The rook on d8 attacks d1 (and the d-file).
const ROOK_ON_D_FILE: &str = "3rk3/8/8/8/8/2N5/PPP2PPP/4K3 w - - 0 10";

// ---------------------------------------------------------------------------
// 1. A doublestep is one move, legal by the position it leaves.

/// "`e3-e4-e5` may block a check on the fifth rank just as `e2-e4` blocks
/// one on the fourth."
#[test]
fn a_doublestep_may_block_a_check_with_its_second_step() {
    for variant in BOTH {
        let checked = start(variant, Some(CHECK_ON_THE_FIFTH));
        assert!(checked.state().in_check());
        assert_eq!(canonical(&checked, "e3-e4-e5"), "e3-e4-e5");
        let error = forbids(
            &checked,
            "e4",
            "your king is in check and this move does not end the check",
        );
        assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
    }
    // The king's own steps are judged as before (in doubletime the rook
    // reaches every square around the king in two steps).
    allows(&start(Variant::Doublestep, Some(CHECK_ON_THE_FIFTH)), "Kb4");
}

/// "a pinned piece may step off its line and back on".
#[test]
fn a_pinned_piece_may_step_off_its_line_and_back() {
    for variant in BOTH {
        let queen = start(variant, Some(PINNED_QUEEN));
        // (In doubletime the queen checks by Qe4-e5xh8 or Qe4-d5xh8 too.)
        let bare = |text: String| text.trim_end_matches('+').to_string();
        assert_eq!(bare(canonical(&queen, "Qe2-d3-e4")), "Qe2-d3-e4");
        assert_eq!(bare(canonical(&queen, "Qe2-f3-e3")), "Qe2-f3-e3");
        // A single step off the line leaves the king in check.
        let error = forbids(&queen, "Qd3", "it would leave your king in check");
        assert_eq!(error.reason, Illegal::LeavesKingInCheck);
        // So does a doublestep that ends off the line: the whole move is
        // judged, not its second step.
        let error = forbids(&queen, "Qe2-d3-c4", "it would leave your king in check");
        assert_eq!(error.reason, Illegal::LeavesKingInCheck);
        let knight = start(variant, Some(PINNED_KNIGHT));
        assert_eq!(bare(canonical(&knight, "Ne2-g3-e4")), "Ne2-g3-e4");
        assert_eq!(bare(canonical(&knight, "Ne2-c3-e4")), "Ne2-c3-e4");
        forbids(&knight, "Ne2-g3-h5", "it would leave your king in check");
    }
}

/// In check, the doublestep as a whole must end the check; the first step
/// need not.
#[test]
fn in_check_the_whole_doublestep_must_end_the_check() {
    for variant in BOTH {
        let checked = start(variant, Some(CHECKED));
        allows(&checked, "Rb5-e5-e4");
        allows(&checked, "Rb5-b2-e2");
        allows(&checked, "Ne2");
        let error = forbids(
            &checked,
            "Ng1-e2-c3",
            "your king is in check and this move does not end the check",
        );
        assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
        let error = forbids(
            &checked,
            "Rb5-b2-c2",
            "your king is in check and this move does not end the check",
        );
        assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
        // A step that is no move of the piece is still named.
        forbids(
            &checked,
            "Rb5-b1-e1",
            "second step: the rook on b1 cannot move to e1",
        );
    }
}

/// A check that only a doublestep's second step can meet is no mate: "in
/// doubletime, what counts as check follows from the same reading".
#[test]
fn a_check_met_only_by_a_second_step_is_not_mate() {
    for variant in BOTH {
        let checked = start(variant, Some(BLOCK_IN_TWO));
        assert_not_over(&checked);
        assert!(checked.state().in_check());
        let state = checked.state();
        let turns: Vec<String> = state
            .legal_turns(checked.rules())
            .iter()
            .map(|turn| state.turn_text(checked.rules(), turn))
            .collect();
        assert_eq!(turns, ["Ne4-c5-a4", "Ne4-c5-a6"], "{variant}");
        assert_eq!(state.count_turns(checked.rules()), 2);
        allows(&checked, "Ne4-c5-a6");
        forbids(
            &checked,
            "Nc5",
            "your king is in check and this move does not end the check",
        );
        // Without the knight it is mate.
        let mate = start(variant, Some("r6k/8/8/8/8/2p5/2p5/K7 w - - 0 10"));
        assert_end(&mate, Some(Color::Black), EndReason::Checkmate);
    }
}

/// "The king's own doublesteps are the exception": a king still may not
/// doublestep through an attacked square, nor end on one.
#[test]
fn the_king_still_may_not_pass_an_attacked_square() {
    for variant in BOTH {
        let watched = start(variant, Some(ROOK_ON_D_FILE));
        allows(&watched, "Ke1-f1-g1");
        let error = forbids(
            &watched,
            "Ke1-d1-c1",
            "the king may not doublestep through d1",
        );
        assert_eq!(
            error.reason,
            Illegal::KingPassesCheck { square: Square::D1 }
        );
    }
    // Nor may it end on one: d2 is attacked by the rook (and in doubletime
    // e2 is in check through Rd8-d2xe2).
    let doublestep = start(Variant::Doublestep, Some(ROOK_ON_D_FILE));
    let error = forbids(
        &doublestep,
        "Ke1-e2-d2",
        "it would leave your king in check",
    );
    assert_eq!(error.reason, Illegal::LeavesKingInCheck);
    let doubletime = start(Variant::Doubletime, Some(ROOK_ON_D_FILE));
    let error = forbids(
        &doubletime,
        "Ke1-f1-e2",
        "it would leave your king in check",
    );
    assert_eq!(error.reason, Illegal::LeavesKingInCheck);
}

// ---------------------------------------------------------------------------
// 2. En passant as though the second step had not been taken.

/// "`1.Ra1-a4-a6 Ra8xa4` ... legal": the doublestepper no longer blocks
/// the path to the square it passed.
#[test]
fn a_doublestepper_blocking_the_path_may_still_be_taken() {
    for variant in BOTH {
        let passed = game(variant, Some(ROOKS_ON_A), "Ra1-a4-a6");
        let taken = allows(&passed, "Ra8xa4");
        // (In doubletime a lone king against a rook is mate.)
        let text = taken.turns().last().map(|t| t.text()).unwrap_or_default();
        assert_eq!(text.trim_end_matches(['+', '#']), "Rxa4");
        let board = taken.state().pos().board();
        assert_eq!(board.piece_at(Square::A6), None, "the rook is taken");
        assert_eq!(board.piece_at(Square::A4), Some(Color::Black.rook()));
        // No quiet move onto a4 exists: the rook on a6 stands in the way.
        forbids(&passed, "Ra8-a5", "the rook on a8 cannot move to a5");
        // A pawn's two-square advance likewise.
        let advanced = game(variant, Some(ROOK_ON_E8), "e2-e4");
        let taken = allows(&advanced, "Re8xe3");
        assert_eq!(taken.turns().last().map(|t| t.text()), Some("Rxe3".into()));
        assert_eq!(taken.state().pos().board().piece_at(Square::E4), None);
        // Only on the very next move.
        let later = game(variant, Some(ROOK_ON_E8), "e2-e4 Kg8 b3");
        forbids(&later, "Re8xe3", "");
    }
}

/// Doubletime: a doublestep that captured leaves the piece it took on its
/// square "as though the second step had not been taken", so that piece
/// still blocks the path (and cannot free itself).
#[test]
fn in_doubletime_the_piece_taken_still_blocks_the_path() {
    let taken = game(
        Variant::Doubletime,
        Some("r6k/8/n7/8/8/8/8/R6K w - - 0 10"),
        "Ra1-a4xa6",
    );
    forbids(&taken, "Ra8xa4", "");
    // With nothing taken on a6 the rook may.
    let quiet = game(
        Variant::Doubletime,
        Some("r6k/8/8/8/8/8/8/R6K w - - 0 10"),
        "Ra1-a4-a6",
    );
    allows(&quiet, "Ra8xa4");
}

// ---------------------------------------------------------------------------
// 3. twinmove-free: the game begins with a pawn move.

/// "White's first turn is a pawn move followed by a piece move (Black's
/// first turn is free)."
#[test]
fn twinmove_free_begins_with_a_pawn_move() {
    let new = Game::new(Variant::TwinmoveFree);
    let error = forbids(
        &new,
        "Nf3",
        "White's first turn begins with a pawn move in Twinmove (uncompelled): write a pawn move and a piece move, like e4,Nf3",
    );
    assert_eq!(
        error.reason,
        Illegal::Forbidden(Forbidden::FirstTurnPawnMove)
    );
    forbids(&new, "Nf3,e4", "White's first turn begins with a pawn move");
    allows(&new, "e4,Nf3");
    forbids(&new, "e4", "a pawn move must be followed by a piece move");
    // Black's first turn is free, and so is every later turn.
    let black = game(Variant::TwinmoveFree, None, "1.e4,Nf3");
    assert_eq!(canonical(&black, "Nf6"), "Nf6");
    let second = game(Variant::TwinmoveFree, None, "1.e4,Nf3 Nf6");
    assert_eq!(canonical(&second, "Nc3"), "Nc3");
    // From a FEN with White to play move 1, the first turn is White's first.
    let from_fen = start(Variant::TwinmoveFree, Some(common::START_FEN));
    forbids(
        &from_fen,
        "Nf3",
        "White's first turn begins with a pawn move",
    );
    // Later positions are free.
    let later = start(
        Variant::TwinmoveFree,
        Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 5"),
    );
    allows(&later, "Nf3");
    // Only in twinmove-free: twinmove's own rule says the same with its
    // own reason, and no other variant minds.
    forbids(
        &Game::new(Variant::Twinmove),
        "Nf3",
        "a pawn move is compulsory while one exists",
    );
    for variant in [Variant::Doublemove, Variant::Chess, Variant::Doublestep] {
        allows(&Game::new(variant), "Nf3");
    }
    // 20 first moves times their piece moves: as in twinmove.
    let count = |variant: Variant| {
        let game = Game::new(variant);
        game.state().count_turns(game.rules())
    };
    assert_eq!(count(Variant::TwinmoveFree), count(Variant::Twinmove));
}

/// The help texts state the three points.
#[test]
fn the_help_texts_state_the_settled_points() {
    let words = |variant: Variant| {
        variant
            .help()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    for variant in BOTH {
        let help = words(variant);
        for phrase in [
            "A doublestep is one move, legal by the position it leaves",
            "as though the second step had not been taken",
            "The king's own doublestep is the exception",
        ] {
            assert!(help.contains(phrase), "{variant}: {phrase:?} in {help}");
        }
    }
    let doublestep = words(Variant::Doublestep);
    assert!(doublestep.contains("e3-e4-e5 may block a check on the fifth rank"));
    assert!(doublestep.contains("1.Ra1-a4-a6, Ra8xa4 is legal"));
    assert!(words(Variant::Doubletime).contains("a check may be met by a second step"));
    assert!(words(Variant::TwinmoveFree).contains(
        "White's first turn is a pawn move followed by a piece move (e4,Nf3); 1.Nf3 alone is not allowed"
    ));
}
