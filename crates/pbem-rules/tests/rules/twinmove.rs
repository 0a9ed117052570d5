//! Twinmove Chess, compulsory (`twinmove`) and uncompelled
//! (`twinmove-free`): docs/rules.md sections "twinmove" and "twinmove-free".
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
use shakmaty::{Color, Position, Role, Square};

/// Both forms.
const BOTH: [Variant; 2] = [Variant::Twinmove, Variant::TwinmoveFree];

/// White's pawns are blocked (e6 by e7) and cannot capture: no pawn move.
const BLOCKED: &str = "4k3/4p3/4P3/8/8/8/8/R3K3 w Q - 0 10";
/// The a-pawn can move, but then no white piece can: the king and bishop
/// are boxed in by their own pawns, which the black pawns block.
const BOXED_IN: &str = "4k3/8/8/8/8/5ppp/P4PPP/6BK w - - 0 10";
/// The pawn on a7 promotes; the new queen can take the king on h8.
const PROMOTION: &str = "7k/P7/8/8/8/8/1p6/K7 w - - 0 10";
/// The pawn on e4 can take the king on d5.
const PAWN_TAKES_KING: &str = "8/8/8/3k4/4P3/8/8/R3K3 w Q - 0 10";

/// The registry: ids, names and the shape of a turn.
#[test]
fn the_variants_are_registered() {
    for (variant, id) in [
        (Variant::Twinmove, "twinmove"),
        (Variant::TwinmoveFree, "twinmove-free"),
    ] {
        assert_eq!(variant.id(), id);
        assert_eq!(id.parse::<Variant>(), Ok(variant));
        assert_eq!(variant.rules().variant(), variant);
        assert_eq!(variant.rules().moves_per_turn(), MovesPerTurn::UpToTwo);
        assert!(Variant::ALL.contains(&variant));
        assert!(!variant.description().is_empty());
        assert!(variant.help().contains("pawn move"));
    }
    assert!(
        Variant::Twinmove
            .help()
            .contains("While any pawn of yours can move")
    );
    assert!(Variant::TwinmoveFree.help().contains("optional"));
}

/// "A turn is a pawn move followed by a piece (non-pawn) move."
#[test]
fn a_turn_is_a_pawn_move_then_a_piece_move() {
    for variant in BOTH {
        let new = Game::new(variant);
        let after = allows(&new, "e4,Nf3");
        assert_eq!(after.record(), "1.e4,Nf3");
        assert_eq!(after.state().turn(), Color::Black);
        let error = forbids(
            &new,
            "e4",
            "e4: a pawn move must be followed by a piece move while one exists",
        );
        assert!(matches!(error.reason, Illegal::SecondMoveRequired(_)));
    }
}

/// "While any pawn move exists it is compulsory" (twinmove).
#[test]
fn the_pawn_move_is_compulsory_while_one_exists() {
    let new = Game::new(Variant::Twinmove);
    allows(&new, "d4,Nd2");
    let error = forbids(
        &new,
        "Nf3",
        "a pawn move is compulsory while one exists: start the turn with a pawn move",
    );
    assert_eq!(
        error.reason,
        Illegal::Forbidden(Forbidden::PawnMoveCompulsory)
    );
    forbids(
        &new,
        "Nf3,e4",
        "1st move Nf3: a pawn move is compulsory while one exists",
    );
    // A pawn capture is a pawn move too.
    let capture = game(Variant::Twinmove, None, "1.e4,Nc3 d5,Nc6");
    allows(&capture, "exd5,Bb5");
}

/// "and the piece move after it is compulsory when one exists".
#[test]
fn the_piece_move_is_compulsory_when_one_exists() {
    for variant in BOTH {
        let boxed = start(variant, Some(BOXED_IN));
        // After a3 no white piece can move: the turn ends after the pawn move.
        let after = allows(&boxed, "a3");
        assert_eq!(after.turns()[0].sans, ["a3"]);
        assert_eq!(after.state().turn(), Color::Black);
        // After gxf3 the king may go to g2, and must.
        assert_eq!(canonical(&boxed, "gxf3,Kg2"), "gxf3,Kg2");
        let error = forbids(
            &boxed,
            "gxf3",
            "a pawn move must be followed by a piece move",
        );
        assert!(matches!(error.reason, Illegal::SecondMoveRequired(_)));
    }
}

