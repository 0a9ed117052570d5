//! Rules shared by every variant (docs/rules.md, sections "Common ground",
//! "Draws" and "Notation"), and international chess itself (docs/rules.md,
//! "chess").
//!
//! Each test names the bullet it covers, plays a turn the rule allows and a
//! turn it forbids (checking the reason), and, for rules about the end of the
//! game, checks `Game::end`.

use crate::common;

use common::{
    START_FEN, allows, assert_end, assert_not_over, assert_rejects_after_end, canonical, forbids,
    game, play_record, start,
};
use pbem_rules::game::DrawClaim;
use pbem_rules::notation::{parse_record, parse_turn};
use pbem_rules::{EndReason, Game, Illegal, Phase, Variant};
use shakmaty::Color;

// ---------------------------------------------------------------------------
// Board, moves and turns

/// "Board, pieces and starting position are those of international (FIDE) chess."
#[test]
fn every_variant_starts_from_the_fide_position() {
    for variant in Variant::ALL {
        let game = Game::new(variant);
        assert_eq!(game.fen(), START_FEN, "{variant}");
        assert_eq!(game.state().turn(), Color::White, "{variant}");
        assert_not_over(&game);
    }
    let chess = Game::new(Variant::Chess);
    allows(&chess, "e4");
    allows(&chess, "Nf3");
    forbids(&chess, "e5", "no pawn can reach e5");
    forbids(&chess, "Bc4", "no bishop can reach c4");
}

/// "castling is one move. A *turn* is everything a player does before the opponent moves."
#[test]
fn castling_is_one_move_of_a_turn() {
    let castles = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 10";
    let marseillais = start(Variant::Marseillais, Some(castles));
    // Castling and one more move make a whole two-move turn.
    let after = allows(&marseillais, "O-O,Kh1");
    assert_eq!(after.state().turn(), Color::Black);
    assert_eq!(after.turns()[0].sans, ["O-O", "Kh1"]);
    let error = forbids(&marseillais, "O-O,Kh1,Kg1", "a turn has at most two moves");
    assert_eq!(error.reason, Illegal::TooManyMoves);
    // In chess, castling is the whole turn.
    let chess = start(Variant::Chess, Some(castles));
    assert_eq!(allows(&chess, "O-O").state().turn(), Color::Black);
    forbids(&chess, "O-O,Kh1", "a turn is one move");
}

/// "Legal by FIDE": "own king not left attacked".
#[test]
fn a_move_may_not_leave_the_own_king_attacked() {
    // The knight on e2 is pinned by the rook on e8.
    let pinned = start(Variant::Chess, Some("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 10"));
    allows(&pinned, "Kd2");
    let error = forbids(&pinned, "Nc3", "it would leave your king in check");
    assert_eq!(error.reason, Illegal::LeavesKingInCheck);
    // A king in check must end the check.
    let checked = start(Variant::Chess, Some("4k3/8/8/8/8/8/P7/r3K3 w - - 0 10"));
    allows(&checked, "Kd2");
    let error = forbids(
        &checked,
        "a3",
        "your king is in check and this move does not end the check",
    );
    assert_eq!(error.reason, Illegal::DoesNotEscapeCheck);
}

/// "Legal by FIDE": "castling not out of, through or into attack".
#[test]
fn castling_not_out_of_through_or_into_attack() {
    let out_of = start(Variant::Chess, Some("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 10"));
    allows(&out_of, "Kf2");
    let error = forbids(&out_of, "O-O", "you may not castle while in check");
    assert_eq!(error.reason, Illegal::CastlingOutOfCheck);

    let through = start(Variant::Chess, Some("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 10"));
    allows(&through, "O-O-O");
    let error = forbids(
        &through,
        "O-O",
        "the king may not castle through or into check",
    );
    assert_eq!(error.reason, Illegal::CastlingThroughCheck);

    let into = start(Variant::Chess, Some("1k4r1/8/8/8/8/8/8/R3K2R w KQ - 0 10"));
    allows(&into, "0-0-0");
    forbids(
        &into,
        "0-0",
        "the king may not castle through or into check",
    );
}

