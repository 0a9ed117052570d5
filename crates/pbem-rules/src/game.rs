//! A game from its start: the turns played, the repetition history, and how
//! it ended.

use std::collections::HashMap;

use shakmaty::fen::Fen;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Bitboard, Color, EnPassantMode, Move, Position, Setup};

use super::notation::MoveText;
use super::position::{Doublestep, Pos, SetupError};
use super::state::{EndReason, GameEnd, Phase, State};
use super::turn::{JudgedTurn, Turn, TurnError};
use super::variant::{Rules, Variant};

/// The Chess960 array number of the usual starting position.
pub const CHESS960_STANDARD: u32 = 518;

/// The number of Chess960 starting arrays (numbered 0 to 959).
pub const CHESS960_ARRAYS: u32 = 960;

/// Whole turns without a capture or pawn move after which a player may
/// claim a draw (50 moves by each player).
pub const CLAIMABLE_QUIET_TURNS: u32 = 100;
/// ... and after which the game is drawn automatically (75 by each).
pub const AUTOMATIC_QUIET_TURNS: u32 = 150;

/// What identifies a position for the repetition rules: the board, side to
/// move, castling rights, usable en passant captures (with what they would
/// take and free, in the doublestep variants), the phase of the turn, and
/// (mid-turn) which pieces already moved, since all of these decide which
/// moves are possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PositionKey {
    zobrist: u64,
    en_passant: Bitboard,
    doublestep: Option<Doublestep>,
    phase: Phase,
    /// Mid-turn, where the variant forbids second moves by what the first
    /// did: the squares of the pieces that moved, and the first move.
    turn_so_far: Option<(Bitboard, Option<Move>)>,
}

impl PositionKey {
    pub fn of(state: &State, rules: &dyn Rules) -> PositionKey {
        let mut pos = state.pos().clone();
        pos.set_ep_targets(Bitboard::EMPTY);
        let zobrist: Zobrist64 = pos.zobrist_hash(EnPassantMode::Always);
        let en_passant = if state.pos().ep_targets().any() || state.pos().doublestep().is_some() {
            state
                .next_moves(rules)
                .iter()
                .filter(|&&m| state.pos().is_en_passant_capture(m))
                .fold(Bitboard::EMPTY, |acc, m| acc | Bitboard::from(m.to()))
        } else {
            Bitboard::EMPTY
        };
        PositionKey {
            zobrist: zobrist.0,
            en_passant,
            doublestep: state.pos().doublestep().filter(|_| en_passant.any()),
            phase: state.phase(),
            turn_so_far: rules
                .has_move_restrictions(state)
                .then(|| (state.moved_this_turn(), state.first_move())),
        }
    }
}

/// One turn of the game as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedTurn {
    pub mover: Color,
    /// The turn pair number, as in `12.` of a record.
    pub number: u32,
    pub turn: Turn,
    /// Each move in canonical SAN (`#` on a mating last move); a doublestep
    /// is one entry in long form (`Nb1-c3-e4`).
    pub sans: Vec<String>,
    /// How the written text was read where it did not say (see
    /// [`JudgedTurn::notes`]), for the answer to the player.
    pub notes: Vec<String>,
}

impl PlayedTurn {
    /// The turn in canonical notation, moves joined by a comma.
    pub fn text(&self) -> String {
        self.sans.join(",")
    }

    /// `12.Nf3,Bb5+` or `12...Nd7,Nf6`.
    pub fn numbered(&self) -> String {
        let dots = if self.mover == Color::White {
            "."
        } else {
            "..."
        };
        format!("{}{dots}{}", self.number, self.text())
    }
}

/// Draws a player may claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawClaim {
    ThreefoldRepetition,
    FiftyTurnRule,
}

/// A game of one variant, from its first position to now.
#[derive(Clone, Debug)]
pub struct Game {
    variant: Variant,
    initial: State,
    played: Vec<PlayedTurn>,
    state: State,
    seen: HashMap<PositionKey, u32>,
    /// The highest repetition count among the positions of the last turn.
    peak_repetitions: u32,
    end: Option<GameEnd>,
}

