//! Berger tables (FIDE Handbook C.05, Annex 1): the pairings of every round
//! of a round robin, by start number, built by the rule the published
//! tables follow (and checked against them in `tests/tournament/berger.rs`).
//!
//! With `m` seats (the player count, or one more when it is odd, the last
//! seat then being the bye), round `r` pairs the last seat with the player
//! `p` for which `2p = r + 1 (mod m - 1)`; the last seat has White in even
//! rounds. The other boards follow on from `p + 1` upward (wrapping from
//! `m - 1` to 1), each player `a` against `b` with `a + b = r + 1 (mod m -
//! 1)`, `a` with White.

/// One game of a round: start numbers (from 1) of White and Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    pub white: u32,
    pub black: u32,
}

/// The rounds of a single round robin of `players` players, boards in the
/// order of the published tables. With an odd count the bye's games are
/// left out (the player who would meet the bye sits that round out).
/// Empty below 2 players.
pub fn single(players: u32) -> Vec<Vec<Pair>> {
    if players < 2 {
        return Vec::new();
    }
    let seats = players + players % 2;
    let ring = seats - 1;
    // The residue of `x` in 1..=ring.
    let seat = |x: u32| (x + ring - 1) % ring + 1;
    let mut rounds = Vec::with_capacity(ring as usize);
    for round in 1..=ring {
        let target = round + 1;
        let last_opponent = (1..=ring)
            .find(|p| (2 * p) % ring == target % ring)
            .unwrap_or(1);
        let mut pairs = Vec::with_capacity(seats as usize / 2);
        if round % 2 == 0 {
            pairs.push(Pair {
                white: seats,
                black: last_opponent,
            });
        } else {
            pairs.push(Pair {
                white: last_opponent,
                black: seats,
            });
        }
        let mut left = seat(last_opponent + 1);
        for _ in 1..seats / 2 {
            let right = seat(target + ring * 2 - left);
            pairs.push(Pair {
                white: left,
                black: right,
            });
            left = seat(left + 1);
        }
        pairs.retain(|pair| pair.white <= players && pair.black <= players);
        rounds.push(pairs);
    }
    rounds
}

/// The rounds of a double round robin: the single one with its last two
/// rounds swapped (FIDE's recommendation, so that nobody gets the same
/// colour three times running), then every pairing again with colours
/// reversed.
pub fn double(players: u32) -> Vec<Vec<Pair>> {
    let mut first = single(players);
    let n = first.len();
    if n >= 2 {
        first.swap(n - 2, n - 1);
    }
    let second: Vec<Vec<Pair>> = single(players)
        .into_iter()
        .map(|round| {
            round
                .into_iter()
                .map(|pair| Pair {
                    white: pair.black,
                    black: pair.white,
                })
                .collect()
        })
        .collect();
    first.extend(second);
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(round: &[Pair]) -> String {
        round
            .iter()
            .map(|p| format!("{}-{}", p.white, p.black))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn four_players_as_published() {
        let rounds = single(4);
        assert_eq!(text(&rounds[0]), "1-4 2-3");
        assert_eq!(text(&rounds[1]), "4-3 1-2");
        assert_eq!(text(&rounds[2]), "2-4 3-1");
    }

    #[test]
    fn odd_counts_leave_the_bye_out_and_everyone_meets_once() {
        for players in 3..=31 {
            let rounds = single(players);
            let mut met = std::collections::HashSet::new();
            for round in &rounds {
                let mut seen = std::collections::HashSet::new();
                for pair in round {
                    assert!(seen.insert(pair.white) && seen.insert(pair.black));
                    let key = (pair.white.min(pair.black), pair.white.max(pair.black));
                    assert!(met.insert(key), "{players}: {key:?} twice");
                }
            }
            assert_eq!(met.len() as u32, players * (players - 1) / 2);
        }
    }

    #[test]
    fn double_swaps_the_last_two_rounds_of_the_first_cycle() {
        let rounds = double(4);
        assert_eq!(rounds.len(), 6);
        assert_eq!(text(&rounds[1]), "2-4 3-1");
        assert_eq!(text(&rounds[2]), "4-3 1-2");
        assert_eq!(text(&rounds[3]), "4-1 3-2");
    }
}
