//! The board picture of HTML board mails: a PNG drawn in Rust, from one
//! player's side, with coordinates, the last turn's squares marked and a
//! king in check ringed in red.
//!
//! The frame (squares and coordinates) is an SVG this module writes and
//! `resvg` rasterizes; the pieces are Colin M.L. Burnett's "cburnett"
//! drawings (GPLv2+, see assets/pieces/LICENCE.md), built into the binary
//! and rasterized by `resvg`. All of it is drawn once per process: the two
//! frames, and each piece on each of the eight grounds a square can show
//! (light or dark, marked or not, ringed for check or not), laid on by
//! `tiny-skia` (which resvg draws with). The colours of all these parts
//! make one palette of at most 256 ([`super::palette`]), and each part is
//! kept as palette indices. A board is then the frame with a few 40x40
//! tiles copied over it, one byte per pixel ([`draw`]), and the PNG is of
//! colour type 3 (a palette): a third of the bytes of RGB. The png crate
//! filters and compresses the drawn pixels ([`png()`]). No file or network
//! access at run time.

use std::collections::HashMap;
use std::sync::OnceLock;

use resvg::tiny_skia::{
    self, Color as SkColor, FillRule, Paint, PathBuilder, Pixmap, PixmapPaint, Stroke, Transform,
};
use resvg::usvg;
use shakmaty::{Board, Color, File, Piece, Rank, Role, Square};

use super::palette::{Palette, Rgb};

/// Side of one square, in pixels.
pub const SQUARE: u32 = 40;
/// The frame around the squares that holds the coordinates.
pub const MARGIN: u32 = 16;
/// Width and height of the picture.
pub const SIZE: u32 = 8 * SQUARE + 2 * MARGIN;

/// Square and mark colours (RGB), also what tests look for.
pub const LIGHT: [u8; 3] = [0xf0, 0xd9, 0xb5];
pub const DARK: [u8; 3] = [0xb5, 0x88, 0x63];
pub const LIGHT_MARKED: [u8; 3] = [0xcd, 0xd2, 0x6a];
pub const DARK_MARKED: [u8; 3] = [0xaa, 0xa2, 0x3a];
pub const CHECK: [u8; 3] = [0xd0, 0x20, 0x20];
pub const FRAME: [u8; 3] = [0xff, 0xff, 0xff];
const INK: &str = "#404040";

/// What one picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scene {
    pub board: Board,
    /// Whose side the board is seen from (that colour at the bottom).
    pub viewer: Color,
    /// The from/to squares of the last turn (both moves of a two-move turn).
    pub marked: Vec<Square>,
    /// The square of a king in check.
    pub check: Option<Square>,
}

/// The top-left pixel of `square` seen from `viewer`'s side.
pub fn origin(square: Square, viewer: Color) -> (u32, u32) {
    let file = u32::from(square.file());
    let rank = u32::from(square.rank());
    let (column, row) = match viewer {
        Color::White => (file, 7 - rank),
        Color::Black => (7 - file, rank),
    };
    (MARGIN + column * SQUARE, MARGIN + row * SQUARE)
}

/// The from and to squares of a turn's moves (a castling king's own):
/// what a picture or a web board marks as the last turn.
pub fn last_turn_squares(moves: &[shakmaty::Move]) -> Vec<Square> {
    let mut squares = Vec::new();
    for m in moves {
        match m {
            shakmaty::Move::Castle { king, rook } => {
                let side = shakmaty::CastlingSide::from_queen_side(rook < king);
                squares.push(*king);
                squares.push(Square::from_coords(side.king_to_file(), king.rank()));
            }
            m => {
                squares.extend(m.from());
                squares.push(m.to());
            }
        }
    }
    squares
}

/// A drawn picture: one palette index per pixel, row by row.
pub struct Picture {
    pub pixels: Vec<u8>,
}

impl Picture {
    /// The colour of the pixel at (`x`, `y`).
    pub fn colour(&self, x: u32, y: u32) -> Rgb {
        let index = self.pixels[(y * SIZE + x) as usize];
        parts().palette.colours[usize::from(index)]
    }
}

/// The kinds of ground a square shows under its piece: light or dark,
/// marked or not, ringed for check or not.
const GROUNDS: usize = 8;

fn ground(square: Square, marked: bool, check: bool) -> usize {
    usize::from(square.is_dark()) + 2 * usize::from(marked) + 4 * usize::from(check)
}

