//! Doublestep Chess (`doublestep`) and Doubletime Chess (`doubletime`):
//! docs/rules.md sections "doublestep" and "doubletime", and the worked lines of
//! the seed page (the doubletime K+P endgame, the king taken and freed).
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use common::{
    allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids, game, start,
};
use pbem_rules::variant::{Forbidden, MovesPerTurn};
use pbem_rules::{EndReason, Game, Illegal, Phase, Variant};
use shakmaty::{Color, Position, Square};

/// Both variants.
const BOTH: [Variant; 2] = [Variant::Doublestep, Variant::Doubletime];

/// The seed's doubletime endgame: White Ke1, Pe2 against Black Ke8.
const KP_ENDGAME: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// The seed's line in that endgame up to 3.Kd3-c4+.
const KP_LINE: &str = "1.Ke1-d2-d3 Ke8-d7-d6 2.e2-e3-e4+ Kd6-e6 3.Kd3-c4+";
/// The bishop on a5 attacks c3, where the knight on b1 passes to e4.
const BISHOP_WATCHES_C3: &str = "k7/8/8/b7/8/8/8/1N5K w - - 0 10";
/// A black pawn on e4 that the knight on b1 can take via c3.
const PAWN_ON_E4: &str = "4k3/4p3/8/8/4p3/8/6PP/1N4BK w - - 0 10";
/// The black knight on e4 can take the knight on c3.
const KNIGHTS: &str = "4k3/8/8/8/4n3/2N5/6PP/6BK b - - 0 10";
/// The knight on e2 is pinned to the king by the rook on e8.
const PINNED: &str = "4r1k1/8/8/8/8/8/P2PNP2/4K3 w - - 0 10";
/// White is in check from the rook on e8; Rb5-e5 and Ng1-e2 block it.
const CHECKED: &str = "4r1k1/8/8/1R6/8/8/8/4K1N1 w - - 0 10";
/// The rook on d8 attacks d1 (and the d-file); the knight on c3 covers d1.
const ROOK_ON_D_FILE: &str = "3rk3/8/8/8/8/2N5/PPP2PPP/4K3 w - - 0 10";
/// Rc2-a2-a8 mates on the back rank.
const BACK_RANK: &str = "6k1/2p2ppp/8/8/8/8/2R5/6K1 w - - 0 10";
/// As [`BACK_RANK`], with a bishop on e6 that attacks a2.
const BACK_RANK_EP: &str = "6k1/2p2ppp/4b3/8/8/8/2R5/6K1 w - - 0 10";
/// Ne4-f6xe8 takes the king; only the knight on g8 attacks f6, and it may
/// not free the king: the rook on h8 would then attack it. After
/// Ne4-d6xe8, c7xd6 frees it.
const PINNED_RESCUER: &str = "4k1nR/2p5/8/8/4N3/8/8/4K3 w - - 0 10";
/// Rh1-h7xh8 takes the h8 rook, which had castling rights; the knight on
/// f8 can free it by en passant on h7.
const HELD_ROOK: &str = "r3kn1r/ppp2pp1/8/8/8/8/PPP2PP1/R3K2R w KQkq - 0 10";

/// The registry: ids, names and the shape of a turn.
#[test]
fn the_variants_are_registered() {
    for (variant, id) in [
        (Variant::Doublestep, "doublestep"),
        (Variant::Doubletime, "doubletime"),
    ] {
        assert_eq!(variant.id(), id);
        assert_eq!(id.parse::<Variant>(), Ok(variant));
        assert_eq!(variant.rules().variant(), variant);
        assert_eq!(
            variant.rules().moves_per_turn(),
            MovesPerTurn::OneOrDoublestep
        );
        assert!(variant.help().contains("Nb1-c3-e4"));
    }
}

// ---------------------------------------------------------------------------
// doublestep (and doubletime, which is "as doublestep")

