//! Compares the engine's perft (sequences of whole turns) with an
//! independent reference implementation of the turn rules, for the
//! `perft_reference*` tests. Each reference implements [`Reference`]; when
//! the counts differ, [`compare`] walks down both trees to the first
//! position whose legal turns differ and reports the turn sequence.

use std::collections::BTreeMap;
use std::time::Instant;

use pbem_rules::{Game, Rules, State, Turn, Variant};
use shakmaty::CastlingMode;

/// An independent reference implementation of the turn rules, as
/// [`compare`] uses it: a game of one variant at the start of a turn.
pub trait Reference: Sized {
    /// One move of a turn.
    type Move;

    /// Whether [`Reference::uci`] marks an en passant capture with `ep`
    /// (UCI cannot tell it from a quiet move onto the same square).
    const MARKS_EN_PASSANT: bool;

    /// A game from a FEN.
    fn from_fen(variant: &'static str, fen: &str) -> Self;

    /// Whether the game ended with the turn that led here.
    fn is_over(&self) -> bool;

    /// Every legal whole turn and the game after it.
    fn turns(&self) -> Vec<(Vec<Self::Move>, Self)>;

    /// A move in UCI (`e2e4`, `e7e8q`; castling as the king's move `e1g1`).
    fn uci(mv: &Self::Move) -> String;

    /// A game from the international starting position.
    fn new(variant: &'static str) -> Self {
        Self::from_fen(
            variant,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
    }

    /// The number of sequences of `depth` legal whole turns; a turn that
    /// ends the game counts at its own depth and has nothing below it.
    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.turns()
            .iter()
            .map(|(_, after)| match (depth, after.is_over()) {
                (1, _) => 1,
                (_, true) => 0,
                _ => after.perft(depth - 1),
            })
            .sum()
    }

    /// Every legal whole turn as its moves in UCI joined by commas
    /// (`e1g1,f1e1`), and the game after it.
    fn successors(&self) -> Vec<(String, Self)> {
        self.turns()
            .into_iter()
            .map(|(moves, after)| {
                let moves: Vec<String> = moves.iter().map(Self::uci).collect();
                (moves.join(","), after)
            })
            .collect()
    }
}

/// The engine's `turn`, played from `state`, written as the reference `R`
/// writes its turns in [`Reference::successors`]; where `R` marks en
/// passant, an en passant capture by the first move is marked `ep`.
pub fn engine_turn_text<R: Reference>(state: &State, turn: &Turn) -> String {
    let moves: Vec<String> = turn
        .moves()
        .iter()
        .enumerate()
        .map(|(i, &m)| {
            let ep = R::MARKS_EN_PASSANT && i == 0 && state.pos().is_en_passant_capture(m);
            let uci = m.to_uci(CastlingMode::Standard).to_string();
            if ep { uci + "ep" } else { uci }
        })
        .collect();
    moves.join(",")
}

/// Compares engine and reference perft of `variant` from `fen` (None: the
/// start position) and returns the count; panics with the first position
/// where they differ if they do.
pub fn compare<R: Reference>(variant: &'static str, fen: Option<&str>, depth: u32) -> u64 {
    let engine_variant: Variant = variant.parse().expect("a known variant");
    let (game, reference) = match fen {
        None => (Game::new(engine_variant), R::new(variant)),
        Some(fen) => (
            Game::from_fen(engine_variant, fen).expect("a valid FEN"),
            R::from_fen(variant, fen),
        ),
    };
    let clock = Instant::now();
    let engine = game.state().perft(game.rules(), depth);
    let engine_time = clock.elapsed();
    let clock = Instant::now();
    let expected = reference.perft(depth);
    let reference_time = clock.elapsed();
    let place = fen.unwrap_or("start");
    eprintln!(
        "{variant} {place} perft({depth}) = {expected} (reference {reference_time:.2?}, engine {engine_time:.2?})"
    );
    if engine != expected {
        let difference = locate(
            game.state(),
            game.rules(),
            &reference,
            depth,
            &mut Vec::new(),
        );
        panic!(
            "{variant} {place} perft({depth}): engine {engine}, reference {expected}\n{difference}"
        );
    }
    expected
}

/// Walks down both trees from a position whose perft differs at `depth`
/// and describes the first difference found; `path` holds the turns that
/// led here.
fn locate<R: Reference>(
    state: &State,
    rules: &dyn Rules,
    reference: &R,
    depth: u32,
    path: &mut Vec<String>,
) -> String {
    let mut engine = BTreeMap::new();
    state.visit_turns(rules, &mut |turn, after| {
        engine.insert(engine_turn_text::<R>(state, turn), after.clone());
    });
    let reference: BTreeMap<String, R> = reference.successors().into_iter().collect();
    let only_engine: Vec<&String> = engine
        .keys()
        .filter(|t| !reference.contains_key(*t))
        .collect();
    let only_reference: Vec<&String> = reference
        .keys()
        .filter(|t| !engine.contains_key(*t))
        .collect();
    let here = path.join(" ");
    if !only_engine.is_empty() || !only_reference.is_empty() {
        return format!(
            "after [{here}]: turns only the engine allows: {only_engine:?}; turns only the reference allows: {only_reference:?}"
        );
    }
    for (turn, after) in &engine {
        let expected = &reference[turn];
        let engine_over = after.end().is_some();
        if engine_over != expected.is_over() {
            return format!(
                "after [{here} {turn}]: the engine says the game is over: {engine_over}, the reference: {}",
                expected.is_over()
            );
        }
        if depth > 1 && !engine_over && after.perft(rules, depth - 1) != expected.perft(depth - 1) {
            path.push(turn.clone());
            return locate(after, rules, expected, depth - 1, path);
        }
    }
    format!("after [{here}]: no difference found")
}