/// "Legal by FIDE": "en passant only right after the double step".
#[test]
fn en_passant_only_right_after_the_double_step() {
    let fen = "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 10";
    let now = game(Variant::Chess, Some(fen), "d5");
    assert_eq!(canonical(&now, "exd6"), "exd6");
    let later = game(Variant::Chess, Some(fen), "d5 Kd1 Ke7");
    forbids(
        &later,
        "exd6",
        "no pawn can capture on d6: the square is empty and en passant is not open now",
    );
}

// ---------------------------------------------------------------------------
// King-capture variants

/// King capture: "moves may leave or put the own king en prise".
#[test]
fn king_capture_variants_ignore_check() {
    for variant in [Variant::Doublemove, Variant::DoublemoveClassic] {
        // The knight on e2 is "pinned": it may move all the same.
        let pinned = start(variant, Some("4r1k1/8/8/8/8/8/4N3/4K3 w - - 0 10"));
        allows(&pinned, "Nc3,Nd5");
        // The king may walk into the rook's file, and stay in check.
        let open = start(variant, Some("3rk3/8/8/8/8/8/P7/4K3 w - - 0 10"));
        allows(&open, "Kd2,a3");
        // ... which the same position in chess forbids.
        let chess = start(Variant::Chess, Some("3rk3/8/8/8/8/8/P7/4K3 w - - 0 10"));
        forbids(&chess, "Kd2", "it would leave your king in check");
    }
}

/// King capture: "castling ignores attacked squares".
#[test]
fn king_capture_castling_ignores_attacks() {
    for variant in [Variant::Doublemove, Variant::DoublemoveClassic] {
        // Through f1, attacked by the rook on f8.
        let through = start(variant, Some("4kr2/8/8/8/8/8/P7/4K2R w K - 0 10"));
        assert_eq!(canonical(&through, "O-O,a3"), "O-O,a3");
        // Out of check from the rook on e8.
        let out_of = start(variant, Some("4r1k1/8/8/8/8/8/P7/4K2R w K - 0 10"));
        allows(&out_of, "O-O,a3");
        // Castling still needs the right and an empty path.
        let blocked = start(variant, Some("4r1k1/8/8/8/8/8/P7/4K1NR w K - 0 10"));
        forbids(
            &blocked,
            "O-O,a3",
            "cannot castle kingside: there are pieces between king and rook",
        );
    }
}

/// King capture: "capturing the enemy king ends the game at once, even in the middle of a turn".
#[test]
fn capturing_the_king_ends_the_game_at_once() {
    for variant in [Variant::Doublemove, Variant::DoublemoveClassic] {
        let fen = "4k3/8/8/8/8/8/P7/4QK2 w - - 0 10";
        let position = start(variant, Some(fen));
        // With the first move of a turn: the turn and the game end there.
        let first = allows(&position, "Qxe8");
        assert_end(&first, Some(Color::White), EndReason::KingCaptured);
        assert_eq!(first.record(), "10.Qxe8");
        assert_rejects_after_end(&first, "Kd7,Kd6");
        let error = forbids(
            &position,
            "Qxe8,a3",
            "2nd move a3: no second move is allowed: Qxe8 captures the king and ends the game",
        );
        assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
        // With the second move.
        let second = allows(&position, "a3,Qxe8");
        assert_end(&second, Some(Color::White), EndReason::KingCaptured);
    }
    let fen = "4k3/8/8/8/8/8/P3r3/5K2 b - - 0 10";
    let black = start(Variant::Doublemove, Some(fen));
    let won = allows(&black, "Re1,Rxf1");
    assert_end(&won, Some(Color::Black), EndReason::KingCaptured);
}

// ---------------------------------------------------------------------------
// Checkmate and stalemate at the start of a turn

