//! Knockout cups played whole by mail, through the real Maildir and
//! outbox. Six unrated players (seeded by userid: k1 is seed 1) in a
//! bracket of 8: seeds 1 and 2 have byes, round 1 is 4-5 and 3-6, the
//! semi-finals 1 against the 4-5 winner and 2 against the 3-6 winner, then
//! the final. Each test plays the games the director's notices announce,
//! by a rule of its own, and checks the games started, the bracket and
//! the winner.

use std::collections::HashMap;

use pbem_testkit::{Game, Harness, Sent, address, flat, games_in, to};

const TD: &str = "td@example.org";

/// How a game ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Result {
    WhiteWins,
    BlackWins,
    Draw,
}

fn seed(userid: &str) -> u32 {
    userid[1..].parse().expect("k<seed>")
}

/// The games the director's notices among `mails` announce as started.
fn started(mails: &[Sent]) -> Vec<Game> {
    mails
        .iter()
        .filter(|m| m.to == TD && m.body.contains("started:"))
        .flat_map(|mail| games_in(&mail.body))
        .collect()
}

fn finish(h: &mut Harness, game: &Game, result: Result) -> Vec<Sent> {
    let resign = |h: &mut Harness, loser: &str| {
        h.send(
            &address(loser),
            "resign",
            &format!("resign {} {loser} {loser}-pw", game.board),
        )
    };
    match result {
        Result::WhiteWins => resign(h, &game.black),
        Result::BlackWins => resign(h, &game.white),
        Result::Draw => {
            h.send(
                &address(&game.white),
                "draw",
                &format!("draw {} {} {}-pw", game.board, game.white, game.white),
            );
            h.send(
                &address(&game.black),
                "accept",
                &format!("accept {} {} {}-pw", game.board, game.black, game.black),
            )
        }
    }
}

/// Creates a six-player knockout with `options`, starts it and plays every
/// game it starts by `rule` (given the game and how many games its two
/// players had started against each other before it); returns the games
/// in the order they were played and the mails of the last one.
fn play_cup(
    h: &mut Harness,
    name: &str,
    options: &str,
    rule: impl Fn(&Game, usize) -> Result,
) -> (Vec<Game>, Vec<Sent>) {
    play_event(h, "k", 6, name, options, "a bracket of 8 with 2 byes", rule)
}

/// Creates an event of `count` players (`<prefix>1` ..) with `options`,
/// checks that the start answer says `shape`, and plays it as
/// [`play_cup`] does.
fn play_event(
    h: &mut Harness,
    prefix: &str,
    count: u32,
    name: &str,
    options: &str,
    shape: &str,
    rule: impl Fn(&Game, usize) -> Result,
) -> (Vec<Game>, Vec<Sent>) {
    h.signup("td", TD);
    let players: Vec<String> = (1..=count).map(|n| format!("{prefix}{n}")).collect();
    for p in &players {
        h.signup(p, &address(p));
    }
    let created = h.send(
        TD,
        "new",
        &format!("tournament create td td-pw {name} chess {options}"),
    );
    assert!(
        created[0].body.contains("You created"),
        "{}",
        created[0].body
    );
    for p in &players {
        let mails = h.send(
            &address(p),
            "enter",
            &format!("tournament enter {name} {p} {p}-pw"),
        );
        assert!(!mails[0].subject.contains("Error"), "{}", mails[0].body);
    }
    let mails = h.send(TD, "start", &format!("tournament start {name} td td-pw"));
    let answer = to(&mails, TD);
    let words = flat(&answer.body);
    assert!(words.contains(shape), "{}", answer.body);
    let mut queue = started(&mails);
    let mut played: Vec<Game> = Vec::new();
    let mut last = Vec::new();
    let mut met: HashMap<(u32, u32), usize> = HashMap::new();
    while !queue.is_empty() {
        let game = queue.remove(0);
        let (a, b) = (seed(&game.white), seed(&game.black));
        let before = met.entry((a.min(b), a.max(b))).or_default();
        let result = rule(&game, *before);
        *before += 1;
        last = finish(h, &game, result);
        queue.extend(started(&last));
        played.push(game);
    }
    (played, last)
}

/// The pairs (higher seed, lower seed) of the games of `round`.
fn pairs(games: &[Game], round: u32) -> Vec<(u32, u32)> {
    let mut pairs: Vec<(u32, u32)> = games
        .iter()
        .filter(|g| g.round == round)
        .map(|g| {
            let (a, b) = (seed(&g.white), seed(&g.black));
            (a.min(b), a.max(b))
        })
        .collect();
    pairs.sort();
    pairs
}

