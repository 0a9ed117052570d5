//! An event's results as a crosstable: each player's games, score, games
//! played, tiebreaks and rank. A value, not text: the mail renders it with
//! [`super::text`], and a web page may render the same value.
//!
//! Points are counted in half points and tiebreaks in hundredths, so that
//! every comparison is exact. How C.07 is read here (the help text says
//! the same):
//!
//! * a win, a forfeit win and a full-point bye count 1; a draw and a
//!   half-point bye ½; a loss, a forfeit loss and a zero-point bye 0; a game
//!   in progress or cancelled counts nothing yet;
//! * games played (`G`) are the games played out (or adjudicated), not
//!   forfeits or byes;
//! * Sonneborn-Berger adds each opponent's score times the points scored
//!   against that opponent; Buchholz adds the opponents' scores; Buchholz
//!   cut 1 leaves out the lowest of them;
//! * an unplayed round (a forfeit either way, a bye) counts in SB and
//!   Buchholz as a game against a virtual opponent whose score is the
//!   player's own (C.07's "dummy opponent"); a withdrawn player's games
//!   count as they were scored;
//! * wins count every round won, played or not (C.07's WIN);
//! * direct encounter is the points a player scored against the others
//!   still tied with them (same score and same earlier tiebreaks), when
//!   all of them have met; otherwise (and for a player tied with nobody)
//!   it is 0;
//! * the average rating of opponents counts the rated opponents met over
//!   the board, rounded to a whole number;
//! * players equal on everything are ranked by start number.

use super::{Format, Tiebreak};

/// A player of the event, by start number (index + 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub name: String,
    pub rating: Option<u32>,
    pub withdrawn: bool,
}

/// How a game of the event stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    Pending,
    WhiteWins,
    Draw,
    BlackWins,
    /// White wins without the game being played out (a withdrawal).
    WhiteWinsByForfeit,
    BlackWinsByForfeit,
    /// Neither scores.
    DoubleForfeit,
    /// The game does not count (adjudicated `cancel`).
    Cancelled,
}

impl GameResult {
    /// The result of a finished board: `1-0`, `0-1`, `1/2-1/2`.
    pub fn from_score(score: &str, forfeit: bool) -> GameResult {
        match (score, forfeit) {
            ("1-0", false) => GameResult::WhiteWins,
            ("0-1", false) => GameResult::BlackWins,
            ("1/2-1/2", _) => GameResult::Draw,
            ("1-0", true) => GameResult::WhiteWinsByForfeit,
            ("0-1", true) => GameResult::BlackWinsByForfeit,
            ("0-0", _) => GameResult::DoubleForfeit,
            _ => GameResult::Cancelled,
        }
    }
}

/// One game: the players by index (start number - 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub round: u32,
    pub white: usize,
    pub black: usize,
    pub board: Option<u32>,
    pub result: GameResult,
}

/// What a bye is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ByeKind {
    Full,
    Half,
    Zero,
}

impl ByeKind {
    pub fn halves(self) -> u32 {
        match self {
            ByeKind::Full => 2,
            ByeKind::Half => 1,
            ByeKind::Zero => 0,
        }
    }
}

/// A round a player was not paired (Swiss).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ByeRecord {
    pub round: u32,
    pub player: usize,
    pub kind: ByeKind,
}

/// Everything the crosstable is made from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventResults {
    pub format: Format,
    pub entrants: Vec<Entrant>,
    pub games: Vec<GameRecord>,
    pub byes: Vec<ByeRecord>,
    pub tiebreaks: Vec<Tiebreak>,
}

/// What one round or game was for a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    Pending,
    Cancelled,
    Bye(ByeKind),
}

impl Mark {
    /// One character: `1 ½ 0 + - * .`; a bye shows its points.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Win | Mark::Bye(ByeKind::Full) => "1",
            Mark::Draw | Mark::Bye(ByeKind::Half) => "½",
            Mark::Loss | Mark::Bye(ByeKind::Zero) => "0",
            Mark::ForfeitWin => "+",
            Mark::ForfeitLoss => "-",
            Mark::Pending => "*",
            Mark::Cancelled => ".",
        }
    }
}

