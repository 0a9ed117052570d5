//! Marseillais Chess and Balanced Marseillais Chess: two moves per turn, a
//! checking first move ends the turn.

use shakmaty::{Move, Position};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, Rules, Variant};

pub struct Marseillais {
    /// Balanced Marseillais: White's first turn is a single move.
    pub balanced: bool,
}

pub const HELP: &str = "\
Marseillais Chess.
- Each turn is two moves, each legal by the FIDE rules in the position
  where it is played; the same piece may move twice; castling is one move.
- A first move that gives check ends the turn. A player in check must
  escape with the first move.
- En passant: a pawn that made its double step during the opponent's last
  turn, and did not move again in that turn, may be taken en passant on the
  first move. If two such pawns exist, both may be taken, the second on the
  second move. Otherwise en passant is never the second move.
- A first move after which no legal second move exists is not a complete
  turn and so not allowed; a player with no complete turn is checkmated if
  in check, otherwise stalemated.
- Repetition counts positions with the phase of the turn; the 50/75-move
  rules count whole turns.
- Write the two moves joined by a comma (e4,Nf3) or a slash.
- Insufficient material: only bare kings draw at once; with several moves
  per turn a lone king can be mated even by a single minor piece.";

pub const HELP_BALANCED: &str = "\
Balanced Marseillais Chess.
- As Marseillais Chess, except that White's first turn is a single move.
- Each later turn is two moves, each legal by FIDE rules; the same piece may
  move twice; a checking first move ends the turn; a player in check must
  escape with the first move.
- En passant as in Marseillais: a pawn that double-stepped in the
  opponent's last turn (and did not move again) on the first move; a second
  such pawn on the second move.
- A first move with no legal second move after it is not allowed.
- Insufficient material: only bare kings draw at once; with several moves
  per turn a lone king can be mated even by a single minor piece.";

impl Rules for Marseillais {
    fn variant(&self) -> Variant {
        if self.balanced {
            Variant::BalancedMarseillais
        } else {
            Variant::Marseillais
        }
    }

    fn turn_description(&self) -> &'static str {
        "two moves (a first move that checks ends the turn)"
    }

    fn check_rule(&self) -> CheckRule {
        CheckRule::Fide
    }

    fn opening_phase(&self) -> Phase {
        if self.balanced {
            Phase::OpeningMove
        } else {
            Phase::TurnStart
        }
    }

    fn en_passant(&self) -> EnPassantRule {
        EnPassantRule::Marseillais
    }

    fn after_first_move(&self, _before: &State, _m: Move, after: &Pos) -> AfterFirstMove {
        if after.is_king_attacked(after.turn()) {
            AfterFirstMove::TurnOver(Phase::TurnStart)
        } else {
            AfterFirstMove::MustContinue
        }
    }
}
