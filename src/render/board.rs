//! The pbmserv-style ASCII board, drawn from one player's side.
//!
//! Black pieces are `*X*`; white pieces ` X ` on light squares and `:X:` on
//! dark ones; empty dark squares `:::`. Black sees rank 1 at the top. The
//! compact board writes one letter a square (FEN's: uppercase White,
//! lowercase Black, `.` empty). The list writes no board at all: each
//! side's pieces as `Kg1, Qd1, ...` (see [`piece_list`]), for screen
//! readers and braille displays. [`legend`] says so under each board, and
//! [`spoken_position`] says the position in words for a picture's alt text.

use shakmaty::{Bitboard, Board, Color, File, Rank, Role, Square};

/// Which way up, and how large, the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// The pbmserv board with frame and coordinates.
    Full,
    /// One line per rank, one character per square (`.` empty).
    Compact,
    /// No board: a line per side listing its pieces (`White: Kg1, ...`).
    List,
}

/// Draws `board` as seen by `viewer`.
pub fn draw(board: &Board, viewer: Color, style: BoardStyle) -> String {
    let ranks: Vec<Rank> = match viewer {
        Color::White => Rank::ALL.into_iter().rev().collect(),
        Color::Black => Rank::ALL.into_iter().collect(),
    };
    let files: Vec<File> = match viewer {
        Color::White => File::ALL.into_iter().collect(),
        Color::Black => File::ALL.into_iter().rev().collect(),
    };
    match style {
        BoardStyle::Full => draw_full(board, &ranks, &files),
        BoardStyle::Compact => draw_compact(board, &ranks, &files),
        // The same for both sides: White's pieces first, as the Braille
        // Chess Association prints a position.
        BoardStyle::List => [Color::White, Color::Black]
            .into_iter()
            .map(|color| hanging(&piece_list(board, color), LIST_WIDTH))
            .collect(),
    }
}

/// The widest line of a list: as wide as the move list's.
const LIST_WIDTH: usize = 72;

/// `line` and a newline, broken after a comma into lines of at most
/// `width` characters, the lines after the first two spaces in (a
/// runover line is indented in braille too, so the next side's line
/// stands out).
fn hanging(line: &str, width: usize) -> String {
    let mut out = String::new();
    let mut column = 0;
    for (i, word) in line.split(' ').enumerate() {
        let length = word.chars().count();
        if i > 0 && column + 1 + length > width {
            out.push_str("\n  ");
            column = 2;
        } else if i > 0 {
            out.push(' ');
            column += 1;
        }
        out.push_str(word);
        column += length;
    }
    out.push('\n');
    out
}

/// The order of a side's pieces in a list: king, queen, rooks, bishops,
/// knights, pawns.
const LISTED_ROLES: [Role; 6] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
    Role::Pawn,
];

/// The squares of `color`'s pieces of each role, in [`LISTED_ROLES`]'
/// order, each role's squares alphabetically (a1, a2, ..., b1, ..., h8):
/// the order problem books and the Braille Chess Association use.
fn listed(board: &Board, color: Color) -> Vec<(Role, Vec<Square>)> {
    LISTED_ROLES
        .into_iter()
        .map(|role| {
            let pieces: Bitboard = board.by_piece(role.of(color));
            let mut squares: Vec<Square> = pieces.into_iter().collect();
            squares.sort_by_key(|square| (square.file(), square.rank()));
            (role, squares)
        })
        .filter(|(_, squares)| !squares.is_empty())
        .collect()
}

/// `White: Kg1, Qd1, Ra1, Rf1, ..., Pa2, Pb2, ...`: `color`'s pieces, each
/// its letter and square, in the order of `listed`; `White: no pieces`
/// when every one was captured (kings may be, in some variants).
pub fn piece_list(board: &Board, color: Color) -> String {
    let pieces: Vec<String> = listed(board, color)
        .into_iter()
        .flat_map(|(role, squares)| {
            squares
                .into_iter()
                .map(move |square| format!("{}{square}", role.upper_char()))
        })
        .collect();
    let side = side_name(color);
    if pieces.is_empty() {
        format!("{side}: no pieces")
    } else {
        format!("{side}: {}", pieces.join(", "))
    }
}

/// The position in words, as a screen reader should speak it (a picture's
/// alt text): `White: king g1; queen d1; rooks a1, f1; ... Black: ...`.
/// Whole piece names, since a speech synthesizer reads `Kg1` as
/// "kilogram one", grouped by piece so that each name is said once.
pub fn spoken_position(board: &Board) -> String {
    [Color::White, Color::Black]
        .into_iter()
        .map(|color| {
            let groups: Vec<String> = listed(board, color)
                .into_iter()
                .map(|(role, squares)| {
                    let name = role_name(role, squares.len() > 1);
                    let squares: Vec<String> = squares.iter().map(Square::to_string).collect();
                    format!("{name} {}", squares.join(", "))
                })
                .collect();
            let pieces = if groups.is_empty() {
                "no pieces".to_string()
            } else {
                groups.join("; ")
            };
            format!("{}: {pieces}.", side_name(color))
        })
        .collect::<Vec<String>>()
        .join(" ")
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn role_name(role: Role, plural: bool) -> &'static str {
    match (role, plural) {
        (Role::King, false) => "king",
        (Role::King, true) => "kings",
        (Role::Queen, false) => "queen",
        (Role::Queen, true) => "queens",
        (Role::Rook, false) => "rook",
        (Role::Rook, true) => "rooks",
        (Role::Bishop, false) => "bishop",
        (Role::Bishop, true) => "bishops",
        (Role::Knight, false) => "knight",
        (Role::Knight, true) => "knights",
        (Role::Pawn, false) => "pawn",
        (Role::Pawn, true) => "pawns",
    }
}