impl Game {
    /// A new game from the international starting position (for Chess960,
    /// its array number 518, which is the same).
    pub fn new(variant: Variant) -> Game {
        let rules = variant.rules();
        let pos = if variant == Variant::Chess960 {
            Pos::chess960(CHESS960_STANDARD, rules.check_rule()).expect("518 is a Chess960 array")
        } else {
            Pos::new(rules.check_rule())
        };
        Game::start(variant, State::new(rules, pos, rules.opening_phase()))
    }

    /// A Chess960 game from the array numbered `number` (0 to 959), or
    /// `None` past 959.
    pub fn chess960(number: u32) -> Option<Game> {
        let rules = Variant::Chess960.rules();
        let pos = Pos::chess960(number, rules.check_rule())?;
        Some(Game::start(
            Variant::Chess960,
            State::new(rules, pos, rules.opening_phase()),
        ))
    }

    /// A game from a FEN. The variant's special first turn (a lone first
    /// move for White) applies when the FEN has White to move on move 1.
    pub fn from_fen(variant: Variant, fen: &str) -> Result<Game, SetupError> {
        let setup: Setup = Fen::from_ascii(fen.trim().as_bytes())
            .map_err(|e| SetupError(format!("invalid FEN \"{}\": {e}", fen.trim())))?
            .into_setup();
        let rules = variant.rules();
        let pos = Pos::from_setup_in(&setup, rules.check_rule(), rules.castling_mode())?;
        let phase = if setup.turn == Color::White && setup.fullmoves.get() == 1 {
            rules.opening_phase()
        } else {
            Phase::TurnStart
        };
        Ok(Game::start(variant, State::new(rules, pos, phase)))
    }

    /// This game's position as the start of another: the turns played so
    /// far become what came before it (a thematic opening), no longer turns
    /// of the game, so that its first turn is the next one and none of them
    /// can be taken back; the positions they passed through still count for
    /// repetition, and the move numbers go on from them.
    pub fn started_here(mut self) -> Game {
        self.initial = self.state.clone();
        self.played.clear();
        self
    }

    fn start(variant: Variant, initial: State) -> Game {
        let mut game = Game {
            variant,
            state: initial.clone(),
            initial,
            played: Vec::new(),
            seen: HashMap::new(),
            peak_repetitions: 0,
            end: None,
        };
        game.record_position(&game.state.clone());
        game.settle();
        game
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    pub fn rules(&self) -> &'static dyn Rules {
        self.variant.rules()
    }

    /// The state now (the start of the next turn).
    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn initial(&self) -> &State {
        &self.initial
    }

    pub fn turns(&self) -> &[PlayedTurn] {
        &self.played
    }

    pub fn end(&self) -> Option<GameEnd> {
        self.end
    }

    /// Judges a written turn and, if legal, plays it.
    pub fn play(&mut self, written: &[MoveText]) -> Result<&PlayedTurn, PlayError> {
        if let Some(end) = self.end {
            return Err(PlayError::GameOver(end));
        }
        let judged = self
            .state
            .judge(self.rules(), written)
            .map_err(PlayError::Illegal)?;
        Ok(self.commit(judged))
    }

    fn commit(&mut self, judged: JudgedTurn) -> &PlayedTurn {
        let mover = self.state.turn();
        let number = self.state.turn_number();
        self.peak_repetitions = 0;
        for state in &judged.states {
            let count = self.record_position(state);
            self.peak_repetitions = self.peak_repetitions.max(count);
        }
        self.state = judged.after().clone();
        let mut sans = judged.sans;
        self.settle();
        if self
            .end
            .is_some_and(|end| end.reason == EndReason::Checkmate)
        {
            mark_mate(&mut sans);
        }
        self.played.push(PlayedTurn {
            mover,
            number,
            turn: judged.turn,
            sans,
            notes: judged.notes,
        });
        self.played.last().expect("just pushed")
    }

