//! What the web site holds back, and what `/metrics` counts: a
//! `challenge --private` game is on no page, listing or feed; an event's
//! `--public-delay=2` shows its running games two turns behind on every
//! page and feed, and in full once they end; `pbem serve`'s `/metrics`
//! has every series and its counters move with the mail.

use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pbem_testkit::{ALICE, BOB, Harness, address, free_port, games_in, to};

use super::site::{Serving, check_feed_parses, get, start_in_process, wait_for};

/// Plays `turns` on `board`, each by its mover with their password.
pub(crate) fn play(h: &mut Harness, board: u32, turns: &[(&str, &str)]) {
    for (who, turn) in turns {
        let mails = h.send(
            &address(who),
            "turn",
            &format!("move {board} {who} {who}-pw {turn}"),
        );
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{turn} on {board}: {mails:#?}"
        );
    }
}

/// The number of the board a challenge mail names.
pub(crate) fn challenged_board(mails: &[pbem_testkit::Sent]) -> u32 {
    mails
        .iter()
        .flat_map(|m| m.subject.split_whitespace())
        .find_map(|word| word.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("a board number in {mails:#?}"))
}

/// Board 101 between Alice (White) and Bob, public, and a `--private`
/// game between them, each played to a mate (rated: two turns each):
/// the private board's number.
pub(crate) fn a_public_and_a_private_mate(h: &mut Harness) -> u32 {
    h.alice_and_bob_on("chess");
    h.send(BOB, "ok", "accept 101 bob bob-pw");
    play(
        h,
        101,
        &[
            ("alice", "e4"),
            ("bob", "e5"),
            ("alice", "Qh5"),
            ("bob", "Nc6"),
            ("alice", "Bc4"),
            ("bob", "Nf6"),
            ("alice", "Qxf7"),
        ],
    );
    let finished = challenged_board(&h.send(
        ALICE,
        "private",
        "challenge alice alice-pw bob --white --private",
    ));
    h.send(BOB, "ok", &format!("accept {finished} bob bob-pw"));
    play(
        h,
        finished,
        &[("alice", "f3"), ("bob", "e5"), ("alice", "g4")],
    );
    let mated = h.send(BOB, "turn", &format!("move {finished} bob bob-pw Qh4"));
    assert!(
        mated.iter().any(|m| m.body.contains("0-1")),
        "the private game ended: {mated:#?}"
    );
    finished
}

