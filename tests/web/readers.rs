//! One reader policy (issue 35): what each reader of a board sees, by mail
//! and on the web alike. A private game and a challenge nobody accepted
//! are their players' only, out of every list; chat and comments reach
//! the players and the board's subscribers, never a stranger's one-off
//! `show`, `history` or `pgn`; an event's `--public-delay` holds by mail
//! for everyone but the players and a director who does not play.
//!
//! Every test that checks something is absent shows in the same test that
//! it is there for a reader entitled to it, so each can fail.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, to};

use super::privacy::{a_public_and_a_private_mate, challenged_board, play};
use super::site::{get, start_in_process};

const MALLORY: &str = "mallory@example.org";

/// The one mail of `mails`, its body.
fn body_of(mails: &[Sent]) -> &str {
    assert_eq!(mails.len(), 1, "{mails:#?}");
    &mails[0].body
}

/// Alice and Bob with a public game played to its end (board 101, rated),
/// a `--private` game played to its end (rated) and one running, and a
/// challenge from Alice to Carol that Carol never accepted; Mallory
/// signed up. Returns (private finished, private running, challenge).
fn alice_with_secrets(h: &mut Harness) -> (u32, u32, u32) {
    let finished = a_public_and_a_private_mate(h);
    let running = challenged_board(&h.send(
        ALICE,
        "private",
        "chess challenge alice alice-pw bob --white --private",
    ));
    h.send(BOB, "ok", &format!("accept {running} bob bob-pw"));
    play(h, running, &[("alice", "d4")]);
    h.signup("carol", &address("carol"));
    let challenge =
        challenged_board(&h.send(ALICE, "challenge", "chess challenge alice alice-pw carol"));
    h.signup("mallory", MALLORY);
    (finished, running, challenge)
}

#[test]
fn games_all_lists_private_boards_and_challenges_to_their_players_only() {
    let mut h = Harness::new();
    let (finished, running, challenge) = alice_with_secrets(&mut h);
    let board = |n: u32| format!("Board {n} ");
    let strangers = h.send(MALLORY, "games", "games alice all");
    let strangers = body_of(&strangers);
    assert!(strangers.contains(&board(101)), "{strangers}");
    for secret in [finished, running, challenge] {
        assert!(!strangers.contains(&board(secret)), "{secret}: {strangers}");
    }
    // A player of one of them sees that one and no other.
    let carols = h.send(&address("carol"), "games", "games alice all");
    let carols = body_of(&carols);
    assert!(carols.contains(&board(challenge)), "{carols}");
    assert!(!carols.contains(&board(finished)), "{carols}");
    // Alice sees her own.
    let own = h.send(ALICE, "games", "games alice all");
    let own = body_of(&own);
    for shown in [101, finished, running, challenge] {
        assert!(own.contains(&board(shown)), "{shown}: {own}");
    }
}

