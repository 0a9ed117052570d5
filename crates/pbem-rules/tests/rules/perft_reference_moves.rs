//! Cross-checks the engine's perft (sequences of whole turns) for twinmove,
//! twinmove-free, doublestep and doubletime against the independent slow
//! reference in `reference_moves.rs`, from the start position and from
//! positions chosen to exercise the tricky rules. When the counts differ,
//! the test walks down both trees to the first position whose legal turns
//! differ and reports the turn sequence.
//!
//! Depths keep each test within a few seconds in a debug build (the
//! twinmove start position to depth 3, about three million turn sequences
//! each, is the slowest: about two seconds). That `pbem perft` prints the
//! same numbers is checked in the server's tests (`tests/rules/`).

use crate::{perft_compare, reference_moves};

/// The doubletime K+P endgame of the seed page.
const KP_ENDGAME: &str = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
/// The same after `1.Ke1-d2-d3 Ke8-d7-d6 2.e2-e3-e4+ Kd6-e6 3.Kd3-c4+`.
const KP_CHECK: &str = "8/8/4k3/8/2K1P3/8/8/8 b - - 5 3";
/// After `1.Nb1-c3-e4 a7-a6`: `Ne4-f6xe8` takes the king, which three
/// black pieces could free by en passant on f6.
const KNIGHT_ON_E4: &str = "rnbqkbnr/1ppppppp/p7/8/4N3/8/PPPPPPPP/R1BQKBNR w KQkq - 0 2";
/// Rh1-h7xh8 (doubletime) takes the h8 rook, which had castling rights;
/// the knight on f8 can free it by en passant on h7.
const HELD_ROOK: &str = "r3kn1r/ppp2pp1/8/8/8/8/PPP2PP1/R3K2R w KQkq - 0 10";
/// Ne4-f6xe8 (doubletime) takes the king, and the only piece attacking f6,
/// the knight on g8, may not free it: the rook on h8 would then attack it.
/// After Ne4-d6xe8, c7xd6 frees it.
const PINNED_RESCUER: &str = "4k1nR/2p5/8/8/4N3/8/8/4K3 w - - 0 10";
/// Castling both ways beside attacked squares, rooks facing each other.
const CASTLING: &str = "r3k2r/p6p/8/8/2b5/8/P2R3P/R3K2R w KQkq - 0 10";
/// A rook doublestepping along the eighth rank passes c8, which the pawn
/// on b7 attacks: en passant with promotion.
const PROMOTING_EP: &str = "7r/1P6/8/7k/8/8/5PPP/6K1 b - - 0 10";
/// A pawn that stepped off its starting square may capture on its second
/// step (doubletime), but not step on (that is the two-square advance).
const PAWN_STEPS: &str = "4k3/8/8/8/2bp4/8/4P3/4K3 w - - 0 10";
/// The black pawn on d4 may take e3 en passant after e2-e4 (FEN square).
const FEN_EP: &str = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 10";
/// The rook on h5 checks the king on a5: e3-e4-e5 blocks (a doublestep is
/// legal by the position it leaves).
const CHECK_ON_THE_FIFTH: &str = "7k/8/8/K6r/8/4P3/8/8 w - - 0 10";
/// The queen on e2 is pinned by the rook on e8 and may step off and back.
const PINNED_QUEEN: &str = "4r2k/8/8/8/8/8/4Q3/4K3 w - - 0 10";
/// Only the knight can meet the check, in two steps.
const BLOCK_IN_TWO: &str = "r6k/8/8/8/4N3/2p5/2p5/K7 w - - 0 10";
/// Rooks facing each other: after Ra1-a4-a6, Ra8xa4 takes en passant
/// through the square the doublestepper now stands on.
const ROOKS_ON_A: &str = "r6k/8/8/8/8/8/8/R6K w - - 0 10";
/// After e2-e4, Re8xe3 takes en passant through e4.
const ROOK_ON_E8: &str = "4r2k/6pp/8/8/8/8/PP2P3/KR6 w - - 0 10";
/// Busy middlegame ("Kiwipete").
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
/// twinmove: a pawn promotes and the new queen makes the piece move.
const PROMOTE_AND_MOVE: &str = "7k/P7/8/8/8/8/1p6/K7 w - - 0 10";
/// twinmove: the pawns are blocked, so a turn is a single piece move.
const BLOCKED: &str = "4k3/4p3/4P3/8/8/8/8/R3K3 w Q - 0 10";
/// twinmove: a pawn can take the king with the first move of the turn.
const PAWN_TAKES_KING: &str = "8/8/8/3k4/4P3/8/8/R3K3 w Q - 0 10";

