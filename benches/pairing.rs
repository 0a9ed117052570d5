//! Speed of the Dutch engine: one round of 1,000 players (the goal is under
//! a second) and one of 150, each printed beside the FIDE-endorsed
//! bbpPairings on the same file when its binary is named by `BBP_PAIRINGS`
//! (built outside the repository from its public source); it says so when
//! it is not. Both engines' pairings are also compared. A whole round of
//! 1,000 players takes several seconds, so this times one run each rather
//! than sampling.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

use pbem::pairing::{Tournament, dutch, trf};

/// A file of the pairing crate's test data.
fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("crates/pbem-pairing/tests/data")
        .join(name)
}

/// The first tournament of the committed set with `players` players, cut
/// before its last round.
fn cut_from_set(players: usize) -> Tournament {
    use std::io::Read;
    let file = std::fs::File::open(data("random-dutch.trf.gz")).expect("data set");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip");
    for chunk in text.split("=== ").skip(1) {
        let body = chunk.split_once('\n').map_or("", |c| c.1);
        let mut t = trf::parse(body).expect("trf");
        if t.players.len() == players {
            let rounds = t.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0);
            for p in &mut t.players {
                p.rounds.truncate(rounds - 1);
            }
            t.total_rounds = Some(rounds as u32);
            return t;
        }
    }
    panic!("no tournament of {players} players in the data set");
}

fn bbp() -> Option<PathBuf> {
    let path = PathBuf::from(std::env::var_os("BBP_PAIRINGS")?);
    path.exists().then_some(path)
}

fn run(label: &str, t: &Tournament) {
    let start = Instant::now();
    let ours = dutch::pair(t).expect("a pairing");
    let secs = start.elapsed().as_secs_f64();
    println!("{label}: pbem {secs:.3} s ({} pairs)", ours.pairs.len());
    match bbp() {
        None => println!("{label}: bbpPairings not found (set BBP_PAIRINGS); no reference time"),
        Some(bin) => {
            let dir = std::env::temp_dir().join(format!("pbem-bench-{}", std::process::id()));
            std::fs::create_dir_all(&dir).expect("temp dir");
            let input = dir.join("round.trf");
            let output = dir.join("pairs.txt");
            std::fs::write(&input, trf::write(t)).expect("write trf");
            let start = Instant::now();
            let status = Command::new(&bin)
                .arg("--dutch")
                .arg(&input)
                .arg("-p")
                .arg(&output)
                .status();
            let ref_secs = start.elapsed().as_secs_f64();
            match status {
                Ok(s) if s.success() => {
                    let theirs = std::fs::read_to_string(&output).unwrap_or_default();
                    let same = theirs.trim() == pbem_format(&ours).trim();
                    println!(
                        "{label}: bbpPairings {ref_secs:.3} s; pbem/bbpPairings = {:.2}; same pairings: {same}",
                        secs / ref_secs
                    );
                }
                other => println!("{label}: bbpPairings failed: {other:?}"),
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

fn pbem_format(p: &pbem::pairing::Pairing) -> String {
    let mut out = format!("{}\n", p.pairs.len() + usize::from(p.bye.is_some()));
    for (w, b) in &p.pairs {
        out.push_str(&format!("{w} {b}\n"));
    }
    if let Some(b) = p.bye {
        out.push_str(&format!("{b} 0\n"));
    }
    out
}

fn main() {
    run("150 players, last round", &cut_from_set(150));
    // `cargo test --all-targets` runs benchmarks once as a smoke test
    // (without `--bench`): the 150-player round shows it works; the
    // 1,000-player round, several seconds, is for `cargo bench`.
    if !std::env::args().any(|a| a == "--bench") {
        println!("1,000 players: measured by `cargo bench --bench pairing` only");
        return;
    }
    let text = std::fs::read_to_string(data("bench-1000.trf")).expect("bench-1000.trf");
    run("1,000 players, round 5", &trf::parse(&text).expect("trf"));
}