/// "With no pawn move available a turn is a single piece move."
#[test]
fn without_a_pawn_move_a_turn_is_one_piece_move() {
    for variant in BOTH {
        let blocked = start(variant, Some(BLOCKED));
        let after = allows(&blocked, "Ra8");
        assert_eq!(after.turns()[0].sans, ["Ra8"]);
        assert_eq!(after.state().turn(), Color::Black);
        let error = forbids(
            &blocked,
            "Ra8,Kd2",
            "2nd move Kd2: no second move is allowed",
        );
        assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
    }
    forbids(
        &start(Variant::Twinmove, Some(BLOCKED)),
        "Ra8,Kd2",
        "a turn starts with a piece move only when no pawn can move, and is then that one move",
    );
}

/// "Never two pawn moves in one turn."
#[test]
fn never_two_pawn_moves_in_one_turn() {
    for variant in BOTH {
        let new = Game::new(variant);
        allows(&new, "e4,Qh5");
        let error = forbids(
            &new,
            "e4,d4",
            "2nd move d4: never two pawn moves in one turn: the second move must be a piece move",
        );
        assert_eq!(error.reason, Illegal::Forbidden(Forbidden::SecondPawnMove));
        forbids(&new, "e3,e4", "never two pawn moves in one turn");
    }
}

/// "A pawn that promotes may make the piece move."
#[test]
fn a_promoted_pawn_may_make_the_piece_move() {
    for variant in BOTH {
        let promotion = start(variant, Some(PROMOTION));
        let moved = allows(&promotion, "a8=N,Nb6");
        assert_eq!(moved.turns()[0].sans, ["a8=N", "Nb6"]);
        assert_eq!(
            moved.state().pos().board().piece_at(Square::B6),
            Some(Color::White.knight())
        );
        // The new queen takes the king along the eighth rank.
        let won = allows(&promotion, "a8=Q,Qxh8");
        assert_end(&won, Some(Color::White), EndReason::KingCaptured);
        // A pawn that has not promoted is still a pawn.
        forbids(
            &start(variant, None),
            "e3,e4",
            "never two pawn moves in one turn",
        );
    }
}

/// "King capture, check ignored": the king may be left en prise, and its
/// capture ends the game at once, even by the pawn move of a turn.
#[test]
fn check_is_ignored_and_the_king_is_captured() {
    for variant in BOTH {
        // The king walks next to the enemy king and stays there.
        let kings = start(variant, Some(PAWN_TAKES_KING));
        let after = allows(&kings, "e5,Ke2");
        assert_eq!(after.record(), "10.e5,Ke2", "no check sign in king capture");
        assert!(!after.state().in_check());
        // The pawn takes the king: the game is over, no piece move follows.
        let won = allows(&kings, "exd5");
        assert_end(&won, Some(Color::White), EndReason::KingCaptured);
        assert_rejects_after_end(&won, "Kc4");
        forbids(
            &kings,
            "exd5,Ra8",
            "2nd move Ra8: no second move is allowed: exd5 captures the king and ends the game",
        );
        // The piece move takes the king.
        let rook = game(variant, Some("3k4/8/8/8/8/8/P7/R3K3 w Q - 0 10"), "");
        let won = allows(&rook, "a3,Rd1");
        assert_not_over(&won);
        let won = allows(&won, "Kc8");
        assert_not_over(&won);
        assert_end(
            &allows(
                &game(variant, Some("3k4/8/8/8/8/8/P7/3RK3 w - - 0 10"), ""),
                "a3,Rxd8",
            ),
            Some(Color::White),
            EndReason::KingCaptured,
        );
    }
}

/// King capture: castling ignores attacked squares, and counts as a piece move.
#[test]
fn castling_is_a_piece_move_that_ignores_attacks() {
    // f1 and g1 are attacked by the rooks on f8 and g8.
    let fen = "4krr1/8/8/8/8/8/P7/4K2R w K - 0 10";
    for variant in BOTH {
        let castles = start(variant, Some(fen));
        let after = allows(&castles, "a3,O-O");
        assert_eq!(after.turns()[0].sans, ["a3", "O-O"]);
        let error = forbids(&castles, "a3,O-O,Kh1", "a turn has at most two moves");
        assert_eq!(error.reason, Illegal::TooManyMoves);
    }
    forbids(
        &start(Variant::Twinmove, Some(fen)),
        "O-O",
        "a pawn move is compulsory while one exists",
    );
    forbids(
        &start(Variant::TwinmoveFree, Some(fen)),
        "O-O,a3",
        "2nd move a3: no second move is allowed: a turn that starts with a piece move is that one move",
    );
}

