//! The state of a game between moves, and how one move changes it.
//!
//! A *move* is one move of a piece; a *turn* is everything a player does
//! before the opponent moves. [`State`] is a [`Pos`] plus what the turn rules
//! need: the [`Phase`] of the turn, which pieces already moved in it, and the
//! pawn double steps that en passant may still answer. The variant's
//! [`Rules`] decide what each move does to the turn; this module applies it.
//!
//! In the doublestep variants a turn's two moves are the two steps of one
//! piece's doublestep; when such a turn ends, the doublestep is handed to
//! the position as an en passant chance for the opponent
//! ([`Pos::set_doublestep`]), and a king taken by it is only lost if the
//! opponent cannot free it.

use std::num::NonZeroU32;

use shakmaty::{Bitboard, Color, Move, MoveList, Position, Role, Square};

use super::position::{Doublestep, Pos};
use super::variant::{AfterFirstMove, EnPassantRule, MovesPerTurn, Rules, SecondMover};

/// Where the player to move stands within a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The start of an ordinary turn.
    TurnStart,
    /// White's lone first move, in variants that start with one.
    OpeningMove,
    /// The single response move after the opponent's single-move turn.
    Response,
    /// The first move of the turn is made; a second move is due or allowed.
    SecondMove,
}

impl Phase {
    /// Whether the turn in this phase consists of exactly one move.
    pub fn is_single(self) -> bool {
        matches!(self, Phase::OpeningMove | Phase::Response)
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    Checkmate,
    Stalemate,
    KingCaptured,
    /// doublemove-classic: a first move left only forbidden second moves.
    NoPermittedSecondMove,
    FivefoldRepetition,
    SeventyFiveTurnRule,
    InsufficientMaterial,
}

impl EndReason {
    pub fn describe(self) -> &'static str {
        match self {
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::KingCaptured => "king captured",
            EndReason::NoPermittedSecondMove => "first move left only forbidden second moves",
            EndReason::FivefoldRepetition => "fivefold repetition",
            EndReason::SeventyFiveTurnRule => "75-turn rule",
            EndReason::InsufficientMaterial => "insufficient material",
        }
    }
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
}

impl GameEnd {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// A game between two moves.
#[derive(Clone, Debug)]
pub struct State {
    pos: Pos,
    phase: Phase,
    /// The first move of the turn in progress, in phase [`Phase::SecondMove`].
    first_move: Option<Move>,
    /// In [`Phase::SecondMove`]: the phase the opponent gets if the player
    /// stops after one move, or `None` when the second move is compulsory.
    stop_gives: Option<Phase>,
    /// Squares now holding pieces that moved in the turn in progress.
    moved: Bitboard,
    /// Pawns (by square) that double-stepped in the turn in progress and did
    /// not move again.
    fresh_double_steps: Bitboard,
    /// The same pawns of the opponent's last turn: en passant candidates.
    ep_candidates: Bitboard,
    /// The pawn that made the very last move, if that move was a double step.
    last_double_step: Option<Square>,
    /// Whether the turn in progress captured or moved a pawn.
    turn_zeroing: bool,
    /// Whole turns since the last capture or pawn move.
    quiet_turns: u32,
    /// Turn pair number, as in a game record: raised after Black's turn.
    turn_number: u32,
    /// Set when a move itself ends the game (a king capture).
    end: Option<GameEnd>,
}

impl State {
    /// The start of a game from `pos` with White or Black to move.
    pub fn new(rules: &dyn Rules, pos: Pos, phase: Phase) -> State {
        let last_double_step = pos
            .ep_targets()
            .first()
            .and_then(|target| target.offset(pos.turn().fold_wb(-8, 8)));
        let turn_number = pos.fullmoves().get();
        let quiet_turns = pos.halfmoves();
        let mut pos = pos;
        if rules.en_passant() == EnPassantRule::AnyDoublestepper {
            pos.set_doublestep(last_double_step.and_then(|landed| {
                Some(Doublestep {
                    passed: pos.ep_targets().first()?,
                    landed,
                    role: Role::Pawn,
                    held: None,
                    held_castling: Bitboard::EMPTY,
                })
            }));
        }
        let mut state = State {
            pos,
            phase,
            first_move: None,
            stop_gives: None,
            moved: Bitboard::EMPTY,
            fresh_double_steps: Bitboard::EMPTY,
            ep_candidates: last_double_step.map_or(Bitboard::EMPTY, Bitboard::from),
            last_double_step,
            turn_zeroing: false,
            quiet_turns,
            turn_number,
            end: None,
        };
        state.prepare(rules);
        state
    }