/// [`perft_compare::compare`] with the reference in `reference_moves.rs`.
fn compare(variant: &'static str, fen: Option<&str>, depth: u32) -> u64 {
    perft_compare::compare::<reference_moves::Game>(variant, fen, depth)
}

#[test]
fn twinmove_start_position_to_depth_2() {
    assert_eq!(compare("twinmove", None, 1), 121);
    assert_eq!(compare("twinmove", None, 2), 14_549);
}

#[test]
fn twinmove_free_start_position_to_depth_2() {
    // White's first turn begins with a pawn move, as in twinmove.
    assert_eq!(compare("twinmove-free", None, 1), 121);
    assert_eq!(compare("twinmove-free", None, 2), 15_033);
}

#[test]
fn twinmove_start_position_depth_3() {
    assert_eq!(compare("twinmove", None, 3), 2_949_594);
    assert_eq!(compare("twinmove-free", None, 3), 3_234_215);
}

#[test]
fn doublestep_start_position_to_depth_3() {
    assert_eq!(compare("doublestep", None, 1), 32);
    assert_eq!(compare("doublestep", None, 2), 1_008);
    assert_eq!(compare("doublestep", None, 3), 50_629);
}

#[test]
fn doubletime_start_position_to_depth_3() {
    assert_eq!(compare("doubletime", None, 1), 32);
    assert_eq!(compare("doubletime", None, 2), 1_018);
    // 53,803 when each step had to be legal on its own.
    assert_eq!(compare("doubletime", None, 3), 53_895);
}

#[test]
fn twinmove_tricky_positions() {
    for variant in ["twinmove", "twinmove-free"] {
        for (fen, depth) in [
            (PROMOTE_AND_MOVE, 3),
            (BLOCKED, 3),
            (PAWN_TAKES_KING, 3),
            (CASTLING, 2),
            (KIWIPETE, 1),
        ] {
            compare(variant, Some(fen), depth);
        }
    }
}

#[test]
fn doublestep_tricky_positions() {
    for (variant, fen, depth) in [
        ("doublestep", KP_ENDGAME, 4),
        ("doubletime", KP_ENDGAME, 4),
        ("doublestep", KP_CHECK, 3),
        ("doubletime", KP_CHECK, 3),
        ("doublestep", KNIGHT_ON_E4, 2),
        ("doubletime", KNIGHT_ON_E4, 2),
        ("doublestep", HELD_ROOK, 2),
        ("doubletime", HELD_ROOK, 3),
        ("doublestep", PINNED_RESCUER, 2),
        ("doubletime", PINNED_RESCUER, 3),
        ("doublestep", CASTLING, 2),
        ("doubletime", CASTLING, 2),
        ("doublestep", PROMOTING_EP, 3),
        ("doubletime", PROMOTING_EP, 3),
        ("doublestep", PAWN_STEPS, 3),
        ("doubletime", PAWN_STEPS, 3),
        ("doublestep", FEN_EP, 3),
        ("doubletime", FEN_EP, 3),
        ("doublestep", KIWIPETE, 2),
        ("doubletime", KIWIPETE, 2),
        ("doublestep", CHECK_ON_THE_FIFTH, 3),
        ("doubletime", CHECK_ON_THE_FIFTH, 3),
        ("doublestep", PINNED_QUEEN, 2),
        ("doubletime", PINNED_QUEEN, 2),
        ("doublestep", BLOCK_IN_TWO, 3),
        ("doubletime", BLOCK_IN_TWO, 3),
        ("doublestep", ROOKS_ON_A, 2),
        ("doubletime", ROOKS_ON_A, 2),
        ("doublestep", ROOK_ON_E8, 2),
        ("doubletime", ROOK_ON_E8, 2),
    ] {
        compare(variant, Some(fen), depth);
    }
}
