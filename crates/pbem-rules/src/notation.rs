//! Reading chess notation as players write it.
//!
//! This module turns human-written text into typed values: whole game records
//! (PGN tags, numbered turns, a result) of chess and its double-move variants,
//! the single turn a player sends in a mail (`Nf6,d5`), and single moves in
//! standard algebraic notation (`Nf3`), long algebraic notation (`Ng1-f3`) or
//! UCI (`g1f3`), including the three-square moves of the doublestep variants
//! (`Nb1-c3-e4`). It knows nothing about the rules of any game: [`resolve`]
//! only finds which of a list of legal moves, computed elsewhere, a written
//! move means, leniently where players leave something out and only one
//! move fits (a capture without its `x`, lowercase piece letters).

use std::collections::VecDeque;
use std::fmt;

use shakmaty::{CastlingSide, File, Move, MoveList, Rank, Role, Square, san::San};

/// A whole game record: PGN tags, turns, and the result token if one was written.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub tags: Vec<(String, String)>,
    pub turns: Vec<RecordTurn>,
    pub result: Option<RecordResult>,
}

impl Record {
    /// The value of the first tag called `name` (PGN tag names are case-sensitive).
    #[must_use]
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Whether the first turn is Black's, i.e. its number was written `N...`.
    #[must_use]
    pub fn black_moves_first(&self) -> bool {
        self.turns.first().is_some_and(|turn| turn.black_hint)
    }
}

/// One player's whole turn as written, e.g. `Nf3,Bb5+`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTurn {
    /// The move number written before the turn, if any.
    pub number: Option<u32>,
    /// Whether the turn was written after `N...` (or `...`), marking it as Black's.
    pub black_hint: bool,
    /// The turn as written, without its move number, e.g. `Nf3,Bb5+` or `Nc3//`.
    pub text: String,
    pub moves: Vec<MoveText>,
}

/// One move as written, and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// The move as written, including annotations such as `+` or ` e.p.`.
    pub text: String,
    pub spec: MoveSpec,
}

/// How a game record says the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`, also written `½-½`
    Draw,
    /// `*`
    Unfinished,
}

impl fmt::Display for RecordResult {
    /// Writes the result as PGN does: `1-0`, `0-1`, `1/2-1/2` or `*`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RecordResult::WhiteWins => "1-0",
            RecordResult::BlackWins => "0-1",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Unfinished => "*",
        })
    }
}

/// The result tokens, as [`normalize_result`] writes them.
const RESULTS: [(&str, RecordResult); 4] = [
    ("1-0", RecordResult::WhiteWins),
    ("0-1", RecordResult::BlackWins),
    ("1/2-1/2", RecordResult::Draw),
    ("*", RecordResult::Unfinished),
];

/// What one written move says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveSpec {
    /// Standard algebraic notation (after normalisation), e.g. Nbd2, exd5, e8=Q, O-O.
    San(San),
    /// Coordinates: long algebraic (`e2-e4`, `Ng1-f3`, `Ng1xf3`, `e7xd8=Q`, `e7-e8Q`) or UCI (`e2e4`, `e7e8q`).
    /// `squares` has 2 entries for a normal move, 3 for a doublestep written `Nb1-c3-e4` / `Ne4-f6xe8`
    /// (a piece moving twice in one move, used by the doublestep/doubletime variants).
    Coordinates {
        role: Option<Role>,
        squares: Vec<Square>,
        /// One entry per step: whether it was written with `x` or `:`.
        captures: Vec<bool>,
        promotion: Option<Role>,
    },
}

/// Which of the candidate moves a written move means.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Resolution {
    /// Exactly this move.
    Unique(Move),
    /// None of the candidates.
    NoMatch,
    /// All of these moves (at least two).
    Ambiguous(Vec<Move>),
}

/// Why a text could not be read. Quoted texts are shortened excerpts of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text holds no move at all.
    NoMove,
    /// A move that is none of the accepted notations.
    NotAMove { text: String },
    /// A promotion to a king or a pawn.
    BadPromotion { text: String },
    /// Coordinates with more than three squares.
    TooManySquares { text: String },
    /// A joiner (`,` or `/`) or a turn end (`//`) with no move before it.
    EmptyMove { turn: String, joiner: String },
    /// A `{` comment, `(` variation or `[` tag that is never closed.
    Unclosed { opener: char, at: String },
    /// A `}`, `)` or `]` that closes nothing.
    Unopened { closer: char, at: String },
    /// A `[...]` that is not a PGN tag.
    BadTag { text: String },
    /// A move number that does not fit in 32 bits.
    NumberTooLarge { text: String },
    /// A move number followed by another one instead of a move.
    BareNumber { text: String },
    /// A move number that does not continue the record's numbering.
    WrongMoveNumber { turn: String, expected: u64 },
    /// A turn written after `N...` where White is to move.
    NotBlacksTurn { turn: String },
    /// An error in one move of a longer turn.
    InTurn {
        turn: String,
        error: Box<NotationError>,
    },
    /// [`parse_turn`] was given several turns.
    MoreThanOneTurn { text: String },
    /// [`parse_turn`] was given a game result.
    ResultInTurn { text: String },
}

/// How to write a move, for errors about text that is none.
const MOVE_FORMS: &str =
    "write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6";

impl NotationError {
    /// Writes an error about one move; `turn` is the turn it stands in,
    /// quoted after the move when the turn has more than that move.
    fn fmt_move(&self, f: &mut fmt::Formatter<'_>, turn: Option<&str>) -> fmt::Result {
        let within = turn.map_or(String::new(), |turn| format!(" in \"{turn}\""));
        match self {
            NotationError::NotAMove { text } => {
                write!(f, "\"{text}\"{within} is not a move: {MOVE_FORMS}")
            }
            NotationError::BadPromotion { text } => write!(
                f,
                "\"{text}\"{within}: a pawn can only promote to a queen, rook, bishop or knight (Q, R, B or N), like e8=Q"
            ),
            NotationError::TooManySquares { text } => write!(
                f,
                "\"{text}\"{within} has too many squares: a move has two, like g1-f3, or three for a piece moving twice, like Nb1-c3-e4"
            ),
            other => match turn {
                Some(turn) => write!(f, "in \"{turn}\": {other}"),
                None => fmt::Display::fmt(other, f),
            },
        }
    }
}

