//! An event's standings, crosstable and knockout bracket, and a player's
//! ratings and rated games, as the values of HTML tables (the mails keep
//! their fixed-width text): each name links to the player's page and each
//! result to its game.

use std::collections::HashMap;

use serde::Serialize;

use crate::ratings::{Outcome, PlayerRating, Section};
use crate::render::ratings::{PastRow, shown};
use crate::rules::Variant;
use crate::tournament::knockout::{Bracket, StageScore, round_name};
use crate::tournament::{Crosstable, points_text, text::value_text};

/// The games of an event, to link results to: by the pair of players (in
/// either order), each game's round and board.
#[derive(Default)]
pub(super) struct GameIndex {
    by_pair: HashMap<(String, String), Vec<(u32, u32)>>,
}

impl GameIndex {
    pub(super) fn add(&mut self, white: &str, black: &str, round: u32, board: u32) {
        let key = Self::key(white, black);
        let games = self.by_pair.entry(key).or_default();
        games.push((round, board));
        games.sort_unstable();
    }

    fn key(a: &str, b: &str) -> (String, String) {
        if a <= b {
            (a.to_string(), b.to_string())
        } else {
            (b.to_string(), a.to_string())
        }
    }

    fn games(&self, a: &str, b: &str) -> &[(u32, u32)] {
        self.by_pair
            .get(&Self::key(a, b))
            .map_or(&[], Vec::as_slice)
    }
}

/// One result in a cell: its text and the game it links to.
#[derive(Serialize)]
pub(super) struct Mark {
    text: String,
    board: Option<u32>,
}

#[derive(Serialize)]
pub(super) struct TableRow {
    rank: u32,
    name: String,
    withdrawn: bool,
    /// Round robin: one cell per opponent by rank (`None` on the player's
    /// own); Swiss: one per round.
    cells: Vec<Option<Vec<Mark>>>,
    score: String,
    played: u32,
    tiebreaks: Vec<String>,
}

/// The standings and crosstable of an event, as one table's values: the
/// crosstable's columns (a rank per column for a round robin, `R1`, `R2`
/// ... for a Swiss) and its rows, rank first.
#[derive(Serialize)]
pub(super) struct TableView {
    swiss: bool,
    columns: Vec<String>,
    tiebreaks: Vec<&'static str>,
    rows: Vec<TableRow>,
}

pub(super) fn table_view(table: &Crosstable, games: &GameIndex) -> TableView {
    let swiss = table.format.is_swiss();
    let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
    let rounds = table.last_round();
    let columns = match swiss {
        true => (1..=rounds).map(|r| format!("R{r}")).collect(),
        false => (1..=table.rows.len()).map(|c| c.to_string()).collect(),
    };
    let rows = table
        .rows
        .iter()
        .map(|row| {
            let cells = if swiss {
                (1..=rounds)
                    .map(|round| {
                        let cell = row.rounds.iter().find(|c| c.round == round)?;
                        let mark = match (cell.opponent, cell.white) {
                            (Some(opponent), Some(white)) => {
                                let them = names.get(opponent as usize - 1).copied();
                                Mark {
                                    text: format!(
                                        "{opponent}{}{}",
                                        if white { "w" } else { "b" },
                                        cell.mark.symbol()
                                    ),
                                    board: them.and_then(|them| {
                                        games
                                            .games(&row.name, them)
                                            .iter()
                                            .find(|(r, _)| *r == round)
                                            .map(|(_, board)| *board)
                                    }),
                                }
                            }
                            _ => Mark {
                                text: format!("bye{}", cell.mark.symbol()),
                                board: None,
                            },
                        };
                        Some(vec![mark])
                    })
                    .collect()
            } else {
                row.cells
                    .iter()
                    .enumerate()
                    .map(|(column, cell)| {
                        if column + 1 == row.rank as usize {
                            return None;
                        }
                        let played = names
                            .get(column)
                            .map_or(&[][..], |them| games.games(&row.name, them));
                        Some(
                            cell.marks
                                .iter()
                                .enumerate()
                                .map(|(k, mark)| Mark {
                                    text: mark.symbol().to_string(),
                                    board: played.get(k).map(|(_, board)| *board),
                                })
                                .collect(),
                        )
                    })
                    .collect()
            };
            TableRow {
                rank: row.rank,
                name: row.name.clone(),
                withdrawn: row.withdrawn,
                cells,
                score: points_text(row.halves),
                played: row.played,
                tiebreaks: row.tiebreaks.iter().map(|&v| value_text(v)).collect(),
            }
        })
        .collect();
    TableView {
        swiss,
        columns,
        tiebreaks: table.tiebreaks.iter().map(|t| t.heading()).collect(),
        rows,
    }
}

