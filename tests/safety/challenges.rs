//! Issue 24, finding 4: ratings could be farmed and forced. Through the
//! real Maildir, SQLite file and outbox: a challenge waits for the
//! challenged player (`accept`, their first turn, or `decline`), no clock
//! runs against them until then, and an unanswered challenge lapses with
//! no result and no rating; a game in which either side has not made two
//! turns is never rated (an event still scores it); challenges and games
//! in progress are bounded, the same challenge written again in one mail
//! makes one board, and a stranger's challenge brings its player one mail
//! per position at most, never a chat.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, days, flat, games_in, to};
use time::Duration;

const CAROL: &str = "carol@example.org";

/// The board number a board mail's Subject names (`New Chess Board 101 alice`).
fn board_of(mail: &Sent) -> u32 {
    let words: Vec<&str> = mail.subject.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "Board")
        .unwrap_or_else(|| panic!("a board mail: {}", mail.subject));
    words[at + 1].parse().expect("a board number")
}

fn mails_to<'a>(mails: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    mails.iter().filter(|m| m.to == address).collect()
}

fn refused(mails: &[Sent], address: &str, why: &str) {
    let mail = to(mails, address);
    assert!(mail.subject.ends_with("Error"), "{mail:#?}");
    assert!(flat(&mail.body).contains(why), "{why:?} in:\n{}", mail.body);
}

/// `challenger` challenges `opponent` (whose address is `to`) with
/// `options`; returns the board and the opponent's board mail.
fn challenge(h: &mut Harness, challenger: &str, opponent: &str, options: &str) -> (u32, Sent) {
    let mails = h.send(
        &address(challenger),
        "game",
        &format!("chess challenge {challenger} {challenger}-pw {opponent} {options}"),
    );
    assert_eq!(mails.len(), 2, "{mails:#?}");
    let theirs = to(&mails, &address(opponent)).clone();
    (board_of(&theirs), theirs)
}

#[test]
fn an_unanswered_challenge_runs_no_clock_and_lapses_with_no_result_and_no_rating() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("carol", CAROL);
    let start = h.now;
    let (board, new) = challenge(&mut h, "alice", "carol", "--white");
    assert!(
        new.body.contains("The challenge waits for carol"),
        "{}",
        new.body
    );
    assert!(!new.body.contains("not to lose on time"), "{}", new.body);
    // The challenger plays White's first turn at once: the challenged
    // player sees the new position once.
    let moved = h.send(ALICE, "m", &format!("move {board} alice alice-pw e4"));
    assert_eq!(mails_to(&moved, CAROL).len(), 1, "{moved:#?}");
    // Chat, comments, offers and repeats never reach a player who has not
    // accepted: a chat is refused, a comment in a reply is never shown.
    let before = h.game_state();
    let mails = h.send(
        ALICE,
        "spam",
        &format!("chat {board} alice alice-pw Cheap pills at example.com"),
    );
    refused(&mails, ALICE, "chat reaches carol once carol has accepted");
    assert!(mails_to(&mails, CAROL).is_empty(), "{mails:#?}");
    assert_eq!(h.game_state(), before);
    let mails = h.send(ALICE, "offer", &format!("draw {board} alice alice-pw"));
    assert!(mails_to(&mails, CAROL).is_empty(), "{mails:#?}");
    assert_eq!(mails_to(&mails, ALICE).len(), 1, "{mails:#?}");
    let alices = to(&mails, ALICE).clone();
    let mails = h.reply(&alices, ALICE, "Cheap pills in a comment");
    assert!(mails_to(&mails, CAROL).is_empty(), "{mails:#?}");

    // No reminder and no loss on time against carol.
    for day in [8, 14, 20] {
        let mails = h.sweep(start + days(day));
        assert!(mails.is_empty(), "day {day}: {mails:#?}");
    }
    // After the board's forfeit days (21) the challenge lapses: both are
    // told once, with no result and no rating.
    let lapsed = h.sweep(start + days(21) + Duration::minutes(5));
    assert_eq!(lapsed.len(), 2, "{lapsed:#?}");
    for address in [ALICE, CAROL] {
        let mail = to(&lapsed, address);
        assert_eq!(mail.subject, format!("Chess Board {board} -"));
        assert!(
            flat(&mail.body)
                .contains("the challenge lapsed: carol did not answer it within 21 days"),
            "{}",
            mail.body
        );
        assert!(!mail.body.contains("->"), "no rating line:\n{}", mail.body);
    }
    assert!(h.sweep(start + days(40)).is_empty(), "told once");
    assert_eq!(h.count("SELECT COUNT(*) FROM ratings"), 0);
    assert_eq!(h.count("SELECT COUNT(*) FROM rated_games"), 0);
    assert!(h.rebuild_ratings().contains("replayed 0 rated games"));
    // Chat on the lapsed board does not reach carol either, and no mail
    // to her ever showed the comment.
    let mails = h.send(ALICE, "c", &format!("chat {board} alice alice-pw hello?"));
    assert!(mails_to(&mails, CAROL).is_empty(), "{mails:#?}");
    assert!(
        h.all_mails()
            .iter()
            .filter(|m| m.to == CAROL)
            .all(|m| !m.body.contains("pills")),
        "{:#?}",
        h.all_mails()
    );
    let carols: Vec<Sent> = h
        .all_mails()
        .into_iter()
        .filter(|m| m.to == CAROL && m.subject.contains("Board"))
        .collect();
    assert_eq!(
        carols.len(),
        3,
        "the challenge, the first turn, the lapse: {carols:#?}"
    );
}