    /// Counts a position reached; returns how often it has occurred.
    fn record_position(&mut self, state: &State) -> u32 {
        let count = self
            .seen
            .entry(PositionKey::of(state, self.rules()))
            .or_insert(0);
        *count += 1;
        *count
    }

    /// Decides whether the game ended with the last turn.
    fn settle(&mut self) {
        let rules = self.rules();
        let state = &self.state;
        self.end = if let Some(end) = state.end() {
            Some(end)
        } else if !state.has_legal_turn(rules) {
            Some(if state.in_check() {
                GameEnd {
                    winner: Some(!state.turn()),
                    reason: EndReason::Checkmate,
                }
            } else {
                GameEnd {
                    winner: None,
                    reason: EndReason::Stalemate,
                }
            })
        } else if self.peak_repetitions() >= 5 {
            Some(GameEnd {
                winner: None,
                reason: EndReason::FivefoldRepetition,
            })
        } else if state.quiet_turns() >= AUTOMATIC_QUIET_TURNS {
            Some(GameEnd {
                winner: None,
                reason: EndReason::SeventyFiveTurnRule,
            })
        } else if rules.dead_by_material(state.pos()) {
            Some(GameEnd {
                winner: None,
                reason: EndReason::InsufficientMaterial,
            })
        } else {
            None
        };
    }

    /// How often the current position has occurred.
    ///
    /// Positions half-way through a turn count too: see
    /// [`Game::peak_repetitions`].
    pub fn repetitions(&self) -> u32 {
        self.seen
            .get(&PositionKey::of(&self.state, self.rules()))
            .copied()
            .unwrap_or(0)
    }

    /// The most often any position reached during the last turn (half-way
    /// positions included) has occurred: what the repetition rules judge.
    pub fn peak_repetitions(&self) -> u32 {
        self.peak_repetitions.max(self.repetitions())
    }

    /// A draw the player to move may claim now, if any.
    pub fn draw_claim(&self) -> Option<DrawClaim> {
        if self.end.is_some() {
            None
        } else if self.peak_repetitions() >= 3 {
            Some(DrawClaim::ThreefoldRepetition)
        } else if self.state.quiet_turns() >= CLAIMABLE_QUIET_TURNS {
            Some(DrawClaim::FiftyTurnRule)
        } else {
            None
        }
    }

    /// The game record: `1.e4 c5,d6 2.Nf3,Bb5+ Nd7,Nf6`.
    pub fn record(&self) -> String {
        let mut out = String::new();
        for (i, turn) in self.played.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            if turn.mover == Color::White || i == 0 {
                out.push_str(&turn.numbered());
            } else {
                out.push_str(&turn.text());
            }
        }
        out
    }

    /// The FEN of the position the game started from (X-FEN castling).
    pub fn initial_fen(&self) -> String {
        Fen::from_position(self.initial.pos(), EnPassantMode::Legal).to_string()
    }

    /// The FEN of the current position (the phase of the turn is not part
    /// of FEN; see [`State::phase`]).
    pub fn fen(&self) -> String {
        Fen::from_position(self.state.pos(), EnPassantMode::Legal).to_string()
    }
}

/// Marks checkmate on the move that gave the mating check (the last move
/// with `+`), or on the last move when no move carries a check sign.
fn mark_mate(sans: &mut [String]) {
    let index = sans
        .iter()
        .rposition(|san| san.ends_with('+'))
        .unwrap_or(sans.len().saturating_sub(1));
    if let Some(san) = sans.get_mut(index) {
        *san = format!("{}#", san.trim_end_matches('+'));
    }
}

/// Why a turn could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    GameOver(GameEnd),
    Illegal(TurnError),
}

impl std::fmt::Display for PlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PlayError::GameOver(end) => {
                write!(
                    f,
                    "the game is over ({} {})",
                    end.score(),
                    end.reason.describe()
                )
            }
            PlayError::Illegal(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for PlayError {}