fn draw_full(board: &Board, ranks: &[Rank], files: &[File]) -> String {
    let letters: String = files.iter().map(|f| format!("   {}", f.char())).collect();
    let header = format!("   {letters}\n");
    let rule = format!("    +{}\n", "---+".repeat(8));
    let mut out = String::new();
    out.push_str(&header);
    out.push_str(&rule);
    for &rank in ranks {
        let number = rank.char();
        out.push_str(&format!("  {number} |"));
        for &file in files {
            out.push_str(&cell(board, Square::from_coords(file, rank)));
            out.push('|');
        }
        out.push_str(&format!("  {number}\n"));
    }
    out.push_str(&rule);
    out.push_str(&header);
    out
}

fn cell(board: &Board, square: Square) -> String {
    let dark = square.is_dark();
    match board.piece_at(square) {
        Some(piece) => {
            let letter = piece.role.upper_char();
            match (piece.color, dark) {
                (Color::Black, _) => format!("*{letter}*"),
                (Color::White, true) => format!(":{letter}:"),
                (Color::White, false) => format!(" {letter} "),
            }
        }
        None if dark => ":::".to_string(),
        None => "   ".to_string(),
    }
}

/// The line a text board mail writes under the board, explaining its marks
/// (a player new to pbmserv's boards cannot guess them).
pub fn legend(style: BoardStyle) -> &'static str {
    match style {
        BoardStyle::Full => {
            "*R* Black, R White, :R: White on a dark square, ::: an empty dark square"
        }
        BoardStyle::Compact => "KQRBNP White, kqrbnp Black, . an empty square",
        BoardStyle::List => "K king, Q queen, R rook, B bishop, N knight, P pawn",
    }
}

fn draw_compact(board: &Board, ranks: &[Rank], files: &[File]) -> String {
    let mut out = String::new();
    for &rank in ranks {
        out.push(rank.char());
        out.push(' ');
        for &file in files {
            out.push(
                board
                    .piece_at(Square::from_coords(file, rank))
                    .map_or('.', |p| p.char()),
            );
        }
        out.push('\n');
    }
    out.push_str("  ");
    out.extend(files.iter().map(|f| f.char()));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use shakmaty::Position;

    use super::*;

    #[test]
    fn start_position_from_white_matches_pbmserv() {
        let drawn = draw(&Board::new(), Color::White, BoardStyle::Full);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "      a   b   c   d   e   f   g   h");
        assert_eq!(lines[1], "    +---+---+---+---+---+---+---+---+");
        assert_eq!(lines[2], "  8 |*R*|*N*|*B*|*Q*|*K*|*B*|*N*|*R*|  8");
        assert_eq!(lines[4], "  6 |   |:::|   |:::|   |:::|   |:::|  6");
        assert_eq!(lines[9], "  1 |:R:| N |:B:| Q |:K:| B |:N:| R |  1");
    }

    #[test]
    fn black_sees_rank_one_on_top() {
        let drawn = draw(&Board::new(), Color::Black, BoardStyle::Full);
        let lines: Vec<&str> = drawn.lines().collect();
        assert_eq!(lines[0], "      h   g   f   e   d   c   b   a");
        assert_eq!(lines[2], "  1 | R |:N:| B |:K:| Q |:B:| N |:R:|  1");
    }

    /// The legend names the marks the board really draws.
    #[test]
    fn each_legend_explains_the_marks_of_its_board() {
        let full = draw(&Board::new(), Color::White, BoardStyle::Full);
        let full_legend = legend(BoardStyle::Full);
        for mark in ["*R*", ":R:", ":::"] {
            assert!(full.contains(mark) && full_legend.contains(mark), "{mark}");
        }
        assert!(full.contains("| R |") && full_legend.contains(" R White"));
        let compact = draw(&Board::new(), Color::White, BoardStyle::Compact);
        let compact_legend = legend(BoardStyle::Compact);
        for marks in ["KQRBNP", "kqrbnp"] {
            assert!(marks.chars().all(|mark| compact.contains(mark)), "{marks}");
            assert!(compact_legend.contains(marks), "{marks}");
        }
        assert!(compact.contains('.') && compact_legend.contains(". an empty square"));
        let list = draw(&Board::new(), Color::White, BoardStyle::List);
        let list_legend = legend(BoardStyle::List);
        for (letter, name) in [
            ('K', "king"),
            ('Q', "queen"),
            ('R', "rook"),
            ('B', "bishop"),
            ('N', "knight"),
            ('P', "pawn"),
        ] {
            assert!(list.contains(&format!(" {letter}")), "{letter}");
            assert!(list_legend.contains(&format!("{letter} {name}")), "{name}");
        }
        for line in [full_legend, compact_legend, list_legend] {
            // One line, which a mail never wraps.
            assert!(!line.contains('\n') && line.len() <= 72, "{line}");
        }
    }

    #[test]
    fn compact_board_is_one_line_per_rank() {
        let drawn = draw(&Board::new(), Color::White, BoardStyle::Compact);
        assert_eq!(drawn.lines().next(), Some("8 rnbqkbnr"));
        assert_eq!(drawn.lines().last(), Some("  abcdefgh"));
    }

    const START_LIST: &str = "\
White: Ke1, Qd1, Ra1, Rh1, Bc1, Bf1, Nb1, Ng1, Pa2, Pb2, Pc2, Pd2, Pe2,
  Pf2, Pg2, Ph2
