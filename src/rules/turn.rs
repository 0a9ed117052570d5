//! Whole turns: enumerating the legal ones, counting them (perft), and
//! judging a turn a player wrote, with a reason a player understands when
//! it is not legal.

use std::fmt;

use arrayvec::ArrayVec;
use shakmaty::{CastlingSide, Move, MoveList, Position, Role, san::San};

use super::notation::{self, MoveSpec, MoveText, Resolution};
use super::position::{CheckRule, Pos};
use super::state::{Phase, State};
use super::variant::{Forbidden, MovesPerTurn, NoSecondMove, Rules, Variant, role_name};

/// One player's whole turn: one or two moves.
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

    /// Calls `visit` with every legal whole turn and the state after it.
    pub fn visit_turns(&self, rules: &dyn Rules, visit: &mut dyn FnMut(&Turn, &State)) {
        let mut firsts = MoveList::new();
        self.fill_next_moves(rules, &mut firsts);
        for &m1 in &firsts {
            let after = self.play_move(rules, m1);
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

    /// Every legal whole turn.
    pub fn legal_turns(&self, rules: &dyn Rules) -> Vec<Turn> {
        let mut turns = Vec::new();
        self.visit_turns(rules, &mut |turn, _| turns.push(turn.clone()));
        turns
    }

    /// The number of legal whole turns, without building them.
    pub fn count_turns(&self, rules: &dyn Rules) -> u64 {
        let mut firsts = MoveList::new();
        self.fill_next_moves(rules, &mut firsts);
        if self.phase().is_single() || rules.moves_per_turn() == MovesPerTurn::One {
            return firsts.len() as u64;
        }
        firsts
            .iter()
            .map(|&m1| {
                let after = self.play_move(rules, m1);
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
        self.fill_next_moves(rules, &mut firsts);
        if self.phase().is_single() || rules.moves_per_turn() == MovesPerTurn::One {
            return !firsts.is_empty();
        }
        firsts.iter().any(|&m1| {
            let after = self.play_move(rules, m1);
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
        for &m in &self.next_moves(rules) {
            let after = self.play_move(rules, m);
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
        if self.pos().check_rule() == CheckRule::Fide {
            let mut after = self.pos().clone();
            after.play_unchecked(m);
            if after.is_king_attacked(after.turn()) {
                text.push('+');
            }
        }
        text
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
            .resolve_move(rules, &written[0])
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
                }),
                None if seconds.is_empty() => Err(at(0, Illegal::NoSecondMovePossible)),
                None => Err(at(
                    0,
                    Illegal::SecondMoveRequired(second_move_why(rules.variant())),
                )),
            };
        }
        let m2 = after
            .resolve_move(rules, &written[1])
            .map_err(|reason| at(1, reason))?;
        let san2 = after.san(rules, m2);
        let end = after.play_move(rules, m2);
        Ok(JudgedTurn {
            turn: Turn::two(m1, m2),
            sans: vec![san1, san2],
            states: vec![after, end],
        })
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
        if rules.moves_per_turn() == MovesPerTurn::One {
            return "a turn is one move".into();
        }
        let mut after_pos = self.pos().clone();
        after_pos.play_unchecked(m1);
        if after_pos.is_king_attacked(after_pos.turn()) {
            return format!("{san1} gives check, which ends the turn");
        }
        let what = if m1.is_capture() {
            "captures"
        } else if m1.is_promotion() {
            "promotes"
        } else {
            "gives an en passant chance"
        };
        format!(
            "{san1} {what}, which ends the turn in {}",
            rules.variant().display_name()
        )
    }

    /// Finds the allowed move a written move means, or says why there is none.
    fn resolve_move(&self, rules: &dyn Rules, written: &MoveText) -> Result<Move, Illegal> {
        let allowed = self.next_moves(rules);
        match notation::resolve(&written.spec, &allowed) {
            Resolution::Unique(m) => return Ok(m),
            Resolution::Ambiguous(options) => {
                return Err(Illegal::Ambiguous(
                    options.iter().map(|&m| self.san(rules, m)).collect(),
                ));
            }
            Resolution::NoMatch => {}
        }
        let mut board_only = self.pos().clone();
        board_only.set_double_steps(true);
        let pseudo = board_only.pseudo_legal_moves();
        let m = match notation::resolve(&written.spec, &pseudo) {
            Resolution::Unique(m) => m,
            Resolution::Ambiguous(options) => options[0],
            Resolution::NoMatch => {
                return Err(Illegal::NoSuchMove(no_such_move(&written.spec, self.pos())));
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
fn no_such_move(spec: &MoveSpec, pos: &Pos) -> String {
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
        }) if *role == Role::Pawn && !pos.board().occupied().contains(*to) => {
            format!(
                "no pawn can capture on {to}: the square is empty and en passant is not open now"
            )
        }
        MoveSpec::San(San::Normal { role, to, .. }) => {
            format!("no {} can reach {to}", role_name(*role))
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

/// Why a first move alone is not a whole turn, per variant.
fn second_move_why(variant: Variant) -> &'static str {
    match variant {
        Variant::Chess2 | Variant::TwoMove => {
            "it neither checks, captures, promotes nor gives an en passant chance, so a second move must follow"
        }
        _ => "a turn is two moves here, so a second move must follow",
    }
}

fn joined(written: &[MoveText]) -> String {
    written
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

/// A legal turn, its moves in canonical SAN, and the states after each move.
#[derive(Clone, Debug)]
pub struct JudgedTurn {
    pub turn: Turn,
    pub sans: Vec<String>,
    pub states: Vec<State>,
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
