//! Board mails and error mails: loading a board's game from its stored
//! turns ([`load`]), rendering what each recipient reads ([`views`], and a
//! finished game's PGN, [`pgn`]), sending a board's mails to its players
//! and observers ([`fanout`]), and the error mail of a refused command
//! ([`errors`]). Players who chose the digest get no board mail per turn.

mod deadline;
mod errors;
mod fanout;
mod load;
mod pgn;
mod views;

pub use deadline::loses_on_time_at;
pub use errors::*;
pub use fanout::*;
pub use load::*;
pub use pgn::*;
pub use views::*;

/// Why a board mail goes out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Occasion {
    /// A new board (`New ...` subject).
    New,
    /// A new board of an event (`New ...` subject): to the player to move
    /// only, and not to one who chose the digest, since every entrant had
    /// a list of their new boards (`event_start`).
    Started,
    /// A turn, an offer, a result: to both players and observers.
    Update,
    /// A comment without a move: to everyone but its author.
    Comment,
    /// A reminder to the player to move (`Nag: ...` subject), with its text.
    Nag(String),
}

/// Which occasion wins when a mail touches a board several times.
pub(super) fn rank(occasion: &Occasion) -> u8 {
    match occasion {
        Occasion::Comment => 0,
        Occasion::Nag(_) => 1,
        // A turn on an event's new board in the same mail: both hear of it.
        Occasion::Started => 2,
        Occasion::Update => 3,
        Occasion::New => 4,
    }
}

/// How a board mail's subject begins, and any reminder it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Heading {
    Plain,
    New,
    Nag(String),
}