#[test]
fn accept_in_a_reply_to_the_challenge_starts_the_clock() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let (board, new) = challenge(&mut h, "alice", "bob", "--white");
    h.send(ALICE, "m", &format!("move {board} alice alice-pw e4"));
    // Weeks later, bob answers the challenge's own mail (the board has
    // moved on since: an answer to the challenge does not depend on it).
    h.now += days(10);
    let accepted = h.reply(&new, BOB, "accept");
    let accepted_at = h.now;
    assert_eq!(accepted.len(), 2, "{accepted:#?}");
    for address in [ALICE, BOB] {
        let mail = to(&accepted, address);
        assert!(
            mail.body.contains("bob accepted the challenge."),
            "{}",
            mail.body
        );
        assert!(!mail.body.contains("The challenge waits"), "{}", mail.body);
    }
    assert!(
        to(&accepted, BOB).body.contains("not to lose on time"),
        "the clock runs now:\n{}",
        to(&accepted, BOB).body
    );
    // The clock started at the acceptance, not at the challenge.
    assert!(h.sweep(accepted_at + days(6)).is_empty());
    let nag = h.sweep(accepted_at + days(8));
    assert_eq!(nag.len(), 1, "{nag:#?}");
    assert_eq!(nag[0].to, BOB);
    assert!(nag[0].subject.starts_with("Nag:"), "{}", nag[0].subject);
    // Accepted twice is no offer to accept.
    let again = h.send(BOB, "a", &format!("accept {board} bob bob-pw"));
    refused(&again, BOB, "no standing offer");
    // Accepted, the board lapses no more: it is lost on time instead.
    let lost = h.sweep(accepted_at + days(22));
    assert!(
        to(&lost, BOB).body.contains("lost on time: bob"),
        "{}",
        to(&lost, BOB).body
    );
}