/// The words of `text` joined by commas, as one turn is written, if they
/// all read as moves and there are at most three (`e5 Nf6` -> `e5,Nf6`).
fn as_one_turn(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    (words.len() <= 3 && words.iter().all(|word| parse_move(word).is_ok())).then(|| words.join(","))
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::NoMove => f.write_str("no move written"),
            NotationError::NotAMove { .. }
            | NotationError::BadPromotion { .. }
            | NotationError::TooManySquares { .. } => self.fmt_move(f, None),
            NotationError::EmptyMove { turn, joiner } => {
                write!(f, "a move is missing before \"{joiner}\" in \"{turn}\"")
            }
            NotationError::Unclosed { opener, at } => {
                let what = match opener {
                    '{' => "comment",
                    '(' => "variation",
                    _ => "tag",
                };
                write!(f, "unclosed \"{opener}\" {what} starting at \"{at}\"")
            }
            NotationError::Unopened { closer, at } => {
                let opener = match closer {
                    '}' => '{',
                    ')' => '(',
                    _ => '[',
                };
                write!(
                    f,
                    "\"{closer}\" without a matching \"{opener}\" at \"{at}\""
                )
            }
            NotationError::BadTag { text } => write!(
                f,
                "\"{text}\": not a PGN tag (expected [Name \"value\"] on one line)"
            ),
            NotationError::NumberTooLarge { text } => {
                write!(f, "\"{text}\": move number too large")
            }
            NotationError::BareNumber { text } => {
                write!(f, "\"{text}\": move number without a move")
            }
            NotationError::WrongMoveNumber { turn, expected } => {
                write!(f, "\"{turn}\": expected move number {expected}")
            }
            NotationError::NotBlacksTurn { turn } => write!(
                f,
                "\"{turn}\": \"...\" marks a turn of Black, but White is to move here"
            ),
            NotationError::InTurn { turn, error } => error.fmt_move(f, Some(turn)),
            NotationError::MoreThanOneTurn { text } => {
                let example = as_one_turn(text).unwrap_or_else(|| "Nf3,Bb5".into());
                write!(
                    f,
                    "\"{text}\" is more than one turn: join the moves of one turn with a comma, like {example}"
                )
            }
            NotationError::ResultInTurn { text } => {
                write!(f, "\"{text}\": a game result is not a move")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Reads a whole game record.
///
/// Accepts PGN tags, `{}` and `;` comments, `( )` variations (skipped, also
/// when they hold prose), `$n` NAGs, move numbers (`1.e4`, `1. e4`, `1...c5`,
/// `3. ... Qc8`), turns of several moves joined by `,` or `/` (`//` ends a
/// turn) and a result token, after which everything is ignored. Move numbers
/// must follow the alternation of White and Black turns, which starts with
/// White unless the first number is written `N...`.
///
/// # Errors
///
/// Fails on the first thing that cannot be read, such as a move in no known
/// notation, an unclosed comment or a move number out of sequence; the error
/// quotes the offending text.
pub fn parse_record(text: &str) -> Result<Record, NotationError> {
    RecordParser::new(text).run()
}

/// One turn as a player types it in a mail: `Nf6,d5`, `Nf6/d5`, `Nf6, d5`, `e4`, `1.e4`, `e2e4,g1f3`, `Nb1-c3-e4`.
///
/// # Errors
///
/// Fails as [`parse_record`] does, and also if the text holds no move, more
/// than one turn, or a game result.
pub fn parse_turn(text: &str) -> Result<Vec<MoveText>, NotationError> {
    let record = parse_record(text)?;
    if record.result.is_some() {
        return Err(NotationError::ResultInTurn {
            text: excerpt(text),
        });
    }
    let mut turns = record.turns.into_iter();
    match (turns.next(), turns.next()) {
        (None, _) => Err(NotationError::NoMove),
        (Some(turn), None) => Ok(turn.moves),
        (Some(_), Some(_)) => Err(NotationError::MoreThanOneTurn {
            text: excerpt(text),
        }),
    }
}

/// Reads one move: SAN (`Nf3`, `exd5`, `d:e4`, `e8=Q`, `O-O`, `000`), long
/// algebraic (`Ng1-f3`, `e7xd8=Q`, `Nb1-c3-e4`) or UCI (`g1f3`, `e7e8q`).
///
/// Annotations (`+ # ! ? !! ?? !? ?!`, `e.p.`) are ignored, a trailing `:` is
/// an old capture sign, figurines (`♘f3`) are read as piece letters.
///
/// # Errors
///
/// Fails if the text is empty or is no move in any of these notations.
pub fn parse_move(text: &str) -> Result<MoveSpec, NotationError> {
    let not_a_move = || NotationError::NotAMove {
        text: excerpt(text),
    };
    let (body, capture_mark) = strip_annotations(text);
    if body.is_empty() {
        return Err(if text.trim().is_empty() {
            NotationError::NoMove
        } else {
            not_a_move()
        });
    }
    let body = normalize_move(body).ok_or_else(not_a_move)?;
    if let Some(side) = castling_side(&body) {
        return Ok(MoveSpec::San(San::Castle(side)));
    }
    let (body, promotion) = split_promotion(&body).ok_or_else(not_a_move)?;
    let promotion = match promotion {
        Some(Role::Pawn | Role::King) => {
            return Err(NotationError::BadPromotion {
                text: excerpt(text),
            });
        }
        promotion => promotion,
    };
    // Lowercase piece letters are read too, except `b`, which is a file
    // first (`bxc6`); see [`resolve`] for when it is the bishop.
    let (role, body) = match body.chars().next() {
        Some(letter @ ('K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'n' | 'p')) => {
            (Role::from_char(letter), &body[1..])
        }
        _ => (None, body),
    };
    let parts = scan_parts(body).ok_or_else(not_a_move)?;
    let square_count = parts
        .iter()
        .filter(|part| matches!(part, Part::Square(_)))
        .count();
    match square_count {
        0 => Err(not_a_move()),
        1 => san_from_parts(role, &parts, capture_mark, promotion)
            .map(MoveSpec::San)
            .ok_or_else(not_a_move),
        2 | 3 => coordinates_from_parts(role, &parts, capture_mark, promotion)
            .or_else(|| lowercase_bishop_coordinates(role, body, capture_mark, promotion))
            .ok_or_else(not_a_move),
        _ => Err(NotationError::TooManySquares {
            text: excerpt(text),
        }),
    }
}

/// Finds which of `candidates` a written move means.
///
/// A move is first read as written. Where that matches nothing, the
/// readings that players commonly mean are tried, and the moves they match
/// together decide: a SAN capture written without its `x` (`Qh7` for
/// `Qxh7`, `ed5` for `exd5`), and a pawn move from the b-file written with
/// a lowercase `b` read as a bishop move (`bxc6` is the pawn's capture where
/// a pawn can make it, else `Bxc6`; `bc6` where both fit is ambiguous).
///
/// SAN matches as [`San::matches`] does. Coordinates match on from and to
/// squares, the piece if one was written, and the promotion piece if one was
/// written. A promotion written without its piece matches every promotion
/// piece, so it is ambiguous rather than a queen by default (in SAN too).
/// Castling written as a king move (`e1g1`, `Ke1-g1`) or as the king taking
/// its own rook (`e1h1`) matches the castling move, unless the same squares
/// also name a plain move. Where the same squares name both a capture and a
/// quiet move (an en passant capture of a doublestepper beside a quiet move
/// onto the square it passed), the written capture sign decides. Three-square coordinates never match here: the
/// doublestep variants resolve those themselves.
#[must_use]
pub fn resolve(spec: &MoveSpec, candidates: &MoveList) -> Resolution {
    let mut matching = matching(spec, candidates);
    if matching.is_empty() {
        for reading in lenient_readings(spec) {
            for m in self::matching(&MoveSpec::San(reading), candidates) {
                if !matching.contains(&m) {
                    matching.push(m);
                }
            }
        }
    }
    match matching.as_slice() {
        [] => Resolution::NoMatch,
        &[m] => Resolution::Unique(m),
        _ => Resolution::Ambiguous(matching),
    }
}

/// The readings of a SAN move that [`resolve`] tries when it matches
/// nothing as written: with the capture sign added, and a b-file pawn move
/// as a bishop move (with and without the capture sign).
fn lenient_readings(spec: &MoveSpec) -> Vec<San> {
    let &MoveSpec::San(San::Normal {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    }) = spec
    else {
        return Vec::new();
    };
    let mut readings = Vec::new();
    let mut push = |role, file, capture| {
        readings.push(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        });
    };
    if !capture {
        push(role, file, true);
    }
    if role == Role::Pawn && file == Some(File::B) && rank.is_none() && promotion.is_none() {
        push(Role::Bishop, None, capture);
        if !capture {
            push(Role::Bishop, None, true);
        }
    }
    readings
}

/// The candidates that a written move means as written.
fn matching(spec: &MoveSpec, candidates: &MoveList) -> Vec<Move> {
    match spec {
        MoveSpec::San(san) => candidates
            .iter()
            .copied()
            .filter(|&m| san_matches(*san, m))
            .collect(),
        MoveSpec::Coordinates {
            role,
            squares,
            captures,
            promotion,
        } => match squares.as_slice() {
            &[from, to] => {
                let capture = captures.first().copied().unwrap_or(false);
                coordinate_matches(*role, from, to, capture, *promotion, candidates)
            }
            _ => Vec::new(),
        },
    }
}

/// Says in words what a written move aims at, for error messages, e.g.
/// "a bishop to b4", "a pawn to e4", "castling queenside", "a knight from g1 to f3".
#[must_use]
pub fn describe_target(spec: &MoveSpec) -> String {
    let (mut text, promotion) = match spec {
        MoveSpec::San(San::Normal {
            role,
            to,
            promotion,
            ..
        }) => (format!("{} to {to}", a_role(*role)), *promotion),
        MoveSpec::San(San::Castle(CastlingSide::KingSide)) => ("castling kingside".into(), None),
        MoveSpec::San(San::Castle(CastlingSide::QueenSide)) => ("castling queenside".into(), None),
        MoveSpec::San(San::Put { role, to }) => {
            (format!("{} dropped on {to}", a_role(*role)), None)
        }
        MoveSpec::San(San::Null) => ("a null move".into(), None),
        MoveSpec::Coordinates {
            role,
            squares,
            promotion,
            ..
        } => {
            let mut text = String::from(role.map_or("a move", a_role));
            if let Some((to, path)) = squares.split_last() {
                for (i, square) in path.iter().enumerate() {
                    text.push_str(if i == 0 { " from " } else { " via " });
                    text.push_str(&square.to_string());
                }
                text.push_str(" to ");
                text.push_str(&to.to_string());
            }
            (text, *promotion)
        }
    };
    if let Some(piece) = promotion {
        text.push_str(" promoting to ");
        text.push_str(a_role(piece));
    }
    text
}

fn a_role(role: Role) -> &'static str {
    match role {
        Role::Pawn => "a pawn",
        Role::Knight => "a knight",
        Role::Bishop => "a bishop",
        Role::Rook => "a rook",
        Role::Queen => "a queen",
        Role::King => "a king",
    }
}

/// Whether `san` means `m`, where a promotion written without its piece
/// means every promotion piece.
fn san_matches(san: San, m: Move) -> bool {
    match (san, m.promotion()) {
        (
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion: None,
            },
            Some(piece),
        ) => San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion: Some(piece),
        }
        .matches(m),
        _ => san.matches(m),
    }
}