/// The higher seed wins, except where `rule` says otherwise.
fn higher_seed_wins(game: &Game) -> Result {
    if seed(&game.white) < seed(&game.black) {
        Result::WhiteWins
    } else {
        Result::BlackWins
    }
}

#[test]
fn a_six_player_knockout_with_byes_decides_a_tied_match_by_a_playoff() {
    let mut h = Harness::new();
    // 4-5: each wins with White, 1-1; the playoff's two games go to 4.
    let (games, last) = play_cup(&mut h, "cupA", "--knockout", |game, before| {
        let (w, b) = (seed(&game.white), seed(&game.black));
        if (w.min(b), w.max(b)) == (4, 5) && before < 2 {
            Result::WhiteWins
        } else {
            higher_seed_wins(game)
        }
    });
    // Round 1: the match 4-5 (2 games and a playoff of 2) and 3-6 (2).
    assert_eq!(
        pairs(&games, 1),
        vec![(3, 6), (3, 6), (4, 5), (4, 5), (4, 5), (4, 5)]
    );
    // Colours alternate, the higher seed White first, playoff included.
    let four_five: Vec<(String, String)> = games
        .iter()
        .filter(|g| g.round == 1 && seed(&g.white).min(seed(&g.black)) == 4)
        .map(|g| (g.white.clone(), g.black.clone()))
        .collect();
    assert_eq!(
        four_five,
        vec![
            ("k4".into(), "k5".into()),
            ("k5".into(), "k4".into()),
            ("k4".into(), "k5".into()),
            ("k5".into(), "k4".into()),
        ]
    );
    // Semi-finals: 1 meets the winner of 4-5, 2 the winner of 3-6.
    assert_eq!(pairs(&games, 2), vec![(1, 4), (1, 4), (2, 3), (2, 3)]);
    assert_eq!(pairs(&games, 3), vec![(1, 2), (1, 2)]);
    assert_eq!(games.len(), 12);
    let over = last
        .iter()
        .find(|m| m.to == address("k5") && m.body.contains("is over"))
        .unwrap_or_else(|| panic!("the final mail among {last:#?}"));
    assert!(over.body.contains("k1"), "{}", over.body);
    // `tournament show` mails the bracket.
    let show = h.send("guest@example.net", "show", "tournament show cupA");
    let body = &show[0].body;
    assert!(body.contains("Bracket:"), "{body}");
    for p in ["k1", "k2", "k3", "k4", "k5", "k6"] {
        assert!(body.contains(p), "{p} in {body}");
    }
    assert!(body.contains("finished"), "{body}");
    let list = h.send("guest@example.net", "list", "tournaments");
    let line = list[0]
        .body
        .lines()
        .find(|line| line.contains("knockout"))
        .unwrap_or_else(|| panic!("the cup in: {}", list[0].body));
    // One short line in the list's columns, not the whole description.
    assert!(!line.contains("ties decided"), "{line}");
    // The tied match's seats: 1 point each in the match, then 2-0 in the
    // playoff.
    assert!(body.contains("4 k4 1+2"), "{body}");
    assert!(body.contains("5 k5 1+0"), "{body}");
    // The web site's event page shows the same bracket.
    let page = event_page(&h, "cupA");
    assert!(page.contains("<h2>Bracket</h2>"), "{page}");
    assert!(page.contains("<caption>Quarter-finals</caption>"), "{page}");
    assert!(page.contains(r#"<a href="/players/k4">k4</a></td><td><a href="/players/k5">k5</a></td><td>1+2 – 1+0</td>"#), "{page}");
    assert!(!page.contains("<h2>Crosstable</h2>"), "{page}");
}

/// The web site's page of event `name`, built in-process.
fn event_page(h: &Harness, name: &str) -> String {
    let site = pbem::web::Site::new(&h.config, pbem::server::TimeSource::Fixed(h.now));
    let conn = h.database();
    pbem::web::pages::event(&site, &conn, name)
        .unwrap_or_else(|e| panic!("the page of {name}: {e:?}"))
        .body
}

#[test]
fn a_six_player_knockout_with_tie_seed_sends_the_higher_seed_through_at_once() {
    let mut h = Harness::new();
    // 3-6: two draws, 1-1; with --tie=seed 3 goes through, no playoff.
    let (games, last) = play_cup(
        &mut h,
        "cupB",
        "--knockout --match=2 --tie=seed",
        |game, _| {
            let (w, b) = (seed(&game.white), seed(&game.black));
            if (w.min(b), w.max(b)) == (3, 6) {
                Result::Draw
            } else {
                higher_seed_wins(game)
            }
        },
    );
    assert_eq!(pairs(&games, 1), vec![(3, 6), (3, 6), (4, 5), (4, 5)]);
    assert_eq!(pairs(&games, 2), vec![(1, 4), (1, 4), (2, 3), (2, 3)]);
    assert_eq!(pairs(&games, 3), vec![(1, 2), (1, 2)]);
    assert_eq!(games.len(), 10);
    assert!(
        last.iter()
            .any(|m| m.to == address("k1") && m.body.contains("is over")),
        "{last:#?}"
    );
}

#[test]
fn refused_knockout_options_create_nothing() {
    let mut h = Harness::new();
    h.signup("td", TD);
    for options in [
        "--knockout --swiss=3",
        "--knockout --double",
        "--knockout --match=0",
        "--knockout --match=13",
        "--knockout --match=99999999999999999999",
        "--knockout --tie=coin",
        "--match=2",
        "--tie=seed",
        "--knockout --max=129",
    ] {
        let mails = h.send(
            TD,
            "new",
            &format!("tournament create td td-pw refused chess {options}"),
        );
        assert_eq!(mails.len(), 1, "{options}: {mails:#?}");
        assert!(
            !mails[0].body.contains("You created"),
            "{options}: {}",
            mails[0].body
        );
    }
    let list = h.send("guest@example.net", "list", "tournaments");
    assert!(!list[0].body.contains("refused"), "{}", list[0].body);
}

#[test]
fn eight_players_in_two_groups_then_a_knockout_final() {
    let mut h = Harness::new();
    // Everywhere the lower number wins: group 1 (seeds 1 4 5 8, snake
    // order) sends g1 and g4, group 2 (2 3 6 7) g2 and g3. Final seeds by
    // group place: g1, g2, g4, g3; semi-finals g1-g3 and g2-g4.
    let (games, last) = play_event(
        &mut h,
        "g",
        8,
        "groups8",
        "--groups=2 --advance=2 --final=knockout",
        "groups in snake order by seed",
        |game, _| {
            if seed(&game.white) < seed(&game.black) {
                Result::WhiteWins
            } else {
                Result::BlackWins
            }
        },
    );
    let group_games: Vec<&Game> = games.iter().filter(|g| g.round <= 3).collect();
    assert_eq!(group_games.len(), 12, "two round robins of four");
    for game in &group_games {
        let (a, b) = (seed(&game.white), seed(&game.black));
        let group = |s: u32| [1, 4, 5, 8].contains(&s);
        assert_eq!(group(a), group(b), "{game:?} within a group");
    }
    assert_eq!(pairs(&games, 4), vec![(1, 3), (1, 3), (2, 4), (2, 4)]);
    assert_eq!(pairs(&games, 5), vec![(1, 2), (1, 2)]);
    assert_eq!(games.len(), 18);
    // The final stage's higher seed has White first: g2 (seed 2) against
    // g4 (seed 3).
    let first = games
        .iter()
        .find(|g| g.round == 4 && (g.white == "g4" || g.black == "g4"))
        .expect("g4's semi-final");
    assert_eq!((first.white.as_str(), first.black.as_str()), ("g2", "g4"));
    let over = last
        .iter()
        .find(|m| m.to == address("g8") && m.body.contains("is over"))
        .unwrap_or_else(|| panic!("the final mail among {last:#?}"));
    assert!(over.body.contains("Group 1:"), "{}", over.body);
    assert!(over.body.contains("Group 2:"), "{}", over.body);
    assert!(over.body.contains("Final stage:"), "{}", over.body);
    let show = h.send("guest@example.net", "show", "tournament show groups8");
    assert!(show[0].body.contains("Group 2:"), "{}", show[0].body);
    let page = event_page(&h, "groups8");
    for part in [
        "<h2>Groups and final stage</h2>",
        "<h3>Group 1</h3>",
        "<h3>Group 2</h3>",
        // The knockout final stage's bracket, as a table.
        "<h2>Bracket</h2>",
    ] {
        assert!(page.contains(part), "{part} in {page}");
    }
    assert!(!page.contains("<pre>"), "{page}");
    assert!(
        show[0].body.contains("up to 60 players"),
        "{}",
        show[0].body
    );
}

#[test]
fn groups_the_entrants_cannot_fill_are_refused_at_the_start_and_nothing_changes() {
    let mut h = Harness::new();
    h.signup("td", TD);
    // Five players in two groups: 2 and 3; two going on from a group of 2
    // would be everyone.
    let created = h.send(
        TD,
        "new",
        "tournament create td td-pw g5 chess --groups=2 --advance=2",
    );
    assert!(
        created[0].body.contains("You created"),
        "{}",
        created[0].body
    );
    for n in 1..=5 {
        let p = format!("p{n}");
        h.signup(&p, &address(&p));
        h.send(
            &address(&p),
            "enter",
            &format!("tournament enter g5 {p} {p}-pw"),
        );
    }
    let before = h.rows(&["tournament_games", "tournament_entries", "boards"]);
    let refused = h.send(TD, "start", "tournament start g5 td td-pw");
    let answer = to(&refused, TD);
    assert!(answer.body.contains("cannot start"), "{}", answer.body);
    assert_eq!(
        h.rows(&["tournament_games", "tournament_entries", "boards"]),
        before
    );
    let show = h.send("guest@example.net", "show", "tournament show g5");
    assert!(show[0].body.contains("Status: open"), "{}", show[0].body);
}

/// The mails to `userid` among `mails` whose subject contains `what`.
fn mails_to<'a>(mails: &'a [Sent], userid: &str, what: &str) -> Vec<&'a Sent> {
    let to = if userid == "td" {
        TD.to_string()
    } else {
        address(userid)
    };
    mails
        .iter()
        .filter(|m| m.to == to && m.subject.contains(what))
        .collect()
}

