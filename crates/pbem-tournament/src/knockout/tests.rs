//! Tests of the knockout bracket: seeding, byes, mini-matches, playoffs
//! and the stages' order.

use super::*;
use GameResult::*;

fn cup(players: u32) -> Knockout {
    Knockout::new(players, DEFAULT_MATCH_GAMES, TieRule::Playoff).unwrap()
}

/// Round 1 as the bracket reads, top to bottom: `1-8 4-5`, a bye as
/// `2-bye`.
fn first_round(players: u32) -> String {
    let bracket = cup(players).compute(&[]).unwrap();
    pairs(&bracket.rounds[0])
}

fn pairs(round: &Round) -> String {
    round
        .matches
        .iter()
        .map(|m| match m.lower {
            Some(lower) => format!("{}-{lower}", m.upper),
            None => format!("{}-bye", m.upper),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn hand_worked_first_rounds_of_2_to_17_players() {
    // Worked by hand: the bracket is the next power of two, seed s
    // meets seed size + 1 - s, and seats above the number of players
    // are byes, which fall to the top seeds.
    let expected = [
        (2, "1-2"),
        (3, "1-bye 2-3"),
        (4, "1-4 2-3"),
        (5, "1-bye 4-5 2-bye 3-bye"),
        (6, "1-bye 4-5 2-bye 3-6"),
        (7, "1-bye 4-5 2-7 3-6"),
        (8, "1-8 4-5 2-7 3-6"),
        (9, "1-bye 8-9 4-bye 5-bye 2-bye 7-bye 3-bye 6-bye"),
        (10, "1-bye 8-9 4-bye 5-bye 2-bye 7-10 3-bye 6-bye"),
        (11, "1-bye 8-9 4-bye 5-bye 2-bye 7-10 3-bye 6-11"),
        (12, "1-bye 8-9 4-bye 5-12 2-bye 7-10 3-bye 6-11"),
        (13, "1-bye 8-9 4-13 5-12 2-bye 7-10 3-bye 6-11"),
        (14, "1-bye 8-9 4-13 5-12 2-bye 7-10 3-14 6-11"),
        (15, "1-bye 8-9 4-13 5-12 2-15 7-10 3-14 6-11"),
        (16, "1-16 8-9 4-13 5-12 2-15 7-10 3-14 6-11"),
        (
            17,
            "1-bye 16-17 8-bye 9-bye 4-bye 13-bye 5-bye 12-bye \
             2-bye 15-bye 7-bye 10-bye 3-bye 14-bye 6-bye 11-bye",
        ),
    ];
    for (players, bracket) in expected {
        assert_eq!(first_round(players), bracket, "{players} players");
        let knockout = cup(players);
        let byes = bracket.matches("bye").count() as u32;
        assert_eq!(byes, knockout.byes(), "{players} players");
        // The byes are the top seeds: 1 to byes.
        let bye_seeds: Vec<u32> = knockout.compute(&[]).unwrap().rounds[0]
            .matches
            .iter()
            .filter(|m| m.lower.is_none())
            .map(|m| m.upper)
            .collect();
        let mut sorted = bye_seeds.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (1..=byes).collect::<Vec<_>>(), "{players} players");
    }
}

#[test]
fn sizes_and_rounds() {
    for (players, size, rounds) in [
        (2, 2, 1),
        (3, 4, 2),
        (5, 8, 3),
        (16, 16, 4),
        (17, 32, 5),
        (128, 128, 7),
    ] {
        let knockout = cup(players);
        assert_eq!((knockout.size(), knockout.total_rounds()), (size, rounds));
    }
    assert_eq!(cup(8).round_name(1), "Quarter-finals");
    assert_eq!(cup(8).round_name(3), "Final");
    assert_eq!(cup(17).round_name(2), "Round 2");
}

#[test]
fn bounds_are_refused_with_what_to_do() {
    let error = Knockout::new(1, 2, TieRule::Seed).unwrap_err();
    assert_eq!(error, KnockoutError::TooFewPlayers { players: 1 });
    assert!(error.to_string().contains("wait for more entries"));
    assert!(Knockout::new(129, 2, TieRule::Seed).is_err());
    assert!(Knockout::new(128, 2, TieRule::Seed).is_ok());
    let error = Knockout::new(8, 0, TieRule::Seed).unwrap_err();
    assert!(error.to_string().contains("--match=N"));
    assert!(Knockout::new(8, MAX_MATCH_GAMES + 1, TieRule::Seed).is_err());
    assert_eq!("Seed".parse::<TieRule>(), Ok(TieRule::Seed));
    assert!(
        "coin"
            .parse::<TieRule>()
            .unwrap_err()
            .contains("--tie=playoff")
    );
}

/// The tree of an order: each half as a set, recursively, with the
/// halves sorted, so that two draws drawn upside down compare equal.
fn canonical(order: &[u32]) -> String {
    if order.len() == 1 {
        return order[0].to_string();
    }
    let (a, b) = order.split_at(order.len() / 2);
    let (a, b) = (canonical(a), canonical(b));
    let min = |text: &str| -> u32 {
        text.split(|c: char| !c.is_ascii_digit())
            .filter_map(|n| n.parse().ok())
            .min()
            .unwrap_or(0)
    };
    if min(&a) <= min(&b) {
        format!("({a} {b})")
    } else {
        format!("({b} {a})")
    }
}

#[test]
fn the_published_draws() {
    // The 8- and 16-seat layouts as published at
    // https://tournamentbracketmaker.com/how-bracket-seeding-works
    // (the NCAA region's order, which also the ATP and FIFA use):
    // 1-8, 4-5, 3-6, 2-7 and 1-16, 8-9, 5-12, 4-13, 6-11, 3-14, 7-10,
    // 2-15. They draw some halves upside down against ours; as trees
    // (who can meet whom, and when) they are the same.
    let published_8 = [1, 8, 4, 5, 3, 6, 2, 7];
    let published_16 = [1, 16, 8, 9, 5, 12, 4, 13, 6, 11, 3, 14, 7, 10, 2, 15];
    assert_eq!(canonical(&cup(8).seeding_order()), canonical(&published_8));
    assert_eq!(
        canonical(&cup(16).seeding_order()),
        canonical(&published_16)
    );
    // The same page's 32-seat order begins 1-32, 16-17, 8-25, 9-24,
    // 5-28, 12-21, 4-29, 13-20: the top quarter of our 32 seats.
    let published_32_quarter = [1, 32, 16, 17, 8, 25, 9, 24, 5, 28, 12, 21, 4, 29, 13, 20];
    let ours_32 = cup(32).seeding_order();
    assert_eq!(canonical(&ours_32[..16]), canonical(&published_32_quarter));
    // FIDE's World Cup of 128 (Tbilisi 2017, as reported at
    // thechessmind.net): seed s meets seed 129 - s in round 1.
    for pair in cup(128).seeding_order().chunks(2) {
        assert_eq!(pair[0] + pair[1], 129);
    }
}

#[test]
fn top_seeds_meet_only_as_late_as_the_standard_order_says() {
    // In a bracket of 2^k seats, seeds 1..=2^j sit in different
    // blocks of 2^(k-j) seats, so no two of them meet before the round
    // of 2^j players.
    for size in [2u32, 4, 8, 16, 32, 64, 128] {
        let order = cup(size).seeding_order();
        let mut block = size;
        let mut top = 1;
        while block >= 2 {
            for chunk in order.chunks(block as usize) {
                let inside = chunk.iter().filter(|&&s| s <= top).count();
                assert!(inside <= 1, "size {size}: block {chunk:?}");
            }
            block /= 2;
            top *= 2;
        }
    }
}

fn game(round: u32, white: u32, black: u32, result: GameResult) -> KnockoutGame {
    KnockoutGame {
        round,
        white,
        black,
        result,
    }
}

fn start(round: u32, white: u32, black: u32) -> GameToStart {
    GameToStart {
        round,
        white,
        black,
    }
}

#[test]
fn a_six_player_cup_played_to_the_end() {
    // Seeds 1 and 2 have byes; 4-5 and 3-6 play two games each.
    let knockout = cup(6);
    let bracket = knockout.compute(&[]).unwrap();
    assert_eq!(pairs(&bracket.rounds[0]), "1-bye 4-5 2-bye 3-6");
    assert_eq!(
        bracket.to_start(),
        vec![
            start(1, 4, 5),
            start(1, 5, 4),
            start(1, 3, 6),
            start(1, 6, 3)
        ]
    );
    let mut record = vec![
        game(1, 4, 5, WhiteWins),
        game(1, 5, 4, Draw),
        game(1, 3, 6, Draw),
        game(1, 6, 3, Pending),
    ];
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(bracket.rounds.len(), 1, "3-6 is still on");
    assert_eq!(
        bracket.rounds[0].matches[1].outcome,
        Some(Outcome {
            winner: 4,
            decision: Decision::Score
        })
    );
    assert_eq!(
        bracket.rounds[0].matches[1].stages,
        vec![StageScore { upper: 3, lower: 1 }]
    );
    assert!(bracket.to_start().is_empty());
    // 6 wins with White: 1½-½ to seed 6, the upset.
    record[3].result = WhiteWins;
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(pairs(&bracket.rounds[1]), "1-4 2-6");
    assert_eq!(bracket.rounds[0].matches[3].loser(), Some(3));
    assert_eq!(
        bracket.to_start(),
        vec![
            start(2, 1, 4),
            start(2, 4, 1),
            start(2, 2, 6),
            start(2, 6, 2)
        ]
    );
    record.extend([
        game(2, 1, 4, BlackWins),
        game(2, 4, 1, BlackWins),
        game(2, 2, 6, Draw),
        game(2, 6, 2, BlackWins),
    ]);
    let bracket = knockout.compute(&record).unwrap();
    // 1-4 is 1-1: a playoff of two games, seed 1 White first again.
    assert_eq!(pairs(&bracket.rounds[1]), "1-4 2-6");
    assert_eq!(bracket.to_start(), vec![start(2, 1, 4), start(2, 4, 1)]);
    assert_eq!(bracket.rounds[1].matches[0].due, 4);
    record.extend([game(2, 1, 4, Draw), game(2, 4, 1, WhiteWins)]);
    let bracket = knockout.compute(&record).unwrap();
    let semi = &bracket.rounds[1].matches[0];
    assert_eq!(
        semi.outcome,
        Some(Outcome {
            winner: 4,
            decision: Decision::Playoff
        })
    );
    assert_eq!(
        semi.stages,
        vec![
            StageScore { upper: 2, lower: 2 },
            StageScore { upper: 1, lower: 3 }
        ]
    );
    assert_eq!(pairs(&bracket.rounds[2]), "4-2");
    assert_eq!(knockout.round_name(3), "Final");
    // The final: seed 2 is the higher seed and has White first.
    assert_eq!(bracket.to_start(), vec![start(3, 2, 4), start(3, 4, 2)]);
    record.extend([game(3, 2, 4, Draw), game(3, 4, 2, BlackWins)]);
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(bracket.winner, Some(2));
    assert!(bracket.to_start().is_empty());
}

#[test]
fn a_tie_under_the_seed_rule_sends_the_higher_seed_through_at_once() {
    let knockout = Knockout::new(2, 2, TieRule::Seed).unwrap();
    let bracket = knockout
        .compute(&[game(1, 1, 2, BlackWins), game(1, 2, 1, BlackWins)])
        .unwrap();
    assert_eq!(
        bracket.winner,
        Some(1),
        "1-1, and seed 1 is the higher seed"
    );
    assert_eq!(
        bracket.rounds[0].matches[0].outcome.map(|o| o.decision),
        Some(Decision::Seed)
    );
    assert!(bracket.to_start().is_empty());
}

#[test]
fn two_tied_playoffs_then_the_higher_seed() {
    let knockout = cup(2);
    let mut record = vec![game(1, 1, 2, Draw), game(1, 2, 1, Draw)];
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(bracket.to_start(), vec![start(1, 1, 2), start(1, 2, 1)]);
    record.extend([game(1, 1, 2, WhiteWins), game(1, 2, 1, WhiteWins)]);
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(bracket.rounds[0].matches[0].due, 6, "the second playoff");
    assert_eq!(bracket.to_start(), vec![start(1, 1, 2), start(1, 2, 1)]);
    record.extend([game(1, 1, 2, Draw), game(1, 2, 1, Draw)]);
    let bracket = knockout.compute(&record).unwrap();
    let only = &bracket.rounds[0].matches[0];
    assert_eq!(
        only.outcome,
        Some(Outcome {
            winner: 1,
            decision: Decision::Seed
        })
    );
    assert_eq!(only.stages.len(), 3);
    assert_eq!(bracket.winner, Some(1));
    // No third playoff: a seventh game does not fit.
    record.push(game(1, 1, 2, Draw));
    assert_eq!(
        knockout.compute(&record),
        Err(KnockoutError::TooManyGames {
            round: 1,
            white: 1,
            black: 2
        })
    );
}

#[test]
fn a_playoff_decides_when_the_lower_seed_wins_it() {
    let knockout = cup(2);
    let record = [
        game(1, 1, 2, WhiteWins),
        game(1, 2, 1, WhiteWins),
        game(1, 1, 2, Draw),
        game(1, 2, 1, Draw),
        game(1, 1, 2, BlackWins),
        game(1, 2, 1, Draw),
    ];
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(bracket.winner, Some(2));
    assert_eq!(
        bracket.rounds[0].matches[0].outcome.map(|o| o.decision),
        Some(Decision::Playoff)
    );
}

#[test]
fn forfeits_double_forfeits_and_cancelled_games_score_as_documented() {
    let knockout = Knockout::new(2, 3, TieRule::Seed).unwrap();
    // 2 wins one by forfeit, 1 wins one; a cancelled game scores
    // nothing: 1-1, and seed 1 goes through.
    let bracket = knockout
        .compute(&[
            game(1, 1, 2, BlackWinsByForfeit),
            game(1, 2, 1, BlackWins),
            game(1, 1, 2, Cancelled),
        ])
        .unwrap();
    assert_eq!(
        bracket.rounds[0].matches[0].stages,
        vec![StageScore { upper: 2, lower: 2 }]
    );
    assert_eq!(bracket.winner, Some(1));
    let bracket = knockout
        .compute(&[
            game(1, 1, 2, DoubleForfeit),
            game(1, 2, 1, Draw),
            game(1, 1, 2, BlackWins),
        ])
        .unwrap();
    assert_eq!(bracket.winner, Some(2));
}

#[test]
fn odd_matches_alternate_colours() {
    let knockout = Knockout::new(4, 3, TieRule::Playoff).unwrap();
    let bracket = knockout.compute(&[]).unwrap();
    assert_eq!(
        bracket.to_start(),
        vec![
            start(1, 1, 4),
            start(1, 4, 1),
            start(1, 1, 4),
            start(1, 2, 3),
            start(1, 3, 2),
            start(1, 2, 3)
        ]
    );
}

#[test]
fn a_record_that_does_not_fit_is_an_error() {
    let knockout = cup(4);
    assert_eq!(
        knockout.compute(&[game(1, 1, 2, Draw)]),
        Err(KnockoutError::NotInBracket {
            round: 1,
            white: 1,
            black: 2
        })
    );
    assert_eq!(
        knockout.compute(&[game(1, 4, 1, Draw)]),
        Err(KnockoutError::WrongColours {
            round: 1,
            white: 4,
            black: 1
        })
    );
    assert_eq!(
        knockout.compute(&[game(2, 1, 2, Draw)]),
        Err(KnockoutError::RoundNotPaired { round: 2 })
    );
    assert_eq!(
        knockout.compute(&[game(9, 1, 2, Draw)]),
        Err(KnockoutError::RoundNotPaired { round: 9 })
    );
    // Decided 2-0: a third game is one too many.
    let error = knockout
        .compute(&[
            game(1, 1, 4, WhiteWins),
            game(1, 4, 1, BlackWins),
            game(1, 1, 4, Draw),
        ])
        .unwrap_err();
    assert_eq!(
        error,
        KnockoutError::TooManyGames {
            round: 1,
            white: 1,
            black: 4
        }
    );
    assert!(error.to_string().contains("operator"));
}

#[test]
fn a_withdrawn_player_loses_the_matches_not_yet_decided() {
    let knockout = Knockout::new(4, 2, TieRule::Seed).unwrap();
    // Seed 1 leads 1-0 against 4 and withdraws: the match is 4's at
    // once, before their game still on ends.
    let record = [game(1, 1, 4, WhiteWins), game(1, 4, 1, Pending)];
    let bracket = knockout.compute_with_withdrawals(&record, &[1]).unwrap();
    assert_eq!(
        bracket.rounds[0].matches[0].outcome,
        Some(Outcome {
            winner: 4,
            decision: Decision::Walkover
        })
    );
    assert_eq!(bracket.to_start(), vec![start(1, 2, 3), start(1, 3, 2)]);
    // That game ended as a forfeit: 1-1 by score, which the seed rule
    // would give to 1, but 1 withdrew first: still 4's. Seed 2 wins
    // 2-3, then withdraws: that match stands, and 2 loses the final to
    // 4 by walkover, no game played.
    let record = [
        game(1, 1, 4, WhiteWins),
        game(1, 4, 1, WhiteWinsByForfeit),
        game(1, 2, 3, WhiteWins),
        game(1, 3, 2, Draw),
    ];
    let bracket = knockout.compute_with_withdrawals(&record, &[1, 2]).unwrap();
    assert_eq!(
        bracket.rounds[0].matches[1].outcome.map(|o| o.winner),
        Some(2)
    );
    assert_eq!(bracket.winner, Some(4));
    assert!(bracket.rounds[1].matches[0].games.is_empty());
    // Both withdrawn: the higher seed goes through.
    let bracket = Knockout::new(2, 2, TieRule::Seed)
        .unwrap()
        .compute_with_withdrawals(&[], &[1, 2])
        .unwrap();
    assert_eq!(bracket.winner, Some(1));
}

#[test]
fn every_cup_of_2_to_40_players_plays_out_to_one_winner() {
    // Results from a fixed pseudo-random sequence, draws often enough
    // for playoffs; each cup is played by starting what `to_start`
    // asks for until there is a winner.
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next_result = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        match state % 5 {
            0 | 1 => Draw,
            2 => WhiteWins,
            3 => BlackWins,
            _ => WhiteWinsByForfeit,
        }
    };
    for tie in [TieRule::Playoff, TieRule::Seed] {
        for players in 2..=40 {
            let knockout = Knockout::new(players, 2, tie).unwrap();
            let mut record = Vec::new();
            let mut steps = 0;
            let bracket = loop {
                let bracket = knockout.compute(&record).unwrap();
                if bracket.winner.is_some() {
                    break bracket;
                }
                let games = bracket.to_start();
                assert!(!games.is_empty(), "{players}: stuck");
                record.extend(
                    games
                        .into_iter()
                        .map(|g| game(g.round, g.white, g.black, next_result())),
                );
                steps += 1;
                assert!(steps < 100, "{players}: no end");
            };
            assert_eq!(bracket.rounds.len() as u32, knockout.total_rounds());
            // Every match but the byes knocks one player out.
            let played = bracket
                .rounds
                .iter()
                .flat_map(|r| &r.matches)
                .filter(|m| m.lower.is_some())
                .count() as u32;
            assert_eq!(played, players - 1, "{players}");
            assert!(knockout.compute(&record).unwrap().to_start().is_empty());
        }
    }
}

#[test]
fn seventeen_players_the_bye_heavy_bracket_to_the_second_round() {
    // 17 players in 32 seats: only 16-17 plays in round 1.
    let knockout = cup(17);
    let record = [game(1, 16, 17, BlackWins), game(1, 17, 16, WhiteWins)];
    let bracket = knockout.compute(&record).unwrap();
    assert_eq!(
        pairs(&bracket.rounds[1]),
        "1-17 8-9 4-13 5-12 2-15 7-10 3-14 6-11"
    );
    assert_eq!(bracket.to_start().len(), 16);
    assert_eq!(bracket.to_start()[0], start(2, 1, 17));
}