fn coordinate_matches(
    role: Option<Role>,
    from: Square,
    to: Square,
    capture: bool,
    promotion: Option<Role>,
    candidates: &MoveList,
) -> Vec<Move> {
    let role_fits = |moved: Role| role.is_none_or(|written| written == moved);
    // `Move::to` of a castling move is the rook's square: king takes own rook.
    let mut literal: Vec<Move> = candidates
        .iter()
        .copied()
        .filter(|&m| {
            role_fits(m.role())
                && m.from() == Some(from)
                && m.to() == to
                && promotion.is_none_or(|piece| m.promotion() == Some(piece))
        })
        .collect();
    if literal.iter().any(|m| m.is_capture()) && literal.iter().any(|m| !m.is_capture()) {
        literal.retain(|m| m.is_capture() == capture);
    }
    if !literal.is_empty() || promotion.is_some() || !role_fits(Role::King) {
        return literal;
    }
    candidates
        .iter()
        .copied()
        .filter(|&m| match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::from_king_side(king < rook);
                king == from && Square::from_coords(side.king_to_file(), king.rank()) == to
            }
            _ => false,
        })
        .collect()
}

/// Longest excerpt of the input quoted in an error message, in characters.
const EXCERPT_CHARS: usize = 32;

/// A short, single-line excerpt of `text` for error messages.
fn excerpt(text: &str) -> String {
    let mut chars = text
        .split_whitespace()
        .flat_map(|word| std::iter::once(' ').chain(word.chars()))
        .skip(1);
    let mut out: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() {
        out.truncate(out.trim_end().len());
        out.push_str("...");
    }
    out
}

/// Appends `piece` to `text`, separated by a space if it began a new word of the input.
fn append(text: &mut String, piece: &str, new_word: bool) {
    if new_word && !text.is_empty() {
        text.push(' ');
    }
    text.push_str(piece);
}

// ---------------------------------------------------------------------------
// Records: lexing

/// What the lexer finds between whitespace, comments, variations and NAGs.
enum Token<'a> {
    /// A run of text: a move number, moves and joiners, a result, or prose.
    Word(&'a str),
    /// A PGN tag `[Name "value"]`.
    Tag(String, String),
}

struct Lexer<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Lexer<'a> {
    fn next_token(&mut self) -> Result<Option<Token<'a>>, NotationError> {
        loop {
            let rest = &self.text[self.pos..];
            let Some(c) = rest.chars().next() else {
                return Ok(None);
            };
            match c {
                c if c.is_whitespace() => self.pos += c.len_utf8(),
                '{' => self.pos += closing_brace(rest)? + 1,
                ';' => self.pos += rest.find('\n').unwrap_or(rest.len()),
                '$' => {
                    let digits = rest[1..].find(|c: char| !c.is_ascii_digit());
                    self.pos += 1 + digits.unwrap_or(rest.len() - 1);
                }
                '(' => self.skip_variation()?,
                '[' => return self.tag().map(Some),
                '}' | ')' | ']' => {
                    return Err(NotationError::Unopened {
                        closer: c,
                        at: excerpt(rest),
                    });
                }
                _ => return Ok(Some(Token::Word(self.word()))),
            }
        }
    }

    /// Reads a word; `(Q)` right after a word is a promotion and stays in it.
    fn word(&mut self) -> &'a str {
        let rest = &self.text[self.pos..];
        let mut end = 0;
        while let Some(c) = rest[end..].chars().next() {
            if is_promotion_in_parens(&rest[end..]) {
                end += 3;
            } else if c.is_whitespace() || "{};$()[]".contains(c) {
                break;
            } else {
                end += c.len_utf8();
            }
        }
        self.pos += end;
        &rest[..end]
    }

    /// Skips a variation, which may nest and hold comments and prose.
    fn skip_variation(&mut self) -> Result<(), NotationError> {
        let mut pos = self.pos;
        let mut depth = 0_usize;
        loop {
            let rest = &self.text[pos..];
            let Some(i) = rest.find(['(', ')', '{']) else {
                return Err(unclosed('(', &self.text[self.pos..]));
            };
            pos += i;
            match rest.as_bytes()[i] {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        self.pos = pos + 1;
                        return Ok(());
                    }
                }
                _ => pos += closing_brace(&self.text[pos..])?,
            }
            pos += 1;
        }
    }

    /// Reads a tag `[Name "value"]` (or `[Name value]`), which must end on its line.
    fn tag(&mut self) -> Result<Token<'a>, NotationError> {
        let rest = &self.text[self.pos..];
        let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
        let bad_tag = || NotationError::BadTag {
            text: excerpt(line),
        };
        let inner = line[1..].trim_start();
        let name_len = inner
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(inner.len());
        if name_len == 0 {
            return Err(bad_tag());
        }
        let (name, after_name) = inner.split_at(name_len);
        let after_name = after_name.trim_start();
        let (value, after_value) = match after_name.strip_prefix('"') {
            Some(quoted) => read_quoted(quoted).ok_or_else(|| unclosed('[', line))?,
            None => {
                let end = after_name.find(']').ok_or_else(|| unclosed('[', line))?;
                let (value, after_value) = after_name.split_at(end);
                (value.trim_end().to_string(), after_value)
            }
        };
        let after_value = after_value.trim_start();
        if after_value.is_empty() {
            return Err(unclosed('[', line));
        }
        if !after_value.starts_with(']') {
            return Err(bad_tag());
        }
        self.pos += line.len() - after_value.len() + 1;
        Ok(Token::Tag(name.to_string(), value))
    }
}

/// The index of the `}` that closes the comment `text` starts with.
fn closing_brace(text: &str) -> Result<usize, NotationError> {
    text.find('}').ok_or_else(|| unclosed('{', text))
}

fn unclosed(opener: char, text: &str) -> NotationError {
    NotationError::Unclosed {
        opener,
        at: excerpt(text),
    }
}

/// Whether `text` starts with a promotion piece in parentheses, as in `e8(Q)`.
fn is_promotion_in_parens(text: &str) -> bool {
    matches!(
        text.as_bytes(),
        [
            b'(',
            b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n',
            b')',
            ..
        ]
    )
}

/// Reads a PGN string after its opening quote: the value, and the text after the closing quote.
fn read_quoted(text: &str) -> Option<(String, &str)> {
    let mut value = String::new();
    let mut chars = text.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((value, &text[i + 1..])),
            '\\' => value.push(chars.next()?.1),
            c => value.push(c),
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Records: turns

/// A move number and `...` read before the turn they belong to.
#[derive(Default)]
struct Pending {
    number: Option<u32>,
    black_hint: bool,
    written: String,
}

/// The turn being read.
struct TurnBuilder {
    number: Option<u32>,
    black_hint: bool,
    /// The turn with its move number, for error messages.
    written: String,
    text: String,
    moves: Vec<String>,
    /// Whether the last thing read was a joiner, so that the next move continues this turn.
    awaiting_move: bool,
}

struct RecordParser<'a> {
    lexer: Lexer<'a>,
    /// Tokens read ahead to recognise results written with spaces, like `½ – ½`.
    lookahead: VecDeque<Token<'a>>,
    record: Record,
    pending: Pending,
    current: Option<TurnBuilder>,
    /// The move number of the next turn, and whether it is Black's.
    expected: Option<(u64, bool)>,
}

impl<'a> RecordParser<'a> {
    fn new(text: &'a str) -> Self {
        RecordParser {
            lexer: Lexer { text, pos: 0 },
            lookahead: VecDeque::new(),
            record: Record::default(),
            pending: Pending::default(),
            current: None,
            expected: None,
        }
    }