#[test]
fn a_knockout_tells_byes_playoffs_match_results_and_its_winner_in_words() {
    let mut h = Harness::new();
    // As in the first test: 4-5 tied 1-1, then k4 wins the playoff 2-0.
    play_cup(&mut h, "cupn", "--knockout", |game, before| {
        let (w, b) = (seed(&game.white), seed(&game.black));
        if (w.min(b), w.max(b)) == (4, 5) && before < 2 {
            Result::WhiteWins
        } else {
            higher_seed_wins(game)
        }
    });
    let all = h.all_mails();
    // Byes: k1 and k2 are told at the start, nobody else.
    let first_result = all
        .iter()
        .position(|m| m.subject.contains(" beats "))
        .expect("a match result");
    for (player, meets) in [("k1", "the winner of k4 - k5"), ("k2", "k3 - k6")] {
        let byes = mails_to(&all, player, "your bye");
        assert_eq!(byes.len(), 1, "{player}: {byes:#?}");
        let words = flat(&byes[0].body);
        assert!(
            words.contains(&format!(
                "{player}, you have a bye in the quarter-finals of \"cupn\": no game for you this round, and you go through to the semi-finals, where you meet"
            )) && words.contains(meets),
            "{}",
            byes[0].body
        );
        let at = all
            .iter()
            .position(|m| std::ptr::eq(m, byes[0]))
            .expect("in the outbox");
        assert!(at < first_result, "the bye comes at the start");
    }
    for player in ["k3", "k4", "k5", "k6"] {
        assert!(mails_to(&all, player, "your bye").is_empty(), "{player}");
    }
    // The playoff is announced as one, with the score.
    let playoff = all
        .iter()
        .find(|m| m.to == address("k5") && m.body.contains("Playoff in"))
        .unwrap_or_else(|| panic!("k5's playoff mail"));
    let words = flat(&playoff.body);
    assert!(
        words.contains(
            "Playoff in the quarter-finals of \"cupn\": k4 - k5 is tied 1-1 after 2 games, so a playoff of 2 games decides the match."
        ),
        "{}",
        playoff.body
    );
    assert!(
        words.contains(", quarter-finals playoff: "),
        "{}",
        playoff.body
    );
    assert!(!words.contains("round 1:"), "{}", playoff.body);
    // A match's end: one mail each to both players and the director,
    // naming the next opponent.
    let ended = "k4 beats k5 in the quarter-finals of \"cupn\", 3-1 in 4 games, after a playoff. k4 meets k1 in the semi-finals.";
    // (The loser resigned the last game: theirs comes folded into the
    // answer to that mail, under its own subject.)
    for reader in ["k4", "k5", "td"] {
        let mails = mails_to(&all, reader, "");
        let told: Vec<_> = mails
            .iter()
            .filter(|m| flat(&m.body).contains(ended))
            .collect();
        assert_eq!(told.len(), 1, "{reader}: {mails:#?}");
    }
    assert!(mails_to(&all, "k1", "k4 beats k5").is_empty());
    // Before the other semi-final ends, the winner meets "the winner of".
    let semi = mails_to(&all, "k1", "k1 beats k4");
    assert_eq!(semi.len(), 1, "{semi:#?}");
    assert!(
        flat(&semi[0].body).contains("k1 meets the winner of k2 - k3 in the final."),
        "{}",
        semi[0].body
    );
    let final_match = mails_to(&all, "k1", "k1 beats k2");
    assert!(
        flat(&final_match[0].body).contains("2-0 in 2 games. k1 wins the cup."),
        "{}",
        final_match[0].body
    );
    // The last mail names the winner in words, to every entrant and the
    // director, with the bracket.
    for reader in ["k1", "k2", "k3", "k4", "k5", "k6", "td"] {
        // (k2 resigned the final: theirs is folded into that answer.)
        let mails = mails_to(&all, reader, "");
        let over = mails
            .iter()
            .find(|m| m.body.contains("is over"))
            .unwrap_or_else(|| panic!("{reader}'s final mail"));
        if reader != "k2" {
            assert_eq!(over.subject, "pbem tournament cupn: k1 wins the cup");
        }
        let words = flat(&over.body);
        assert!(
            words.contains("\"cupn\" is over. k1 wins the cup."),
            "{}",
            over.body
        );
        assert!(words.contains("Final bracket: cupn"), "{}", over.body);
        assert!(over.body.contains("6 k6"), "{}", over.body);
    }
}

