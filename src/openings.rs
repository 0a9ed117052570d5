//! The table of named chess openings behind thematic starts: `--opening=`
//! on `challenge` and `tournament create` starts every game after an
//! opening's moves, and the `openings` mail command lists them.
//!
//! The table is `data/openings.tsv` (the lichess chess-openings data set,
//! CC0; see `data/README.md`), built into the binary. Its rows are read and
//! their moves replayed with shakmaty once, the first time any opening is
//! looked up; a row whose moves do not replay is left out (a test checks
//! that none is).
//!
//! A board keeps the opening it started from as a whole ([`Opening::stored`]:
//! code, name and moves), not a row of the table, so that a later update of
//! the table changes no game already made.

use std::sync::LazyLock;

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use crate::rules::Game;
use crate::rules::notation::parse_turn;

/// The table as built into the binary: a header line, then `eco`, `name`
/// and `pgn` separated by tabs.
const TABLE: &str = include_str!("../data/openings.tsv");

/// At most this many matches are named when a name is ambiguous.
pub const AMBIGUOUS_SHOWN: usize = 10;

/// One named opening: its ECO code, its name and its moves from the usual
/// start, in SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: String,
    pub name: String,
    pub moves: Vec<String>,
}

impl Opening {
    /// How mails and the web name it: `B90 Sicilian Defense: Najdorf
    /// Variation`.
    pub fn label(&self) -> String {
        format!("{} {}", self.eco, self.name)
    }

    /// Its moves numbered: `1.e4 c5 2.Nf3 d6`.
    pub fn numbered(&self) -> String {
        let mut out = String::new();
        for (ply, san) in self.moves.iter().enumerate() {
            if ply > 0 {
                out.push(' ');
            }
            if ply % 2 == 0 {
                out.push_str(&format!("{}.", ply / 2 + 1));
            }
            out.push_str(san);
        }
        out
    }

    /// The game of chess after its moves, started there (see
    /// [`Game::started_here`]); `None` if the moves do not replay.
    pub fn game(&self) -> Option<Game> {
        let mut game = Game::new(crate::rules::Variant::Chess);
        for san in &self.moves {
            let turn = parse_turn(san).ok()?;
            game.play(&turn).ok()?;
        }
        Some(game.started_here())
    }

    /// The form kept with a board or an event: code, name and moves
    /// separated by tabs (the moves by spaces).
    pub fn stored(&self) -> String {
        format!("{}\t{}\t{}", self.eco, self.name, self.moves.join(" "))
    }

    /// Reads [`Opening::stored`] back; `None` for any other text.
    pub fn from_stored(text: &str) -> Option<Opening> {
        let mut fields = text.split('\t');
        let (eco, name, moves) = (fields.next()?, fields.next()?, fields.next()?);
        if fields.next().is_some() {
            return None;
        }
        Some(Opening {
            eco: eco.to_string(),
            name: name.to_string(),
            moves: moves.split_whitespace().map(str::to_string).collect(),
        })
    }
}

/// The rows of the table whose moves replay, in the table's order.
pub fn table() -> &'static [Opening] {
    static ROWS: LazyLock<Vec<Opening>> =
        LazyLock::new(|| TABLE.lines().skip(1).filter_map(row).collect());
    &ROWS
}

/// One line of the table, its moves replayed (and written back in
/// shakmaty's SAN); `None` if it is malformed or its moves are not legal.
fn row(line: &str) -> Option<Opening> {
    let mut fields = line.split('\t');
    let (eco, name, pgn) = (fields.next()?, fields.next()?, fields.next()?);
    let mut pos = Chess::default();
    let mut moves = Vec::new();
    for token in pgn.split_whitespace() {
        if token.ends_with('.') {
            continue; // a move number
        }
        let san = San::from_ascii(token.as_bytes()).ok()?;
        let played = san.to_move(&pos).ok()?;
        moves.push(San::from_move(&pos, played).to_string());
        pos = pos.play(played).ok()?;
    }
    (!moves.is_empty()).then(|| Opening {
        eco: eco.to_string(),
        name: name.to_string(),
        moves,
    })
}

