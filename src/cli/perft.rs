//! `pbem perft`: counts the sequences of legal whole turns of a depth (a
//! turn is one player's whole turn; in chess a turn is a ply, and in the
//! doublestep variants a doublestep is one turn). Prints the count below
//! each first turn ("divide"), then `turns(<depth>) = <n>`.

use super::{CliError, StartArgs};

pub fn run(start: &StartArgs, moves: Option<&str>, depth: u32) -> Result<(), CliError> {
    let game = start.game_after(moves)?;
    let state = game.state();
    let rules = game.rules();
    let mut total = 0;
    if depth > 0 && game.end().is_none() {
        state.visit_turns(rules, &mut |turn, after| {
            // A turn that ends the game counts at its own depth only.
            let count = match (depth, after.end()) {
                (1, _) => 1,
                (_, Some(_)) => 0,
                (_, None) => after.perft(rules, depth - 1),
            };
            println!("{} {count}", state.turn_text(rules, turn));
            total += count;
        });
    } else if depth == 0 {
        total = 1;
    }
    println!("turns({depth}) = {total}");
    Ok(())
}
