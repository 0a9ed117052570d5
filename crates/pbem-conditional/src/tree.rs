//! One player's conditional lines on one board, as a tree: lines that begin
//! alike share their beginning, each opponent's turn has one answer, and
//! when the opponent plays, the tree answers and keeps what follows.

use pbem_rules::Game;
use pbem_rules::game::PositionKey;
use pbem_rules::notation::parse_turn;
use shakmaty::Color;

use crate::line::{self, Entry, Line, LineError, Problem};

/// At most this many lines per player and board (the tree's leaves). With
/// at most [`line::MAX_TURNS_PER_LINE`] turns each, a tree holds at most
/// 32 × 20 = 640 turns.
pub const MAX_LINES: usize = 32;

/// One player's conditional lines on one board: whose they are and the
/// lines, relative to the current position (the opponent to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    owner: Color,
    branches: Vec<Branch>,
}

/// An opponent's turn, the owner's answer to it, and the lines that go on
/// from there.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Branch {
    theirs: Entry,
    mine: Entry,
    then: Vec<Branch>,
}

/// What adding a line did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// A line of its own (it may share its beginning with others).
    NewLine,
    /// It went on from the end of a line already given.
    Extended,
    /// Every turn of it was already there.
    AlreadyThere,
}

/// What the tree does when the opponent has played a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Follow {
    /// The tree has no lines.
    NoLines,
    /// Lines begin with that turn: play `answer`; the tree now holds their
    /// continuations (`lines_kept` lines, maybe none) and nothing else.
    Answer { answer: Entry, lines_kept: usize },
    /// No line begins with that turn: all `dropped` lines were dropped.
    NoLineFits { dropped: usize },
}

impl Tree {
    /// No lines yet.
    pub fn new(owner: Color) -> Tree {
        Tree {
            owner,
            branches: Vec::new(),
        }
    }

    /// The player whose lines these are.
    pub fn owner(&self) -> Color {
        self.owner
    }

    pub fn is_empty(&self) -> bool {
        self.branches.is_empty()
    }

    /// How many lines (leaves of the tree).
    pub fn line_count(&self) -> usize {
        leaves(&self.branches)
    }

    /// How many turns the tree holds, shared beginnings once.
    pub fn turn_count(&self) -> usize {
        fn turns(branches: &[Branch]) -> usize {
            branches.iter().map(|b| 2 + turns(&b.then)).sum()
        }
        turns(&self.branches)
    }

    /// Reads and checks a line from `game`'s position (the opponent to
    /// move: the current position, or the one after the owner's own turn
    /// sent earlier in the same mail) and merges it into the tree.
    ///
    /// # Errors
    ///
    /// Everything [`line::check`] refuses, a line that answers an
    /// opponent's turn differently from a line already given
    /// ([`Problem::Ambiguous`]) and one line more than [`MAX_LINES`]. A
    /// refused line changes nothing.
    pub fn add(&mut self, game: &Game, written: &str) -> Result<Added, LineError> {
        let line = line::check(game, self.owner, written)?;
        self.merge(&line)
    }

    /// Merges a checked line; all checks come before the first change.
    fn merge(&mut self, line: &Line) -> Result<Added, LineError> {
        let pairs: Vec<(&Entry, &Entry)> = line.pairs().collect();
        let mut path = Vec::with_capacity(pairs.len());
        let mut level = &self.branches;
        for &(theirs, mine) in &pairs {
            let Some(index) = level.iter().position(|b| b.theirs.turn() == theirs.turn()) else {
                break;
            };
            let branch = &level[index];
            if branch.mine.turn() != mine.turn() {
                return Err(LineError {
                    line: line::quoted(line.written()),
                    problem: Problem::Ambiguous {
                        theirs: theirs.text().to_string(),
                        kept: branch.mine.text().to_string(),
                        given: mine.text().to_string(),
                    },
                });
            }
            path.push(index);
            level = &branch.then;
        }
        if path.len() == pairs.len() {
            return Ok(Added::AlreadyThere);
        }
        // Going on from a leaf adds no line; branching off anywhere else does.
        let extends = !path.is_empty() && level.is_empty();
        if !extends && self.line_count() >= MAX_LINES {
            return Err(LineError {
                line: line::quoted(line.written()),
                problem: Problem::TooManyLines,
            });
        }
        let mut level = &mut self.branches;
        for &index in &path {
            level = &mut level[index].then;
        }
        // The new turns, innermost first.
        let mut rest = Vec::new();
        for &(theirs, mine) in pairs[path.len()..].iter().rev() {
            rest = vec![Branch {
                theirs: theirs.clone(),
                mine: mine.clone(),
                then: rest,
            }];
        }
        level.extend(rest);
        Ok(if extends {
            Added::Extended
        } else {
            Added::NewLine
        })
    }

