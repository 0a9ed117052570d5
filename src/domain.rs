//! The values every layer speaks of, without I/O: a player's id, a
//! board's number, the preference choices, a board's clock and a vacation. `store` reads and
//! writes them, `command` parses the choices, `schedule` computes deadlines
//! from clocks and vacations, and `service` passes them between them; none
//! of those needs another to name them.

use std::fmt;

use time::OffsetDateTime;

/// A player's row id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub i64);

/// A board's number, as players write it (`move 101 ...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BoardNumber(pub u32);

impl fmt::Display for BoardNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The number's own formatting, so widths and padding apply.
        fmt::Display::fmt(&self.0, f)
    }
}

/// How board mails show the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardChoice {
    /// The text board alone.
    Ascii,
    /// The compact text board (one line per rank) alone.
    Compact,
    /// The text board and an HTML part with the picture (the default).
    Html,
    /// The pieces listed by side, for screen readers and braille displays.
    List,
}

/// Which board mails come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailChoice {
    /// A board mail for every turn (the default).
    Every,
    /// No board mail per turn: the daily digest and reminders only.
    Digest,
}

/// A player's preferences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preferences {
    pub board: BoardChoice,
    pub mail: MailChoice,
    /// Whether a finished game's mail carries its PGN.
    pub pgn: bool,
}

impl Default for Preferences {
    fn default() -> Preferences {
        Preferences {
            board: BoardChoice::Html,
            mail: MailChoice::Every,
            pgn: true,
        }
    }
}

impl BoardChoice {
    pub fn word(self) -> &'static str {
        match self {
            BoardChoice::Ascii => "ascii",
            BoardChoice::Compact => "compact",
            BoardChoice::Html => "html",
            BoardChoice::List => "list",
        }
    }

    pub fn from_word(word: &str) -> Option<BoardChoice> {
        [
            BoardChoice::Ascii,
            BoardChoice::Compact,
            BoardChoice::Html,
            BoardChoice::List,
        ]
        .into_iter()
        .find(|c| c.word().eq_ignore_ascii_case(word))
    }
}

impl MailChoice {
    pub fn word(self) -> &'static str {
        match self {
            MailChoice::Every => "every",
            MailChoice::Digest => "digest",
        }
    }

    pub fn from_word(word: &str) -> Option<MailChoice> {
        [MailChoice::Every, MailChoice::Digest]
            .into_iter()
            .find(|c| c.word().eq_ignore_ascii_case(word))
    }
}

/// The per-turn deadlines of one board still being played: when its turn
/// started, the days to a reminder and to the loss on time, and how many
/// reminders went out (see `schedule`). A board with a time control keeps
/// its correspondence clock besides (`service::clocks`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnDeadlines {
    pub board: BoardNumber,
    /// Who is to move; `None` for a board not yet migrated (filled in at start).
    pub to_move: Option<PlayerId>,
    pub last_turn_at: OffsetDateTime,
    pub nag_days: u32,
    pub forfeit_days: u32,
    pub nags_sent: u32,
    /// When a standing draw offer was made, if one stands.
    pub draw_offered_at: Option<OffsetDateTime>,
}

/// A vacation: the player's clocks stop from `starts_at` to `ends_at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub starts_at: OffsetDateTime,
    pub ends_at: OffsetDateTime,
}
