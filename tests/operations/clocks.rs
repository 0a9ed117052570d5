//! Time controls (issue 27) through the real Maildir and `pbem --now ...
//! tick`: `N/D` blocks lost on time at the right moment or saved by the
//! time carried over, a bank with its increment, an event's control, and
//! `extend`. The clock arithmetic has its hand-worked tables in
//! crates/pbem-clock; these check that the service stores, replays,
//! shows and acts on it.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, days, flat, readable, to};
use time::{Duration, OffsetDateTime};

/// Board 101, Alice White, Bob Black, with `options`; Bob accepts it.
/// Returns when the clock started (the acceptance).
fn game(h: &mut Harness, options: &str) -> OffsetDateTime {
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let made = h.send(
        ALICE,
        "new game",
        &format!("chess challenge alice alice-pw bob --white {options}"),
    );
    assert_eq!(made.len(), 2, "{made:#?}");
    let accepted = h.send(BOB, "ok", "accept 101 bob bob-pw");
    assert_eq!(accepted.len(), 2, "{accepted:#?}");
    h.now
}

/// `from` plays `turn` on board 101 exactly at `at` (a server pass adds a
/// minute to the harness clock first).
fn play_at(h: &mut Harness, at: OffsetDateTime, from: &str, turn: &str) -> Vec<Sent> {
    h.now = at - Duration::minutes(1);
    let userid = if from == ALICE { "alice" } else { "bob" };
    let mails = h.send(
        from,
        "turn",
        &format!("move 101 {userid} {userid}-pw {turn}"),
    );
    assert_eq!(h.now, at);
    mails
}

/// The losses on time of a tick's report: `1 losses on time`.
fn losses(report: &str) -> &str {
    report
        .split([',', ';'])
        .map(str::trim)
        .find(|part| part.ends_with("losses on time"))
        .unwrap_or(report)
}

#[test]
fn a_slow_first_turn_in_2_in_10_loses_on_time_when_the_block_runs_out() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=2/10");
    // Alice thinks 9 days over her first turn, Bob answers in a minute:
    // Alice has 1 day less a minute left for her second turn of the block.
    play_at(&mut h, start + days(9), ALICE, "e4");
    let moved = play_at(&mut h, start + days(9) + Duration::minutes(1), BOB, "e5");
    // Alice used 9 days of her 10: she has 1 from Bob's turn on.
    let loses_at = start + days(10) + Duration::minutes(1);
    let mail = to(&moved, ALICE);
    assert!(
        flat(&mail.body).contains(&format!(
            "Clock: alice (White): 1 turn by {} (1 day left)",
            readable(loses_at)
        )),
        "{}",
        mail.body
    );
    assert!(
        flat(&mail.body).contains("Clock: bob (Black): 1 turn in 9 days 23 hours"),
        "{}",
        mail.body
    );
    assert!(
        flat(&mail.body).contains(&format!(
            "alice loses on time at {} if no turn comes",
            readable(loses_at)
        )),
        "{}",
        mail.body
    );
    assert!(
        flat(&mail.body)
            .contains("Time control: 2/10 (2 turns in 10 days, unused time carried over)"),
        "{}",
        mail.body
    );

    // A quarter of her time left: one reminder, once.
    let (report, reminded) = h.tick(start + days(9) + Duration::hours(20));
    assert!(
        report.starts_with("sweep: 1 reminders, 0 losses"),
        "{report}"
    );
    assert_eq!(reminded.len(), 1, "{reminded:#?}");
    assert_eq!(reminded[0].to, ALICE);
    assert_eq!(reminded[0].subject, "Nag: Chess Board 101 alice");
    assert!(
        flat(&reminded[0].body).contains(&format!(
            "Reminder: alice has 4 hours 1 minute left on board 101 (2 turns in 10 days, unused time carried over). The game is lost on time at {} unless alice moves.",
            readable(loses_at)
        )),
        "{}",
        reminded[0].body
    );
    let (report, _) = h.tick(loses_at - Duration::seconds(1));
    assert!(
        report.starts_with("sweep: 0 reminders, 0 losses"),
        "{report}"
    );

    let (report, lost) = h.tick(loses_at);
    assert_eq!(losses(&report), "1 losses on time", "{report}");
    assert_eq!(lost.len(), 2, "{lost:#?}");
    for mail in &lost {
        assert_eq!(mail.subject, "Chess Board 101 0-1");
        assert!(
            flat(&mail.body).contains(&format!(
                "lost on time: alice's time ran out at {} (2 turns in 10 days, unused time carried over)",
                readable(loses_at)
            )),
            "{}",
            mail.body
        );
    }
}

