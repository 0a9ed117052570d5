//! Starting many games at once (issue 28): at an event's start and at each
//! new round, every entrant gets one mail listing all their new boards
//! (board, round, colour, opponent, who moves first, the `move` line), then
//! the board mails of the boards where they are to move only; an entrant
//! who chose the daily digest gets the list and, instead of board mails,
//! the digest. Through the real Maildir and outbox.
//!
//! The count: a 30-player double round robin (870 games) sent 1,741 mails
//! at its start before this (a board mail to each player of each game and
//! the director's notice; measured on the code before the change with the
//! per-player ceiling raised, since 1,741 is over the default 1,000 an
//! hour, which took the start back whole). Now it sends 901: 30 lists, 870
//! board mails (White's) and the director's notice, under the ceiling.

use std::collections::BTreeSet;

use pbem_testkit::{Game, Harness, Sent, address, games_in, to};
use time::Duration;

const TD: &str = "td@example.org";

/// One board as an entrant's list names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Listed {
    board: u32,
    round: u32,
    colour: String,
    opponent: String,
    your_move: bool,
}

fn players(count: usize) -> Vec<String> {
    (1..=count).map(|n| format!("p{n:02}")).collect()
}

/// Signs up the director and `players`, creates event `name` with
/// `options` and enters every player.
fn open_event(h: &mut Harness, players: &[String], name: &str, options: &str) {
    h.signup("td", TD);
    for p in players {
        h.signup(p, &address(p));
    }
    let created = h.send(
        TD,
        "new",
        &format!("tournament create td td-pw {name} chess {options}"),
    );
    assert!(created[0].subject.ends_with("created"), "{created:#?}");
    for p in players {
        let entered = h.send(
            &address(p),
            "enter",
            &format!("tournament enter {name} {p} {p}-pw"),
        );
        assert!(!entered[0].subject.contains("Error"), "{entered:#?}");
    }
}

/// The games of `round` (all rounds when `None`) in the director's notice
/// among `mails`.
fn pairings(mails: &[Sent], round: Option<u32>) -> Vec<Game> {
    let games: Vec<Game> = mails
        .iter()
        .filter(|m| m.to == TD)
        .flat_map(|mail| games_in(&mail.body))
        .filter(|game| round.is_none_or(|round| round == game.round))
        .collect();
    assert!(!games.is_empty(), "pairings in {mails:#?}");
    games
}

/// `player`'s one start list among `mails`.
fn list_of<'a>(mails: &'a [Sent], player: &str) -> &'a Sent {
    let lists: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.to == address(player) && m.subject.contains(": your new board"))
        .collect();
    assert_eq!(lists.len(), 1, "one list to {player}: {mails:#?}");
    lists[0]
}

/// The boards a list names, and that each comes with its `move` line.
fn listed(list: &Sent, player: &str) -> Vec<Listed> {
    let lines: Vec<&str> = list.body.lines().collect();
    let mut boards = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        // "  Board 101, round 1: White against p02, your move."
        let Some(rest) = line.strip_prefix("  Board ") else {
            continue;
        };
        let (board, rest) = rest.split_once(", round ").expect("round");
        let (round, rest) = rest.split_once(": ").expect("colour");
        let (colour, rest) = rest.split_once(" against ").expect("opponent");
        let (opponent, who) = rest.split_once(", ").expect("who moves");
        let your_move = match who {
            "your move." => true,
            other => {
                assert_eq!(other, format!("{opponent} moves first."));
                false
            }
        };
        assert_eq!(
            lines.get(i + 1).map(|l| l.trim()),
            Some(format!("move {board} {player} <password> <turn>").as_str()),
            "{}",
            list.body
        );
        boards.push(Listed {
            board: board.parse().expect("board"),
            round: round.parse().expect("round"),
            colour: colour.to_string(),
            opponent: opponent.to_string(),
            your_move,
        });
    }
    boards
}

/// What `player`'s list should name: their games among `games`.
fn expected(games: &[Game], player: &str) -> Vec<Listed> {
    let mut boards: Vec<Listed> = games
        .iter()
        .filter(|g| g.white == player || g.black == player)
        .map(|g| {
            let white = g.white == player;
            Listed {
                board: g.board,
                round: g.round,
                colour: if white { "White" } else { "Black" }.to_string(),
                opponent: if white { &g.black } else { &g.white }.clone(),
                your_move: white,
            }
        })
        .collect();
    boards.sort();
    boards
}

/// The new-board mails to `player` among `mails`, by board number.
fn board_mails_to(mails: &[Sent], player: &str) -> BTreeSet<u32> {
    mails
        .iter()
        .filter(|m| m.to == address(player) && m.subject.starts_with("New Chess Board "))
        .map(|m| {
            m.subject["New Chess Board ".len()..]
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
                .expect("a board number")
        })
        .collect()
}

