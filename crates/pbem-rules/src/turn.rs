//! Whole turns: enumerating the legal ones, counting them (perft), and
//! judging a turn a player wrote, with a reason a player understands when
//! it is not legal.
//!
//! In the doublestep variants a turn is one written move, but a doublestep
//! (`Nb1-c3-e4`) is judged, enumerated and stored as its two steps; it is
//! written back in long form ([`State::turn_text`]). Being one move, it is
//! legal by the position it leaves: its first step may leave the own king
//! in check when the second step ends it ([`State::fill_first_moves`]).

use std::fmt;

use arrayvec::ArrayVec;
use shakmaty::{CastlingSide, Move, MoveList, Position, Rank, Role, Square, san::San};

use super::notation::{self, MoveSpec, MoveText, Resolution};
use super::position::Pos;
use super::state::{Phase, State};
use super::variant::{
    EnPassantRule, Forbidden, MovesPerTurn, NoSecondMove, Rules, Variant, role_name,
};

/// One player's whole turn: one or two moves (in the doublestep variants,
/// one move or the two steps of a doublestep).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    moves: ArrayVec<Move, 2>,
}

impl Turn {
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn one(m: Move) -> Turn {
        let mut moves = ArrayVec::new();
        moves.push(m);
        Turn { moves }
    }

    fn two(m1: Move, m2: Move) -> Turn {
        let mut moves = ArrayVec::new();
        moves.push(m1);
        moves.push(m2);
        Turn { moves }
    }
}

/// How a legal first move relates to the end of the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMoveKind {
    /// The turn is over after it (single-move phase, a check, a compulsory
    /// single move, a king capture, or no second move exists).
    EndsTurn,
    /// The player may stop after it or play a second move.
    MayEndTurn,
    /// A second move must follow.
    NeedsSecond,
}

/// A legal first move and what it does to the turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMove {
    pub m: Move,
    pub kind: FirstMoveKind,
}

impl State {
    /// In phase [`Phase::SecondMove`]: fills `seconds` with the allowed
    /// second moves and returns the state if the player ends the turn here
    /// instead (`None` when that is not allowed, which makes a first move
    /// without second moves illegal).
    fn second_options(&self, rules: &dyn Rules, seconds: &mut MoveList) -> Option<State> {
        self.fill_next_moves(rules, seconds);
        if self.may_stop() {
            Some(self.stop(rules))
        } else if seconds.is_empty() {
            match rules.no_second_move(self) {
                NoSecondMove::FirstMoveIllegal => None,
                NoSecondMove::TurnEnds => Some(self.stop(rules)),
                NoSecondMove::GameDrawn => Some(self.stop_drawn(rules)),
            }
        } else {
            None
        }
    }

    /// Plays a first move of [`State::fill_first_moves`]; `exposing` says
    /// it leaves the own king in check, so only a second step completes it.
    fn play_first(&self, rules: &dyn Rules, m: Move, exposing: bool) -> State {
        if exposing {
            self.play_exposing_step(rules, m)
        } else {
            self.play_move(rules, m)
        }
    }

