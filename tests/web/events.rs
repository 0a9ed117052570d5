//! Event and ladder pages (issue 38) after events played whole by mail
//! through the real Maildir: the control in words and the tiebreaks in
//! their order, the winner and end date of a finished event, a cup's
//! pairings headed by the bracket's round names, a ladder's last results.
//! Each page is built in this process at the harness clock, as the HTTP
//! routes build it, and read as HTML.

use pbem::server::TimeSource;
use pbem::web::{Site, pages};
use pbem_testkit::{Game, Harness, Sent, address, games_in, readable, to};

const TD: &str = "td@example.org";

/// The page of event `name`.
fn event_page(h: &Harness, name: &str) -> String {
    let site = Site::new(&h.config, TimeSource::Fixed(h.now));
    pages::event(&site, &h.database(), name)
        .unwrap_or_else(|e| panic!("the page of {name}: {e:?}"))
        .body
}

/// The page of ladder `name`.
fn ladder_page(h: &Harness, name: &str) -> String {
    let site = Site::new(&h.config, TimeSource::Fixed(h.now));
    pages::ladder(&site, &h.database(), name)
        .unwrap_or_else(|e| panic!("the page of ladder {name}: {e:?}"))
        .body
}

/// The director `td` creates `name` with `options`, `players` enter it,
/// and `td` starts it; the games the start announces to the director.
fn started_event(h: &mut Harness, name: &str, options: &str, players: &[&str]) -> Vec<Game> {
    h.signup("td", TD);
    started_event_by_td(h, name, options, players)
}

