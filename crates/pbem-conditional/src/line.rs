//! One conditional line as a player writes it, read and checked: the turns
//! (with move numbers if the player wrote them) played one after the other
//! with the rules of the game's variant, from the position the line starts
//! from.
//!
//! A line alternates the opponent's turns and the owner's answers and starts
//! with the opponent's next turn, so it is checked from a position where the
//! opponent is to move: the current one, or the one after the owner's own
//! turn sent earlier in the same mail (the caller passes that game).

use std::fmt;

use pbem_rules::notation::{NotationError, RecordTurn, parse_record};
use pbem_rules::{Game, GameEnd, PlayError, Turn};
use shakmaty::Color;

/// At most this many turns in one line: ten of the opponent's and ten answers.
pub const MAX_TURNS_PER_LINE: usize = 20;
/// At most this many bytes in one line as written (twenty turns with move
/// numbers fit many times over); a longer text is refused unread.
pub const MAX_LINE_BYTES: usize = 1000;
/// Lines quoted in errors are cut to this many characters.
const QUOTED_CHARS: usize = 120;

/// One turn of a checked line: the moves it makes (what matching compares)
/// and its canonical text (what is stored, shown and played).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    turn: Turn,
    text: String,
}

impl Entry {
    /// The moves of the turn, in their order.
    pub fn turn(&self) -> &Turn {
        &self.turn
    }

    /// The turn in canonical notation, as a game record writes it
    /// (`Nf6`, `exd5,Nc3`, `Nb1-c3-e4`).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A line whose every turn is legal from the position it was checked from,
/// the opponent's turns at even indexes and the owner's answers at odd ones.
#[derive(Clone, Debug)]
pub struct Line {
    written: String,
    turns: Vec<Entry>,
}

impl Line {
    /// The line as the player wrote it, whitespace made single spaces.
    pub fn written(&self) -> &str {
        &self.written
    }

    /// The turns, the opponent's first.
    pub fn turns(&self) -> &[Entry] {
        &self.turns
    }

    /// The turns as (opponent's turn, answer) pairs.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (&Entry, &Entry)> {
        self.turns.chunks_exact(2).map(|pair| (&pair[0], &pair[1]))
    }
}

/// Reads `written` and plays it from `game`'s position, where the opponent
/// of `owner` must be to move.
///
/// # Errors
///
/// Refuses the whole line, naming it, when it cannot be read, is too long,
/// does not end with the owner's answer, carries a move number that does not
/// fit the position, or holds a turn that is not legal where it stands (that
/// turn named). The game itself is never changed.
pub fn check(game: &Game, owner: Color, written: &str) -> Result<Line, LineError> {
    let normalised = written.split_whitespace().collect::<Vec<_>>().join(" ");
    let refuse = |problem| LineError {
        line: quoted(&normalised),
        problem,
    };
    if normalised.len() > MAX_LINE_BYTES {
        return Err(refuse(Problem::TooLong));
    }
    if let Some(end) = game.end() {
        return Err(refuse(Problem::GameOver(end)));
    }
    if game.state().turn() == owner {
        return Err(refuse(Problem::OwnerToMove));
    }
    let written_turns = read_turns(game, &normalised).map_err(refuse)?;
    if written_turns.is_empty() {
        return Err(refuse(Problem::Empty));
    }
    if written_turns.len() > MAX_TURNS_PER_LINE {
        return Err(refuse(Problem::TooManyTurns(written_turns.len())));
    }
    if written_turns.len() % 2 == 1 {
        return Err(refuse(Problem::EndsWithTheirTurn));
    }
    let mut game = game.clone();
    let mut turns = Vec::with_capacity(written_turns.len());
    for (index, written_turn) in written_turns.iter().enumerate() {
        match game.play(&written_turn.moves) {
            Ok(played) => turns.push(Entry {
                turn: played.turn.clone(),
                text: played.text(),
            }),
            Err(error) => {
                return Err(refuse(Problem::Illegal {
                    index,
                    written: written_turn.text.clone(),
                    error: Box::new(error),
                }));
            }
        }
    }
    Ok(Line {
        written: normalised,
        turns,
    })
}

