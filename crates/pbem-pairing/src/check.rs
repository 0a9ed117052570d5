//! A free pairings checker: re-pairs every round of a tournament from the
//! rounds before it (with that round's byes and absences as given) and
//! compares with the pairing in the file, pair by pair and colour by colour.

use super::dutch::{compute, to_pairing};
use super::state::{self, T};
use super::{Pairing, PairingError, Tournament};

/// A round whose pairing differs from the Dutch system's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// 1-based round number.
    pub round: u32,
    /// What the Dutch system pairs (empty when no valid pairing exists).
    pub expected: Pairing,
    /// What the file says.
    pub actual: Pairing,
    /// No valid pairing exists for this round.
    pub no_valid_pairing: bool,
}

/// The outcome of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// Rounds checked.
    pub rounds: u32,
    /// Every round that differs, in order.
    pub deviations: Vec<Deviation>,
}

/// Checks every round of `t`.
pub fn check(t: &Tournament) -> Result<Report, PairingError> {
    let full = state::build(t, false).map_err(PairingError::Invalid)?;
    let mut report = Report {
        rounds: full.played_rounds as u32,
        deviations: Vec::new(),
    };
    for r in 0..full.played_rounds {
        let mut cur = round_state(&full, r);
        cur.update();
        let actual_raw = actual_pairs(&full, r);
        let actual = to_pairing(&cur, actual_raw.clone());
        match compute(&cur) {
            Ok(expected_raw) => {
                let same = expected_raw.iter().all(|&(w, b)| {
                    let m = &full.players[w].matches[r];
                    m.opp == b
                        && m.colour != Some(super::Colour::Black)
                        && (w != b || m.participated)
                }) && expected_raw.len() == actual_raw.len();
                if !same {
                    report.deviations.push(Deviation {
                        round: r as u32 + 1,
                        expected: to_pairing(&cur, expected_raw),
                        actual,
                        no_valid_pairing: false,
                    });
                }
            }
            Err(PairingError::NoValidPairing) => report.deviations.push(Deviation {
                round: r as u32 + 1,
                expected: Pairing::default(),
                actual,
                no_valid_pairing: true,
            }),
            Err(e) => return Err(e),
        }
    }
    Ok(report)
}

/// The state before round `r` (0-based): past rounds, and round `r`'s entries
/// of players who were not in its pairing (byes, absences).
fn round_state(full: &T, r: usize) -> T {
    let mut cur = full.clone();
    cur.played_rounds = r;
    for p in cur.players.iter_mut().filter(|p| p.exists) {
        let orig = &full.players[p.id].matches;
        let mut ms = orig[..r].to_vec();
        if !orig[r].participated {
            ms.push(orig[r]);
        }
        p.matches = ms;
    }
    for id in 0..cur.players.len() {
        if !cur.players[id].exists {
            continue;
        }
        let p = &cur.players[id];
        let s: u32 = p.matches.iter().take(r).map(|m| cur.get_points(p, m)).sum();
        cur.players[id].score = s;
    }
    cur
}

/// The pairs of round `r` as the file has them: (white, black), (id, id)
/// for the pairing-allocated bye.
fn actual_pairs(full: &T, r: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for p in full.players.iter().filter(|p| p.exists) {
        let m = &full.players[p.id].matches[r];
        if !m.participated {
            continue;
        }
        if m.opp == p.id {
            out.push((p.id, p.id));
        } else if m.colour == Some(super::Colour::White) || (m.colour.is_none() && p.id < m.opp) {
            out.push((p.id, m.opp));
        }
    }
    out
}
