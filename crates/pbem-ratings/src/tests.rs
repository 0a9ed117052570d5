//! The rating arithmetic against Glickman's worked example and against
//! `skillratings`' own functions.

use super::*;
use skillratings::glicko2::glicko2;

fn rating(rating: f64, deviation: f64) -> PlayerRating {
    PlayerRating {
        rating,
        deviation,
        ..START
    }
}

#[test]
fn glickmans_worked_example() {
    // Glickman, "Example of the Glicko-2 system" (2013): a 1500/200/0.06
    // player beats a 1400/30, loses to a 1550/100 and to a 1700/300.
    let player = rating(1500.0, 200.0);
    let results = [
        (rating(1400.0, 30.0), Outcome::Win),
        (rating(1550.0, 100.0), Outcome::Loss),
        (rating(1700.0, 300.0), Outcome::Loss),
    ];
    let after = rating_period(&player, &results);
    assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
    assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    assert_eq!(after.shown(), 1464);
    assert_eq!(
        (after.games, after.wins, after.losses, after.draws),
        (3, 1, 2, 0)
    );
    assert!(after.provisional(), "151 is above 110 and 3 games are few");
}

#[test]
fn agrees_with_skillratings_rating_period_exactly() {
    let player = rating(1500.0, 200.0);
    let results = [
        (rating(1400.0, 30.0), Outcome::Win),
        (rating(1550.0, 100.0), Outcome::Draw),
        (rating(1700.0, 300.0), Outcome::Loss),
    ];
    let ours = rating_period(&player, &results);
    let theirs = glicko2_rating_period(
        &player.glicko(),
        &results
            .iter()
            .map(|(o, r)| (o.glicko(), r.skillratings()))
            .collect::<Vec<_>>(),
        &Glicko2Config::new(),
    );
    assert_eq!(ours.rating.to_bits(), theirs.rating.to_bits());
    assert_eq!(ours.deviation.to_bits(), theirs.deviation.to_bits());
    assert_eq!(ours.volatility.to_bits(), theirs.volatility.to_bits());
}

#[test]
fn one_game_agrees_with_skillratings_two_player_function() {
    // skillratings' own doc example: two new players, the first wins:
    // 1662/290 and 1338/290.
    let (white, black) = rate_game(&Standing::default(), &Standing::default(), Outcome::Win, 0);
    assert_eq!(white.rating.shown(), 1662);
    assert_eq!(black.rating.shown(), 1338);
    assert_eq!(white.rating.shown_deviation(), 290);
    for (a, b, outcome) in [
        (rating(1712.0, 80.0), rating(1650.0, 120.0), Outcome::Win),
        (rating(1400.0, 300.0), rating(1900.0, 60.0), Outcome::Draw),
        (rating(2100.0, 45.0), rating(1500.0, 350.0), Outcome::Loss),
    ] {
        let (w, b2) = rate_game(
            &Standing {
                rating: a,
                last_played: Some(0),
            },
            &Standing {
                rating: b,
                last_played: Some(0),
            },
            outcome,
            0,
        );
        let (tw, tb) = glicko2(&a.glicko(), &b.glicko(), &outcome.skillratings(), &config());
        for (ours, theirs) in [(w.rating, tw), (b2.rating, tb)] {
            assert!(
                (ours.rating - theirs.rating).abs() < 1e-9,
                "{ours:?} {theirs:?}"
            );
            assert!((ours.deviation - theirs.deviation).abs() < 1e-9);
            assert!((ours.volatility - theirs.volatility).abs() < 1e-12);
        }
    }
}

#[test]
fn a_win_raises_and_a_loss_lowers_by_the_same_for_equals() {
    let (w, b) = rate_game(&Standing::default(), &Standing::default(), Outcome::Draw, 5);
    assert_eq!(w.rating.rating.to_bits(), START.rating.to_bits());
    assert_eq!(b.rating.draws, 1);
    assert_eq!(w.last_played, Some(5));
    assert!(w.rating.deviation < START.deviation);
}

#[test]
fn idle_periods_widen_the_deviation_up_to_the_start() {
    let settled = Standing {
        rating: PlayerRating {
            deviation: 50.0,
            games: 40,
            ..START
        },
        last_played: Some(0),
    };
    assert_eq!(settled.entering(NANOS_PER_DAY * 29).deviation, 50.0);
    let month = settled.entering(NANOS_PER_DAY * 30).deviation;
    let year = settled.entering(NANOS_PER_DAY * 365).deviation;
    assert!(
        50.0 < month && month < year && year < 80.0,
        "{month} {year}"
    );
    let ages = settled.entering(i64::MAX).deviation;
    assert_eq!(ages, START.deviation);
    // A clock that went back costs nothing.
    assert_eq!(settled.entering(-NANOS_PER_DAY * 400).deviation, 50.0);
}

#[test]
fn provisional_rule() {
    let mut r = PlayerRating {
        deviation: 100.0,
        games: 10,
        ..START
    };
    assert!(!r.provisional());
    r.games = 9;
    assert!(r.provisional());
    r.games = 10;
    r.deviation = 110.5;
    assert!(r.provisional());
}

#[test]
fn replay_is_the_same_arithmetic_as_one_game_at_a_time() {
    let games: Vec<RatedGame<u32>> = (0..200)
        .map(|i| RatedGame {
            white: i % 7,
            black: (i * 3 + 1) % 7,
            outcome: [Outcome::Win, Outcome::Loss, Outcome::Draw][(i % 3) as usize],
            at: i64::from(i) * NANOS_PER_DAY * 3,
        })
        .filter(|g| g.white != g.black)
        .collect();
    let (standings, changes) = replay(&games);
    let mut by_hand: HashMap<u32, Standing> = HashMap::new();
    for (game, change) in games.iter().zip(&changes) {
        let w = by_hand.get(&game.white).copied().unwrap_or_default();
        let b = by_hand.get(&game.black).copied().unwrap_or_default();
        assert_eq!(change.white_before.to_bits(), w.rating.rating.to_bits());
        let (w, b) = rate_game(&w, &b, game.outcome, game.at);
        assert_eq!(change.black_after.to_bits(), b.rating.rating.to_bits());
        by_hand.insert(game.white, w);
        by_hand.insert(game.black, b);
    }
    assert_eq!(standings, by_hand);
    assert_eq!(replay(&games).0, standings, "twice the same");
}

#[test]
fn results_that_are_rated() {
    assert_eq!(Outcome::of_result("1-0"), Some(Outcome::Win));
    assert_eq!(Outcome::of_result("0-1"), Some(Outcome::Loss));
    assert_eq!(Outcome::of_result("1/2-1/2"), Some(Outcome::Draw));
    assert_eq!(Outcome::of_result("-"), None);
}

#[test]
fn sections() {
    let day = NANOS_PER_DAY;
    let mut standing = Standing {
        rating: PlayerRating {
            deviation: 80.0,
            games: 12,
            ..START
        },
        last_played: Some(0),
    };
    assert_eq!(standing.section(day * 180), Section::Established);
    assert_eq!(standing.section(day * 180 + 1), Section::Inactive);
    standing.rating.games = 3;
    assert_eq!(standing.section(day), Section::Provisional);
    assert_eq!(standing.section(day * 181), Section::Inactive);
}