/// "One move per turn, as in chess, but any piece may make a doublestep:
/// two non-capturing steps by the same piece, each a legal move of that
/// piece from where it stands (`Nb1-c3-e4`)."
#[test]
fn any_piece_may_step_twice_in_one_move() {
    for variant in BOTH {
        let new = Game::new(variant);
        assert_eq!(new.state().phase(), Phase::TurnStart);
        let after = allows(&new, "Nb1-c3-e4");
        assert_eq!(after.record(), "1.Nb1-c3-e4");
        assert_eq!(
            after.turns()[0].turn.moves().len(),
            2,
            "played as two steps"
        );
        assert_eq!(after.state().turn(), Color::Black);
        assert_eq!(
            after.state().pos().board().piece_at(Square::E4),
            Some(Color::White.knight())
        );
        // A single step is a whole turn too.
        assert_eq!(canonical(&new, "Nc3"), "Nc3");
        assert_eq!(canonical(&new, "Nb1c3"), "Nc3");
        // One move per turn: the steps are written as one move.
        let error = forbids(
            &new,
            "Nc3,Ne4",
            "a turn is one move; write a doublestep as one move in long form, like Nb1-c3-e4",
        );
        assert_eq!(error.reason, Illegal::OneMovePerTurn);
        forbids(&new, "e4,e5", "a turn is one move");
        // Each step must be a move of that piece.
        let error = forbids(
            &new,
            "Nb1-c3-c5",
            "second step: the knight on c3 cannot move to c5",
        );
        assert!(matches!(error.reason, Illegal::SecondStep(_)));
        forbids(
            &new,
            "Nb1-b3-c5",
            "first step: the knight on b1 cannot move to b3",
        );
    }
}

/// "two non-capturing steps" (doublestep); in doubletime "the second step
/// may capture (the first step never)".
#[test]
fn which_steps_may_capture() {
    let doublestep = start(Variant::Doublestep, Some(PAWN_ON_E4));
    allows(&doublestep, "Nb1-c3-d5");
    let error = forbids(
        &doublestep,
        "Nb1-c3xe4",
        "second step: a doublestep may not capture in Doublestep chess (its second step may in Doubletime)",
    );
    assert_eq!(
        error.reason,
        Illegal::SecondStep(Box::new(Illegal::Forbidden(Forbidden::DoublestepCaptures)))
    );
    let doubletime = start(Variant::Doubletime, Some(PAWN_ON_E4));
    assert_eq!(canonical(&doubletime, "Nb1-c3xe4"), "Nb1-c3xe4");
    assert_eq!(canonical(&doubletime, "Nb1-c3-e4"), "Nb1-c3xe4");
    for variant in BOTH {
        // The black knight captures first, then tries to go on.
        let black = start(variant, Some(KNIGHTS));
        assert_eq!(canonical(&black, "Nxc3"), "Nxc3");
        let error = forbids(
            &black,
            "Ne4xc3-b1",
            "no second step may follow: the first step of a doublestep may not capture",
        );
        assert!(matches!(error.reason, Illegal::NoSecondStep(_)));
    }
}

/// Each step is a move of that piece from where it stands; the king's
/// safety is judged on the position the whole doublestep leaves (see
/// `settled.rs` for that reading in full).
#[test]
fn each_step_is_a_move_of_the_piece() {
    for variant in BOTH {
        // The pinned knight may step off the e-file if it comes back.
        let pinned = start(variant, Some(PINNED));
        allows(&pinned, "Kd1");
        allows(&pinned, "Ne2-g3-e4");
        let error = forbids(&pinned, "Ne2-g3-h5", "it would leave your king in check");
        assert_eq!(error.reason, Illegal::LeavesKingInCheck);
        // In check, the whole doublestep must end the check.
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
            "Rb5-b1-e1",
            "second step: the rook on b1 cannot move to e1",
        );
        assert!(matches!(error.reason, Illegal::SecondStep(_)));
    }
}

/// "The second step may not return to the start square."
#[test]
fn no_return_to_the_start_square() {
    for variant in BOTH {
        let new = Game::new(variant);
        allows(&new, "Ng1-f3-g5");
        let error = forbids(
            &new,
            "Ng1-f3-g1",
            "second step: a doublestep may not return to g1, its starting square (that would be no move)",
        );
        assert_eq!(
            error.reason,
            Illegal::SecondStep(Box::new(Illegal::Forbidden(Forbidden::DoublestepReturns {
                square: Square::G1
            })))
        );
    }
}

