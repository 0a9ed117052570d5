//! Knockout cups: a bracket of mini-matches, the winner of each going on
//! to the next round until the final's winner wins the event.
//!
//! The rules, as this module applies them:
//!
//! * **Seeds.** The entrants come in seed order (the caller sorts them; pbem
//!   sorts by rating, then userid): seed 1 is the strongest.
//! * **Bracket.** Its size is the next power of two at or above the number
//!   of players; the empty seats are byes, and they go to the top seeds
//!   (with 6 players in a bracket of 8, seeds 1 and 2 pass round 1).
//! * **Seeding order.** The standard one: seed 1 meets the lowest seed,
//!   seeds 1 and 2 can meet only in the final, 1 to 4 only from the
//!   semi-finals, 1 to 8 only from the quarter-finals, and so on
//!   ([`Knockout::seeding_order`]). It is built by folding: the order for
//!   `2m` seats replaces each seed `s` of the order for `m` seats by `s`
//!   and `2m + 1 - s`.
//! * **Matches.** Each pairing plays a mini-match of `N` games
//!   ([`DEFAULT_MATCH_GAMES`] unless the event says otherwise), all at once,
//!   the higher seed (the lower number) with White in the first game and
//!   colours alternating from there on, playoff games included
//!   ([`colours`]).
//! * **Scoring.** A win, played or by forfeit, is 1 point, a draw ½; a
//!   double forfeit and a cancelled game score nothing for either side. A
//!   match is decided when all of its games have ended, not before (the
//!   games run at once, so an early lead rarely ends one sooner).
//! * **Ties.** [`TieRule::Seed`] sends the higher seed through at once.
//!   [`TieRule::Playoff`] starts [`PLAYOFF_GAMES`] more games (colours
//!   going on alternating); if the match is still level after them, two
//!   more, at most [`MAX_PLAYOFFS`] times; then the higher seed goes
//!   through.
//! * **Withdrawals.** A player who withdrew loses, at once and whatever
//!   its score (a walkover), every match of theirs that was not decided
//!   when they withdrew: one not decided yet, and one in which they lost a
//!   game by forfeit (pbem scores a withdrawn player's games still on as
//!   forfeits, and no other games). A match they had won stands. If both
//!   players of a match withdrew, the higher seed goes through, to lose
//!   the next match the same way.
//! * **Rounds.** A round's next round is paired only when its last match is
//!   decided: the winner of match `2i` meets the winner of match `2i + 1`
//!   (counting from 0, top of the bracket first). The winner of the final
//!   wins the event.
//!
//! Everything here is computed again from the record (the games started so
//! far and their results) by [`Knockout::compute`]: the [`Bracket`] says
//! where each match stands and which games ought to be started next
//! ([`Bracket::to_start`]), so the caller only stores games and results.

use std::fmt;
use std::str::FromStr;

use super::table::GameResult;

/// The most players a knockout may have (a bracket of 128, seven rounds).
pub const MAX_KNOCKOUT: u32 = 128;
/// Games in a mini-match unless the event says otherwise.
pub const DEFAULT_MATCH_GAMES: u32 = 2;
/// The most games a mini-match may have (before playoffs).
pub const MAX_MATCH_GAMES: u32 = 12;
/// Games in one playoff.
pub const PLAYOFF_GAMES: u32 = 2;
/// The most playoffs a tied match plays before the higher seed goes
/// through.
pub const MAX_PLAYOFFS: u32 = 2;

/// What decides a tied match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TieRule {
    /// Two more games, at most twice; then the higher seed goes through.
    #[default]
    Playoff,
    /// The higher seed goes through at once.
    Seed,
}

impl TieRule {
    /// The word of `--tie=`.
    pub fn code(self) -> &'static str {
        match self {
            TieRule::Playoff => "playoff",
            TieRule::Seed => "seed",
        }
    }
}

impl fmt::Display for TieRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for TieRule {
    type Err = String;

    fn from_str(text: &str) -> Result<TieRule, String> {
        match text.to_ascii_lowercase().as_str() {
            "playoff" => Ok(TieRule::Playoff),
            "seed" => Ok(TieRule::Seed),
            _ => Err(format!(
                "\"{text}\" is not a tie rule; write --tie=playoff (two more games, at most twice) or --tie=seed (the higher seed goes through)"
            )),
        }
    }
}

