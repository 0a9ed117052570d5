//! Helpers shared by the rules tests: games set up from a FEN and a record,
//! and assertions that a written turn is allowed or forbidden.

use std::fmt;

use pbem_rules::notation::{MoveText, parse_record, parse_turn};
use pbem_rules::{EndReason, Game, PlayError, TurnError, Variant};
use shakmaty::Color;

/// A turn of a record that could not be played.
#[derive(Debug)]
pub struct RecordFailure {
    /// The turn pair number of the rejected turn.
    pub number: u32,
    pub side: Color,
    /// The turn as written.
    pub written: String,
    pub error: PlayError,
}

impl fmt::Display for RecordFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "turn {} {} \"{}\": {}",
            self.number,
            side_name(self.side),
            self.written,
            self.error
        )
    }
}

/// `White` or `Black`.
pub fn side_name(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// A new game of `variant`, from `fen` or the starting position.
pub fn start(variant: Variant, fen: Option<&str>) -> Game {
    match fen {
        Some(fen) => Game::from_fen(variant, fen)
            .unwrap_or_else(|e| panic!("{variant}: bad test FEN {fen}: {e}")),
        None => Game::new(variant),
    }
}

/// Plays every turn of `record` on `game`; stops at the first turn that
/// cannot be played.
pub fn play_record(game: &mut Game, record: &str) -> Result<(), RecordFailure> {
    let record = parse_record(record).unwrap_or_else(|e| panic!("test record does not parse: {e}"));
    for written in &record.turns {
        let number = game.state().turn_number();
        let side = game.state().turn();
        game.play(&written.moves).map_err(|error| RecordFailure {
            number,
            side,
            written: written.text.clone(),
            error,
        })?;
    }
    Ok(())
}

/// A game of `variant` from `fen` (or the starting position) with every
/// turn of `record` played; panics if one is rejected.
pub fn game(variant: Variant, fen: Option<&str>, record: &str) -> Game {
    let mut game = start(variant, fen);
    if let Err(failure) = play_record(&mut game, record) {
        panic!("{variant}: setup record rejected at {failure}");
    }
    game
}

/// One turn as a player writes it; panics if it is not notation at all.
pub fn turn(text: &str) -> Vec<MoveText> {
    parse_turn(text).unwrap_or_else(|e| panic!("test turn {text:?} does not parse: {e}"))
}

/// Plays `text` on a copy of `game`, which must allow it; returns the game
/// after the turn.
pub fn allows(game: &Game, text: &str) -> Game {
    let mut after = game.clone();
    if let Err(error) = after.play(&turn(text)) {
        panic!(
            "{}: {text:?} should be allowed in {} but was rejected: {error}",
            game.variant(),
            game.fen()
        );
    }
    after
}

/// The canonical text of the turn `text` once played (`Nf3,Bb5+`).
pub fn canonical(game: &Game, text: &str) -> String {
    let after = allows(game, text);
    after.turns().last().expect("a turn was just played").text()
}

/// Plays `text` on a copy of `game`, which must reject it as illegal with a
/// message containing `expected`; returns the error.
pub fn forbids(game: &Game, text: &str, expected: &str) -> TurnError {
    let mut copy = game.clone();
    match copy.play(&turn(text)) {
        Ok(played) => panic!(
            "{}: {text:?} should be forbidden ({expected:?}) in {} but was played as {}",
            game.variant(),
            game.fen(),
            played.text()
        ),
        Err(PlayError::GameOver(end)) => panic!(
            "{}: {text:?} should be forbidden ({expected:?}) but the game is over: {end:?}",
            game.variant()
        ),
        Err(PlayError::Illegal(error)) => {
            let message = error.to_string();
            assert!(
                message.contains(expected),
                "{}: {text:?} in {}: expected a message containing {expected:?}, got {message:?}",
                game.variant(),
                game.fen()
            );
            error
        }
    }
}

/// Asserts that the game is over with this winner (`None`: a draw) and reason.
#[track_caller]
pub fn assert_end(game: &Game, winner: Option<Color>, reason: EndReason) {
    let end = game.end().unwrap_or_else(|| {
        panic!(
            "{}: the game should be over in {}",
            game.variant(),
            game.fen()
        )
    });
    assert_eq!(
        (end.winner, end.reason),
        (winner, reason),
        "{}: {}",
        game.variant(),
        game.fen()
    );
}

/// Asserts that the game is still going on.
#[track_caller]
pub fn assert_not_over(game: &Game) {
    assert_eq!(
        game.end(),
        None,
        "{}: the game should go on in {}",
        game.variant(),
        game.fen()
    );
}

/// Asserts that no further turn can be played because the game is over.
#[track_caller]
pub fn assert_rejects_after_end(game: &Game, text: &str) {
    let mut copy = game.clone();
    assert!(
        matches!(copy.play(&turn(text)), Err(PlayError::GameOver(_))),
        "{}: {text:?} should be refused, the game is over",
        game.variant()
    );
}

/// The FEN of the international starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
