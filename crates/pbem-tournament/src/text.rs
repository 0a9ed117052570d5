//! Crosstables, standings and knockout brackets as plain text that lines
//! up in a fixed-width font (every column padded by characters, `½`
//! counting as one). Up to [`super::MAX_ROUND_ROBIN`] players a
//! round-robin table is about 150 characters wide; a bracket is one column
//! per round, and as many lines as twice its seats.

use std::fmt::Write;

use super::knockout::{Bracket, Decision, Match, round_name};
use super::table::{Crosstable, Row};
use super::{Tiebreak, points_text};

/// A tiebreak value (hundredths) as shown: `12`, `7.5`, `3.25`.
pub fn value_text(hundredths: i64) -> String {
    let sign = if hundredths < 0 { "-" } else { "" };
    let v = hundredths.unsigned_abs();
    match v % 100 {
        0 => format!("{sign}{}", v / 100),
        r if r % 10 == 0 => format!("{sign}{}.{}", v / 100, r / 10),
        r => format!("{sign}{}.{r:02}", v / 100),
    }
}

fn name_width(table: &Crosstable) -> usize {
    table
        .rows
        .iter()
        .map(|r| r.name.chars().count() + if r.withdrawn { 2 } else { 0 })
        .max()
        .unwrap_or(0)
        .max(6)
}

fn name_of(row: &Row) -> String {
    if row.withdrawn {
        format!("{} w", row.name)
    } else {
        row.name.clone()
    }
}

fn tiebreak_widths(table: &Crosstable) -> Vec<usize> {
    table
        .tiebreaks
        .iter()
        .enumerate()
        .map(|(i, t)| {
            table
                .rows
                .iter()
                .map(|r| {
                    value_text(r.tiebreaks.get(i).copied().unwrap_or(0))
                        .chars()
                        .count()
                })
                .max()
                .unwrap_or(0)
                .max(t.heading().len())
        })
        .collect()
}

fn tail_heading(out: &mut String, table: &Crosstable, widths: &[usize]) {
    let _ = write!(out, " {:>5} {:>3}", "Score", "G");
    for (t, w) in table.tiebreaks.iter().zip(widths) {
        let _ = write!(out, " {:>w$}", t.heading());
    }
}

fn tail(out: &mut String, row: &Row, tiebreaks: &[Tiebreak], widths: &[usize]) {
    let _ = write!(out, " {:>5} {:>3}", points_text(row.halves), row.played);
    for (i, w) in widths.iter().enumerate().take(tiebreaks.len()) {
        let value = row.tiebreaks.get(i).copied().unwrap_or(0);
        let _ = write!(out, " {:>w$}", value_text(value));
    }
}

/// The crosstable: for a round robin one column per player (by rank), for
/// a Swiss one column per round (`5w1`: against rank 5, White, won).
pub fn crosstable(table: &Crosstable) -> String {
    let names = name_width(table);
    let widths = tiebreak_widths(table);
    let rank_width = table.rows.len().to_string().len().max(2);
    let mut out = String::new();
    let _ = write!(out, "{:>rank_width$}  {:<names$}", "#", "Player");
    let round_robin = !table.format.is_swiss();
    let cell_width = if round_robin {
        table
            .rows
            .iter()
            .flat_map(|r| r.cells.iter().map(|c| c.marks.len()))
            .max()
            .unwrap_or(1)
            .max(rank_width)
            + 1
    } else {
        rank_width + 4
    };
    let rounds = table.last_round();
    if round_robin {
        for column in 1..=table.rows.len() {
            let _ = write!(out, "{column:>cell_width$}");
        }
    } else {
        for round in 1..=rounds {
            let _ = write!(out, "{:>cell_width$}", format!("R{round}"));
        }
    }
    tail_heading(&mut out, table, &widths);
    out.push('\n');
    for row in &table.rows {
        let _ = write!(out, "{:>rank_width$}  {:<names$}", row.rank, name_of(row));
        if round_robin {
            for (column, cell) in row.cells.iter().enumerate() {
                let text = if column + 1 == row.rank as usize {
                    "X".repeat(cell_width - 1)
                } else {
                    cell.text()
                };
                let _ = write!(out, "{text:>cell_width$}");
            }
        } else {
            for round in 1..=rounds {
                let text = match row.rounds.iter().find(|c| c.round == round) {
                    None => String::new(),
                    Some(cell) => match (cell.opponent, cell.white) {
                        (Some(opponent), Some(white)) => format!(
                            "{opponent}{}{}",
                            if white { "w" } else { "b" },
                            cell.mark.symbol()
                        ),
                        _ => format!("bye{}", cell.mark.symbol()),
                    },
                };
                let _ = write!(out, "{text:>cell_width$}");
            }
        }
        tail(&mut out, row, &table.tiebreaks, &widths);
        out.push('\n');
    }
    out
}

