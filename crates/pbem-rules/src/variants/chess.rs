//! International chess: one move per turn, the baseline for every variant.

use shakmaty::{Move, Position};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, MovesPerTurn, Rules, Variant};

pub struct Chess;

pub const HELP: &str = "\
Chess: international chess as played by correspondence.
- One move per turn, under the FIDE Laws of Chess.
- The game ends by checkmate, stalemate, agreement, resignation, time,
  fivefold repetition or the 75-move rule (automatic), and threefold
  repetition or the 50-move rule (on claim), or insufficient material.
- Moves may be written in SAN (Nf3, exd5, O-O, e8=Q), long algebraic
  (g1-f3) or UCI (g1f3).";

impl Rules for Chess {
    fn variant(&self) -> Variant {
        Variant::Chess
    }

    fn turn_description(&self) -> &'static str {
        "one move"
    }

    fn check_rule(&self) -> CheckRule {
        CheckRule::Fide
    }

    fn moves_per_turn(&self) -> MovesPerTurn {
        MovesPerTurn::One
    }

    fn en_passant(&self) -> EnPassantRule {
        EnPassantRule::NextMove
    }

    /// The FIDE rule: no series of legal moves can end in mate.
    fn dead_by_material(&self, pos: &Pos) -> bool {
        pos.is_insufficient_material()
    }

    fn after_first_move(&self, _before: &State, _m: Move, _after: &Pos) -> AfterFirstMove {
        AfterFirstMove::TurnOver(Phase::TurnStart)
    }
}