/// Why a knockout cannot be made, or why its record does not fit its
/// bracket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KnockoutError {
    TooFewPlayers {
        players: u32,
    },
    TooManyPlayers {
        players: u32,
    },
    MatchGames {
        games: u32,
    },
    /// A game of the record between two seeds who have no match in that
    /// round.
    NotInBracket {
        round: u32,
        white: u32,
        black: u32,
    },
    /// A game of the record with the colours the other way round.
    WrongColours {
        round: u32,
        white: u32,
        black: u32,
    },
    /// More games of a match than it needs.
    TooManyGames {
        round: u32,
        white: u32,
        black: u32,
    },
    /// A game of a round that is not paired yet.
    RoundNotPaired {
        round: u32,
    },
}

impl fmt::Display for KnockoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KnockoutError::TooFewPlayers { players } => write!(
                f,
                "a knockout needs at least 2 players and this one has {players}; wait for more entries"
            ),
            KnockoutError::TooManyPlayers { players } => write!(
                f,
                "a knockout takes at most {MAX_KNOCKOUT} players and this one has {players}; close the entries sooner, or play groups first (--groups)"
            ),
            KnockoutError::MatchGames { games } => write!(
                f,
                "a match of {games} games cannot be played; give --match=N with N from 1 to {MAX_MATCH_GAMES}"
            ),
            KnockoutError::NotInBracket {
                round,
                white,
                black,
            } => write!(
                f,
                "the record has a game of round {round} between seeds {white} and {black}, who have no match in that round; tell the server's operator"
            ),
            KnockoutError::WrongColours {
                round,
                white,
                black,
            } => write!(
                f,
                "the record has a game of round {round} with seed {white} White against seed {black}, the wrong way round; tell the server's operator"
            ),
            KnockoutError::TooManyGames {
                round,
                white,
                black,
            } => write!(
                f,
                "the record has more games of round {round} between seeds {white} and {black} than their match needs; tell the server's operator"
            ),
            KnockoutError::RoundNotPaired { round } => write!(
                f,
                "the record has a game of round {round}, which is not paired yet; tell the server's operator"
            ),
        }
    }
}

impl std::error::Error for KnockoutError {}

/// White and Black of game `game` (from 0) of the match between seeds `a`
/// and `b`: the higher seed (the lower number) has White in the first game
/// and colours alternate from there on.
pub fn colours(a: u32, b: u32, game: u32) -> (u32, u32) {
    let (higher, lower) = (a.min(b), a.max(b));
    if game.is_multiple_of(2) {
        (higher, lower)
    } else {
        (lower, higher)
    }
}

/// A knockout's shape: how many players, how many games a match, what
/// decides a tie. Made by [`Knockout::new`], which checks the bounds, so
/// every value of this type is a bracket that can be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knockout {
    players: u32,
    match_games: u32,
    tie: TieRule,
}

/// One game of the record: its round, White's and Black's seeds, and how
/// it stands. A match's games are counted in the order they come in the
/// record (the order they were started).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnockoutGame {
    pub round: u32,
    pub white: u32,
    pub black: u32,
    pub result: GameResult,
}

/// How a match was decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The opponent's seat was empty.
    Bye,
    /// On the score of the match's own games.
    Score,
    /// On the score after one or two playoffs.
    Playoff,
    /// Tied, and the higher seed went through (the tie rule `seed`, or
    /// after the last playoff).
    Seed,
    /// The opponent withdrew before the match was decided (or both did,
    /// and this is the higher seed).
    Walkover,
}

/// Who won a match, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: u32,
    pub decision: Decision,
}

/// Points of one stage of a match (its games, then each playoff), in half
/// points, for the upper and the lower seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StageScore {
    pub upper: u32,
    pub lower: u32,
}

/// One match: the seeds in its two seats (upper as the bracket is drawn,
/// top first), its games and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    pub upper: u32,
    /// `None`: a bye, the upper seed goes through.
    pub lower: Option<u32>,
    /// The games in the order they were started; game `k`'s colours are
    /// [`colours`]`(upper, lower, k)`.
    pub games: Vec<GameResult>,
    /// How many games the match needs so far: its own, plus those of each
    /// playoff it went into.
    pub due: u32,
    /// The score of each stage begun: the match's own games, then each
    /// playoff. Games still on count nothing yet.
    pub stages: Vec<StageScore>,
    pub outcome: Option<Outcome>,
}

