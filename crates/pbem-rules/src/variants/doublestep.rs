//! Doublestep Chess and Doubletime Chess (Ralph Betza): one move per turn,
//! but any piece may make a *doublestep*, two steps of its own in one move,
//! and any doublestepper can be taken en passant on the square it passed.
//!
//! A doublestep is played as two steps (two [`Move`]s) of one turn: the
//! first step may start a doublestep when it is quiet, the second is
//! restricted here, and the en passant that follows is the generic
//! [`EnPassantRule::AnyDoublestepper`]. A doublestep is one move, legal by
//! the position it leaves: a first step that leaves the own king in check
//! (not the king's own) is offered as well, and only a second step that
//! ends the check completes it ([`State::fill_first_moves`]). In doubletime the second step may
//! capture, en passant then frees the captured piece, and check follows
//! [`CheckRule::Doubletime`].

use shakmaty::{Color, Move, Position, Rank, Role};

use crate::position::{CheckRule, Pos};
use crate::state::{Phase, State};
use crate::variant::{
    AfterFirstMove, EnPassantRule, Forbidden, MovesPerTurn, Rules, SecondMover, Variant,
};

/// What the second step of a doublestep may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondStep {
    /// Doublestep: both steps are quiet.
    Quiet,
    /// Doubletime: the second step may capture.
    MayCapture,
}

pub struct Doublestep {
    pub second_step: SecondStep,
}

pub const HELP: &str = "\
Doublestep Chess (Ralph Betza).
- One move per turn, as in chess, but any piece may make a doublestep: two
  non-capturing steps by the same piece, each a move that piece could make
  from where it stands. Write it as one move in long form: Nb1-c3-e4,
  e3-e4-e5, Ke1-d2-d3.
- A doublestep is one move, legal by the position it leaves: only the
  final position counts for your own king. The square between the steps
  is no position of the game, so the first step may leave your king in
  check if the second ends it: e3-e4-e5 may block a check on the fifth
  rank as e2-e4 blocks one on the fourth, and a pinned piece may step off
  its line and back on (Qe2-d3-e4 against a rook on e8). In check, a
  doublestep that ends the check is a legal reply.
- The second step may not return to the starting square. A pawn that
  promotes ends its move there; promotion on the second step is fine
  (e6-e7-e8=Q).
- A pawn's two-square advance from its starting square already is its
  doublestep: e2-e4-e5 is not allowed, and e2-e3-e4 is simply e4.
  Castling already is the king's doublestep: no king step after it.