#[test]
fn rating_lists_a_private_game_to_its_players_only() {
    let mut h = Harness::new();
    let (finished, _, _) = alice_with_secrets(&mut h);
    // A row of the rated games: date, board, variant.
    let row = |n: u32| format!(" {n}  Chess");
    let strangers = h.send(MALLORY, "rating", "rating alice");
    let strangers = body_of(&strangers);
    assert!(strangers.contains(&row(101)), "{strangers}");
    assert!(!strangers.contains(&row(finished)), "{strangers}");
    let own = h.send(BOB, "rating", "rating alice");
    assert!(body_of(&own).contains(&row(finished)), "{own:#?}");
    // The web's player page as the stranger's mail.
    let site = start_in_process(&h);
    let page = get(site, "/players/alice").body;
    // On the web, a row of the rated games' table: date, board, variant.
    let row = |n: u32| format!(r#"</td><td><a href="/boards/{n}">{n}</a></td><td>Chess</td>"#);
    assert!(
        page.contains(&row(101)) && !page.contains(&row(finished)),
        "{page}"
    );
}

/// The Active column of `userid`'s row in a standings table.
fn active_of(table: &str, userid: &str) -> u32 {
    table
        .lines()
        .find(|line| line.split_whitespace().nth(1) == Some(userid))
        .and_then(|line| line.split_whitespace().last())
        .and_then(|active| active.parse().ok())
        .unwrap_or_else(|| panic!("{userid}'s row in {table}"))
}

/// The Active column (the last cell) of `userid`'s row in the web's
/// standings table.
fn active_on_page(page: &str, userid: &str) -> u32 {
    page.lines()
        .find(|line| line.contains(&format!(">{userid}</a></th>")))
        .and_then(|line| line.rsplit("<td>").next())
        .and_then(|cell| cell.split('<').next())
        .and_then(|active| active.parse().ok())
        .unwrap_or_else(|| panic!("{userid}'s row in {page}"))
}

#[test]
fn the_active_column_counts_no_private_game_or_challenge() {
    let mut h = Harness::new();
    alice_with_secrets(&mut h);
    let standings = h.send(MALLORY, "ratings", "ratings chess");
    assert_eq!(active_of(body_of(&standings), "alice"), 0);
    let site = start_in_process(&h);
    let page = get(site, "/ratings/chess").body;
    assert_eq!(active_on_page(&page, "alice"), 0, "{page}");
    // A public game counts: the column can move.
    let public = challenged_board(&h.send(
        ALICE,
        "public",
        "chess challenge alice alice-pw bob --white",
    ));
    h.send(BOB, "ok", &format!("accept {public} bob bob-pw"));
    let standings = h.send(MALLORY, "ratings", "ratings chess");
    assert_eq!(active_of(body_of(&standings), "alice"), 1);
    let page = get(site, "/ratings/chess").body;
    assert_eq!(active_on_page(&page, "alice"), 1, "{page}");
}

#[test]
fn metrics_count_no_private_game_or_challenge() {
    let mut h = Harness::new();
    alice_with_secrets(&mut h);
    let site = start_in_process(&h);
    let metrics = get(site, "/metrics").body;
    // Board 101 finished; the private games and the challenge are no one's
    // business.
    assert!(
        metrics.contains("pbem_boards{state=\"running\"} 0\n")
            && metrics.contains("pbem_boards{state=\"finished\"} 1\n"),
        "{metrics}"
    );
    let public = challenged_board(&h.send(
        ALICE,
        "public",
        "chess challenge alice alice-pw bob --white",
    ));
    h.send(BOB, "ok", &format!("accept {public} bob bob-pw"));
    let metrics = get(site, "/metrics").body;
    assert!(
        metrics.contains("pbem_boards{state=\"running\"} 1\n"),
        "{metrics}"
    );
}

#[test]
fn a_strangers_show_and_history_have_no_chat_or_comments() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.send(BOB, "ok", "accept 101 bob bob-pw");
    h.send(
        ALICE,
        "turn",
        "move 101 alice alice-pw e4\nSECRET-COMMENT good luck",
    );
    h.send(BOB, "chat", "chat 101 bob bob-pw SECRET-CHAT-LINE");
    h.signup("mallory", MALLORY);
    for command in ["show 101", "history 101", "pgn 101", "show 101 compact"] {
        let asked = h.send(MALLORY, "peek", command);
        let asked = body_of(&asked);
        assert!(asked.contains("e4"), "{command}: {asked}");
        assert!(
            !asked.contains("SECRET-COMMENT") && !asked.contains("SECRET-CHAT-LINE"),
            "{command}: {asked}"
        );
    }
    // The players read both.
    let own = h.send(ALICE, "show", "show 101");
    let own = body_of(&own);
    assert!(
        own.contains("SECRET-CHAT-LINE") && own.contains("SECRET-COMMENT"),
        "{own}"
    );
    // A subscriber reads the chat in the board's mails, and in `show`.
    h.send(MALLORY, "follow", "subscribe 101 mallory mallory-pw");
    let chat = h.send(BOB, "chat", "chat 101 bob bob-pw SECOND-CHAT-LINE");
    assert!(
        to(&chat, MALLORY).body.contains("SECOND-CHAT-LINE"),
        "{chat:#?}"
    );
    let shown = h.send(MALLORY, "show", "show 101");
    assert!(body_of(&shown).contains("SECOND-CHAT-LINE"), "{shown:#?}");
}