/// Every entrant's list names exactly their games of `games`, and they
/// have the board mails of the games where they have White, and no other.
fn check_start(mails: &[Sent], games: &[Game], players: &[String]) {
    for p in players {
        let mut named = listed(list_of(mails, p), p);
        named.sort();
        assert_eq!(named, expected(games, p), "{p}'s list");
        let white: BTreeSet<u32> = games
            .iter()
            .filter(|g| &g.white == p)
            .map(|g| g.board)
            .collect();
        assert_eq!(board_mails_to(mails, p), white, "{p}'s board mails");
    }
}

#[test]
fn a_thirty_player_double_round_robin_starts_with_901_mails_instead_of_1741() {
    let mut h = Harness::new();
    let players = players(30);
    open_event(&mut h, &players, "big", "--double");
    let started = h.send(TD, "start", "tournament start big td td-pw");
    let games = pairings(&started, None);
    assert_eq!(games.len(), 870, "30 * 29 games");
    assert_eq!(
        started.len(),
        901,
        "30 lists, 870 board mails (one per game, to White) and the director's notice"
    );
    assert_eq!(started.iter().filter(|m| m.to == TD).count(), 1);
    check_start(&started, &games, &players);
    for p in &players {
        assert_eq!(
            started.iter().filter(|m| m.to == address(p)).count(),
            30,
            "{p}: the list and 29 board mails"
        );
    }
}

#[test]
fn each_list_names_every_board_of_its_entrant_with_colour_opponent_and_move_line() {
    let mut h = Harness::new();
    // Five players: each sits out a round, and plays 4 games.
    let players = players(5);
    open_event(&mut h, &players, "five", "");
    let started = h.send(TD, "start", "tournament start five td td-pw");
    let games = pairings(&started, None);
    assert_eq!(games.len(), 10);
    check_start(&started, &games, &players);
    let list = list_of(&started, "p01");
    assert_eq!(list.subject, "pbem tournament five: your new boards");
    let body = list.body.replace('\n', " ");
    assert!(
        body.contains("\"five\" has started: a round robin, all its games at once."),
        "{}",
        list.body
    );
    assert!(body.contains("p01, your 4 new boards:"), "{}", list.body);
    assert!(
        body.contains("Reply to it with just your turn to play"),
        "{}",
        list.body
    );
    assert!(
        body.contains("to pbem@localhost at any time"),
        "{}",
        list.body
    );
    // A reply to the list speaks for its entrant (the player's token).
    assert!(
        list.reply_to
            .as_deref()
            .is_some_and(|r| r.starts_with("pbem+")),
        "{list:#?}"
    );
    // The director's notice says what the players got.
    let notice = to(&started, TD);
    assert!(
        notice
            .body
            .replace('\n', " ")
            .contains("Each player has one mail listing their boards"),
        "{}",
        notice.body
    );
}

#[test]
fn the_player_to_move_gets_the_board_mail_and_the_other_gets_it_with_the_first_move() {
    let mut h = Harness::new();
    let players = players(3);
    open_event(&mut h, &players, "three", "--double");
    let started = h.send(TD, "start", "tournament start three td td-pw");
    let games = pairings(&started, None);
    check_start(&started, &games, &players);
    let game = games.iter().find(|g| g.round == 1).expect("a round 1 game");
    let whites_mail = started
        .iter()
        .find(|m| {
            m.to == address(&game.white)
                && m.subject
                    .starts_with(&format!("New Chess Board {} ", game.board))
        })
        .expect("White's board mail")
        .clone();
    assert!(
        !started.iter().any(|m| m.to == address(&game.black)
            && m.subject.contains(&format!("Board {} ", game.board))),
        "Black has no board mail at the start: {started:#?}"
    );
    // White plays by replying to the board mail; Black gets the board.
    let moved = h.reply(&whites_mail, &address(&game.white), "e4");
    let blacks_mail = moved
        .iter()
        .find(|m| {
            m.to == address(&game.black) && m.subject.contains(&format!("Board {} ", game.board))
        })
        .unwrap_or_else(|| panic!("Black's board mail among {moved:#?}"))
        .clone();
    assert!(
        blacks_mail.body.contains("Last turn:") && blacks_mail.body.contains("e4"),
        "{}",
        blacks_mail.body
    );
    let answered = h.reply(&blacks_mail, &address(&game.black), "e5");
    assert!(
        !answered.iter().any(|m| m.subject.ends_with("Error")),
        "{answered:#?}"
    );
}

