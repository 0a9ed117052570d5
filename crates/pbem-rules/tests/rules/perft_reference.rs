//! Cross-checks the engine's perft (sequences of whole turns) against the
//! independent slow reference in `reference.rs`, for every variant, from the
//! start position and from positions chosen to exercise the tricky rules.
//! When the counts differ, the test walks down both trees to the first
//! position whose legal turns differ and reports the turn sequence.
//!
//! Depths are chosen to keep each test within a few seconds in a debug build
//! (about 1-2 s each with the crate's dev profile, opt-level 1; the slow
//! reference takes nearly all of it).

use crate::{perft_compare, reference};

use pbem_rules::{Game, Variant};
use perft_compare::{Reference, engine_turn_text};

/// Kiwipete: castling both ways, en passant, promotions, pins.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 10";
/// Promotions with and without capture, checks, pins (perft suite position 4).
const PROMOTIONS: &str = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 10";
/// Black to move can double-step d7-d5 or f7-f5 next to the pawn on e5.
const EP_CHANCE: &str = "rnbqkbnr/pppppppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3";
/// d7-d5 would allow exd6 e.p. only if the e5 pawn were not pinned by the
/// rook on e8, so it offers no *legal* en passant capture.
const EP_PINNED: &str = "4r1k1/3p4/8/4P3/8/8/8/4K3 b - - 0 10";
/// Two black pawns can double-step in one turn next to the pawns on e5, g5.
const TWO_EP: &str = "4k3/3p1p2/8/4P1P1/8/8/8/4K3 b - - 0 10";
/// White's last turn was e2-e4, passing the black pawn on d4.
const EP_SQUARE: &str = "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 10";
/// Castling both ways; a bishop guards f1 and a rook the d8 square.
const CASTLING: &str = "r3k2r/p6p/8/8/2b5/8/P2R3P/R3K2R w KQkq - 0 10";
/// Rooks facing each other: Rxa8 then Rxe8 captures the king mid-turn.
const KING_HUNT: &str = "r3k3/8/8/8/8/8/8/R3K3 w Qq - 0 10";
/// After Rg8-g7 White's only second move is Rg7-g8 (a draw in
/// doublemove-classic); after g6-g7 White has no second move at all.
const BOXED_IN: &str = "RBBQKBRB/PPPPPP1P/6P1/8/8/2n5/8/k7 w - - 0 10";
/// After e7-e8=Q the only way back is Qe8-e7.
const PROMOTE_AND_RETURN: &str = "7k/4P3/8/8/8/8/8/K7 w - - 0 10";
/// Open rooks: castling rights lost to rook captures and rook moves.
const OPEN_ROOKS: &str = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 10";
/// After d7-d5 the knight can land on the passed square d6.
const EP_BLOCKED: &str = "4k3/1n1p4/8/4P3/8/8/8/4K3 b - - 0 10";
/// White starts the turn in check; castling out of check only where check
/// is ignored.
const IN_CHECK: &str = "r3k3/8/8/8/8/8/4r3/R3K3 w Qq - 0 10";
/// King capture variants only: Re1xe8 takes the king with a first move.
const KING_EN_PRISE: &str = "r3k3/8/8/8/8/8/8/4R1K1 w q - 0 10";

/// [`perft_compare::compare`] with the reference in `reference.rs`.
fn compare(variant: &'static str, fen: Option<&str>, depth: u32) -> u64 {
    perft_compare::compare::<reference::Game>(variant, fen, depth)
}