/// The turns of the line as written, their move numbers checked against the
/// position: the first against the game's, each later one by the
/// alternation of the record reader.
fn read_turns(game: &Game, line: &str) -> Result<Vec<RecordTurn>, Problem> {
    let number = game.state().turn_number();
    let expected = match game.state().turn() {
        Color::White => format!("{number}."),
        Color::Black => format!("{number}..."),
    };
    // The record reader anchors its numbering at the first turn: the line
    // is given the position's number, in place of the one written.
    let rest = match leading_marker(line) {
        Some(marker) => {
            let fits = marker.number.is_none_or(|n| n.parse() == Ok(number))
                && !(marker.black && game.state().turn() == Color::White);
            if !fits {
                return Err(Problem::WrongNumber {
                    written: marker.written.to_string(),
                    expected,
                });
            }
            marker.rest
        }
        None => line,
    };
    let record = parse_record(&format!("{expected} {rest}"))
        .map_err(|error| Problem::Unreadable(Box::new(error)))?;
    if let Some(result) = record.result {
        return Err(Problem::NotATurn(result.to_string()));
    }
    if let Some((name, _)) = record.tags.first() {
        return Err(Problem::NotATurn(format!("[{name} ...]")));
    }
    Ok(record.turns)
}

/// A move number before the first turn, as the record reader reads one:
/// `12.`, `12...`, `12…`, `12. ...`, or a bare `...`.
struct Marker<'a> {
    written: &'a str,
    number: Option<&'a str>,
    /// Written with `...`: a turn of Black.
    black: bool,
    rest: &'a str,
}

fn leading_marker(line: &str) -> Option<Marker<'_>> {
    let digits = line
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(line.len());
    let after_digits = &line[digits..];
    let dots = dots_len(after_digits);
    let mut black = is_ellipsis(&after_digits[..dots]);
    // Digits without dots are a move (`0-0`); a lone dot is not a marker.
    if (digits > 0 && dots == 0) || (digits == 0 && !black) {
        return None;
    }
    let mut rest = &after_digits[dots..];
    if digits > 0 && !black {
        let trimmed = rest.trim_start();
        let more = dots_len(trimmed);
        if is_ellipsis(&trimmed[..more]) {
            black = true;
            rest = &trimmed[more..];
        }
    }
    Some(Marker {
        written: line[..line.len() - rest.len()].trim_end(),
        number: (digits > 0).then(|| &line[..digits]),
        black,
        rest,
    })
}

/// The length in bytes of the run of `.` and `…` that `text` starts with.
fn dots_len(text: &str) -> usize {
    text.find(|c: char| c != '.' && c != '…')
        .unwrap_or(text.len())
}

/// Whether a run of dots marks a turn of Black (`...` or `…`).
fn is_ellipsis(dots: &str) -> bool {
    dots.contains('…') || dots.len() >= 2
}

/// A line cut for quoting, on a character boundary.
pub(crate) fn quoted(line: &str) -> String {
    let mut chars = line.chars();
    let mut out: String = chars.by_ref().take(QUOTED_CHARS).collect();
    if chars.next().is_some() {
        out.push_str("...");
    }
    out
}

/// Why a line was refused: the line (quoted, cut when long) and the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: String,
    pub problem: Problem,
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// More turns than [`MAX_TURNS_PER_LINE`] (how many).
    TooManyTurns(usize),
    /// No turn at all.
    Empty,
    /// The last turn is the opponent's: an answer is missing.
    EndsWithTheirTurn,
    /// The owner is to move: a line starts with the opponent's turn.
    OwnerToMove,
    /// The game is over.
    GameOver(GameEnd),
    /// The text is not turns in any notation pbem reads.
    Unreadable(Box<NotationError>),
    /// Something that is not a turn: a game result or a PGN tag.
    NotATurn(String),
    /// The move number before the first turn is not the position's.
    WrongNumber { written: String, expected: String },
    /// A turn that is not legal where it stands in the line.
    Illegal {
        /// Its place in the line, from 0.
        index: usize,
        /// As written, without its move number.
        written: String,
        error: Box<PlayError>,
    },
    /// The line answers an opponent's turn differently from a line already
    /// given: `theirs` is answered by `kept`, the line says `given`.
    Ambiguous {
        theirs: String,
        kept: String,
        given: String,
    },
    /// The line would make one line more than [`crate::MAX_LINES`].
    TooManyLines,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the line \"{}\" ", self.line)?;
        match &self.problem {
            Problem::TooLong => write!(
                f,
                "is too long: a line has at most {MAX_TURNS_PER_LINE} turns in at most {MAX_LINE_BYTES} characters"
            ),
            Problem::TooManyTurns(turns) => write!(
                f,
                "has {turns} turns; a line has at most {MAX_TURNS_PER_LINE} (your opponent's turns and your answers)"
            ),
            Problem::Empty => f.write_str("has no turns: write your opponent's turn, then your answer"),
            Problem::EndsWithTheirTurn => f.write_str(
                "ends with your opponent's turn: a line alternates your opponent's turns and your answers and ends with an answer",
            ),
            Problem::OwnerToMove => f.write_str(
                "starts with your opponent's turn, but it is your turn: play your turn first (it may stand before the if in the same mail)",
            ),
            Problem::GameOver(end) => write!(
                f,
                "cannot be played: the game is over ({} {})",
                end.score(),
                end.reason.describe()
            ),
            Problem::Unreadable(error) => write!(f, "cannot be read: {error}"),
            Problem::NotATurn(text) => write!(f, "holds \"{text}\", which is not a turn"),
            Problem::WrongNumber { written, expected } => write!(
                f,
                "starts at move {expected} (your opponent to move), not \"{written}\""
            ),
            Problem::Illegal {
                index,
                written,
                error,
            } => {
                let whose = if index % 2 == 0 {
                    "your opponent's"
                } else {
                    "your"
                };
                let why = match error.as_ref() {
                    PlayError::Illegal(error) => error.detail(),
                    PlayError::GameOver(end) => format!(
                        "the game is over by then ({} {})",
                        end.score(),
                        end.reason.describe()
                    ),
                };
                write!(
                    f,
                    "is refused at turn {} ({whose} {written}): {why}",
                    index + 1
                )
            }
            Problem::Ambiguous {
                theirs,
                kept,
                given,
            } => write!(
                f,
                "is ambiguous: your lines already answer {theirs} with {kept}, this one with {given} (to change an answer, clear your lines and give them again)"
            ),
            Problem::TooManyLines => write!(
                f,
                "would be one line too many: at most {} lines per board",
                crate::MAX_LINES
            ),
        }
    }
}

