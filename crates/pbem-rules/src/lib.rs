//! Chess and its double-move variants as pure game logic, no I/O: the rules
//! engine of pbem, the play-by-email server, as a crate of its own.
//!
//! Start with [`Game`] (a game of one [`Variant`] from its start: play
//! written turns, ask how it ended) or, for move generation alone, with
//! [`State`] and the variant's [`Rules`] (legal turns, perft).
//!
//! * [`position`]: one board and its move generator (FIDE or king capture);
//! * [`state`]: a game between moves, with the phase of the turn;
//! * [`variant`]: the [`Rules`] trait and the registry of variants;
//! * `variants` (private): one file per variant family;
//! * [`turn`]: whole turns: enumeration, perft, judging a written turn;
//! * [`game`]: a game from its start, with repetition and results;
//! * [`notation`]: reading records and moves as people write them.
//!
//! Everything else in pbem asks this crate questions and never decides a
//! rule itself. The engine is checked against independent references: perft
//! of chess against the published numbers, every variant's perft against a
//! deliberately simple second implementation written only for the tests,
//! and games and rule violations collected from other implementations.

pub mod game;
pub mod notation;
pub mod position;
pub mod state;
pub mod turn;
pub mod variant;
mod variants;

pub use game::{Game, PlayError, PlayedTurn};
pub use position::{CheckRule, Pos};
pub use state::{EndReason, GameEnd, Phase, State};
pub use turn::{FirstMove, FirstMoveKind, Illegal, Turn, TurnError};
pub use variant::{Rules, Variant};

// The README's examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