/// "A pawn's ordinary two-square advance already is its doublestep (no
/// `e2-e4-e5`; `e3-e4-e5` is legal)."
#[test]
fn a_pawn_advance_already_is_its_doublestep() {
    for variant in BOTH {
        let new = Game::new(variant);
        let error = forbids(
            &new,
            "e2-e4-e5",
            "no second step may follow: a pawn's two-square advance already is its doublestep",
        );
        assert_eq!(
            error.reason,
            Illegal::NoSecondStep("a pawn's two-square advance already is its doublestep")
        );
        // e2-e3-e4 is the two-square advance itself.
        assert_eq!(canonical(&new, "e2-e3-e4"), "e4");
        assert_eq!(
            new.state().count_turns(new.rules()),
            32,
            "16 pawn moves, 4 knight steps, 12 knight doublesteps"
        );
        let later = game(variant, None, "1.e3 a6");
        assert_eq!(canonical(&later, "e3-e4-e5"), "e3-e4-e5");
        forbids(
            &later,
            "e3-e4-e6",
            "second step: the pawn on e4 cannot move to e6",
        );
    }
}

/// doubletime (decision): a pawn may step off its starting square and
/// capture with its second step; only a second step forward duplicates the
/// two-square advance.
#[test]
fn a_pawn_may_step_then_capture_in_doubletime() {
    let fen = "4k3/8/8/8/2bp4/8/4P3/4K3 w - - 0 10";
    let doubletime = start(Variant::Doubletime, Some(fen));
    assert_eq!(canonical(&doubletime, "e2-e3xd4"), "e2-e3xd4");
    let doublestep = start(Variant::Doublestep, Some(fen));
    let error = forbids(
        &doublestep,
        "e2-e3xd4",
        "second step: a doublestep may not capture in Doublestep chess",
    );
    assert_eq!(
        error.reason,
        Illegal::SecondStep(Box::new(Illegal::Forbidden(Forbidden::DoublestepCaptures)))
    );
}

/// "Castling already is the king's doublestep."
#[test]
fn castling_already_is_the_kings_doublestep() {
    for variant in BOTH {
        let castles = start(
            variant,
            Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 10"),
        );
        assert_eq!(canonical(&castles, "O-O"), "O-O");
        assert_eq!(canonical(&castles, "Ke1-f1-g1"), "Ke1-f1-g1");
        let error = forbids(
            &castles,
            "Ke1-g1-h1",
            "no second step may follow: castling already is the king's doublestep",
        );
        assert!(matches!(error.reason, Illegal::NoSecondStep(_)));
    }
}

/// "En passant for every piece: if the first step of a doublestep landed
/// on a square the opponent attacks, the opponent's very next move may
/// capture the piece there with an ordinary single move; the doublestepper
/// is removed from where it stands."
#[test]
fn any_doublestepper_may_be_taken_en_passant() {
    for variant in BOTH {
        let watched = game(variant, Some(BISHOP_WATCHES_C3), "Nb1-c3-e4");
        for written in ["Bxc3", "Bxc3 e.p.", "Ba5xc3", "Ba5:c3", "a5xc3"] {
            let taken = allows(&watched, written);
            assert_eq!(taken.turns().last().map(|t| t.text()), Some("Bxc3".into()));
            let board = taken.state().pos().board();
            assert_eq!(board.piece_at(Square::E4), None, "the knight is taken");
            assert_eq!(board.piece_at(Square::C3), Some(Color::Black.bishop()));
        }
        // A quiet move onto the passed square is still possible.
        let quiet = allows(&watched, "Bc3");
        assert_eq!(
            quiet.state().pos().board().piece_at(Square::E4),
            Some(Color::White.knight())
        );
        assert_eq!(canonical(&watched, "a5c3"), "Bc3");
        // Only on the very next move.
        let later = game(variant, Some(BISHOP_WATCHES_C3), "Nb1-c3-e4 Ka7 Kg2");
        let error = forbids(
            &later,
            "Bxc3",
            "no bishop can capture on c3: the square is empty and en passant is not open now",
        );
        assert!(matches!(error.reason, Illegal::NoSuchMove(_)));
        // Only when the first step landed on an attacked square.
        let unwatched = game(variant, Some(BISHOP_WATCHES_C3), "Nb1-a3-c4");
        forbids(&unwatched, "Bxa3", "no bishop can capture on a3");
        // A pawn's two-square advance is taken by any piece, here a knight.
        let advance = game(variant, Some("4k3/8/8/3n4/8/8/4P3/4K3 w - - 0 10"), "e4");
        let taken = allows(&advance, "Nxe3");
        assert_eq!(taken.state().pos().board().piece_at(Square::E4), None);
    }
}