/// "cannot complete any legal turn at the start of a turn is checkmated if in check".
#[test]
fn checkmate_ends_the_game() {
    let mut chess = Game::new(Variant::Chess);
    play_record(&mut chess, "1.f3 e5 2.g4").unwrap();
    let mated = allows(&chess, "Qh4");
    assert_end(&mated, Some(Color::Black), EndReason::Checkmate);
    assert_eq!(mated.record(), "1.f3 e5 2.g4 Qh4#");
    assert_rejects_after_end(&mated, "e4");
    // Another move, and the game goes on.
    assert_not_over(&allows(&chess, "Bb4"));
}

/// "... checkmated if in check": no complete turn, in check, in a two-move variant.
#[test]
fn checkmate_when_no_complete_turn_escapes_check() {
    // White is in check; the only legal move, Ke1, pins the bishop on e2 and
    // leaves no second move, so White has no complete Marseillais turn.
    let fen = "k2rr3/8/8/2b5/6pp/6pb/4BK2/8 w - - 0 10";
    for variant in [Variant::Marseillais, Variant::BalancedMarseillais] {
        let mated = start(variant, Some(fen));
        assert_end(&mated, Some(Color::Black), EndReason::Checkmate);
        assert_rejects_after_end(&mated, "Ke1");
    }
    // In chess the single move Ke1 is a whole turn.
    let chess = start(Variant::Chess, Some(fen));
    assert_not_over(&chess);
    allows(&chess, "Ke1");
    forbids(
        &chess,
        "Kg2",
        "your king is in check and this move does not end the check",
    );
}

/// "... otherwise stalemated (draw)".
#[test]
fn stalemate_is_a_draw() {
    let chess = start(Variant::Chess, Some("7k/8/6K1/8/8/8/8/5Q2 w - - 0 10"));
    let stalemated = allows(&chess, "Qf7");
    assert_end(&stalemated, None, EndReason::Stalemate);
    assert_rejects_after_end(&stalemated, "Kg8");
    // Qf2 leaves the black king g8.
    assert_not_over(&allows(&chess, "Qf2"));
    // King capture: a player without any move at all is stalemated too.
    let frozen = "4k3/8/8/8/4p1p1/3pPpPp/3P1PRP/5NBK w - - 0 10";
    for variant in [Variant::Doublemove, Variant::DoublemoveClassic] {
        let game = start(variant, Some(frozen));
        assert_end(&game, None, EndReason::Stalemate);
    }
}

// ---------------------------------------------------------------------------
// Draws

/// "threefold repetition (claim)".
#[test]
fn threefold_repetition_may_be_claimed() {
    let twice = game(Variant::Chess, None, "1.Nf3 Nf6 2.Ng1 Ng8");
    assert_eq!(twice.repetitions(), 2);
    assert_eq!(twice.draw_claim(), None);
    let thrice = game(
        Variant::Chess,
        None,
        "1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8",
    );
    assert_eq!(thrice.repetitions(), 3);
    assert_eq!(thrice.draw_claim(), Some(DrawClaim::ThreefoldRepetition));
    // A claim, not the end: play may go on.
    assert_not_over(&thrice);
    allows(&thrice, "Nf3");
}

/// "fivefold (automatic)".
#[test]
fn fivefold_repetition_ends_the_game() {
    let four = game(
        Variant::Chess,
        None,
        "1.Nf3 Nf6 2.Ng1 Ng8 3.Nf3 Nf6 4.Ng1 Ng8 5.Nf3 Nf6 6.Ng1 Ng8 7.Nf3 Nf6 8.Ng1",
    );
    assert_not_over(&four);
    let five = allows(&four, "Ng8");
    assert_end(&five, None, EndReason::FivefoldRepetition);
    assert_rejects_after_end(&five, "Nf3");
    // The same in a two-move variant, counting turn-start positions.
    let marseillais = game(
        Variant::Marseillais,
        None,
        "1.Nf3,Ng1 Nf6,Ng8 2.Nf3,Ng1 Nf6,Ng8 3.Nf3,Ng1 Nf6,Ng8 4.Nf3,Ng1",
    );
    assert_not_over(&marseillais);
    let five = allows(&marseillais, "Nf6,Ng8");
    assert_end(&five, None, EndReason::FivefoldRepetition);
}

