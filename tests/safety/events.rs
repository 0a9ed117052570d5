//! Tournament commands as a stranger would abuse them (issue 24, the
//! events slice), through the real Maildir and outbox: a stranger's wrong
//! passwords never lock a director out (tournament mails carry a reply
//! token, and the throttle counts a stranger's failures apart from the
//! player's own addresses); broadcasts, invitations, starts and events are
//! bounded; the list of events keeps the live ones in view; a Swiss that
//! cannot be paired ends; `rating` and `tournament invite` do not tell
//! whether a userid exists; a large view goes only to a proven player.

use pbem_testkit::{ALICE, Harness, Sent, address, flat, games_in, to};
use time::Duration;

const STRANGER: &str = "x@evil.example";

/// Signs up `players` (each at `<userid>@example.org`) unless they are
/// signed up already.
fn sign_up(h: &mut Harness, players: &[&str]) {
    for player in players {
        if h.count(&format!(
            "SELECT COUNT(*) FROM players WHERE userid = '{player}'"
        )) == 0
        {
            h.signup(player, &address(player));
        }
    }
}

/// `director` creates event `name` with `options` and `players` enter it;
/// returns the creation notice.
fn event(h: &mut Harness, director: &str, name: &str, options: &str, players: &[&str]) -> Sent {
    sign_up(h, &[director]);
    sign_up(h, players);
    let created = h.send(
        &address(director),
        "new event",
        &format!("tournament create {director} {director}-pw {name} chess {options}"),
    );
    assert_eq!(created.len(), 1, "{created:#?}");
    assert!(
        created[0].subject.ends_with(": created"),
        "{}",
        created[0].body
    );
    for player in players {
        let entered = h.send(
            &address(player),
            "enter",
            &format!("tournament enter {name} {player} {player}-pw"),
        );
        assert!(
            flat(&entered[0].body).contains("entered"),
            "{}",
            entered[0].body
        );
    }
    created[0].clone()
}

fn status(h: &Harness, name: &str) -> String {
    let conn = h.database();
    conn.query_row(
        "SELECT status FROM tournaments WHERE name = ?1",
        [name],
        |row| row.get(0),
    )
    .expect("status")
}

fn boards(h: &Harness) -> i64 {
    h.count("SELECT COUNT(*) FROM boards")
}

#[test]
fn a_strangers_wrong_passwords_never_lock_the_director_out_of_the_event() {
    // The stranger hears of every guess here: its answers are the subject,
    // not the stranger's mail ceiling (tests/safety/charge.rs).
    let mut h = Harness::with_config(|config| {
        config.service.sent.stranger.hour = 100;
        config.service.sent.stranger.day = 100;
    });
    let spring = event(&mut h, "alice", "spring", "", &["bob", "carol", "dave"]);
    let autumn = event(&mut h, "alice", "autumn", "", &["bob", "carol", "dave"]);
    assert!(
        spring.reply_to.is_some() && autumn.reply_to.is_some(),
        "a tournament mail to a player carries a reply token: {spring:#?}"
    );
    // The stranger guesses alice's password: enough to pause logins, and
    // then once a day, just before alice writes.
    for n in 0..6 {
        let guess = h.send(
            STRANGER,
            "start",
            &format!("tournament start spring alice guess{n}"),
        );
        assert!(
            flat(&guess[0].body).contains("wrong userid or password"),
            "{}",
            guess[0].body
        );
    }
    for day in 1..=3 {
        h.now += Duration::days(1);
        h.send(
            STRANGER,
            "start",
            &format!("tournament start spring alice day{day}"),
        );
        let settings = h.send(ALICE, "settings", "settings alice alice-pw");
        assert!(
            !flat(&settings[0].body).contains("too many wrong passwords"),
            "day {day}: {}",
            settings[0].body
        );
    }
    // The stranger's own address stays paused, even with the right password.
    let paused = h.send(STRANGER, "start", "tournament start spring alice alice-pw");
    assert!(
        flat(&paused[0].body).contains("too many wrong passwords"),
        "{}",
        paused[0].body
    );
    assert_eq!(status(&h, "spring"), "open");
    // Alice's password from her own address starts spring ...
    let started = h.send(ALICE, "start", "tournament start spring alice alice-pw");
    assert!(
        flat(&to(&started, ALICE).body).contains("\"spring\" has started"),
        "{started:#?}"
    );
    assert_eq!(status(&h, "spring"), "running");
    // ... and a reply to the creation notice of autumn starts it without
    // userid or password.
    let started = h.reply(&autumn, ALICE, "tournament start autumn");
    assert!(
        flat(&to(&started, ALICE).body).contains("\"autumn\" has started"),
        "{started:#?}"
    );
    assert_eq!(status(&h, "autumn"), "running");
}