/// "Only a single move may be used to perform an en passant capture" (seed).
#[test]
fn only_a_single_move_takes_en_passant() {
    for variant in BOTH {
        // The bishop on f8 does not attack c3, but can reach it in two steps.
        let watched = game(
            variant,
            Some("k4b2/8/8/8/8/8/5PPP/1N4K1 w - - 0 10"),
            "Nb1-c3-e4",
        );
        forbids(&watched, "Bxc3", "no bishop can capture on c3");
        // Its doublestep onto c3 is a quiet move: the knight stays.
        let after = allows(&watched, "Bf8-g7-c3");
        assert_eq!(
            after.turns().last().map(|t| t.text()),
            Some("Bf8-g7-c3".into())
        );
        assert_eq!(
            after.state().pos().board().piece_at(Square::E4),
            Some(Color::White.knight())
        );
    }
}

/// "A king may not doublestep through an attacked square (it could be
/// taken en passant, as with castling)."
#[test]
fn a_king_may_not_doublestep_through_an_attacked_square() {
    for variant in BOTH {
        let watched = start(variant, Some(ROOK_ON_D_FILE));
        allows(&watched, "Ke1-f1-g1");
        let error = forbids(
            &watched,
            "Ke1-d1-c1",
            "Ke1-d1-c1: the king may not doublestep through d1: it would be in check there (it could be taken there en passant)",
        );
        assert_eq!(
            error.reason,
            Illegal::KingPassesCheck { square: Square::D1 }
        );
        forbids(&watched, "Kd1", "it would leave your king in check");
    }
    // In doublestep e2 is safe; in doubletime the rook threatens Rd8-d2xe2.
    let doublestep = start(Variant::Doublestep, Some(ROOK_ON_D_FILE));
    allows(&doublestep, "Ke1-e2-f3");
    let doubletime = start(Variant::Doubletime, Some(ROOK_ON_D_FILE));
    let error = forbids(
        &doubletime,
        "Ke1-e2-f3",
        "the king may not doublestep through e2",
    );
    assert_eq!(
        error.reason,
        Illegal::KingPassesCheck { square: Square::E2 }
    );
}

/// doublestep: "Check and mate otherwise as in chess."
#[test]
fn doublestep_check_and_mate_are_those_of_chess() {
    let mate = game(Variant::Doublestep, Some(BACK_RANK), "Rc2-a2-a8");
    assert_end(&mate, Some(Color::White), EndReason::Checkmate);
    assert_eq!(mate.record(), "10.Rc2-a2-a8#");
    // With a2 attacked, the rook can be taken en passant: check, not mate.
    let check = game(Variant::Doublestep, Some(BACK_RANK_EP), "Rc2-a2-a8");
    assert_not_over(&check);
    assert_eq!(check.record(), "10.Rc2-a2-a8+");
    assert!(check.state().in_check());
    let escaped = allows(&check, "Bxa2");
    assert_eq!(escaped.state().pos().board().piece_at(Square::A8), None);
    forbids(
        &check,
        "h6",
        "your king is in check and this move does not end the check",
    );
    // A doublestep never captures in doublestep: a knight near the king
    // is no threat.
    let near = start(
        Variant::Doublestep,
        Some("4k3/p7/8/8/4N3/8/8/4K3 b - - 0 10"),
    );
    assert!(!near.state().in_check());
    allows(&near, "Kd8");
}