    fn run(mut self) -> Result<Record, NotationError> {
        while let Some(token) = self.next_token()? {
            match token {
                Token::Tag(name, value) => self.record.tags.push((name, value)),
                Token::Word(word) => {
                    if let Some(result) = self.result_starting_with(word)? {
                        self.record.result = Some(result);
                        break;
                    }
                    self.word(word)?;
                }
            }
        }
        // A move number after the last turn (`1.e4 e5 2.`) only says who is to move.
        self.close_turn()?;
        Ok(self.record)
    }

    fn next_token(&mut self) -> Result<Option<Token<'a>>, NotationError> {
        match self.lookahead.pop_front() {
            Some(token) => Ok(Some(token)),
            None => self.lexer.next_token(),
        }
    }

    /// The result that `word`, maybe with the next two words, spells; those words are consumed.
    fn result_starting_with(&mut self, word: &str) -> Result<Option<RecordResult>, NotationError> {
        let mut written = normalize_result(word);
        let mut extra = 0;
        loop {
            if let Some(&(_, result)) = RESULTS.iter().find(|(token, _)| *token == written) {
                self.lookahead.drain(..extra);
                return Ok(Some(result));
            }
            if extra == 2 || !RESULTS.iter().any(|(token, _)| token.starts_with(&written)) {
                return Ok(None);
            }
            if self.lookahead.len() == extra {
                match self.lexer.next_token()? {
                    Some(token) => self.lookahead.push_back(token),
                    None => return Ok(None),
                }
            }
            match &self.lookahead[extra] {
                Token::Word(next) => written.push_str(&normalize_result(next)),
                Token::Tag(..) => return Ok(None),
            }
            extra += 1;
        }
    }

    /// Splits a word into move number, `...`, moves, joiners and turn ends.
    fn word(&mut self, word: &'a str) -> Result<(), NotationError> {
        let mut rest = word;
        let mut new_word = true;
        if let Some((number, after)) = split_number(rest) {
            self.number(number)?;
            rest = after;
            new_word = false;
        }
        if let Some((dots, after)) = split_ellipsis(rest) {
            self.ellipsis(dots, new_word)?;
            rest = after;
            new_word = false;
        }
        while !rest.is_empty() {
            let end = rest.find([',', '/']).unwrap_or(rest.len());
            let (piece, after) = if end > 0 {
                rest.split_at(end)
            } else if rest.starts_with("//") {
                rest.split_at(2)
            } else {
                rest.split_at(1)
            };
            match piece {
                "//" => self.turn_end(new_word)?,
                "," | "/" => self.joiner(piece, new_word)?,
                _ => self.piece(piece, new_word)?,
            }
            rest = after;
            new_word = false;
        }
        Ok(())
    }

    fn number(&mut self, text: &str) -> Result<(), NotationError> {
        self.close_turn()?;
        if self.pending.number.is_some() {
            return Err(NotationError::BareNumber {
                text: excerpt(&self.pending.written),
            });
        }
        let digits = text.trim_end_matches(['.', '…']);
        let number = digits.parse().map_err(|_| NotationError::NumberTooLarge {
            text: excerpt(text),
        })?;
        let dots = &text[digits.len()..];
        self.pending.number = Some(number);
        self.pending.black_hint |= dots.contains('…') || dots.len() >= 2;
        append(&mut self.pending.written, text, true);
        Ok(())
    }

    fn ellipsis(&mut self, dots: &str, new_word: bool) -> Result<(), NotationError> {
        self.close_turn()?;
        self.pending.black_hint = true;
        append(&mut self.pending.written, dots, new_word);
        Ok(())
    }

    /// A move, or an annotation (`e.p.`, `!!`) of the move before it.
    fn piece(&mut self, piece: &str, new_word: bool) -> Result<(), NotationError> {
        if let Some(turn) = &mut self.current {
            let continues =
                if let Some(last) = turn.moves.last_mut().filter(|_| is_annotation(piece)) {
                    append(last, piece, new_word);
                    true
                } else if turn.awaiting_move {
                    turn.moves.push(piece.to_string());
                    turn.awaiting_move = false;
                    true
                } else {
                    false
                };
            if continues {
                append(&mut turn.written, piece, new_word);
                append(&mut turn.text, piece, new_word);
                return Ok(());
            }
        }
        self.close_turn()?;
        let pending = std::mem::take(&mut self.pending);
        let mut written = pending.written;
        append(&mut written, piece, new_word);
        self.current = Some(TurnBuilder {
            number: pending.number,
            black_hint: pending.black_hint,
            written,
            text: piece.to_string(),
            moves: vec![piece.to_string()],
            awaiting_move: false,
        });
        Ok(())
    }

    fn joiner(&mut self, joiner: &str, new_word: bool) -> Result<(), NotationError> {
        match &mut self.current {
            Some(turn) if !turn.awaiting_move => {
                turn.awaiting_move = true;
                append(&mut turn.written, joiner, new_word);
                append(&mut turn.text, joiner, new_word);
                Ok(())
            }
            current => {
                let mut written = match current {
                    Some(turn) => turn.written.clone(),
                    None => self.pending.written.clone(),
                };
                append(&mut written, joiner, new_word);
                Err(NotationError::EmptyMove {
                    turn: excerpt(&written),
                    joiner: joiner.to_string(),
                })
            }
        }
    }

    /// `//`: the turn ends here, even with one move.
    fn turn_end(&mut self, new_word: bool) -> Result<(), NotationError> {
        let Some(turn) = &mut self.current else {
            let mut written = self.pending.written.clone();
            append(&mut written, "//", new_word);
            return Err(NotationError::EmptyMove {
                turn: excerpt(&written),
                joiner: "//".to_string(),
            });
        };
        append(&mut turn.written, "//", new_word);
        append(&mut turn.text, "//", new_word);
        self.close_turn()
    }

    /// Checks the numbering of the turn being read, reads its moves and adds it to the record.
    fn close_turn(&mut self) -> Result<(), NotationError> {
        let Some(turn) = self.current.take() else {
            return Ok(());
        };
        let (expected, black_to_move) = self
            .expected
            .unwrap_or((turn.number.map_or(1, u64::from), turn.black_hint));
        if let Some(number) = turn.number
            && u64::from(number) != expected
        {
            return Err(NotationError::WrongMoveNumber {
                turn: excerpt(&turn.written),
                expected,
            });
        }
        if turn.black_hint && !black_to_move {
            return Err(NotationError::NotBlacksTurn {
                turn: excerpt(&turn.written),
            });
        }
        self.expected = Some(if black_to_move {
            (expected + 1, false)
        } else {
            (expected, true)
        });
        let mut moves = Vec::with_capacity(turn.moves.len());
        for text in turn.moves {
            match parse_move(&text) {
                Ok(spec) => moves.push(MoveText { text, spec }),
                Err(error) if text == turn.written => return Err(error),
                Err(error) => {
                    return Err(NotationError::InTurn {
                        turn: excerpt(&turn.written),
                        error: Box::new(error),
                    });
                }
            }
        }
        self.record.turns.push(RecordTurn {
            number: turn.number,
            black_hint: turn.black_hint,
            text: turn.text,
            moves,
        });
        Ok(())
    }
}

/// Writes a possible result token as in [`RESULTS`]: `½` as `1/2`, dashes as `-`.
fn normalize_result(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '½' => out.push_str("1/2"),
            '–' | '—' | '−' => out.push('-'),
            c => out.push(c),
        }
    }
    out
}

/// Splits a leading move number with its dots (`12.`, `1...`, `1…`) from the rest of a word.
fn split_number(word: &str) -> Option<(&str, &str)> {
    let digits = word
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(word.len());
    let dots = dots_len(&word[digits..]);
    (digits > 0 && dots > 0).then(|| word.split_at(digits + dots))
}

/// Splits a leading `...` (or `…`), marking a turn of Black, from the rest of a word.
fn split_ellipsis(word: &str) -> Option<(&str, &str)> {
    let (dots, rest) = word.split_at(dots_len(word));
    (dots.contains('…') || dots.len() >= 2).then_some((dots, rest))
}

/// The length in bytes of the run of `.` and `…` that `text` starts with.
fn dots_len(text: &str) -> usize {
    text.find(|c: char| c != '.' && c != '…')
        .unwrap_or(text.len())
}

/// Whether a piece of a turn is only an annotation, like `e.p.`, `!!` or `+`.
fn is_annotation(piece: &str) -> bool {
    let (rest, capture_mark) = strip_annotations(piece);
    rest.is_empty() && !capture_mark
}

// ---------------------------------------------------------------------------
// Moves