    /// Calls `visit` with every legal whole turn and the state after it.
    pub fn visit_turns(&self, rules: &dyn Rules, visit: &mut dyn FnMut(&Turn, &State)) {
        let mut firsts = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut firsts);
        for (i, &m1) in firsts.iter().enumerate() {
            let after = self.play_first(rules, m1, i >= allowed);
            if after.phase() != Phase::SecondMove {
                visit(&Turn::one(m1), &after);
                continue;
            }
            let mut seconds = MoveList::new();
            let stopped = after.second_options(rules, &mut seconds);
            if let Some(stopped) = stopped {
                visit(&Turn::one(m1), &stopped);
            }
            for &m2 in &seconds {
                visit(&Turn::two(m1, m2), &after.play_move(rules, m2));
            }
        }
    }

    /// The first legal whole turn in the order of [`State::visit_turns`],
    /// found without enumerating the others.
    pub fn first_turn(&self, rules: &dyn Rules) -> Option<Turn> {
        let mut firsts = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut firsts);
        firsts.iter().enumerate().find_map(|(i, &m1)| {
            let after = self.play_first(rules, m1, i >= allowed);
            if after.phase() != Phase::SecondMove {
                return Some(Turn::one(m1));
            }
            let mut seconds = MoveList::new();
            if after.second_options(rules, &mut seconds).is_some() {
                return Some(Turn::one(m1));
            }
            seconds.first().map(|&m2| Turn::two(m1, m2))
        })
    }

    /// Every legal whole turn.
    pub fn legal_turns(&self, rules: &dyn Rules) -> Vec<Turn> {
        let mut turns = Vec::new();
        self.visit_turns(rules, &mut |turn, _| turns.push(turn.clone()));
        turns
    }

    /// The number of legal whole turns, without building them.
    pub fn count_turns(&self, rules: &dyn Rules) -> u64 {
        let mut firsts = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut firsts);
        if self.phase().is_single() || rules.moves_per_turn() == MovesPerTurn::One {
            return firsts.len() as u64;
        }
        firsts
            .iter()
            .enumerate()
            .map(|(i, &m1)| {
                let after = self.play_first(rules, m1, i >= allowed);
                if after.phase() != Phase::SecondMove {
                    return 1;
                }
                let mut seconds = MoveList::new();
                let stopped = after.second_options(rules, &mut seconds);
                seconds.len() as u64 + u64::from(stopped.is_some())
            })
            .sum()
    }

    /// Whether the side to move can complete at least one legal turn.
    pub fn has_legal_turn(&self, rules: &dyn Rules) -> bool {
        let mut firsts = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut firsts);
        if self.phase().is_single() || rules.moves_per_turn() == MovesPerTurn::One {
            return !firsts.is_empty();
        }
        firsts.iter().enumerate().any(|(i, &m1)| {
            let after = self.play_first(rules, m1, i >= allowed);
            if after.phase() != Phase::SecondMove {
                return true;
            }
            let mut seconds = MoveList::new();
            let stopped = after.second_options(rules, &mut seconds);
            stopped.is_some() || !seconds.is_empty()
        })
    }

    /// The legal first moves, each with what it does to the turn. A first
    /// move that cannot be completed into a whole turn is left out.
    pub fn legal_first_moves(&self, rules: &dyn Rules) -> Vec<FirstMove> {
        let mut firsts = Vec::new();
        let mut candidates = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut candidates);
        for (i, &m) in candidates.iter().enumerate() {
            let after = self.play_first(rules, m, i >= allowed);
            let kind = if after.phase() != Phase::SecondMove {
                FirstMoveKind::EndsTurn
            } else {
                let mut seconds = MoveList::new();
                let stopped = after.second_options(rules, &mut seconds);
                match (seconds.is_empty(), stopped.is_some()) {
                    (true, true) => FirstMoveKind::EndsTurn,
                    (true, false) => continue,
                    (false, true) => FirstMoveKind::MayEndTurn,
                    (false, false) => FirstMoveKind::NeedsSecond,
                }
            };
            firsts.push(FirstMove { m, kind });
        }
        firsts
    }

    /// Counts the sequences of legal whole turns of the given depth.
    pub fn perft(&self, rules: &dyn Rules, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.count_turns(rules),
            _ => {
                let mut total = 0;
                self.visit_turns(rules, &mut |_, after| {
                    if after.end().is_none() {
                        total += after.perft(rules, depth - 1);
                    }
                });
                total
            }
        }
    }

    /// The move in canonical SAN, disambiguated among the moves allowed
    /// now, with `+` when it checks in a check-based variant.
    pub fn san(&self, rules: &dyn Rules, m: Move) -> String {
        let candidates = self.next_moves(rules);
        let mut text = San::disambiguate(m, &candidates).to_string();
        let mut after = self.pos().clone();
        after.play_unchecked(m);
        // `+` marks a move that gives check, not a check that merely goes on
        // (extramove allows a quiet second move after a checking first).
        let opponent = after.turn();
        let new_check = after.is_checked(opponent)
            && (!self.pos().is_checked(opponent)
                || after.checkers_of(opponent) != self.pos().checkers_of(opponent));
        if new_check {
            text.push('+');
        }
        text
    }

    /// A whole legal turn in canonical notation, as a record writes it: SAN
    /// per move joined by commas (`Nf3,Bb5+`), or a doublestep in long form
    /// (`Nb1-c3-e4`, `Ne4-f6xe8`).
    pub fn turn_text(&self, rules: &dyn Rules, turn: &Turn) -> String {
        if let (MovesPerTurn::OneOrDoublestep, &[m1, m2]) = (rules.moves_per_turn(), turn.moves()) {
            let end = self.play_move(rules, m1).play_move(rules, m2);
            return doublestep_text(m1, m2, &end);
        }
        let mut current = self.clone();
        let sans: Vec<String> = turn
            .moves()
            .iter()
            .map(|&m| {
                let san = current.san(rules, m);
                current = current.play_move(rules, m);
                san
            })
            .collect();
        sans.join(",")
    }

    /// Judges a turn as written and, when it is legal, returns it with the
    /// state after each of its moves (the last one is the state after the
    /// whole turn).
    pub fn judge(&self, rules: &dyn Rules, written: &[MoveText]) -> Result<JudgedTurn, TurnError> {
        let whole = |reason| TurnError {
            index: None,
            written: joined(written),
            reason,
        };
        if written.is_empty() {
            return Err(whole(Illegal::EmptyTurn));
        }
        if rules.moves_per_turn() == MovesPerTurn::OneOrDoublestep {
            return self.judge_doublestep(rules, written);
        }
        if written.len() > 2 {
            return Err(whole(Illegal::TooManyMoves));
        }
        let numbered = written.len() > 1;
        let at = |index: usize, reason| TurnError {
            index: numbered.then_some(index),
            written: written[index].text.clone(),
            reason,
        };

        let m1 = self
            .resolve_move(rules, &written[0].spec)
            .map_err(|reason| at(0, reason))?;
        let san1 = self.san(rules, m1);
        let after = self.play_move(rules, m1);
        if after.phase() != Phase::SecondMove {
            if written.len() > 1 {
                let why = self.why_turn_ended(rules, m1, &san1, &after);
                return Err(at(1, Illegal::TurnAlreadyOver(why)));
            }
            return Ok(JudgedTurn {
                turn: Turn::one(m1),
                sans: vec![san1],
                states: vec![after],
                notes: Vec::new(),
            });
        }
        let mut seconds = MoveList::new();
        let stopped = after.second_options(rules, &mut seconds);
        if written.len() == 1 {
            return match stopped {
                Some(stopped) => Ok(JudgedTurn {
                    turn: Turn::one(m1),
                    sans: vec![san1],
                    states: vec![stopped],
                    notes: Vec::new(),
                }),
                None if seconds.is_empty() => Err(at(0, Illegal::NoSecondMovePossible)),
                None => Err(at(
                    0,
                    Illegal::SecondMoveRequired(second_move_why(rules.variant())),
                )),
            };
        }
        let m2 = after
            .resolve_move(rules, &written[1].spec)
            .map_err(|reason| at(1, reason))?;
        let san2 = after.san(rules, m2);
        let end = after.play_move(rules, m2);
        Ok(JudgedTurn {
            turn: Turn::two(m1, m2),
            sans: vec![san1, san2],
            states: vec![after, end],
            notes: Vec::new(),
        })
    }

    /// Judges a turn of a doublestep variant: one written move, which may be
    /// a doublestep in long form, judged step by step.
    fn judge_doublestep(
        &self,
        rules: &dyn Rules,
        written: &[MoveText],
    ) -> Result<JudgedTurn, TurnError> {
        let [written] = written else {
            return Err(TurnError {
                index: None,
                written: joined(written),
                reason: Illegal::OneMovePerTurn,
            });
        };
        let error = |reason| TurnError {
            index: None,
            written: written.text.clone(),
            reason,
        };
        let (first, second) = self.doublestep_steps(&written.spec);
        let Some(second) = second else {
            let m = self.resolve_move(rules, &first).map_err(error)?;
            let san = self.san(rules, m);
            let notes = self.passed_square_note(rules, written, m, &san);
            let mut after = self.play_move(rules, m);
            if after.phase() == Phase::SecondMove {
                after = after.stop(rules);
            }
            return Ok(JudgedTurn {
                turn: Turn::one(m),
                sans: vec![san],
                states: vec![after],
                notes: notes.into_iter().collect(),
            });
        };
        let (m1, exposing) = self
            .resolve_first_step(rules, &first)
            .map_err(|reason| error(self.first_step_error(reason, &first)))?;
        let after = self.play_first(rules, m1, exposing);
        if after.phase() != Phase::SecondMove {
            let why = rules.why_turn_over(m1).unwrap_or("the move is over");
            return Err(error(Illegal::NoSecondStep(why)));
        }
        // The doublestep is one move: the king's safety is the whole move's.
        let m2 = after.resolve_move(rules, &second).map_err(|reason| {
            error(match reason {
                Illegal::LeavesKingInCheck | Illegal::DoesNotEscapeCheck if self.in_check() => {
                    Illegal::DoesNotEscapeCheck
                }
                Illegal::LeavesKingInCheck | Illegal::DoesNotEscapeCheck => {
                    Illegal::LeavesKingInCheck
                }
                reason => Illegal::SecondStep(Box::new(reason)),
            })
        })?;
        let end = after.play_move(rules, m2);
        Ok(JudgedTurn {
            turn: Turn::two(m1, m2),
            sans: vec![doublestep_text(m1, m2, &end)],
            states: vec![after, end],
            notes: Vec::new(),
        })
    }

    /// Finds the first step of a written doublestep among the moves that
    /// may start the turn, those that leave the own king in check included
    /// (then `true`); says why there is none as [`State::resolve_move`] does.
    fn resolve_first_step(
        &self,
        rules: &dyn Rules,
        spec: &MoveSpec,
    ) -> Result<(Move, bool), Illegal> {
        let mut firsts = MoveList::new();
        let allowed = self.fill_first_moves(rules, &mut firsts);
        match notation::resolve(spec, &firsts) {
            Resolution::Unique(m) => {
                let index = firsts.iter().position(|&first| first == m);
                Ok((m, index.is_some_and(|i| i >= allowed)))
            }
            _ => self.resolve_move(rules, spec).map(|m| (m, false)),
        }
    }

    /// Says which move a text without a capture sign was onto the square
    /// an enemy doublestepper passed, where the plain move and the en
    /// passant capture are different moves: `Kb5-c4` is the plain move
    /// when one exists, else the capture.
    fn passed_square_note(
        &self,
        rules: &dyn Rules,
        written: &MoveText,
        m: Move,
        san: &str,
    ) -> Option<String> {
        let passed = self.pos().doublestep()?;
        if m.to() != passed.passed || written_capture(&written.spec) {
            return None;
        }
        let text = &written.text;
        if passed.is_taken_by(m) {
            return Some(format!("{text} was played as the en passant capture {san}"));
        }
        let capture = self
            .next_moves(rules)
            .into_iter()
            .find(|&other| passed.is_taken_by(other) && other.from() == m.from())?;
        Some(format!(
            "{text} was played as the plain move {san}; the en passant capture is written {}",
            self.san(rules, capture)
        ))
    }

    /// Splits a written move into its steps: a doublestep `a-b-c` into
    /// `a-b` and `b-c`, anything else into itself alone. A pawn stepping
    /// twice from its starting square is its two-square advance `a-c`.
    fn doublestep_steps(&self, spec: &MoveSpec) -> (MoveSpec, Option<MoveSpec>) {
        let MoveSpec::Coordinates {
            role,
            squares,
            captures,
            promotion,
        } = spec
        else {
            return (spec.clone(), None);
        };
        let &[from, via, to] = squares.as_slice() else {
            return (spec.clone(), None);
        };
        let captured = |step: usize| captures.get(step).copied().unwrap_or(false);
        let step = |squares: Vec<Square>, captures: bool, promotion| MoveSpec::Coordinates {
            role: *role,
            squares,
            captures: vec![captures],
            promotion,
        };
        let us = self.turn();
        let forward = us.fold_wb(8, -8);
        let pawn_advance = self.pos().board().piece_at(from) == Some(us.pawn())
            && from.rank() == us.fold_wb(Rank::Second, Rank::Seventh)
            && from.offset(forward) == Some(via)
            && via.offset(forward) == Some(to);
        if pawn_advance {
            return (step(vec![from, to], false, *promotion), None);
        }
        (
            step(vec![from, via], captured(0), None),
            Some(step(vec![via, to], captured(1), *promotion)),
        )
    }

    /// Why the first step of a written doublestep is not allowed: a king
    /// that would be in check on it may not pass it.
    fn first_step_error(&self, reason: Illegal, first: &MoveSpec) -> Illegal {
        let king_passes = match (&reason, first) {
            (
                Illegal::LeavesKingInCheck | Illegal::DoesNotEscapeCheck,
                MoveSpec::Coordinates { squares, .. },
            ) => match squares.as_slice() {
                &[from, via] if self.pos().board().role_at(from) == Some(Role::King) => Some(via),
                _ => None,
            },
            _ => None,
        };
        match king_passes {
            Some(square) => Illegal::KingPassesCheck { square },
            None => Illegal::FirstStep(Box::new(reason)),
        }
    }

    /// Why no second move may follow `m1` (it ended the turn).
    fn why_turn_ended(&self, rules: &dyn Rules, m1: Move, san1: &str, after: &State) -> String {
        if after.end().is_some() {
            return format!("{san1} captures the king and ends the game");
        }
        match self.phase() {
            Phase::OpeningMove => return "White's first turn is a single move".into(),
            Phase::Response => return "a response turn is a single move".into(),
            _ => {}
        }
        if let Some(why) = rules.why_turn_over(m1) {
            return why.into();
        }
        if rules.moves_per_turn() == MovesPerTurn::One {
            return "a turn is one move".into();
        }
        let mut after_pos = self.pos().clone();
        after_pos.play_unchecked(m1);
        if after_pos.is_checked(after_pos.turn()) {
            return format!("{san1} gives check, which ends the turn");
        }
        let what = if m1.is_capture() {
            "captures"
        } else if m1.is_promotion() {
            "promotes"
        } else {
            "gives the opponent a legal en passant capture"
        };
        format!(
            "{san1} {what}, which ends the turn in {}",
            rules.variant().display_name()
        )
    }

    /// Finds the allowed move a written move means, or says why there is none.
    fn resolve_move(&self, rules: &dyn Rules, spec: &MoveSpec) -> Result<Move, Illegal> {
        let allowed = self.next_moves(rules);
        match notation::resolve(spec, &allowed) {
            Resolution::Unique(m) => return Ok(m),
            Resolution::Ambiguous(options) => {
                return Err(Illegal::Ambiguous(
                    options.iter().map(|&m| self.san(rules, m)).collect(),
                ));
            }
            Resolution::NoMatch => {}
        }
        if let Some(taken) = self.pos().doublestep().filter(|taken| {
            taken.held == Some(Role::King) && self.pos().king(self.turn()).is_none()
        }) {
            return Err(Illegal::KingHeld {
                passed: taken.passed,
            });
        }
        let mut board_only = self.pos().clone();
        board_only.set_double_steps(true);
        let pseudo = board_only.pseudo_legal_moves();
        let m = match notation::resolve(spec, &pseudo) {
            Resolution::Unique(m) => m,
            Resolution::Ambiguous(options) => options[0],
            Resolution::NoMatch => {
                let any_piece_en_passant = rules.en_passant() == EnPassantRule::AnyDoublestepper;
                return Err(Illegal::NoSuchMove(no_such_move(
                    spec,
                    self.pos(),
                    any_piece_en_passant,
                )));
            }
        };
        if let Some(forbidden) = rules.forbids(self, m) {
            return Err(Illegal::Forbidden(forbidden));
        }
        if Pos::is_double_step(m) && !rules.double_steps_allowed(self.phase()) {
            return Err(Illegal::DoubleStepNotAllowed);
        }
        if let Move::Castle { .. } = m {
            return Err(if self.in_check() {
                Illegal::CastlingOutOfCheck
            } else {
                Illegal::CastlingThroughCheck
            });
        }
        Err(if self.in_check() {
            Illegal::DoesNotEscapeCheck
        } else {
            Illegal::LeavesKingInCheck
        })
    }
}