#[test]
fn the_first_turn_or_accept_accepts_and_decline_refuses() {
    let mut h = Harness::new();
    for (userid, mail) in [("alice", ALICE), ("bob", BOB), ("carol", CAROL)] {
        h.signup(userid, mail);
    }
    // Bob plays White against alice's challenge: his first turn accepts.
    let (_, new) = challenge(&mut h, "alice", "bob", "--black");
    assert!(new.body.contains("The challenge waits for bob"));
    let played = h.reply(&new, BOB, "e4");
    assert_eq!(played.len(), 2, "{played:#?}");
    assert!(
        to(&played, ALICE)
            .body
            .contains("bob accepted the challenge."),
        "{}",
        to(&played, ALICE).body
    );
    assert!(
        to(&played, ALICE).body.contains("not to lose on time"),
        "{}",
        to(&played, ALICE).body
    );

    // `decline` refuses a challenge; any other action accepts it first
    // (a resignation at once is then an abort).
    let (resigned, _) = challenge(&mut h, "alice", "carol", "--white");
    let mails = h.send(CAROL, "x", &format!("resign {resigned} carol carol-pw"));
    let mail = to(&mails, ALICE);
    assert!(
        flat(&mail.body).contains("carol accepted the challenge."),
        "{}",
        mail.body
    );
    assert!(flat(&mail.body).contains("Not rated"), "{}", mail.body);
    let (second, _) = challenge(&mut h, "alice", "carol", "--white");
    // `decline` refuses it: no result, no rating, both told.
    let declined = h.send(CAROL, "no", &format!("decline {second} carol carol-pw"));
    assert_eq!(declined.len(), 2, "{declined:#?}");
    for address in [ALICE, CAROL] {
        let mail = to(&declined, address);
        assert_eq!(mail.subject, format!("Chess Board {second} -"));
        assert!(mail.body.contains("declined by carol"), "{}", mail.body);
    }
    // `accept` by password; the challenger's draw offer made before is no
    // offer carol accepted.
    let (third, _) = challenge(&mut h, "alice", "carol", "--white");
    h.send(ALICE, "d", &format!("draw {third} alice alice-pw"));
    let accepted = h.send(CAROL, "yes", &format!("accept {third} carol carol-pw"));
    let mail = to(&accepted, CAROL);
    assert!(
        mail.body.contains("carol accepted the challenge."),
        "{}",
        mail.body
    );
    assert_eq!(mail.subject, format!("Chess Board {third} alice"));
    // A stranger's `accept` accepts nothing.
    let mails = h.send(BOB, "a", &format!("accept {third} bob bob-pw"));
    refused(&mails, BOB, "bob does not play on board");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE challenged_id IS NOT NULL AND result IS NULL"),
        0
    );
}

/// Finding 4: five puppet accounts resigning at move 0 took alice from
/// 1500 to 1886. A game in which either side has not made two turns is
/// never rated, and its result mail says why.
#[test]
fn puppets_resigning_at_once_farm_no_rating() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    for n in 1..=5 {
        let puppet = format!("puppet{n}");
        h.signup(&puppet, &address(&puppet));
        // The puppet challenges alice and resigns at once; alice need not
        // even accept first (a resignation by the challenger is allowed).
        let (board, _) = challenge(&mut h, &puppet, "alice", "--black");
        let mails = h.send(
            &address(&puppet),
            "r",
            &format!("resign {board} {puppet} {puppet}-pw"),
        );
        let mail = to(&mails, ALICE);
        assert!(mail.subject.ends_with(" 1-0"), "{}", mail.subject);
        assert!(
            mail.body.contains(
                "Not rated: the game ended before each player had made 2 turns (an abort)."
            ),
            "{}",
            mail.body
        );
        assert!(!mail.body.contains("->"), "{}", mail.body);
    }
    // The same when alice accepted and the puppet resigned after a turn
    // each, or the two agreed a draw.
    let (board, _) = challenge(&mut h, "puppet1", "alice", "--black");
    h.send(ALICE, "m", &format!("move {board} alice alice-pw e4"));
    h.send(
        &address("puppet1"),
        "m",
        &format!("move {board} puppet1 puppet1-pw e5"),
    );
    let mails = h.send(
        &address("puppet1"),
        "r",
        &format!("resign {board} puppet1 puppet1-pw"),
    );
    assert!(
        to(&mails, ALICE).body.contains("Not rated"),
        "{}",
        to(&mails, ALICE).body
    );
    let (board, _) = challenge(&mut h, "puppet2", "alice", "--white");
    h.send(ALICE, "a", &format!("accept {board} alice alice-pw"));
    h.send(
        &address("puppet2"),
        "d",
        &format!("draw {board} puppet2 puppet2-pw"),
    );
    let mails = h.send(ALICE, "d", &format!("accept {board} alice alice-pw"));
    assert!(
        to(&mails, ALICE).subject.ends_with(" 1/2-1/2"),
        "{}",
        to(&mails, ALICE).subject
    );
    assert!(
        to(&mails, ALICE).body.contains("Not rated"),
        "{}",
        to(&mails, ALICE).body
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM ratings"), 0);
    assert_eq!(h.count("SELECT COUNT(*) FROM rated_games"), 0);
    let rating = h.send(ALICE, "r", "rating alice");
    assert!(
        to(&rating, ALICE).body.contains("No rated games yet"),
        "{}",
        to(&rating, ALICE).body
    );

    // Two turns each, then a resignation: rated as before.
    let (board, _) = challenge(&mut h, "puppet3", "alice", "--black");
    for (who, turn) in [
        ("alice", "e4"),
        ("puppet3", "e5"),
        ("alice", "Nf3"),
        ("puppet3", "Nc6"),
    ] {
        let mails = h.send(
            &address(who),
            "m",
            &format!("move {board} {who} {who}-pw {turn}"),
        );
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{mails:#?}"
        );
    }
    let mails = h.send(
        &address("puppet3"),
        "r",
        &format!("resign {board} puppet3 puppet3-pw"),
    );
    let body = &to(&mails, ALICE).body;
    assert!(body.contains("alice 1500 -> 1662 (+162)"), "{body}");
    assert!(!body.contains("Not rated"), "{body}");
    assert_eq!(h.count("SELECT COUNT(*) FROM rated_games"), 1);
    assert!(h.rebuild_ratings().contains("unchanged"));
}

