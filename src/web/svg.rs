//! The board of a web page as inline SVG, laid out as the mail pictures
//! are ([`picture::origin`]: their size, squares, colours and the reader's
//! side at the bottom): each piece drawing of the pictures defined once as
//! a symbol and used on its squares, and a red ring round a king in check.
//! About 12 KB, no script, no external file.

use std::fmt::Write;
use std::sync::OnceLock;

use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use crate::render::picture::{
    self, CHECK, DARK, DARK_MARKED, FRAME, LIGHT, LIGHT_MARKED, MARGIN, SIZE, SQUARE,
};

/// The cburnett drawings (see assets/pieces/LICENCE.md), white then black,
/// king to pawn, as the mail pictures use them.
const PIECE_FILES: [&str; 12] = [
    include_str!("../../assets/pieces/wK.svg"),
    include_str!("../../assets/pieces/wQ.svg"),
    include_str!("../../assets/pieces/wR.svg"),
    include_str!("../../assets/pieces/wB.svg"),
    include_str!("../../assets/pieces/wN.svg"),
    include_str!("../../assets/pieces/wP.svg"),
    include_str!("../../assets/pieces/bK.svg"),
    include_str!("../../assets/pieces/bQ.svg"),
    include_str!("../../assets/pieces/bR.svg"),
    include_str!("../../assets/pieces/bB.svg"),
    include_str!("../../assets/pieces/bN.svg"),
    include_str!("../../assets/pieces/bP.svg"),
];

/// The drawings' coordinate box.
const PIECE_BOX: &str = "0 0 45 45";

fn piece_index(piece: Piece) -> usize {
    let role = match piece.role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    };
    role + if piece.color == Color::White { 0 } else { 6 }
}

/// The symbol id of a piece: `wK`, `bP`.
fn symbol_id(index: usize) -> String {
    let colour = if index < 6 { 'w' } else { 'b' };
    let role = ['K', 'Q', 'R', 'B', 'N', 'P'][index % 6];
    format!("{colour}{role}")
}

/// Each drawing's inner elements (inside its root `<svg>`), cut once.
fn piece_bodies() -> &'static [String; 12] {
    static BODIES: OnceLock<[String; 12]> = OnceLock::new();
    BODIES.get_or_init(|| {
        PIECE_FILES.map(|file| {
            let start = file.find('>').map_or(0, |i| i + 1);
            let end = file.rfind("</svg>").unwrap_or(file.len()).max(start);
            file[start..end].trim().to_string()
        })
    })
}

fn hex(colour: [u8; 3]) -> String {
    format!("#{:02x}{:02x}{:02x}", colour[0], colour[1], colour[2])
}

/// The empty board seen from `viewer`'s side, written once each: the
/// picture's size, squares and colours, with the coordinates as text on
/// the left and bottom edges (the picture draws its own glyphs on all four,
/// which would double the page).
fn frame(viewer: Color) -> &'static str {
    static FRAMES: OnceLock<[String; 2]> = OnceLock::new();
    let frames = FRAMES.get_or_init(|| [Color::White, Color::Black].map(write_frame));
    &frames[usize::from(viewer == Color::Black)]
}

fn write_frame(viewer: Color) -> String {
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}"><rect width="{SIZE}" height="{SIZE}" fill="{}"/><rect x="{MARGIN}" y="{MARGIN}" width="{board}" height="{board}" fill="{}"/><g fill="{}">"#,
        hex(FRAME),
        hex(LIGHT),
        hex(DARK),
        board = 8 * SQUARE,
    );
    for square in Square::ALL.into_iter().filter(|s| s.is_dark()) {
        let (x, y) = picture::origin(square, viewer);
        let _ = write!(
            svg,
            r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>"#
        );
    }
    let _ = write!(
        svg,
        r##"</g><g font-family="sans-serif" font-size="11" fill="#404040" text-anchor="middle">"##
    );
    let half = SQUARE / 2;
    for file in File::ALL {
        let (x, _) = picture::origin(Square::from_coords(file, Rank::First), viewer);
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            x + half,
            SIZE - 4,
            file.char()
        );
    }
    for rank in Rank::ALL {
        let (_, y) = picture::origin(Square::from_coords(File::A, rank), viewer);
        let _ = write!(
            svg,
            r#"<text x="{}" y="{}">{}</text>"#,
            MARGIN / 2,
            y + half + 4,
            rank.char()
        );
    }
    svg.push_str("</g>");
    svg
}

