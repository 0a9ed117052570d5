//! `pbem perft`: counts the sequences of legal whole turns of a depth (a
//! turn is one player's whole turn; in chess a turn is a ply). Prints the
//! count below each first turn ("divide"), then `turns(<depth>) = <n>`.

use super::{CliError, StartArgs};

pub fn run(start: &StartArgs, moves: Option<&str>, depth: u32) -> Result<(), CliError> {
    let game = start.game_after(moves)?;
    let state = game.state();
    let rules = game.rules();
    let mut total = 0;
    if depth > 0 && game.end().is_none() {
        state.visit_turns(rules, &mut |turn, after| {
            let count = if after.end().is_some() {
                1
            } else {
                after.perft(rules, depth - 1)
            };
            let mut current = state.clone();
            let text: Vec<String> = turn
                .moves()
                .iter()
                .map(|&m| {
                    let san = current.san(rules, m);
                    current = current.play_move(rules, m);
                    san
                })
                .collect();
            println!("{} {count}", text.join(","));
            total += count;
        });
    } else if depth == 0 {
        total = 1;
    }
    println!("turns({depth}) = {total}");
    Ok(())
}
