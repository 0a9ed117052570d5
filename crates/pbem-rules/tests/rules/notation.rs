//! Lenient notation (issue 16 point 4, issue 11 item 10): captures written
//! without their `x`, lowercase piece letters, a turn with a space after
//! its comma or a full stop at its end, and error texts that quote what
//! they refuse once, with a hint of the right form.

use crate::common;

use common::{allows, canonical, forbids, game, start};
use pbem_rules::notation::parse_turn;
use pbem_rules::{Game, Illegal, Variant};

/// The queen on d3 can take the pawn on h7; the rooks on a5 and h5 can
/// both take the knight on d5.
const CAPTURES: &str = "4k3/7p/8/R2n3R/8/3Q4/8/4K3 w - - 0 10";
/// The bishop on b5 can take the knight on c6; no pawn can.
const RUY_LOPEZ_EXCHANGE: &str = "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6";
/// Both the pawn on b5 and the bishop on e4 can take the knight on c6.
const PAWN_AND_BISHOP: &str = "4k3/8/2n5/1P6/4B3/8/8/4K3 w - - 0 10";

/// "When exactly one legal move matches the text with the capture added,
/// accept it (output is canonical SAN)."
#[test]
fn a_capture_may_be_written_without_its_x() {
    let captures = start(Variant::Chess, Some(CAPTURES));
    assert_eq!(canonical(&captures, "Qh7"), "Qxh7");
    assert_eq!(canonical(&captures, "Qd3-h7"), "Qxh7");
    assert_eq!(canonical(&captures, "Rad5"), "Raxd5");
    // Two captures fit: ambiguous, and the error names both.
    let error = forbids(&captures, "Rd5", "ambiguous: could be Raxd5 or Rhxd5");
    assert!(matches!(error.reason, Illegal::Ambiguous(_)));
    // Pawns too, in every variant.
    let opened = game(Variant::Chess, None, "1.e4 d5");
    assert_eq!(canonical(&opened, "ed5"), "exd5");
    let marseillais = game(Variant::Marseillais, None, "1.e4,d4 d5,Nc6");
    assert_eq!(canonical(&marseillais, "ed5,Nc3"), "exd5,Nc3");
    // A quiet move that exists is never read as a capture.
    assert_eq!(canonical(&captures, "Qh3"), "Qh3");
    // Where no move fits, the error says what the text aimed at.
    forbids(&captures, "Qh8", "no queen can reach h8");
}

/// "Where `Kb5-c4` could be the plain move or an en passant capture, say
/// which was played."
#[test]
fn a_move_onto_a_passed_square_says_which_it_was() {
    for variant in [Variant::Doublestep, Variant::Doubletime] {
        // After c3-c4-c5 the king on b5 may step to c4 quietly or take the
        // pawn en passant there.
        let passed = game(variant, Some("7K/8/8/1k6/8/2P5/8/8 w - - 0 10"), "c3-c4-c5");
        let mut quiet = passed.clone();
        let played = quiet.play(&common::turn("Kb5-c4")).expect("legal");
        assert_eq!(played.text(), "Kc4");
        assert_eq!(
            played.notes,
            ["Kb5-c4 was played as the plain move Kc4; the en passant capture is written Kxc4"]
        );
        let mut taken = passed.clone();
        let played = taken.play(&common::turn("Kxc4")).expect("legal");
        assert_eq!(played.text(), "Kxc4");
        assert!(played.notes.is_empty());
        // Where only the capture exists, the text without x is the capture.
        let rooks = game(variant, Some("r6k/8/8/8/8/8/8/R6K w - - 0 10"), "Ra1-a4-a6");
        let mut copy = rooks.clone();
        let played = copy.play(&common::turn("Ra4")).expect("legal");
        // (In doubletime a lone king against a rook is mate.)
        let san = played.text().trim_end_matches('#').to_string();
        assert_eq!(san, "Rxa4");
        assert_eq!(played.notes.len(), 1);
        assert!(
            played.notes[0].starts_with("Ra4 was played as the en passant capture Rxa4"),
            "{:?}",
            played.notes
        );
    }
}