/// Whether `turn` is legal after the turns `path` (separated by spaces)
/// from `fen`, in the engine and the reference alike (panics if they
/// disagree): `Some(over)` with whether it ends the game, or `None` if it is
/// illegal.
fn legal_in_both(variant: &'static str, fen: &str, path: &str, turn: &str) -> Option<bool> {
    let engine_variant: Variant = variant.parse().expect("a known variant");
    let game = Game::from_fen(engine_variant, fen).expect("a valid FEN");
    let rules = game.rules();
    let mut state = game.state().clone();
    let mut reference = reference::Game::from_fen(variant, fen);
    for played in path.split_whitespace() {
        let mut next = None;
        state.visit_turns(rules, &mut |t, after| {
            if engine_turn_text::<reference::Game>(&state, t) == played {
                next = Some(after.clone());
            }
        });
        state = next.unwrap_or_else(|| panic!("the engine rejects {played}"));
        reference = reference
            .successors()
            .into_iter()
            .find(|(text, _)| text == played)
            .unwrap_or_else(|| panic!("the reference rejects {played}"))
            .1;
    }
    let mut engine = None;
    state.visit_turns(rules, &mut |t, after| {
        if engine_turn_text::<reference::Game>(&state, t) == turn {
            engine = Some(after.end().is_some());
        }
    });
    let expected = reference
        .successors()
        .into_iter()
        .find(|(text, _)| text == turn)
        .map(|(_, after)| after.is_over());
    assert_eq!(
        engine, expected,
        "{variant} {fen} after {path:?}: {turn} (engine left, reference right)"
    );
    expected
}

/// Single turns showing that the positions above reach the rules they are
/// meant to exercise, and that engine and reference read those rules alike.
#[test]
fn positions_reach_the_tricky_rules() {
    let cases = [
        // A double step offering a legal en passant may be a single move,
        // answered by a response that may take en passant.
        ("chess2", EP_CHANCE, "", "d7d5", Some(false)),
        ("chess2", EP_CHANCE, "d7d5", "e5d6", Some(false)),
        ("chess2", EP_CHANCE, "d7d5,g8f6", "e5d6,g1f3", None),
        // ... but not when the en passant capture would be illegal.
        ("chess2", EP_PINNED, "", "d7d5", None),
        ("chess2", EP_PINNED, "", "d7d5,g8f7", Some(false)),
        // twomove: a qualifying first move must end the turn.
        ("twomove", EP_CHANCE, "", "d7d5,g8f6", None),
        // marseillais: two fresh double steps, both taken en passant; a
        // player in check escapes with the first move, never by castling.
        ("marseillais", TWO_EP, "d7d5,f7f5", "e5d6,g5f6", Some(false)),
        ("marseillais", TWO_EP, "d7d5,f7f5", "e5e6,g5f6", None),
        ("marseillais", IN_CHECK, "", "e1c1,c1b1", None),
        (
            "balanced-marseillais",
            TWO_EP,
            "d7d5,f7f5",
            "g5f6,e5d6",
            Some(false),
        ),
        // doublemove: the king falls, even mid-turn; no en passant; check
        // is ignored, also when castling.
        ("doublemove", KING_EN_PRISE, "", "e1e8", Some(true)),
        ("doublemove", KING_HUNT, "", "a1a8,a8e8", Some(true)),
        ("doublemove", TWO_EP, "d7d5,f7f5", "e5d6,e1e2", None),
        ("doublemove", BOXED_IN, "", "g8g7,g7g8", Some(false)),
        (
            "doublemove",
            PROMOTE_AND_RETURN,
            "",
            "e7e8q,e8e7",
            Some(false),
        ),
        ("doublemove", IN_CHECK, "", "e1c1,c1b1", Some(false)),
        // doublemove-classic: no way back after a quiet first move (a draw
        // if nothing else is left), en passant on the first move only.
        ("doublemove-classic", BOXED_IN, "", "g8g7", Some(true)),
        ("doublemove-classic", BOXED_IN, "", "g6g7", Some(false)),
        (
            "doublemove-classic",
            PROMOTE_AND_RETURN,
            "",
            "e7e8q,e8e7",
            None,
        ),
        ("doublemove-classic", CASTLING, "", "e1g1,f1h1", None),
        (
            "doublemove-classic",
            TWO_EP,
            "d7d5,f7f5",
            "e5d6,e1e2",
            Some(false),
        ),
        ("doublemove-classic", TWO_EP, "d7d5,f7f5", "e5d6,g5f6", None),
        // extramove: en passant only first, double steps only second,
        // never the same piece twice (castling moves two).
        ("extramove", EP_SQUARE, "", "d4e3", Some(false)),
        ("extramove", EP_CHANCE, "", "d7d5", None),
        ("extramove", EP_CHANCE, "", "g8f6,d7d5", Some(false)),
        ("extramove", CASTLING, "", "e1c1,d1e1", None),
        ("extramove", CASTLING, "", "e1c1,h1f1", Some(false)),
    ];
    for (variant, fen, path, turn, expected) in cases {
        assert_eq!(
            legal_in_both(variant, fen, path, turn),
            expected,
            "{variant} {fen} after {path}: {turn}"
        );
    }
}