/// "a position includes who moves next *and the phase of the turn*": response turn.
#[test]
fn repetition_tells_a_response_turn_from_a_turn_start() {
    // Black to move with the same board twice: once for a response move
    // (after White's single-move check Rb8+) and once at the start of an
    // ordinary turn (after White's two-move turn ending with Rb8+).
    let fen = "7k/8/8/3n4/8/8/1R6/K2N4 w - - 0 10";
    let response = game(Variant::Chess2, Some(fen), "Rb8+");
    assert_eq!(response.state().phase(), Phase::Response);
    assert_eq!(response.repetitions(), 1);
    let turn_start = game(
        Variant::Chess2,
        Some(fen),
        "Rb8+ Kh7 Ka2,Rb2 Kg7,Nf6 Ka1,Nc3 Kh8,Nd5 Nd1,Rb8+",
    );
    let position =
        |game: &Game| -> Vec<String> { game.fen().split(' ').take(4).map(String::from).collect() };
    assert_eq!(position(&turn_start), position(&response));
    assert_eq!(turn_start.state().phase(), Phase::TurnStart);
    assert_eq!(
        turn_start.repetitions(),
        1,
        "a response position is another position"
    );
    // The phases really differ: a single move is a response turn only once.
    allows(&response, "Kh7");
    forbids(
        &turn_start,
        "Kh7",
        "neither checks, captures, promotes nor gives the opponent a legal en passant capture",
    );
}

/// "the phase of the turn (turn start, half-way through a two-move turn ...)".
#[test]
fn repetition_tells_a_half_way_position_from_a_turn_start() {
    // White's king walks a triangle, one step per move, so that the board
    // of the start position comes back half-way through White's second turn.
    let fen = "1k6/8/8/p7/P7/8/8/7K w - - 0 10";
    let game = game(
        Variant::Marseillais,
        Some(fen),
        "Kh2,Kg1 Kc8,Kb8 Kh1,Kh2 Kc8,Kb8 Kg1,Kh1 Kc8,Kb8",
    );
    assert_eq!(game.fen().split(' ').next(), Some("1k6/8/8/p7/P7/8/8/7K"));
    assert_eq!(game.state().phase(), Phase::TurnStart);
    // The start position twice; Kh1 half-way through a turn does not count.
    assert_eq!(game.repetitions(), 2);
    assert_eq!(game.draw_claim(), None);
}

/// "fivefold (automatic), where a position includes ... half-way through a two-move turn".
#[test]

fn fivefold_repetition_of_a_half_way_position_ends_the_game() {
    // Every White turn begins with a knight move to f3, from g1 or from h4,
    // so the position after it (White to play the second move) recurs every
    // turn while the turn-start positions recur every other turn.
    let fen = "1k6/8/8/p7/P7/8/8/6NK w - - 0 10";
    let four = game(
        Variant::Marseillais,
        Some(fen),
        "Nf3,Nh4 Kc8,Kb8 Nf3,Ng1 Kc8,Kb8 Nf3,Nh4 Kc8,Kb8 Nf3,Ng1 Kc8,Kb8",
    );
    assert_not_over(&four);
    assert_eq!(four.repetitions(), 3);
    // The fifth time the knight stands on f3 half-way through White's turn.
    let fifth = allows(&four, "Nf3,Nh4");
    assert_end(&fifth, None, EndReason::FivefoldRepetition);
}