/// [`started_event`] where `td` has signed up already.
fn started_event_by_td(h: &mut Harness, name: &str, options: &str, players: &[&str]) -> Vec<Game> {
    for p in players {
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
    for p in players {
        let entered = h.send(
            &address(p),
            "enter",
            &format!("tournament enter {name} {p} {p}-pw"),
        );
        assert!(!entered[0].subject.contains("Error"), "{}", entered[0].body);
    }
    let started = h.send(TD, "start", &format!("tournament start {name} td td-pw"));
    games_in(&to(&started, TD).body)
}

/// `loser` resigns `game`; the mails that follow.
fn resign(h: &mut Harness, game: &Game, loser: &str) -> Vec<Sent> {
    h.send(
        &address(loser),
        "resign",
        &format!("resign {} {loser} {loser}-pw", game.board),
    )
}

/// The player of `game` who loses when the lower userid wins.
fn loser(game: &Game) -> String {
    game.white.clone().max(game.black.clone())
}

/// Plays `queue` and every game its results start, the lower userid
/// winning each.
fn play_out(h: &mut Harness, mut queue: Vec<Game>) {
    while !queue.is_empty() {
        let game = queue.remove(0);
        let mails = resign(h, &game, &loser(&game));
        queue.extend(
            mails
                .iter()
                .filter(|m| m.to == TD && m.body.contains("started:"))
                .flat_map(|m| games_in(&m.body)),
        );
    }
}

/// Beside what a harness holds already (a director `td`), a finished cup
/// "cup" of k1-k4 and a ladder "top" of anna and boris with one game
/// ended, for the browser's look at their pages.
pub(crate) fn cup_and_ladder(h: &mut Harness) {
    let games = started_event_by_td(h, "cup", "--knockout --match=1", &["k1", "k2", "k3", "k4"]);
    play_out(h, games);
    ladder_of_two(h);
    let board = boris_challenges_anna(h);
    resign(h, &board, "anna");
}

/// own's ladder "top", joined by anna then boris.
fn ladder_of_two(h: &mut Harness) {
    h.signup("own", &address("own"));
    for p in ["anna", "boris"] {
        h.signup(p, &address(p));
    }
    h.send(
        &address("own"),
        "ladder",
        "ladder create own own-pw top chess",
    );
    for p in ["anna", "boris"] {
        h.send(&address(p), "join", &format!("ladder join top {p} {p}-pw"));
    }
}

/// boris challenges anna on "top" (the challenger plays White).
fn boris_challenges_anna(h: &mut Harness) -> Game {
    let mails = h.send(
        &address("boris"),
        "challenge",
        "ladder challenge top boris boris-pw anna",
    );
    let board = mails[0]
        .subject
        .split("Board ")
        .nth(1)
        .and_then(|s| s.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a board mail: {mails:#?}"));
    Game {
        round: 1,
        board,
        white: "boris".into(),
        black: "anna".into(),
    }
}

#[test]
fn an_event_with_a_control_shows_it_in_words_with_its_tiebreaks_then_its_winner_and_end() {
    let mut h = Harness::new();
    let games = started_event(
        &mut h,
        "club",
        "--time=10/50 --tiebreaks=wins,sb,de",
        &["r1", "r2", "r3"],
    );
    assert_eq!(games.len(), 3, "a round robin of three: {games:?}");
    let page = event_page(&h, "club");
    for shown in [
        "<tr><th>Time control</th><td>10 turns in 50 days, unused time carried over</td></tr>",
        "<tr><th>Tiebreaks, in order</th><td>number of wins, Sonneborn-Berger, direct encounter</td></tr>",
    ] {
        assert!(page.contains(shown), "{shown}\n{page}");
    }
    assert!(!page.contains("Days before a reminder"), "{page}");
    // Running: no winner and no end yet.
    assert!(!page.contains("Won by"), "{page}");
    assert!(!page.contains("<th>Finished</th>"), "{page}");

    // r1 beats both, r2 beats r3: the event ends when the last game does.
    for game in &games {
        resign(&mut h, game, &loser(game));
    }
    let page = event_page(&h, "club");
    assert!(
        page.contains(r#"<p class="winner">Won by <a href="/players/r1">r1</a>.</p>"#),
        "{page}"
    );
    let finished = format!("<tr><th>Finished</th><td>{}</td></tr>", readable(h.now));
    assert!(page.contains(&finished), "{finished}\n{page}");
    assert!(
        page.contains("<tr><th>Status</th><td>finished</td></tr>"),
        "{page}"
    );
}

#[test]
fn an_event_without_a_control_shows_its_deadlines_and_its_default_tiebreaks() {
    let mut h = Harness::new();
    started_event(&mut h, "plain", "--nag=2 --forfeit=9", &["r1", "r2", "r3"]);
    let page = event_page(&h, "plain");
    for shown in [
        "<tr><th>Days before a reminder</th><td>2</td></tr>",
        "<tr><th>Days before a loss on time</th><td>9</td></tr>",
        "<tr><th>Tiebreaks, in order</th><td>Sonneborn-Berger, number of wins, direct encounter</td></tr>",
    ] {
        assert!(page.contains(shown), "{shown}\n{page}");
    }
    assert!(!page.contains("Time control"), "{page}");
}

#[test]
fn a_cups_pairings_are_headed_by_the_brackets_round_names_and_it_names_its_winner() {
    let mut h = Harness::new();
    // Four players, matches of one game: semi-finals, then the final.
    let queue = started_event(
        &mut h,
        "cup",
        "--knockout --match=1",
        &["k1", "k2", "k3", "k4"],
    );
    assert_eq!(queue.len(), 2, "two semi-finals: {queue:?}");
    let page = event_page(&h, "cup");
    assert!(page.contains("<h3>Semi-finals</h3>"), "{page}");
    assert!(!page.contains("<h3>Final</h3>"), "{page}");
    assert!(!page.contains("Won by"), "{page}");
    play_out(&mut h, queue);
    let page = event_page(&h, "cup");
    let semis = page.find("<h3>Semi-finals</h3>").expect("the semi-finals");
    let fin = page.find("<h3>Final</h3>").expect("the final");
    assert!(semis < fin, "the rounds in order\n{page}");
    assert!(!page.contains("<h3>Round "), "{page}");
    assert!(
        page.contains(r#"<p class="winner">Won by <a href="/players/k1">k1</a>.</p>"#),
        "{page}"
    );
    assert!(page.contains("<th>Finished</th>"), "{page}");
}

#[test]
fn a_ladder_page_shows_its_last_results_once_a_game_ends() {
    let mut h = Harness::new();
    ladder_of_two(&mut h);
    let page = ladder_page(&h, "top");
    let last = |page: &str| {
        page.split("<h2>Last results</h2>")
            .nth(1)
            .map(str::to_string)
    };
    let before = last(&page).unwrap_or_else(|| panic!("the last results\n{page}"));
    assert!(before.contains("<p>None yet.</p>"), "{page}");
    let board = boris_challenges_anna(&mut h);
    let resigned = resign(&mut h, &board, "anna");
    assert!(
        resigned.iter().all(|m| !m.subject.contains("Error")),
        "{resigned:#?}"
    );
    let page = ladder_page(&h, "top");
    let row = format!(
        r#"<tr><td><a href="/boards/{b}">{b}</a></td><td><a href="/players/boris">boris</a></td><td><a href="/players/anna">anna</a></td><td>1-0</td><td class="time">{}</td></tr>"#,
        readable(h.now),
        b = board.board
    );
    let after = last(&page).unwrap_or_else(|| panic!("the last results\n{page}"));
    assert!(after.contains(&row), "{row}\n{page}");
    assert!(!after.contains("None yet."), "{page}");
}

#[test]
fn a_groups_events_groups_and_round_robin_final_are_tables() {
    let mut h = Harness::new();
    let players = ["g1", "g2", "g3", "g4", "g5", "g6", "g7", "g8"];
    let games = started_event(&mut h, "league", "--groups=2 --advance=2", &players);
    let page = event_page(&h, "league");
    assert!(page.contains("<h3>Group 2</h3>"), "{page}");
    assert!(!page.contains("<h3>Final stage</h3>"), "{page}");
    play_out(&mut h, games);
    let page = event_page(&h, "league");
    for shown in [
        "<h2>Groups and final stage</h2>",
        "<h3>Group 1</h3>",
        "<h3>Group 2</h3>",
        "<h3>Final stage</h3>",
        "<caption>Final stage, by opponent's rank</caption>",
    ] {
        assert!(page.contains(shown), "{shown}\n{page}");
    }
    assert!(!page.contains("<pre>"), "{page}");
    // Each group's results link to their games.
    let group = &page[page.find("<h3>Group 1</h3>").expect("group 1")..];
    assert!(group.contains(r#"<td><a href="/boards/"#), "{group}");
}