#[derive(Serialize)]
pub(super) struct MatchView {
    upper: Option<String>,
    lower: Option<String>,
    score: String,
    winner: Option<String>,
}

#[derive(Serialize)]
pub(super) struct BracketRound {
    name: String,
    matches: Vec<MatchView>,
}

/// A knockout bracket as one table per round: each match's players (a
/// bye has none below), its score in points and who went through. `names`
/// by seed (seed `s` is `names[s - 1]`).
pub(super) fn bracket_view(bracket: &Bracket, names: &[String]) -> Vec<BracketRound> {
    let name = |seed: u32| names.get((seed as usize).wrapping_sub(1)).cloned();
    bracket
        .rounds
        .iter()
        .map(|round| BracketRound {
            name: round_name(bracket.total_rounds, round.number),
            matches: round
                .matches
                .iter()
                .map(|m| {
                    // Each stage's points, the match's own games first
                    // and then each playoff's: "1+2 – 1+0".
                    let points = |side: fn(&StageScore) -> u32| {
                        let stages: Vec<String> =
                            m.stages.iter().map(|s| points_text(side(s))).collect();
                        match stages.is_empty() {
                            true => "0".to_string(),
                            false => stages.join("+"),
                        }
                    };
                    MatchView {
                        upper: name(m.upper),
                        lower: m.lower.and_then(name),
                        score: match m.lower {
                            Some(_) => format!("{} – {}", points(|s| s.upper), points(|s| s.lower)),
                            None => "bye".into(),
                        },
                        winner: m.outcome.and_then(|o| name(o.winner)),
                    }
                })
                .collect(),
        })
        .collect()
}

/// One of a player's ratings, as a row of their page's table.
#[derive(Serialize)]
pub(super) struct RatingRow {
    variant: String,
    id: &'static str,
    rating: i32,
    deviation: u32,
    games: u32,
    won: u32,
    lost: u32,
    drawn: u32,
    status: &'static str,
}

/// A player's ratings, one row per variant (the `rating` mail's table).
pub(super) fn player_ratings(ratings: &[(Variant, PlayerRating, Section)]) -> Vec<RatingRow> {
    ratings
        .iter()
        .map(|(variant, r, section)| RatingRow {
            variant: variant.spaced_name().to_string(),
            id: variant.id(),
            rating: r.shown(),
            deviation: r.shown_deviation(),
            games: r.games,
            won: r.wins,
            lost: r.losses,
            drawn: r.draws,
            status: match section {
                Section::Established => "established",
                Section::Provisional => "provisional",
                Section::Inactive => "inactive",
            },
        })
        .collect()
}

/// One past rated game from the player's side, as a row of their page.
#[derive(Serialize)]
pub(super) struct RatedGameRow {
    date: String,
    board: u32,
    variant: String,
    score: &'static str,
    opponent: String,
    opponent_rating: i32,
    change: String,
}

/// A player's last rated games (the `rating` mail's list).
pub(super) fn rated_games(rows: &[PastRow<'_>]) -> Vec<RatedGameRow> {
    rows.iter()
        .map(|row| {
            let (before, after) = (shown(row.before), shown(row.after));
            RatedGameRow {
                date: row.date.clone(),
                board: row.board,
                variant: row.variant.spaced_name().to_string(),
                score: match row.outcome {
                    Outcome::Win => "won",
                    Outcome::Loss => "lost",
                    Outcome::Draw => "drew",
                },
                opponent: row.opponent.to_string(),
                opponent_rating: shown(row.opponent_rating),
                change: format!(
                    "{before} → {after} ({:+})",
                    i64::from(after) - i64::from(before)
                ),
            }
        })
        .collect()
}