/// The picture as palette indices.
pub fn draw(scene: &Scene) -> Picture {
    let parts = parts();
    let mut pixels = parts.frames[usize::from(scene.viewer == Color::Black)].clone();
    let side = SQUARE as usize;
    for square in Square::ALL {
        let tile = tile_at(scene, square);
        if tile == tile_of(None, ground(square, false, false)) {
            // The frame shows the bare square.
            continue;
        }
        let tile = tile_pixels(parts, tile);
        let (x, y) = origin(square, scene.viewer);
        for (row, line) in tile.chunks_exact(side).enumerate() {
            let start = (y as usize + row) * SIZE as usize + x as usize;
            pixels[start..start + side].copy_from_slice(line);
        }
    }
    Picture { pixels }
}

/// How the png crate compresses a picture: fdeflate, its fast compressor
/// made for PNG, on rows filtered by the row above (a picture's rows
/// mostly repeat the one above: the frame and the tiles' grounds). What
/// the crate calls `Compression::Fastest`, named here so that a new
/// meaning of that name in the crate does not change pictures unseen.
/// `cargo bench --bench pictures` compares it with the crate's other
/// settings: flate2's level 1 makes a middlegame a third smaller (14 KB
/// against 21 KB) but takes about nine times as long (0.37 ms against
/// 0.04 ms), in every board mail; the adaptive filter saves 3 KB for
/// twice the time.
pub const DEFLATE: png::DeflateCompression = png::DeflateCompression::FdeflateUltraFast;
/// The row filter used with [`DEFLATE`].
pub const FILTER: png::Filter = png::Filter::Up;

/// The picture as a PNG file (8-bit palette): the pixels [`draw`] draws,
/// compressed by the png crate ([`DEFLATE`], [`FILTER`]).
pub fn png(scene: &Scene) -> Vec<u8> {
    encode_with(&draw(scene), DEFLATE, FILTER)
}

/// The number of the tile of a square with `piece` on `ground`.
fn tile_of(piece: Option<Piece>, ground: usize) -> usize {
    match piece {
        Some(piece) => piece_index(piece) * GROUNDS + ground,
        None => 12 * GROUNDS + ground,
    }
}

/// The number of the tile `square` shows in `scene`.
fn tile_at(scene: &Scene, square: Square) -> usize {
    tile_of(
        scene.board.piece_at(square),
        ground(
            square,
            scene.marked.contains(&square),
            scene.check == Some(square),
        ),
    )
}

/// The palette indices of tile number `tile`, row by row.
fn tile_pixels(parts: &Parts, tile: usize) -> &[u8] {
    match parts.pieces.get(tile / GROUNDS) {
        Some(grounds) => &grounds[tile % GROUNDS],
        None => &parts.grounds[tile % GROUNDS],
    }
}

/// Encodes a drawn picture with the png crate's `compression` and row
/// `filter` ([`png()`] with [`DEFLATE`] and [`FILTER`]; the pictures
/// benchmark compares the others).
pub fn encode_with(
    picture: &Picture,
    compression: png::DeflateCompression,
    filter: png::Filter,
) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 * 1024);
    let mut encoder = header(&mut out);
    encoder.set_deflate_compression(compression);
    encoder.set_filter(filter);
    // Writing to a Vec cannot fail, and the size and data length agree.
    let mut writer = encoder
        .write_header()
        .expect("a PNG header is written to memory");
    writer
        .write_image_data(&picture.pixels)
        .expect("the data matches the picture's size");
    drop(writer);
    out
}

/// A PNG of the picture's size and palette, to be written to `out`.
fn header(out: &mut Vec<u8>) -> png::Encoder<'_, &mut Vec<u8>> {
    let mut encoder = png::Encoder::new(out, SIZE, SIZE);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(parts().palette_bytes.as_slice());
    encoder
}

/// Everything a picture is put together from, drawn once per process.
struct Parts {
    palette: Palette,
    palette_bytes: Vec<u8>,
    /// The empty board with coordinates, from White's and Black's side.
    frames: [Vec<u8>; 2],
    /// An empty square of each ground.
    grounds: [Vec<u8>; GROUNDS],
    /// Each piece (see [`piece_index`]) on each ground.
    pieces: [[Vec<u8>; GROUNDS]; 12],
}