/// A round-robin cell: the games against one opponent, in round order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub marks: Vec<Mark>,
}

impl Cell {
    pub fn text(&self) -> String {
        self.marks.iter().map(|m| m.symbol()).collect()
    }
}

/// A Swiss cell: one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoundCell {
    pub round: u32,
    /// The opponent's rank in this table; `None` for a bye.
    pub opponent: Option<u32>,
    /// Whether the player had White; `None` for a bye.
    pub white: Option<bool>,
    pub mark: Mark,
}

/// One player's line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub rank: u32,
    pub start: u32,
    pub name: String,
    pub rating: Option<u32>,
    pub withdrawn: bool,
    /// Score in half points.
    pub halves: u32,
    /// Games played out.
    pub played: u32,
    /// The event's tiebreaks, in its order, in hundredths.
    pub tiebreaks: Vec<i64>,
    /// Round robin: one cell per row of the table (by rank); the player's
    /// own cell is empty.
    pub cells: Vec<Cell>,
    /// Every round the player was in, in order.
    pub rounds: Vec<RoundCell>,
}

/// The crosstable: rows by rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    pub format: Format,
    pub tiebreaks: Vec<Tiebreak>,
    pub rows: Vec<Row>,
    /// Games that have a result (cancelled ones included).
    pub finished_games: u32,
    pub games: u32,
}

/// One round of one player, as the computation sees it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    round: u32,
    opponent: Option<usize>,
    white: Option<bool>,
    halves: u32,
    played: bool,
    counted: bool,
    mark: Mark,
}

fn entries(results: &EventResults) -> Vec<Vec<Entry>> {
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); results.entrants.len()];
    let n = results.entrants.len();
    for game in &results.games {
        if game.white >= n || game.black >= n || game.white == game.black {
            continue;
        }
        use GameResult as G;
        let (w, b, played, counted) = match game.result {
            G::Pending => (Mark::Pending, Mark::Pending, false, false),
            G::Cancelled => (Mark::Cancelled, Mark::Cancelled, false, false),
            G::WhiteWins => (Mark::Win, Mark::Loss, true, true),
            G::Draw => (Mark::Draw, Mark::Draw, true, true),
            G::BlackWins => (Mark::Loss, Mark::Win, true, true),
            G::WhiteWinsByForfeit => (Mark::ForfeitWin, Mark::ForfeitLoss, false, true),
            G::BlackWinsByForfeit => (Mark::ForfeitLoss, Mark::ForfeitWin, false, true),
            G::DoubleForfeit => (Mark::ForfeitLoss, Mark::ForfeitLoss, false, true),
        };
        for (player, opponent, mark, white) in [
            (game.white, game.black, w, true),
            (game.black, game.white, b, false),
        ] {
            entries[player].push(Entry {
                round: game.round,
                opponent: Some(opponent),
                white: Some(white),
                halves: halves_of(mark),
                played,
                counted,
                mark,
            });
        }
    }
    for bye in &results.byes {
        if bye.player >= n {
            continue;
        }
        entries[bye.player].push(Entry {
            round: bye.round,
            opponent: None,
            white: None,
            halves: bye.kind.halves(),
            played: false,
            counted: true,
            mark: Mark::Bye(bye.kind),
        });
    }
    for list in &mut entries {
        list.sort_by_key(|e| e.round);
    }
    entries
}

fn halves_of(mark: Mark) -> u32 {
    match mark {
        Mark::Win | Mark::ForfeitWin => 2,
        Mark::Draw => 1,
        Mark::Bye(kind) => kind.halves(),
        _ => 0,
    }
}

impl Crosstable {
    /// The last round any player has a cell in (0 before the first).
    pub fn last_round(&self) -> u32 {
        self.rows
            .iter()
            .flat_map(|r| r.rounds.iter().map(|c| c.round))
            .max()
            .unwrap_or(0)
    }

