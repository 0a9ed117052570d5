//! Crosstables and standings as plain text that lines up in a
//! fixed-width font (every column padded by characters, `½` counting as
//! one). Up to [`super::MAX_ROUND_ROBIN`] players a round-robin table is
//! about 150 characters wide.

use std::fmt::Write;

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
    let rounds = table
        .rows
        .iter()
        .flat_map(|r| r.rounds.iter().map(|c| c.round))
        .max()
        .unwrap_or(0);
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
        let _ = write!(
            out,
            " {}: {}.",
            t.heading(),
            match t {
                Tiebreak::SonnebornBerger => "Sonneborn-Berger",
                Tiebreak::Wins => "number of wins",
                Tiebreak::DirectEncounter => "direct encounter",
                Tiebreak::Buchholz => "Buchholz",
                Tiebreak::BuchholzCut1 => "Buchholz cut 1",
                Tiebreak::AverageRatingOfOpponents => "average rating of opponents",
            }
        );
    }
    out
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
}