impl Match {
    /// The higher seed (the lower number) of the two.
    pub fn higher(&self) -> u32 {
        self.lower.map_or(self.upper, |lower| self.upper.min(lower))
    }

    /// The loser of a decided match (none for a bye).
    pub fn loser(&self) -> Option<u32> {
        let outcome = self.outcome?;
        let lower = self.lower?;
        Some(if outcome.winner == self.upper {
            lower
        } else {
            self.upper
        })
    }
}

/// One round: its matches, top of the bracket first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// From 1.
    pub number: u32,
    pub matches: Vec<Match>,
}

impl Round {
    /// Whether every match of the round is decided.
    pub fn decided(&self) -> bool {
        self.matches.iter().all(|m| m.outcome.is_some())
    }
}

/// A game that ought to be started now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameToStart {
    pub round: u32,
    pub white: u32,
    pub black: u32,
}

/// Where a knockout stands: the rounds paired so far and, once the final
/// is decided, the winner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bracket {
    /// Seats in round 1 (a power of two).
    pub size: u32,
    pub players: u32,
    /// Rounds in all.
    pub total_rounds: u32,
    /// The rounds paired so far, round 1 first.
    pub rounds: Vec<Round>,
    /// The winner of the final.
    pub winner: Option<u32>,
}

impl Bracket {
    /// The games to start now: those that the matches of the last round
    /// paired need and the record does not have yet (a new round's games,
    /// a playoff's two). Empty once the event is won. Asking again after
    /// they were started gives nothing new.
    pub fn to_start(&self) -> Vec<GameToStart> {
        let Some(round) = self.rounds.last() else {
            return Vec::new();
        };
        let mut games = Vec::new();
        for game in round.matches.iter().filter(|m| m.outcome.is_none()) {
            let Some(lower) = game.lower else {
                continue;
            };
            for k in game.games.len() as u32..game.due {
                let (white, black) = colours(game.upper, lower, k);
                games.push(GameToStart {
                    round: round.number,
                    white,
                    black,
                });
            }
        }
        games
    }

    /// The round being played: the last one paired.
    pub fn current_round(&self) -> u32 {
        self.rounds.last().map_or(0, |r| r.number)
    }
}

impl Knockout {
    /// A knockout of `players` players (2 to [`MAX_KNOCKOUT`]), matches of
    /// `match_games` games (1 to [`MAX_MATCH_GAMES`]), ties decided by
    /// `tie`.
    pub fn new(players: u32, match_games: u32, tie: TieRule) -> Result<Knockout, KnockoutError> {
        if players < 2 {
            return Err(KnockoutError::TooFewPlayers { players });
        }
        if players > MAX_KNOCKOUT {
            return Err(KnockoutError::TooManyPlayers { players });
        }
        if match_games == 0 || match_games > MAX_MATCH_GAMES {
            return Err(KnockoutError::MatchGames { games: match_games });
        }
        Ok(Knockout {
            players,
            match_games,
            tie,
        })
    }

    pub fn players(&self) -> u32 {
        self.players
    }

    pub fn match_games(&self) -> u32 {
        self.match_games
    }

    pub fn tie(&self) -> TieRule {
        self.tie
    }

    /// Seats in round 1: the next power of two at or above the players.
    pub fn size(&self) -> u32 {
        // Bounded by MAX_KNOCKOUT, so no overflow; checked all the same.
        self.players
            .checked_next_power_of_two()
            .unwrap_or(MAX_KNOCKOUT)
    }

    /// Rounds in all: the final is the last.
    pub fn total_rounds(&self) -> u32 {
        self.size().trailing_zeros()
    }

    /// Byes in round 1, all to the top seeds.
    pub fn byes(&self) -> u32 {
        self.size() - self.players
    }

    /// The seeds seat by seat down the bracket, the standard seeding
    /// order: seats `2i` and `2i + 1` meet in round 1; a seed above the
    /// number of players is a bye. For 8 seats: 1 8 4 5 2 7 3 6.
    pub fn seeding_order(&self) -> Vec<u32> {
        let size = self.size();
        let mut order = vec![1u32];
        while (order.len() as u32) < size {
            let folded = order.len() as u32 * 2 + 1;
            order = order.iter().flat_map(|&s| [s, folded - s]).collect();
        }
        order
    }