/// Says what is impossible about a move no piece can make at all.
/// `any_piece_en_passant`: every piece may capture en passant here.
fn no_such_move(spec: &MoveSpec, pos: &Pos, any_piece_en_passant: bool) -> String {
    match spec {
        MoveSpec::San(San::Castle(side)) => {
            let side_name = match side {
                CastlingSide::KingSide => "kingside",
                CastlingSide::QueenSide => "queenside",
            };
            if pos.castles().has(pos.turn(), *side) {
                format!("cannot castle {side_name}: there are pieces between king and rook")
            } else {
                format!("cannot castle {side_name}: the king or that rook has moved")
            }
        }
        MoveSpec::San(San::Normal {
            role,
            capture: true,
            to,
            ..
        }) if (*role == Role::Pawn || any_piece_en_passant)
            && !pos.board().occupied().contains(*to) =>
        {
            format!(
                "no {} can capture on {to}: the square is empty and en passant is not open now",
                role_name(*role)
            )
        }
        MoveSpec::San(San::Normal { role, to, .. }) => {
            format!("no {} can reach {to}", role_name(*role))
        }
        MoveSpec::Coordinates { squares, .. } if squares.len() > 2 => {
            "a piece moves twice in one move (like Nb1-c3-e4) only in Doublestep and Doubletime chess"
                .into()
        }
        MoveSpec::Coordinates { squares, .. } => match squares.first() {
            Some(&from) if !pos.us().contains(from) => format!("you have no piece on {from}"),
            Some(&from) => {
                let role = pos.board().role_at(from).map_or("piece", role_name);
                let to = squares.last().map_or(String::new(), |to| to.to_string());
                format!("the {role} on {from} cannot move to {to}")
            }
            None => notation::describe_target(spec),
        },
        MoveSpec::San(_) => format!("{} is not possible", notation::describe_target(spec)),
    }
}

