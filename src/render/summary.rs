//! The legal-move summary sent with every board (pbmserv had none): what
//! kind of turn is due, how many whole turns are legal, every legal first
//! move grouped by piece, which of them end the turn, and a turn the player
//! could send back. In the doublestep variants, where a turn is one move,
//! every legal move is listed, doublesteps in long form.

use shakmaty::{Color, Role};

use crate::rules::variant::{MovesPerTurn, Rules, role_name};
use crate::rules::{FirstMoveKind, Game, Phase, State};

/// The order in which pieces are listed.
const ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// What kind of turn the player to move owes, in words.
pub fn turn_due(state: &State, game: &Game) -> String {
    let rules = game.rules();
    match state.phase() {
        Phase::OpeningMove => "White's first turn: a single move".to_string(),
        Phase::Response => "a response turn: a single move".to_string(),
        Phase::SecondMove => "the second move of the turn".to_string(),
        Phase::TurnStart => rules.turn_description().to_string(),
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The summary as plain text.
pub fn legal_summary(game: &Game) -> String {
    let state = game.state();
    let rules = game.rules();
    let mut out = String::new();
    if let Some(end) = game.end() {
        out.push_str(&format!(
            "The game is over: {} {}.\n",
            end.score(),
            end.reason.describe()
        ));
        return out;
    }
    out.push_str(&format!(
        "{} to move: {}.\n",
        color_name(state.turn()),
        turn_due(state, game)
    ));
    if state.in_check() {
        out.push_str("The king is in check.\n");
    }
    if let Some(taken) = state
        .pos()
        .doublestep()
        .filter(|taken| taken.held == Some(Role::King))
    {
        out.push_str(&format!(
            "The king was taken by the doublestep to {}: only en passant on {} can free it.\n",
            taken.landed, taken.passed
        ));
    }
    out.push_str(&format!("Legal turns: {}\n", state.count_turns(rules)));

    if rules.moves_per_turn() == MovesPerTurn::OneOrDoublestep {
        out.push_str(&every_move(state, rules));
    } else {
        out.push_str(&first_moves(state, game));
    }
    if let Some(example) = example_turn(game) {
        out.push_str(&format!("Example turn: {example}\n"));
    }
    out
}

/// Every legal first move grouped by piece, and which of them end the turn.
fn first_moves(state: &State, game: &Game) -> String {
    let rules = game.rules();
    let mut out = String::new();
    let firsts = state.legal_first_moves(rules);
    out.push_str(&format!("Legal first moves: {}\n", firsts.len()));
    let mut ends = Vec::new();
    let mut may_end = Vec::new();
    for role in ROLES {
        let sans: Vec<String> = firsts
            .iter()
            .filter(|first| first.m.role() == role)
            .map(|first| {
                let san = state.san(rules, first.m);
                match first.kind {
                    FirstMoveKind::EndsTurn
                        if !state.phase().is_single() && rules_allow_two(game) =>
                    {
                        ends.push(san.clone())
                    }
                    FirstMoveKind::MayEndTurn => may_end.push(san.clone()),
                    _ => {}
                }
                san
            })
            .collect();
        push_group(&mut out, role, &sans);
    }
    if !ends.is_empty() {
        out.push_str(&format!(
            "These end the turn by themselves: {}\n",
            ends.join(" ")
        ));
    }
    if !may_end.is_empty() {
        out.push_str(&format!(
            "After these you may stop or play a second move: {}\n",
            may_end.join(" ")
        ));
    }
    out
}

/// Every legal move grouped by piece, doublesteps in long form.
fn every_move(state: &State, rules: &dyn Rules) -> String {
    let mut moves: Vec<(Role, String)> = Vec::new();
    state.visit_turns(rules, &mut |turn, _| {
        if let Some(first) = turn.moves().first() {
            moves.push((first.role(), state.turn_text(rules, turn)));
        }
    });
    let mut out = String::new();
    for role in ROLES {
        let texts: Vec<String> = moves
            .iter()
            .filter(|(moved, _)| *moved == role)
            .map(|(_, text)| text.clone())
            .collect();
        push_group(&mut out, role, &texts);
    }
    out
}

/// One line of moves of a kind of piece, if there are any.
fn push_group(out: &mut String, role: Role, moves: &[String]) {
    if !moves.is_empty() {
        let label = format!("{}:", capitalise(role_name(role)));
        out.push_str(&format!("  {label:<8}{}\n", moves.join(" ")));
    }
}

fn rules_allow_two(game: &Game) -> bool {
    game.rules().moves_per_turn() == MovesPerTurn::UpToTwo
}

/// A legal turn in canonical notation: the first one found.
pub fn example_turn(game: &Game) -> Option<String> {
    let state = game.state();
    let rules = game.rules();
    state
        .first_turn(rules)
        .map(|turn| state.turn_text(rules, &turn))
}

fn capitalise(word: &str) -> String {
    let mut chars = word.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().chain(chars).collect()
    })
}
