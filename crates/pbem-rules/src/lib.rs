//! The rules engine: pure game logic, no I/O.
//!
//! * [`position`]: one board and its move generator (FIDE or king capture);
//! * [`state`]: a game between moves, with the phase of the turn;
//! * [`variant`]: the [`Rules`](variant::Rules) trait and the registry of variants;
//! * [`variants`]: one file per variant family;
//! * [`turn`]: whole turns: enumeration, perft, judging a written turn;
//! * [`game`]: a game from its start, with repetition and results;
//! * [`notation`]: reading records and moves as people write them.
//!
//! Everything else in pbem asks this module questions and never decides a
//! rule itself.

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