/// Finding 4: 16 challenges carol never answered were lost on time and
/// rated. Now they lapse unrated; a game accepted and then abandoned
/// before two turns each is lost on time unrated.
#[test]
fn a_loss_on_time_before_two_turns_each_is_not_rated() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("carol", CAROL);
    let start = h.now;
    for _ in 0..3 {
        challenge(&mut h, "alice", "carol", "--white");
    }
    let (board, _) = challenge(&mut h, "carol", "alice", "--black");
    h.send(ALICE, "m", &format!("move {board} alice alice-pw e4"));
    h.send(CAROL, "m", &format!("move {board} carol carol-pw e5"));
    let moved = h.now;
    // Alice (to move) loses on time: not rated. The three unanswered
    // challenges lapse: no result.
    let mails = h.sweep(start.max(moved) + days(22));
    let lost: Vec<&Sent> = mails
        .iter()
        .filter(|m| m.subject == format!("Chess Board {board} 0-1"))
        .collect();
    assert_eq!(lost.len(), 2, "{mails:#?}");
    for mail in lost {
        assert!(mail.body.contains("lost on time: alice"), "{}", mail.body);
        assert!(mail.body.contains("Not rated"), "{}", mail.body);
    }
    let lapsed = mails.iter().filter(|m| m.subject.ends_with(" -")).count();
    assert_eq!(
        lapsed, 6,
        "three lapsed challenges, told to both: {mails:#?}"
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM ratings"), 0);
}