Black: Ke8, Qd8, Ra8, Rh8, Bc8, Bf8, Nb8, Ng8, Pa7, Pb7, Pc7, Pd7, Pe7,
  Pf7, Pg7, Ph7
";

    /// Every variant starts from the international position, and the list
    /// gives it White first, from either side.
    #[test]
    fn every_variant_lists_its_start_position_white_first() {
        for variant in crate::rules::Variant::ALL {
            let game = crate::rules::Game::new(variant);
            let board = game.state().pos().board();
            for viewer in [Color::White, Color::Black] {
                assert_eq!(
                    draw(board, viewer, BoardStyle::List),
                    START_LIST,
                    "{variant:?}"
                );
            }
        }
    }

    fn board_of(fen: &str) -> Board {
        fen.parse::<shakmaty::fen::Fen>()
            .expect("a FEN")
            .into_setup()
            .board
    }

    /// A side's line is one line however long; the list breaks it after a
    /// comma, the rest two spaces in.
    #[test]
    fn a_long_side_runs_over_indented() {
        assert_eq!(
            piece_list(&Board::new(), Color::White),
            "White: Ke1, Qd1, Ra1, Rh1, Bc1, Bf1, Nb1, Ng1, \
             Pa2, Pb2, Pc2, Pd2, Pe2, Pf2, Pg2, Ph2"
        );
        assert_eq!(hanging("a, b, c, d", 5), "a, b,\n  c,\n  d\n");
        assert!(START_LIST.lines().all(|line| line.len() <= LIST_WIDTH));
    }

    /// Pieces of a kind by square alphabetically (file, then rank); a
    /// promoted piece is listed as what it is now.
    #[test]
    fn pieces_are_listed_by_kind_then_square_and_a_promoted_one_as_itself() {
        // White promoted a pawn to a second queen on h8 and to a knight on
        // a8; the rooks stand on b1 and a7, the pawns on c2, c3 and b4.
        let board = board_of("N6Q/R7/4k3/8/1P6/2P5/2P5/1R2K2Q w - - 0 40");
        assert_eq!(
            piece_list(&board, Color::White),
            "White: Ke1, Qh1, Qh8, Ra7, Rb1, Na8, Pb4, Pc2, Pc3"
        );
        assert_eq!(piece_list(&board, Color::Black), "Black: Ke6");
        assert_eq!(
            spoken_position(&board),
            "White: king e1; queens h1, h8; rooks a7, b1; knight a8; pawns b4, c2, c3. \
             Black: king e6."
        );
    }

    /// In doublemove a king may be captured: the side left with nothing
    /// says so rather than listing nothing.
    #[test]
    fn a_side_without_pieces_says_so() {
        let mut game = crate::rules::Game::from_fen(
            crate::rules::Variant::Doublemove,
            "4k3/8/8/8/8/8/8/R3K3 w - - 0 10",
        )
        .expect("a position");
        let turn = crate::rules::notation::parse_turn("Ra8,Rxe8").expect("a turn");
        game.play(&turn).expect("the king is captured");
        let board = game.state().pos().board();
        assert_eq!(
            draw(board, Color::Black, BoardStyle::List),
            "White: Ke1, Re8\nBlack: no pieces\n"
        );
        assert_eq!(
            spoken_position(board),
            "White: king e1; rook e8. Black: no pieces."
        );
    }

    #[test]
    fn the_spoken_start_position_names_each_kind_once() {
        assert_eq!(
            spoken_position(&Board::new()),
            "White: king e1; queen d1; rooks a1, h1; bishops c1, f1; knights b1, g1; \
             pawns a2, b2, c2, d2, e2, f2, g2, h2. \
             Black: king e8; queen d8; rooks a8, h8; bishops c8, f8; knights b8, g8; \
             pawns a7, b7, c7, d7, e7, f7, g7, h7."
        );
    }
}