// ---------------------------------------------------------------------------
// doubletime

/// "When a doublestep capture is undone by an en passant capture on the
/// passed square, the piece it took returns to its square" (the seed's
/// `1.Nb1-c3-e4 a7-a6 2.Ne4-f6xe8 Ng8xf6`).
#[test]
fn en_passant_frees_the_piece_taken() {
    let seed = "1.Nb1-c3-e4 a7-a6 2.Ne4-f6xe8";
    let taken = game(Variant::Doubletime, None, seed);
    assert_not_over(&taken);
    assert_eq!(taken.state().pos().board().king_of(Color::Black), None);
    let freed = allows(&taken, "Ng8xf6");
    assert_eq!(freed.record(), "1.Nb1-c3-e4 a6 2.Ne4-f6xe8 Nxf6");
    let board = freed.state().pos().board();
    assert_eq!(board.piece_at(Square::E8), Some(Color::Black.king()));
    assert_eq!(board.piece_at(Square::F6), Some(Color::Black.knight()));
    assert_eq!(
        board.knights() & board.by_color(Color::White),
        shakmaty::Bitboard::from(Square::G1)
    );
    assert_eq!(
        freed.fen(),
        "rnbqkb1r/1ppppppp/p4n2/8/8/8/PPPPPPPP/R1BQKBNR w KQkq - 0 3"
    );
    // The pawns on e7 and g7 could free it too; nothing else may be played.
    for written in ["exf6", "gxf6", "e7xf6 e.p."] {
        allows(&taken, written);
    }
    let error = forbids(
        &taken,
        "a5",
        "your king was taken by a doublestep: the only legal moves free it by capturing en passant on f6",
    );
    assert_eq!(error.reason, Illegal::KingHeld { passed: Square::F6 });
    // The same in doublestep: the knight may not take on e8.
    let doublestep = game(Variant::Doublestep, None, "1.Nb1-c3-e4 a7-a6");
    forbids(
        &doublestep,
        "Ne4-f6xe8",
        "a doublestep may not capture in Doublestep chess",
    );
}

/// The freed piece returns "with the castling rights its capture took"
/// (decision).
#[test]
fn a_freed_rook_keeps_its_castling_rights() {
    let taken = game(Variant::Doubletime, Some(HELD_ROOK), "Rh1-h7xh8");
    assert!(
        !taken
            .state()
            .pos()
            .castles()
            .has(Color::Black, shakmaty::CastlingSide::KingSide)
    );
    let freed = allows(&taken, "Nxh7");
    assert_eq!(
        freed.state().pos().board().piece_at(Square::H8),
        Some(Color::Black.rook())
    );
    assert!(
        freed
            .state()
            .pos()
            .castles()
            .has(Color::Black, shakmaty::CastlingSide::KingSide)
    );
    let black = allows(&freed, "a3");
    // Castling frees e8 for the rook on a8, which then threatens Ra8-e8xe1.
    assert_eq!(canonical(&black, "O-O"), "O-O+");
    // Freed by the king itself: the rook returns, but the king has moved.
    let by_king = game(
        Variant::Doubletime,
        Some("4k2r/pp6/8/8/8/8/PPP5/4KRN1 w k - 0 10"),
        "Rf1-f8xh8 Kxf8",
    );
    assert_eq!(by_king.fen(), "5k1r/pp6/8/8/8/8/PPP5/4K1N1 w - - 0 11");
    // Not freed: the rook and its rights are gone.
    let lost = game(Variant::Doubletime, Some(HELD_ROOK), "Rh1-h7xh8 a6 a3");
    forbids(&lost, "O-O", "cannot castle kingside");
}

