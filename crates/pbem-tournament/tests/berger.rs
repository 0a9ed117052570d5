//! The Berger tables this crate builds (`berger`) against the tables FIDE
//! publishes (Handbook C.05 Annex 1, committed as
//! `tests/data/berger_fide_c05_annex1.txt` beside this file), for 3 to 16
//! players: every round, every board, every colour. With an odd count the published
//! table of the next even count applies, its highest number being the bye.

use pbem_tournament::berger;

/// One published table: the smaller and the larger player count it is
/// for, and its rounds of (white, black).
type Table = (u32, u32, Vec<Vec<(u32, u32)>>);

/// The published tables.
fn published() -> Vec<Table> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/berger_fide_c05_annex1.txt"
    ))
    .expect("the FIDE tables are in tests/data");
    let mut tables = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(counts) = line.strip_prefix("players ") {
            let (low, high) = counts.split_once('-').expect("players a-b");
            tables.push((
                low.parse().expect("count"),
                high.parse().expect("count"),
                Vec::new(),
            ));
            continue;
        }
        let (round, pairs) = line.split_once(':').expect("round: pairs");
        let (_, _, rounds) = tables.last_mut().expect("a table heading first");
        assert_eq!(round.parse::<usize>().expect("round"), rounds.len() + 1);
        rounds.push(
            pairs
                .split(',')
                .map(|pair| {
                    let (white, black) = pair.trim().split_once('-').expect("a-b");
                    (white.parse().expect("white"), black.parse().expect("black"))
                })
                .collect(),
        );
    }
    tables
}

#[test]
fn berger_tables_for_3_to_16_players_are_fides() {
    let tables = published();
    assert_eq!(tables.len(), 7, "3/4 up to 15/16");
    let mut checked = 0;
    for (low, high, rounds) in &tables {
        assert_eq!(rounds.len() as u32, high - 1);
        for players in [*low, *high] {
            let ours = berger::single(players);
            assert_eq!(ours.len(), rounds.len(), "{players} players: rounds");
            for (r, (published, ours)) in rounds.iter().zip(&ours).enumerate() {
                let expected: Vec<(u32, u32)> = published
                    .iter()
                    .copied()
                    .filter(|(w, b)| *w <= players && *b <= players)
                    .collect();
                let ours: Vec<(u32, u32)> = ours.iter().map(|p| (p.white, p.black)).collect();
                assert_eq!(ours, expected, "{players} players, round {}", r + 1);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 2 * (3 + 5 + 7 + 9 + 11 + 13 + 15));
}

#[test]
fn a_double_round_robin_plays_each_pairing_once_with_each_colour() {
    for players in 3..=16 {
        let rounds = berger::double(players);
        let single = berger::single(players);
        assert_eq!(rounds.len(), 2 * single.len());
        let mut games: Vec<(u32, u32)> = rounds
            .iter()
            .flatten()
            .map(|p| (p.white, p.black))
            .collect();
        games.sort();
        let mut expected: Vec<(u32, u32)> = (1..=players)
            .flat_map(|a| (1..=players).filter(move |b| *b != a).map(move |b| (a, b)))
            .collect();
        expected.sort();
        assert_eq!(games, expected, "{players} players");
    }
}
