//! Deadlines with the testable clock: reminders after the nag interval
//! (never twice for one interval, whatever the restarts and repeated
//! sweeps), the loss on time, vacations that stop the clock, unanswered
//! draw offers, and the daily digest; plus `pbem --now ... tick` as a process.

use pbem_testkit::{ALICE, BOB, Harness, days, readable, to};
use time::{Duration, OffsetDateTime};

/// A chess board 101 with Alice (White) to move, created and accepted by
/// Bob at the harness clock; returns the time of the acceptance (a
/// challenge runs no clock until the challenged player accepts it).
fn board(h: &mut Harness) -> OffsetDateTime {
    h.alice_and_bob_on("chess");
    accept(h);
    h.now
}

/// Bob accepts the challenge of board 101.
fn accept(h: &mut Harness) {
    let mails = h.send(BOB, "ok", "accept 101 bob bob-pw");
    assert_eq!(mails.len(), 2, "{mails:#?}");
}

#[test]
fn reminders_at_8_and_14_days_then_a_loss_on_time_at_22() {
    let mut h = Harness::new();
    let start = board(&mut h);
    assert!(h.sweep(start + days(6)).is_empty(), "nothing before 7 days");

    let nag = h.sweep(start + days(8));
    assert_eq!(
        nag.len(),
        1,
        "exactly one reminder, to the player to move: {nag:#?}"
    );
    assert_eq!(nag[0].to, ALICE);
    assert_eq!(nag[0].subject, "Nag: Chess Board 101 alice");
    assert!(
        nag[0]
            .body
            .contains("Reminder: alice has not moved on board 101 for 8 days."),
        "{}",
        nag[0].body
    );
    assert!(
        nag[0].body.contains("Legal turns: 20"),
        "the board and summary:\n{}",
        nag[0].body
    );
    assert!(
        nag[0].reply_to.is_some(),
        "a reply to the reminder plays the turn"
    );

    assert!(
        h.sweep(start + days(8)).is_empty(),
        "two sweeps at the same time send nothing twice"
    );
    h.restart();
    assert!(
        h.sweep(start + days(9)).is_empty(),
        "a restart between sweeps changes nothing"
    );

    let second = h.sweep(start + days(14));
    assert_eq!(second.len(), 1);
    assert_eq!(second[0].subject, "Nag: Chess Board 101 alice");

    let lost = h.sweep(start + days(22));
    assert_eq!(lost.len(), 2, "both players hear the result: {lost:#?}");
    for mail in &lost {
        assert_eq!(mail.subject, "Chess Board 101 0-1");
        assert!(
            mail.body
                .contains("lost on time: alice did not move within 21 days"),
            "{}",
            mail.body
        );
    }
    assert!(
        h.sweep(start + days(40)).is_empty(),
        "a finished game has no deadlines"
    );
}

#[test]
fn a_move_restarts_the_clock_for_the_other_player() {
    let mut h = Harness::new();
    let start = board(&mut h);
    h.now = start + days(5);
    h.send(ALICE, "turn", "move 101 alice alice-pw e4");
    let moved = h.now;
    assert!(
        h.sweep(start + days(9)).is_empty(),
        "Bob's clock started at Alice's move"
    );
    let nag = h.sweep(moved + days(7) + Duration::minutes(1));
    assert_eq!(nag.len(), 1);
    assert_eq!(nag[0].to, BOB);
    assert_eq!(nag[0].subject, "Nag: Chess Board 101 bob");
}

#[test]
fn a_vacation_shifts_every_deadline() {
    let mut h = Harness::new();
    let start = board(&mut h);
    h.now = start + days(1);
    let announced = h.send(ALICE, "away", "vacation alice alice-pw 10");
    assert_eq!(
        announced.len(),
        2,
        "the player and the opponent hear of it: {announced:#?}"
    );
    assert!(
        to(&announced, BOB)
            .body
            .contains("alice is on vacation for 10 days")
    );

    assert!(
        h.sweep(start + days(8)).is_empty(),
        "the clock stopped on day 1"
    );
    assert!(
        h.sweep(start + days(16)).is_empty(),
        "6 days of clock at day 16"
    );
    let nag = h.sweep(start + days(17) + Duration::minutes(2));
    assert_eq!(nag.len(), 1, "{nag:#?}");
    assert!(
        nag[0].body.contains(&format!(
            "{} unless alice moves",
            readable(start + days(31))
        )),
        "{}",
        nag[0].body
    );
    assert!(
        h.sweep(start + days(30))
            .iter()
            .all(|m| m.subject.starts_with("Nag:"))
    );
    let lost = h.sweep(start + days(32));
    assert_eq!(lost.len(), 2);
    assert!(lost[0].subject.ends_with("0-1"));

    let refused = h.send(ALICE, "away", "vacation alice alice-pw 25");
    assert!(
        refused[0]
            .body
            .contains("you have 20 vacation days left this year"),
        "{}",
        refused[0].body
    );
}