/// Finding 1/4: "10 mails of 16 challenges plus chat gave one player 160
/// board mails". The same challenge written 16 times makes one board; at
/// most 3 challenges to the same opponent and 10 in all may be unanswered
/// (waiting, or ended unaccepted in the last 30 days: withdrawing and
/// challenging again gains nothing); chat on a challenge not accepted is
/// refused.
#[test]
fn challenges_are_bounded_and_a_repeated_line_makes_one() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("carol", CAROL);
    let line = "chess challenge alice alice-pw carol";
    let body = vec![line; 16].join("\n");
    let mails = h.send(ALICE, "games", &body);
    assert_eq!(mails_to(&mails, CAROL).len(), 1, "{mails:#?}");
    assert_eq!(mails_to(&mails, ALICE).len(), 1, "{mails:#?}");
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 1);
    // Another mail makes another challenge; the fourth unanswered one to
    // carol is refused, and so are chats.
    let mut boards = vec![101];
    for _ in 0..2 {
        let (board, _) = challenge(&mut h, "alice", "carol", "--white");
        boards.push(board);
    }
    let before = h.game_state();
    let mails = h.send(ALICE, "more", line);
    refused(
        &mails,
        ALICE,
        "at most 3 unanswered challenges to the same opponent",
    );
    assert!(mails_to(&mails, CAROL).is_empty());
    assert_eq!(h.game_state(), before);
    for board in &boards {
        let body = format!("chat {board} alice alice-pw Cheap pills\n").repeat(10);
        let mails = h.send(ALICE, "spam", &body);
        assert_eq!(mails.len(), 1, "{mails:#?}");
        refused(&mails, ALICE, "chat reaches carol once carol has accepted");
    }
    // Withdrawn, a challenge still counts: no new one to carol.
    let withdrawn = h.send(ALICE, "w", "decline 103 alice alice-pw");
    assert_eq!(mails_to(&withdrawn, CAROL).len(), 1, "{withdrawn:#?}");
    let mails = h.send(ALICE, "again", line);
    refused(
        &mails,
        ALICE,
        "at most 3 unanswered challenges to the same opponent",
    );
    // Ten unanswered in all.
    for n in 0..7 {
        let userid = format!("p{n}");
        h.signup(&userid, &address(&userid));
        challenge(&mut h, "alice", &userid, "");
    }
    h.signup("p7", &address("p7"));
    let mails = h.send(ALICE, "one more", "chess challenge alice alice-pw p7");
    refused(&mails, ALICE, "at most 10 unanswered challenges");
    assert!(mails_to(&mails, &address("p7")).is_empty());
    // An accepted challenge is answered: room for another.
    h.send(CAROL, "ok", "accept 101 carol carol-pw");
    let mails = h.send(ALICE, "one more", "chess challenge alice alice-pw p7");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    // A month later the withdrawn one counts no more.
    h.now += days(31);
    let (_, _) = challenge(&mut h, "alice", "carol", "");
    let carols = h
        .all_mails()
        .into_iter()
        .filter(|m| m.to == CAROL && m.subject.contains("Board"))
        .count();
    assert_eq!(
        carols, 6,
        "three challenges, one withdrawal, the acceptance, a month later one more"
    );
}

/// At most 100 games in progress per player: a challenge beyond it is
/// refused, and so is accepting one. (A challenge waiting for a player
/// does not count against them until they accept it.)
#[test]
fn a_player_has_at_most_100_games_in_progress() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let opponents: Vec<String> = (0..10).map(|n| format!("p{n}")).collect();
    for userid in &opponents {
        h.signup(userid, &address(userid));
    }
    // 99 games accepted: ten rounds of challenges to p0..p9, p9 left out
    // of the last.
    for round in 0..10 {
        let playing = if round == 9 { 9 } else { 10 };
        let body: Vec<String> = opponents[..playing]
            .iter()
            .map(|o| format!("chess challenge alice alice-pw {o} --white"))
            .collect();
        let mails = h.send(ALICE, "games", &body.join("\n"));
        assert!(
            !mails.iter().any(|m| m.subject.ends_with("Error")),
            "{mails:#?}"
        );
        for userid in &opponents[..playing] {
            let board = board_of(to(&mails, &address(userid)));
            let accepted = h.send(
                &address(userid),
                "ok",
                &format!("accept {board} {userid} {userid}-pw"),
            );
            assert!(
                !accepted.iter().any(|m| m.subject.ends_with("Error")),
                "{accepted:#?}"
            );
        }
    }
    // p0 challenges alice (it waits for her), and alice's 100th game is
    // her challenge to p9.
    let (waiting, _) = challenge(&mut h, "p0", "alice", "--white");
    let (hundredth, _) = challenge(&mut h, "alice", "p9", "--white");
    let before = h.game_state();
    let mails = h.send(ALICE, "more", "chess challenge alice alice-pw p1");
    refused(&mails, ALICE, "alice has 100 games in progress");
    let mails = h.send(&address("p2"), "more", "chess challenge p2 p2-pw alice");
    refused(&mails, &address("p2"), "alice has 100 games in progress");
    let mails = h.send(ALICE, "yes", &format!("accept {waiting} alice alice-pw"));
    refused(&mails, ALICE, "alice has 100 games in progress");
    assert_eq!(h.game_state(), before);
    // The 100th accepted is fine (p9 has 10 games), and once one game
    // ends there is room for p0's.
    let mails = h.send(
        &address("p9"),
        "ok",
        &format!("accept {hundredth} p9 p9-pw"),
    );
    assert!(
        !mails.iter().any(|m| m.subject.ends_with("Error")),
        "{mails:#?}"
    );
    h.send(ALICE, "r", "resign 101 alice alice-pw");
    let mails = h.send(ALICE, "yes", &format!("accept {waiting} alice alice-pw"));
    assert!(
        !mails.iter().any(|m| m.subject.ends_with("Error")),
        "{mails:#?}"
    );
}

