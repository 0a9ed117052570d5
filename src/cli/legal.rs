//! `pbem legal`: the legal-move summary a player would get by mail.

use shakmaty::Position;

use super::{CliError, StartArgs};
use crate::render::board::{BoardStyle, draw, legend};
use crate::render::summary::legal_summary;

pub fn run(start: &StartArgs, moves: Option<&str>) -> Result<(), CliError> {
    let game = start.game_after(moves)?;
    let state = game.state();
    println!(
        "{} position after {} turns",
        game.variant().display_name(),
        game.turns().len()
    );
    print!(
        "{}",
        draw(state.pos().board(), state.turn(), BoardStyle::Full)
    );
    println!("{}\n", legend(BoardStyle::Full));
    print!("{}", legal_summary(&game));
    Ok(())
}