/// Whether a written move carries a capture sign (`x` or `:`).
fn written_capture(spec: &MoveSpec) -> bool {
    match spec {
        MoveSpec::San(San::Normal { capture, .. }) => *capture,
        MoveSpec::Coordinates { captures, .. } => captures.iter().any(|&capture| capture),
        MoveSpec::San(_) => false,
    }
}

/// Why a first move alone is not a whole turn, per variant.
fn second_move_why(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess2 | Variant::TwoMove => {
            "it neither checks, captures, promotes nor gives the opponent a legal en passant capture, so a second move must follow"
        }
        Variant::Twinmove | Variant::TwinmoveFree => {
            "a pawn move must be followed by a piece move while one exists"
        }
        _ => "a turn is two moves here, so a second move must follow",
    }
}

/// A doublestep in long form, with `+` when it checks: `Nb1-c3-e4`,
/// `Ne4-f6xe8`, `e6-e7-e8=Q`. `end` is the state after it.
fn doublestep_text(m1: Move, m2: Move, end: &State) -> String {
    let mut text = String::new();
    if m1.role() != Role::Pawn {
        text.push(m1.role().upper_char());
    }
    if let Some(from) = m1.from() {
        text.push_str(&from.to_string());
    }
    text.push('-');
    text.push_str(&m1.to().to_string());
    text.push(if m2.is_capture() { 'x' } else { '-' });
    text.push_str(&m2.to().to_string());
    if let Some(piece) = m2.promotion() {
        text.push('=');
        text.push(piece.upper_char());
    }
    if end.in_check() {
        text.push('+');
    }
    text
}