- En passant for every piece: if the first step of a doublestep (the
  square a pawn's two-square advance passed) is attacked by the opponent
  after the move, the opponent's very next move may capture the
  doublestepper with an ordinary single move onto that square, by any
  piece, the king included; the doublestepper is removed from where it
  stands. The capture is judged as though the second step had not been
  taken: the doublestepper stands on the passed square and its final
  square is empty, so a piece it now blocks may still take it (after
  1.Ra1-a4-a6, Ra8xa4 is legal; after 1.e2-e4 with a rook on e8, Re8xe3).
  Write it as an ordinary capture onto the passed square (Nxf6,
  Ng8xf6, exd6, e.p. optional). A quiet move onto that square stays
  possible and is written without the capture sign (Nf6, Ng8-f6, g8f6);
  where no quiet move exists, those mean the capture. pbem says under the
  board which of the two a move written without x was.
  Only a single move can capture en passant.
- The king's own doublestep is the exception: a king may not doublestep
  through an attacked square (as with castling, it could be taken en
  passant there), nor end on one. Check, checkmate and stalemate are
  otherwise those of chess; a FEN's en passant square stands for a pawn's
  two-square advance, and FENs written by pbem show no en passant square.
- Draws as in chess (fivefold repetition, 75-move rule, insufficient
  material by the FIDE rule).";

pub const HELP_DOUBLETIME: &str = "\
Doubletime Chess (Ralph Betza).
- As Doublestep Chess (one move per turn; any piece may doublestep, written
  Nb1-c3-e4; no return to the starting square; e2-e4-e5 not allowed and
  e2-e3-e4 is simply e4; castling is the king's doublestep), except that
  the second step of a doublestep may capture (Ne4-f6xe8). The first step
  never captures. A pawn may also step off its starting square and capture
  with its second step (e2-e3xd4; decision: only e2-e3-e4 duplicates the
  two-square advance).
- En passant for every piece, by any piece with an ordinary single move
  onto the square the doublestep passed, on the very next move only, when
  that square is attacked after the doublestep, judged as though the
  second step had not been taken (as in Doublestep Chess; decision: a
  piece the second step captured counts as standing on its square then,
  and blocks that path). If the doublestep captured a piece, the en
  passant capture puts that piece back on its square (a captured king
  reappears), with the castling rights its capture took. The captured
  piece cannot make that rescue itself. Write the capture with its sign
  (Ng8xf6 or Nxf6); Nf6 and g8f6 mean a quiet move onto the square where
  one exists, else the capture.
- Check: a king is in check when an enemy move could capture it, including
  a doublestep capture (by any piece, the enemy king too, pinned or not),
  except a doublestep whose passed square the defender could capture on
  with a single move of a piece other than the king (it counts attacks, as
  check does). A doublestep is one move, legal by the position it leaves:
  no move may leave the own king in check, but the first step of a
  doublestep may, if the second step ends it, so a check may be met by a
  second step (a position is mate only if no move nor doublestep ends the
  check). The king's own doublestep is the exception: a king never
  doublesteps (captures included) or castles through a square where it
  would be in check.
- A king taken by a doublestep capture ends the game only if the opponent
  cannot undo it by en passant on the next move; until then the opponent's
  only legal moves are those rescues.
- Checkmate: in check with no legal move; stalemate: not in check with no
  legal move. Bare kings are a draw (a lone king can never give check);
  other material never ends the game by itself. Repetition and the
  50/75-move rules as in chess.";

impl Doublestep {
    fn captures(&self) -> bool {
        self.second_step == SecondStep::MayCapture
    }
}

/// The rank pawns of `color` start on.
fn pawn_start_rank(color: Color) -> Rank {
    color.fold_wb(Rank::Second, Rank::Seventh)
}

impl Rules for Doublestep {
    fn variant(&self) -> Variant {
        match self.second_step {
            SecondStep::Quiet => Variant::Doublestep,
            SecondStep::MayCapture => Variant::Doubletime,
        }
    }

    fn turn_description(&self) -> &'static str {
        "one move, which may be a doublestep (Nb1-c3-e4)"
    }

    fn check_rule(&self) -> CheckRule {
        match self.second_step {
            SecondStep::Quiet => CheckRule::Fide,
            SecondStep::MayCapture => CheckRule::Doubletime,
        }
    }

    fn moves_per_turn(&self) -> MovesPerTurn {
        MovesPerTurn::OneOrDoublestep
    }

    fn en_passant(&self) -> EnPassantRule {
        EnPassantRule::AnyDoublestepper
    }

    fn has_move_restrictions(&self, state: &State) -> bool {
        state.phase() == Phase::SecondMove
    }

    fn second_mover(&self) -> SecondMover {
        SecondMover::SamePiece
    }

    fn forbids(&self, state: &State, m: Move) -> Option<Forbidden> {
        if state.phase() != Phase::SecondMove {
            return None;
        }
        let first = state.first_move()?;
        let start = first.from()?;
        if m.to() == start {
            return Some(Forbidden::DoublestepReturns { square: start });
        }
        if m.is_capture() && !self.captures() {
            return Some(Forbidden::DoublestepCaptures);
        }
        if m.role() == Role::Pawn
            && !m.is_capture()
            && start.rank() == pawn_start_rank(state.turn())
        {
            return Some(Forbidden::PawnAdvanceInSteps {
                from: start,
                to: m.to(),
            });
        }
        None
    }

    fn after_first_move(&self, _before: &State, m: Move, _after: &Pos) -> AfterFirstMove {
        if Pos::may_begin_doublestep(m) {
            AfterFirstMove::MayContinue {
                stop_gives: Phase::TurnStart,
            }
        } else {
            AfterFirstMove::TurnOver(Phase::TurnStart)
        }
    }

    fn why_turn_over(&self, m: Move) -> Option<&'static str> {
        Some(if m.is_castle() {
            "castling already is the king's doublestep"
        } else if Pos::is_double_step(m) {
            "a pawn's two-square advance already is its doublestep"
        } else if m.is_capture() {
            "the first step of a doublestep may not capture"
        } else {
            "a pawn that promotes ends its move"
        })
    }

    /// Doublestep: check is FIDE's, so FIDE's rule applies (every mate
    /// there is a mate in chess). Doubletime: bare kings only.
    fn dead_by_material(&self, pos: &Pos) -> bool {
        match self.second_step {
            SecondStep::Quiet => pos.is_insufficient_material(),
            SecondStep::MayCapture => pos.board().occupied() == pos.board().kings(),
        }
    }
}