/// Strips trailing annotations (`+ # ! ? e.p.` and similar, and a full
/// stop ending a sentence) and a trailing capture sign `:` from a move;
/// returns the rest and whether `:` was there.
fn strip_annotations(text: &str) -> (&str, bool) {
    const GLYPHS: [char; 10] = ['+', '#', '!', '?', '‼', '⁇', '⁈', '⁉', '†', '.'];
    let mut rest = text.trim();
    let mut capture_mark = false;
    loop {
        if let Some(before) = rest.strip_suffix(GLYPHS) {
            rest = before;
        } else if let Some(before) = rest.strip_suffix(':') {
            rest = before;
            capture_mark = true;
        } else if let Some(before) = ["e.p.", "e.p", "ep"]
            .iter()
            .find_map(|suffix| strip_suffix_ignore_case(rest, suffix))
        {
            rest = before;
        } else {
            return (rest, capture_mark);
        }
        rest = rest.trim_end();
    }
}

fn strip_suffix_ignore_case<'t>(text: &'t str, suffix: &str) -> Option<&'t str> {
    let start = text.len().checked_sub(suffix.len())?;
    text.get(start..)
        .filter(|end| end.eq_ignore_ascii_case(suffix))
        .map(|_| &text[..start])
}

/// Rewrites a move in plain ASCII: figurines as piece letters, dashes as `-`,
/// `×` and `:` as `x`. `None` if something else is not ASCII or is whitespace.
fn normalize_move(text: &str) -> Option<String> {
    text.chars()
        .map(|c| match c {
            '♔' | '♚' => Some('K'),
            '♕' | '♛' => Some('Q'),
            '♖' | '♜' => Some('R'),
            '♗' | '♝' => Some('B'),
            '♘' | '♞' => Some('N'),
            '♙' | '♟' => Some('P'),
            '‐' | '‑' | '–' | '—' | '−' => Some('-'),
            '×' | ':' => Some('x'),
            c if c.is_ascii_graphic() => Some(c),
            _ => None,
        })
        .collect()
}

/// The side of a castling written `O-O`, `0-0-0`, `000`, `o-o` and so on.
fn castling_side(text: &str) -> Option<CastlingSide> {
    if !text.chars().all(|c| matches!(c, 'O' | 'o' | '0' | '-')) {
        return None;
    }
    match text.chars().filter(|&c| c != '-').count() {
        2 => Some(CastlingSide::KingSide),
        3 => Some(CastlingSide::QueenSide),
        _ => None,
    }
}

/// Splits a promotion (`=Q`, `(Q)`, or a bare `Q`/`q` after a rank) from the
/// end of an ASCII move. `None` if the letter after `=` or in `( )` is no piece.
fn split_promotion(text: &str) -> Option<(&str, Option<Role>)> {
    let bytes = text.as_bytes();
    let piece = |letter: u8| Role::from_char(char::from(letter));
    Some(match bytes {
        [.., b'(', letter, b')'] => (&text[..text.len() - 3], Some(piece(*letter)?)),
        [.., b'=', letter] => (&text[..text.len() - 2], Some(piece(*letter)?)),
        [
            ..,
            b'1'..=b'8',
            letter @ (b'Q' | b'R' | b'B' | b'N' | b'q' | b'r' | b'b' | b'n'),
        ] => (&text[..text.len() - 1], piece(*letter)),
        _ => (text, None),
    })
}

/// The pieces of a move after its piece letter and before its promotion.
#[derive(Clone, Copy)]
enum Part {
    Square(Square),
    File(File),
    Rank(Rank),
    /// `x` (or `:`)
    Capture,
    /// `-`
    Dash,
}

fn scan_parts(text: &str) -> Option<Vec<Part>> {
    let mut parts = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let part = if let Some(file) = File::from_char(c) {
            match chars.peek().and_then(|&next| Rank::from_char(next)) {
                Some(rank) => {
                    chars.next();
                    Part::Square(Square::from_coords(file, rank))
                }
                None => Part::File(file),
            }
        } else if let Some(rank) = Rank::from_char(c) {
            Part::Rank(rank)
        } else {
            match c {
                'x' => Part::Capture,
                '-' => Part::Dash,
                _ => return None,
            }
        };
        parts.push(part);
    }
    Some(parts)
}

/// SAN: `[file][rank][x]square`, with one square.
fn san_from_parts(
    role: Option<Role>,
    parts: &[Part],
    capture_mark: bool,
    promotion: Option<Role>,
) -> Option<San> {
    let [before @ .., Part::Square(to)] = parts else {
        return None;
    };
    let (file, before) = match before {
        [Part::File(file), rest @ ..] => (Some(*file), rest),
        _ => (None, before),
    };
    let (rank, before) = match before {
        [Part::Rank(rank), rest @ ..] => (Some(*rank), rest),
        _ => (None, before),
    };
    let capture = match before {
        [] => capture_mark,
        [Part::Capture] => true,
        _ => return None,
    };
    Some(San::Normal {
        role: role.unwrap_or(Role::Pawn),
        file,
        rank,
        capture,
        to: *to,
        promotion,
    })
}

/// Coordinates after a lowercase `b` that is no file (`bc1-e3`, `bf1c4`):
/// the bishop's move.
fn lowercase_bishop_coordinates(
    role: Option<Role>,
    body: &str,
    capture_mark: bool,
    promotion: Option<Role>,
) -> Option<MoveSpec> {
    let rest = body.strip_prefix('b').filter(|_| role.is_none())?;
    let parts = scan_parts(rest)?;
    coordinates_from_parts(Some(Role::Bishop), &parts, capture_mark, promotion)
}

/// Coordinates: squares, each after the first optionally preceded by `-` or `x`.
fn coordinates_from_parts(
    role: Option<Role>,
    parts: &[Part],
    capture_mark: bool,
    promotion: Option<Role>,
) -> Option<MoveSpec> {
    let [Part::Square(first), rest @ ..] = parts else {
        return None;
    };
    let mut squares = vec![*first];
    let mut captures = Vec::new();
    // The separator read since the last square: `Some(true)` for `x`, `Some(false)` for `-`.
    let mut separator = None;
    for part in rest {
        match *part {
            Part::Square(square) => {
                squares.push(square);
                captures.push(separator.take() == Some(true));
            }
            Part::Capture if separator.is_none() => separator = Some(true),
            Part::Dash if separator.is_none() => separator = Some(false),
            _ => return None,
        }
    }
    if separator.is_some() {
        return None;
    }
    if capture_mark && let Some(last) = captures.last_mut() {
        *last = true;
    }
    Some(MoveSpec::Coordinates {
        role,
        squares,
        captures,
        promotion,
    })
}

#[cfg(test)]
mod tests {
    use shakmaty::{Chess, Position, fen::Fen};

    use super::*;

    fn san(text: &str) -> MoveSpec {
        MoveSpec::San(text.parse().expect("valid SAN in test"))
    }

    fn coordinates(role: Option<Role>, squares: &[Square], captures: &[bool]) -> MoveSpec {
        MoveSpec::Coordinates {
            role,
            squares: squares.to_vec(),
            captures: captures.to_vec(),
            promotion: None,
        }
    }

    fn texts(record: &Record) -> Vec<&str> {
        record.turns.iter().map(|turn| turn.text.as_str()).collect()
    }

    fn move_texts(moves: &[MoveText]) -> Vec<&str> {
        moves.iter().map(|m| m.text.as_str()).collect()
    }

    fn error(result: Result<impl fmt::Debug, NotationError>) -> String {
        result.expect_err("should not parse").to_string()
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("valid FEN in test")
            .into_position(shakmaty::CastlingMode::Standard)
            .expect("legal position in test")
    }

    fn resolve_in(pos: &Chess, text: &str) -> Resolution {
        resolve(
            &parse_move(text).expect("valid move in test"),
            &pos.legal_moves(),
        )
    }

    #[test]
    fn records_of_chess_and_doublemove() {
        let record = parse_record("1.e4 c5,d6 2.Bb5+ Nd7").unwrap();
        assert_eq!(texts(&record), ["e4", "c5,d6", "Bb5+", "Nd7"]);
        assert_eq!(record.turns[0].number, Some(1));
        assert_eq!(record.turns[1].number, None);
        assert_eq!(record.turns[2].number, Some(2));
        assert_eq!(move_texts(&record.turns[1].moves), ["c5", "d6"]);
        assert_eq!(record.turns[2].moves[0].spec, san("Bb5"));
        assert_eq!(record.result, None);
        assert!(!record.black_moves_first());

        let record = parse_record("1.e4 c5,d6\n2.Nf3,Bb5+ Nd7,Nf6").unwrap();
        assert_eq!(texts(&record), ["e4", "c5,d6", "Nf3,Bb5+", "Nd7,Nf6"]);

        let record = parse_record("1.d4 Nf6,c5\n2.c4,d5 e5\n3.Nc3  ").unwrap();
        assert_eq!(texts(&record), ["d4", "Nf6,c5", "c4,d5", "e5", "Nc3"]);
        assert_eq!(record.turns[4].number, Some(3));
    }