    /// Drops every line; returns how many there were.
    pub fn clear(&mut self) -> usize {
        let dropped = self.line_count();
        self.branches.clear();
        dropped
    }

    /// Every line from the current position, each as its turns in
    /// canonical notation, the opponent's first; lines sharing a beginning
    /// are next to each other, in the order they were given.
    pub fn lines(&self) -> Vec<Vec<&str>> {
        fn walk<'t>(
            branches: &'t [Branch],
            prefix: &mut Vec<&'t str>,
            out: &mut Vec<Vec<&'t str>>,
        ) {
            for branch in branches {
                prefix.push(branch.theirs.text());
                prefix.push(branch.mine.text());
                if branch.then.is_empty() {
                    out.push(prefix.clone());
                } else {
                    walk(&branch.then, prefix, out);
                }
                prefix.truncate(prefix.len() - 2);
            }
        }
        let mut out = Vec::new();
        walk(&self.branches, &mut Vec::new(), &mut out);
        out
    }

    /// The lines as a record writes them, numbered from `game`'s position
    /// (the one they start from): `12...Nf6 13.e5 Nd5 14.c4`. For `show`
    /// to the owner, and never to anyone else.
    pub fn numbered_lines(&self, game: &Game) -> Vec<String> {
        let first_number = game.state().turn_number();
        let first_mover = game.state().turn();
        self.lines()
            .iter()
            .map(|turns| {
                let mut number = first_number;
                let mut mover = first_mover;
                let mut out = String::new();
                for (i, text) in turns.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    match mover {
                        Color::White => out.push_str(&format!("{number}.")),
                        Color::Black if i == 0 => out.push_str(&format!("{number}...")),
                        Color::Black => {}
                    }
                    out.push_str(text);
                    if mover == Color::Black {
                        number = number.saturating_add(1);
                    }
                    mover = !mover;
                }
                out
            })
            .collect()
    }

    /// The opponent played `played` (the moves of their turn, as the game
    /// recorded it): the answer of the lines that begin with it, keeping
    /// their continuations, or, when none does, every line dropped.
    ///
    /// Turns match by their moves (squares and promotion, in their order
    /// within the turn), not by how they were written.
    pub fn follow(&mut self, played: &pbem_rules::Turn) -> Follow {
        let index = self
            .branches
            .iter()
            .position(|branch| branch.theirs.turn() == played);
        self.take(index)
    }

    /// The opponent's last turn of `after`, played from `before`: as
    /// [`Tree::follow`], and when no line begins with the very moves, a
    /// line whose turn reaches the same position from `before` (its moves
    /// in another order within the turn, as a double-move variant allows)
    /// fits too. Positions are compared as the repetition rule compares
    /// them: board, side to move, phase, castling and en passant rights.
    pub fn follow_position(&mut self, before: &Game, after: &Game) -> Follow {
        let Some(played) = after.turns().last() else {
            return Follow::NoLines;
        };
        let exact = self
            .branches
            .iter()
            .position(|branch| branch.theirs.turn() == &played.turn);
        let index = exact.or_else(|| {
            let reached = PositionKey::of(after.state(), after.rules());
            self.branches.iter().position(|branch| {
                let mut game = before.clone();
                parse_turn(branch.theirs.text())
                    .ok()
                    .and_then(|moves| game.play(&moves).ok().map(|_| ()))
                    .is_some_and(|()| PositionKey::of(game.state(), game.rules()) == reached)
            })
        });
        self.take(index)
    }

    /// The answer of the branch at `index` (its continuations kept), or,
    /// without one, every line dropped.
    fn take(&mut self, index: Option<usize>) -> Follow {
        if self.branches.is_empty() {
            return Follow::NoLines;
        }
        let Some(index) = index else {
            return Follow::NoLineFits {
                dropped: self.clear(),
            };
        };
        let branch = self.branches.swap_remove(index);
        self.branches = branch.then;
        Follow::Answer {
            answer: branch.mine,
            lines_kept: self.line_count(),
        }
    }
}