/// "the 50/75-move rules count whole turns in multi-move variants".
#[test]
fn fifty_and_seventy_five_move_rules_count_whole_turns() {
    let fen = |quiet: u32| format!("1k6/8/8/p7/P7/8/7P/6NK w - - {quiet} 60");
    // 98 quiet turns: one two-move turn makes 99, not 100.
    let before = start(Variant::Marseillais, Some(&fen(98)));
    let one = allows(&before, "Nf3,Ng5");
    assert_eq!(one.state().quiet_turns(), 99);
    assert_eq!(one.draw_claim(), None);
    let two = allows(&one, "Kc8,Kb8");
    assert_eq!(two.state().quiet_turns(), 100);
    assert_eq!(two.draw_claim(), Some(DrawClaim::FiftyTurnRule));
    assert_not_over(&two);
    // A pawn move in the second move of a turn starts the count again.
    let pawn = allows(&before, "Nf3,h3");
    assert_eq!(pawn.state().quiet_turns(), 0);
    // 75 moves by each player: 150 whole turns end the game.
    let late = start(Variant::Marseillais, Some(&fen(148)));
    let turn_149 = allows(&late, "Nf3,Ng5");
    assert_not_over(&turn_149);
    let turn_150 = allows(&turn_149, "Kc8,Kb8");
    assert_end(&turn_150, None, EndReason::SeventyFiveTurnRule);
    assert_rejects_after_end(&turn_150, "Nf3,Ng1");
    // In chess a turn is one move: 100 and 150 plies, as by FIDE.
    let chess = start(Variant::Chess, Some(&fen(99)));
    assert_eq!(
        allows(&chess, "Nf3").draw_claim(),
        Some(DrawClaim::FiftyTurnRule)
    );
    let chess = start(Variant::Chess, Some(&fen(149)));
    assert_end(&allows(&chess, "Nf3"), None, EndReason::SeventyFiveTurnRule);
}

/// "Draws: ... insufficient material".
#[test]
fn insufficient_material_is_a_draw() {
    // Chess: king and bishop against king.
    let chess = start(Variant::Chess, Some("4k3/8/8/8/8/8/3r4/3BK3 w - - 0 10"));
    let dead = allows(&chess, "Kxd2");
    assert_end(&dead, None, EndReason::InsufficientMaterial);
    assert_rejects_after_end(&dead, "Ke7");
    assert_not_over(&allows(&chess, "Kf1"));
    // Check-based multi-move variants: bare kings.
    let bare = "4k3/8/8/8/8/8/3r4/4K3 w - - 0 10";
    let marseillais = start(Variant::Marseillais, Some(bare));
    let dead = allows(&marseillais, "Kxd2,Ke3");
    assert_end(&dead, None, EndReason::InsufficientMaterial);
    for variant in [Variant::Chess2, Variant::TwoMove] {
        let dead = allows(&start(variant, Some(bare)), "Kxd2");
        assert_end(&dead, None, EndReason::InsufficientMaterial);
    }
    let dead = allows(&start(Variant::Extramove, Some(bare)), "Kxd2");
    assert_end(&dead, None, EndReason::InsufficientMaterial);
    // King capture (decision in the help text): a bare king can still walk
    // into capture, so nothing is ever dead.
    let doublemove = start(Variant::Doublemove, Some(bare));
    assert_not_over(&allows(&doublemove, "Kxd2,Ke3"));
}

// ---------------------------------------------------------------------------
// Notation

/// "Game records use SAN per move, the moves of one turn joined by a comma".
#[test]
fn records_are_san_joined_by_commas() {
    let record = "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6";
    let game = game(Variant::Chess2, None, record);
    assert_eq!(game.record(), record);
    assert_eq!(game.turns()[2].numbered(), "2.Nf3,Bb5+");
    assert_eq!(game.turns()[3].numbered(), "2...Nd7,Nf6");
}

