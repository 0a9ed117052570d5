//! The games printed on the seed rule pages replay as printed: the four
//! chess2 examples (Example 1's misprinted `2.Bb4+` rejected with a clear
//! message, and accepted as `2.Bb5+`), and the AISE doublemove sample game
//! Salvadori-Castelli 1995 with its `//`, `/`, `:` and `000` notation.

use pbem_rules::notation::{RecordResult, parse_record};
use pbem_rules::{Game, Phase, PlayError, Variant};
use shakmaty::Color;

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("cannot read {full}: {e}"))
}

/// Replays a record; on an illegal turn returns its index and message.
fn replay(variant: Variant, text: &str) -> Result<Game, (usize, String)> {
    let record = parse_record(text).map_err(|e| (0, e.to_string()))?;
    let mut game = Game::new(variant);
    for (index, turn) in record.turns.iter().enumerate() {
        game.play(&turn.moves).map_err(|e| (index, e.to_string()))?;
    }
    Ok(game)
}

#[test]
fn chess2_example_1_as_printed_rejects_the_misprint() {
    let Err((index, message)) =
        replay(Variant::Chess2, &fixture("chess2/example-1-as-printed.txt"))
    else {
        panic!("2.Bb4+ must be rejected");
    };
    assert_eq!(index, 2, "the third turn, White's second");
    assert_eq!(message, "Bb4+: no bishop can reach b4");
}

#[test]
fn chess2_example_1_corrected_is_a_check_answered_by_a_response() {
    let game = replay(Variant::Chess2, &fixture("chess2/example-1.txt")).expect("legal game");
    assert_eq!(game.record(), "1.e4 c5,d6 2.Bb5+ Nd7");
    assert_eq!(
        game.state().phase(),
        Phase::TurnStart,
        "Nd7 was a response; White starts a normal turn"
    );
    assert_eq!(game.state().turn(), Color::White);
}

#[test]
fn chess2_example_2_checks_on_the_second_move() {
    let game = replay(Variant::Chess2, &fixture("chess2/example-2.txt")).expect("legal game");
    assert_eq!(game.record(), "1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6");
}

#[test]
fn chess2_example_3_single_move_offering_en_passant() {
    let mut game = Game::new(Variant::Chess2);
    let record = parse_record(&fixture("chess2/example-3.txt")).expect("readable");
    for turn in &record.turns[..4] {
        game.play(&turn.moves).expect("legal turn");
    }
    assert_eq!(
        game.state().phase(),
        Phase::Response,
        "2...e5 allowed dxe6 e.p., so White responds"
    );
    let exd6_ep = pbem_rules::notation::parse_turn("dxe6").expect("readable");
    assert!(
        game.clone().play(&exd6_ep).is_ok(),
        "the response may take en passant"
    );
    game.play(&record.turns[4].moves)
        .expect("3.Nc3 declines en passant");
    assert_eq!(game.state().phase(), Phase::TurnStart);
}

#[test]
fn chess2_example_4_full_game() {
    let text = fixture("chess2/example-4.txt");
    let game = replay(Variant::Chess2, &text).expect("legal game");
    assert_eq!(game.turns().len(), 61, "30 turn pairs and White's 31st");
    assert_eq!(
        game.end(),
        None,
        "the game was drawn by agreement, not by rule"
    );
    assert_eq!(
        parse_record(&text).expect("readable").result,
        Some(RecordResult::Draw)
    );
    let last = game.turns().last().expect("turns were played");
    assert_eq!(last.numbered(), "31.exf5");
}

#[test]
fn doublemove_salvadori_castelli_1995_as_printed() {
    let game = replay(
        Variant::Doublemove,
        &fixture("doublemove/salvadori-castelli-1995.txt"),
    )
    .expect("legal game");
    assert_eq!(game.turns().len(), 16);
    assert_eq!(
        game.record(),
        "1.Nc3 Nc6,e6 2.Nf3,e3 Bb4,b6 3.Ba6,Bxc8 Qxc8,Nf6 4.Ne4,c3 Nxe4,Qa6 \
         5.Qe2,Qxa6 Nb8,Nxa6 6.Ng5,Nxe4 d5,dxe4 7.cxb4,Ke2 Nxb4,O-O-O 8.Rb1,d4 Rxd4,Nc2"
    );
    assert_eq!(game.end(), None);
}

#[test]
fn a_two_move_first_turn_is_refused_in_chess2() {
    let err = replay(Variant::Chess2, "1.e4,d4").expect_err("White's first turn is one move");
    assert_eq!(
        err.1,
        "2nd move d4: no second move is allowed: White's first turn is a single move"
    );
}

#[test]
fn moves_after_the_end_are_refused() {
    // Fool's mate in chess: a fifth turn is refused with the result.
    let mut game = replay(Variant::Chess, "1.f3 e5 2.g4 Qh4#").expect("legal game");
    assert_eq!(game.record(), "1.f3 e5 2.g4 Qh4#");
    let more = pbem_rules::notation::parse_turn("a3").expect("readable");
    assert!(matches!(game.play(&more), Err(PlayError::GameOver(_))));
}
