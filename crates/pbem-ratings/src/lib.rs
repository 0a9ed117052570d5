//! Ratings: one Glicko-2 rating (rating, deviation, volatility) per player
//! and variant, computed with the `skillratings` crate. Pure logic, no I/O
//! (the ratings of pbem, the play-by-email server, as a crate of its own):
//! in pbem the store keeps the figures, and the service updates them when a
//! rated game ends and answers `ratings` and `rating`.
//!
//! Each rated game is a rating period of its own for both players (as
//! Lichess does): both are rated from their ratings before the game, at
//! once. A player who has not played a rated game of the variant for whole
//! [`IDLE_PERIOD_DAYS`] gets one more period of growing uncertainty
//! (Glickman's step 6 without games) for each, before the game is rated.
//! [`replay`] rates a whole history in order with the very same
//! arithmetic, so a rebuild reproduces the stored figures bit for bit.

use std::collections::HashMap;
use std::hash::Hash;

use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, decay_deviation, glicko2_rating_period};

/// Glickman's tau: how fast volatility may change (he suggests 0.3 to
/// 1.2; 0.5 is his example's and `skillratings`' default).
pub const TAU: f64 = 0.5;

/// A deviation above this marks a rating as provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Fewer rated games than this mark a rating as provisional.
pub const PROVISIONAL_GAMES: u32 = 10;

/// Days without a rated game of a variant that count as one more rating
/// period (the deviation grows a little for each).
pub const IDLE_PERIOD_DAYS: i64 = 30;

/// Days without a rated game of a variant after which a player is listed
/// as inactive in its standings.
pub const INACTIVE_DAYS: i64 = 180;

/// The rating of a player who has no rated game in a variant yet:
/// Glickman's recommended start (1500, deviation 350, volatility 0.06).
pub const START: PlayerRating = PlayerRating {
    rating: 1500.0,
    deviation: 350.0,
    volatility: 0.06,
    games: 0,
    wins: 0,
    losses: 0,
    draws: 0,
};

const NANOS_PER_DAY: i64 = 86_400 * 1_000_000_000;

/// A player's rating in one variant, with the record behind it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerRating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played (wins + losses + draws).
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Default for PlayerRating {
    fn default() -> PlayerRating {
        START
    }
}

impl PlayerRating {
    /// The rating as players see it: rounded to a whole number.
    pub fn shown(&self) -> i32 {
        // A Glicko-2 rating stays far inside i32; clamp all the same.
        self.rating.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32
    }

    /// The deviation as players see it, rounded.
    pub fn shown_deviation(&self) -> u32 {
        self.deviation.round().clamp(0.0, u32::MAX as f64) as u32
    }

    /// Whether the rating is still provisional: a high deviation, or
    /// fewer than [`PROVISIONAL_GAMES`] rated games.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION || self.games < PROVISIONAL_GAMES
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn with_glicko(&self, glicko: Glicko2Rating) -> PlayerRating {
        PlayerRating {
            rating: glicko.rating,
            deviation: glicko.deviation,
            volatility: glicko.volatility,
            ..*self
        }
    }

    /// The rating after `periods` rating periods without a game: the
    /// deviation grows (up to the start deviation), the rest stays.
    pub fn idle(&self, periods: u32) -> PlayerRating {
        let mut glicko = self.glicko();
        for _ in 0..periods {
            if glicko.deviation >= START.deviation {
                break;
            }
            glicko = decay_deviation(&glicko);
        }
        self.with_glicko(glicko)
    }
}

/// A game's result from one player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
    Draw,
}

impl Outcome {
    fn skillratings(self) -> Outcomes {
        match self {
            Outcome::Win => Outcomes::WIN,
            Outcome::Loss => Outcomes::LOSS,
            Outcome::Draw => Outcomes::DRAW,
        }
    }

    fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// White's outcome of a stored result (`1-0`, `0-1`, `1/2-1/2`);
    /// `None` for anything else (a declined game has no result to rate).
    pub fn of_result(result: &str) -> Option<Outcome> {
        match result {
            "1-0" => Some(Outcome::Win),
            "0-1" => Some(Outcome::Loss),
            "1/2-1/2" => Some(Outcome::Draw),
            _ => None,
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    }
}

/// One Glicko-2 rating period: `player` against each opponent with its
/// outcome, all rated from the ratings before the period (Glickman's
/// steps 1 to 8). The record counts the games.
pub fn rating_period(player: &PlayerRating, results: &[(PlayerRating, Outcome)]) -> PlayerRating {
    let games: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(opponent, outcome)| (opponent.glicko(), outcome.skillratings()))
        .collect();
    let mut rated = player.with_glicko(glicko2_rating_period(&player.glicko(), &games, &config()));
    for (_, outcome) in results {
        rated.games = rated.games.saturating_add(1);
        match outcome {
            Outcome::Win => rated.wins = rated.wins.saturating_add(1),
            Outcome::Loss => rated.losses = rated.losses.saturating_add(1),
            Outcome::Draw => rated.draws = rated.draws.saturating_add(1),
        }
    }
    rated
}