fn leaves(branches: &[Branch]) -> usize {
    branches
        .iter()
        .map(|branch| leaves(&branch.then).max(1))
        .sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use pbem_rules::Variant;
    use pbem_rules::notation::parse_record;

    /// A game of `variant` after `record`, from the start or from `fen`.
    pub(crate) fn game_after(variant: Variant, fen: Option<&str>, record: &str) -> Game {
        let mut game = match fen {
            Some(fen) => Game::from_fen(variant, fen).expect("valid FEN"),
            None => Game::new(variant),
        };
        let parsed = parse_record(record).expect("readable record");
        for turn in parsed.turns {
            game.play(&turn.moves).expect("legal record");
        }
        game
    }

    /// Plays `written` as the opponent's turn and returns its moves.
    pub(crate) fn play(game: &mut Game, written: &str) -> pbem_rules::Turn {
        let moves = pbem_rules::notation::parse_turn(written).expect("readable");
        game.play(&moves).expect("legal").turn.clone()
    }

    fn chess() -> Game {
        game_after(Variant::Chess, None, "1.e4")
    }

    #[test]
    fn lines_sharing_a_beginning_are_merged() {
        let game = chess();
        let mut tree = Tree::new(Color::White);
        assert_eq!(tree.add(&game, "e5 Nf3 Nc6 Bb5"), Ok(Added::NewLine));
        assert_eq!(tree.add(&game, "e5 Nf3 Nf6 Nxe5"), Ok(Added::NewLine));
        assert_eq!(tree.add(&game, "c5 Nf3"), Ok(Added::NewLine));
        // Written otherwise, the same moves: already there.
        assert_eq!(tree.add(&game, "e7e5 g1f3"), Ok(Added::AlreadyThere));
        assert_eq!(tree.add(&game, "2...c5 3.Ng1-f3"), Err(wrong_number()));
        assert_eq!(
            tree.add(&game, "e5 Nf3 Nc6 Bb5 a6 Ba4"),
            Ok(Added::Extended)
        );
        assert_eq!(
            tree.lines(),
            [
                vec!["e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4"],
                vec!["e5", "Nf3", "Nf6", "Nxe5"],
                vec!["c5", "Nf3"],
            ]
        );
        assert_eq!(tree.line_count(), 3);
        // e5 Nf3 shared: 2 + 4 + 2 + 2 turns.
        assert_eq!(tree.turn_count(), 10);
        assert_eq!(
            tree.numbered_lines(&game),
            [
                "1...e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4",
                "1...e5 2.Nf3 Nf6 3.Nxe5",
                "1...c5 2.Nf3",
            ]
        );
    }

    fn wrong_number() -> LineError {
        LineError {
            line: "2...c5 3.Ng1-f3".into(),
            problem: Problem::WrongNumber {
                written: "2...".into(),
                expected: "1...".into(),
            },
        }
    }

    #[test]
    fn a_second_answer_to_the_same_turn_is_refused_and_changes_nothing() {
        let game = chess();
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5 Nf3 Nc6 Bb5").expect("first");
        let before = tree.lines().concat().join(" ");
        let error = tree.add(&game, "e5 Nf3 Nc6 Bc4").expect_err("ambiguous");
        assert_eq!(
            error.problem,
            Problem::Ambiguous {
                theirs: "Nc6".into(),
                kept: "Bb5".into(),
                given: "Bc4".into()
            }
        );
        assert!(
            error
                .to_string()
                .contains("answer Nc6 with Bb5, this one with Bc4")
        );
        let error = tree.add(&game, "e5 d4").expect_err("ambiguous at the root");
        assert!(matches!(error.problem, Problem::Ambiguous { .. }));
        assert_eq!(tree.lines().concat().join(" "), before);
        // An illegal line changes nothing either.
        tree.add(&game, "c5 Nf3 d6 Bb4").expect_err("illegal");
        assert_eq!(tree.lines().concat().join(" "), before);
    }

    #[test]
    fn clear_drops_every_line() {
        let game = chess();
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5 Nf3").expect("line");
        tree.add(&game, "c5 Nf3").expect("line");
        assert_eq!(tree.clear(), 2);
        assert!(tree.is_empty());
        assert_eq!(tree.lines(), Vec::<Vec<&str>>::new());
        assert_eq!(tree.follow(&chess_turn("e5")), Follow::NoLines);
    }

    fn chess_turn(written: &str) -> pbem_rules::Turn {
        play(&mut chess(), written)
    }

    #[test]
    fn at_most_32_lines() {
        let game = chess();
        let mut tree = Tree::new(Color::White);
        // Black's 20 first turns, each answered by Nc3, then lines that
        // branch after 1...Nf6 2.Nc3.
        let mut added = 0;
        for reply in game.state().legal_turns(game.rules()) {
            let text = game.state().turn_text(game.rules(), &reply);
            tree.add(&game, &format!("{text} Nc3")).expect("legal");
            added += 1;
        }
        assert_eq!(added, 20);
        for reply in [
            "a6", "a5", "b6", "b5", "c6", "c5", "d6", "d5", "e6", "e5", "h6", "h5",
        ] {
            tree.add(&game, &format!("Nf6 Nc3 {reply} Nf3"))
                .expect("legal");
        }
        // The first Nf6 line was extended by the first deeper line, not added.
        assert_eq!(tree.line_count(), 31);
        tree.add(&game, "Nf6 Nc3 g6 Nf3").expect("the 32nd line");
        let error = tree.add(&game, "Nf6 Nc3 g5 Nf3").expect_err("33rd line");
        assert_eq!(error.problem, Problem::TooManyLines);
        // Going on from a line's end adds no line.
        assert_eq!(tree.add(&game, "a6 Nc3 a5 Nf3"), Ok(Added::Extended));
        assert_eq!(tree.line_count(), MAX_LINES);
    }

    #[test]
    fn the_answer_is_played_and_the_continuations_kept() {
        let mut game = chess();
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5 Nf3 Nc6 Bb5").expect("line");
        tree.add(&game, "e5 Nf3 Nf6 Nxe5").expect("line");
        tree.add(&game, "c5 Nf3").expect("line");
        // The opponent plays e7-e5, however it was written.
        let played = play(&mut game, "e7e5");
        let Follow::Answer { answer, lines_kept } = tree.follow(&played) else {
            panic!("e5 begins two lines");
        };
        assert_eq!((answer.text(), lines_kept), ("Nf3", 2));
        play(&mut game, answer.text());
        assert_eq!(tree.lines(), [vec!["Nc6", "Bb5"], vec!["Nf6", "Nxe5"]]);
        let played = play(&mut game, "Nf6");
        let Follow::Answer { answer, lines_kept } = tree.follow(&played) else {
            panic!("Nf6 begins a line");
        };
        assert_eq!((answer.text(), lines_kept), ("Nxe5", 0));
        assert!(tree.is_empty());
    }

    #[test]
    fn a_turn_no_line_begins_with_drops_them_all() {
        let mut game = chess();
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5 Nf3 Nc6 Bb5").expect("line");
        tree.add(&game, "c5 Nf3").expect("line");
        let played = play(&mut game, "d5");
        assert_eq!(tree.follow(&played), Follow::NoLineFits { dropped: 2 });
        assert!(tree.is_empty());
    }

    /// Marseillais: two moves a turn; a check on the first move ends it.
    const MARSEILLAIS_BB5: &str = "rnbqkbnr/ppp2ppp/8/3pp3/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 2";

    #[test]
    fn whole_turns_match_by_their_moves_in_order() {
        let mut game = game_after(Variant::Marseillais, None, "1.e4,d4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5,d5 exd5,Nc3").expect("whole turns");
        tree.add(&game, "d5,e5 dxe5,Nf3")
            .expect("the same moves the other way round");
        assert_eq!(tree.line_count(), 2);
        // The same first turn, answered otherwise: ambiguous.
        let error = tree
            .add(&game, "e7-e5,d7-d5 exd5,Nf3")
            .expect_err("ambiguous");
        assert!(matches!(error.problem, Problem::Ambiguous { .. }));
        let played = play(&mut game, "d5,e5");
        let Follow::Answer { answer, .. } = tree.follow(&played) else {
            panic!("d5,e5 begins a line");
        };
        assert_eq!(answer.text(), "dxe5,Nf3");
    }

    #[test]
    fn a_check_ends_the_turn_in_marseillais() {
        let mut game = game_after(Variant::Marseillais, Some(MARSEILLAIS_BB5), "");
        let mut tree = Tree::new(Color::Black);
        let error = tree
            .add(&game, "Bb5+,Nf3 c6,cxb5")
            .expect_err("check ends the turn");
        let Problem::Illegal { index: 0, .. } = error.problem else {
            panic!("{error:?}");
        };
        assert!(
            error
                .to_string()
                .contains("gives check, which ends the turn"),
            "{error}"
        );
        assert!(tree.is_empty());
        tree.add(&game, "Bb5+ c6,cxb5").expect("legal");
        tree.add(&game, "Nf3,Bb5+ Nc6,Nf6")
            .expect("the check as second move");
        assert_eq!(
            tree.lines(),
            [vec!["Bb5+", "c6,cxb5"], vec!["Nf3,Bb5+", "Nc6,Nf6"]]
        );
        // The lone checking move is the first line's turn, not the second's.
        let played = play(&mut game, "f1b5");
        let Follow::Answer { answer, lines_kept } = tree.follow(&played) else {
            panic!("Bb5+ begins a line");
        };
        assert_eq!((answer.text(), lines_kept), ("c6,cxb5", 0));
        assert!(tree.is_empty());
    }

    #[test]
    fn doublemove_lines_capture_kings() {
        // Doublemove: White's first turn is one move, then two a turn.
        let mut game = game_after(Variant::Doublemove, None, "1.e4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5,d5 exd5,Qh5").expect("whole turns");
        tree.add(&game, "f6,Kf7 Qh5,Qxf7")
            .expect("the king is taken");
        let error = tree
            .add(&game, "f6,Kf7 Qh5,Qxf7 Nc6 Nc3")
            .expect_err("the game ended");
        assert!(
            matches!(error.problem, Problem::Illegal { index: 2, .. }),
            "{error:?}"
        );
        let played = play(&mut game, "f7f6,e8f7");
        let Follow::Answer { answer, .. } = tree.follow(&played) else {
            panic!("f6,Kf7 begins a line");
        };
        assert_eq!(answer.text(), "Qh5,Qxf7");
    }

    #[test]
    fn doublestep_lines_are_one_move_a_turn() {
        let mut game = game_after(Variant::Doublestep, None, "1.e4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "Nb8-c6-e5 Ng1-f3-g5").expect("doublesteps");
        let error = tree.add(&game, "e5,d5 Nf3").expect_err("one move a turn");
        assert!(matches!(error.problem, Problem::Illegal { index: 0, .. }));
        let played = play(&mut game, "Nb8-c6-e5");
        let Follow::Answer { answer, .. } = tree.follow(&played) else {
            panic!("the doublestep begins a line");
        };
        assert_eq!(answer.text(), "Ng1-f3-g5");
    }

    #[test]
    fn promotions_must_match() {
        // A black pawn on a3, so that a knight and king against king and
        // pawn is no dead draw.
        let fen = "8/1P4k1/8/8/8/p7/6K1/8 w - - 0 40";
        let mut game = game_after(Variant::Chess, Some(fen), "");
        let mut tree = Tree::new(Color::Black);
        tree.add(&game, "b8=Q Kf6").expect("queen");
        tree.add(&game, "b8=N Kg6").expect("knight: another turn");
        let played = play(&mut game, "b7b8n");
        let Follow::Answer { answer, .. } = tree.follow(&played) else {
            panic!("b8=N begins a line");
        };
        assert_eq!(answer.text(), "Kg6");
    }
}