impl std::error::Error for LineError {}

#[cfg(test)]
mod tests {
    use super::*;
    use pbem_rules::Variant;

    fn chess_after(record: &str) -> Game {
        let mut game = Game::new(Variant::Chess);
        let parsed = parse_record(record).expect("readable record");
        for turn in parsed.turns {
            game.play(&turn.moves).expect("legal record");
        }
        game
    }

    fn texts(line: &Line) -> Vec<&str> {
        line.turns().iter().map(Entry::text).collect()
    }

    #[test]
    fn a_line_is_played_from_the_position_and_written_canonically() {
        let game = chess_after("1.e4");
        // A line of three turns ends with the opponent's: refused.
        let error = check(&game, Color::White, "  e7e5   Ng1-f3 Nb8c6 ").expect_err("odd");
        assert_eq!(error.problem, Problem::EndsWithTheirTurn);
        assert_eq!(error.line, "e7e5 Ng1-f3 Nb8c6");
        let line = check(&game, Color::White, "e7e5 Ng1-f3\tNb8c6 Bf1-b5").expect("legal");
        assert_eq!(line.written(), "e7e5 Ng1-f3 Nb8c6 Bf1-b5");
        assert_eq!(texts(&line), ["e5", "Nf3", "Nc6", "Bb5"]);
        assert_eq!(line.pairs().count(), 2);
    }

    #[test]
    fn move_numbers_that_fit_the_position_are_allowed() {
        let game = chess_after("1.e4 e5 2.Nf3");
        for written in [
            "2...Nc6 3.Bb5",
            "2... Nc6 3. Bb5",
            "2. ... Nc6 3.Bb5",
            "...Nc6 Bb5",
            "2…Nc6 3.Bb5 a6 4.Ba4",
            "Nc6 3.Bb5 3...a6 4.Ba4",
            "Nc6 Bb5",
        ] {
            let line =
                check(&game, Color::White, written).unwrap_or_else(|e| panic!("{written}: {e}"));
            assert_eq!(line.turns()[1].text(), "Bb5", "{written}");
        }
    }

    #[test]
    fn move_numbers_that_do_not_fit_are_refused() {
        let game = chess_after("1.e4 e5 2.Nf3");
        let error = check(&game, Color::White, "3...Nc6 4.Bb5").expect_err("wrong number");
        assert_eq!(
            error.problem,
            Problem::WrongNumber {
                written: "3...".into(),
                expected: "2...".into()
            }
        );
        assert!(error.to_string().contains("starts at move 2..."), "{error}");
        let error = check(&game, Color::White, "2...Nc6 4.Bb5").expect_err("later number");
        assert!(
            matches!(&error.problem, Problem::Unreadable(e)
                if matches!(**e, NotationError::WrongMoveNumber { expected: 3, .. })),
            "{error:?}"
        );
        let error = check(&game, Color::White, "Nc6 3...Bb5").expect_err("dots on White");
        assert!(
            matches!(&error.problem, Problem::Unreadable(e)
                if matches!(**e, NotationError::NotBlacksTurn { .. })),
            "{error:?}"
        );
        let error = check(&game, Color::White, "99999999999...Nc6 Bb5").expect_err("huge");
        assert!(
            matches!(error.problem, Problem::WrongNumber { .. }),
            "{error:?}"
        );
        // White to move: "..." marks Black's turn.
        let game = chess_after("1.e4 e5");
        let error = check(&game, Color::Black, "2...Nf3 Nc6").expect_err("not Black's");
        assert_eq!(
            error.problem,
            Problem::WrongNumber {
                written: "2...".into(),
                expected: "2.".into()
            }
        );
    }