    #[test]
    fn doublemove_record_with_old_notation_and_prose_variation() {
        let text = "1.Nc3// Nc6/e6 2.Nf3/e3 Bb4/b6 3.Ba6/B:c8 (if 3.a3/a:b4?? then N:b4/Qg5!! \
                    and Black wins. In fact after the forced 4.Qe2/Kd1, Qf5/N:c2! decides) \
                    3. ... Q:c8/Nf6 4.Ne4/c3 N:e4/Qa6 5.Qe2/Q:a6 Nb8/N:a6 6.Ng5/N:e4 d5/d:e4 \
                    7.c:b4/Ke2 N:b4/000 8.Rb1/d4 R:d4/Nc2!!";
        let record = parse_record(text).unwrap();
        assert_eq!(record.turns.len(), 16);
        let first = &record.turns[0];
        assert_eq!(first.text, "Nc3//");
        assert_eq!(move_texts(&first.moves), ["Nc3"]);
        let black_three = &record.turns[5];
        assert_eq!(black_three.number, Some(3));
        assert!(black_three.black_hint);
        assert_eq!(black_three.text, "Q:c8/Nf6");
        assert_eq!(black_three.moves[0].spec, san("Qxc8"));
        assert_eq!(record.turns[4].moves[1].spec, san("Bxc8"));
        assert_eq!(record.turns[11].moves[1].spec, san("dxe4"));
        assert_eq!(record.turns[12].moves[0].spec, san("cxb4"));
        assert_eq!(record.turns[13].moves[1].spec, san("O-O-O"));
        let last = &record.turns[15];
        assert_eq!(last.text, "R:d4/Nc2!!");
        assert_eq!(last.moves[1].spec, san("Nc2"));
        assert_eq!(record.turns.len() % 2, 0, "the last turn is Black's");
    }

    #[test]
    fn results() {
        let record = parse_record("30.Nxc4 Kxc4\n31.exf5 ½ – ½").unwrap();
        assert_eq!(texts(&record), ["Nxc4", "Kxc4", "exf5"]);
        assert_eq!(record.turns[0].number, Some(30));
        assert_eq!(record.result, Some(RecordResult::Draw));
        for (text, result) in [
            ("1.e4 1-0", RecordResult::WhiteWins),
            ("1.e4 0-1", RecordResult::BlackWins),
            ("1.e4 1/2-1/2", RecordResult::Draw),
            ("1.e4 1/2 - 1/2", RecordResult::Draw),
            ("1.e4 ½-½", RecordResult::Draw),
            ("1.e4 ½–½", RecordResult::Draw),
            ("1.e4 ½ –½", RecordResult::Draw),
            ("1.e4 *", RecordResult::Unfinished),
            ("1-0", RecordResult::WhiteWins),
        ] {
            assert_eq!(parse_record(text).unwrap().result, Some(result), "{text}");
        }
        // Anything after the result is ignored, even broken text.
        let record = parse_record("1.e4 e5 1-0 thanks for the game :) {").unwrap();
        assert_eq!(texts(&record), ["e4", "e5"]);
        assert_eq!(record.result, Some(RecordResult::WhiteWins));
        assert_eq!(RecordResult::Draw.to_string(), "1/2-1/2");
        assert_eq!(RecordResult::Unfinished.to_string(), "*");
        // Half a result is not a result.
        assert!(error(parse_record("1.e4 1/2")).starts_with("\"1\" in \"1/2\" is not a move"));
    }

    #[test]
    fn tags_comments_and_coordinates() {
        let record = parse_record(
            "[Event \"x\"]\n[Variant \"chess2\"]\n\n1. e2-e4 {best by test} c7c5,d7-d6 *",
        )
        .unwrap();
        assert_eq!(
            record.tags,
            [
                ("Event".to_string(), "x".to_string()),
                ("Variant".to_string(), "chess2".to_string())
            ]
        );
        assert_eq!(record.tag("Variant"), Some("chess2"));
        assert_eq!(record.tag("Site"), None);
        assert_eq!(texts(&record), ["e2-e4", "c7c5,d7-d6"]);
        assert_eq!(
            record.turns[1].moves[1].spec,
            coordinates(None, &[Square::D7, Square::D6], &[false])
        );
        assert_eq!(record.result, Some(RecordResult::Unfinished));

        let record = parse_record("[Event \"a \\\"b\\\" ] c\"]\n[Round 3]\n1.e4").unwrap();
        assert_eq!(record.tags[0].1, "a \"b\" ] c");
        assert_eq!(record.tags[1], ("Round".to_string(), "3".to_string()));

        let record = parse_record(
            "1.e4 ; a comment (with a paren\n e5 $1 2.Nf3 (2.f4 (2.d4) {a ) here} exf4) Nc6",
        )
        .unwrap();
        assert_eq!(texts(&record), ["e4", "e5", "Nf3", "Nc6"]);
    }

    #[test]
    fn doublestep_records() {
        let record = parse_record("1.Ke1-d2-d3 Ke8-d7-d6 2.e2-e3-e4+ Kd6-e6 3.Kd3-c4+").unwrap();
        assert_eq!(record.turns.len(), 5);
        assert_eq!(
            record.turns[0].moves[0].spec,
            coordinates(
                Some(Role::King),
                &[Square::E1, Square::D2, Square::D3],
                &[false, false]
            )
        );
        assert_eq!(
            record.turns[2].moves[0].spec,
            coordinates(None, &[Square::E2, Square::E3, Square::E4], &[false, false])
        );

        for text in [
            "2.Ne4-f6xe8 Ng8xf6 e.p.",
            "2.Ne4-f6xe8 Ng8xf6e.p.",
            "2.Ne4-f6xe8 Ng8xf6 ep",
        ] {
            let record = parse_record(text).unwrap();
            assert_eq!(record.turns.len(), 2, "{text}");
            assert_eq!(
                record.turns[0].moves[0].spec,
                coordinates(
                    Some(Role::Knight),
                    &[Square::E4, Square::F6, Square::E8],
                    &[false, true]
                )
            );
            assert_eq!(
                record.turns[1].moves[0].spec,
                coordinates(Some(Role::Knight), &[Square::G8, Square::F6], &[true])
            );
        }
        let record = parse_record("2.Ne4-f6xe8 Ng8xf6 e.p.").unwrap();
        assert_eq!(record.turns[1].text, "Ng8xf6 e.p.");
        assert_eq!(record.turns[1].moves[0].text, "Ng8xf6 e.p.");
    }

    #[test]
    fn move_numbers() {
        let record = parse_record("1. e4 1... c5 2.Nf3 2...d6").unwrap();
        assert_eq!(texts(&record), ["e4", "c5", "Nf3", "d6"]);
        assert!(record.turns[1].black_hint);
        assert!(!record.turns[2].black_hint);

        let record = parse_record("5...Nf6 6.e4 Nxe4").unwrap();
        assert!(record.black_moves_first());
        assert_eq!(record.turns[1].number, Some(6));

        // A repeated number before Black's turn, with or without dots.
        assert!(parse_record("1.e4 1.e5 2.Nf3").is_ok());
        assert!(parse_record("1.e4 1…e5 2.Nf3").is_ok());
        // A number after the last turn only says who is to move.
        assert_eq!(parse_record("1.e4 e5 2.").unwrap().turns.len(), 2);
        assert_eq!(parse_record("1.e4 e5 2. *").unwrap().turns.len(), 2);

        assert_eq!(
            error(parse_record("1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 5.Nf3")),
            "\"5.Nf3\": expected move number 4"
        );
        assert_eq!(
            error(parse_record("1.e4 e5 2...Nf3")),
            "\"2...Nf3\": \"...\" marks a turn of Black, but White is to move here"
        );
        assert_eq!(
            error(parse_record("1.e4 e5 2. 3.Nf3")),
            "\"2.\": move number without a move"
        );
        assert_eq!(
            error(parse_record("99999999999.e4")),
            "\"99999999999.\": move number too large"
        );
    }