/// The standings: rank, player, score, games played and tiebreaks.
pub fn standings(table: &Crosstable) -> String {
    let names = name_width(table);
    let widths = tiebreak_widths(table);
    let rank_width = table.rows.len().to_string().len().max(2);
    let mut out = String::new();
    let _ = write!(out, "{:>rank_width$}  {:<names$}", "#", "Player");
    tail_heading(&mut out, table, &widths);
    out.push('\n');
    for row in &table.rows {
        let _ = write!(out, "{:>rank_width$}  {:<names$}", row.rank, name_of(row));
        tail(&mut out, row, &table.tiebreaks, &widths);
        out.push('\n');
    }
    out
}

/// The key to the symbols, for under a table.
pub fn legend(table: &Crosstable) -> String {
    let mut out = String::from(
        "1 win, ½ draw, 0 loss, + forfeit win, - forfeit loss, * in progress, . cancelled; w: withdrawn.",
    );
    if table.format.is_swiss() {
        out.push_str(" A round reads opponent's rank, w/b for the colour, then the result.");
    }
    out.push_str(" G: games played.");
    for t in &table.tiebreaks {
        let _ = write!(out, " {}: {}.", t.heading(), t.name());
    }
    out
}

/// A knockout's bracket: one column per round and a last one for the
/// winner, each seat on the line halfway between the two seats it comes
/// from, so that the tree reads left to right. A seat shows the seed, the
/// name (`names[seed - 1]`, `?` if missing) and the points scored in the
/// match; a round not yet paired shows the players already through to it.
/// See [`bracket_legend`] for the marks.
pub fn bracket<S: AsRef<str>>(bracket: &Bracket, names: &[S]) -> String {
    let total = bracket.total_rounds;
    let size = bracket.size as usize;
    let seed_width = bracket.players.to_string().len();
    let name_of = |seed: u32| -> String {
        let name = (seed as usize)
            .checked_sub(1)
            .and_then(|i| names.get(i))
            .map_or("?", |n| n.as_ref());
        format!("{seed:>seed_width$} {name}")
    };
    // Each column: its heading and its seats, top first.
    let mut columns: Vec<(String, Vec<Seat>)> = Vec::new();
    for column in 0..total as usize {
        let seats = size >> column;
        let cells = (0..seats)
            .map(|seat| match bracket.rounds.get(column) {
                Some(round) => round
                    .matches
                    .get(seat / 2)
                    .map(|game| seat_cell(game, seat % 2 == 1, &name_of)),
                None => through(bracket, column, seat).map(|seed| (name_of(seed), String::new())),
            })
            .collect();
        columns.push((round_name(total, column as u32 + 1), cells));
    }
    columns.push((
        "Winner".into(),
        vec![bracket.winner.map(|seed| (name_of(seed), String::new()))],
    ));
    let lines = size * 2 - 1;
    let mut grid = vec![String::new(); lines + 1];
    for (column, (heading, cells)) in columns.iter().enumerate() {
        let player_width = cells
            .iter()
            .flatten()
            .map(|(p, _)| p.chars().count())
            .max()
            .unwrap_or(0);
        let score_width = cells
            .iter()
            .flatten()
            .map(|(_, s)| s.chars().count())
            .max()
            .unwrap_or(0);
        let width = (player_width + score_width + 1).max(heading.chars().count());
        let mut texts = vec![String::new(); lines];
        for (seat, cell) in cells.iter().enumerate() {
            if let Some((player, score)) = cell {
                let line = (1usize << column) * (2 * seat + 1) - 1;
                texts[line] = format!("{player:<player_width$} {score:<score_width$}");
            }
        }
        let gap = if column == 0 { "" } else { "   " };
        let _ = write!(grid[0], "{gap}{heading:<width$}");
        for (line, text) in texts.iter().enumerate() {
            let _ = write!(grid[line + 1], "{gap}{text:<width$}");
        }
    }
    let mut out = String::new();
    for line in grid {
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A seat of a bracket's column, as (player, score); `None` for a seat
/// nobody has reached yet.
type Seat = Option<(String, String)>;

/// A seat of a paired match: the player and the points scored (`bye` for
/// an empty seat).
fn seat_cell(game: &Match, lower_seat: bool, name_of: &dyn Fn(u32) -> String) -> (String, String) {
    let Some(lower) = game.lower else {
        return if lower_seat {
            ("bye".into(), String::new())
        } else {
            (name_of(game.upper), String::new())
        };
    };
    let seed = if lower_seat { lower } else { game.upper };
    // No points before the first game (nor for a walkover without one).
    let stages = if game.games.is_empty() {
        &[][..]
    } else {
        &game.stages[..]
    };
    let points = stages
        .iter()
        .map(|stage| points_text(if lower_seat { stage.lower } else { stage.upper }))
        .collect::<Vec<_>>()
        .join("+");
    let mark = match game.outcome {
        None => "*",
        Some(outcome) if outcome.winner == seed => match outcome.decision {
            Decision::Seed => " s",
            Decision::Walkover => " wo",
            Decision::Bye | Decision::Score | Decision::Playoff => "",
        },
        Some(_) => "",
    };
    // Without points, a mark stands alone.
    let score = format!("{points}{mark}").trim_start().to_string();
    (name_of(seed), score)
}

/// Who is through to seat `seat` of round `column + 1` (from 0) while that
/// round is not paired: the winner of the match feeding it, if decided.
fn through(bracket: &Bracket, column: usize, seat: usize) -> Option<u32> {
    let before = bracket.rounds.get(column.checked_sub(1)?)?;
    Some(before.matches.get(seat)?.outcome?.winner)
}

/// The key to a bracket's marks, for under it.
pub fn bracket_legend() -> String {
    "A seat reads seed, player, and points in the match; after a tied match, + the points of each playoff. \
     * games still on; s: through as the higher seed after a tie; wo: through because the opponent withdrew."
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_show_as_players_read_them() {
        assert_eq!(value_text(1200), "12");
        assert_eq!(value_text(750), "7.5");
        assert_eq!(value_text(325), "3.25");
        assert_eq!(value_text(0), "0");
    }

    use crate::knockout::{Knockout, KnockoutGame, TieRule};
    use crate::table::GameResult::*;

    fn game(round: u32, white: u32, black: u32, result: crate::GameResult) -> KnockoutGame {
        KnockoutGame {
            round,
            white,
            black,
            result,
        }
    }

    const NAMES: [&str; 6] = ["anna", "boris", "carla", "dmitri", "eva", "farid"];

    /// Lines joined as the renderer ends them.
    fn lines(lines: &[&str]) -> String {
        lines.iter().map(|line| format!("{line}\n")).collect()
    }

    #[test]
    fn a_bracket_before_any_game() {
        let knockout = Knockout::new(6, 2, TieRule::Playoff).unwrap();
        let text = bracket(&knockout.compute(&[]).unwrap(), &NAMES);
        // Worked by hand: 8 seats on lines 0, 2, .., 14 (1 8 4 5 2 7 3 6,
        // seats 7 and 8 byes); the byes' winners already through to the
        // semi-finals on lines 1 and 9.
        let expected = lines(&[
            "Quarter-finals   Semi-finals   Final   Winner",
            "1 anna",
            "                 1 anna",
            "bye",
            "",
            "4 dmitri *",
            "",
            "5 eva    *",
            "",
            "2 boris",
            "                 2 boris",
            "bye",
            "",
            "3 carla  *",
            "",
            "6 farid  *",
        ]);
        assert_eq!(text, expected);
    }

    #[test]
    fn a_walkover_shows_as_such() {
        let knockout = Knockout::new(2, 2, TieRule::Playoff).unwrap();
        let bracket_value = knockout.compute_with_withdrawals(&[], &[1]).unwrap();
        let expected = lines(&[
            "Final        Winner",
            "1 anna",
            "             2 boris",
            "2 boris wo",
        ]);
        assert_eq!(bracket(&bracket_value, &NAMES), expected);
    }

    #[test]
    fn a_bracket_played_to_the_end() {
        let knockout = Knockout::new(6, 2, TieRule::Playoff).unwrap();
        let record = [
            game(1, 4, 5, WhiteWins),
            game(1, 5, 4, Draw),
            // 3-6: drawn, and both playoffs drawn: seed 3 goes through.
            game(1, 3, 6, Draw),
            game(1, 6, 3, Draw),
            game(1, 3, 6, Draw),
            game(1, 6, 3, Draw),
            game(1, 3, 6, Draw),
            game(1, 6, 3, Draw),
            // 1-4: 1-1, then 4 wins the playoff 1½-½.
            game(2, 1, 4, BlackWins),
            game(2, 4, 1, BlackWins),
            game(2, 2, 3, Draw),
            game(2, 3, 2, BlackWins),
            game(2, 1, 4, Draw),
            game(2, 4, 1, WhiteWins),
            game(3, 2, 4, Draw),
            game(3, 4, 2, BlackWins),
        ];
        let text = bracket(&knockout.compute(&record).unwrap(), &NAMES);
        let expected = lines(&[
            "Quarter-finals     Semi-finals     Final         Winner",
            "1 anna",
            "                   1 anna   1+½",
            "bye",
            "                                   4 dmitri ½",
            "4 dmitri 1½",
            "                   4 dmitri 1+1½",
            "5 eva    ½",
            "                                                 2 boris",
            "2 boris",
            "                   2 boris  1½",
            "bye",
            "                                   2 boris  1½",
            "3 carla  1+1+1 s",
            "                   3 carla  ½",
            "6 farid  1+1+1",
        ]);
        assert_eq!(text, expected);
    }

    #[test]
    fn a_bracket_shows_who_is_through_before_the_round_is_paired() {
        let knockout = Knockout::new(4, 2, TieRule::Seed).unwrap();
        let record = [
            game(1, 1, 4, WhiteWins),
            game(1, 4, 1, Draw),
            game(1, 2, 3, Pending),
        ];
        let text = bracket(&knockout.compute(&record).unwrap(), &NAMES);
        let expected = lines(&[
            "Semi-finals   Final     Winner",
            "1 anna   1½",
            "              1 anna",
            "4 dmitri ½",
            "",
            "2 boris  0*",
            "",
            "3 carla  0*",
        ]);
        assert_eq!(text, expected);
        assert!(bracket_legend().contains("playoff"));
    }
}