#[test]
fn a_private_game_is_on_no_page_or_feed() {
    let mut h = Harness::new();
    // Board 101, public and finished (and rated): the scan's control; and
    // a private game played to its end.
    let finished = a_public_and_a_private_mate(&mut h);
    let running = challenged_board(&h.send(
        ALICE,
        "private",
        "challenge alice alice-pw bob --black --private",
    ));
    h.send(BOB, "ok", &format!("accept {running} bob bob-pw"));
    play(&mut h, running, &[("bob", "h4")]);
    // A player whose one game is private: on no list of players.
    h.signup("dave", &address("dave"));
    let hidden = challenged_board(&h.send(
        &address("dave"),
        "private",
        "challenge dave dave-pw alice --private",
    ));
    h.send(ALICE, "ok", &format!("accept {hidden} alice alice-pw"));

    // By mail too, a private game reads only for its players.
    h.signup("mallory", &address("mallory"));
    for command in ["pgn", "show", "history"] {
        let asked = h.send(
            &address("mallory"),
            "peek",
            &format!("{command} {finished}"),
        );
        assert!(
            asked.iter().all(|m| !m.body.contains("Qh4"))
                && asked
                    .iter()
                    .any(|m| m.body.contains(&format!("there is no board {finished}"))),
            "{command}: {asked:#?}"
        );
    }
    let subscribed = h.send(
        &address("mallory"),
        "follow",
        &format!("subscribe {running} mallory mallory-pw"),
    );
    assert!(
        subscribed
            .iter()
            .any(|m| m.body.contains(&format!("there is no board {running}"))),
        "{subscribed:#?}"
    );
    let own = h.send(ALICE, "pgn", &format!("pgn {finished}"));
    assert!(own.iter().any(|m| m.body.contains("Qh4")), "{own:#?}");

    let site = start_in_process(&h);
    for private in [finished, running] {
        for path in [
            format!("/boards/{private}"),
            format!("/boards/{private}?side=black"),
            format!("/boards/{private}.pgn"),
            format!("/boards/{private}.atom"),
        ] {
            assert_eq!(get(site, &path).status, 404, "{path}");
        }
    }
    let paths = [
        "/",
        "/events",
        "/ratings",
        "/ratings/chess",
        "/players/alice",
        "/players/bob",
        "/players",
        "/feed.atom",
        "/variants",
        "/variants/chess",
        "/boards/101",
        "/boards/101.pgn",
        "/boards/101.atom",
        "/metrics",
    ];
    let pages: Vec<(&str, String)> = paths
        .iter()
        .map(|path| {
            let page = get(site, path);
            assert_eq!(page.status, 200, "{path}");
            (*path, page.body)
        })
        .collect();
    let marks = |board: u32| {
        [
            format!("/boards/{board}"),
            format!("board {board}"),
            format!("Board {board}"),
            // A row of a player's rated games: date, board, variant.
            format!(r#"</td><td><a href="/boards/{board}">{board}</a></td><td>Chess</td>"#),
        ]
    };
    // The scan finds the public game where it should: it can fail.
    let shows = |path: &str, mark: &str| {
        pages
            .iter()
            .any(|(p, body)| *p == path && body.contains(mark))
    };
    assert!(shows("/", "/boards/101"));
    assert!(shows("/players/alice", "/boards/101"));
    assert!(shows(
        "/players/alice",
        r#"</td><td><a href="/boards/101">101</a></td><td>Chess</td>"#
    ));
    assert!(shows("/players", r#"<a href="/players/alice">"#));
    assert!(!shows("/players", "dave"), "a private game's player");
    assert!(shows("/feed.atom", "urn:pbem:board:101:"));
    assert!(!shows("/feed.atom", "dave"), "a private game's player");
    assert_eq!(get(site, "/players/dave").status, 200, "dave is a player");
    for (path, body) in &pages {
        for private in [finished, running, hidden] {
            for mark in marks(private) {
                assert!(!body.contains(&mark), "{mark:?} on {path}:\n{body}");
            }
        }
        // The private games' turns.
        for turn in ["Qh4", "h4", "f3"] {
            assert!(
                !body.contains(&format!(".{turn}")) && !body.contains(&format!(" {turn}")),
                "{turn} on {path}:\n{body}"
            );
        }
    }
}

/// A Swiss of four, one round, `--public-delay=2`: the round's first
/// game and its players (white, black).
pub(crate) fn delayed_event(h: &mut Harness) -> (u32, String, String) {
    let players = ["ann", "ben", "cal", "dan"];
    h.signup("td", &address("td"));
    for player in players {
        h.signup(player, &address(player));
    }
    let created = h.send(
        &address("td"),
        "new event",
        "tournament create td td-pw spring chess --swiss=1 --public-delay=2",
    );
    assert!(
        to(&created, &address("td"))
            .body
            .contains("shown 2 turns behind"),
        "{created:#?}"
    );
    for player in players {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter spring {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "start", "tournament start spring td td-pw");
    let notice = to(&started, &address("td"));
    games_in(&notice.body)
        .into_iter()
        .find(|game| game.round == 1)
        .map(|game| (game.board, game.white, game.black))
        .unwrap_or_else(|| panic!("a round-1 pairing in {}", notice.body))
}

#[test]
fn an_event_with_a_public_delay_shows_running_games_two_turns_behind() {
    let mut h = Harness::new();
    let (board, white, black) = delayed_event(&mut h);
    play(
        &mut h,
        board,
        &[
            (&white, "d4"),
            (&black, "d5"),
            (&white, "c4"),
            (&black, "e6"),
        ],
    );
    let site = start_in_process(&h);
    // Two turns behind: after 1.d4 d5, before 2.c4.
    let page = get(site, &format!("/boards/{board}"));
    assert_eq!(page.status, 200);
    for shown in ["/3p4/3P4/8/PPP1PPPP/", "2 turns behind", "1.d4"] {
        assert!(page.body.contains(shown), "{shown:?} in {}", page.body);
    }
    for hidden in ["2PP4", "2.c4", "e6", "Loses on time", "Next reminder"] {
        assert!(!page.body.contains(hidden), "{hidden:?} in {}", page.body);
    }
    let pgn = get(site, &format!("/boards/{board}.pgn")).body;
    assert!(pgn.contains("1.d4 d5 *") && !pgn.contains("c4"), "{pgn}");
    let event_pgn = get(site, "/events/spring.pgn").body;
    assert!(
        event_pgn.contains("1.d4 d5 *") && !event_pgn.contains("c4"),
        "{event_pgn}"
    );
    let feed = get(site, &format!("/boards/{board}.atom")).body;
    check_feed_parses(&feed, 2);
    assert!(!feed.contains("c4") && !feed.contains("e6"), "{feed}");
    let event = get(site, "/events/spring").body;
    assert!(event.contains("2 turns behind"), "{event}");
    let index = get(site, "/").body;
    assert!(index.contains("shown with a delay"), "{index}");

    // Ended: shown in full.
    let resigned = h.send(
        &address(&black),
        "resign",
        &format!("resign {board} {black} {black}-pw"),
    );
    assert!(!resigned.is_empty());
    let page = get(site, &format!("/boards/{board}")).body;
    assert!(
        page.contains("2PP4") && !page.contains("turns behind"),
        "{page}"
    );
    let pgn = get(site, &format!("/boards/{board}.pgn")).body;
    assert!(pgn.contains("1.d4 d5 2.c4 e6 1-0"), "{pgn}");
    check_feed_parses(&get(site, &format!("/boards/{board}.atom")).body, 5);
}

/// The value of the sample `name` (without labels) in Prometheus text.
fn sample(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|value| value.trim().parse().ok())
        .unwrap_or_else(|| panic!("{name} in {metrics}"))
}

/// Fetches `/metrics` until `done` holds of it (the server handles mail
/// on its own time).
fn metrics_until(site: SocketAddr, what: &str, done: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let metrics = get(site, "/metrics").body;
        if done(&metrics) {
            return metrics;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what}:\n{metrics}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn metrics_has_every_series_and_they_move() {
    let h = Harness::new();
    let port = free_port();
    let config = h.dir.path().join("web.toml");
    std::fs::write(&config, format!("[web]\nlisten = \"127.0.0.1:{port}\"\n"))
        .expect("config written");
    let now = h
        .now
        .format(&time::format_description::well_known::Rfc3339)
        .expect("RFC 3339");
    let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .args(["--now", &now, "serve"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("pbem serve starts");
    let _serving = Serving(child);
    let site = SocketAddr::from(([127, 0, 0, 1], port));
    wait_for(site);

    // The sweep that catches up at start is counted and timed.
    let metrics = metrics_until(site, "the first sweep", |m| {
        m.contains("pbem_sweeps_total 1")
    });
    for name in [
        "pbem_mails_in_total",
        "pbem_mails_answered_total",
        "pbem_mails_refused_total",
        "pbem_outbox_unsent",
        "pbem_outbox_held",
        "pbem_sweeps_total",
        "pbem_sweep_seconds_total",
        "pbem_sweep_last_duration_seconds",
    ] {
        assert!(
            metrics.contains(&format!("# TYPE {name} ")),
            "{name} in {metrics}"
        );
        sample(&metrics, name);
    }
    assert_eq!(sample(&metrics, "pbem_mails_in_total"), 0.0);
    assert!(sample(&metrics, "pbem_sweep_seconds_total") > 0.0);

    // A mail of no command is refused, and answered.
    h.server
        .inbox()
        .deliver(b"From: alice@example.org\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <metrics-1@players.example>\r\n\r\nfrobnicate the board\r\n")
        .expect("the inbox takes the mail");
    let metrics = metrics_until(site, "the refused mail counted", |m| {
        m.contains("pbem_mails_in_total 1\n")
    });
    assert_eq!(sample(&metrics, "pbem_mails_refused_total"), 1.0);
    assert_eq!(sample(&metrics, "pbem_mails_answered_total"), 1.0);

    // `help` is answered, not refused.
    h.server
        .inbox()
        .deliver(b"From: alice@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <metrics-2@players.example>\r\n\r\nhelp\r\n")
        .expect("the inbox takes the mail");
    let metrics = metrics_until(site, "the help mail counted", |m| {
        m.contains("pbem_mails_in_total 2\n")
    });
    assert_eq!(sample(&metrics, "pbem_mails_refused_total"), 1.0);
    assert_eq!(sample(&metrics, "pbem_mails_answered_total"), 2.0);
    assert_eq!(sample(&metrics, "pbem_outbox_held"), 0.0);
}