#[test]
fn a_reply_token_of_a_tournament_mail_speaks_only_from_the_players_address() {
    let mut h = Harness::new();
    let spring = event(&mut h, "alice", "spring", "", &["bob", "carol", "dave"]);
    let forged = h.reply(&spring, STRANGER, "tournament start spring");
    assert!(
        flat(&forged[0].body).contains("not an address of alice"),
        "{}",
        forged[0].body
    );
    assert_eq!(status(&h, "spring"), "open");
    // The director's reply: words after the event name that are not her
    // userid and password are the broadcast's text.
    let news = h.reply(
        &spring,
        ALICE,
        "tournament broadcast spring Good luck everyone",
    );
    assert!(
        flat(&to(&news, &address("bob")).body)
            .contains("alice writes to the players of \"spring\": Good luck everyone"),
        "{news:#?}"
    );
    // Her userid and password in a reply still read as such, never as text.
    let news = h.reply(
        &spring,
        ALICE,
        "tournament broadcast spring alice alice-pw Round one",
    );
    let bob = flat(&to(&news, &address("bob")).body);
    assert!(
        bob.contains("spring\": Round one") && !bob.contains("alice-pw"),
        "{bob}"
    );
    // Bob's notice speaks for bob, who directs nothing.
    let bobs = h.send(
        &address("bob"),
        "show",
        "tournament leave spring bob bob-pw",
    );
    let refused = h.reply(&bobs[0], &address("bob"), "tournament start spring");
    assert!(
        flat(&refused[0].body).contains("bob is not the director"),
        "{}",
        refused[0].body
    );
    // A player enters by reply too.
    let entered = h.reply(&bobs[0], &address("bob"), "tournament enter spring");
    assert!(
        flat(&entered[0].body).contains("bob entered \"spring\""),
        "{}",
        entered[0].body
    );
}

#[test]
fn broadcast_is_for_live_events_once_per_mail_and_three_times_a_day() {
    let mut h = Harness::new();
    event(&mut h, "alice", "spring", "", &["bob", "carol", "dave"]);
    let two = h.send(
        ALICE,
        "news",
        "tournament broadcast spring alice alice-pw first\ntournament broadcast spring alice alice-pw second",
    );
    let to_bob: Vec<&Sent> = two.iter().filter(|m| m.to == address("bob")).collect();
    assert_eq!(to_bob.len(), 1, "{two:#?}");
    assert!(
        flat(&to(&two, ALICE).body).contains("one broadcast per mail"),
        "{}",
        to(&two, ALICE).body
    );
    for n in 2..=3 {
        let sent = h.send(
            ALICE,
            "news",
            &format!("tournament broadcast spring alice alice-pw number {n}"),
        );
        assert_eq!(sent.len(), 4, "{sent:#?}");
    }
    let fourth = h.send(
        ALICE,
        "news",
        "tournament broadcast spring alice alice-pw four",
    );
    assert_eq!(fourth.len(), 1, "{fourth:#?}");
    assert!(
        flat(&fourth[0].body).contains("at most 3 broadcasts a day"),
        "{}",
        fourth[0].body
    );
    h.now += Duration::days(1);
    let next_day = h.send(
        ALICE,
        "news",
        "tournament broadcast spring alice alice-pw five",
    );
    assert_eq!(next_day.len(), 4, "{next_day:#?}");
    // A finished event takes none.
    let conn = h.database();
    conn.execute(
        "UPDATE tournaments SET status = 'finished' WHERE name = 'spring'",
        [],
    )
    .expect("finished");
    h.now += Duration::days(1);
    let finished = h.send(
        ALICE,
        "news",
        "tournament broadcast spring alice alice-pw late",
    );
    assert_eq!(finished.len(), 1, "{finished:#?}");
    assert!(
        flat(&finished[0].body).contains("is finished"),
        "{}",
        finished[0].body
    );
}