#[test]
fn an_unaccepted_challenge_reads_and_subscribes_for_its_players_only() {
    let mut h = Harness::new();
    h.alice_and_bob_on("chess");
    h.send(ALICE, "turn", "move 101 alice alice-pw e4");
    h.signup("mallory", MALLORY);
    for command in [
        "show 101",
        "history 101",
        "pgn 101",
        "subscribe 101 mallory mallory-pw",
    ] {
        let asked = h.send(MALLORY, "peek", command);
        let asked = body_of(&asked);
        assert!(
            asked.contains("there is no board 101") && !asked.contains("e4"),
            "{command}: {asked}"
        );
    }
    let own = h.send(BOB, "show", "show 101");
    assert!(body_of(&own).contains("1.e4"), "{own:#?}");
    // Accepted, it is a game like any other.
    h.send(BOB, "ok", "accept 101 bob bob-pw");
    let shown = h.send(MALLORY, "peek", "show 101");
    assert!(body_of(&shown).contains("1.e4"), "{shown:#?}");
    let subscribed = h.send(MALLORY, "follow", "subscribe 101 mallory mallory-pw");
    assert!(
        body_of(&subscribed).contains("now receives"),
        "{subscribed:#?}"
    );
}

/// A Swiss of four, one round, `--public-delay=2`, directed by td (who
/// does not play): the round's games (board, white, black).
fn delayed_spring(h: &mut Harness) -> Vec<(u32, String, String)> {
    let players = ["ann", "ben", "cal", "dan"];
    h.signup("td", &address("td"));
    for player in players {
        h.signup(player, &address(player));
    }
    h.send(
        &address("td"),
        "new event",
        "tournament create td td-pw spring chess --swiss=1 --public-delay=2",
    );
    for player in players {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter spring {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "start", "tournament start spring td td-pw");
    let pairings: Vec<_> = to(&started, &address("td"))
        .body
        .lines()
        .filter_map(
            |line| match line.split_whitespace().collect::<Vec<_>>()[..] {
                ["Round", "1", "board", board, white, "-", black] => Some((
                    board.parse::<u32>().expect("board"),
                    white.to_string(),
                    black.to_string(),
                )),
                _ => None,
            },
        )
        .collect();
    assert_eq!(pairings.len(), 2, "{started:#?}");
    pairings
}

#[test]
fn the_public_delay_holds_by_mail_for_everyone_but_players_and_director() {
    let mut h = Harness::new();
    let games = delayed_spring(&mut h);
    let (board, white, black) = games[0].clone();
    let (_, other, _) = games[1].clone();
    play(
        &mut h,
        board,
        &[
            (&white, "d4"),
            (&black, "d5"),
            (&white, "c4"),
            (&black, "dxc4"),
        ],
    );
    h.signup("mallory", MALLORY);
    // Two turns behind, the board is 1.d4 d5 with White to move: the
    // summary of White's moves names c4, but no one can take on c4 there.
    let hidden = |text: &str| text.contains("dxc4");
    // A stranger, and a player of another board of the event: two turns
    // behind.
    for who in [MALLORY.to_string(), address(&other)] {
        for command in [
            format!("show {board}"),
            format!("history {board}"),
            format!("pgn {board}"),
            "tournament pgn spring".to_string(),
        ] {
            let asked = h.send(&who, "peek", &command);
            let asked = body_of(&asked);
            assert!(
                asked.contains("d4") && !hidden(asked),
                "{who} {command}: {asked}"
            );
        }
    }
    // The players, and the director who does not play: all of it.
    for who in [address(&white), address(&black), address("td")] {
        for command in [format!("pgn {board}"), format!("history {board}")] {
            let asked = h.send(&who, "peek", &command);
            assert!(hidden(body_of(&asked)), "{who} {command}: {asked:#?}");
        }
    }
    let directors = h.send(&address("td"), "pgn", "tournament pgn spring");
    assert!(hidden(body_of(&directors)), "{directors:#?}");
    // Ended, the game is shown in full to anyone.
    h.send(
        &address(&black),
        "resign",
        &format!("resign {board} {black} {black}-pw"),
    );
    let asked = h.send(MALLORY, "peek", &format!("pgn {board}"));
    assert!(body_of(&asked).contains("2.c4 dxc4"), "{asked:#?}");
}

#[test]
fn a_subscriber_of_a_delayed_game_gets_its_mails_as_the_delayed_view_moves() {
    let mut h = Harness::new();
    let games = delayed_spring(&mut h);
    let (board, white, black) = games[0].clone();
    h.signup("mallory", MALLORY);
    let subscribed = h.send(
        MALLORY,
        "follow",
        &format!("subscribe {board} mallory mallory-pw"),
    );
    assert!(
        body_of(&subscribed).contains("now receives"),
        "{subscribed:#?}"
    );
    let mut mails_to_mallory = Vec::new();
    for (who, turn) in [(&white, "d4"), (&black, "Nf6"), (&white, "c4")] {
        let mails = h.send(
            &address(who),
            "turn",
            &format!("move {board} {who} {who}-pw {turn}"),
        );
        // The players have every turn at once.
        assert!(
            mails.iter().any(|m| m.body.contains(turn)),
            "{turn}: {mails:#?}"
        );
        mails_to_mallory.push(
            mails
                .into_iter()
                .filter(|m| m.to == MALLORY)
                .collect::<Vec<_>>(),
        );
    }
    // Two turns behind: d4 and Nf6 show her nothing new; c4 shows her
    // 1.d4 (the summary of Black's moves may name Nf6, the move list not).
    assert!(mails_to_mallory[0].is_empty(), "{mails_to_mallory:#?}");
    assert!(mails_to_mallory[1].is_empty(), "{mails_to_mallory:#?}");
    let third = body_of(&mails_to_mallory[2]);
    assert!(
        third.contains("1.d4") && !third.contains("1.d4 Nf6") && !third.contains("2.c4"),
        "{third}"
    );
    let players = h.send(&address(&black), "show", &format!("show {board}"));
    assert!(body_of(&players).contains("1.d4 Nf6 2.c4"), "{players:#?}");
}

#[test]
fn the_front_page_orders_delayed_games_by_what_it_shows() {
    let mut h = Harness::new();
    let games = delayed_spring(&mut h);
    let (first, w1, b1) = games[0].clone();
    let (second, w2, b2) = games[1].clone();
    // The first game shows 1.d4 (three turns, two held back); the second,
    // played later, shows no turn yet.
    play(&mut h, first, &[(&w1, "d4"), (&b1, "d5"), (&w1, "c4")]);
    play(&mut h, second, &[(&w2, "e4"), (&b2, "e5")]);
    let site = start_in_process(&h);
    let index = get(site, "/").body;
    let at = |n: u32| {
        index
            .find(&format!("/boards/{n}\""))
            .unwrap_or_else(|| panic!("board {n} on {index}"))
    };
    assert!(at(first) < at(second), "{index}");
}

/// `?turn=K` steps through what the public sees of a delayed game and no
/// further: the turn held back is a 404, as a page of no such turn.
#[test]
fn a_delayed_games_turns_can_be_stepped_through_only_as_far_as_shown() {
    let mut h = Harness::new();
    let games = delayed_spring(&mut h);
    let (first, w1, b1) = games[0].clone();
    // Three turns played, two held back: the public sees one.
    play(&mut h, first, &[(&w1, "d4"), (&b1, "d5"), (&w1, "c4")]);
    let site = start_in_process(&h);
    let start = get(site, &format!("/boards/{first}?turn=0"));
    assert_eq!(start.status, 200, "{}", start.body);
    assert!(!start.body.contains(r#"class="last""#), "{}", start.body);
    let shown = get(site, &format!("/boards/{first}?turn=1"));
    assert_eq!(shown.status, 200, "{}", shown.body);
    assert_eq!(shown.body.matches(r#"class="last""#).count(), 2);
    for held in [2, 3, 4] {
        let page = get(site, &format!("/boards/{first}?turn={held}"));
        assert_eq!(page.status, 404, "turn {held}: {}", page.body);
    }
    // Its list line says whose move it is in the position it shows.
    let index = get(site, "/").body;
    assert!(index.contains(&format!("{b1} to move")), "{index}");
}
