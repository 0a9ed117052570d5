//! `pbem replay`: reads a game record and replays it under a variant's
//! rules. Prints one line per turn, then `fen: <FEN>` and
//! `result: <score> [<reason>]`; stops at the first illegal turn.

use std::path::Path;

use shakmaty::Color;

use super::{CliError, StartArgs, parse, read_input};
use crate::rules::notation::RecordResult;
use crate::rules::{Game, PlayError};

pub fn run(start: &StartArgs, file: Option<&Path>) -> Result<(), CliError> {
    let text = read_input(file)?;
    let mut game = start.new_game()?;
    let recorded = play_record_printing(&mut game, &text, true)?;
    println!("fen: {}", game.fen());
    match (game.end(), recorded) {
        (Some(end), _) => println!("result: {} {}", end.score(), end.reason.describe()),
        (None, Some(RecordResult::WhiteWins)) => println!("result: 1-0 as recorded"),
        (None, Some(RecordResult::BlackWins)) => println!("result: 0-1 as recorded"),
        (None, Some(RecordResult::Draw)) => println!("result: 1/2-1/2 as recorded"),
        (None, Some(RecordResult::Unfinished) | None) => println!("result: *"),
    }
    Ok(())
}

/// Plays every turn of a record on `game`.
pub fn play_record(game: &mut Game, text: &str) -> Result<(), CliError> {
    play_record_printing(game, text, false).map(|_| ())
}

fn play_record_printing(
    game: &mut Game,
    text: &str,
    print: bool,
) -> Result<Option<RecordResult>, CliError> {
    let record = parse(text)?;
    for written in &record.turns {
        let mover = game.state().turn();
        let number = game.state().turn_number();
        let side = match mover {
            Color::White => "White",
            Color::Black => "Black",
        };
        let rejected = |reason: String| {
            CliError::Rejected(format!(
                "error: turn {number} {side} \"{}\": {reason}",
                written.text
            ))
        };
        if written.black_hint && mover == Color::White {
            return Err(rejected(
                "the record gives this turn to Black, but White is to move".into(),
            ));
        }
        match game.play(&written.moves) {
            Ok(played) => {
                if print {
                    println!("{}", played.numbered());
                }
            }
            Err(PlayError::Illegal(error)) => return Err(rejected(error.detail())),
            Err(PlayError::GameOver(end)) => {
                return Err(rejected(format!(
                    "the game is already over ({} {})",
                    end.score(),
                    end.reason.describe()
                )));
            }
        }
    }
    Ok(record.result)
}