    #[test]
    fn joiners() {
        for text in [
            "Nf6,d5", "Nf6/d5", "Nf6, d5", "Nf6 ,d5", "Nf6 , d5", "1.Nf6,d5", "Nf6/\nd5",
        ] {
            let moves = parse_turn(text).unwrap();
            assert_eq!(move_texts(&moves), ["Nf6", "d5"], "{text}");
        }
        assert!(error(parse_turn("e8/Q")).starts_with("\"Q\" in \"e8/Q\" is not a move"));
        for text in [
            "e4", "1.e4", "1. e4", "1...e4", "e4/", "e4,", "e4//", "e4 !!",
        ] {
            let moves = parse_turn(text).unwrap();
            assert_eq!(moves.len(), 1, "{text}");
            assert_eq!(moves[0].spec, san("e4"), "{text}");
        }
        let moves = parse_turn("e2e4,g1f3").unwrap();
        assert_eq!(
            moves[1].spec,
            coordinates(None, &[Square::G1, Square::F3], &[false])
        );
        let moves = parse_turn("Nb1-c3-e4").unwrap();
        assert_eq!(
            moves[0].spec,
            coordinates(
                Some(Role::Knight),
                &[Square::B1, Square::C3, Square::E4],
                &[false, false]
            )
        );
        // A trailing joiner ends the turn before a number, a result or the end.
        let record = parse_record("1.Nc3/ 1...Nc6/e6, 2.e4 e5/ *").unwrap();
        assert_eq!(texts(&record), ["Nc3/", "Nc6/e6,", "e4", "e5/"]);
        // `//` ends a turn even without a space after it.
        let record = parse_record("1.Nc3//Nc6/e6 2.e4 // e5").unwrap();
        assert_eq!(texts(&record), ["Nc3//", "Nc6/e6", "e4 //", "e5"]);
    }

    #[test]
    fn turn_errors() {
        assert_eq!(parse_turn(""), Err(NotationError::NoMove));
        assert_eq!(
            parse_turn("  {just a comment} "),
            Err(NotationError::NoMove)
        );
        assert_eq!(
            error(parse_turn("e4 e5")),
            "\"e4 e5\" is more than one turn: join the moves of one turn with a comma, like e4,e5"
        );
        assert_eq!(
            error(parse_turn("1-0")),
            "\"1-0\": a game result is not a move"
        );
        assert_eq!(
            error(parse_turn("Nf3,,d5")),
            "a move is missing before \",\" in \"Nf3,,\""
        );
        assert_eq!(
            error(parse_turn(",d5")),
            "a move is missing before \",\" in \",\""
        );
        assert_eq!(
            error(parse_turn("1.//")),
            "a move is missing before \"//\" in \"1.//\""
        );
        assert_eq!(
            error(parse_turn("Bx")),
            "\"Bx\" is not a move: write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6"
        );
        assert_eq!(
            error(parse_turn("Nf3,Bx")),
            "\"Bx\" in \"Nf3,Bx\" is not a move: write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6"
        );
        assert!(error(parse_turn("!!")).starts_with("\"!!\" is not a move"));
        assert!(error(parse_turn("e.p.")).starts_with("\"e.p.\" is not a move"));
    }

    #[test]
    fn record_errors() {
        assert_eq!(
            error(parse_record("1.e4 { the best by test")),
            "unclosed \"{\" comment starting at \"{ the best by test\""
        );
        assert_eq!(
            error(parse_record(
                "1.e4 {\n the   best move ever played in any game of chess"
            )),
            "unclosed \"{\" comment starting at \"{ the best move ever played in a...\""
        );
        assert_eq!(
            error(parse_record("1.e4 (1.d4 (1.c4) d5")),
            "unclosed \"(\" variation starting at \"(1.d4 (1.c4) d5\""
        );
        assert_eq!(
            error(parse_record("1.e4 (1.d4 {d5)")),
            "unclosed \"{\" comment starting at \"{d5)\""
        );
        assert_eq!(
            error(parse_record("1.e4 } e5")),
            "\"}\" without a matching \"{\" at \"} e5\""
        );
        assert_eq!(
            error(parse_record("1.e4 e5) 2.Nf3")),
            "\")\" without a matching \"(\" at \") 2.Nf3\""
        );
        assert_eq!(
            error(parse_record("[Event \"x\"\n1.e4")),
            "unclosed \"[\" tag starting at \"[Event \"x\"\""
        );
        assert_eq!(
            error(parse_record("[Event \"x\" y]")),
            "\"[Event \"x\" y]\": not a PGN tag (expected [Name \"value\"] on one line)"
        );
        assert!(matches!(
            parse_record("[ \"x\"]"),
            Err(NotationError::BadTag { .. })
        ));
        assert!(matches!(
            parse_record("[Event \"x]"),
            Err(NotationError::Unclosed { opener: '[', .. })
        ));
        assert_eq!(
            error(parse_record("1.e4 e5 2.Nf3 thanks")),
            "\"thanks\" is not a move: write a move in SAN like Nc6 or exd5, long algebraic like b8-c6, or UCI like b8c6"
        );
        assert!(error(parse_record("1.e4 e5 2.Nf3,Bx")).starts_with("\"Bx\" in \"2.Nf3,Bx\""));
    }

    #[test]
    fn san_forms() {
        for (written, meant) in [
            ("Nf3", "Nf3"),
            ("Nbd2", "Nbd2"),
            ("R1a3", "R1a3"),
            ("exd5", "exd5"),
            ("e8=Q", "e8=Q"),
            ("e8Q", "e8=Q"),
            ("e8(Q)", "e8=Q"),
            ("e8q", "e8=Q"),
            ("exd8=N", "exd8=N"),
            ("B:c8", "Bxc8"),
            ("d:e4", "dxe4"),
            ("a:b4", "axb4"),
            ("N:b4", "Nxb4"),
            ("Bb5:", "Bxb5"),
            ("Bb5:+", "Bxb5"),
            ("Bb5+", "Bb5"),
            ("Qxf7#", "Qxf7"),
            ("e4!?", "e4"),
            ("e4 ?!", "e4"),
            ("Nc2!!", "Nc2"),
            ("Rd1??", "Rd1"),
            ("Pe4", "e4"),
            ("♘f3", "Nf3"),
            ("♞×e4", "Nxe4"),
            ("exd6e.p.", "exd6"),
            ("exd6 e.p.", "exd6"),
            ("exd6 ep", "exd6"),
            ("O-O", "O-O"),
            ("O-O-O", "O-O-O"),
            ("0-0", "O-O"),
            ("0-0-0", "O-O-O"),
            ("00", "O-O"),
            ("000", "O-O-O"),
            ("o-o", "O-O"),
            ("o-o-o", "O-O-O"),
            ("O-O+", "O-O"),
            ("0–0–0", "O-O-O"),
        ] {
            assert_eq!(parse_move(written), Ok(san(meant)), "{written}");
        }
    }

    #[test]
    fn coordinate_forms() {
        use Square::*;
        for (written, role, squares, captures, promotion) in [
            ("e2-e4", None, vec![E2, E4], vec![false], None),
            ("e2e4", None, vec![E2, E4], vec![false], None),
            ("e2–e4", None, vec![E2, E4], vec![false], None),
            (
                "Ng1-f3",
                Some(Role::Knight),
                vec![G1, F3],
                vec![false],
                None,
            ),
            ("Ng1f3", Some(Role::Knight), vec![G1, F3], vec![false], None),
            ("Ng1xf3", Some(Role::Knight), vec![G1, F3], vec![true], None),
            ("Ng1:f3", Some(Role::Knight), vec![G1, F3], vec![true], None),
            ("e4-d5:", None, vec![E4, D5], vec![true], None),
            ("Qh4xe1+", Some(Role::Queen), vec![H4, E1], vec![true], None),
            ("e7xd8=Q", None, vec![E7, D8], vec![true], Some(Role::Queen)),
            ("e7-e8Q", None, vec![E7, E8], vec![false], Some(Role::Queen)),
            ("e7e8q", None, vec![E7, E8], vec![false], Some(Role::Queen)),
            ("a7a8b", None, vec![A7, A8], vec![false], Some(Role::Bishop)),
            (
                "e7-e8(N)",
                None,
                vec![E7, E8],
                vec![false],
                Some(Role::Knight),
            ),
            (
                "Ke1-d2-d3",
                Some(Role::King),
                vec![E1, D2, D3],
                vec![false, false],
                None,
            ),
            (
                "Ne4-f6xe8",
                Some(Role::Knight),
                vec![E4, F6, E8],
                vec![false, true],
                None,
            ),
            ("e2e3e4", None, vec![E2, E3, E4], vec![false, false], None),
        ] {
            let expected = MoveSpec::Coordinates {
                role,
                squares,
                captures,
                promotion,
            };
            assert_eq!(parse_move(written), Ok(expected), "{written}");
        }
    }

