//! The spectators' web site (`pbem::web`), over real TCP: a game and a
//! Swiss event played by mail through the real Maildir, then every route
//! fetched, from `pbem serve` itself and from the router bound to a free
//! loopback port in this process. Checks status codes, content, `ETag` and
//! 304, hostile paths and queries, and that no page or feed holds a
//! player's address, a chat line, a comment, a password or anything of a
//! challenge nobody accepted.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use pbem::server::TimeSource;
use pbem_testkit::{ALICE, BOB, Harness, address, free_port, games_in, pixel_box, to};

/// Words that must appear on no page: the players' addresses, passwords,
/// chat and comments, and the userid and address of a player whose
/// challenge was never accepted.
const SECRETS: &[&str] = &[
    "@example.org",
    "-pw",
    "SECRET-CHAT-LINE",
    "SECRET-COMMENT",
    "mallory",
];

/// A response as read off the socket.
#[derive(Debug)]
pub(crate) struct Fetched {
    pub(crate) status: u16,
    headers: Vec<(String, String)>,
    pub(crate) body: String,
}

impl Fetched {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// `GET path` with `extra` header lines, over a new connection.
fn get_with(site: SocketAddr, path: &str, extra: &str) -> Fetched {
    let mut stream = TcpStream::connect(site).expect("the site accepts connections");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{extra}\r\n"
    )
    .expect("request written");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("response read");
    let raw = String::from_utf8(raw).expect("UTF-8 response");
    let (head, body) = raw.split_once("\r\n\r\n").expect("a header block");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|line| line.split(' ').nth(1))
        .and_then(|code| code.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Fetched {
        status,
        headers,
        body: body.to_string(),
    }
}

pub(crate) fn get(site: SocketAddr, path: &str) -> Fetched {
    get_with(site, path, "")
}

/// Board 101 (alice - bob) played a few turns with chat and a comment;
/// a challenge from mallory to alice never accepted (board 102); a Swiss
/// event of four with one game decided; an address claimed for a userid
/// never confirmed. Returns the harness and the event's first game.
pub(crate) fn played() -> (Harness, u32) {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    let accepted = h.send(BOB, "ok", "accept 101 bob bob-pw");
    assert_eq!(accepted.len(), 2, "{accepted:#?}");
    for (who, text) in [
        (
            ALICE,
            "move 101 alice alice-pw e4\nSECRET-COMMENT good luck",
        ),
        (BOB, "move 101 bob bob-pw e5"),
        (BOB, "chat 101 bob bob-pw SECRET-CHAT-LINE"),
        (ALICE, "move 101 alice alice-pw Qh5"),
        (BOB, "move 101 bob bob-pw Nc6"),
        (ALICE, "move 101 alice alice-pw Bc4"),
        (BOB, "move 101 bob bob-pw Nf6"),
        (ALICE, "move 101 alice alice-pw Qxf7"),
    ] {
        let mails = h.send(who, "turn", text);
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{text}: {mails:#?}"
        );
    }
    h.signup("mallory", &address("mallory"));
    let challenge = h.send(
        &address("mallory"),
        "game?",
        "challenge mallory mallory-pw alice",
    );
    assert!(
        challenge.iter().any(|m| m.body.contains("102")),
        "{challenge:#?}"
    );
    // A userid claimed but never confirmed.
    h.send(&address("nobody"), "hi", "signup ghost ghost-pw");

    let players = ["ann", "ben", "cal", "dan"];
    h.signup("td", &address("td"));
    for player in players {
        h.signup(player, &address(player));
    }
    let created = h.send(
        &address("td"),
        "new event",
        "tournament create td td-pw spring chess --swiss=2",
    );
    assert_eq!(created.len(), 1, "{created:#?}");
    for player in players {
        let entered = h.send(
            &address(player),
            "enter",
            &format!("tournament enter spring {player} {player}-pw"),
        );
        assert_eq!(entered.len(), 1, "{entered:#?}");
    }
    let started = h.send(&address("td"), "start", "tournament start spring td td-pw");
    let notice = to(&started, &address("td"));
    let (board, white, black) = games_in(&notice.body)
        .into_iter()
        .find(|game| game.round == 1)
        .map(|game| (game.board, game.white, game.black))
        .unwrap_or_else(|| panic!("a round-1 pairing in {}", notice.body));
    for (who, turn) in [(&white, "d4"), (&black, "d5")] {
        h.send(
            &address(who),
            "move",
            &format!("move {board} {who} {who}-pw {turn}"),
        );
    }
    let resigned = h.send(
        &address(&black),
        "resign",
        &format!("resign {board} {black} {black}-pw"),
    );
    assert!(!resigned.is_empty());
    (h, board)
}