/// "a captured piece cannot make that rescue itself" (the seed's
/// `99. Re6-e8xd8`, after which `Kd8xe8` is not legal).
#[test]
fn the_captured_piece_cannot_free_itself() {
    // The queen on d8 attacks e8, but it is the piece taken.
    let queen = game(
        Variant::Doubletime,
        Some("kb1q4/pp6/4R3/8/8/8/6PP/6BK w - - 0 50"),
        "Re6-e8xd8",
    );
    assert_not_over(&queen);
    forbids(&queen, "Qxe8", "no queen can capture on e8");
    // The king on d8: no one else can free it, so the game is over.
    let king = game(
        Variant::Doubletime,
        Some("3k4/8/4R3/8/8/8/6PP/6BK w - - 0 99"),
        "Re6-e8xd8",
    );
    assert_end(&king, Some(Color::White), EndReason::KingCaptured);
    assert_rejects_after_end(&king, "Kxe8");
}

/// "A king taken by a doublestep capture ends the game only if the opponent
/// cannot undo it by en passant on the next move."
#[test]
fn a_taken_king_is_lost_only_if_it_cannot_be_freed() {
    let position = start(Variant::Doubletime, Some(PINNED_RESCUER));
    // Via d6: the pawn on c7 frees the king.
    let freeable = allows(&position, "Ne4-d6xe8");
    assert_not_over(&freeable);
    let rescues: Vec<String> = freeable
        .state()
        .legal_turns(freeable.rules())
        .iter()
        .map(|turn| freeable.state().turn_text(freeable.rules(), turn))
        .collect();
    assert_eq!(rescues, ["cxd6"]);
    let freed = allows(&freeable, "cxd6");
    assert_eq!(
        freed.state().pos().board().piece_at(Square::E8),
        Some(Color::Black.king())
    );
    // Via f6: only the knight on g8 attacks f6, and freeing the king would
    // leave it attacked by the rook on h8: the king is lost.
    let lost = allows(&position, "Ne4-f6xe8");
    assert_end(&lost, Some(Color::White), EndReason::KingCaptured);
    assert_rejects_after_end(&lost, "Nxf6");
    // ... although f6 is covered, so the knight on e4 gave no check.
    assert!(
        !game(Variant::Doubletime, Some(PINNED_RESCUER), "Kd1")
            .state()
            .in_check()
    );
}

/// "A king is in check when an enemy move could capture it, except by a
/// doublestep whose passed square the defender could capture on with a
/// single move other than by the king itself."
#[test]
fn doubletime_check_counts_uncovered_doublestep_captures() {
    // The seed: 1.Nb1-c3-e4 only "appears to give check": f6 and d6 are covered.
    let knight = game(Variant::Doubletime, None, "1.Nb1-c3-e4");
    assert_eq!(knight.record(), "1.Nb1-c3-e4");
    assert!(!knight.state().in_check());
    allows(&knight, "a6");
    // The seed's K+P endgame: the pawn threatens e4-e5xd6, the king
    // Kc4-d5xe6, and Black has no other piece to cover e5 or d5.
    let line = game(Variant::Doubletime, Some(KP_ENDGAME), KP_LINE);
    assert_eq!(line.record(), "1.Ke1-d2-d3 Ke8-d7-d6 2.e4+ Ke6 3.Kc4+");
    assert!(line.state().in_check());
    // A move into such a check is not allowed.
    let before_e8 = game(
        Variant::Doubletime,
        Some(KP_ENDGAME),
        &format!("{KP_LINE} Ke6-d7 4.e4-e5-e6+ Kd7-e7 5.Kc4-d4"),
    );
    allows(&before_e8, "Ke8");
    let error = forbids(&before_e8, "Kd8", "it would leave your king in check");
    assert_eq!(error.reason, Illegal::LeavesKingInCheck);
    // In doublestep the same squares are safe: doublesteps never capture.
    let doublestep = game(
        Variant::Doublestep,
        Some(KP_ENDGAME),
        "1.Ke1-d2-d3 Ke8-d7-d6 2.e2-e3-e4",
    );
    assert_eq!(doublestep.record(), "1.Ke1-d2-d3 Ke8-d7-d6 2.e4");
    assert!(!doublestep.state().in_check());
}