    /// The name of round `round` (from 1), as [`round_name`] gives it.
    pub fn round_name(&self, round: u32) -> String {
        round_name(self.total_rounds(), round)
    }

    /// Where the event stands after the games of `record`: every round
    /// paired so far with its matches' scores and outcomes, and the winner
    /// once the final is decided. A record that does not fit the bracket
    /// (a game between seeds with no match, the wrong colours, too many
    /// games, a round not yet paired) is an error, never a guess.
    pub fn compute(&self, record: &[KnockoutGame]) -> Result<Bracket, KnockoutError> {
        self.compute_with_withdrawals(record, &[])
    }

    /// [`Knockout::compute`] when the seeds in `withdrawn` have withdrawn:
    /// each loses their matches not yet decided by walkover.
    pub fn compute_with_withdrawals(
        &self,
        record: &[KnockoutGame],
        withdrawn: &[u32],
    ) -> Result<Bracket, KnockoutError> {
        let total_rounds = self.total_rounds();
        if let Some(game) = record
            .iter()
            .find(|g| g.round == 0 || g.round > total_rounds)
        {
            return Err(KnockoutError::RoundNotPaired { round: game.round });
        }
        let order = self.seeding_order();
        let mut matches: Vec<Match> = order
            .chunks(2)
            .map(|seats| {
                let lower = seats.get(1).copied().filter(|&s| s <= self.players);
                new_match(seats[0], lower)
            })
            .collect();
        let mut rounds = Vec::with_capacity(total_rounds as usize);
        for number in 1..=total_rounds {
            for game in record.iter().filter(|g| g.round == number) {
                let found = matches.iter_mut().find(|m| {
                    m.lower.is_some_and(|lower| {
                        (m.upper, lower) == (game.white, game.black)
                            || (lower, m.upper) == (game.white, game.black)
                    })
                });
                let Some(found) = found else {
                    return Err(KnockoutError::NotInBracket {
                        round: number,
                        white: game.white,
                        black: game.black,
                    });
                };
                let k = found.games.len() as u32;
                if colours(game.white, game.black, k) != (game.white, game.black) {
                    return Err(KnockoutError::WrongColours {
                        round: number,
                        white: game.white,
                        black: game.black,
                    });
                }
                found.games.push(game.result);
            }
            for game in &mut matches {
                self.settle(game, number, withdrawn)?;
            }
            let next: Option<Vec<Match>> = matches
                .chunks(2)
                .map(|pair| {
                    let upper = pair[0].outcome?.winner;
                    let lower = pair.get(1)?.outcome?.winner;
                    Some(new_match(upper, Some(lower)))
                })
                .collect();
            let round = Round { number, matches };
            let decided = round.decided();
            rounds.push(round);
            match next {
                Some(next) if decided && number < total_rounds => matches = next,
                _ => break,
            }
        }
        let paired = rounds.len() as u32;
        if let Some(game) = record.iter().find(|g| g.round > paired) {
            return Err(KnockoutError::RoundNotPaired { round: game.round });
        }
        let winner = rounds
            .last()
            .filter(|r| r.number == total_rounds)
            .and_then(|r| r.matches.first())
            .and_then(|m| m.outcome)
            .map(|o| o.winner);
        Ok(Bracket {
            size: self.size(),
            players: self.players,
            total_rounds,
            rounds,
            winner,
        })
    }