/// Why no one opening was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotFound {
    /// Nothing matched.
    Unknown,
    /// Several names matched: the first few, each with its first code.
    Ambiguous { shown: Vec<String>, more: usize },
}

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotFound::Unknown => write!(
                f,
                "no opening has that code or name (mail \"openings <words>\" for the list)"
            ),
            NotFound::Ambiguous { shown, more } => {
                write!(f, "several openings match: {}", shown.join("; "))?;
                if *more > 0 {
                    write!(f, "; and {more} more")?;
                }
                write!(f, " (give the code, or more of the name)")
            }
        }
    }
}

/// Whether `text` is written like an ECO code: a letter A to E and two
/// digits.
fn is_code(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 3
        && matches!(bytes[0].to_ascii_uppercase(), b'A'..=b'E')
        && bytes[1..].iter().all(u8::is_ascii_digit)
}

/// The words of a name or a query, in lower case, punctuation dropped:
/// `Sicilian Defense: Najdorf Variation` and `sicilian-defense-najdorf`
/// read alike.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == '-' || c == ':' || c == ',')
        .map(|word| {
            word.chars()
                .filter(|c| c.is_alphanumeric())
                .flat_map(char::to_lowercase)
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect()
}

/// How well the words asked match a name: `Some(Prefix)` when they begin
/// its first words, one each (`sicilian def` of `Sicilian Defense: ...`),
/// `Some(Within)` when each begins one of its words, in order
/// (`sicilian najdorf`), `None` otherwise.
fn matching(asked: &[String], name: &[String]) -> Option<Match> {
    if asked.len() <= name.len()
        && asked
            .iter()
            .zip(name)
            .all(|(word, candidate)| candidate.starts_with(word.as_str()))
    {
        return Some(Match::Prefix);
    }
    let mut rest = name.iter();
    asked
        .iter()
        .all(|word| rest.any(|candidate| candidate.starts_with(word.as_str())))
        .then_some(Match::Within)
}

/// How a name matched, the better first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Match {
    Prefix,
    Within,
}

/// The rows a code or some words match: every row of the code, or every
/// row whose name has each word asked at the start of one of its words,
/// in order; the names they begin first, each kind in the table's order.
pub fn search(query: &str) -> Vec<&'static Opening> {
    ranked(query).into_iter().map(|(row, _)| row).collect()
}

