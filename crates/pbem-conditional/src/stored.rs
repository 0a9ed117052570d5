//! A tree as text, for one TEXT column of the store: a version line, then
//! every line of the tree on a line of its own, its turns in canonical
//! notation separated by single spaces, in the tree's order:
//!
//! ```text
//! pbem-conditional 1
//! e5 Nf3 Nc6 Bb5
//! e5 Nf3 Nf6 Nxe5
//! c5 Nf3
//! ```
//!
//! Turns are stored as text, not as squares, so that a person reading the
//! store sees the lines as the player would; reading them back needs the
//! game they start from, and checks every line again as if it were given
//! then. Stored text is read as hostile: it is bounded before anything is
//! parsed, and whatever it holds, reading it fails or succeeds, never panics.

use std::fmt;

use pbem_rules::Game;
use shakmaty::Color;

use crate::line::{self, LineError, MAX_LINE_BYTES};
use crate::tree::{MAX_LINES, Tree};

/// The first line of the stored form, naming its version.
pub const STORED_HEADER: &str = "pbem-conditional 1";

/// The longest stored text read: the header and [`MAX_LINES`] lines of at
/// most [`MAX_LINE_BYTES`] each.
pub const MAX_STORED_BYTES: usize = STORED_HEADER.len() + 1 + MAX_LINES * (MAX_LINE_BYTES + 1);

impl Tree {
    /// The tree in its stored form; an empty tree is the header alone.
    pub fn to_stored(&self) -> String {
        let mut out = String::from(STORED_HEADER);
        for turns in self.lines() {
            out.push('\n');
            out.push_str(&turns.join(" "));
        }
        out
    }

    /// Reads a stored tree of `owner` back, checking every line from
    /// `game`'s position (the one the tree was stored for, the opponent to
    /// move).
    ///
    /// # Errors
    ///
    /// Text longer than [`MAX_STORED_BYTES`], without the header or of
    /// another version, with more than [`MAX_LINES`] lines, or with a line
    /// that is refused now (it does not fit this position, or the game is
    /// over). The caller drops such a tree.
    pub fn from_stored(text: &str, game: &Game, owner: Color) -> Result<Tree, StoredError> {
        if text.len() > MAX_STORED_BYTES {
            return Err(StoredError::TooLong);
        }
        let mut rows = text.lines();
        let header = rows.next().unwrap_or_default().trim();
        if header != STORED_HEADER {
            return Err(match header.strip_prefix("pbem-conditional ") {
                Some(version) => StoredError::UnknownVersion(line::quoted(version)),
                None => StoredError::NoHeader,
            });
        }
        let rows: Vec<&str> = rows.filter(|row| !row.trim().is_empty()).collect();
        if rows.len() > MAX_LINES {
            return Err(StoredError::TooManyLines(rows.len()));
        }
        let mut tree = Tree::new(owner);
        for (index, row) in rows.iter().enumerate() {
            tree.add(game, row)
                .map_err(|error| StoredError::Line { index, error })?;
        }
        Ok(tree)
    }
}

/// Why stored text is not a tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredError {
    /// Longer than [`MAX_STORED_BYTES`].
    TooLong,
    /// The first line is not [`STORED_HEADER`] nor another version's.
    NoHeader,
    /// A version this crate does not read (quoted, cut).
    UnknownVersion(String),
    /// More than [`MAX_LINES`] lines (how many).
    TooManyLines(usize),
    /// A line refused from this position: which (from 0) and why.
    Line { index: usize, error: LineError },
}

impl fmt::Display for StoredError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredError::TooLong => write!(
                f,
                "stored conditional lines longer than {MAX_STORED_BYTES} bytes"
            ),
            StoredError::NoHeader => write!(
                f,
                "stored conditional lines do not start with \"{STORED_HEADER}\""
            ),
            StoredError::UnknownVersion(version) => {
                write!(
                    f,
                    "stored conditional lines of unknown version \"{version}\""
                )
            }
            StoredError::TooManyLines(lines) => {
                write!(f, "{lines} stored conditional lines, more than {MAX_LINES}")
            }
            StoredError::Line { index, error } => {
                write!(f, "stored conditional line {}: {error}", index + 1)
            }
        }
    }
}