/// "Input must also accept `/` as the joiner, `//` after White's lone first move".
#[test]
fn slash_joiner_and_double_slash() {
    let slashes = game(Variant::Doublemove, None, "1.Nc3// Nc6/e6 2.Nf3/e3");
    assert_eq!(slashes.record(), "1.Nc3 Nc6,e6 2.Nf3,e3");
    let chess2 = game(Variant::Chess2, None, "1.e4// c5/d6 2.Nf3/Bb5+ Nd7 / Nf6");
    assert_eq!(chess2.record(), "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6");
    // `//` ends the turn: what follows is the opponent's.
    let mut marseillais = Game::new(Variant::Marseillais);
    let failure = play_record(&mut marseillais, "1.e4// d4").unwrap_err();
    assert_eq!(failure.number, 1);
    assert_eq!(failure.side, Color::White);
    assert!(
        failure.to_string().contains("a turn is two moves here"),
        "{failure}"
    );
    assert!(parse_turn("Nf3//Nc3").is_err());
}

/// "`:` for captures (`B:c8`, `d:e4`), `0-0`, `000`, `O-O-O`".
#[test]
fn colon_captures_and_castling_forms() {
    let fen = "r3k2r/ppp2ppp/2n5/3p4/4P3/2N5/PPP2PPP/R3K2R w KQkq - 0 10";
    let chess = start(Variant::Chess, Some(fen));
    assert_eq!(canonical(&chess, "e:d5"), "exd5");
    assert_eq!(canonical(&chess, "N:d5"), "Nxd5");
    assert_eq!(canonical(&chess, "exd5:"), "exd5");
    for castle in ["0-0", "O-O", "00", "e1g1", "Ke1-g1"] {
        assert_eq!(canonical(&chess, castle), "O-O", "{castle}");
    }
    for castle in ["000", "0-0-0", "O-O-O", "e1c1"] {
        assert_eq!(canonical(&chess, castle), "O-O-O", "{castle}");
    }
    let black = game(Variant::Chess, Some(fen), "a3");
    assert_eq!(canonical(&black, "d:e4"), "dxe4");
    assert_eq!(canonical(&black, "000"), "O-O-O");
    // A capture sign where nothing can be taken.
    forbids(&chess, "e:f5", "no pawn can capture on f5");
    forbids(&chess, "Nxe5", "no knight can reach e5");
    assert!(parse_turn("0-0-0-0").is_err());
}

/// "long algebraic (`e2-e4`, `Ng1-f3`) and UCI (`e2e4`)".
#[test]
fn long_algebraic_and_uci() {
    let chess2 = Game::new(Variant::Chess2);
    for written in ["e2-e4", "e2e4", "Pe2-e4", "e4"] {
        assert_eq!(canonical(&chess2, written), "e4", "{written}");
    }
    let black = game(Variant::Chess2, None, "1.e4");
    assert_eq!(canonical(&black, "c7-c5,d7d6"), "c5,d6");
    let white = game(Variant::Chess2, None, "1.e4 c5,d6");
    assert_eq!(canonical(&white, "Ng1-f3,f1b5"), "Nf3,Bb5+");
    assert_eq!(canonical(&white, "f1-b5"), "Bb5+");
    // Squares that name no move.
    forbids(&chess2, "e2-e5", "the pawn on e2 cannot move to e5");
    forbids(&chess2, "e3e4", "you have no piece on e3");
    forbids(&chess2, "Ng1-e2", "the knight on g1 cannot move to e2");
}

/// "ignore `+ # ! ?` annotations. Output is always canonical SAN with the comma joiner."
#[test]
fn annotations_are_ignored_and_output_is_canonical() {
    let mated = game(Variant::Chess, None, "1.f3? e5! 2.g4?? Qh4+!!");
    assert_eq!(mated.record(), "1.f3 e5 2.g4 Qh4#");
    assert_end(&mated, Some(Color::Black), EndReason::Checkmate);
    let chess2 = game(Variant::Chess2, None, "1.e4!? c5,d6?!");
    // A wrong annotation is ignored as well: Bb5# is written, Bb5+ is played.
    assert_eq!(canonical(&chess2, "Nf3!,Bb5#"), "Nf3,Bb5+");
    assert_eq!(canonical(&chess2, "Bb5"), "Bb5+");
    // Promotion is written with "=".
    let promote = start(Variant::Chess, Some("8/4P3/8/8/8/8/k7/4K3 w - - 0 10"));
    assert_eq!(canonical(&promote, "e7e8q"), "e8=Q");
    assert_eq!(canonical(&promote, "e8N"), "e8=N");
    let error = forbids(
        &promote,
        "e8",
        "ambiguous: could be e8=Q or e8=R or e8=B or e8=N",
    );
    assert!(matches!(error.reason, Illegal::Ambiguous(_)));
    // Not notation at all.
    assert!(parse_turn("Nf3,Bx").is_err());
    assert!(parse_record("1.e4 e5 2.Nf3 thanks").is_err());
}