#[test]
fn invitations_mail_each_player_once_and_fifty_per_mail_at_most() {
    let mut h = Harness::new();
    sign_up(&mut h, &["alice", "bob"]);
    h.send(
        ALICE,
        "new",
        "tournament create alice alice-pw spring chess --invite-only",
    );
    let lines: Vec<String> = (0..16)
        .map(|_| "tournament invite spring alice alice-pw bob".to_string())
        .collect();
    let mails = h.send(ALICE, "invite", &lines.join("\n"));
    let to_bob = mails.iter().filter(|m| m.to == address("bob")).count();
    assert_eq!(to_bob, 1, "{mails:#?}");
    // Inviting bob again later mails him no more.
    let again = h.send(
        ALICE,
        "invite",
        "tournament invite spring alice alice-pw bob",
    );
    assert_eq!(again.len(), 1, "{again:#?}");
    // Invitations count across the lines of a mail: 3 lines of 20 names.
    let lines: Vec<String> = (0..3)
        .map(|line| {
            let names: Vec<String> = (0..20).map(|n| format!("p{line}x{n}")).collect();
            format!(
                "tournament invite spring alice alice-pw {}",
                names.join(" ")
            )
        })
        .collect();
    let mails = h.send(ALICE, "invite", &lines.join("\n"));
    let body = &flat(&to(&mails, ALICE).body);
    assert!(
        body.contains("a mail may invite at most 50 players"),
        "{body}"
    );
}

#[test]
fn a_director_has_at_most_five_events_that_are_not_finished() {
    let mut h = Harness::new();
    sign_up(&mut h, &["alice"]);
    for n in 0..5 {
        let created = h.send(
            ALICE,
            "new",
            &format!("tournament create alice alice-pw e{n} chess"),
        );
        assert!(
            created[0].subject.ends_with("created"),
            "{}",
            created[0].body
        );
    }
    let sixth = h.send(ALICE, "new", "tournament create alice alice-pw e5 chess");
    assert!(
        flat(&sixth[0].body).contains("at most 5 events"),
        "{}",
        sixth[0].body
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM tournaments"), 5);
}

#[test]
fn one_mail_starts_one_event_at_most() {
    let mut h = Harness::new();
    event(&mut h, "alice", "e1", "", &["bob", "carol", "dave"]);
    event(&mut h, "alice", "e2", "", &["bob", "carol", "dave"]);
    let mails = h.send(
        ALICE,
        "start",
        "tournament start e1 alice alice-pw\ntournament start e2 alice alice-pw",
    );
    let body = &flat(&to(&mails, ALICE).body);
    assert!(body.contains("one tournament start per mail"), "{body}");
    assert_eq!(status(&h, "e1"), "running");
    assert_eq!(status(&h, "e2"), "open");
    assert_eq!(boards(&h), 3, "the three games of e1");
}

#[test]
fn tournaments_lists_every_live_event_before_the_newest_finished_ones() {
    let mut h = Harness::new();
    event(&mut h, "alice", "real", "", &["bob"]);
    let conn = h.database();
    for n in 0..250 {
        conn.execute(
            "INSERT INTO tournaments (name, variant, director_id, format, nag_days,
                 forfeit_days, max_entrants, rated, invite_only, tiebreaks, status, created_at)
             SELECT ?1, variant, director_id, format, nag_days, forfeit_days, max_entrants,
                 rated, invite_only, tiebreaks, 'finished', created_at
             FROM tournaments WHERE name = 'real'",
            [format!("old{n}")],
        )
        .expect("a finished event");
    }
    let list = h.send(&address("bob"), "list", "tournaments");
    let body = &list[0].body;
    let real = body.find("real ").expect("the open event is listed");
    let first_old = body.find("old").expect("finished ones");
    assert!(real < first_old, "{body}");
    assert!(body.contains("old249"), "{body}");
    assert!(!body.contains("old0 "), "{body}");
    assert!(body.contains("50 more finished events"), "{body}");
}

