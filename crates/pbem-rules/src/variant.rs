//! What a variant is: the [`Rules`] trait every variant implements, and the
//! registry of variants ([`Variant`]).
//!
//! A variant answers a few questions and the generic machinery in `state` and
//! `turn` does the rest: which check rule applies, how White's first turn
//! looks, when en passant is open, which moves it forbids on top of the board
//! rules, and what a first move does to the turn.

use std::fmt;
use std::str::FromStr;

use shakmaty::{CastlingMode, Move, Position, Role, Square};

use super::position::{CheckRule, Pos};
use super::state::{Phase, State};
use super::variants;

/// When a pawn's double step may be answered by en passant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnPassantRule {
    /// Never.
    Never,
    /// Only as the very next move after the double step.
    NextMove,
    /// Marseillais: any pawn that double-stepped in the opponent's last turn
    /// (and did not move again) on the first move; a second such pawn on the
    /// second move, if the first move was en passant.
    Marseillais,
    /// Galvin's rule: a pawn that double-stepped in the opponent's last turn
    /// and did not move again, on the first move of the turn only.
    FirstMoveOfTurn,
    /// Doublestep chess: any piece that doublestepped (a pawn's two-square
    /// advance included) may be taken by any piece with an ordinary move
    /// onto the square it passed, as the very next move.
    AnyDoublestepper,
}

/// What the first move of an ordinary turn does to that turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AfterFirstMove {
    /// The turn is over; the opponent's turn starts in the given phase.
    TurnOver(Phase),
    /// The player may stop (the opponent then gets `stop_gives`) or move again.
    MayContinue { stop_gives: Phase },
    /// A second move is compulsory.
    MustContinue,
}

/// How many moves a turn can have in a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MovesPerTurn {
    One,
    UpToTwo,
    /// One move, which may be a doublestep: one piece stepping twice,
    /// played as two steps (two [`Move`]s) and written as one move.
    OneOrDoublestep,
}

/// Which pieces may make the second move of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondMover {
    /// Any piece the variant's other rules allow.
    AnyPiece,
    /// Only the piece the first move moved (the doublestep variants): the
    /// generator leaves out every other piece before testing legality.
    SamePiece,
}

/// What happens when a second move is compulsory but none is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoSecondMove {
    /// The first move cannot start a turn.
    FirstMoveIllegal,
    /// The turn simply ends after the first move.
    TurnEnds,
    /// The game is drawn (doublemove-classic, when only forbidden second
    /// moves exist).
    GameDrawn,
}

/// A variant rule that forbids a move the board would allow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forbidden {
    /// The piece now on `square` already moved this turn.
    SamePieceTwice { role: Role, square: Square },
    /// The second move of a turn may not capture.
    CaptureOnSecondMove,
    /// A piece may not return to the square it left this turn unless the
    /// turn's first move captured.
    ReturnToStart { square: Square },
    /// twinmove: a turn must start with a pawn move while one exists.
    PawnMoveCompulsory,
    /// twinmove-free: White's first turn begins with a pawn move.
    FirstTurnPawnMove,
    /// twinmove: the second move of a turn is a piece move.
    SecondPawnMove,
    /// A doublestep may not end on the square it started from.
    DoublestepReturns { square: Square },
    /// doublestep: neither step of a doublestep may capture.
    DoublestepCaptures,
    /// A pawn stepping twice from its starting square makes its ordinary
    /// two-square advance, which is written as one move.
    PawnAdvanceInSteps { from: Square, to: Square },
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Forbidden::SamePieceTwice { role, square } => write!(
                f,
                "the {} on {square} already moved this turn",
                role_name(*role)
            ),
            Forbidden::CaptureOnSecondMove => {
                f.write_str("the second move of a turn may not capture")
            }
            Forbidden::ReturnToStart { square } => write!(
                f,
                "a piece may not return to {square}, the square it left this turn, unless the first move captured"
            ),
            Forbidden::PawnMoveCompulsory => f.write_str(
                "a pawn move is compulsory while one exists: start the turn with a pawn move",
            ),
            Forbidden::FirstTurnPawnMove => f.write_str(
                "White's first turn begins with a pawn move in Twinmove (uncompelled): write a pawn move and a piece move, like e4,Nf3",
            ),
            Forbidden::SecondPawnMove => f.write_str(
                "never two pawn moves in one turn: the second move must be a piece move",
            ),
            Forbidden::DoublestepReturns { square } => write!(
                f,
                "a doublestep may not return to {square}, its starting square (that would be no move)"
            ),
            Forbidden::DoublestepCaptures => f.write_str(
                "a doublestep may not capture in Doublestep chess (its second step may in Doubletime)",
            ),
            Forbidden::PawnAdvanceInSteps { from, to } => write!(
                f,
                "that is the pawn's ordinary two-square advance, written {from}-{to}"
            ),
        }
    }
}