#[test]
fn time_saved_in_the_first_block_of_2_in_10_carries_over() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=2/10");
    // Alice makes the two turns of her first block in 2 days: 8 days
    // carry over, 18 for the next block.
    play_at(&mut h, start + days(1), ALICE, "e4");
    play_at(&mut h, start + days(1) + Duration::minutes(1), BOB, "e5");
    play_at(&mut h, start + days(2) + Duration::minutes(1), ALICE, "Nf3");
    let bob_moved = start + days(2) + Duration::minutes(2);
    play_at(&mut h, bob_moved, BOB, "Nc6");
    // 15 days on one turn: more than a block's 10, but not her 18; 3
    // are left for the last turn of her second block.
    let (report, _) = h.tick(bob_moved + days(15));
    assert_eq!(losses(&report), "0 losses on time", "{report}");
    let moved = play_at(&mut h, bob_moved + days(15), ALICE, "Bb5");
    assert_eq!(moved.len(), 2, "the turn is played: {moved:#?}");
    assert!(
        flat(&to(&moved, BOB).body).contains("Clock: alice (White): 1 turn in 3 days"),
        "{}",
        to(&moved, BOB).body
    );
}

#[test]
fn a_bank_of_3_days_gains_1_after_each_turn_and_runs_out() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=3+1 --remind=none");
    // Alice uses 2 of her 3 days and gains 1: 2 left.
    play_at(&mut h, start + days(2), ALICE, "e4");
    let bob_moved = start + days(2) + Duration::minutes(1);
    let mails = play_at(&mut h, bob_moved, BOB, "e5");
    let loses_at = bob_moved + days(2);
    let body = flat(&to(&mails, ALICE).body);
    assert!(
        body.contains(&format!(
            "Clock: alice (White): 2 days left, until {}",
            readable(loses_at)
        )),
        "{body}"
    );
    // Bob used a minute of his 3 days and gained a day.
    assert!(
        body.contains("Clock: bob (Black): 3 days 23 hours left"),
        "{body}"
    );
    let (report, none) = h.tick(loses_at - Duration::minutes(1));
    assert!(none.is_empty(), "no reminders asked for: {none:#?}");
    assert_eq!(losses(&report), "0 losses on time", "{report}");
    let (report, lost) = h.tick(loses_at);
    assert_eq!(losses(&report), "1 losses on time", "{report}");
    assert!(
        flat(&lost[0].body).contains(&format!(
            "lost on time: alice's time ran out at {} (a bank of 3 days, 1 day more after each turn)",
            readable(loses_at)
        )),
        "{}",
        lost[0].body
    );
}

#[test]
fn an_event_with_10_in_50_gives_its_games_that_control() {
    let mut h = Harness::new();
    for player in ["td", "ann", "ben", "cat"] {
        h.signup(player, &address(player));
    }
    let created = h.send(
        &address("td"),
        "new event",
        "tournament create td td-pw spring chess --time=10/50",
    );
    assert!(
        flat(&created[0].body).contains(
            "Time control: 10/50 (10 turns in 50 days, unused time carried over), reminders 25%,1"
        ),
        "{}",
        created[0].body
    );
    for player in ["ann", "ben", "cat"] {
        h.send(
            &address(player),
            "enter",
            &format!("tournament enter spring {player} {player}-pw"),
        );
    }
    let started = h.send(&address("td"), "start", "tournament start spring td td-pw");
    let start = h.now;
    let board_mails: Vec<&Sent> = started
        .iter()
        .filter(|m| m.subject.starts_with("New Chess Board"))
        .collect();
    assert!(!board_mails.is_empty(), "{started:#?}");
    for mail in &board_mails {
        assert!(
            flat(&mail.body).contains("Time control: 10/50 (10 turns in 50 days"),
            "{}",
            mail.body
        );
        assert!(
            flat(&mail.body).contains(&format!(
                "(White): 10 turns by {} (50 days left)",
                readable(start + days(50))
            )),
            "{}",
            mail.body
        );
    }
    let (report, _) = h.tick(start + days(50) - Duration::minutes(1));
    assert_eq!(losses(&report), "0 losses on time", "{report}");
    let (report, lost) = h.tick(start + days(50));
    assert_ne!(losses(&report), "0 losses on time", "{report}");
    assert!(
        lost.iter()
            .any(|m| flat(&m.body).contains("(10 turns in 50 days, unused time carried over)")),
        "{lost:#?}"
    );
}