#[test]
fn a_swiss_that_cannot_pair_its_next_round_ends_with_the_rounds_played() {
    let mut h = Harness::new();
    event(&mut h, "td", "sw", "--swiss=3", &["s1", "s2", "s3", "s4"]);
    let started = h.send(&address("td"), "start", "tournament start sw td td-pw");
    let notice = started
        .iter()
        .find(|m| flat(&m.body).contains("Round 1 of 3 of \"sw\" is paired"))
        .expect("the pairing of round 1");
    let games: Vec<(String, String, String)> = games_in(&notice.body)
        .into_iter()
        .filter(|game| game.round == 1)
        .map(|game| (game.board.to_string(), game.white, game.black))
        .collect();
    assert_eq!(games.len(), 2, "{}", notice.body);
    // The two players of one game withdraw; the other game ends: the two
    // left have met, and nobody can be paired.
    let (board, white, black) = &games[0];
    for player in [white, black] {
        let w = h.send(
            &address("td"),
            "withdraw",
            &format!("tournament withdraw sw td td-pw {player}"),
        );
        assert!(
            flat(&to(&w, &address("td")).body).contains("is withdrawn"),
            "{w:#?}"
        );
    }
    let _ = board;
    let (board, _, black) = &games[1];
    let last = h.send(
        &address(black),
        "resign",
        &format!("resign {board} {black} {black}-pw"),
    );
    assert_eq!(status(&h, "sw"), "finished", "{last:#?}");
    let director = last
        .iter()
        .filter(|m| m.to == address("td"))
        .map(|m| m.body.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        flat(&director).contains("could not pair round 2")
            && flat(&director).contains("ends with the 1 round played"),
        "{director}"
    );
    for player in ["s1", "s2", "s3", "s4"] {
        assert!(
            last.iter()
                .any(|m| m.to == address(player) && m.body.contains("Final crosstable: sw")),
            "{player}: {last:#?}"
        );
    }
}

#[test]
fn rating_and_invite_answer_alike_for_unknown_userids() {
    let mut h = Harness::new();
    sign_up(&mut h, &["alice", "bob"]);
    let known = h.send(ALICE, "r", "rating bob");
    let unknown = h.send(ALICE, "r", "rating bxb");
    assert_eq!(
        known[0].body.replace("bob", "X"),
        unknown[0].body.replace("bxb", "X"),
    );
    assert_eq!(
        known[0].subject.replace("bob", "X"),
        unknown[0].subject.replace("bxb", "X")
    );
    h.send(
        ALICE,
        "new",
        "tournament create alice alice-pw spring chess",
    );
    let known = h.send(ALICE, "i", "tournament invite spring alice alice-pw bob");
    let unknown = h.send(ALICE, "i", "tournament invite spring alice alice-pw bxb");
    let answer = |mails: &[Sent], name: &str| to(mails, ALICE).body.replace(name, "X");
    assert_eq!(answer(&known, "bob"), answer(&unknown, "bxb"));
    assert!(known.iter().any(|m| m.to == address("bob")), "{known:#?}");
}

#[test]
fn a_large_view_goes_to_a_proven_players_address_or_becomes_a_short_notice() {
    let mut h = Harness::new();
    let players = [
        "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13",
    ];
    event(&mut h, "alice", "big", "--double", &players);
    let started = h.send(ALICE, "start", "tournament start big alice alice-pw");
    assert!(
        flat(&to(&started, ALICE).body).contains("has started"),
        "{}",
        to(&started, ALICE).body
    );
    // Nobody proven: a short notice says how to get it.
    let forged = h.send(ALICE, "pgn", "tournament pgn big");
    assert_eq!(forged.len(), 1, "{forged:#?}");
    assert!(forged[0].body.len() < 2_000, "{}", forged[0].body);
    assert!(
        flat(&forged[0].body).contains("tournament pgn big <userid> <password>"),
        "{}",
        forged[0].body
    );
    let stranger = h.send(STRANGER, "pgn", "tournament pgn big");
    assert!(stranger[0].body.len() < 2_000, "{}", stranger[0].body);
    // A player's password: the file goes to that player's own address.
    let by_password = h.send(STRANGER, "pgn", "tournament pgn big p1 p1-pw");
    let file = to(&by_password, &address("p1"));
    assert!(file.body.len() > 16 * 1024, "{}", file.body.len());
    assert!(
        flat(&file.body).contains("[Event \"big\"]"),
        "{}",
        &file.body[..500]
    );
    let answer = to(&by_password, STRANGER);
    assert!(answer.body.len() < 2_000, "{}", answer.body);
    // A reply to a tournament mail proves its player too.
    let entered = h
        .all_mails()
        .into_iter()
        .rev()
        .find(|m| m.to == address("p2") && m.reply_to.is_some())
        .expect("a mail to p2 with a reply token");
    let by_reply = h.reply(&entered, &address("p2"), "tournament pgn big");
    let file = to(&by_reply, &address("p2"));
    assert!(file.body.len() > 16 * 1024, "{}", file.body.len());
    // A small view is answered as before.
    let show = h.send(STRANGER, "show", "tournament standings big");
    assert!(
        flat(&show[0].body).contains("Standings: big"),
        "{}",
        show[0].body
    );
}