fn parts() -> &'static Parts {
    static PARTS: OnceLock<Parts> = OnceLock::new();
    PARTS.get_or_init(|| {
        let frames = [
            rasterize(&frame_svg(Color::White), SIZE),
            rasterize(&frame_svg(Color::Black), SIZE),
        ];
        let grounds: [Pixmap; GROUNDS] = std::array::from_fn(ground_tile);
        let pieces: [Pixmap; 12] =
            PIECE_SVGS.map(|svg| rasterize(std::str::from_utf8(svg).unwrap_or(""), SQUARE));
        let on_grounds: [[Pixmap; GROUNDS]; 12] = std::array::from_fn(|piece| {
            std::array::from_fn(|ground| {
                let mut tile = grounds[ground].clone();
                tile.draw_pixmap(
                    0,
                    0,
                    pieces[piece].as_ref(),
                    &PixmapPaint::default(),
                    Transform::identity(),
                    None,
                );
                tile
            })
        });
        let mut histogram: HashMap<Rgb, u64> = HashMap::new();
        let all = frames
            .iter()
            .chain(grounds.iter())
            .chain(on_grounds.iter().flatten());
        for pixmap in all {
            for pixel in pixmap.data().chunks_exact(4) {
                *histogram.entry([pixel[0], pixel[1], pixel[2]]).or_default() += 1;
            }
        }
        let palette = Palette::new(
            &histogram,
            &[FRAME, LIGHT, DARK, LIGHT_MARKED, DARK_MARKED, [0, 0, 0]],
        );
        // Every pixel is opaque (the frame and the grounds are), so
        // premultiplied equals plain.
        let indexed = |pixmap: &Pixmap| -> Vec<u8> {
            pixmap
                .data()
                .chunks_exact(4)
                .map(|p| palette.index_of([p[0], p[1], p[2]]))
                .collect()
        };
        Parts {
            palette_bytes: palette.bytes(),
            frames: frames.each_ref().map(indexed),
            grounds: grounds.each_ref().map(indexed),
            pieces: on_grounds.each_ref().map(|row| row.each_ref().map(indexed)),
            palette,
        }
    })
}

/// An empty square of `ground` (see [`ground`]), its top-left pixel at 0, 0.
fn ground_tile(ground: usize) -> Pixmap {
    let dark = ground & 1 == 1;
    let marked = ground & 2 == 2;
    let check = ground & 4 == 4;
    let colour = match (dark, marked) {
        (false, false) => LIGHT,
        (true, false) => DARK,
        (false, true) => LIGHT_MARKED,
        (true, true) => DARK_MARKED,
    };
    let mut tile = Pixmap::new(SQUARE, SQUARE).expect("a square of non-zero size");
    tile.fill(SkColor::from_rgba8(colour[0], colour[1], colour[2], 255));
    if check {
        ring(&mut tile);
    }
    tile
}

/// A red ring inside a square's tile, for a king in check.
fn ring(tile: &mut Pixmap) {
    let half = SQUARE as f32 / 2.0;
    let Some(circle) = PathBuilder::from_circle(half, half, half - 2.5) else {
        return;
    };
    let mut paint = Paint::default();
    paint.set_color(SkColor::from_rgba8(CHECK[0], CHECK[1], CHECK[2], 255));
    paint.anti_alias = true;
    let stroke = Stroke {
        width: 4.0,
        ..Stroke::default()
    };
    tile.stroke_path(&circle, &paint, &stroke, Transform::identity(), None);
    // A light red wash inside the ring.
    paint.set_color(SkColor::from_rgba8(CHECK[0], CHECK[1], CHECK[2], 70));
    tile.fill_path(
        &circle,
        &paint,
        FillRule::Winding,
        Transform::identity(),
        None,
    );
}