/// The English name of a piece kind, for messages.
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The rules of one variant.
pub trait Rules: Sync {
    fn variant(&self) -> Variant;

    fn check_rule(&self) -> CheckRule;

    /// The shape of an ordinary turn, in words, for the summary.
    fn turn_description(&self) -> &'static str;

    fn moves_per_turn(&self) -> MovesPerTurn {
        MovesPerTurn::UpToTwo
    }

    /// The phase of White's first turn from the starting position.
    fn opening_phase(&self) -> Phase {
        Phase::TurnStart
    }

    fn en_passant(&self) -> EnPassantRule;

    /// Whether unmoved pawns may advance two squares in this phase.
    fn double_steps_allowed(&self, _phase: Phase) -> bool {
        true
    }

    /// Whether [`Rules::forbids`] can forbid anything in this state; lets the
    /// generator skip the filter where it cannot.
    fn has_move_restrictions(&self, _state: &State) -> bool {
        false
    }

    /// A variant rule against a move the board allows, if any.
    fn forbids(&self, _state: &State, _m: Move) -> Option<Forbidden> {
        None
    }

    /// Which pieces may make the second move of a turn.
    fn second_mover(&self) -> SecondMover {
        SecondMover::AnyPiece
    }

    /// Why the first move `m` of an ordinary turn ends the turn, in words,
    /// where the variant has a reason of its own.
    fn why_turn_over(&self, _m: Move) -> Option<&'static str> {
        None
    }

    /// What the first move `m` of an ordinary turn does to the turn; `after`
    /// is the position after it (with the opponent nominally to move).
    fn after_first_move(&self, before: &State, m: Move, after: &Pos) -> AfterFirstMove;

    /// Whether neither side can ever win on material alone. By default only
    /// bare kings in check-based variants: with several moves per turn a
    /// lone king can be mated by a single minor piece (it has no two-move
    /// turn), and in king-capture variants a king can always walk into
    /// capture, so nothing more is certain.
    fn dead_by_material(&self, pos: &Pos) -> bool {
        self.check_rule() != CheckRule::KingCapture && pos.board().occupied() == pos.board().kings()
    }

    /// What happens when a second move is compulsory but none is allowed.
    fn no_second_move(&self, _state: &State) -> NoSecondMove {
        NoSecondMove::FirstMoveIllegal
    }

    /// How castling rights are read and castling moves made: Chess960's
    /// rules where the king and rooks may start anywhere on the back rank.
    fn castling_mode(&self) -> CastlingMode {
        CastlingMode::Standard
    }
}

/// Every variant pbem plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Variant {
    Chess,
    Chess2,
    TwoMove,
    Marseillais,
    BalancedMarseillais,
    Doublemove,
    DoublemoveClassic,
    Extramove,
    Twinmove,
    TwinmoveFree,
    Doublestep,
    Doubletime,
    Chess960,
}

impl Variant {
    pub const ALL: [Variant; 13] = [
        Variant::Chess,
        Variant::Chess2,
        Variant::TwoMove,
        Variant::Marseillais,
        Variant::BalancedMarseillais,
        Variant::Doublemove,
        Variant::DoublemoveClassic,
        Variant::Extramove,
        Variant::Twinmove,
        Variant::TwinmoveFree,
        Variant::Doublestep,
        Variant::Doubletime,
        Variant::Chess960,
    ];