/// "a king may never doublestep (capture included) through an attacked
/// square": the seed's `Ke6-d5xc4` is not legal because of `e4xd5` e.p.
#[test]
fn the_seed_king_capture_through_d5_is_illegal() {
    let line = game(Variant::Doubletime, Some(KP_ENDGAME), KP_LINE);
    let error = forbids(
        &line,
        "Ke6-d5xc4",
        "Ke6-d5xc4: the king may not doublestep through d5: it would be in check there (it could be taken there en passant)",
    );
    assert_eq!(
        error.reason,
        Illegal::KingPassesCheck { square: Square::D5 }
    );
    allows(&line, "Ke6-d7");
}

/// The seed's K+P endgame to its end: `6.Kd4-d5-c6` (which mates under
/// these rules), and the remark that `6.Kd4-e5` would be stalemate.
#[test]
fn the_seed_endgame_line_replays() {
    let record = format!("{KP_LINE} Ke6-d7 4.e4-e5-e6+ Kd7-e7 5.Kc4-d4 Ke7-e8");
    let before = game(Variant::Doubletime, Some(KP_ENDGAME), &record);
    assert_eq!(
        before.record(),
        "1.Ke1-d2-d3 Ke8-d7-d6 2.e4+ Ke6 3.Kc4+ Kd7 4.e4-e5-e6+ Ke7 5.Kd4 Ke8"
    );
    let stalemate = allows(&before, "Kd4-e5");
    assert_end(&stalemate, None, EndReason::Stalemate);
    let mate = allows(&before, "Kd4-d5-c6+");
    assert_eq!(
        mate.turns().last().map(|t| t.text()),
        Some("Kd4-d5-c6#".into())
    );
    assert_end(&mate, Some(Color::White), EndReason::Checkmate);
}

/// Notation: "doublesteps are written in long form `Nb1-c3-e4`; en passant
/// captures as an ordinary capture onto the passed square, `e.p.` optional."
#[test]
fn doublesteps_are_written_in_long_form() {
    for variant in BOTH {
        let new = Game::new(variant);
        // The move number and annotations are read as usual.
        let after = game(variant, None, "1.Nb1-c3-e4! Ng8-f6-d5");
        assert_eq!(after.record(), "1.Nb1-c3-e4 Ng8-f6-d5");
        // A doublestep in other variants is no move at all.
        forbids(
            &Game::new(Variant::Chess),
            "Nb1-c3-e4",
            "a piece moves twice in one move (like Nb1-c3-e4) only in Doublestep and Doubletime chess",
        );
        assert_eq!(new.state().legal_turns(new.rules()).len(), 32);
    }
}

/// Every legal turn, written in canonical notation, reads back as the same
/// turn, along random games (no panics on the way, ep captures and quiet
/// moves onto the passed square kept apart).
#[test]
fn every_legal_turn_reads_back_as_written() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for variant in BOTH {
        for fen in [
            None,
            Some(BISHOP_WATCHES_C3),
            Some(HELD_ROOK),
            Some(KP_ENDGAME),
        ] {
            for _ in 0..3 {
                let mut current = start(variant, fen);
                for _ in 0..40 {
                    if current.end().is_some() {
                        break;
                    }
                    let state = current.state().clone();
                    let turns = state.legal_turns(current.rules());
                    for turn in &turns {
                        let text = state.turn_text(current.rules(), turn);
                        let mut copy = current.clone();
                        let played = copy.play(&common::turn(&text)).unwrap_or_else(|e| {
                            panic!(
                                "{variant} {}: {text} does not read back: {e}",
                                current.fen()
                            )
                        });
                        assert_eq!(&played.turn, turn, "{variant} {}: {text}", current.fen());
                        assert_eq!(
                            played.text().trim_end_matches(['+', '#']),
                            text.trim_end_matches(['+', '#'])
                        );
                    }
                    let Some(turn) = turns.get((next() % turns.len().max(1) as u64) as usize)
                    else {
                        break;
                    };
                    let text = state.turn_text(current.rules(), turn);
                    current = allows(&current, &text);
                }
            }
        }
    }
}