/// "no en passant".
#[test]
fn there_is_no_en_passant() {
    for variant in BOTH {
        let chance = game(
            variant,
            Some("4k3/3p4/8/4P3/8/8/8/4K1N1 b - - 0 10"),
            "d5,Kd7",
        );
        allows(&chance, "e6+,Nf3");
        forbids(
            &chance,
            "exd6,Nf3",
            "no pawn can capture on d6: the square is empty and en passant is not open now",
        );
        assert!(
            chance
                .state()
                .next_moves(chance.rules())
                .iter()
                .all(|m| !m.is_en_passant())
        );
    }
}

/// "Both sides play pawn+piece from the very first turn."
#[test]
fn both_sides_play_pawn_and_piece_from_the_first_turn() {
    for variant in BOTH {
        let new = Game::new(variant);
        assert_eq!(new.state().phase(), Phase::TurnStart);
        let from_fen = start(variant, Some(common::START_FEN));
        assert_eq!(from_fen.state().phase(), Phase::TurnStart);
        let black = allows(&new, "e4,Nf3");
        let white = allows(&black, "e5,Nc6");
        assert_eq!(white.record(), "1.e4,Nf3 e5,Nc6");
        forbids(&new, "e4", "a pawn move must be followed by a piece move");
    }
}

/// twinmove-free: "the pawn move is optional: a player may play only a
/// piece move and so give up the double move" (from Black's first turn:
/// White's first turn begins with a pawn move, see `settled.rs`).
#[test]
fn twinmove_free_allows_a_lone_piece_move() {
    let black = game(Variant::TwinmoveFree, None, "1.e4,Nf3");
    let after = allows(&black, "Nf6");
    assert_eq!(after.record(), "1.e4,Nf3 Nf6");
    assert_eq!(after.state().turn(), Color::White);
    let error = forbids(
        &black,
        "Nf6,e5",
        "2nd move e5: no second move is allowed: a turn that starts with a piece move is that one move",
    );
    assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
    // A pawn move still needs its piece move.
    forbids(&black, "e5", "a pawn move must be followed by a piece move");
    // The choice is counted: the four knight moves are the extra turns.
    let compulsory = game(Variant::Twinmove, None, "1.e4,Nf3");
    let free_turns = black.state().count_turns(black.rules());
    let compulsory_turns = compulsory.state().count_turns(compulsory.rules());
    assert_eq!(free_turns, compulsory_turns + 4);
}

/// The legal-move summary and perft divide name both moves of a turn.
#[test]
fn first_moves_say_what_follows() {
    let new = Game::new(Variant::Twinmove);
    let firsts = new.state().legal_first_moves(new.rules());
    assert_eq!(firsts.len(), 16);
    assert!(firsts.iter().all(|first| first.m.role() == Role::Pawn));
    // twinmove-free begins with a pawn move too; afterwards a knight's
    // move may start (and be) a turn.
    let free = Game::new(Variant::TwinmoveFree);
    assert_eq!(free.state().legal_first_moves(free.rules()).len(), 16);
    let black = game(Variant::TwinmoveFree, None, "1.e4,Nf3");
    assert_eq!(black.state().legal_first_moves(black.rules()).len(), 20);
}

/// Every legal turn, written in canonical notation, reads back as the same
/// turn, along random games (no panics on the way).
#[test]
fn every_legal_turn_reads_back_as_written() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for variant in BOTH {
        for fen in [None, Some(PROMOTION), Some(BOXED_IN)] {
            let mut current = start(variant, fen);
            for _ in 0..30 {
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
                    assert_eq!(played.text(), text);
                }
                let Some(turn) = turns.get((next() % turns.len().max(1) as u64) as usize) else {
                    break;
                };
                let text = state.turn_text(current.rules(), turn);
                current = allows(&current, &text);
            }
        }
    }
}
