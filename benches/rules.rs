//! Rules-engine benchmarks.
//!
//! * perft on standard chess through the variant layer, beside shakmaty's
//!   own `Chess` perft in the same run (goal: at least 0.7 of its speed);
//! * enumerating every legal whole turn of a busy middlegame position in
//!   marseillais, chess2, twinmove, doublestep and doubletime (goal: under
//!   2 ms each on one core).
//!
//! Criterion measures and reports each benchmark; each routine also records
//! its own timings so that the ratios and goals can be printed at the end.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use criterion::{Bencher, Criterion};
use pbem::rules::{Game, Variant};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

/// A busy middlegame ("Kiwipete", with a move number past the opening).
const MIDDLEGAME: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 12";
const PERFT_DEPTH: u32 = 4;

/// Total time and iterations per benchmark, as measured by the routines.
static MEASURED: Mutex<BTreeMap<&'static str, (Duration, u64)>> = Mutex::new(BTreeMap::new());

fn timed(name: &'static str, bencher: &mut Bencher, mut routine: impl FnMut()) {
    bencher.iter_custom(|iterations| {
        let start = Instant::now();
        for _ in 0..iterations {
            routine();
        }
        let elapsed = start.elapsed();
        let mut measured = MEASURED.lock().expect("no panics while holding the lock");
        let entry = measured.entry(name).or_default();
        entry.0 += elapsed;
        entry.1 += iterations;
        elapsed
    });
}

fn mean(name: &str) -> Option<Duration> {
    let measured = MEASURED.lock().expect("no panics while holding the lock");
    let &(total, iterations) = measured.get(name)?;
    (iterations > 0).then(|| total / u32::try_from(iterations).unwrap_or(u32::MAX))
}

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft-chess");
    group.sample_size(10);
    let game = Game::new(Variant::Chess);
    let state = game.state().clone();
    let rules = game.rules();
    group.bench_function("pbem-variant-layer", |b| {
        timed("pbem", b, || {
            black_box(state.perft(rules, PERFT_DEPTH));
        })
    });
    let chess = Chess::default();
    group.bench_function("shakmaty-chess", |b| {
        timed("shakmaty", b, || {
            black_box(shakmaty::perft(&chess, PERFT_DEPTH));
        })
    });
    let kiwipete: Chess = MIDDLEGAME
        .parse::<Fen>()
        .expect("valid FEN")
        .into_position(CastlingMode::Standard)
        .expect("legal position");
    let kiwi_game = Game::from_fen(Variant::Chess, MIDDLEGAME).expect("legal position");
    let kiwi_state = kiwi_game.state().clone();
    group.bench_function("pbem-variant-layer-kiwipete-3", |b| {
        timed("pbem-kiwipete", b, || {
            black_box(kiwi_state.perft(rules, 3));
        })
    });
    group.bench_function("shakmaty-chess-kiwipete-3", |b| {
        timed("shakmaty-kiwipete", b, || {
            black_box(shakmaty::perft(&kiwipete, 3));
        })
    });
    group.finish();
}

/// The variants whose middlegame enumeration is timed, by id.
const ENUMERATED: [&str; 5] = [
    "marseillais",
    "chess2",
    "twinmove",
    "doublestep",
    "doubletime",
];

fn bench_enumeration(c: &mut Criterion) {
    let mut group = c.benchmark_group("all-legal-turns-middlegame");
    for name in ENUMERATED {
        let variant: Variant = name.parse().expect("known variant");
        let game = Game::from_fen(variant, MIDDLEGAME).expect("legal position");
        let state = game.state().clone();
        let rules = game.rules();
        group.bench_function(name, |b| {
            timed(name, b, || {
                black_box(state.legal_turns(rules));
            })
        });
    }
    group.finish();
}

fn report() {
    println!("\n== pbem rules benchmarks: summary ==");
    if let (Some(pbem), Some(reference)) = (mean("pbem"), mean("shakmaty")) {
        let ratio = reference.as_secs_f64() / pbem.as_secs_f64();
        println!(
            "chess perft({PERFT_DEPTH}) start: pbem {pbem:.2?}, shakmaty {reference:.2?}: speed ratio {ratio:.2} (goal >= 0.70)"
        );
    }
    if let (Some(pbem), Some(reference)) = (mean("pbem-kiwipete"), mean("shakmaty-kiwipete")) {
        let ratio = reference.as_secs_f64() / pbem.as_secs_f64();
        println!(
            "chess perft(3) kiwipete: pbem {pbem:.2?}, shakmaty {reference:.2?}: speed ratio {ratio:.2} (goal >= 0.70)"
        );
    }
    for name in ENUMERATED {
        if let Some(time) = mean(name) {
            let game = Game::from_fen(name.parse().expect("known variant"), MIDDLEGAME)
                .expect("legal position");
            let turns = game.state().legal_turns(game.rules()).len();
            println!(
                "{name}: all {turns} legal turns of the middlegame in {time:.2?} (goal < 2 ms)"
            );
        }
    }
}

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    bench_perft(&mut criterion);
    bench_enumeration(&mut criterion);
    criterion.final_summary();
    if std::env::args().any(|arg| arg == "--bench") {
        report();
    }
}
