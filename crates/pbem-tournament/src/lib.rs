//! Tournaments: pure logic, no I/O. How an event is paired (Berger tables
//! for round robins, [`berger`]), and how its results become a crosstable
//! with scores and tiebreaks ([`table`]) and plain text that lines up in a
//! fixed-width font ([`text`]); a Swiss event written as the pairing
//! engine reads it ([`swiss`], for the crate `pbem-pairing`). Knockout cups
//! of mini-matches ([`knockout`], their bracket as text in
//! [`text::bracket`]), round-robin groups whose top players go on to a
//! final stage ([`groups`]), and standing ladders ([`ladder`]). In pbem,
//! the play-by-email server, the service stores events and runs them by
//! mail; this crate only computes.
//!
//! The bounds, each checked where an event is made: a round robin of at
//! most [`MAX_ROUND_ROBIN`] players, a Swiss of [`MAX_SWISS`] and
//! [`MAX_SWISS_ROUNDS`] rounds, a knockout of [`knockout::MAX_KNOCKOUT`]
//! with matches of at most [`knockout::MAX_MATCH_GAMES`] games, at most
//! [`groups::MAX_GROUPS`] groups (each a round robin, so at most
//! [`groups::MAX_GROUP_ENTRANTS`] entrants), a ladder of
//! [`ladder::MAX_LADDER`] players.

pub mod berger;
pub mod groups;
pub mod knockout;
pub mod ladder;
pub mod swiss;
pub mod table;
pub mod text;

use std::fmt;
use std::str::FromStr;

pub use table::{
    ByeKind, ByeRecord, Cell, Crosstable, Entrant, EventResults, GameRecord, GameResult, Mark,
    RoundCell, Row,
};

/// The most entrants a round robin may have (its crosstable still fits a
/// wide mail line).
pub const MAX_ROUND_ROBIN: u32 = 30;
/// The most entrants a Swiss event may have.
pub const MAX_SWISS: u32 = 200;
/// The most rounds a Swiss event may have.
pub const MAX_SWISS_ROUNDS: u32 = 20;

/// How an event is paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Everyone meets everyone, once or (`double`) once with each colour.
    RoundRobin { double: bool },
    /// A Swiss of `rounds` rounds, paired round by round.
    Swiss { rounds: u32 },
    /// A knockout cup ([`knockout`]): mini-matches of `match_games` games,
    /// ties decided by `tie`.
    Knockout {
        match_games: u32,
        tie: knockout::TieRule,
    },
    /// Round-robin groups ([`groups`]), once or (`double`) twice, whose
    /// top `advance` go on to `final_stage`.
    Groups {
        groups: u32,
        advance: u32,
        double: bool,
        final_stage: groups::FinalStage,
    },
}

impl Format {
    pub fn describe(self) -> String {
        match self {
            Format::RoundRobin { double: false } => "round robin".into(),
            Format::RoundRobin { double: true } => "double round robin".into(),
            Format::Swiss { rounds } => format!("Swiss, {rounds} rounds"),
            Format::Knockout { match_games, tie } => format!(
                "knockout, matches of {match_games} game{}, ties decided by {}",
                if match_games == 1 { "" } else { "s" },
                match tie {
                    knockout::TieRule::Playoff => "playoffs",
                    knockout::TieRule::Seed => "seed",
                }
            ),
            Format::Groups {
                groups,
                advance,
                double,
                final_stage,
            } => format!(
                "{groups} {}round-robin groups, the top {advance} of each going on to a final {}",
                if double { "double " } else { "" },
                match final_stage {
                    groups::FinalStage::RoundRobin { .. } => "round robin".to_string(),
                    groups::FinalStage::Knockout { match_games, tie } =>
                        Format::Knockout { match_games, tie }.describe(),
                }
            ),
        }
    }

    /// The kind in a few words, for one line of a list (`knockout`,
    /// `groups + knockout`); [`Format::describe`] says it all.
    pub fn kind(self) -> String {
        match self {
            Format::RoundRobin { .. } | Format::Swiss { .. } => self.describe(),
            Format::Knockout { .. } => "knockout".into(),
            Format::Groups {
                final_stage: groups::FinalStage::Knockout { .. },
                ..
            } => "groups + knockout".into(),
            Format::Groups { .. } => "groups + round robin".into(),
        }
    }

    pub fn is_swiss(self) -> bool {
        matches!(self, Format::Swiss { .. })
    }

