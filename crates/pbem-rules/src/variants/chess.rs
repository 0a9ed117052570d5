//! International chess: one move per turn, the baseline for every variant;
//! and Chess960, the same game from a shuffled back rank.

use shakmaty::{CastlingMode, Move, Position};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, MovesPerTurn, Rules, Variant};

/// Chess, or Chess960 when `chess960` is set: the rules are the same but
/// for where the pieces start and how castling is found.
pub struct Chess {
    pub chess960: bool,
}

pub const HELP: &str = "\
Chess: international chess as played by correspondence.
- One move per turn, under the FIDE Laws of Chess.
- The game ends by checkmate, stalemate, agreement, resignation, time,
  fivefold repetition or the 75-move rule (automatic), and threefold
  repetition or the 50-move rule (on claim), or insufficient material.
- Moves may be written in SAN (Nf3, exd5, O-O, e8=Q), long algebraic
  (g1-f3) or UCI (g1f3).";

pub const HELP_CHESS960: &str = "\
Chess960 (Fischer Random Chess): chess from a shuffled back rank.
- The pieces of the back rank start in one of 960 arrays, numbered 0 to
  959 (518 is the usual array, 0 is BBQNNRKR); the bishops stand on squares
  of both colours and the king between the rooks. Black mirrors White.
- Every other rule is the FIDE Laws of Chess, castling included as
  adapted: castling puts the king on g1 and the rook on f1 (O-O), or the
  king on c1 and the rook on d1 (O-O-O), from wherever they started. All
  squares between the king and its goal and between the rook and its goal
  must be empty (but for these two pieces), the king may not be in check,
  and no square the king passes or lands on may be attacked.
- Castling is written O-O or O-O-O, or in UCI as the king taking its own
  rook (b1a1, e1h1).";

impl Rules for Chess {
    fn variant(&self) -> Variant {
        if self.chess960 {
            Variant::Chess960
        } else {
            Variant::Chess
        }
    }

    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::from_chess960(self.chess960)
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
