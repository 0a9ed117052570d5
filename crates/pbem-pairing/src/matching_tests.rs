//! Tests of the blossom matching: small graphs, random graphs against brute
//! force, and warm starts over random edit sequences.

use super::*;
use crate::weight::Big;

fn w(v: u64) -> Big<1> {
    Big::from_u64(v)
}

fn check(nv: usize, edges: &[(usize, usize, u64)], expect: &[Option<usize>]) {
    let e: Vec<_> = edges.iter().map(|&(i, j, x)| (i, j, w(x))).collect();
    assert_eq!(max_weight_matching(nv, &e), expect);
}

#[test]
fn small_graphs() {
    check(2, &[(0, 1, 1)], &[Some(1), Some(0)]);
    check(3, &[(0, 1, 10), (1, 2, 11)], &[None, Some(2), Some(1)]);
    check(
        4,
        &[(0, 1, 5), (1, 2, 11), (2, 3, 5)],
        &[None, Some(2), Some(1), None],
    );
    // A blossom.
    check(
        4,
        &[(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)],
        &[Some(1), Some(0), Some(3), Some(2)],
    );
    // Blossoms of the classic tests (van Rantwijk's suite, renumbered from 0).
    check(
        6,
        &[
            (0, 1, 9),
            (0, 2, 9),
            (1, 2, 10),
            (1, 3, 8),
            (2, 4, 8),
            (3, 4, 10),
            (4, 5, 6),
        ],
        &[Some(2), Some(3), Some(0), Some(1), Some(5), Some(4)],
    );
}

#[test]
fn agrees_with_brute_force_on_random_graphs() {
    let mut seed = 12345u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..400 {
        let n = (rnd() % 9 + 1) as usize;
        let mut edges = Vec::new();
        for i in 0..n {
            for j in 0..i {
                if rnd() % 3 != 0 {
                    edges.push((i, j, rnd() % 20 + 1));
                }
            }
        }
        let e: Vec<_> = edges.iter().map(|&(i, j, x)| (i, j, w(x))).collect();
        let m = max_weight_matching(n, &e);
        let got: u64 = edges
            .iter()
            .filter(|&&(i, j, _)| m[i] == Some(j))
            .map(|e| e.2)
            .sum();
        for (v, &p) in m.iter().enumerate() {
            if let Some(p) = p {
                assert_eq!(m[p], Some(v));
            }
        }
        assert_eq!(got, brute(&edges, 0, &mut vec![false; n]), "{edges:?}");
    }
}

fn brute(edges: &[(usize, usize, u64)], from: usize, used: &mut Vec<bool>) -> u64 {
    let mut best = 0;
    for k in from..edges.len() {
        let (i, j, x) = edges[k];
        if !used[i] && !used[j] {
            used[i] = true;
            used[j] = true;
            best = best.max(x + brute(edges, k + 1, used));
            used[i] = false;
            used[j] = false;
        }
    }
    best
}

/// Resumed matchings against brute force; in a debug build each one is
/// also proven optimal by its duals (a resumed root inside a blossom whose
/// parity was evened alone once left a matched edge loose).
#[test]
fn warm_starts_reach_the_optimum() {
    let mut seed = 99u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..1000 {
        let n = (rnd() % 11 + 2) as usize;
        let mut m: Matcher<Big<1>> = Matcher::new(n);
        for i in 0..n {
            for j in 0..i {
                if rnd() % 4 != 0 {
                    m.set(i, j, w(rnd() % 50 + 1));
                }
            }
        }
        for _ in 0..20 {
            let mate = m.compute();
            let alive: Vec<usize> = (0..n).filter(|&v| m.fixed[v] == NONE).collect();
            let weight = |mate: &[usize]| -> u64 {
                alive
                    .iter()
                    .filter(|&&v| mate[v] > v)
                    .map(|&v| m.get(v, mate[v]).0[0])
                    .sum()
            };
            let edges: Vec<(usize, usize, u64)> = alive
                .iter()
                .enumerate()
                .flat_map(|(a, &i)| {
                    alive
                        .iter()
                        .enumerate()
                        .take(a)
                        .map(move |(b, &j)| (a, b, i, j))
                })
                .filter_map(|(a, b, i, j)| {
                    let x = m.get(i, j).0[0];
                    (x > 0).then_some((a, b, x))
                })
                .collect();
            assert_eq!(
                weight(&mate),
                brute(&edges, 0, &mut vec![false; alive.len()])
            );
            // Change one vertex's edges, or a few edges anywhere, or
            // finalise a matched pair.
            let v = alive[(rnd() % alive.len() as u64) as usize];
            if rnd() % 3 == 0 && mate[v] != v && alive.len() > 2 {
                m.remove_pair(v, mate[v]);
            } else if rnd() % 2 == 0 {
                for _ in 0..3 {
                    let i = alive[(rnd() % alive.len() as u64) as usize];
                    let j = alive[(rnd() % alive.len() as u64) as usize];
                    m.set(i, j, w(rnd() % 60));
                }
            } else {
                for &q in &alive {
                    if q != v && rnd() % 2 == 0 {
                        m.set(v, q, w(rnd() % 60));
                    }
                }
            }
            if (0..n).filter(|&v| m.fixed[v] == NONE).count() < 2 {
                break;
            }
        }
    }
}