/// A tournament game needs no acceptance and keeps the event's scoring,
/// but its rating follows the abort rule too (a director's ruling
/// included).
#[test]
fn an_event_scores_an_abort_but_does_not_rate_it() {
    let mut h = Harness::new();
    let td = address("td");
    h.signup("td", &td);
    let players = ["ann", "bob", "cat", "dan"];
    for player in players {
        h.signup(player, &address(player));
    }
    h.send(&td, "e", "tournament create td td-pw spring chess");
    for player in players {
        h.send(
            &address(player),
            "e",
            &format!("tournament enter spring {player} {player}-pw"),
        );
    }
    let started = h.send(&td, "s", "tournament start spring td td-pw");
    let notice = to(&started, &td);
    let games: Vec<(u32, String, String)> = games_in(&notice.body)
        .into_iter()
        .filter(|game| game.round == 1)
        .map(|game| (game.board, game.white, game.black))
        .collect();
    assert_eq!(games.len(), 2, "{}", notice.body);
    // A tournament game is no challenge: no waiting line, its clock runs.
    let mail = started
        .iter()
        .find(|m| m.subject.contains(&format!("Board {}", games[0].0)))
        .expect("a board mail");
    assert!(!mail.body.contains("The challenge waits"), "{}", mail.body);

    // Round 1, game 1: Black resigns at once. Scored, not rated.
    let (board, white, black) = &games[0];
    let mails = h.send(
        &address(black),
        "r",
        &format!("resign {board} {black} {black}-pw"),
    );
    let body = &to(&mails, &address(white)).body;
    assert!(body.contains("Result: 1-0"), "{body}");
    assert!(body.contains("Not rated"), "{body}");
    // Game 2: the director rules after one turn each. Scored, not rated.
    let (board, white, black) = &games[1];
    h.send(
        &address(white),
        "m",
        &format!("move {board} {white} {white}-pw e4"),
    );
    h.send(
        &address(black),
        "m",
        &format!("move {board} {black} {black}-pw e5"),
    );
    let mails = h.send(
        &td,
        "a",
        &format!("tournament adjudicate spring td td-pw {board} 1-0 a ruling"),
    );
    let body = &to(&mails, &address(white)).body;
    assert!(body.contains("Not rated"), "{body}");
    assert_eq!(h.count("SELECT COUNT(*) FROM rated_games"), 0);
    let standings = h.send("guest@example.net", "s", "tournament standings spring");
    let body = &standings[0].body;
    assert!(body.contains("2 of 6 games finished"), "{body}");
    let winners: Vec<&str> = [&games[0].1, &games[1].1]
        .iter()
        .map(|w| w.as_str())
        .collect();
    for winner in winners {
        let row = body
            .lines()
            .find(|l| l.split_whitespace().any(|w| w == winner))
            .unwrap_or_else(|| panic!("{winner} in:\n{body}"));
        assert!(row.split_whitespace().any(|w| w == "1"), "{row}\n{body}");
    }
}