#[test]
fn extend_gives_the_opponent_days_up_to_30_a_game_and_only_from_a_player() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=3");
    let loses_at = start + days(3);
    let extended = h.send(BOB, "more time", "extend 101 bob bob-pw 5");
    assert_eq!(extended.len(), 2, "both players hear of it: {extended:#?}");
    for mail in &extended {
        assert!(
            flat(&mail.body)
                .contains("bob gave alice 5 days more on the clock (extend); 25 of the 30"),
            "{}",
            mail.body
        );
        assert!(
            flat(&mail.body).contains(&format!(
                "alice loses on time at {}",
                readable(loses_at + days(5))
            )),
            "{}",
            mail.body
        );
    }
    let (report, _) = h.tick(loses_at + days(1));
    assert_eq!(losses(&report), "0 losses on time", "{report}");

    // More than the game has left, and a stranger: refused, nothing changes.
    let clock_state = |h: &Harness| h.rows(&["boards", "comments", "clock_events"]);
    let state = clock_state(&h);
    let refused = h.send(BOB, "more", "extend 101 bob bob-pw 26");
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        flat(&refused[0].body).contains("give at most 25"),
        "{}",
        refused[0].body
    );
    h.signup("carol", &address("carol"));
    let stranger = h.send(&address("carol"), "more", "extend 101 carol carol-pw 1");
    assert_eq!(stranger.len(), 1, "{stranger:#?}");
    assert!(
        flat(&stranger[0].body).contains("carol does not play on board 101"),
        "{}",
        stranger[0].body
    );
    assert_eq!(clock_state(&h), state, "the refusals changed nothing");

    // In a reply to a board mail: `extend <days>`.
    let board_mail = to(&extended, ALICE).clone();
    let replied = h.reply(&board_mail, ALICE, "extend 25");
    assert_eq!(replied.len(), 2, "{replied:#?}");
    assert!(
        flat(&to(&replied, BOB).body)
            .contains("alice gave bob 25 days more on the clock (extend); 0 of the 30"),
        "{}",
        to(&replied, BOB).body
    );
    let full = h.send(ALICE, "more", "extend 101 alice alice-pw 1");
    assert!(
        flat(&full[0].body).contains("this one had them all"),
        "{}",
        full[0].body
    );

    let (report, lost) = h.tick(loses_at + days(5));
    assert_eq!(losses(&report), "1 losses on time", "{report}");
    assert!(lost[0].subject.contains(" 0-1"), "{lost:#?}");
}

#[test]
fn odd_controls_and_clashing_options_are_refused_with_what_to_write() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    for (options, says) in [
        ("--time=0.125", "write 0.13"),
        ("--time=30+1/20", "a cap of at least 30"),
        ("--time=soon", "10/50"),
        (
            "--time=3 --days=3",
            "give --time or --days/--forfeit, not both",
        ),
        ("--time=3 --nag=1", "not --nag"),
        ("--remind=100%", "1% to 99%"),
    ] {
        let refused = h.send(
            ALICE,
            "new game",
            &format!("chess challenge alice alice-pw bob {options}"),
        );
        assert_eq!(refused.len(), 1, "{options}: {refused:#?}");
        assert!(
            flat(&refused[0].body).contains(says),
            "{options}: {}",
            refused[0].body
        );
    }
    // A legacy board has no clock to extend.
    h.send(
        ALICE,
        "new game",
        "chess challenge alice alice-pw bob --white",
    );
    h.send(BOB, "ok", "accept 101 bob bob-pw");
    let refused = h.send(BOB, "more", "extend 101 bob bob-pw 2");
    assert!(
        flat(&refused[0].body).contains("has no time control"),
        "{}",
        refused[0].body
    );
}

#[test]
fn a_take_back_keeps_the_time_used_and_takes_back_the_increment() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=3+1 --remind=none");
    // Alice uses a day of her 3 and gains 1 (3 left); the turn is taken
    // back: the day stays used, the increment goes (2 left).
    play_at(&mut h, start + days(1), ALICE, "e4");
    h.send(ALICE, "oops", "undo 101 alice alice-pw");
    let taken_back = h.send(BOB, "fine", "accept 101 bob bob-pw");
    let back_at = start + days(1) + Duration::minutes(2);
    assert_eq!(h.now, back_at);
    let body = flat(&to(&taken_back, ALICE).body);
    assert!(
        body.contains(&format!(
            "Clock: alice (White): 2 days left, until {}",
            readable(back_at + days(2))
        )),
        "{body}"
    );
    let (report, _) = h.tick(back_at + days(2) - Duration::seconds(1));
    assert_eq!(losses(&report), "0 losses on time", "{report}");
    let (report, _) = h.tick(back_at + days(2));
    assert_eq!(losses(&report), "1 losses on time", "{report}");
}

/// The web site's page of `board` from White's side, built in this
/// process at the harness clock (the pages the HTTP routes serve).
fn board_page(h: &Harness, board: u32) -> String {
    let site = pbem::web::Site::new(&h.config, pbem::server::TimeSource::Fixed(h.now));
    let conn = h.database();
    pbem::web::pages::board(&site, &conn, board, shakmaty::Color::White, None)
        .unwrap_or_else(|e| panic!("the page of board {board}: {e:?}"))
        .body
}

#[test]
fn the_web_board_page_shows_the_control_and_both_clocks() {
    let mut h = Harness::new();
    let start = game(&mut h, "--time=2/10");
    play_at(&mut h, start + days(9), ALICE, "e4");
    play_at(&mut h, start + days(9) + Duration::minutes(1), BOB, "e5");
    let page = board_page(&h, 101);
    for shown in [
        "<tr><th>Time control</th><td>2&#x2f;10 (2 turns in 10 days, unused time carried over)</td></tr>".to_string(),
        format!(
            "<tr><th>alice's clock</th><td>1 turn by {} (1 day left)</td></tr>",
            readable(start + days(10) + Duration::minutes(1))
        ),
        "<tr><th>bob's clock</th><td>1 turn in 9 days 23 hours</td></tr>".to_string(),
        format!(
            "<tr><th>Loses on time</th><td>{}</td></tr>",
            readable(start + days(10) + Duration::minutes(1))
        ),
    ] {
        assert!(page.contains(&shown), "{shown}\n{page}");
    }
    assert!(!page.contains("Reminder after"), "{page}");
}