    #[test]
    fn an_illegal_turn_refuses_the_line_naming_it() {
        let game = chess_after("1.e4");
        let error = check(&game, Color::White, "e5 Nf3 Nc6 Bb4").expect_err("illegal");
        let Problem::Illegal { index, written, .. } = &error.problem else {
            panic!("{error:?}");
        };
        assert_eq!((*index, written.as_str()), (3, "Bb4"));
        assert_eq!(
            error.to_string(),
            "the line \"e5 Nf3 Nc6 Bb4\" is refused at turn 4 (your Bb4): no bishop can reach b4"
        );
        let error = check(&game, Color::White, "Ke7 Nf3").expect_err("illegal");
        assert!(
            error.to_string().contains("turn 1 (your opponent's Ke7)"),
            "{error}"
        );
    }

    #[test]
    fn lines_start_with_the_opponents_turn() {
        let game = chess_after("1.e4");
        let error = check(&game, Color::Black, "e5 Nf3").expect_err("own turn");
        assert_eq!(error.problem, Problem::OwnerToMove);
        let error = check(&game, Color::White, "").expect_err("empty");
        assert_eq!(error.problem, Problem::Empty);
        let error = check(&game, Color::White, "e5 1-0").expect_err("result");
        assert_eq!(error.problem, Problem::NotATurn("1-0".into()));
        let error = check(&game, Color::White, "e5 Zz9").expect_err("unreadable");
        assert!(matches!(error.problem, Problem::Unreadable(_)), "{error:?}");
    }

    #[test]
    fn a_line_may_not_go_on_after_the_game_ends() {
        // 1.f3 e5 2.g4: Black mates with Qh4, so no White turn may follow.
        let game = chess_after("1.f3 e5");
        let error = check(&game, Color::Black, "g4 Qh4 Nc3 Nc6").expect_err("over");
        let Problem::Illegal {
            index, error: play, ..
        } = &error.problem
        else {
            panic!("{error:?}");
        };
        assert_eq!(*index, 2);
        assert!(matches!(**play, PlayError::GameOver(_)));
        let line = check(&game, Color::Black, "g4 Qh4").expect("mate");
        assert_eq!(line.turns()[1].text(), "Qh4#");
        let over = chess_after("1.f3 e5 2.g4 Qh4");
        let error = check(&over, Color::White, "Nc6 Nc3").expect_err("over");
        assert!(matches!(error.problem, Problem::GameOver(_)));
    }

    /// Twenty turns of a Ruy Lopez, from Black's first.
    pub(crate) const BREYER: &str =
        "e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8 d4 Nbd7 c4";

    #[test]
    fn long_lines_are_refused() {
        let game = chess_after("1.e4");
        let line = check(&game, Color::White, BREYER).expect("twenty turns");
        assert_eq!(line.turns().len(), MAX_TURNS_PER_LINE);
        let error = check(&game, Color::White, &format!("{BREYER} c6 Nc3")).expect_err("22");
        assert_eq!(error.problem, Problem::TooManyTurns(22));
        let error = check(&game, Color::White, &"Nc6 ".repeat(400)).expect_err("long");
        assert_eq!(error.problem, Problem::TooLong);
        assert!(error.line.chars().count() <= QUOTED_CHARS + 3);
    }

    #[test]
    fn a_line_that_repeats_the_position_five_times_ends_there() {
        let game = chess_after("1.e4");
        // The position after 1.e4 comes back after every fourth turn: the
        // fifth time (after turn 16) draws the game.
        let shuffle = "Nc6 Nc3 Nb8 Nb1 ".repeat(5);
        let error = check(&game, Color::White, &shuffle).expect_err("drawn");
        assert!(
            matches!(error.problem, Problem::Illegal { index: 16, .. }),
            "{error:?}"
        );
    }

    #[test]
    fn quoting_cuts_on_character_boundaries() {
        let long = "♞".repeat(200);
        assert_eq!(quoted(&long).chars().count(), QUOTED_CHARS + 3);
        assert_eq!(quoted("e5 Nf3"), "e5 Nf3");
    }
}