/// [`search`], with how each row matched.
fn ranked(query: &str) -> Vec<(&'static Opening, Match)> {
    let query = query.trim();
    if is_code(query) {
        return table()
            .iter()
            .filter(|row| row.eco.eq_ignore_ascii_case(query))
            .map(|row| (row, Match::Prefix))
            .collect();
    }
    let asked = words(query);
    if asked.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(&'static Opening, Match)> = table()
        .iter()
        .filter_map(|row| Some((row, matching(&asked, &words(&row.name))?)))
        .collect();
    found.sort_by_key(|(_, how)| *how);
    found
}

/// The one opening `query` means: for a code, that code's first row; for
/// a name (`-` for spaces, case and punctuation ignored), the first row of
/// that exact name; else, among the names the words begin (or, if none,
/// the names that contain them), the only one, or the one every other is a
/// line of (`sicilian-najdorf` is the Najdorf Variation, not one of its
/// sub-variations; `sicilian` is the Sicilian Defense).
pub fn find(query: &str) -> Result<&'static Opening, NotFound> {
    let found = ranked(query);
    let Some(&(first, best)) = found.first() else {
        return Err(NotFound::Unknown);
    };
    if is_code(query.trim()) {
        return Ok(first);
    }
    let asked = words(query);
    if let Some((exact, _)) = found.iter().find(|(row, _)| words(&row.name) == asked) {
        return Ok(exact);
    }
    // The distinct names matched as well as the best, each with its first
    // row and its words (linear in the matches: a query matching most of
    // the table is answered at once).
    let mut seen = std::collections::HashSet::new();
    let names: Vec<(&'static Opening, Vec<String>)> = found
        .iter()
        .filter(|(row, how)| *how == best && seen.insert(row.name.as_str()))
        .map(|(row, _)| (*row, words(&row.name)))
        .collect();
    // Only the shortest name can be the one every other is a line of.
    if let Some((root, root_words)) = names.iter().min_by_key(|(_, words)| words.len())
        && names.iter().all(|(_, other)| other.starts_with(root_words))
    {
        return Ok(root);
    }
    let shown = names
        .iter()
        .take(AMBIGUOUS_SHOWN)
        .map(|(row, _)| row.label())
        .collect();
    Err(NotFound::Ambiguous {
        shown,
        more: names.len().saturating_sub(AMBIGUOUS_SHOWN),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_of_the_table_replays() {
        let rows = TABLE.lines().skip(1).count();
        assert!(rows > 3000, "{rows} rows");
        assert_eq!(table().len(), rows);
        for row in table() {
            assert!(row.game().is_some(), "{}", row.label());
        }
    }

    #[test]
    fn a_code_is_its_first_row() {
        let opening = find("b90").unwrap();
        assert_eq!(opening.label(), "B90 Sicilian Defense: Najdorf Variation");
        assert_eq!(
            opening.numbered(),
            "1.e4 c5 2.Nf3 d6 3.d4 cxd4 4.Nxd4 Nf6 5.Nc3 a6"
        );
        assert_eq!(find("Z99"), Err(NotFound::Unknown));
        assert_eq!(find("e99").map(|o| o.eco.as_str()), Ok("E99"));
    }

    #[test]
    fn names_are_read_without_case_or_punctuation() {
        assert_eq!(find("sicilian").unwrap().label(), "B20 Sicilian Defense");
        let najdorf = find("sicilian-najdorf").unwrap();
        assert_eq!(najdorf.eco, "B90");
        assert_eq!(find("SICILIAN-DEFENSE:-NAJDORF-VARIATION"), Ok(najdorf));
        assert_eq!(
            find("kings-gambit-accepted").unwrap().name,
            "King's Gambit Accepted"
        );
        assert_eq!(find("no-such-opening-at-all"), Err(NotFound::Unknown));
    }

    #[test]
    fn an_ambiguous_name_lists_its_matches() {
        let Err(NotFound::Ambiguous { shown, more }) = find("english") else {
            panic!("english is ambiguous");
        };
        assert_eq!(shown.len(), AMBIGUOUS_SHOWN, "{shown:?}");
        assert!(more > 0);
        assert!(
            shown.iter().all(|line| line.contains("English")),
            "{shown:?}"
        );
        assert!(
            shown.contains(&"A10 English Opening".to_string()),
            "{shown:?}"
        );
    }

    /// A query matching most of the table is answered at once.
    #[test]
    fn a_wide_query_is_quick() {
        let started = std::time::Instant::now();
        for query in ["defense", "variation", "a", "opening"] {
            let _ = find(query);
            let _ = search(query);
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(2));
    }

    #[test]
    fn the_stored_form_reads_back() {
        let opening = find("B90").unwrap();
        assert_eq!(
            Opening::from_stored(&opening.stored()).as_ref(),
            Some(opening)
        );
        assert_eq!(Opening::from_stored("B90 Sicilian"), None);
    }

    #[test]
    fn the_game_starts_after_the_moves() {
        let game = find("B90").unwrap().game().unwrap();
        assert!(game.turns().is_empty());
        assert_eq!(game.state().turn_number(), 6);
        assert_eq!(
            game.initial_fen(),
            "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6"
        );
    }
}
