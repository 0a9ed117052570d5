//! Agreement of pbem's Dutch engine with the FIDE-endorsed bbpPairings on
//! random tournaments (`tests/data/random-dutch.trf.gz` in this crate, made
//! and paired round by round by bbpPairings' own generator, and
//! `random-accelerated.trf.gz`, accelerated events paired round by round by
//! bbpPairings; see docs/design.md, "Swiss pairing: FIDE Dutch by weighted
//! matching"). Every round of every tournament is re-paired by pbem from the
//! rounds before it and compared pair by pair and colour by colour.
//!
//! FIDE's bar for endorsing a pairing program is the same pairings on at
//! least 4,990 of 5,000 random tournaments; pbem pairs all 5,000 (and all
//! 400 accelerated ones) as bbpPairings does, and the test asserts that, so
//! any change of a single round's pairing fails it.
//! An optimised build (`cargo test -p pbem-pairing --release --test pairing
//! agreement::`) checks every tournament; a debug build checks every 20th
//! (it is about ten times slower) and says so; `PBEM_AGREEMENT_ALL=1` checks
//! all in any build.

use std::io::Read;

use pbem_pairing::{check, trf};

fn tournaments(name: &str) -> Vec<(String, String)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let file = std::fs::File::open(path).expect("the committed data set");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip");
    let mut out: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if let Some(name) = line.strip_prefix("=== ") {
            out.push((name.to_string(), String::new()));
        } else if let Some(last) = out.last_mut() {
            last.1.push_str(line);
            last.1.push('\n');
        }
    }
    out
}

/// Re-pairs every `every`-th tournament of a data set; (tournaments,
/// rounds, the tournaments that differ with their differing rounds).
fn agreement(all: &[(String, String)], every: usize) -> (usize, u32, Vec<(String, Vec<u32>)>) {
    let chosen: Vec<&(String, String)> = all.iter().step_by(every).collect();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(8);
    let results: Vec<(String, u32, Vec<u32>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let chosen = &chosen;
                scope.spawn(move || {
                    let mut out = Vec::new();
                    for (name, text) in chosen.iter().skip(t).step_by(threads) {
                        let tournament = trf::parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
                        let report =
                            check::check(&tournament).unwrap_or_else(|e| panic!("{name}: {e}"));
                        out.push((
                            name.clone(),
                            report.rounds,
                            report.deviations.iter().map(|d| d.round).collect(),
                        ));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a checking thread"))
            .collect()
    });
    let rounds: u32 = results.iter().map(|r| r.1).sum();
    let mut differing: Vec<(String, Vec<u32>)> = results
        .iter()
        .filter(|r| !r.2.is_empty())
        .map(|r| (r.0.clone(), r.2.clone()))
        .collect();
    differing.sort();
    (results.len(), rounds, differing)
}

/// Every tournament in an optimised build or with `PBEM_AGREEMENT_ALL`,
/// else every 20th.
fn step() -> usize {
    if cfg!(debug_assertions) && std::env::var_os("PBEM_AGREEMENT_ALL").is_none() {
        20
    } else {
        1
    }
}

#[test]
fn dutch_pairings_agree_with_the_endorsed_engine() {
    let all = tournaments("random-dutch.trf.gz");
    assert_eq!(all.len(), 5000, "the tournaments of the data set");
    let every = step();
    let (checked, rounds, differing) = agreement(&all, every);
    let agree = checked - differing.len();
    println!(
        "Dutch agreement with bbpPairings: {agree} of {checked} tournaments identical in every round ({rounds} rounds paired){}",
        if every > 1 {
            format!(
                "; debug build: every {every}th of the {} committed tournaments",
                all.len()
            )
        } else {
            String::new()
        }
    );
    for (name, rounds) in &differing {
        println!("  differs: {name} rounds {rounds:?}");
    }
    // Every tournament (FIDE's bar is 4,990 of 5,000; pbem meets all of
    // them since t02226.trf round 7 was fixed: docs/design.md, "Resuming a
    // matching"; tests/pairing/cases.rs keeps the round).
    assert_eq!(
        checked,
        all.len().div_ceil(every),
        "every chosen tournament was checked"
    );
    assert_eq!(agree, checked, "{agree} of {checked} agree");
}

#[test]
fn accelerated_pairings_agree_with_the_endorsed_engine() {
    let all = tournaments("random-accelerated.trf.gz");
    assert_eq!(all.len(), 400, "the tournaments of the data set");
    // A debug build checks every 5th.
    let every = if step() > 1 { 5 } else { 1 };
    let (checked, rounds, differing) = agreement(&all, every);
    let agree = checked - differing.len();
    println!(
        "Accelerated Dutch agreement with bbpPairings: {agree} of {checked} tournaments identical in every round ({rounds} rounds paired){}",
        if every > 1 {
            format!("; debug build: every {every}th of {}", all.len())
        } else {
            String::new()
        }
    );
    for (name, rounds) in &differing {
        println!("  differs: {name} rounds {rounds:?}");
    }
    assert_eq!(
        checked,
        all.len().div_ceil(every),
        "every chosen tournament was checked"
    );
    assert_eq!(agree, checked, "{agree} of {checked} agree");
}
