//! Twinmove Chess (M. Winther): a turn is a pawn move followed by a piece
//! move, check ignored, the king is captured. In the compulsory form the pawn
//! move is due whenever a pawn can move; in the uncompelled form (`free`) a
//! player may play a lone piece move instead.

use shakmaty::{Color, Move, Role};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{AfterFirstMove, EnPassantRule, Forbidden, NoSecondMove, Rules, Variant};

/// Whether a turn must start with a pawn move when one exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PawnMove {
    /// Twinmove (compulsory): while any pawn move exists, it is due.
    Compulsory,
    /// Twinmove (uncompelled): the player may give up the double move.
    Optional,
}

pub struct Twinmove {
    pub pawn_move: PawnMove,
}

pub const HELP: &str = "\
Twinmove Chess, compulsory (M. Winther).
- A turn is a pawn move followed by a piece (non-pawn) move. Both sides
  play pawn + piece from the very first turn.
- While any pawn of yours can move, your turn must start with a pawn move.
  The piece move after it is compulsory when one exists; if none exists,
  the turn ends after the pawn move.
- With no pawn move available, a turn is a single piece move.
- Never two pawn moves in one turn. A pawn that promotes is a piece at
  once and may make the piece move itself (e8=Q,Qe7).
- Check does not exist: a move may leave or put the own king en prise, and
  castling ignores attacked squares. Castling is a piece move. Capturing
  the enemy king wins at once, even with the pawn move of a turn.
- Pawns advance two squares from their starting square as usual; there is
  no en passant.
- A player with no move at all is stalemated (draw). Insufficient material
  never ends the game: a king can always walk into capture. Repetition
  counts positions with the phase of the turn; the 50/75-move rules count
  whole turns.
- Write the two moves joined by a comma or a slash: e4,Nf3 or e4/Nf3.";

pub const HELP_FREE: &str = "\
Twinmove Chess, uncompelled (M. Winther).
- As Twinmove (compulsory), except that the pawn move is optional: a turn is
  either a pawn move followed by a piece (non-pawn) move, or a single piece
  move, which gives up the double move.
- After a pawn move the piece move is compulsory when one exists; if none
  exists, the turn ends after the pawn move. Never two pawn moves in one
  turn; a pawn that promotes may make the piece move itself.
- Check does not exist, castling ignores attacked squares and is a piece
  move, capturing the enemy king wins at once. No en passant.
- The game begins with a pawn move (the inventor's page): White's first
  turn is a pawn move followed by a piece move (e4,Nf3); 1.Nf3 alone is
  not allowed. Black's first turn and every later turn are free.
- A player with no move at all is stalemated (draw).
- Write e4,Nf3 for a double move, or a piece move alone (Nf3).";

impl Twinmove {
    fn compulsory(&self) -> bool {
        self.pawn_move == PawnMove::Compulsory
    }

    /// Whether a turn starting in `state` must begin with a pawn move when
    /// one exists: always in the compulsory form; in the uncompelled form
    /// on White's first turn ("games always begin with a pawn move").
    fn pawn_move_due(&self, state: &State) -> bool {
        self.compulsory() || (state.turn() == Color::White && state.turn_number() == 1)
    }
}

impl Rules for Twinmove {
    fn variant(&self) -> Variant {
        match self.pawn_move {
            PawnMove::Compulsory => Variant::Twinmove,
            PawnMove::Optional => Variant::TwinmoveFree,
        }
    }

    fn turn_description(&self) -> &'static str {
        match self.pawn_move {
            PawnMove::Compulsory => {
                "a pawn move then a piece move (a single piece move only when no pawn can move)"
            }
            PawnMove::Optional => "a pawn move then a piece move, or a single piece move",
        }
    }

    fn check_rule(&self) -> CheckRule {
        CheckRule::KingCapture
    }

    fn en_passant(&self) -> EnPassantRule {
        EnPassantRule::Never
    }

    fn has_move_restrictions(&self, state: &State) -> bool {
        match state.phase() {
            Phase::SecondMove => true,
            Phase::TurnStart => self.pawn_move_due(state),
            Phase::OpeningMove | Phase::Response => false,
        }
    }

    fn forbids(&self, state: &State, m: Move) -> Option<Forbidden> {
        let pawn = m.role() == Role::Pawn;
        match state.phase() {
            Phase::SecondMove if pawn => Some(Forbidden::SecondPawnMove),
            Phase::TurnStart
                if !pawn && self.pawn_move_due(state) && state.pos().has_pawn_move() =>
            {
                Some(if self.compulsory() {
                    Forbidden::PawnMoveCompulsory
                } else {
                    Forbidden::FirstTurnPawnMove
                })
            }
            _ => None,
        }
    }

    fn after_first_move(&self, _before: &State, m: Move, _after: &Pos) -> AfterFirstMove {
        if m.role() == Role::Pawn {
            AfterFirstMove::MustContinue
        } else {
            AfterFirstMove::TurnOver(Phase::TurnStart)
        }
    }

    fn why_turn_over(&self, m: Move) -> Option<&'static str> {
        (m.role() != Role::Pawn).then_some(match self.pawn_move {
            PawnMove::Compulsory => {
                "a turn starts with a piece move only when no pawn can move, and is then that one move"
            }
            PawnMove::Optional => "a turn that starts with a piece move is that one move",
        })
    }

    fn no_second_move(&self, _state: &State) -> NoSecondMove {
        NoSecondMove::TurnEnds
    }
}