#[test]
fn the_end_of_the_groups_gives_every_entrant_their_table_place_and_fate() {
    let mut h = Harness::new();
    // As above: the lower number wins everywhere. Group 1 is g1 g4 g5 g8.
    play_event(
        &mut h,
        "g",
        8,
        "groupsn",
        "--groups=2 --advance=2 --final=knockout",
        "groups in snake order by seed",
        |game, _| {
            if seed(&game.white) < seed(&game.black) {
                Result::WhiteWins
            } else {
                Result::BlackWins
            }
        },
    );
    let all = h.all_mails();
    // The start answer lists the games in it, as it says.
    let start = all
        .iter()
        .find(|m| m.to == TD && m.body.contains("has started"))
        .expect("the start answer");
    let words = flat(&start.body);
    assert!(!words.contains("notice of their own"), "{}", start.body);
    assert!(
        words.contains("The groups of \"groupsn\" and their games started:"),
        "{}",
        start.body
    );
    for (player, group, place, points, fate) in [
        (
            "g1",
            1,
            1,
            "3 points",
            "You go on to the final stage, as its seed 1;",
        ),
        (
            "g4",
            1,
            2,
            "2 points",
            "You go on to the final stage, as its seed 3;",
        ),
        (
            "g5",
            1,
            3,
            "1 point.",
            "You do not go on to the final stage.",
        ),
        (
            "g8",
            1,
            4,
            "0 points",
            "You do not go on to the final stage.",
        ),
        ("g2", 2, 1, "3 points", "as its seed 2;"),
        ("g3", 2, 2, "2 points", "as its seed 4;"),
        ("g6", 2, 3, "1 point.", "You do not go on"),
        ("g7", 2, 4, "0 points", "You do not go on"),
    ] {
        // (The last group game's loser gets it folded into the answer
        // to that mail.)
        let mails: Vec<&Sent> = mails_to(&all, player, "")
            .into_iter()
            .filter(|m| flat(&m.body).contains(", you finished in place"))
            .collect();
        assert_eq!(mails.len(), 1, "{player}: {mails:#?}");
        let words = flat(&mails[0].body);
        assert!(
            words.contains(&format!(
                "{player}, you finished in place {place} of 4 in group {group}, with {points}"
            )),
            "{}",
            mails[0].body
        );
        assert!(words.contains(fate), "{}", mails[0].body);
        assert!(
            mails[0].body.contains(&format!("Group {group}:")),
            "{}",
            mails[0].body
        );
    }
    let stage = mails_to(&all, "td", "final stage");
    assert!(
        stage.iter().any(|m| flat(&m.body).contains(
            "each entrant has their group's final table, their place and whether they go on"
        )),
        "{stage:#?}"
    );
}