/// Every page's path, for the scan of secrets.
fn every_path(event_board: u32) -> Vec<String> {
    [
        "/",
        "/health",
        "/metrics",
        "/boards/101",
        "/boards/101?side=black",
        "/boards/101.pgn",
        "/boards/101.atom",
        "/events",
        "/events/spring",
        "/events/spring.trf",
        "/events/spring.pgn",
        "/events/spring.atom",
        "/ratings",
        "/ratings/chess",
        "/players/alice",
        "/players/bob",
        "/players/ann",
        "/players",
        "/ladders",
        "/?page=1",
        "/feed.atom",
        "/variants",
        "/variants/chess",
    ]
    .into_iter()
    .map(str::to_string)
    .chain([
        format!("/boards/{event_board}"),
        format!("/boards/{event_board}.atom"),
    ])
    .collect()
}

/// Fetches every route and checks what each shows.
fn check_every_route(site: SocketAddr, event_board: u32) {
    let health = get(site, "/health");
    assert_eq!(health.status, 200, "{health:?}");

    let board = get(site, "/boards/101");
    assert_eq!(board.status, 200, "{board:?}");
    assert_eq!(
        board.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    for shown in [
        "Chess board 101",
        "alice",
        "bob",
        "<svg",
        "Result: 1-0",
        "4.Qxf7#",
        "/boards/101.pgn",
    ] {
        assert!(board.body.contains(shown), "{shown:?} in {}", board.body);
    }
    assert!(!board.body.contains("<script"), "no script");
    assert!(board.body.len() < 20 * 1024, "{} bytes", board.body.len());
    let black_side = get(site, "/boards/101?side=black");
    assert_eq!(black_side.status, 200);
    assert_ne!(black_side.body, board.body, "the board from Black's side");
    assert!(black_side.body.contains("seen by Black"));

    let pgn = get(site, "/boards/101.pgn");
    assert_eq!(pgn.status, 200);
    assert_eq!(
        pgn.header("content-type"),
        Some("application/vnd.chess-pgn; charset=utf-8")
    );
    for tag in [
        "[White \"alice\"]",
        "[Black \"bob\"]",
        "[Result \"1-0\"]",
        "1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7# 1-0",
    ] {
        assert!(pgn.body.contains(tag), "{tag:?} in {}", pgn.body);
    }

    let feed = get(site, "/boards/101.atom");
    assert_eq!(feed.status, 200);
    assert_eq!(
        feed.header("content-type"),
        Some("application/atom+xml; charset=utf-8")
    );
    // One entry per turn, and the result.
    assert_eq!(feed.body.matches("<entry>").count(), 8, "{}", feed.body);
    assert!(feed.body.contains("alice played 4.Qxf7#"), "{}", feed.body);

    let index = get(site, "/");
    assert_eq!(index.status, 200);
    for shown in ["/boards/101", "/events/spring", "/ratings/chess"] {
        assert!(index.body.contains(shown), "{shown:?} in {}", index.body);
    }
    let events = get(site, "/events");
    assert_eq!(events.status, 200);
    assert!(events.body.contains("/events/spring"), "{}", events.body);

    let event = get(site, "/events/spring");
    assert_eq!(event.status, 200);
    for shown in [
        "Entrants (4)",
        "Round 1",
        &format!("/boards/{event_board}"),
        "Crosstable",
        "1 of 2 games finished",
        "/events/spring.trf",
        "/events/spring.pgn",
    ] {
        assert!(event.body.contains(shown), "{shown:?} in {}", event.body);
    }
    let trf = get(site, "/events/spring.trf");
    assert_eq!(trf.status, 200);
    assert!(trf.body.starts_with("012 spring"), "{}", trf.body);
    assert_eq!(trf.body.matches("\n001 ").count(), 4, "{}", trf.body);
    let event_pgn = get(site, "/events/spring.pgn");
    assert_eq!(event_pgn.status, 200);
    assert_eq!(
        event_pgn.body.matches("[Event \"spring\"]").count(),
        2,
        "{}",
        event_pgn.body
    );
    let event_feed = get(site, "/events/spring.atom");
    assert_eq!(event_feed.status, 200);
    // The start, and the one game that ended.
    assert_eq!(
        event_feed.body.matches("<entry>").count(),
        2,
        "{}",
        event_feed.body
    );

    let ratings = get(site, "/ratings/chess");
    assert_eq!(ratings.status, 200);
    assert!(
        ratings.body.contains("alice") && ratings.body.contains("Provisional"),
        "{}",
        ratings.body
    );
    let rated = get(site, "/ratings");
    assert!(rated.body.contains("/ratings/chess"), "{}", rated.body);
    let player = get(site, "/players/alice");
    assert_eq!(player.status, 200);
    assert!(player.body.contains("/boards/101"), "{}", player.body);
    let entrant = get(site, "/players/ann");
    assert!(entrant.body.contains("/events/spring"), "{}", entrant.body);

    let metrics = get(site, "/metrics");
    assert_eq!(metrics.status, 200);
    assert!(
        metrics.body.contains("pbem_outbox_unsent ")
            && metrics.body.contains("pbem_boards{state=\"finished\"} 2")
            && metrics.body.contains("pbem_events{status=\"running\"} 1"),
        "{}",
        metrics.body
    );

    // Nothing private anywhere, nor anything of the unaccepted challenge.
    for path in every_path(event_board) {
        let page = get(site, &path);
        assert_eq!(page.status, 200, "{path}: {page:?}");
        for secret in SECRETS {
            assert!(
                !page.body.contains(secret),
                "{path} shows {secret:?}:\n{}",
                page.body
            );
        }
        assert!(!page.body.contains("/boards/102"), "{path}: {}", page.body);
    }
}

/// What no page may show, and what no input may break.
fn check_refusals(site: SocketAddr) {
    for (path, status) in [
        // The challenge nobody accepted, and a board that does not exist.
        ("/boards/102", 404),
        ("/boards/102.pgn", 404),
        ("/boards/102.atom", 404),
        ("/boards/999", 404),
        // Past u32, signs, junk.
        ("/boards/4294967296", 404),
        ("/boards/99999999999999999999999999", 404),
        ("/boards/+101", 404),
        ("/boards/101.png", 404),
        ("/boards/abc", 404),
        ("/boards/101?side=purple", 400),
        ("/events/nothing", 404),
        ("/events/nothing.trf", 404),
        ("/events/nothing.atom", 404),
        ("/ratings/checkers", 404),
        // The challenger, and a userid never confirmed.
        ("/players/nobody-at-all", 404),
        ("/players/ghost", 404),
        ("/players/%FF%FE", 400),
        // Pages of lists: past the end, none, junk.
        ("/?page=2", 404),
        ("/variants/checkers", 404),
        ("/?page=0", 404),
        ("/?page=two", 400),
        ("/?side=black", 400),
        ("/players?page=2", 404),
        ("/players/alice?page=2", 404),
        ("/events?page=2", 404),
        ("/players?page=99999999999", 404),
        ("/nowhere", 404),
        ("/boards/", 404),
    ] {
        let page = get(site, path);
        assert_eq!(page.status, status, "{path}: {page:?}");
    }
    let huge = format!("/boards/101?side={}", "b".repeat(5000));
    assert_eq!(get(site, &huge).status, 400);
    let huge = format!("/events?{}", "x".repeat(5000));
    assert_eq!(get(site, &huge).status, 400);
    // The site still answers.
    assert_eq!(get(site, "/health").status, 200);
}

/// A board reloaded unchanged costs a 304; a new turn changes its tag.
fn check_etags(site: SocketAddr, h: &mut Harness, board: u32) {
    let path = format!("/boards/{board}");
    let first = get(site, &path);
    let tag = first.header("etag").expect("an ETag").to_string();
    assert_eq!(get(site, &path).header("etag"), Some(tag.as_str()));
    let again = get_with(site, &path, &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(again.status, 304, "{again:?}");
    assert!(again.body.is_empty());
    let stale = get_with(site, &path, "If-None-Match: \"stale\"\r\n");
    assert_eq!(stale.status, 200);

    // The event's other round-1 game moves on: its page changes.
    let mails = h.send(&address("td"), "show", "tournament show spring");
    let other = mails[0]
        .body
        .lines()
        .find_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", "1", "board", b, white, "-", _, "in", "progress"] => {
                    Some((b.parse::<u32>().expect("board"), white.to_string()))
                }
                _ => None,
            },
        )
        .unwrap_or_else(|| panic!("the game in progress in {}", mails[0].body));
    let (other, white) = other;
    let other_path = format!("/boards/{other}");
    let before = get(site, &other_path);
    let tag = before.header("etag").expect("an ETag").to_string();
    h.send(
        &address(&white),
        "move",
        &format!("move {other} {white} {white}-pw e4"),
    );
    let after = get_with(site, &other_path, &format!("If-None-Match: {tag}\r\n"));
    assert_eq!(after.status, 200, "a new turn is a new page");
    assert_ne!(after.header("etag"), Some(tag.as_str()));
    assert!(after.body.contains("1.e4"), "{}", after.body);
}