/// The SVG of the empty board seen from `viewer`'s side.
pub fn frame_svg(viewer: Color) -> String {
    let hex = |c: [u8; 3]| format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2]);
    let mut svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}"><rect width="{SIZE}" height="{SIZE}" fill="{}"/>"#,
        hex(FRAME)
    );
    for square in Square::ALL {
        let (x, y) = origin(square, viewer);
        let fill = if square.is_dark() {
            hex(DARK)
        } else {
            hex(LIGHT)
        };
        svg.push_str(&format!(
            r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
        ));
    }
    // Glyphs are drawn in a box 4.5 units wide and 7 high (descenders to
    // 9.5), scaled to 10 pixels of height.
    let scale = 10.0 / 7.0;
    let glyph = |svg: &mut String, path: &str, x: f32, y: f32| {
        svg.push_str(&format!(
            r#"<path d="{path}" transform="translate({x} {y}) scale({scale})" fill="none" stroke="{INK}" stroke-width="0.95" stroke-linecap="round" stroke-linejoin="round"/>"#
        ));
    };
    let half = SQUARE as f32 / 2.0;
    let glyph_half_width = 2.25 * scale;
    for file in File::ALL {
        let (x, _) = origin(Square::from_coords(file, Rank::First), viewer);
        let x = x as f32 + half - glyph_half_width;
        let path = FILE_GLYPHS[usize::from(file)];
        glyph(&mut svg, path, x, 1.5);
        glyph(&mut svg, path, x, (SIZE - MARGIN) as f32 + 1.5);
    }
    for rank in Rank::ALL {
        let (_, y) = origin(Square::from_coords(File::A, rank), viewer);
        let y = y as f32 + half - 5.0;
        let path = RANK_GLYPHS[usize::from(rank)];
        glyph(&mut svg, path, 4.5, y);
        glyph(&mut svg, path, (SIZE - MARGIN) as f32 + 4.5, y);
    }
    svg.push_str("</svg>");
    svg
}

/// Stroke drawings of `a`..`h`.
const FILE_GLYPHS: [&str; 8] = [
    "M1 3 Q2.5 2.2 4 3 L4 7 M4 4.6 Q0.5 4.2 0.5 5.8 Q1 7.3 4 6.2",
    "M0.5 0 L0.5 7 M0.5 4 Q2 2.3 3.8 3.2 Q4.6 4.8 3.8 6.3 Q2 7.6 0.5 6",
    "M4 3.2 Q2.5 2.2 1 3.2 Q0.2 4.8 1 6.3 Q2.5 7.4 4 6.5",
    "M4 0 L4 7 M4 4 Q2.5 2.3 0.7 3.2 Q-0.1 4.8 0.7 6.3 Q2.5 7.6 4 6",
    "M0.5 4.8 L4 4.8 Q4 2.6 2.3 2.6 Q0.5 2.6 0.5 4.8 Q0.5 7 2.3 7 Q3.4 7 4 6.3",
    "M3.8 0.6 Q2 -0.3 1.8 1.5 L1.8 7 M0.5 3 L3.5 3",
    "M4 2.7 L4 7.8 Q3.8 9.5 1 9 M4 4 Q2.5 2.3 0.7 3.2 Q-0.1 4.8 0.7 6.3 Q2.5 7.6 4 6",
    "M0.5 0 L0.5 7 M0.5 4 Q2 2.3 3.5 3 Q4 3.5 4 4.5 L4 7",
];

/// Stroke drawings of `1`..`8`.
const RANK_GLYPHS: [&str; 8] = [
    "M1 1.5 L2.5 0.3 L2.5 7 M1 7 L4 7",
    "M0.6 1.5 Q2 -0.5 3.6 1 Q4.4 2.5 3 4 L0.5 7 L4.2 7",
    "M0.6 0.5 L4 0.5 L2 3 Q4.5 3 4.2 5.2 Q3.6 7.4 0.5 6.5",
    "M3 7 L3 0.3 L0.3 5 L4.5 5",
    "M4 0.5 L1 0.5 L0.7 3.3 Q3.5 2.3 4.1 4.6 Q4 7.3 0.6 6.6",
    "M3.8 0.6 Q1 0 0.6 3.5 Q0.3 7 2.3 7 Q4.2 7 4.2 5 Q4.1 3 2.3 3 Q0.8 3 0.6 4.5",
    "M0.5 0.5 L4.3 0.5 L1.8 7",
    "M2.3 3.3 Q0.7 3 0.8 1.8 Q1 0.3 2.3 0.3 Q3.7 0.3 3.8 1.8 Q3.9 3 2.3 3.3 Q0.4 3.6 0.4 5.2 Q0.5 7 2.3 7 Q4.1 7 4.2 5.2 Q4.2 3.6 2.3 3.3 Z",
];