/// "`1.e4 c5` means Black played a single-move turn, which chess2 forbids here".
#[test]
fn a_record_turn_is_a_whole_turn() {
    let mut chess2 = Game::new(Variant::Chess2);
    let failure = play_record(&mut chess2, "1.e4 c5").unwrap_err();
    assert_eq!((failure.number, failure.side), (1, Color::Black));
    assert!(
        failure.to_string().contains(
            "neither checks, captures, promotes nor gives the opponent a legal en passant capture"
        ),
        "{failure}"
    );
    assert_eq!(game(Variant::Chess2, None, "1.e4 c5,d6").turns().len(), 2);
    // "a record never ends in the middle of a turn": a lone move is not
    // half a turn to be finished later.
    let mut marseillais = Game::new(Variant::Marseillais);
    let failure = play_record(&mut marseillais, "1.e4").unwrap_err();
    assert_eq!((failure.number, failure.side), (1, Color::White));
    assert!(
        failure.to_string().contains("a turn is two moves here"),
        "{failure}"
    );
    assert_eq!(marseillais.turns().len(), 0);
    assert_eq!(marseillais.state().phase(), Phase::TurnStart);
}

// ---------------------------------------------------------------------------
// chess

/// chess: "ordinary correspondence chess, one move per turn".
#[test]
fn chess_is_one_move_per_turn() {
    let chess = Game::new(Variant::Chess);
    let after = allows(&chess, "e4");
    assert_eq!(after.state().turn(), Color::Black);
    assert_eq!(after.state().phase(), Phase::TurnStart);
    let error = forbids(
        &chess,
        "e4,d4",
        "2nd move d4: no second move is allowed: a turn is one move",
    );
    assert!(matches!(error.reason, Illegal::TurnAlreadyOver(_)));
    let game = game(Variant::Chess, None, "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.O-O");
    assert_eq!(game.record(), "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.O-O");
    forbids(&game, "Nf6,Be7", "a turn is one move");
}

/// A FEN whose side not to move is in check cannot arise where check exists.
#[test]
fn a_position_with_the_side_not_to_move_in_check_is_refused() {
    let fen = "4k3/8/8/8/8/8/6PP/4R2K w - - 0 10";
    for variant in [
        Variant::Chess,
        Variant::Chess2,
        Variant::Marseillais,
        Variant::Extramove,
    ] {
        let error = Game::from_fen(variant, fen).expect_err("no legal game reaches it");
        assert!(
            error
                .to_string()
                .contains("black is in check with white to move"),
            "{error}"
        );
    }
    assert!(
        Game::from_fen(Variant::Doublemove, fen).is_ok(),
        "king capture: the king may be en prise"
    );
}

/// `+` marks a move that gives check; a quiet second move after a checking
/// first one carries none, and `#` goes on the move that mated.
#[test]
fn check_and_mate_signs_go_on_the_moves_that_give_them() {
    let checking = game(
        Variant::Extramove,
        Some("4k3/8/8/8/8/8/7P/R3K3 w - - 0 10"),
        "Ra8+,h3",
    );
    assert_eq!(checking.record(), "10.Ra8+,h3");
    let mating = game(
        Variant::Extramove,
        Some("6k1/5ppp/8/8/8/8/7P/R3K3 w - - 0 10"),
        "Ra8,h3",
    );
    assert_eq!(mating.record(), "10.Ra8#,h3");
    assert_end(&mating, Some(Color::White), EndReason::Checkmate);
}