/// Reads `feed` with Python's feedparser (Debian's python3-feedparser,
/// which scripts/test installs): it must parse cleanly and hold `entries`
/// entries, each with an id, a title, a link and a date.
pub(crate) fn check_feed_parses(feed: &str, entries: usize) {
    let script = "import sys, feedparser\n\
        d = feedparser.parse(sys.stdin.read())\n\
        assert not d.bozo, d.get('bozo_exception')\n\
        assert d.feed.title and d.feed.link and d.feed.updated_parsed\n\
        for e in d.entries:\n\
        \x20   assert e.id and e.title and e.link and e.updated_parsed, e\n\
        print(len(d.entries))\n";
    let mut child = Command::new("/usr/bin/python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("/usr/bin/python3 runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(feed.as_bytes())
        .expect("feed written");
    let output = child.wait_with_output().expect("python3 ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !stderr.contains("No module named 'feedparser'"),
        "the feed test needs Debian's python3-feedparser (scripts/test installs it; as root: apt-get install -y python3-feedparser)"
    );
    assert!(output.status.success(), "{stderr}\n{feed}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        entries.to_string(),
        "{feed}"
    );
}

/// Runs the router on a free loopback port in this process.
pub(crate) fn start_in_process(h: &Harness) -> SocketAddr {
    // A page that fails logs why: shown with the failing test's output.
    let _ = tracing_subscriber::fmt().with_test_writer().try_init();
    let site = pbem::web::Site::new(&h.config, TimeSource::Fixed(h.now));
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
                .await
                .expect("a free port");
            sender
                .send(listener.local_addr().expect("its address"))
                .expect("the test waits");
            pbem::web::serve_on(listener, site).await;
        });
    });
    receiver.recv().expect("the site's address")
}

