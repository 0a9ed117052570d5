//! Correspondence chess clocks: pure arithmetic, no I/O. The clocks of
//! pbem, the play-by-email server, as a crate of its own: the server stores
//! a game's turns, vacations and extensions, and asks this crate what the
//! clock says.
//!
//! Three time controls ([`TimeControl`], written as after `--time=`):
//! - `D`: D days per turn;
//! - `N/D`: N turns in D days as ICCF counts them, cumulatively: turn N
//!   done within D days of the player's own thinking time, turn 2N within
//!   2D, and so on; time not used carries over;
//! - `B+I` or `B+I/C`: a bank of B days, I days more after each of the
//!   player's turns, never more than C days in the bank.
//!
//! A player's thinking time runs from the moment the opponent's turn was
//! stored to the moment theirs is, and stops during their vacations. From
//! a game's [`History`], [`History::clock_at`] computes the [`Clock`] at
//! an instant: both players' time left, the turns still to make in an
//! `N/D` block, the exact instant the player to move loses on time, the
//! reminders due ([`Clock::due`], for the sweep) and the lines of the
//! board mail ([`Clock::lines`]).
//!
//! Instants are `time::OffsetDateTime` and lengths `time::Duration`, as
//! the server stores them; days are [`Days`], exact hundredths of a day.
//! All arithmetic is checked: what does not fit the calendar is a
//! [`BeyondCalendar`] error, never a panic or a wrapped number.
//!
//! ```
//! use pbem_clock::{Event, History, Side, TimeControl};
//! use time::{Duration, OffsetDateTime};
//!
//! let control: TimeControl = "2/10".parse()?;
//! let start = OffsetDateTime::UNIX_EPOCH;
//! let day = Duration::DAY;
//! // White thinks 7 days, Black 1, White 2: White's second turn ends
//! // the first block with 1 day to spare, carried over to the next.
//! let events = [
//!     Event::Turn { at: start + day * 7 },
//!     Event::Turn { at: start + day * 8 },
//!     Event::Turn { at: start + day * 10 },
//! ];
//! let history = History {
//!     control,
//!     started_at: start,
//!     first: Side::White,
//!     events: &events,
//!     white_away: &[],
//!     black_away: &[],
//! };
//! let clock = history.clock_at(start + day * 12)?;
//! assert_eq!(clock.left(Side::White), day * 11);
//! assert_eq!(clock.left(Side::Black), day * 7);
//! assert_eq!(clock.loses_at(), start + day * 19);
//! assert_eq!(clock.lines()[1], "Black: 1 turn by 1970-01-20 00:00 UTC (7 days left)");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod clock;
mod control;
mod days;
mod reminders;

pub use clock::{
    BeyondCalendar, Block, Clock, Due, Event, ExtendError, History, Interval, MAX_EXTENSION_DAYS,
    RanOut, Reminded, Reminder, Side,
};
pub use control::{FORMS, MAX_DAYS, MAX_INCREMENT, MAX_TURNS, MIN_DAYS, ParseError, TimeControl};
pub use days::{Days, DaysError, days_text, describe, readable};
pub use reminders::{MAX_REMINDER_DAYS, REMINDER_FORMS, Reminders, RemindersError};

/// The example in README.md, run as a test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
