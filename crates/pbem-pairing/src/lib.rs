//! Swiss pairings: the FIDE Dutch system (C.04.3) in pure Rust, no I/O (the
//! pairing engine of pbem, the play-by-email server, as a crate of its own).
//!
//! [`Tournament`] is the in-memory form of a FIDE Tournament Report File
//! (TRF-16 with the TRF(x) extensions, see [`trf`]): players with start
//! number, name, rating and one [`Entry`] per round (opponent, colour and
//! result, one value per TRF code, so byes and absences are kept as in the
//! file),
//! the total number of rounds, forbidden pairs and the acceleration option.
//! [`dutch::pair`] pairs the next round; [`check::check`] re-pairs every
//! round of a finished file and names the first round that differs.
//!
//! Reading the TRF codes (which results count as played, which player took
//! part in a round's pairing, the scores of byes) follows what the
//! FIDE-endorsed engine bbpPairings reads, so both see the same event; the
//! pairing criteria themselves are those of C.04.3 (2017/2023 rules with the
//! 2025 bye amendments): absolute criteria C1-C3, completion, the quality
//! criteria C5-C21 in order, colour allocation E1-E5 and the pairing-allocated
//! bye, encoded as priorities of one maximum-weight matching per step
//! ([`matching`], weights of [`weight`]).
//!
//! The engine pairs every round of 5,000 random tournaments made by
//! bbpPairings' generator, and of 400 accelerated ones, exactly as
//! bbpPairings does (FIDE's bar for endorsing a program is 4,990 of 5,000).

pub mod check;
pub mod dutch;
pub mod matching;
mod state;
pub mod trf;
pub mod weight;

use std::fmt;

/// A piece colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// White.
    White,
    /// Black.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn invert(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One player's round as written in a TRF player line: opponent start number
/// (0 for none, written `0000`), colour and result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Opponent's start number, 0 for none.
    pub opponent: u32,
    /// The colour column.
    pub colour: EntryColour,
    /// The result column.
    pub result: EntryResult,
}

/// The colour column of a round in a TRF player line
/// ([`EntryColour::from_trf`] and [`EntryColour::to_trf`] convert).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryColour {
    /// `w`: played (or was to play) White.
    White,
    /// `b`: played (or was to play) Black.
    Black,
    /// `-`: no game in this round (a bye or an absence).
    NoGame,
    /// Blank: nothing written.
    Blank,
}

/// The result column of a round in a TRF player line, the TRF-16 result
/// codes ([`EntryResult::from_trf`] and [`EntryResult::to_trf`] convert).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryResult {
    /// `1`: a win over the board.
    Win,
    /// `=`: a draw over the board.
    Draw,
    /// `0`: a loss over the board.
    Loss,
    /// `+`: a win by forfeit.
    ForfeitWin,
    /// `-`: a loss by forfeit.
    ForfeitLoss,
    /// `W`: a win not rated.
    UnratedWin,
    /// `D`: a draw not rated.
    UnratedDraw,
    /// `L`: a loss not rated.
    UnratedLoss,
    /// `H`: a half-point bye.
    HalfPointBye,
    /// `F`: a full-point bye.
    FullPointBye,
    /// `U`: the pairing-allocated bye.
    PairingAllocatedBye,
    /// `Z`: a zero-point bye (absent).
    ZeroPointBye,
    /// Blank: no result yet (a game in progress, or nothing written).
    Pending,
}

/// A result compares equal to its TRF code (`entry.result == 'Z'`).
impl PartialEq<char> for EntryResult {
    fn eq(&self, code: &char) -> bool {
        EntryResult::from_trf(*code) == Some(*self)
    }
}

impl Entry {
    /// A blank entry (the player has nothing in this round yet).
    pub const BLANK: Entry = Entry {
        opponent: 0,
        colour: EntryColour::Blank,
        result: EntryResult::Pending,
    };

    /// A game between two players, seen from the first.
    pub fn game(opponent: u32, colour: Colour, result: EntryResult) -> Entry {
        Entry {
            opponent,
            colour: match colour {
                Colour::White => EntryColour::White,
                Colour::Black => EntryColour::Black,
            },
            result,
        }
    }

    /// A round without opponent (bye or absence) with its result:
    /// [`EntryResult::PairingAllocatedBye`], [`EntryResult::HalfPointBye`],
    /// [`EntryResult::FullPointBye`], [`EntryResult::ZeroPointBye`] (absent)
    /// or [`EntryResult::ForfeitLoss`].
    pub fn bye(result: EntryResult) -> Entry {
        Entry {
            opponent: 0,
            colour: EntryColour::NoGame,
            result,
        }
    }

    /// Whether nothing is written.
    pub fn is_blank(&self) -> bool {
        *self == Entry::BLANK
    }
}

/// A player of the tournament (a TRF `001` line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Start number (1-based pairing number).
    pub start: u32,
    /// Name, at most 33 characters in TRF.
    pub name: String,
    /// Rating, 0 if none.
    pub rating: u32,
    /// Columns 10-14 (sex, title) as written, blank if unknown.
    pub sex_title: String,
    /// Columns 58-80 (federation, FIDE id, birth date) as written.
    pub fed_id_birth: String,
    /// Points in tenths as written in the file (recomputed when written).
    pub points_tenths: u32,
    /// Rank as written (0 if none).
    pub rank: u32,
    /// One entry per round, in order; missing trailing rounds are blank.
    pub rounds: Vec<Entry>,
}