/// The web site says what the mails say: a board's PGN is the `pgn`
/// command's, and a running board's deadlines are its board mail's.
fn check_same_as_the_mails(site: SocketAddr, h: &mut Harness) {
    let pgn = get(site, "/boards/101.pgn").body;
    let mailed = h.send(&address("td"), "pgn", "pgn 101");
    assert!(
        mailed[0].body.contains(pgn.trim_end()),
        "web:\n{pgn}\nmail:\n{}",
        mailed[0].body
    );

    let shown = h.send(&address("td"), "show", "tournament show spring");
    let running = shown[0]
        .body
        .lines()
        .find_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", "1", "board", b, _, "-", _, "in", "progress"] => b.parse::<u32>().ok(),
                _ => None,
            },
        )
        .unwrap_or_else(|| panic!("the game in progress in {}", shown[0].body));
    let mail = h
        .all_mails()
        .into_iter()
        .rev()
        .find(|m| {
            m.body.contains(&format!("Board {running}")) && m.body.contains("not to lose on time")
        })
        .expect("a board mail with the deadlines");
    let date_after = |text: &str, words: &str| {
        let flat = pbem_testkit::flat(text);
        let start = flat
            .find(words)
            .unwrap_or_else(|| panic!("{words:?} in {flat}"))
            + words.len();
        flat[start..start + 20].to_string()
    };
    let reminder = date_after(&mail.body, "must move by ");
    let forfeit = date_after(&mail.body, "and by ");
    let page = get(site, &format!("/boards/{running}")).body;
    assert!(
        page.contains(&format!("<td>{reminder}</td>"))
            && page.contains(&format!("<td>{forfeit}</td>")),
        "{reminder} and {forfeit} in {page}"
    );
}

#[test]
fn every_route_in_process_with_refusals_and_etags() {
    let (mut h, event_board) = played();
    let site = start_in_process(&h);
    check_every_route(site, event_board);
    check_feed_parses(&get(site, "/boards/101.atom").body, 8);
    check_feed_parses(&get(site, "/events/spring.atom").body, 2);
    // The site's feed: board 101 begun and ended, the event's two games
    // begun and one ended, the event started; never the challenge nobody
    // accepted (board 102).
    let news = get(site, "/feed.atom").body;
    check_feed_parses(&news, 6);
    assert!(
        news.contains("urn:pbem:board:101:") && news.contains("spring started"),
        "{news}"
    );
    assert!(!news.contains("urn:pbem:board:102:"), "{news}");
    check_refusals(site);
    check_same_as_the_mails(site, &mut h);
    check_etags(site, &mut h, event_board);
}