    /// Computes the crosstable of `results`.
    pub fn compute(results: &EventResults) -> Crosstable {
        let n = results.entrants.len();
        let entries = entries(results);
        let scores: Vec<u32> = entries
            .iter()
            .map(|list| list.iter().filter(|e| e.counted).map(|e| e.halves).sum())
            .collect();
        let played: Vec<u32> = entries
            .iter()
            .map(|list| list.iter().filter(|e| e.played).count() as u32)
            .collect();
        let mut keys: Vec<Vec<i64>> = vec![Vec::with_capacity(results.tiebreaks.len()); n];
        for (slot, tiebreak) in results.tiebreaks.iter().enumerate() {
            if *tiebreak == Tiebreak::DirectEncounter {
                let values = direct_encounter(&entries, &scores, &keys, slot);
                for (key, value) in keys.iter_mut().zip(values) {
                    key.push(value);
                }
                continue;
            }
            for (player, key) in keys.iter_mut().enumerate() {
                key.push(single_tiebreak(
                    *tiebreak, player, &entries, &scores, results,
                ));
            }
        }
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|&a, &b| {
            scores[b]
                .cmp(&scores[a])
                .then_with(|| keys[b].cmp(&keys[a]))
                .then(a.cmp(&b))
        });
        let mut rank_of = vec![0u32; n];
        for (rank, &player) in order.iter().enumerate() {
            rank_of[player] = rank as u32 + 1;
        }
        let round_robin = !results.format.is_swiss();
        let rows = order
            .iter()
            .enumerate()
            .map(|(position, &player)| {
                let entrant = &results.entrants[player];
                let cells = if round_robin {
                    order
                        .iter()
                        .map(|&other| Cell {
                            marks: entries[player]
                                .iter()
                                .filter(|e| e.opponent == Some(other))
                                .map(|e| e.mark)
                                .collect(),
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                let rounds = entries[player]
                    .iter()
                    .map(|e| RoundCell {
                        round: e.round,
                        opponent: e.opponent.map(|o| rank_of[o]),
                        white: e.white,
                        mark: e.mark,
                    })
                    .collect();
                Row {
                    rank: position as u32 + 1,
                    start: player as u32 + 1,
                    name: entrant.name.clone(),
                    rating: entrant.rating,
                    withdrawn: entrant.withdrawn,
                    halves: scores[player],
                    played: played[player],
                    tiebreaks: keys[player].clone(),
                    cells,
                    rounds,
                }
            })
            .collect();
        let finished_games = results
            .games
            .iter()
            .filter(|g| g.result != GameResult::Pending)
            .count() as u32;
        Crosstable {
            format: results.format,
            tiebreaks: results.tiebreaks.clone(),
            rows,
            finished_games,
            games: results.games.len() as u32,
        }
    }
}

/// A tiebreak other than direct encounter, in hundredths.
fn single_tiebreak(
    tiebreak: Tiebreak,
    player: usize,
    entries: &[Vec<Entry>],
    scores: &[u32],
    results: &EventResults,
) -> i64 {
    let own = i64::from(scores[player]);
    let counted = entries[player].iter().filter(|e| e.counted);
    // The score (in halves) each counted round's opponent stands for.
    let opponent_score = |e: &Entry| match (e.played, e.opponent) {
        (true, Some(opponent)) => i64::from(scores[opponent]),
        _ => own,
    };
    match tiebreak {
        Tiebreak::SonnebornBerger => counted
            .map(|e| i64::from(e.halves) * opponent_score(e) * 25)
            .sum(),
        Tiebreak::Buchholz => counted.map(|e| opponent_score(e) * 50).sum(),
        Tiebreak::BuchholzCut1 => {
            let values: Vec<i64> = counted.map(|e| opponent_score(e) * 50).collect();
            let lowest = values.iter().copied().min().unwrap_or(0);
            values.iter().sum::<i64>() - lowest
        }
        Tiebreak::Wins => counted.filter(|e| e.halves == 2).count() as i64 * 100,
        Tiebreak::AverageRatingOfOpponents => {
            let ratings: Vec<i64> = entries[player]
                .iter()
                .filter(|e| e.played)
                .filter_map(|e| e.opponent)
                .filter_map(|o| results.entrants[o].rating)
                .map(i64::from)
                .collect();
            if ratings.is_empty() {
                0
            } else {
                let count = ratings.len() as i64;
                let sum: i64 = ratings.iter().sum();
                // Rounded half up.
                ((2 * sum + count) / (2 * count)) * 100
            }
        }
        Tiebreak::DirectEncounter => 0,
    }
}

/// Direct encounter for every player, given the keys computed so far
/// (`slot` of them).
fn direct_encounter(
    entries: &[Vec<Entry>],
    scores: &[u32],
    keys: &[Vec<i64>],
    slot: usize,
) -> Vec<i64> {
    let n = scores.len();
    let mut values = vec![0i64; n];
    let mut done = vec![false; n];
    for player in 0..n {
        if done[player] {
            continue;
        }
        let group: Vec<usize> = (0..n)
            .filter(|&other| {
                scores[other] == scores[player] && keys[other][..slot] == keys[player][..slot]
            })
            .collect();
        for &member in &group {
            done[member] = true;
        }
        if group.len() < 2 {
            continue;
        }
        let met = |a: usize, b: usize| {
            entries[a]
                .iter()
                .any(|e| e.counted && e.opponent == Some(b))
        };
        let all_met = group
            .iter()
            .all(|&a| group.iter().all(|&b| a == b || met(a, b)));
        if !all_met {
            continue;
        }
        for &member in &group {
            values[member] = entries[member]
                .iter()
                .filter(|e| e.counted && e.opponent.is_some_and(|o| group.contains(&o)))
                .map(|e| i64::from(e.halves) * 50)
                .sum();
        }
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entrant(name: &str) -> Entrant {
        Entrant {
            name: name.into(),
            rating: None,
            withdrawn: false,
        }
    }

    fn game(round: u32, white: usize, black: usize, result: GameResult) -> GameRecord {
        GameRecord {
            round,
            white,
            black,
            board: None,
            result,
        }
    }

    #[test]
    fn a_small_round_robin_by_hand() {
        use GameResult::*;
        // a beats b and c, b beats c, d: a-d drawn, b-d drawn, c beats d.
        let results = EventResults {
            format: Format::RoundRobin { double: false },
            entrants: ["a", "b", "c", "d"].map(entrant).to_vec(),
            games: vec![
                game(1, 0, 3, Draw),
                game(1, 1, 2, WhiteWins),
                game(2, 3, 2, BlackWins),
                game(2, 0, 1, WhiteWins),
                game(3, 1, 3, Draw),
                game(3, 2, 0, BlackWins),
            ],
            byes: Vec::new(),
            tiebreaks: Tiebreak::ROUND_ROBIN.to_vec(),
        };
        let table = Crosstable::compute(&results);
        let names: Vec<&str> = table.rows.iter().map(|r| r.name.as_str()).collect();
        // a 2½, b 1½, c 1, d 1: c and d tie on points; SB c = 1 (d's
        // 1), d = ½·2½ + ½·1½ = 2: d ahead.
        assert_eq!(names, ["a", "b", "d", "c"]);
        let a = &table.rows[0];
        assert_eq!(a.halves, 5);
        // SB of a: 1·1½ + 1·1 + ½·1 = 3 -> 300.
        assert_eq!(a.tiebreaks, vec![300, 200, 0]);
        let d = &table.rows[2];
        assert_eq!(d.tiebreaks, vec![200, 0, 0]);
        assert_eq!(table.rows[0].cells[2].text(), "½");
        assert_eq!(table.rows[3].cells[2].text(), "1");
    }
}
