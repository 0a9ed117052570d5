//! Loading a board: its row, its stored turns and the game they replay
//! (or, for the board mails at the end of a mail, the game the turn just
//! played left).

use crate::domain::BoardNumber;
use crate::rules::Game;
use crate::rules::notation::parse_turn;
use crate::service::{Ctx, Failure, ServiceError, refuse};
use crate::store::boards::{self, Board, StoredTurn};

/// A board with its game replayed.
pub struct Loaded {
    pub board: Board,
    pub game: Game,
    pub turns: Vec<StoredTurn>,
}

/// Loads board `number`, refusing politely when it does not exist.
pub fn load(ctx: &Ctx<'_>, number: BoardNumber) -> Result<Loaded, Failure> {
    let board = get(ctx, number)?;
    let turns = boards::turns(ctx.conn, number)?;
    let game = replay(&board, &turns, turns.len())?;
    Ok(Loaded { board, game, turns })
}

fn get(ctx: &Ctx<'_>, number: BoardNumber) -> Result<Board, Failure> {
    boards::get(ctx.conn, number)?
        .ok_or_else(|| refuse(format!("there is no board {number}"), None))
}

/// Loads board `number` for its board mails: its turns and game as the
/// turn just played left them, if that turn was on this board (see
/// `Later::after_turn`), with its row read again; and whether a turn was
/// just played on it.
pub(super) fn load_for_mails(
    ctx: &Ctx<'_>,
    number: BoardNumber,
) -> Result<(Loaded, bool), Failure> {
    match ctx.take_after_turn(number) {
        Some(Loaded { game, turns, .. }) => Ok((
            Loaded {
                board: get(ctx, number)?,
                game,
                turns,
            },
            true,
        )),
        None => Ok((load(ctx, number)?, false)),
    }
}

/// The game of a board after its first `count` turns.
pub fn replay(board: &Board, turns: &[StoredTurn], count: usize) -> Result<Game, ServiceError> {
    let mut game = board.initial_game();
    for turn in turns.iter().take(count) {
        let corrupt = |reason: String| ServiceError::CorruptGame {
            board: board.number,
            reason,
        };
        let moves =
            parse_turn(&turn.text).map_err(|e| corrupt(format!("turn {}: {e}", turn.seq)))?;
        game.play(&moves)
            .map_err(|e| corrupt(format!("turn {}: {e}", turn.seq)))?;
    }
    Ok(game)
}