    /// Works out a match's stages and outcome from its games and the
    /// withdrawals.
    fn settle(&self, game: &mut Match, round: u32, withdrawn: &[u32]) -> Result<(), KnockoutError> {
        let Some(lower) = game.lower else {
            game.outcome = Some(Outcome {
                winner: game.upper,
                decision: Decision::Bye,
            });
            return Ok(());
        };
        let higher = game.higher();
        let mut due = self.match_games;
        let mut playoffs = 0;
        let outcome = loop {
            let played = &game.games[..game.games.len().min(due as usize)];
            if played.len() < due as usize || played.contains(&GameResult::Pending) {
                break None;
            }
            let total =
                played
                    .iter()
                    .enumerate()
                    .fold(StageScore::default(), |sum, (k, &result)| {
                        let points = points_of(game.upper, lower, k as u32, result);
                        StageScore {
                            upper: sum.upper + points.upper,
                            lower: sum.lower + points.lower,
                        }
                    });
            if total.upper != total.lower {
                let winner = if total.upper > total.lower {
                    game.upper
                } else {
                    lower
                };
                let decision = if playoffs == 0 {
                    Decision::Score
                } else {
                    Decision::Playoff
                };
                break Some(Outcome { winner, decision });
            }
            if self.tie == TieRule::Seed || playoffs == MAX_PLAYOFFS {
                break Some(Outcome {
                    winner: higher,
                    decision: Decision::Seed,
                });
            }
            playoffs += 1;
            due += PLAYOFF_GAMES;
        };
        if game.games.len() > due as usize {
            let (white, black) = colours(game.upper, lower, due);
            return Err(KnockoutError::TooManyGames {
                round,
                white,
                black,
            });
        }
        game.due = due;
        // Whether `seed` withdrew before the match was decided.
        let walked_out = |seed: u32| {
            withdrawn.contains(&seed)
                && (outcome.is_none()
                    || game.games.iter().enumerate().any(|(k, &result)| {
                        let (white, black) = colours(game.upper, lower, k as u32);
                        match result {
                            GameResult::WhiteWinsByForfeit => black == seed,
                            GameResult::BlackWinsByForfeit => white == seed,
                            GameResult::DoubleForfeit => true,
                            _ => false,
                        }
                    }))
        };
        let walkover = match (walked_out(game.upper), walked_out(lower)) {
            (false, false) => None,
            (true, false) => Some(lower),
            (false, true) => Some(game.upper),
            (true, true) => Some(higher),
        };
        game.outcome = match walkover {
            Some(winner) => Some(Outcome {
                winner,
                decision: Decision::Walkover,
            }),
            None => outcome,
        };
        game.stages = stage_scores(game.upper, lower, &game.games, self.match_games, due);
        Ok(())
    }
}

/// The name of round `round` (from 1) of a knockout of `total_rounds`:
/// "Final", "Semi-finals", "Quarter-finals", or "Round N".
pub fn round_name(total_rounds: u32, round: u32) -> String {
    match total_rounds.checked_sub(round) {
        Some(0) => "Final".into(),
        Some(1) => "Semi-finals".into(),
        Some(2) => "Quarter-finals".into(),
        _ => format!("Round {round}"),
    }
}

fn new_match(upper: u32, lower: Option<u32>) -> Match {
    Match {
        upper,
        lower,
        games: Vec::new(),
        due: 0,
        stages: Vec::new(),
        outcome: None,
    }
}

/// The points of game `k` of the match between `upper` and `lower`, seat
/// by seat.
fn points_of(upper: u32, lower: u32, k: u32, result: GameResult) -> StageScore {
    let (white, black) = match result {
        GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => (2, 0),
        GameResult::BlackWins | GameResult::BlackWinsByForfeit => (0, 2),
        GameResult::Draw => (1, 1),
        GameResult::DoubleForfeit | GameResult::Cancelled | GameResult::Pending => (0, 0),
    };
    if colours(upper, lower, k).0 == upper {
        StageScore {
            upper: white,
            lower: black,
        }
    } else {
        StageScore {
            upper: black,
            lower: white,
        }
    }
}

/// The score of each stage begun (`due` games in all): the match's own
/// `match_games` games, then each playoff's.
fn stage_scores(
    upper: u32,
    lower: u32,
    games: &[GameResult],
    match_games: u32,
    due: u32,
) -> Vec<StageScore> {
    let mut stages = vec![StageScore::default()];
    let mut bounds = vec![match_games];
    while bounds.last().is_some_and(|&b| b < due) {
        let next = bounds.last().map_or(due, |&b| b + PLAYOFF_GAMES);
        bounds.push(next);
        stages.push(StageScore::default());
    }
    for (k, &result) in games.iter().enumerate() {
        let k = k as u32;
        let stage = bounds
            .iter()
            .position(|&b| k < b)
            .unwrap_or(bounds.len() - 1);
        let points = points_of(upper, lower, k, result);
        stages[stage].upper += points.upper;
        stages[stage].lower += points.lower;
    }
    stages
}

#[cfg(test)]
mod tests;
