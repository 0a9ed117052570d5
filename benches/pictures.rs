//! Board picture benchmark: drawing one board PNG (goal: under 2 ms) and
//! its size (goal: under 30 KB), for a middlegame position seen from each
//! side with the last turn marked and a king in check.
//!
//! The reference, measured in the same run: drawing the same position as
//! the ASCII board of the text part (`render::board::draw`). The ratio
//! says what the picture costs against the board every mail already has.
//! The printed summary also gives the time to draw the picture's pixels
//! alone, and compares the png crate's settings on the drawn pixels (the
//! one pictures use, `picture::DEFLATE` and `picture::FILTER`, among them).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::Criterion;
use pbem::render::board::{BoardStyle, draw};
use pbem::render::picture::{self, Scene};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Color, Position, Square};

/// After 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.Ng5 d5 5.exd5 Nxd5 6.Nxf7 Kxf7
/// 7.Qf3+ (Black in check).
const FEN: &str = "r1bq1b1r/ppp2kpp/2n5/3np3/2B5/5Q2/PPPP1PPP/RNB1K2R b KQ - 1 7";

/// The median of `runs` timed calls of `f`.
fn median_of(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn main() {
    let measuring = std::env::args().any(|arg| arg == "--bench");
    let position: Chess = FEN
        .parse::<Fen>()
        .expect("a FEN")
        .into_position(CastlingMode::Standard)
        .expect("a legal position");
    let board = position.board().clone();
    let scene = |viewer| Scene {
        board: board.clone(),
        viewer,
        marked: vec![Square::D1, Square::F3],
        check: Some(Square::F7),
    };
    let mut criterion = Criterion::default().configure_from_args();
    for viewer in [Color::White, Color::Black] {
        criterion.bench_function(&format!("board png ({viewer:?}'s side)"), |b| {
            b.iter(|| black_box(picture::png(&scene(viewer))))
        });
    }
    criterion.bench_function("ascii board (reference)", |b| {
        b.iter(|| black_box(draw(&board, Color::White, BoardStyle::Full)))
    });
    criterion.final_summary();

    for viewer in [Color::White, Color::Black] {
        let png = picture::png(&scene(viewer));
        assert!(png.len() < 30 * 1024, "{viewer:?}: {} bytes", png.len());
    }
    let png = picture::png(&scene(Color::Black));
    if measuring {
        let runs = 200;
        // The first call rasterizes the pieces and frames (once per process).
        let whole = median_of(runs, || {
            black_box(picture::png(&scene(Color::Black)));
        });
        let drawing = median_of(runs, || {
            black_box(picture::draw(&scene(Color::Black)));
        });
        let ascii = median_of(runs, || {
            black_box(draw(&board, Color::Black, BoardStyle::Full));
        });
        println!("\n== pbem board pictures: summary (medians of {runs} runs) ==");
        println!(
            "board PNG: {whole:.2?} (goal < 2 ms: {}), drawn and compressed by the png crate (drawing alone: {drawing:.2?})",
            if whole < Duration::from_millis(2) {
                "met"
            } else {
                "MISSED"
            }
        );
        println!(
            "PNG size: {} bytes, {:.1} KB (goal < 30 KB), {}x{} pixels",
            png.len(),
            png.len() as f64 / 1024.0,
            picture::SIZE,
            picture::SIZE
        );
        println!(
            "reference, the ASCII board: {ascii:.2?}; ratio picture / ASCII board {:.0}x",
            whole.as_secs_f64() / ascii.as_secs_f64().max(1e-9)
        );
        println!(
            "the png crate's settings compared on the drawn pixels (time, size; drawing not counted):"
        );
        let picture = picture::draw(&scene(Color::Black));
        for (name, compression, filter) in [
            (
                "fdeflate, Up filter (Compression::Fastest)",
                png::DeflateCompression::FdeflateUltraFast,
                png::Filter::Up,
            ),
            (
                "fdeflate, adaptive filter (Compression::Fast)",
                png::DeflateCompression::FdeflateUltraFast,
                png::Filter::Adaptive,
            ),
            (
                "fdeflate, no filter",
                png::DeflateCompression::FdeflateUltraFast,
                png::Filter::NoFilter,
            ),
            (
                "flate2 level 1, Up filter",
                png::DeflateCompression::Level(1),
                png::Filter::Up,
            ),
            (
                "flate2 level 1, adaptive filter",
                png::DeflateCompression::Level(1),
                png::Filter::Adaptive,
            ),
            (
                "flate2 level 1, no filter",
                png::DeflateCompression::Level(1),
                png::Filter::NoFilter,
            ),
            (
                "flate2 level 6, adaptive filter (Compression::Balanced, the crate's default)",
                png::DeflateCompression::Level(6),
                png::Filter::Adaptive,
            ),
        ] {
            let time = median_of(runs, || {
                black_box(picture::encode_with(&picture, compression, filter));
            });
            let size = picture::encode_with(&picture, compression, filter).len();
            // The crate's compression settings have no equality but their
            // names.
            let used = format!("{compression:?}") == format!("{:?}", picture::DEFLATE)
                && filter == picture::FILTER;
            let used = if used { " (used)" } else { "" };
            println!("  {name}{used}: {time:.2?}, {size} bytes");
        }
    }
}
