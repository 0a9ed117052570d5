//! Doublemove Chess (Fred Galvin): two moves per turn, check ignored, the
//! king is captured. Two rule sets: AISE's current one and Galvin's original
//! regulations (`classic`).

use shakmaty::{Move, Position};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, Forbidden, NoSecondMove, Rules, Variant};

pub struct Doublemove {
    /// Galvin's original regulations instead of the AISE rules.
    pub classic: bool,
}

pub const HELP: &str = "\
Doublemove Chess (AISE rules).
- White starts with one move; afterwards each turn is two moves, and the
  same piece may move twice.
- Check does not exist: a move may leave or put the own king en prise, and
  castling ignores attacked squares. Capturing the enemy king wins at once,
  even with the first move of a turn.
- No en passant.
- If a first move leaves no second move at all, the turn ends after it.
  A player with no move at all at the start of a turn is stalemated (draw).
- Insufficient material never ends the game: a king can always walk into
  capture. Repetition counts positions with the phase of the turn; the
  50/75-move rules count whole turns.
- Write the two moves joined by a comma or a slash (Nf3/e3); 000 is O-O-O.";

pub const HELP_CLASSIC: &str = "\
Doublemove Chess, Fred Galvin's original regulations.
- As Doublemove (AISE): White starts with one move, then two moves per turn,
  the same piece may move twice, check ignored, the king is captured.
- Every turn must change the position: a piece may not move away from a
  square and back to it in one turn, unless the first move captured
  (decision: this also holds for a pawn that promoted on the first move).
- If a first move leaves only such forbidden second moves, the game is a
  draw. If it leaves no second move at all, the turn ends after it.
- En passant: when a pawn double-stepped and did not move again that turn,
  the opponent may capture it en passant with the first move of the next
  turn, provided the passed square is empty.
- Insufficient material never ends the game: a king can always walk into
  capture.";

impl Rules for Doublemove {
    fn variant(&self) -> Variant {
        if self.classic {
            Variant::DoublemoveClassic
        } else {
            Variant::Doublemove
        }
    }

    fn turn_description(&self) -> &'static str {
        "two moves (one if the first leaves no second move)"
    }

    fn check_rule(&self) -> CheckRule {
        CheckRule::KingCapture
    }

    fn opening_phase(&self) -> Phase {
        Phase::OpeningMove
    }

    fn en_passant(&self) -> EnPassantRule {
        if self.classic {
            EnPassantRule::FirstMoveOfTurn
        } else {
            EnPassantRule::Never
        }
    }

    fn has_move_restrictions(&self, state: &State) -> bool {
        self.classic && state.phase() == Phase::SecondMove
    }

    fn forbids(&self, state: &State, m: Move) -> Option<Forbidden> {
        if !self.classic || state.phase() != Phase::SecondMove {
            return None;
        }
        match (state.first_move()?, m) {
            (
                Move::Normal {
                    from: left,
                    to: went,
                    capture: None,
                    ..
                },
                Move::Normal { from, to, .. },
            ) if from == went && to == left => Some(Forbidden::ReturnToStart { square: left }),
            _ => None,
        }
    }

    fn after_first_move(&self, _before: &State, _m: Move, _after: &Pos) -> AfterFirstMove {
        AfterFirstMove::MustContinue
    }

    fn no_second_move(&self, state: &State) -> NoSecondMove {
        if self.classic && !state.pos().legal_moves().is_empty() {
            NoSecondMove::GameDrawn
        } else {
            NoSecondMove::TurnEnds
        }
    }
}