    /// The identifier used in commands and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Chess => "chess",
            Variant::Chess2 => "chess2",
            Variant::TwoMove => "twomove",
            Variant::Marseillais => "marseillais",
            Variant::BalancedMarseillais => "balanced-marseillais",
            Variant::Doublemove => "doublemove",
            Variant::DoublemoveClassic => "doublemove-classic",
            Variant::Extramove => "extramove",
            Variant::Twinmove => "twinmove",
            Variant::TwinmoveFree => "twinmove-free",
            Variant::Doublestep => "doublestep",
            Variant::Doubletime => "doubletime",
            Variant::Chess960 => "chess960",
        }
    }

    /// The name shown to players, as in mail subjects (`Chess2 Board 101`).
    pub fn display_name(self) -> &'static str {
        match self {
            Variant::Chess => "Chess",
            Variant::Chess2 => "Chess2",
            Variant::TwoMove => "TwoMove",
            Variant::Marseillais => "Marseillais",
            Variant::BalancedMarseillais => "BalancedMarseillais",
            Variant::Doublemove => "Doublemove",
            Variant::DoublemoveClassic => "DoublemoveClassic",
            Variant::Extramove => "Extramove",
            Variant::Twinmove => "Twinmove",
            Variant::TwinmoveFree => "TwinmoveFree",
            Variant::Doublestep => "Doublestep",
            Variant::Doubletime => "Doubletime",
            Variant::Chess960 => "Chess960",
        }
    }

    /// The name in words, for the web pages (`Balanced Marseillais`);
    /// mail subjects keep [`display_name`](Self::display_name), which
    /// players' filters may match.
    pub fn spaced_name(self) -> &'static str {
        match self {
            Variant::TwoMove => "Two Move",
            Variant::BalancedMarseillais => "Balanced Marseillais",
            Variant::DoublemoveClassic => "Doublemove Classic",
            Variant::TwinmoveFree => "Twinmove Free",
            other => other.display_name(),
        }
    }

    /// One line for `pbem variants` and `help list`: what sets the variant
    /// apart (docs/rules.md states the rules in full).
    pub fn description(self) -> &'static str {
        match self {
            Variant::Chess => "International chess, one move per turn",
            Variant::Chess2 => {
                "Revised Double Move Chess: two moves a turn, or one move that checks, captures, promotes or allows en passant (a check always ends the turn), answered by a one-move response"
            }
            Variant::TwoMove => {
                "Two Move Chess: as chess2, but a move that checks, captures, promotes or allows en passant always ends the turn, so a two-move turn opens with a move that does none of these"
            }
            Variant::Marseillais => {
                "Marseillais Chess: two moves per turn, a checking first move ends the turn"
            }
            Variant::BalancedMarseillais => {
                "Balanced Marseillais Chess: Marseillais with a single first move for White"
            }
            Variant::Doublemove => {
                "Doublemove Chess (AISE): White opens with one move, then two per turn; no check and no en passant: capture the king to win"
            }
            Variant::DoublemoveClassic => {
                "Doublemove Chess, Galvin's original rules: as doublemove, plus en passant, and no piece may move away and back in one turn unless the first move captured"
            }
            Variant::Extramove => {
                "Extra Move Chess: one move, then an optional second that may neither capture nor move the same piece"
            }
            Variant::Twinmove => {
                "Twinmove Chess (compulsory): a pawn move then a piece move each turn (one piece move when no pawn can move); capture the king to win"
            }
            Variant::TwinmoveFree => {
                "Twinmove Chess (uncompelled): as twinmove, but a turn may also be a single piece move (except White's first)"
            }
            Variant::Doublestep => {
                "Doublestep Chess: one move per turn, but any piece may step twice in it (Nb1-c3-e4) and be taken en passant"
            }
            Variant::Doubletime => {
                "Doubletime Chess: as doublestep, but the second step may capture, and taking such a piece en passant brings back what it took"
            }
            Variant::Chess960 => {
                "Chess960 (Fischer Random): chess from one of 960 back-rank arrays, castling to the usual squares"
            }
        }
    }

    /// The full rules, with every decision on ambiguities, for `help <variant>`.
    pub fn help(self) -> &'static str {
        variants::help(self)
    }

    pub fn rules(self) -> &'static dyn Rules {
        variants::rules(self)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// A variant name that pbem does not know.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.id()).collect();
        write!(
            f,
            "unknown variant \"{}\"; known variants: {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    /// Accepts the id or the display name, in any case.
    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let wanted = s.trim();
        Variant::ALL
            .into_iter()
            .find(|v| {
                v.id().eq_ignore_ascii_case(wanted) || v.display_name().eq_ignore_ascii_case(wanted)
            })
            .ok_or_else(|| UnknownVariant(wanted.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pbem variants` tells the variants apart: one distinct line each,
    /// and a line that describes a variant "as" another names one listed
    /// before it.
    #[test]
    fn each_description_is_its_own_and_refers_only_to_variants_before_it() {
        for (index, variant) in Variant::ALL.into_iter().enumerate() {
            let description = variant.description();
            assert!(!description.contains('\n'), "{description}");
            for other in &Variant::ALL[index + 1..] {
                assert_ne!(description, other.description(), "{variant} and {other}");
            }
            if let Some((_, after)) = description.split_once(" as ") {
                let named = after.split([',', ' ']).next().unwrap_or_default();
                let position = Variant::ALL.iter().position(|v| v.id() == named);
                assert!(
                    position.is_some_and(|p| p < index),
                    "{variant} is described as \"{named}\""
                );
            }
        }
    }

    /// The two-move family differs in what a qualifying first move does:
    /// chess2 may go on after a capture, twomove may not; in both a check
    /// ends the turn. The lines say so.
    #[test]
    fn chess2_and_twomove_say_which_first_moves_end_the_turn() {
        assert!(
            Variant::Chess2
                .description()
                .contains("a check always ends the turn")
        );
        assert!(
            Variant::TwoMove
                .description()
                .contains("checks, captures, promotes or allows en passant always ends the turn")
        );
    }
}
