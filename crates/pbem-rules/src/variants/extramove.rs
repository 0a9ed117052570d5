//! Extra Move Chess (Fergus Duniho): an optional second move that may
//! neither capture nor move the piece just moved.

use shakmaty::Move;

use super::twomove::same_piece_twice;
use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, Forbidden, Rules, Variant};

pub struct Extramove;

pub const HELP: &str = "\
Extra Move Chess (Fergus Duniho).
- White's first turn is one move; afterwards each turn is two moves, the
  second optional. Each move must be legal by FIDE rules.
- The second move may not move the piece just moved (after castling:
  neither king nor rook) and may not capture (en passant included).
- An unmoved pawn may advance two squares only on a second move, or on
  White's very first move. En passant is therefore only ever a first move.
- A player in check must escape with the first move; if he cannot, he is
  mated. Having no legal second move is not stalemate: the turn ends.
- Stalemate: no legal move at the start of the turn, not in check.
- Send one move to play a single-move turn, or two joined by a comma.
- Insufficient material: only bare kings draw at once; with several moves
  per turn a lone king can be mated even by a single minor piece.";

impl Rules for Extramove {
    fn variant(&self) -> Variant {
        Variant::Extramove
    }

    fn turn_description(&self) -> &'static str {
        "one or two moves (the second optional, neither the same piece nor a capture)"
    }

    fn check_rule(&self) -> CheckRule {
        CheckRule::Fide
    }

    fn opening_phase(&self) -> Phase {
        Phase::OpeningMove
    }

    fn en_passant(&self) -> EnPassantRule {
        EnPassantRule::NextMove
    }

    fn double_steps_allowed(&self, phase: Phase) -> bool {
        matches!(phase, Phase::SecondMove | Phase::OpeningMove)
    }

    fn has_move_restrictions(&self, state: &State) -> bool {
        state.phase() == Phase::SecondMove
    }

    fn forbids(&self, state: &State, m: Move) -> Option<Forbidden> {
        if state.phase() != Phase::SecondMove {
            return None;
        }
        same_piece_twice(state, m).or(m.is_capture().then_some(Forbidden::CaptureOnSecondMove))
    }

    fn after_first_move(&self, _before: &State, _m: Move, _after: &Pos) -> AfterFirstMove {
        AfterFirstMove::MayContinue {
            stop_gives: Phase::TurnStart,
        }
    }
}