/// Points of the scoring system in tenths (TRF(x) `BBW` `BBD` `BBL` `BBZ`
/// `BBF` `BBU`); the default is 1 / ½ / 0, a pairing-allocated bye worth a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points {
    /// A win.
    pub win: u32,
    /// A draw.
    pub draw: u32,
    /// A loss over the board.
    pub loss: u32,
    /// A zero-point bye (absence).
    pub zero_bye: u32,
    /// A forfeit loss.
    pub forfeit_loss: u32,
    /// The pairing-allocated bye.
    pub pab: u32,
}

impl Default for Points {
    fn default() -> Self {
        Points {
            win: 10,
            draw: 5,
            loss: 0,
            zero_bye: 0,
            forfeit_loss: 0,
            pab: 10,
        }
    }
}

/// Acceleration of scores for pairing purposes.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Acceleration {
    /// None.
    #[default]
    None,
    /// The Baku method (C.04.5.1): the top half gets a win's worth of
    /// virtual points in the first half of the accelerated rounds and a
    /// draw's worth in the second (TRF-2026 tournament type
    /// `192 FIDE_DUTCH_2025_BAKU`, or pbem's `XXC baku`).
    Baku,
    /// Given per player and round in tenths (TRF(x) `XXA`): (start, points).
    Manual(Vec<(u32, Vec<u32>)>),
    /// Given for ranges of players and rounds (TRF-2026 `250` records).
    Fictitious(Vec<FictitiousPoints>),
}

/// One TRF-2026 `250` record: the players with start numbers
/// `first_player..=last_player` get `points` (tenths) added to their score
/// for pairing in rounds `first_round..=last_round` (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FictitiousPoints {
    /// Fictitious game points in tenths (not zero).
    pub points: u32,
    /// First round (1-based).
    pub first_round: u32,
    /// Last round (1-based, at least `first_round`).
    pub last_round: u32,
    /// First start number.
    pub first_player: u32,
    /// Last start number (at least `first_player`).
    pub last_player: u32,
}

/// One TRF-2026 `240` record: byes entered before a round is paired. The
/// players are left out of that round's pairing (as a bye written in their
/// line's column for the round).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByeRecord {
    /// [`EntryResult::FullPointBye`], [`EntryResult::HalfPointBye`] or
    /// [`EntryResult::ZeroPointBye`] (`F`, `H` or `Z`).
    pub kind: EntryResult,
    /// The round (1-based).
    pub round: u32,
    /// Start numbers.
    pub players: Vec<u32>,
}

/// One TRF-2026 `260` record: players who may not meet each other in
/// rounds `first_round..=last_round` (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prohibited {
    /// First round (1-based).
    pub first_round: u32,
    /// Last round (1-based, at least `first_round`).
    pub last_round: u32,
    /// Start numbers (at least two).
    pub players: Vec<u32>,
}

/// A tournament: the in-memory form of a TRF.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Tournament {
    /// Header lines kept as read (`012` name, `042` dates ...), in order.
    pub header: Vec<String>,
    /// The players, in file order.
    pub players: Vec<Player>,
    /// Total rounds of the event (`XXR`), if given.
    pub total_rounds: Option<u32>,
    /// The colour of the first player in round 1 (`XXC white1`/`black1`);
    /// inferred from round 1 when absent.
    pub initial_colour: Option<Colour>,
    /// Rank players by the order of the player lines instead of start
    /// numbers (`XXC rank`).
    pub use_rank: bool,
    /// Forbidden pairs: groups of start numbers who may not meet (`XXP`).
    pub forbidden: Vec<Vec<u32>>,
    /// Groups who may not meet in some rounds (TRF-2026 `260`).
    pub prohibited: Vec<Prohibited>,
    /// Byes entered for rounds not yet paired (TRF-2026 `240`).
    pub byes: Vec<ByeRecord>,
    /// Acceleration.
    pub acceleration: Acceleration,
    /// Scoring.
    pub points: Points,
}

/// The pairing of one round.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Pairing {
    /// (white, black) by start number, in the order of bbpPairings' output
    /// (by the score of the higher player, then the lower, then rank).
    pub pairs: Vec<(u32, u32)>,
    /// The player given the pairing-allocated bye, if any.
    pub bye: Option<u32>,
}

/// Why no pairing was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria.
    NoValidPairing,
    /// The file is not a consistent tournament (named reason).
    Invalid(String),
    /// More players or rounds than the engine accepts.
    TooLarge(String),
}

impl fmt::Display for PairingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairingError::NoValidPairing => {
                write!(
                    f,
                    "no valid pairing exists: the players cannot all be paired under the absolute criteria"
                )
            }
            PairingError::Invalid(s) => write!(f, "invalid tournament: {s}"),
            PairingError::TooLarge(s) => write!(f, "too large: {s}"),
        }
    }
}

impl std::error::Error for PairingError {}

/// Most players (and highest start number) the engine pairs: the dense
/// weight table grows with the square of the players.
pub const MAX_PLAYERS: usize = 2000;
/// Most rounds the engine reads.
pub const MAX_ROUNDS: usize = 99;

// The README's examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