/// Lowercase piece letters where they cannot be misread: `n`, `r`, `q`,
/// `k` are no files.
#[test]
fn lowercase_piece_letters() {
    let new = Game::new(Variant::Chess);
    assert_eq!(canonical(&new, "nf3"), "Nf3");
    assert_eq!(canonical(&new, "ng1-f3"), "Nf3");
    let reply = game(Variant::Chess, None, "1.e4");
    assert_eq!(canonical(&reply, "nc6"), "Nc6");
    // The bishop on d7 checks the king: the king, the queen and the
    // knight can each take it.
    let check = start(
        Variant::Chess,
        Some("rn1qkbnr/pppBpppp/8/8/8/8/PPPP1PPP/RNBQK1NR b KQkq - 0 4"),
    );
    assert_eq!(canonical(&check, "kxd7"), "Kxd7");
    assert_eq!(canonical(&check, "nxd7"), "Nxd7");
    assert_eq!(canonical(&check, "qxd7"), "Qxd7");
    assert_eq!(canonical(&check, "qd7"), "Qxd7");
    // Twinmove writes two moves; both may be lowercase.
    let twinmove = Game::new(Variant::Twinmove);
    assert_eq!(canonical(&twinmove, "e4,nf3"), "e4,Nf3");
}

/// A lowercase `b` is the b-file first, as SAN has it (`bxc6` is a pawn
/// capture where a pawn can make it); where no pawn move fits, it is the
/// bishop; where both fit only by leniency, the text is ambiguous.
#[test]
fn a_lowercase_b_is_a_file_before_it_is_a_bishop() {
    let exchange = game(Variant::Chess, None, RUY_LOPEZ_EXCHANGE);
    assert_eq!(canonical(&exchange, "bxc6"), "Bxc6");
    assert_eq!(canonical(&exchange, "bc6"), "Bxc6");
    assert_eq!(canonical(&exchange, "ba4"), "Ba4");
    assert_eq!(canonical(&exchange, "bb5-c4"), "Bc4");
    let both = start(Variant::Chess, Some(PAWN_AND_BISHOP));
    assert_eq!(canonical(&both, "bxc6"), "bxc6");
    assert_eq!(canonical(&both, "Bxc6"), "Bxc6+");
    let error = forbids(&both, "bc6", "ambiguous: could be bxc6 or Bxc6");
    assert!(matches!(error.reason, Illegal::Ambiguous(_)));
    // A plain b-pawn move stays a pawn move.
    assert_eq!(canonical(&Game::new(Variant::Chess), "b4"), "b4");
}

/// `e5, Nf6.`: a space after the comma, a full stop at the end.
#[test]
fn a_turn_with_a_space_after_its_comma_and_a_full_stop() {
    let new = Game::new(Variant::Twinmove);
    let reply = allows(&new, "e4,Nf3");
    for text in ["e5, Nf6.", "e5,Nf6.", "e5 , nf6 .", "e5/Nf6.", "e5, nf6!"] {
        assert_eq!(canonical(&reply, text), "e5,Nf6", "{text}");
    }
    assert_eq!(canonical(&Game::new(Variant::Chess), "e4."), "e4");
}

/// Errors quote what they refuse once and say how to write it.
#[test]
fn notation_errors_say_it_once_with_a_hint() {
    let error = parse_turn("c5,nc6x").unwrap_err().to_string();
    assert_eq!(
        error,
        "\"nc6x\" in \"c5,nc6x\" is not a move: write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6"
    );
    let error = parse_turn("xyz").unwrap_err().to_string();
    assert_eq!(
        error,
        "\"xyz\" is not a move: write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6"
    );
    let error = parse_turn("e5 Nf6").unwrap_err().to_string();
    assert_eq!(
        error,
        "\"e5 Nf6\" is more than one turn: join the moves of one turn with a comma, like e5,Nf6"
    );
    // Nothing quoted twice.
    for text in ["c5,nc6x", "xyz", "e5 Nf6", "e4,,Nf3", "1-0"] {
        let error = parse_turn(text).unwrap_err().to_string();
        let quoted = format!("\"{text}\"");
        assert!(error.matches(&quoted).count() <= 1, "{error}");
        assert!(!error.contains("turn \""), "{error}");
    }
}