    pub fn pos(&self) -> &Pos {
        &self.pos
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    pub fn first_move(&self) -> Option<Move> {
        self.first_move
    }

    /// Squares now holding pieces that moved in the turn in progress.
    pub fn moved_this_turn(&self) -> Bitboard {
        self.moved
    }

    pub fn turn_number(&self) -> u32 {
        self.turn_number
    }

    pub fn quiet_turns(&self) -> u32 {
        self.quiet_turns
    }

    /// The end a move itself caused (king capture, forced draw), if any.
    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// Whether the player may end the turn now, after one move.
    pub fn may_stop(&self) -> bool {
        self.phase == Phase::SecondMove && self.stop_gives.is_some()
    }

    /// Whether the side to move is in check (check-based variants).
    pub fn in_check(&self) -> bool {
        self.pos.is_checked(self.turn())
    }

    /// The moves allowed as the next move: legal on the board under the
    /// variant's check rule, and not forbidden by the variant. Whether a
    /// first move can be completed into a whole turn is decided in `turn`.
    pub fn next_moves(&self, rules: &dyn Rules) -> MoveList {
        let mut moves = MoveList::new();
        self.fill_next_moves(rules, &mut moves);
        moves
    }

    /// [`State::next_moves`] into a caller's (empty) list, for hot paths.
    pub fn fill_next_moves(&self, rules: &dyn Rules, moves: &mut MoveList) {
        self.pos.fill_legal_moves(moves);
        if rules.has_move_restrictions(self) {
            moves.retain(|m| rules.forbids(self, *m).is_none());
        }
    }

    /// Plays one allowed move. The turn either continues (phase
    /// [`Phase::SecondMove`]) or passes to the opponent.
    pub fn play_move(&self, rules: &dyn Rules, m: Move) -> State {
        let mut next = self.clone();
        let mover = self.turn();
        next.turn_zeroing |= m.is_zeroing();
        next.moved = (self.moved & !Pos::origin_squares(m)) | self.pos.landing_squares(m);
        next.fresh_double_steps.discard(Pos::origin_squares(m));
        next.last_double_step = None;
        if Pos::is_double_step(m) {
            next.fresh_double_steps.add(m.to());
            next.last_double_step = Some(m.to());
        }
        next.pos.play_unchecked(m);
        let king_taken = m.capture() == Some(Role::King);
        let step = match self.phase {
            _ if king_taken => AfterFirstMove::TurnOver(Phase::TurnStart),
            Phase::TurnStart => rules.after_first_move(self, m, &next.pos),
            Phase::OpeningMove | Phase::Response | Phase::SecondMove => {
                AfterFirstMove::TurnOver(Phase::TurnStart)
            }
        };
        match step {
            AfterFirstMove::TurnOver(phase) => {
                let doublestep = self
                    .completed_doublestep(m, &next.pos)
                    .filter(|_| rules.en_passant() == EnPassantRule::AnyDoublestepper);
                next.end_turn(rules, mover, phase, doublestep);
                if king_taken && !next.may_free_king(rules) {
                    next.end = Some(GameEnd {
                        winner: Some(mover),
                        reason: EndReason::KingCaptured,
                    });
                }
            }
            AfterFirstMove::MayContinue { stop_gives } => {
                next.continue_turn(rules, mover, m, Some(stop_gives))
            }
            AfterFirstMove::MustContinue => next.continue_turn(rules, mover, m, None),
        }
        next
    }

    /// Plays the first step of a doublestep that leaves the mover's own
    /// king in check ([`Pos::fill_legal_and_exposing`]): the turn goes on,
    /// and only a second step that ends the check can complete it.
    pub fn play_exposing_step(&self, rules: &dyn Rules, m: Move) -> State {
        let mut next = self.play_move(rules, m);
        next.stop_gives = None;
        next
    }

    /// The moves that may start the turn now, as [`State::next_moves`]
    /// gives them, followed (in the doublestep variants, at the start of a
    /// turn) by the first steps that leave the own king in check, which
    /// only a second step can complete. Returns how many of `moves` are
    /// allowed moves; the rest are such first steps, to be played with
    /// [`State::play_exposing_step`].
    pub fn fill_first_moves(&self, rules: &dyn Rules, moves: &mut MoveList) -> usize {
        if self.phase != Phase::TurnStart || rules.moves_per_turn() != MovesPerTurn::OneOrDoublestep
        {
            self.fill_next_moves(rules, moves);
            return moves.len();
        }
        let mut exposing = MoveList::new();
        self.pos.fill_legal_and_exposing(moves, &mut exposing);
        if rules.has_move_restrictions(self) {
            moves.retain(|m| rules.forbids(self, *m).is_none());
            exposing.retain(|m| rules.forbids(self, *m).is_none());
        }
        let allowed = moves.len();
        moves.extend(exposing);
        allowed
    }

    /// The doublestep that `m`, the last move of a turn, completes: the
    /// second step of one (the first landed on the passed square), or a
    /// pawn's two-square advance. `after` is the position after `m`.
    #[inline]
    fn completed_doublestep(&self, m: Move, after: &Pos) -> Option<Doublestep> {
        let (passed, held) = match (self.phase, self.first_move) {
            (Phase::SecondMove, Some(first)) => (first.to(), m.capture()),
            _ => (Pos::passed_square(m)?, None),
        };
        let landed = m.to();
        let victim = !self.turn();
        let lost = self.pos.castles().castling_rights() & !after.castles().castling_rights();
        Some(Doublestep {
            passed,
            landed,
            role: after.board().role_at(landed)?,
            held,
            held_castling: lost & Bitboard::from_rank(victim.backrank()),
        })
    }

    /// After a doublestep took the king of the side to move: whether that
    /// side can free it by en passant now.
    fn may_free_king(&self, rules: &dyn Rules) -> bool {
        self.pos
            .doublestep()
            .is_some_and(|d| d.held == Some(Role::King))
            && !self.next_moves(rules).is_empty()
    }

    /// Ends the turn after its first move, where the rules allow that (an
    /// optional second move, or a compulsory one that does not exist).
    pub fn stop(&self, rules: &dyn Rules) -> State {
        let mut next = self.clone();
        let phase = self.stop_gives.unwrap_or(Phase::TurnStart);
        next.end_turn(rules, self.turn(), phase, None);
        next
    }

    /// Ends the game as drawn by the variant's own rule (doublemove-classic).
    pub fn stop_drawn(&self, rules: &dyn Rules) -> State {
        let mut next = self.stop(rules);
        next.end = Some(GameEnd {
            winner: None,
            reason: EndReason::NoPermittedSecondMove,
        });
        next
    }

    fn continue_turn(
        &mut self,
        rules: &dyn Rules,
        mover: Color,
        first: Move,
        stop_gives: Option<Phase>,
    ) {
        self.pos.set_turn(mover);
        if rules.second_mover() == SecondMover::SamePiece {
            self.pos.set_stepper(Some(first.to()));
        }
        self.phase = Phase::SecondMove;
        self.first_move = Some(first);
        self.stop_gives = stop_gives;
        self.prepare(rules);
    }

    /// Hands the move to the opponent, who starts in `phase`; `doublestep`
    /// is the doublestep the turn made, open to en passant by any piece in
    /// the variants where that rule applies.
    fn end_turn(
        &mut self,
        rules: &dyn Rules,
        mover: Color,
        phase: Phase,
        doublestep: Option<Doublestep>,
    ) {
        self.pos.set_turn(!mover);
        self.pos.set_doublestep(doublestep);
        self.pos.set_stepper(None);
        self.phase = phase;
        self.first_move = None;
        self.stop_gives = None;
        self.moved = Bitboard::EMPTY;
        self.ep_candidates = self.fresh_double_steps;
        self.fresh_double_steps = Bitboard::EMPTY;
        self.quiet_turns = if self.turn_zeroing {
            0
        } else {
            self.quiet_turns.saturating_add(1)
        };
        self.turn_zeroing = false;
        if mover == Color::Black {
            self.turn_number = self.turn_number.saturating_add(1);
        }
        let turn_number = NonZeroU32::new(self.turn_number).unwrap_or(NonZeroU32::MIN);
        self.pos.set_counters(self.quiet_turns, turn_number);
        self.prepare(rules);
    }

    /// Opens en passant and double steps for the next move as the rules say.
    fn prepare(&mut self, rules: &dyn Rules) {
        let mover = self.turn();
        let behind = mover.fold_wb(8, -8);
        let target_of = |pawns: Bitboard| -> Bitboard {
            pawns
                .into_iter()
                .filter_map(|pawn| pawn.offset(behind))
                .fold(Bitboard::EMPTY, |acc, sq| acc | Bitboard::from(sq))
        };
        let targets = match (rules.en_passant(), self.phase) {
            (EnPassantRule::Never | EnPassantRule::AnyDoublestepper, _) => Bitboard::EMPTY,
            (EnPassantRule::NextMove, Phase::SecondMove) => Bitboard::EMPTY,
            (EnPassantRule::NextMove, _) => target_of(
                self.last_double_step
                    .map_or(Bitboard::EMPTY, Bitboard::from),
            ),
            (EnPassantRule::FirstMoveOfTurn, Phase::SecondMove) => Bitboard::EMPTY,
            (EnPassantRule::FirstMoveOfTurn, _) => target_of(self.ep_candidates),
            (EnPassantRule::Marseillais, Phase::SecondMove) => {
                if matches!(self.first_move, Some(Move::EnPassant { .. })) {
                    target_of(self.ep_candidates)
                } else {
                    Bitboard::EMPTY
                }
            }
            (EnPassantRule::Marseillais, _) => target_of(self.ep_candidates),
        };
        self.pos.set_ep_targets(targets);
        self.pos
            .set_double_steps(rules.double_steps_allowed(self.phase));
    }
}