#[test]
fn an_unanswered_draw_offer_counts_as_accepted_at_the_forfeit_time() {
    let mut h = Harness::new();
    let start = board(&mut h);
    h.send(ALICE, "turn", "move 101 alice alice-pw e4");
    h.send(BOB, "turn", "move 101 bob bob-pw e5");
    h.send(ALICE, "draw?", "draw 101 alice alice-pw");
    // Bob keeps playing... no: it is Alice's turn, and Bob never answers.
    let ended = h.sweep(start + days(21) + Duration::hours(1));
    let results: Vec<&str> = ended
        .iter()
        .map(|m| m.subject.as_str())
        .filter(|s| !s.starts_with("Nag:"))
        .collect();
    assert_eq!(
        results,
        ["Chess Board 101 1/2-1/2", "Chess Board 101 1/2-1/2"],
        "{ended:#?}"
    );
    assert!(
        ended
            .iter()
            .any(|m| m.body.contains("the offer was not answered within 21 days"))
    );
}

#[test]
fn the_daily_digest_lists_the_boards_waiting_and_comes_once_a_day() {
    let mut h = Harness::new();
    let start = board(&mut h);
    // Both take the digest; only Alice has a board waiting.
    h.send(ALICE, "prefs", "set alice alice-pw mail digest");
    h.send(BOB, "prefs", "set bob bob-pw mail digest");
    let digest = h.digest(start + days(2));
    assert_eq!(
        digest.len(),
        1,
        "only Alice has a board waiting: {digest:#?}"
    );
    assert_eq!(digest[0].subject, "pbem digest for alice");
    assert!(
        digest[0]
            .body
            .contains("Board 101 (Chess against bob): your turn for 2 days"),
        "{}",
        digest[0].body
    );
    assert!(
        h.digest(start + days(2) + Duration::hours(1)).is_empty(),
        "once a day"
    );
    assert_eq!(h.digest(start + days(3)).len(), 1);
}

#[test]
fn tick_with_a_testable_clock_runs_as_a_process() {
    let mut h = Harness::new();
    let start = board(&mut h);
    let (report, nag) = h.tick(start + days(8));
    assert_eq!(
        report,
        "sweep: 1 reminders, 0 losses on time, 0 draws by timeout; sent 1 mails\n"
    );
    assert_eq!(nag.len(), 1);
    assert_eq!(nag[0].subject, "Nag: Chess Board 101 alice");
}

#[test]
fn days_per_turn_sets_the_time_for_each_turn() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(
        ALICE,
        "new game",
        "chess challenge alice alice-pw bob --white --days=3",
    );
    assert!(
        to(&mails, BOB)
            .body
            .contains("a reminder after 1 day without a move,\na loss on time after 3 days."),
        "{}",
        to(&mails, BOB).body
    );
    accept(&mut h);
    let start = h.now;
    assert_eq!(
        h.sweep(start + days(1) + Duration::minutes(1)).len(),
        1,
        "a reminder after a day"
    );
    assert_eq!(
        h.sweep(start + days(3) + Duration::minutes(1)).len(),
        2,
        "lost on time after three days"
    );
    let both = h.send(
        ALICE,
        "again",
        "chess challenge alice alice-pw bob --days=3 --forfeit=5",
    );
    assert!(
        both[0].body.contains("give --days or --forfeit, not both"),
        "{}",
        both[0].body
    );
}