fn joined(written: &[MoveText]) -> String {
    written
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// A legal turn, its moves in canonical notation (SAN per move; a doublestep
/// is one long-form entry, `Nb1-c3-e4`), the states after each move, and
/// what the player should know about how the text was read.
#[derive(Clone, Debug)]
pub struct JudgedTurn {
    pub turn: Turn,
    pub sans: Vec<String>,
    pub states: Vec<State>,
    /// Sentences on a reading the text did not spell out: a move written
    /// without `x` onto the square a doublestepper passed.
    pub notes: Vec<String>,
}

impl JudgedTurn {
    /// The state after the whole turn.
    pub fn after(&self) -> &State {
        self.states.last().expect("a turn has at least one move")
    }
}

/// Why a written turn is not legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    EmptyTurn,
    TooManyMoves,
    /// No piece can make the move at all; holds e.g. "no bishop can reach b4".
    NoSuchMove(String),
    /// Several allowed moves fit; holds them in SAN.
    Ambiguous(Vec<String>),
    Forbidden(Forbidden),
    DoubleStepNotAllowed,
    LeavesKingInCheck,
    DoesNotEscapeCheck,
    CastlingOutOfCheck,
    CastlingThroughCheck,
    /// A second move was written after a move that ended the turn.
    TurnAlreadyOver(String),
    /// The first move alone is not a whole turn.
    SecondMoveRequired(&'static str),
    /// No allowed second move follows this first move.
    NoSecondMovePossible,
    /// Doublestep variants: more than one move was written.
    OneMovePerTurn,
    /// Doublestep variants: the first step cannot go on into a doublestep.
    NoSecondStep(&'static str),
    /// The first step of a written doublestep is not allowed.
    FirstStep(Box<Illegal>),
    /// The second step of a written doublestep is not allowed.
    SecondStep(Box<Illegal>),
    /// A king may not doublestep through a square where it would be in check.
    KingPassesCheck {
        square: Square,
    },
    /// The king was taken by a doublestep: only en passant on `passed` can
    /// free it.
    KingHeld {
        passed: Square,
    },
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::EmptyTurn => f.write_str("the turn has no moves"),
            Illegal::TooManyMoves => f.write_str("a turn has at most two moves"),
            Illegal::NoSuchMove(what) => f.write_str(what),
            Illegal::Ambiguous(options) => {
                write!(f, "ambiguous: could be {}", options.join(" or "))
            }
            Illegal::Forbidden(forbidden) => forbidden.fmt(f),
            Illegal::DoubleStepNotAllowed => f.write_str(
                "a pawn may advance two squares only on a second move (or White's very first move)",
            ),
            Illegal::LeavesKingInCheck => f.write_str("it would leave your king in check"),
            Illegal::DoesNotEscapeCheck => {
                f.write_str("your king is in check and this move does not end the check")
            }
            Illegal::CastlingOutOfCheck => f.write_str("you may not castle while in check"),
            Illegal::CastlingThroughCheck => {
                f.write_str("the king may not castle through or into check")
            }
            Illegal::TurnAlreadyOver(why) => write!(f, "no second move is allowed: {why}"),
            Illegal::SecondMoveRequired(why) => f.write_str(why),
            Illegal::NoSecondMovePossible => {
                f.write_str("no legal second move can follow it, so it cannot start a turn")
            }
            Illegal::OneMovePerTurn => f.write_str(
                "a turn is one move; write a doublestep as one move in long form, like Nb1-c3-e4",
            ),
            Illegal::NoSecondStep(why) => write!(f, "no second step may follow: {why}"),
            Illegal::FirstStep(reason) => write!(f, "first step: {reason}"),
            Illegal::SecondStep(reason) => write!(f, "second step: {reason}"),
            Illegal::KingPassesCheck { square } => write!(
                f,
                "the king may not doublestep through {square}: it would be in check there (it could be taken there en passant)"
            ),
            Illegal::KingHeld { passed } => write!(
                f,
                "your king was taken by a doublestep: the only legal moves free it by capturing en passant on {passed}"
            ),
        }
    }
}

/// A turn that is not legal: which move (when the turn has several) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnError {
    /// Index of the offending move in a turn of several, `None` when the
    /// turn has one move or the fault is the whole turn's.
    pub index: Option<usize>,
    /// The offending move (or the whole turn) as written.
    pub written: String,
    pub reason: Illegal,
}

impl TurnError {
    /// The reason, naming the move when the turn has several: for a line
    /// that already quotes the whole turn (`2nd move Ng4: the knight on f6
    /// already moved this turn`, or just `no bishop can reach b4`).
    pub fn detail(&self) -> String {
        match self.index {
            Some(0) => format!("1st move {}: {}", self.written, self.reason),
            Some(_) => format!("2nd move {}: {}", self.written, self.reason),
            None => self.reason.to_string(),
        }
    }
}

impl fmt::Display for TurnError {
    /// The offending move and the reason: `Bb4+: no bishop can reach b4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.index {
            Some(_) => f.write_str(&self.detail()),
            None => write!(f, "{}: {}", self.written, self.reason),
        }
    }
}

impl std::error::Error for TurnError {}