/// `pbem serve`, stopped when dropped.
pub(crate) struct Serving(pub(crate) Child);

impl Drop for Serving {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

/// Waits until the site answers `/health`.
pub(crate) fn wait_for(site: SocketAddr) {
    let start = Instant::now();
    while TcpStream::connect(site).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "pbem serve did not open {site}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn pbem_serve_serves_the_site_beside_the_mail() {
    let (h, event_board) = played();
    let port = free_port();
    let config = h.dir.path().join("web.toml");
    std::fs::write(&config, format!("[web]\nlisten = \"127.0.0.1:{port}\"\n"))
        .expect("config written");
    // The harness's time, so that no deadline passes while the test runs.
    let now = h
        .now
        .format(&time::format_description::well_known::Rfc3339)
        .expect("RFC 3339");
    let log = h.dir.path().join("serve.log");
    let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .args(["--now", &now, "serve"])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("pbem serve starts");
    let _serving = Serving(child);
    let site = SocketAddr::from(([127, 0, 0, 1], port));
    wait_for(site);
    check_every_route(site, event_board);
    // The mail goes on while the site serves: a mail in, an answer out.
    let before = h.all_mails().len();
    h.server
        .inbox()
        .deliver(b"From: alice@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <web-help@players.example>\r\n\r\nhelp\r\n")
        .expect("the inbox takes the mail");
    let start = Instant::now();
    loop {
        let answered = h.all_mails()[before..].iter().any(|m| m.to == ALICE);
        if answered {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "pbem serve answered no mail while serving the site: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_port_taken_stops_the_site_but_not_the_mail() {
    let h = Harness::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = taken.local_addr().expect("address").port();
    let config = h.dir.path().join("web.toml");
    std::fs::write(&config, format!("[web]\nlisten = \"127.0.0.1:{port}\"\n"))
        .expect("config written");
    let log = h.dir.path().join("serve.log");
    let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("pbem serve starts");
    let mut serving = Serving(child);
    h.server
        .inbox()
        .deliver(b"From: alice@example.org\r\nTo: pbem@localhost\r\nSubject: help\r\nMessage-ID: <web-help-2@players.example>\r\n\r\nhelp\r\n")
        .expect("the inbox takes the mail");
    let start = Instant::now();
    while !h.all_mails().iter().any(|m| m.to == ALICE) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "no answer: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        serving.0.try_wait().expect("status").is_none(),
        "pbem serve still runs"
    );
    let logged = std::fs::read_to_string(&log).expect("log");
    assert!(
        logged.contains("cannot serve the web site"),
        "the startup log says why: {logged}"
    );
    drop(taken);
}

/// A screenshot of `url` in headless Chromium, kept at `keep`: width,
/// height and RGB(A) pixels.
fn screenshot(url: &str, keep: &std::path::Path) -> (u32, u32, Vec<u8>, usize) {
    pbem_testkit::screenshot(url, "1000,1000", keep, &[])
}

#[test]
fn chromium_shows_the_board_page_and_the_event_page() {
    use pbem::render::picture::{DARK, LIGHT, SQUARE};
    let (h, _) = played();
    let site = start_in_process(&h);
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-output/web");
    std::fs::create_dir_all(&out).expect("output dir");
    let near = |p: &[u8], colour: [u8; 3]| p.iter().zip(colour).all(|(a, b)| a.abs_diff(b) <= 6);

    for side in ["white", "black"] {
        let keep = out.join(format!("board-{side}.png"));
        let (width, height, pixels, channels) =
            screenshot(&format!("http://{site}/boards/101?side={side}"), &keep);
        let at = |x: u32, y: u32| {
            let i = ((y * width + x) as usize) * channels;
            &pixels[i..i + 3]
        };
        // The board: square-coloured pixels over a board-sized box.
        let (count, left, right, top, bottom) = pixel_box(width, height, |x, y| {
            near(at(x, y), LIGHT) || near(at(x, y), DARK)
        });
        assert!(
            count > 8 * 8 * 600,
            "{side}: no board ({count} pixels); see {}",
            keep.display()
        );
        let board = 8 * SQUARE;
        assert!(
            (board - 4..=board + 4).contains(&(right - left + 1))
                && (board - 4..=board + 4).contains(&(bottom - top + 1)),
            "{side}: the board is {}x{}; see {}",
            right - left + 1,
            bottom - top + 1,
            keep.display()
        );
        // a1 is dark, at the bottom left from White's side and the top
        // right from Black's; h1 is light. The board of 101 after
        // 4.Qxf7# has empty a3..h3: its squares alternate dark and light.
        let square = |column: u32, row: u32| {
            let size = (right - left + 1) / 8;
            at(left + column * size + 2, top + row * size + 2)
        };
        let (a3, h3) = match side {
            "white" => (square(0, 5), square(7, 5)),
            _ => (square(7, 2), square(0, 2)),
        };
        assert!(
            near(a3, DARK) && near(h3, LIGHT),
            "{side}: a3 {a3:?} h3 {h3:?}; see {}",
            keep.display()
        );
        // The text beside and below the board.
        let dark = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| (x > right || y > bottom) && at(x, y).iter().all(|&c| c < 90))
            .count();
        assert!(dark > 1000, "{side}: no text; see {}", keep.display());
    }

    let keep = out.join("event.png");
    let (width, height, pixels, channels) =
        screenshot(&format!("http://{site}/events/spring"), &keep);
    let dark = (0..(width * height) as usize)
        .filter(|i| {
            pixels[i * channels..i * channels + 3]
                .iter()
                .all(|&c| c < 90)
        })
        .count();
    assert!(
        dark > 5000,
        "the event page shows little text ({dark} dark pixels); see {}",
        keep.display()
    );
}

#[test]
fn a_flood_of_connections_waits_for_a_free_slot() {
    let h = Harness::new();
    let site = start_in_process(&h);
    // From as many loopback addresses as it takes, each within its share.
    let idle: Vec<TcpStream> = (0..pbem::web::MAX_CONNECTIONS)
        .map(|n| {
            let from = std::net::Ipv4Addr::new(127, 0, 1, (n / pbem::web::PER_ADDRESS) as u8);
            crate::slow::connect_from(from, site)
        })
        .collect();
    // Every slot is taken: the next request waits in the backlog.
    let mut waiting = crate::slow::connect_from(std::net::Ipv4Addr::new(127, 0, 2, 1), site);
    waiting
        .set_read_timeout(Some(Duration::from_millis(500)))
        .expect("timeout");
    write!(
        waiting,
        "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .expect("request written");
    let mut answer = Vec::new();
    assert!(
        waiting.read_to_end(&mut answer).is_err() && answer.is_empty(),
        "answered while every slot was taken: {}",
        String::from_utf8_lossy(&answer)
    );
    // A slot freed, the request waiting is served.
    drop(idle);
    waiting
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    waiting.read_to_end(&mut answer).expect("the answer");
    assert!(
        String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
}

#[test]
fn the_rules_pages_show_the_rules_emphasis_and_code_as_html() {
    let h = Harness::new();
    let site = pbem::web::Site::new(&h.config, TimeSource::Fixed(h.now));
    let page = pbem::web::pages::variant(&site, pbem::rules::Variant::Chess2)
        .expect("the rules of chess2")
        .body;
    for shown in ["<em>move</em>", "<em>turn</em>", "<code>doublemove</code>"] {
        assert!(page.contains(shown), "{shown}\n{page}");
    }
    assert!(!page.contains("*move*"), "{page}");
    assert!(!page.contains('`'), "{page}");
}

#[test]
fn a_players_ratings_and_rated_games_are_tables_with_links() {
    let (h, _) = played();
    let site = pbem::web::Site::new(&h.config, TimeSource::Fixed(h.now));
    let page = |userid| {
        pbem::web::pages::player(&site, &h.database(), userid, 1)
            .expect("a player page")
            .body
    };
    let alice = page("alice");
    for shown in [
        "<caption>Ratings of alice</caption>",
        r#"<th scope="row"><a href="/ratings/chess">Chess</a></th>"#,
        r#"<td><a href="/boards/101">101</a></td><td>Chess</td><td>won</td><td><a href="/players/bob">bob</a></td>"#,
    ] {
        assert!(alice.contains(shown), "{shown}\n{alice}");
    }
    assert!(!alice.contains("<pre>"), "{alice}");
    // mallory's game was never accepted: no rating, no rated game.
    let mallory = page("mallory");
    assert!(mallory.contains("No rated games yet."), "{mallory}");
    assert!(!mallory.contains("Last rated games"), "{mallory}");
}