#[test]
fn reference_matches_published_chess_perft() {
    let published = [
        (None, 4, 197_281),
        (Some(KIWIPETE), 3, 97_862),
        (Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"), 4, 43_238),
        (Some(PROMOTIONS), 3, 9_467),
        (
            Some("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"),
            3,
            62_379,
        ),
    ];
    for (fen, depth, count) in published {
        assert_eq!(compare("chess", fen, depth), count, "{fen:?}");
    }
}

/// Runs [`compare`] from the start position and from each (FEN, depth).
fn compare_all(variant: &'static str, start_depth: u32, positions: &[(&str, u32)]) {
    compare(variant, None, start_depth);
    for &(fen, depth) in positions {
        compare(variant, Some(fen), depth);
    }
}

#[test]
fn chess2() {
    compare_all(
        "chess2",
        3,
        &[
            (EP_CHANCE, 2),
            (EP_PINNED, 3),
            (TWO_EP, 3),
            (EP_SQUARE, 3),
            (EP_BLOCKED, 3),
            (CASTLING, 2),
            (OPEN_ROOKS, 2),
            (IN_CHECK, 2),
            (KIWIPETE, 1),
            (PROMOTIONS, 2),
        ],
    );
}

#[test]
fn twomove() {
    compare_all(
        "twomove",
        3,
        &[
            (EP_CHANCE, 2),
            (EP_PINNED, 3),
            (TWO_EP, 3),
            (EP_SQUARE, 3),
            (EP_BLOCKED, 3),
            (CASTLING, 2),
            (OPEN_ROOKS, 2),
            (IN_CHECK, 2),
            (KIWIPETE, 1),
            (PROMOTIONS, 2),
        ],
    );
}

#[test]
fn marseillais() {
    compare_all(
        "marseillais",
        2,
        &[
            (TWO_EP, 3),
            (EP_SQUARE, 3),
            (EP_BLOCKED, 3),
            (CASTLING, 2),
            (OPEN_ROOKS, 2),
            (IN_CHECK, 2),
            (KIWIPETE, 1),
            (PROMOTIONS, 2),
        ],
    );
}

#[test]
fn balanced_marseillais() {
    compare_all(
        "balanced-marseillais",
        3,
        &[(TWO_EP, 3), (EP_SQUARE, 3), (IN_CHECK, 2)],
    );
}

/// The positions and depths of both doublemove rule sets.
const DOUBLEMOVE_POSITIONS: &[(&str, u32)] = &[
    (KING_EN_PRISE, 2),
    (KING_HUNT, 2),
    (BOXED_IN, 3),
    (TWO_EP, 3),
    (EP_SQUARE, 3),
    (EP_BLOCKED, 3),
    (PROMOTE_AND_RETURN, 3),
    (CASTLING, 2),
    (OPEN_ROOKS, 2),
    (IN_CHECK, 2),
    (PROMOTIONS, 1),
];

#[test]
fn doublemove() {
    compare_all("doublemove", 3, DOUBLEMOVE_POSITIONS);
}

#[test]
fn doublemove_classic() {
    compare_all("doublemove-classic", 3, DOUBLEMOVE_POSITIONS);
}

#[test]
fn extramove() {
    compare_all(
        "extramove",
        3,
        &[
            (EP_CHANCE, 2),
            (EP_PINNED, 3),
            (EP_SQUARE, 3),
            (EP_BLOCKED, 3),
            (CASTLING, 2),
            (OPEN_ROOKS, 2),
            (IN_CHECK, 2),
            (KIWIPETE, 1),
            (PROMOTIONS, 2),
        ],
    );
}