    #[test]
    fn move_errors() {
        assert_eq!(parse_move(""), Err(NotationError::NoMove));
        assert_eq!(parse_move("  "), Err(NotationError::NoMove));
        for text in [
            "Bx", "N", "x", "N-f3", "e2-", "-e2e4", "e2--e4", "e2-xe4", "Nf3,d5", "e8=", "e8=X",
            "é4", "e 4", "--", "O-O-O-O", "0000", "i9", "Ki1", "e4x", "+", ":", "N@f3", "1.e4",
            "e9",
        ] {
            assert!(
                matches!(parse_move(text), Err(NotationError::NotAMove { .. })),
                "{text}: {:?}",
                parse_move(text)
            );
        }
        assert_eq!(
            error(parse_move("e8=K")),
            "\"e8=K\": a pawn can only promote to a queen, rook, bishop or knight (Q, R, B or N), like e8=Q"
        );
        assert!(matches!(
            parse_move("e7e8(P)"),
            Err(NotationError::BadPromotion { .. })
        ));
        assert_eq!(
            error(parse_move("a1-a2-a3-a4")),
            "\"a1-a2-a3-a4\" has too many squares: a move has two, like g1-f3, or three for a piece moving twice, like Nb1-c3-e4"
        );
    }

    #[test]
    fn resolve_in_the_starting_position() {
        let pos = Chess::default();
        let knight = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        for text in ["Nf3", "Ngf3", "Ng1f3", "g1f3", "Ng1-f3", "g1-f3"] {
            assert_eq!(resolve_in(&pos, text), Resolution::Unique(knight), "{text}");
        }
        let pawn = Move::Normal {
            role: Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        for text in ["e4", "e2e4", "e2-e4", "Pe2-e4", "e2xe4"] {
            assert_eq!(resolve_in(&pos, text), Resolution::Unique(pawn), "{text}");
        }
        for text in [
            "Nf6",
            "Bb5",
            "exd5",
            "Nxf3",
            "Bg1-f3",
            "e2e4q",
            "Nb1-c3-e4",
            "O-O",
            "e1g1",
        ] {
            assert_eq!(resolve_in(&pos, text), Resolution::NoMatch, "{text}");
        }
    }

    #[test]
    fn resolve_promotion_castling_and_ambiguity() {
        let pos = position("r3k3/1P6/8/8/8/1N3N2/8/R3K2R w KQ - 0 1");
        assert!(
            matches!(resolve_in(&pos, "Nd2"), Resolution::Ambiguous(moves) if moves.len() == 2)
        );
        assert!(matches!(resolve_in(&pos, "Nbd2"), Resolution::Unique(_)));
        assert!(matches!(resolve_in(&pos, "Nb3-d2"), Resolution::Unique(_)));

        let promotion = |to: Square, capture: Option<Role>, piece: Role| Move::Normal {
            role: Role::Pawn,
            from: Square::B7,
            capture,
            to,
            promotion: Some(piece),
        };
        for (text, piece) in [
            ("b8=Q", Role::Queen),
            ("b8N", Role::Knight),
            ("b7b8q", Role::Queen),
            ("b7-b8R", Role::Rook),
            ("b7-b8(B)", Role::Bishop),
        ] {
            assert_eq!(
                resolve_in(&pos, text),
                Resolution::Unique(promotion(Square::B8, None, piece)),
                "{text}"
            );
        }
        assert_eq!(
            resolve_in(&pos, "bxa8=R"),
            Resolution::Unique(promotion(Square::A8, Some(Role::Rook), Role::Rook))
        );
        for text in ["b8", "b7b8", "b7-b8", "bxa8", "b7xa8"] {
            assert!(
                matches!(resolve_in(&pos, text), Resolution::Ambiguous(moves) if moves.len() == 4),
                "{text}"
            );
        }

        let king_side = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        let queen_side = Move::Castle {
            king: Square::E1,
            rook: Square::A1,
        };
        for text in ["O-O", "0-0", "e1g1", "e1-g1", "Ke1-g1", "Ke1g1", "e1h1"] {
            assert_eq!(
                resolve_in(&pos, text),
                Resolution::Unique(king_side),
                "{text}"
            );
        }
        for text in ["O-O-O", "000", "e1c1", "Ke1-c1", "e1a1"] {
            assert_eq!(
                resolve_in(&pos, text),
                Resolution::Unique(queen_side),
                "{text}"
            );
        }
        for text in ["Re1-g1", "e1g1q", "Kg1"] {
            assert_eq!(resolve_in(&pos, text), Resolution::NoMatch, "{text}");
        }
        assert!(matches!(
            resolve_in(&pos, "Ke1-f1"),
            Resolution::Unique(Move::Normal { .. })
        ));
    }

    #[test]
    fn resolve_en_passant() {
        let pos = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
        let en_passant = Move::EnPassant {
            from: Square::E5,
            to: Square::D6,
        };
        for text in ["exd6", "exd6 e.p.", "e:d6", "e5d6", "e5xd6", "Pe5xd6"] {
            assert_eq!(
                resolve_in(&pos, text),
                Resolution::Unique(en_passant),
                "{text}"
            );
        }
    }

    #[test]
    fn descriptions() {
        for (text, description) in [
            ("Bb4", "a bishop to b4"),
            ("e4", "a pawn to e4"),
            ("Nxf3", "a knight to f3"),
            ("e8=Q", "a pawn to e8 promoting to a queen"),
            ("O-O", "castling kingside"),
            ("O-O-O", "castling queenside"),
            ("Ng1-f3", "a knight from g1 to f3"),
            ("e2e4", "a move from e2 to e4"),
            ("e7e8n", "a move from e7 to e8 promoting to a knight"),
            ("Ne4-f6xe8", "a knight from e4 via f6 to e8"),
        ] {
            assert_eq!(
                describe_target(&parse_move(text).unwrap()),
                description,
                "{text}"
            );
        }
        assert_eq!(describe_target(&MoveSpec::San(San::Null)), "a null move");
        assert_eq!(
            describe_target(&MoveSpec::San(San::Put {
                role: Role::Knight,
                to: Square::F3
            })),
            "a knight dropped on f3"
        );
        let empty = MoveSpec::Coordinates {
            role: None,
            squares: Vec::new(),
            captures: Vec::new(),
            promotion: None,
        };
        assert_eq!(describe_target(&empty), "a move");
        assert_eq!(
            resolve(&empty, &Chess::default().legal_moves()),
            Resolution::NoMatch
        );
    }

    #[test]
    fn huge_and_odd_inputs() {
        let long_game = "1.e4 e5 ".to_string() + &"Nf3 Nf6 Ng1 Ng8 ".repeat(20_000);
        assert!(parse_record(&long_game).is_ok());
        assert!(matches!(
            parse_record(&"(".repeat(100_000)),
            Err(NotationError::Unclosed { opener: '(', .. })
        ));
        let nested = "(".repeat(50_000) + &")".repeat(50_000) + " e4";
        assert_eq!(texts(&parse_record(&nested).unwrap()), ["e4"]);
        let long_word = "e".repeat(100_000);
        let message = error(parse_move(&long_word));
        assert!(message.len() < 200, "{message}");
        assert!(parse_record(&format!("{}.e4", "9".repeat(100_000))).is_err());
        assert_eq!(parse_record("").unwrap(), Record::default());
        assert_eq!(parse_record(" \n\t\u{a0}").unwrap(), Record::default());
        assert!(parse_record("1.e4\u{a0}e5").is_ok());
    }

    /// Feeds many pseudo-random texts, built from the pieces notation is made
    /// of, to every parser: none may panic, and every error must display.
    #[test]
    fn random_inputs_do_not_panic() {
        const PIECES: [&str; 40] = [
            "1.", "...", "…", " ", "\n", "e4", "Nf3", "x", ":", ",", "/", "//", "{", "}", "(", ")",
            "[", "]", "\"", "\\", ";", "$", "1", "0", "-", "–", "½", "*", "O", "=", "Q", "(Q)",
            "e.p.", "+", "!", "é", "♘", "a1", "h8", "\u{a0}",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let candidates = Chess::default().legal_moves();
        for _ in 0..20_000 {
            let len = next() % 12;
            let text: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            if let Err(error) = parse_record(&text) {
                assert!(!error.to_string().is_empty());
            }
            let _ = parse_turn(&text).map_err(|error| error.to_string());
            if let Ok(spec) = parse_move(&text) {
                assert!(!describe_target(&spec).is_empty());
                let _ = resolve(&spec, &candidates);
            }
        }
    }
}