impl std::error::Error for StoredError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::line::Problem;
    use crate::tree::tests::{game_after, play};
    use crate::tree::{Added, Follow};
    use pbem_rules::Variant;
    use proptest::prelude::*;

    #[test]
    fn a_tree_survives_its_stored_form() {
        let game = game_after(Variant::Chess, None, "1.e4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "1...e7e5 2.Ng1-f3 Nc6 3.Bb5")
            .expect("line");
        tree.add(&game, "e5 Nf3 Nf6 Nxe5").expect("line");
        tree.add(&game, "c5 Nf3").expect("line");
        let stored = tree.to_stored();
        assert_eq!(
            stored,
            "pbem-conditional 1\ne5 Nf3 Nc6 Bb5\ne5 Nf3 Nf6 Nxe5\nc5 Nf3"
        );
        let read = Tree::from_stored(&stored, &game, Color::White).expect("reads");
        assert_eq!(read.lines(), tree.lines());
        assert_eq!(read.to_stored(), stored);
        // The empty tree is the header alone.
        let empty = Tree::new(Color::Black).to_stored();
        assert_eq!(empty, STORED_HEADER);
        let read = Tree::from_stored(&empty, &game, Color::White).expect("reads");
        assert!(read.is_empty());
    }

    #[test]
    fn what_is_kept_after_an_answer_is_stored_for_the_new_position() {
        let mut game = game_after(Variant::Marseillais, None, "1.e4,d4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "e5,d5 exd5,Nc3 exd4,Qxd5 Qxd4,Nf3")
            .expect("line");
        tree.add(&game, "e5,d5 exd5,Nc3 Nf6,Nxd5 Nxd5,Bg5")
            .expect("line");
        let played = play(&mut game, "e5,d5");
        let Follow::Answer { answer, .. } = tree.follow(&played) else {
            panic!("e5,d5 begins the lines");
        };
        play(&mut game, answer.text());
        let stored = tree.to_stored();
        assert_eq!(
            stored,
            "pbem-conditional 1\nexd4,Qxd5 Qxd4,Nf3\nNf6,Nxd5 Nxd5,Bg5"
        );
        let read = Tree::from_stored(&stored, &game, Color::White).expect("reads");
        assert_eq!(read.lines(), tree.lines());
    }

    #[test]
    fn a_mate_and_a_doublestep_read_back() {
        let game = game_after(Variant::Chess, None, "1.f3 e5");
        let mut tree = Tree::new(Color::Black);
        tree.add(&game, "g4 Qh4").expect("mate");
        let stored = tree.to_stored();
        assert!(stored.ends_with("g4 Qh4#"), "{stored}");
        let read = Tree::from_stored(&stored, &game, Color::Black).expect("reads");
        assert_eq!(read.to_stored(), stored);
        let game = game_after(Variant::Doubletime, None, "1.e4");
        let mut tree = Tree::new(Color::White);
        tree.add(&game, "Nb8-c6-e5 Ng1-f3xe5").expect("doublesteps");
        let stored = tree.to_stored();
        let read = Tree::from_stored(&stored, &game, Color::White).expect("reads");
        assert_eq!(read.to_stored(), stored);
    }

    #[test]
    fn text_that_is_no_tree_here_is_refused() {
        let game = game_after(Variant::Chess, None, "1.e4");
        let from = |text: &str| Tree::from_stored(text, &game, Color::White);
        assert_eq!(from("").map(|t| t.to_stored()), Err(StoredError::NoHeader));
        assert_eq!(from("e5 Nf3").err(), Some(StoredError::NoHeader));
        assert_eq!(
            from("pbem-conditional 2\ne5 Nf3").err(),
            Some(StoredError::UnknownVersion("2".into()))
        );
        let many = format!("{STORED_HEADER}\n{}", "e5 Nf3\n".repeat(33));
        assert_eq!(from(&many).err(), Some(StoredError::TooManyLines(33)));
        let long = format!("{STORED_HEADER}\n{}", "x".repeat(MAX_STORED_BYTES));
        assert_eq!(from(&long).err(), Some(StoredError::TooLong));
        let Err(StoredError::Line { index, error }) =
            from(&format!("{STORED_HEADER}\ne5 Nf3\nd5 Bb4"))
        else {
            panic!("an illegal line");
        };
        assert_eq!(index, 1);
        assert!(matches!(error.problem, Problem::Illegal { index: 1, .. }));
        // Stored for another position: the owner is to move here.
        let Err(StoredError::Line { error, .. }) =
            Tree::from_stored(&format!("{STORED_HEADER}\ne5 Nf3"), &game, Color::Black)
        else {
            panic!("the owner's own turn");
        };
        assert_eq!(error.problem, Problem::OwnerToMove);
        // Two answers to e5: ambiguous, refused.
        let ambiguous = format!("{STORED_HEADER}\ne5 Nf3\ne5 Nc3");
        assert!(matches!(
            from(&ambiguous),
            Err(StoredError::Line { index: 1, .. })
        ));
        // Windows line ends and blank lines are read.
        let read = from(&format!("{STORED_HEADER}\r\ne5 Nf3\r\n\r\nc5 Nf3\r\n")).expect("reads");
        assert_eq!(read.line_count(), 2);
        let mut tree = read;
        assert_eq!(tree.add(&game, "e5 Nf3"), Ok(Added::AlreadyThere));
    }

    /// Words that read as moves, move numbers, or nothing much.
    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("e5".to_string()),
            Just("Nf3".to_string()),
            Just("Nc6".to_string()),
            Just("2...".to_string()),
            Just("1-0".to_string()),
            Just("e5,d5".to_string()),
            Just("O-O".to_string()),
            "[a-hKQRBNx1-8=+#,./{}()\\[\\]-]{1,8}",
            "\\PC{0,6}",
        ]
    }

    fn stored_like() -> impl Strategy<Value = String> {
        proptest::collection::vec(proptest::collection::vec(word(), 0..24), 0..40).prop_map(
            |rows| {
                let mut text = STORED_HEADER.to_string();
                for row in rows {
                    text.push('\n');
                    text.push_str(&row.join(" "));
                }
                text
            },
        )
    }

    /// A line of legal turns from `game`: `picks` chooses each turn among
    /// the legal ones; cut to whole pairs, and where the game ends.
    fn legal_line(game: &Game, picks: &[usize]) -> String {
        let mut game = game.clone();
        let mut texts = Vec::new();
        for &pick in picks {
            let turns = game.state().legal_turns(game.rules());
            if game.end().is_some() || turns.is_empty() {
                break;
            }
            let text = game
                .state()
                .turn_text(game.rules(), &turns[pick % turns.len()]);
            // As the game writes it: `#` on a mate.
            let moves = pbem_rules::notation::parse_turn(&text).expect("readable");
            texts.push(game.play(&moves).expect("legal").text());
        }
        texts.truncate(texts.len() / 2 * 2);
        texts.join(" ")
    }

    /// The variants of the property tests, each after White's first turn.
    const VARIANTS: [(Variant, &str); 4] = [
        (Variant::Chess, "1.e4"),
        (Variant::Marseillais, "1.e4,d4"),
        (Variant::TwoMove, "1.e4"),
        (Variant::Doubletime, "1.e4"),
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Random legal lines, added where they do not clash, store and
        /// read back as they were, and the tree answers along any of them.
        #[test]
        fn legal_lines_round_trip(
            lines in proptest::collection::vec(proptest::collection::vec(0..1000usize, 2..=20), 1..10),
            follow in 0..10usize,
        ) {
            for (variant, first) in VARIANTS {
                let game = game_after(variant, None, first);
                let mut tree = Tree::new(Color::White);
                let mut given = Vec::new();
                for picks in &lines {
                    let line = legal_line(&game, picks);
                    match tree.add(&game, &line) {
                        Ok(_) => given.push(line),
                        Err(error) => prop_assert!(
                            matches!(error.problem, Problem::Ambiguous { .. } | Problem::Empty),
                            "{}", error
                        ),
                    }
                }
                let stored = tree.to_stored();
                let read = Tree::from_stored(&stored, &game, Color::White);
                prop_assert_eq!(read.as_ref().map(|t| t.to_stored()), Ok(stored.clone()));
                prop_assert_eq!(read.as_ref().map(|t| t.lines()), Ok(tree.lines()));
                // Every line given is in the tree: the opponent following
                // it gets its answers, turn by turn.
                if let Some(line) = given.get(follow % given.len().max(1)) {
                    let mut game = game.clone();
                    let turns: Vec<&str> = line.split(' ').collect();
                    for pair in turns.chunks_exact(2) {
                        let played = play(&mut game, pair[0]);
                        let Follow::Answer { answer, .. } = tree.follow(&played) else {
                            return Err(TestCaseError::fail(format!("{line}: no answer to {}", pair[0])));
                        };
                        prop_assert_eq!(answer.text(), pair[1]);
                        play(&mut game, answer.text());
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn reading_arbitrary_text_never_panics(text in "\\PC{0,300}") {
            let game = game_after(Variant::Chess, None, "1.e4");
            let _ = Tree::from_stored(&text, &game, Color::White);
            let _ = Tree::new(Color::White).add(&game, &text);
        }

        #[test]
        fn reading_stored_looking_text_never_panics(text in stored_like()) {
            for (variant, first) in [
                (Variant::Chess, "1.e4"),
                (Variant::Marseillais, "1.e4,d4"),
                (Variant::Doublestep, "1.e4"),
            ] {
                let game = game_after(variant, None, first);
                if let Ok(tree) = Tree::from_stored(&text, &game, Color::White) {
                    // What reads back is stored canonically and reads again.
                    let stored = tree.to_stored();
                    let again = Tree::from_stored(&stored, &game, Color::White);
                    prop_assert_eq!(again.map(|t| t.to_stored()), Ok(stored));
                }
            }
        }
    }
}