#[test]
fn a_digest_player_gets_the_list_in_digest_form_then_the_digest_and_no_board_mails() {
    let mut h = Harness::new();
    let players = players(4);
    h.signup("td", TD);
    for p in &players {
        h.signup(p, &address(p));
    }
    let set = h.send(&address("p01"), "digest", "set p01 p01-pw mail digest");
    assert!(!set[0].subject.contains("Error"), "{set:#?}");
    h.send(TD, "new", "tournament create td td-pw four chess --double");
    for p in &players {
        h.send(
            &address(p),
            "enter",
            &format!("tournament enter four {p} {p}-pw"),
        );
    }
    let started = h.send(TD, "start", "tournament start four td td-pw");
    let games = pairings(&started, None);
    let list = list_of(&started, "p01");
    let mut named = listed(list, "p01");
    named.sort();
    assert_eq!(named, expected(&games, "p01"));
    let body = list.body.replace('\n', " ");
    assert!(body.contains("You chose the daily digest"), "{}", list.body);
    assert!(
        !body.contains("the board's own mail follows this one"),
        "{}",
        list.body
    );
    assert!(
        board_mails_to(&started, "p01").is_empty(),
        "no board mail to the digest player: {started:#?}"
    );
    assert_eq!(
        started.iter().filter(|m| m.to == address("p01")).count(),
        1,
        "the list alone"
    );
    // The others are served as usual.
    check_start(&started, &games, &players[1..]);
    // The digest lists each board where p01 has White (to move).
    let digests = h.digest(h.now + Duration::days(1));
    let digest = to(&digests, &address("p01"));
    for game in &games {
        let named = digest.body.contains(&format!("Board {} (", game.board));
        assert_eq!(
            named,
            game.white == "p01",
            "board {}: {}",
            game.board,
            digest.body
        );
    }
}

#[test]
fn a_swiss_round_starts_with_a_list_to_each_player_and_the_board_mail_to_white() {
    let mut h = Harness::new();
    let players = players(4);
    open_event(&mut h, &players, "sw", "--swiss=2");
    let started = h.send(TD, "start", "tournament start sw td td-pw");
    let round1 = pairings(&started, Some(1));
    assert_eq!(round1.len(), 2);
    check_start(&started, &round1, &players);
    let list = list_of(&started, "p01");
    assert_eq!(list.subject, "pbem tournament sw: your new board");
    assert!(
        list.body
            .replace('\n', " ")
            .contains("\"sw\" has started: a Swiss of 2 rounds. Round 1 is paired."),
        "{}",
        list.body
    );
    // Round 1 ends (White resigns one game, the director rules on the
    // other, so that no player's own answer holds the mails of round 2):
    // round 2 starts the same way.
    let resigned = h.send(
        &address(&round1[0].white),
        "resign",
        &format!(
            "resign {} {} {}-pw",
            round1[0].board, round1[0].white, round1[0].white
        ),
    );
    assert!(
        !resigned.iter().any(|m| m.subject.ends_with("Error")),
        "{resigned:#?}"
    );
    let mails = h.send(
        TD,
        "ruling",
        &format!(
            "tournament adjudicate sw td td-pw {} 1-0 White stopped answering",
            round1[1].board
        ),
    );
    let round2 = pairings(&mails, Some(2));
    assert_eq!(round2.len(), 2);
    check_start(&mails, &round2, &players);
    let list = list_of(&mails, "p01");
    assert!(
        list.body
            .replace('\n', " ")
            .contains("Round 2 of 2 of \"sw\" is paired."),
        "{}",
        list.body
    );
}

/// The director's answer to a Swiss's `tournament start` holds round 1's
/// pairings, and says so: no other mail brings them.
#[test]
fn the_swiss_start_answer_says_it_holds_the_pairings() {
    let mut h = Harness::new();
    let players = players(4);
    open_event(&mut h, &players, "sw", "--swiss=2");
    let started = h.send(TD, "start", "tournament start sw td td-pw");
    let to_td: Vec<&Sent> = started.iter().filter(|m| m.to == TD).collect();
    assert_eq!(to_td.len(), 1, "one mail to the director: {to_td:#?}");
    let words = pbem_testkit::flat(&to_td[0].body);
    assert!(!words.contains("notice of their own"), "{words}");
    assert!(
        words.contains("The pairings of round 1 are below;"),
        "{words}"
    );
    assert!(
        words.contains("Round 1 of 2 of \"sw\" is paired (FIDE Dutch system):"),
        "{words}"
    );
    for game in pairings(&started, Some(1)) {
        assert!(
            words.contains(&format!("{}", game.board)),
            "board {}: {words}",
            game.board
        );
    }
}

/// Started by password from another address, the answer says where the
/// pairings went: to the director's own address, in a notice of their own.
#[test]
fn the_swiss_start_answer_elsewhere_says_where_the_pairings_went() {
    let mut h = Harness::new();
    let players = players(4);
    open_event(&mut h, &players, "sw", "--swiss=2");
    let elsewhere = "td@elsewhere.example";
    let started = h.send(elsewhere, "start", "tournament start sw td td-pw");
    let answer = to(&started, elsewhere);
    let words = pbem_testkit::flat(&answer.body);
    assert!(
        words.contains(&format!(
            "The pairings of round 1 go to {TD} in a notice of their own;"
        )),
        "{words}"
    );
    let notice = to(&started, TD);
    assert!(
        pbem_testkit::flat(&notice.body)
            .contains("Round 1 of 2 of \"sw\" is paired (FIDE Dutch system):"),
        "{}",
        notice.body
    );
}