/// A player's rating in a variant and when its last rated game ended
/// (Unix time in nanoseconds).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Standing {
    pub rating: PlayerRating,
    pub last_played: Option<i64>,
}

impl Default for Standing {
    fn default() -> Standing {
        Standing {
            rating: START,
            last_played: None,
        }
    }
}

impl Standing {
    /// The rating as it enters a game ending at `at`: one idle period for
    /// every whole [`IDLE_PERIOD_DAYS`] since the last rated game.
    fn entering(&self, at: i64) -> PlayerRating {
        let idle = match self.last_played {
            Some(last) if at > last => (at - last) / (IDLE_PERIOD_DAYS * NANOS_PER_DAY),
            _ => 0,
        };
        self.rating.idle(u32::try_from(idle).unwrap_or(u32::MAX))
    }
}

/// Rates one game that ended at `at` (Unix nanoseconds) with White's
/// `outcome`: one rating period for each player. Returns the new
/// standings of White and Black.
pub fn rate_game(
    white: &Standing,
    black: &Standing,
    outcome: Outcome,
    at: i64,
) -> (Standing, Standing) {
    let w = white.entering(at);
    let b = black.entering(at);
    let new_white = rating_period(&w, &[(b, outcome)]);
    let new_black = rating_period(&b, &[(w, outcome.reversed())]);
    let last = |old: Option<i64>| Some(old.map_or(at, |old| old.max(at)));
    (
        Standing {
            rating: new_white,
            last_played: last(white.last_played),
        },
        Standing {
            rating: new_black,
            last_played: last(black.last_played),
        },
    )
}

/// Where a rating is listed in the standings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Not provisional, and a rated game within [`INACTIVE_DAYS`].
    Established,
    /// Provisional (see [`PlayerRating::provisional`]), and a rated game
    /// within [`INACTIVE_DAYS`].
    Provisional,
    /// No rated game of the variant for [`INACTIVE_DAYS`].
    Inactive,
}

impl Standing {
    /// The section of the standings at `now` (Unix nanoseconds).
    pub fn section(&self, now: i64) -> Section {
        let last = self.last_played.unwrap_or(i64::MIN);
        if now.saturating_sub(last) > INACTIVE_DAYS * NANOS_PER_DAY {
            Section::Inactive
        } else if self.rating.provisional() {
            Section::Provisional
        } else {
            Section::Established
        }
    }
}

/// A rated game to replay, in the order it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RatedGame<K> {
    pub white: K,
    pub black: K,
    /// White's outcome.
    pub outcome: Outcome,
    /// When it ended, Unix nanoseconds.
    pub at: i64,
}

/// What one game did to the two ratings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Change {
    pub white_before: f64,
    pub white_after: f64,
    pub black_before: f64,
    pub black_after: f64,
}

/// Rates `games` one after another from nothing: every player starts at
/// [`START`]. Returns each player's standing and each game's change, in
/// the order of `games`. The key tells ratings apart (player and variant).
pub fn replay<K: Copy + Eq + Hash>(games: &[RatedGame<K>]) -> (HashMap<K, Standing>, Vec<Change>) {
    let mut standings: HashMap<K, Standing> = HashMap::new();
    let mut changes = Vec::with_capacity(games.len());
    for game in games {
        let white = standings.get(&game.white).copied().unwrap_or_default();
        let black = standings.get(&game.black).copied().unwrap_or_default();
        let (new_white, new_black) = rate_game(&white, &black, game.outcome, game.at);
        changes.push(Change {
            white_before: white.rating.rating,
            white_after: new_white.rating.rating,
            black_before: black.rating.rating,
            black_after: new_black.rating.rating,
        });
        standings.insert(game.white, new_white);
        standings.insert(game.black, new_black);
    }
    (standings, changes)
}

#[cfg(test)]
mod tests;

// The README's examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
