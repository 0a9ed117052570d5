//! Revised Double Move Chess (chess2) and its successor Two Move Chess
//! (twomove): one or two moves per turn, single-move turns answered by a
//! single response move.

use shakmaty::{Move, Position};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, Forbidden, Rules, Variant};

/// Revised Double Move Chess: a qualifying first move *may* end the turn.
pub struct Chess2;

/// Two Move Chess: a qualifying first move *must* end the turn.
pub struct TwoMove;

pub const HELP_CHESS2: &str = "\
Chess2 (Revised Double Move Chess, by Ted Larson Freeman).
- White's first turn is a single move. Afterwards a turn is one or two
  moves, each legal by the FIDE rules in the position where it is played.
- In a two-move turn the same piece may not move twice; after castling
  neither the king nor that rook may move again in the turn.
- A turn may be a single move only if that move gives check, captures,
  promotes, or gives the opponent a legal en passant capture. A first move
  that gives check always ends the turn (decision: a second move would be
  played with the enemy king in check, which FIDE rules never allow).
- After a single-move turn the opponent plays one response move; a
  response never causes another response.
- En passant only as the very next move after the double step, so never
  as the second move of a two-move turn.
- Checkmate: in check at the start of a turn and no legal turn. Stalemate:
  not in check and no legal turn (for a response: no legal move).
- Repetition counts positions with the phase of the turn; the 50/75-move
  rules count whole turns (100/150 turns without capture or pawn move).
- Write the moves of a turn joined by a comma (Nf3,Bb5+) or a slash.
- Insufficient material: only bare kings draw at once; with several moves
  per turn a lone king can be mated even by a single minor piece.";

pub const HELP_TWOMOVE: &str = "\
TwoMove (Two Move Chess, the inventor's current revision of Chess2).
- As Chess2, except that the single-move turn is compulsory: a first move
  that gives check, captures, promotes, or gives the opponent a legal en
  passant capture ends the turn, and the opponent then plays one response
  move. The first move of a two-move turn meets none of these; the second
  may.
- White's first turn is a single move. In a two-move turn the same piece
  may not move twice (after castling neither king nor rook).
- En passant only as the very next move after the double step.
- Checkmate: in check and no legal turn; stalemate: not in check and no
  legal turn. Repetition counts positions with the phase of the turn; the
  50/75-move rules count whole turns.
- Insufficient material: only bare kings draw at once; with several moves
  per turn a lone king can be mated even by a single minor piece.";

/// Why a first move may (chess2) or must (twomove) end the turn, if it does.
fn single_move_reason(m: Move, after: &Pos) -> Option<SingleMoveReason> {
    let opponent = after.turn();
    if after.is_king_attacked(opponent) {
        Some(SingleMoveReason::Check)
    } else if m.is_capture() {
        Some(SingleMoveReason::Capture)
    } else if m.is_promotion() {
        Some(SingleMoveReason::Promotion)
    } else if offers_en_passant(m, after) {
        Some(SingleMoveReason::EnPassantChance)
    } else {
        None
    }
}

/// The conditions that allow a single-move turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SingleMoveReason {
    Check,
    Capture,
    Promotion,
    EnPassantChance,
}

/// Whether a double step leaves the opponent a *legal* en passant capture.
fn offers_en_passant(m: Move, after: &Pos) -> bool {
    Pos::is_double_step(m)
        && after.ep_targets().any()
        && after.legal_moves().iter().any(|m| m.is_en_passant())
}

pub(crate) fn same_piece_twice(state: &State, m: Move) -> Option<Forbidden> {
    let origins = Pos::origin_squares(m);
    let square = (origins & state.moved_this_turn()).first()?;
    let role = state.pos().board().role_at(square)?;
    Some(Forbidden::SamePieceTwice { role, square })
}

macro_rules! two_move_family {
    ($ty:ty, $variant:expr, $compulsory:expr) => {
        impl Rules for $ty {
            fn variant(&self) -> Variant {
                $variant
            }

            fn turn_description(&self) -> &'static str {
                if $compulsory {
                    "two moves, or one move that checks, captures, promotes or gives an en passant chance (such a move must end the turn)"
                } else {
                    "two moves, or one move that checks, captures, promotes or gives an en passant chance"
                }
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

            fn has_move_restrictions(&self, state: &State) -> bool {
                state.phase() == Phase::SecondMove
            }

            fn forbids(&self, state: &State, m: Move) -> Option<Forbidden> {
                if state.phase() == Phase::SecondMove {
                    same_piece_twice(state, m)
                } else {
                    None
                }
            }

            fn after_first_move(&self, _before: &State, m: Move, after: &Pos) -> AfterFirstMove {
                match single_move_reason(m, after) {
                    None => AfterFirstMove::MustContinue,
                    Some(SingleMoveReason::Check) => AfterFirstMove::TurnOver(Phase::Response),
                    Some(_) if $compulsory => AfterFirstMove::TurnOver(Phase::Response),
                    Some(_) => AfterFirstMove::MayContinue { stop_gives: Phase::Response },
                }
            }
        }
    };
}

two_move_family!(Chess2, Variant::Chess2, false);
two_move_family!(TwoMove, Variant::TwoMove, true);