/// `serve` runs the sweep at start and then on the cron schedule of its
/// configuration (here every second); repeated sweeps send nothing twice.
#[test]
fn serve_runs_the_sweep_on_its_cron_schedule() {
    let mut h = Harness::new();
    let start = board(&mut h);
    let config = h.dir.path().join("pbem.toml");
    std::fs::write(&config, "[schedule]\nsweep = \"* * * * * *\"\n").expect("config file");
    let at = (start + days(8))
        .format(&time::format_description::well_known::Rfc3339)
        .expect("formats");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .args(["--now", &at, "serve"])
        .env("RUST_LOG", "info")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("pbem serve starts");
    let mut nags = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while nags.is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(200));
        nags.extend(h.new_mails());
    }
    // Let the schedule fire a few more times.
    std::thread::sleep(std::time::Duration::from_millis(3500));
    nags.extend(h.new_mails());
    let stopped = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(stopped.success());
    let output = child.wait_with_output().expect("pbem serve stops");
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{log}");
    assert_eq!(
        nags.len(),
        1,
        "one reminder, however often the sweep runs: {nags:#?}\n{log}"
    );
    assert_eq!(nags[0].subject, "Nag: Chess Board 101 alice");
    let sweeps = log.matches("deadline sweep").count();
    assert!(sweeps >= 3, "the sweep ran {sweeps} times:\n{log}");
}

/// Issue 36: a vacation is told to the opponents of accepted running
/// games only, one mail per opponent naming every board the two share.
#[test]
fn a_vacation_tells_each_accepted_opponent_once_and_nobody_else() {
    const CAROL: &str = "carol@example.org";
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.signup("carol", CAROL);
    for opponent in ["bob", "bob", "carol"] {
        let made = h.send(
            ALICE,
            "new game",
            &format!("chess challenge alice alice-pw {opponent} --white"),
        );
        assert_eq!(made.len(), 2, "{made:#?}");
    }
    accept(&mut h);
    let accepted = h.send(BOB, "ok", "accept 102 bob bob-pw");
    assert_eq!(accepted.len(), 2, "{accepted:#?}");

    let away = h.send(ALICE, "away", "vacation alice alice-pw 10");
    let to_bob: Vec<_> = away.iter().filter(|m| m.to == BOB).collect();
    assert_eq!(to_bob.len(), 1, "one mail for both boards: {away:#?}");
    let body = &to_bob[0].body;
    assert!(body.contains("alice is on vacation for 10 days"), "{body}");
    assert!(
        body.contains("Board 101 (Chess)") && body.contains("Board 102 (Chess)"),
        "both shared boards are named: {body}"
    );
    assert!(
        away.iter().all(|m| m.to != CAROL),
        "a challenge Carol never accepted is no game of hers yet: {away:#?}"
    );
    assert_eq!(away.len(), 2, "Alice's own answer and Bob's: {away:#?}");

    // Carol has no accepted game: her vacation is told to her alone
    // (Bob's twin above was told).
    let alone = h.send(CAROL, "away", "vacation carol carol-pw 3");
    assert_eq!(alone.len(), 1, "{alone:#?}");
    assert_eq!(alone[0].to, CAROL);
    assert!(alone[0].body.contains("carol is on vacation for 3 days"));
}

/// `pbem tick --digest` as a process: the digest goes to the players
/// who chose it (`set mail digest`), never to those on `mail every`.
#[test]
fn the_digest_goes_only_to_players_who_chose_it() {
    let mut h = Harness::new();
    let start = board(&mut h);
    // Board 102: Bob White, to move once Alice accepts.
    let made = h.send(BOB, "new game", "chess challenge bob bob-pw alice --white");
    assert_eq!(made.len(), 2, "{made:#?}");
    let accepted = h.send(ALICE, "ok", "accept 102 alice alice-pw");
    assert_eq!(accepted.len(), 2, "{accepted:#?}");
    h.send(ALICE, "prefs", "set alice alice-pw mail digest");
    let tick = |h: &mut Harness, at: OffsetDateTime| {
        let at = at
            .format(&time::format_description::well_known::Rfc3339)
            .expect("formats");
        let report = h.run(&["--now", &at, "tick", "--digest"]);
        (report, h.new_mails())
    };

    let (report, digest) = tick(&mut h, start + days(2));
    assert!(report.contains("digest: 1 digests"), "{report}");
    assert_eq!(digest.len(), 1, "Bob is on `mail every`: {digest:#?}");
    assert_eq!(digest[0].to, ALICE);
    assert_eq!(digest[0].subject, "pbem digest for alice");

    // The twin: once Bob chooses the digest, he gets his.
    h.send(BOB, "prefs", "set bob bob-pw mail digest");
    let (_, digest) = tick(&mut h, start + days(3));
    let mut whom: Vec<&str> = digest.iter().map(|m| m.to.as_str()).collect();
    whom.sort();
    assert_eq!(whom, [ALICE, BOB], "{digest:#?}");
    assert!(
        to(&digest, BOB)
            .body
            .contains("Board 102 (Chess against alice)"),
        "{}",
        to(&digest, BOB).body
    );
}
