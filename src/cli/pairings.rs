//! `pbem pairings`: the Dutch pairing engine on a TRF file.
//!
//! `--dutch FILE` prints the next round in bbpPairings' `-p` format (the
//! number of pairs, then `white black` per line, `0` as the opponent of the
//! pairing-allocated bye). `--check FILE` re-pairs every round in the file
//! and names the first that differs. Exit codes: 0 done (check: every round
//! agrees), 1 no valid pairing exists (pair) or a round differs (check),
//! 2 the file cannot be read or is not a consistent tournament.

use std::path::Path;

use super::CliError;
use crate::pairing::{self, Pairing, PairingError};

fn read(file: &Path) -> Result<pairing::Tournament, CliError> {
    let meta =
        std::fs::metadata(file).map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
    if meta.len() > pairing::trf::MAX_FILE as u64 {
        return Err(CliError::Input(format!(
            "{}: larger than {} bytes",
            file.display(),
            pairing::trf::MAX_FILE
        )));
    }
    let bytes =
        std::fs::read(file).map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
    let text = String::from_utf8_lossy(&bytes);
    pairing::trf::parse(&text).map_err(|e| CliError::Input(format!("{}: {e}", file.display())))
}

/// The `-p` output of one pairing.
pub fn format_pairing(p: &Pairing) -> String {
    let mut out = format!("{}\n", p.pairs.len() + usize::from(p.bye.is_some()));
    for (w, b) in &p.pairs {
        out.push_str(&format!("{w} {b}\n"));
    }
    if let Some(b) = p.bye {
        out.push_str(&format!("{b} 0\n"));
    }
    out
}

fn engine_error(e: PairingError) -> CliError {
    match e {
        PairingError::NoValidPairing => CliError::Rejected(e.to_string()),
        other => CliError::Input(other.to_string()),
    }
}

pub fn dutch(file: &Path) -> Result<(), CliError> {
    let t = read(file)?;
    let p = pairing::dutch::pair(&t).map_err(engine_error)?;
    print!("{}", format_pairing(&p));
    Ok(())
}

pub fn check(file: &Path) -> Result<(), CliError> {
    let t = read(file)?;
    let report = pairing::check::check(&t).map_err(engine_error)?;
    match report.deviations.first() {
        None => {
            println!(
                "{}: {} rounds checked, every pairing follows the Dutch system",
                file.display(),
                report.rounds
            );
            Ok(())
        }
        Some(d) if d.no_valid_pairing => Err(CliError::Rejected(format!(
            "{}: round {}: no valid pairing exists, yet the file pairs it",
            file.display(),
            d.round
        ))),
        Some(d) => {
            let show = |p: &Pairing| {
                let mut v: Vec<String> = p.pairs.iter().map(|(w, b)| format!("{w}-{b}")).collect();
                if let Some(b) = p.bye {
                    v.push(format!("{b}-bye"));
                }
                v.join(" ")
            };
            Err(CliError::Rejected(format!(
                "{}: round {} differs from the Dutch system ({} of {} rounds differ)\n  Dutch: {}\n  file:  {}",
                file.display(),
                d.round,
                report.deviations.len(),
                report.rounds,
                show(&d.expected),
                show(&d.actual)
            )))
        }
    }
}
