//! The pbmserv-style ASCII board, drawn from one player's side.
//!
//! Black pieces are `*X*`; white pieces ` X ` on light squares and `:X:` on
//! dark ones; empty dark squares `:::`. Black sees rank 1 at the top. The
//! compact board writes one letter a square (FEN's: uppercase White,
//! lowercase Black, `.` empty). [`legend`] says so under each board.

use shakmaty::{Board, Color, File, Rank, Square};

/// Which way up, and how large, the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardStyle {
    /// The pbmserv board with frame and coordinates.
    Full,
    /// One line per rank, one character per square (`.` empty).
    Compact,
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
        for line in [full_legend, compact_legend] {
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
}