/// The board from `viewer`'s side, `label` read out for screen readers,
/// `check` the square of a king in check, `marked` the last turn's
/// squares (tinted as the mail pictures tint them, `class="last"`).
pub fn board(
    board: &Board,
    viewer: Color,
    check: Option<Square>,
    marked: &[Square],
    label: &str,
) -> String {
    let mut svg = String::with_capacity(16 * 1024);
    let frame = frame(viewer);
    // The frame opens with `<svg `: the label goes into that tag.
    let rest = frame.strip_prefix("<svg ").unwrap_or(frame);
    let _ = write!(
        svg,
        r#"<svg role="img" aria-label="{}" "#,
        label
            .replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
    );
    svg.push_str(rest);
    let mut used = [false; 12];
    for (_, piece) in board.clone() {
        used[piece_index(piece)] = true;
    }
    svg.push_str("<defs>");
    for (index, body) in piece_bodies().iter().enumerate() {
        if used[index] {
            let _ = write!(
                svg,
                r#"<symbol id="{}" viewBox="{PIECE_BOX}">{body}</symbol>"#,
                symbol_id(index)
            );
        }
    }
    svg.push_str("</defs>");
    for &square in marked {
        let (x, y) = picture::origin(square, viewer);
        let tint = if square.is_dark() {
            DARK_MARKED
        } else {
            LIGHT_MARKED
        };
        let _ = write!(
            svg,
            r#"<rect class="last" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{}"/>"#,
            hex(tint)
        );
    }
    if let Some(square) = check {
        let (x, y) = picture::origin(square, viewer);
        let half = SQUARE / 2;
        let _ = write!(
            svg,
            r#"<circle cx="{}" cy="{}" r="{}" fill="{red}" fill-opacity="0.3" stroke="{red}" stroke-width="4"/>"#,
            x + half,
            y + half,
            half - 3,
            red = hex(CHECK),
        );
    }
    for (square, piece) in board.clone() {
        let (x, y) = picture::origin(square, viewer);
        let _ = write!(
            svg,
            r##"<use href="#{}" x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}"/>"##,
            symbol_id(piece_index(piece))
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_starting_position_is_small_and_from_the_readers_side() {
        let start = Board::default();
        let white = board(&start, Color::White, None, &[], "Chess board 101");
        let black = board(&start, Color::Black, None, &[], "Chess board 101");
        assert!(white.starts_with(r#"<svg role="img" aria-label="Chess board 101" "#));
        assert!(white.ends_with("</svg>"));
        assert_eq!(white.matches("<use ").count(), 32);
        assert_eq!(white.matches("<symbol ").count(), 12);
        assert!(white.len() < 16 * 1024, "{} bytes", white.len());
        // White's king on e1: bottom row from White's side, top row from
        // Black's.
        let (x, y) = picture::origin(Square::E1, Color::White);
        assert!(white.contains(&format!(r##"<use href="#wK" x="{x}" y="{y}""##)));
        let (x, y) = picture::origin(Square::E1, Color::Black);
        assert!(black.contains(&format!(r##"<use href="#wK" x="{x}" y="{y}""##)));
        assert_ne!(white, black);
    }

    #[test]
    fn only_the_pieces_on_the_board_are_defined() {
        let mut kings = Board::empty();
        kings.set_piece_at(Square::E1, Color::White.king());
        kings.set_piece_at(Square::E8, Color::Black.king());
        let svg = board(&kings, Color::White, Some(Square::E1), &[], "two kings");
        assert_eq!(svg.matches("<symbol ").count(), 2);
        assert_eq!(svg.matches("<circle ").count(), 1);
        assert_eq!(svg.matches(r#"class="last""#).count(), 0);
        let moved = board(
            &kings,
            Color::White,
            None,
            &[Square::E2, Square::E1],
            "two kings",
        );
        let (x, y) = picture::origin(Square::E2, Color::White);
        assert!(moved.contains(&format!(r#"<rect class="last" x="{x}" y="{y}""#)));
        assert_eq!(moved.matches(r#"class="last""#).count(), 2);
    }
}