/// The piece drawings, white then black, king to pawn.
const PIECE_SVGS: [&[u8]; 12] = [
    include_bytes!("../../assets/pieces/wK.svg"),
    include_bytes!("../../assets/pieces/wQ.svg"),
    include_bytes!("../../assets/pieces/wR.svg"),
    include_bytes!("../../assets/pieces/wB.svg"),
    include_bytes!("../../assets/pieces/wN.svg"),
    include_bytes!("../../assets/pieces/wP.svg"),
    include_bytes!("../../assets/pieces/bK.svg"),
    include_bytes!("../../assets/pieces/bQ.svg"),
    include_bytes!("../../assets/pieces/bR.svg"),
    include_bytes!("../../assets/pieces/bB.svg"),
    include_bytes!("../../assets/pieces/bN.svg"),
    include_bytes!("../../assets/pieces/bP.svg"),
];

fn piece_index(piece: Piece) -> usize {
    let role = match piece.role {
        Role::King => 0,
        Role::Queen => 1,
        Role::Rook => 2,
        Role::Bishop => 3,
        Role::Knight => 4,
        Role::Pawn => 5,
    };
    role + if piece.color == Color::Black { 6 } else { 0 }
}

/// Rasterizes an SVG of our own into a square pixmap of `size` pixels. The
/// SVGs are built into the binary and tested, so they always parse; an
/// empty pixmap would stand in otherwise.
fn rasterize(svg: &str, size: u32) -> Pixmap {
    let mut pixmap = Pixmap::new(size, size).expect("a picture of non-zero size");
    let Ok(tree) = usvg::Tree::from_str(svg, &usvg::Options::default()) else {
        tracing::error!("a built-in SVG does not parse");
        return pixmap;
    };
    let scale = size as f32 / tree.size().width().max(tree.size().height());
    resvg::render(
        &tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_built_in_svg_parses() {
        for svg in PIECE_SVGS {
            let text = std::str::from_utf8(svg).expect("utf-8");
            usvg::Tree::from_str(text, &usvg::Options::default()).expect("parses");
        }
        for viewer in [Color::White, Color::Black] {
            usvg::Tree::from_str(&frame_svg(viewer), &usvg::Options::default()).expect("parses");
        }
    }

    #[test]
    fn squares_sit_where_the_viewer_expects_them() {
        assert_eq!(
            origin(Square::A1, Color::White),
            (MARGIN, MARGIN + 7 * SQUARE)
        );
        assert_eq!(
            origin(Square::A1, Color::Black),
            (MARGIN + 7 * SQUARE, MARGIN)
        );
        assert_eq!(
            origin(Square::H8, Color::Black),
            (MARGIN, MARGIN + 7 * SQUARE)
        );
        let picture = draw(&Scene {
            board: Board::new(),
            viewer: Color::White,
            marked: vec![Square::E4],
            check: None,
        });
        // An empty corner of e4 is marked; d4 (dark) is not.
        let (x, y) = origin(Square::E4, Color::White);
        assert_eq!(picture.colour(x + 2, y + 2), LIGHT_MARKED);
        let (x, y) = origin(Square::D4, Color::White);
        assert_eq!(picture.colour(x + 2, y + 2), DARK);
    }

    #[test]
    fn the_palette_keeps_every_colour_near_its_own() {
        let parts = parts();
        assert!(parts.palette.colours.len() <= 256);
        // The king on a marked dark square, ringed for check, drawn in RGB
        // as tiny-skia draws it, against its palette version.
        let mut tile = ground_tile(ground(Square::E1, true, true));
        let king = rasterize(std::str::from_utf8(PIECE_SVGS[0]).expect("utf-8"), SQUARE);
        tile.draw_pixmap(
            0,
            0,
            king.as_ref(),
            &PixmapPaint::default(),
            Transform::identity(),
            None,
        );
        let indexed = &parts.pieces[0][ground(Square::E1, true, true)];
        for (pixel, &index) in tile.data().chunks_exact(4).zip(indexed) {
            let shown = parts.palette.colours[usize::from(index)];
            for channel in 0..3 {
                assert!(
                    pixel[channel].abs_diff(shown[channel]) <= 24,
                    "{pixel:?} shown as {shown:?}"
                );
            }
        }
    }

    #[test]
    fn a_king_in_check_is_ringed_and_the_frame_has_coordinates() {
        let picture = draw(&Scene {
            board: Board::new(),
            viewer: Color::White,
            marked: Vec::new(),
            check: Some(Square::E8),
        });
        // The ring crosses the square's diagonal 7 pixels in from its
        // corner, beside the king.
        let (x, y) = origin(Square::E8, Color::White);
        let [red, green, blue] = picture.colour(x + 7, y + 7);
        assert!(
            red > 150 && green < 100 && blue < 100,
            "{red} {green} {blue}"
        );
        let (x, y) = origin(Square::D4, Color::White);
        assert_eq!(picture.colour(x + 7, y + 7), DARK);
        // Ink in the margins beside each rank and below each file.
        let ink = |x0: u32, y0: u32, w: u32, h: u32| {
            (y0..y0 + h)
                .flat_map(|y| (x0..x0 + w).map(move |x| (x, y)))
                .filter(|&(x, y)| picture.colour(x, y).iter().all(|&c| c < 0xc0))
                .count()
        };
        for rank in 0..8 {
            let y = MARGIN + rank * SQUARE;
            assert!(ink(0, y, MARGIN, SQUARE) > 5, "rank row {rank}");
            assert!(ink(SIZE - MARGIN, y, MARGIN, SQUARE) > 5, "rank row {rank}");
        }
        for file in 0..8 {
            let x = MARGIN + file * SQUARE;
            assert!(ink(x, 0, SQUARE, MARGIN) > 5, "file column {file}");
            assert!(
                ink(x, SIZE - MARGIN, SQUARE, MARGIN) > 5,
                "file column {file}"
            );
        }
    }

    #[test]
    fn the_png_is_small() {
        let bytes = png(&Scene {
            board: Board::new(),
            viewer: Color::Black,
            marked: vec![Square::E2, Square::E4],
            check: Some(Square::E8),
        });
        if let Ok(dir) = std::env::var("PBEM_PICTURE_OUT") {
            std::fs::write(format!("{dir}/start.png"), &bytes).expect("written");
        }
        assert!(bytes.len() < 30 * 1024, "{} bytes", bytes.len());
        // Colour type 3 (a palette), byte 25 of the header.
        assert_eq!(bytes[25], 3);
    }

    /// The palette indices of a PNG, as a decoder reads them.
    fn decoded(bytes: &[u8]) -> Vec<u8> {
        let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = decoder.read_info().expect("a PNG");
        let mut pixels = vec![0; reader.output_buffer_size().expect("a size")];
        reader.next_frame(&mut pixels).expect("its pixels");
        pixels
    }

    #[test]
    fn the_png_shows_what_is_drawn() {
        let middlegame: Board = "r1bq1b1r/ppp2kpp/2n5/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R"
            .parse()
            .expect("a board");
        let lone_kings: Board = "8/8/8/4k3/8/8/3K4/8".parse().expect("a board");
        for board in [Board::new(), middlegame, lone_kings, Board::empty()] {
            for viewer in [Color::White, Color::Black] {
                for (marked, check) in [
                    (vec![], None),
                    (vec![Square::D1, Square::F3], Some(Square::F7)),
                    (
                        vec![Square::E1, Square::G1, Square::H1, Square::F1],
                        Some(Square::E8),
                    ),
                    // A marked empty square in check: a corrupt row's picture.
                    (vec![Square::A1, Square::H8], Some(Square::A1)),
                ] {
                    let scene = Scene {
                        board: board.clone(),
                        viewer,
                        marked,
                        check,
                    };
                    assert_eq!(decoded(&png(&scene)), draw(&scene).pixels, "{scene:?}");
                }
            }
        }
    }

    /// Random boards (a fixed seed): every piece on every kind of square,
    /// marked or not, ringed or not, from both sides, decodes to exactly
    /// the drawn pixels: the broad check of the PNG beside the hand-picked
    /// positions above.
    #[test]
    fn random_pngs_show_what_is_drawn() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |below: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        };
        let roles = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ];
        for _ in 0..300 {
            let mut board = Board::empty();
            let fill = next(4) + 1;
            for square in Square::ALL {
                if next(4) < fill {
                    let color = if next(2) == 0 {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let role = roles[next(6) as usize];
                    board.set_piece_at(square, Piece { color, role });
                }
            }
            let marked = (0..next(5))
                .map(|_| Square::ALL[next(64) as usize])
                .collect();
            let check = (next(2) == 0).then(|| Square::ALL[next(64) as usize]);
            let viewer = if next(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            let scene = Scene {
                board,
                viewer,
                marked,
                check,
            };
            assert_eq!(decoded(&png(&scene)), draw(&scene).pixels, "{scene:?}");
        }
    }
}
