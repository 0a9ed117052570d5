//! Conditional moves for play-by-email chess and its double-move variants,
//! as pure logic, no I/O: "if they play X, I answer Y" lines of one player
//! on one board, checked with the rules of [`pbem_rules`], merged into a
//! tree, matched against the turns the opponent plays, and stored as text.
//!
//! * [`line`](mod@line): reading and checking one line as written (move numbers
//!   allowed and checked), every turn played from the position it starts
//!   from;
//! * [`tree`]: the [`Tree`] of a player's lines: adding (merging shared
//!   beginnings, refusing a second answer to the same turn), clearing,
//!   listing, and [`Tree::follow`]ing the opponent's turn;
//! * [`chain`](mod@chain): answers in a row when both players have lines;
//! * [`stored`]: the tree as versioned, human-readable text for one column.
//!
//! Bounds: at most [`MAX_LINES`] lines per player and board, at most
//! [`MAX_TURNS_PER_LINE`] turns per line (so at most 640 turns in a tree),
//! at most [`MAX_CHAIN_TURNS`] automatic turns after one turn.
//!
//! A turn matches a line's turn when it makes the same moves (squares and
//! promotion, in the same order within the turn), however either was
//! written: the tree keeps the moves of every turn it was given.

pub mod chain;
pub mod line;
pub mod stored;
pub mod tree;

pub use chain::{AutoTurn, Chain, MAX_CHAIN_TURNS, Stop, chain};
pub use line::{Entry, Line, LineError, MAX_LINE_BYTES, MAX_TURNS_PER_LINE, Problem};
pub use stored::{MAX_STORED_BYTES, STORED_HEADER, StoredError};
pub use tree::{Added, Follow, MAX_LINES, Tree};

// The README's examples are compiled and run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