    /// A knockout or groups then a final stage: events that move on
    /// match by match, not only when every game has ended.
    pub fn is_cup(self) -> bool {
        matches!(self, Format::Knockout { .. } | Format::Groups { .. })
    }
}

/// A tiebreak, as FIDE C.07 names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Sonneborn-Berger: each opponent's score times the points scored
    /// against them.
    SonnebornBerger,
    /// Number of wins (Baumbach): rounds won, played or not.
    Wins,
    /// Direct encounter: points among the players still tied.
    DirectEncounter,
    /// Buchholz: the sum of the opponents' scores.
    Buchholz,
    /// Buchholz without the lowest opponent's score.
    BuchholzCut1,
    /// Average rating of the opponents played over the board.
    AverageRatingOfOpponents,
}

impl Tiebreak {
    /// The word of `--tiebreaks=` and the crosstable's column head.
    pub fn code(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "sb",
            Tiebreak::Wins => "wins",
            Tiebreak::DirectEncounter => "de",
            Tiebreak::Buchholz => "bh",
            Tiebreak::BuchholzCut1 => "bh-c1",
            Tiebreak::AverageRatingOfOpponents => "aro",
        }
    }

    /// The tiebreak in words: "Sonneborn-Berger", "number of wins".
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "Sonneborn-Berger",
            Tiebreak::Wins => "number of wins",
            Tiebreak::DirectEncounter => "direct encounter",
            Tiebreak::Buchholz => "Buchholz",
            Tiebreak::BuchholzCut1 => "Buchholz cut 1",
            Tiebreak::AverageRatingOfOpponents => "average rating of opponents",
        }
    }

    pub fn heading(self) -> &'static str {
        match self {
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::Wins => "Wins",
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::AverageRatingOfOpponents => "ARO",
        }
    }

    pub const ALL: [Tiebreak; 6] = [
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::DirectEncounter,
        Tiebreak::Buchholz,
        Tiebreak::BuchholzCut1,
        Tiebreak::AverageRatingOfOpponents,
    ];

    /// The default order for a round robin (ICCF's): SB, wins, direct
    /// encounter.
    pub const ROUND_ROBIN: [Tiebreak; 3] = [
        Tiebreak::SonnebornBerger,
        Tiebreak::Wins,
        Tiebreak::DirectEncounter,
    ];

    /// The default order for a Swiss: Buchholz cut 1, Buchholz, SB,
    /// direct encounter, wins.
    pub const SWISS: [Tiebreak; 5] = [
        Tiebreak::BuchholzCut1,
        Tiebreak::Buchholz,
        Tiebreak::SonnebornBerger,
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
    ];
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Tiebreak {
    type Err = String;

    fn from_str(text: &str) -> Result<Tiebreak, String> {
        let lower = text.to_ascii_lowercase();
        Tiebreak::ALL
            .into_iter()
            .find(|t| t.code() == lower)
            .ok_or_else(|| {
                format!(
                    "\"{text}\" is not a tiebreak; the tiebreaks are {}",
                    Tiebreak::ALL.map(Tiebreak::code).join(", ")
                )
            })
    }
}

/// Reads `sb,wins,de`: at least one, each at most once, at most six.
pub fn parse_tiebreaks(text: &str) -> Result<Vec<Tiebreak>, String> {
    let mut list = Vec::new();
    for word in text.split(',').filter(|w| !w.is_empty()) {
        let tiebreak: Tiebreak = word.parse()?;
        if list.contains(&tiebreak) {
            return Err(format!("the tiebreak {word} is named twice"));
        }
        list.push(tiebreak);
    }
    if list.is_empty() {
        return Err("name at least one tiebreak".into());
    }
    Ok(list)
}

/// Points in half points, as players read them: `0`, `½`, `3`, `4½`.
pub fn points_text(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (whole, 0) => whole.to_string(),
        (whole, _) => format!("{whole}½"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiebreak_lists_are_read_and_checked() {
        assert_eq!(
            parse_tiebreaks("SB,wins,de").unwrap(),
            Tiebreak::ROUND_ROBIN.to_vec()
        );
        assert!(parse_tiebreaks("sb,sb").is_err());
        assert!(parse_tiebreaks("").is_err());
        assert!(parse_tiebreaks("median").unwrap_err().contains("median"));
    }

    #[test]
    fn points_read_as_players_write_them() {
        assert_eq!(points_text(0), "0");
        assert_eq!(points_text(1), "½");
        assert_eq!(points_text(6), "3");
        assert_eq!(points_text(9), "4½");
    }
}

// The README's examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
