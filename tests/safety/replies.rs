//! Every command works without userid and password in a reply to a mail
//! pbem sent the player (issue 24, finding 3): a stranger's wrong guesses
//! at a password must never lock its owner out, so `challenge`,
//! `vacation`, `address` and `password` also take their reply forms
//! (`challenge bob`, `vacation 5`, `address a@x b@y`, `password <new>`),
//! proven by the reply token from the player's own address. Through the
//! real Maildir and outbox: the forms work in replies to a board mail and
//! to a tournament mail; a reply from another address, or the same words
//! in a mail without a token, change nothing and say why.

use pbem_testkit::{ALICE, BOB, Harness, Sent, address, flat, to};

const STRANGER: &str = "x@evil.example";
const HOME: &str = "alice@home.example";

/// Every address a sent mail is to (the harness reads the first only).
fn recipients(mail: &Sent) -> Vec<String> {
    let raw = std::fs::read(&mail.file).expect("outbox file");
    let message = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("parseable mail");
    message
        .to()
        .into_iter()
        .chain(message.cc())
        .flat_map(|list| list.iter())
        .filter_map(|a| a.address())
        .map(str::to_string)
        .collect()
}

fn vacation_days_used(h: &Harness, userid: &str) -> i64 {
    h.count(&format!(
        "SELECT vacation_days_used FROM players WHERE userid = '{userid}'"
    ))
}

/// Whether `password` logs `userid` in (by `settings`, which changes
/// nothing).
fn logs_in(h: &mut Harness, from: &str, userid: &str, password: &str) -> bool {
    let answer = h.send(from, "settings", &format!("settings {userid} {password}"));
    assert!(!answer.is_empty(), "settings is answered");
    flat(&answer[0].body).contains(&format!("Settings of {userid}"))
}

/// Alice, Bob and Carol signed up, board 101 between Alice (White) and
/// Bob: the board mail to Alice.
fn board_mail_to_alice(h: &mut Harness) -> Sent {
    let (alice, _bob) = h.alice_and_bob_on("chess");
    h.signup("carol", &address("carol"));
    alice
}

/// Alice's notice of the event she created: a mail pbem sent her that
/// names no board (its reply token is for board 0).
fn tournament_mail_to_alice(h: &mut Harness) -> Sent {
    let created = h.send(
        ALICE,
        "new event",
        "tournament create alice alice-pw spring chess",
    );
    assert_eq!(created.len(), 1, "{created:#?}");
    assert!(created[0].subject.ends_with(": created"), "{created:#?}");
    assert!(created[0].reply_to.is_some(), "{created:#?}");
    created[0].clone()
}

/// Alice registers a second address, `HOME`, and confirms it.
fn second_address(h: &mut Harness) {
    let mails = h.send(
        ALICE,
        "addresses",
        &format!("address alice alice-pw {ALICE} {HOME}"),
    );
    let confirmation = to(&mails, HOME).clone();
    h.confirm(&confirmation, HOME);
    assert_eq!(addresses_of_alice(h), 2, "alice plays from two addresses");
}

fn addresses_of_alice(h: &Harness) -> i64 {
    h.count(
        "SELECT COUNT(*) FROM addresses a JOIN players p ON p.id = a.player_id WHERE p.userid = 'alice'",
    )
}

#[test]
fn challenge_vacation_address_and_password_work_in_a_reply_to_a_board_mail() {
    let mut h = Harness::new();
    let board_mail = board_mail_to_alice(&mut h);
    second_address(&mut h);

    // challenge <opponent> [options]
    let challenged = h.reply(&board_mail, ALICE, "challenge carol --black --days=3");
    let carol = flat(&to(&challenged, &address("carol")).body);
    assert!(carol.contains("alice"), "{carol}");
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 2);

    // vacation <days>
    let away = h.reply(&board_mail, ALICE, "vacation 5");
    assert!(
        flat(&to(&away, ALICE).body).contains("alice is on vacation for 5 days"),
        "{away:#?}"
    );
    assert_eq!(vacation_days_used(&h, "alice"), 5);

    // address <address...>: the first word holds an '@'
    let moved = h.reply(&board_mail, ALICE, &format!("address {ALICE}"));
    assert!(
        flat(&to(&moved, ALICE).body).contains("The addresses of alice were changed"),
        "{moved:#?}"
    );
    assert_eq!(addresses_of_alice(&h), 1, "{HOME} is left out");

    // password <new>: the notice goes to every registered address, the
    // new password is never quoted back.
    second_address(&mut h);
    let changed = h.reply(&board_mail, ALICE, "password brand-new-secret");
    let notice = to(&changed, ALICE);
    assert!(
        flat(&notice.body).contains("The password of alice was changed"),
        "{notice:#?}"
    );
    assert!(
        recipients(notice).contains(&HOME.to_string()),
        "every registered address hears of it: {notice:#?}"
    );
    assert!(
        changed.iter().all(|m| !m.body.contains("brand-new-secret")),
        "{changed:#?}"
    );
    assert!(logs_in(&mut h, ALICE, "alice", "brand-new-secret"));
    assert!(!logs_in(&mut h, ALICE, "alice", "alice-pw"));
}

#[test]
fn the_reply_forms_work_in_a_reply_to_a_tournament_mail() {
    let mut h = Harness::new();
    let _ = board_mail_to_alice(&mut h);
    let event = tournament_mail_to_alice(&mut h);

    let challenged = h.reply(&event, ALICE, "challenge carol");
    to(&challenged, &address("carol"));
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 2);

    let away = h.reply(&event, ALICE, "vacation 2");
    assert!(
        flat(&to(&away, ALICE).body).contains("alice is on vacation for 2 days"),
        "{away:#?}"
    );

    let moved = h.reply(&event, ALICE, &format!("address {ALICE} {HOME}"));
    assert!(
        moved
            .iter()
            .any(|m| m.to == HOME && m.subject.starts_with("confirm ")),
        "{moved:#?}"
    );

    let changed = h.reply(&event, ALICE, "password brand-new-secret");
    assert!(
        flat(&to(&changed, ALICE).body).contains("The password of alice was changed"),
        "{changed:#?}"
    );
    assert!(logs_in(&mut h, ALICE, "alice", "brand-new-secret"));
}

#[test]
fn a_reply_from_another_address_is_refused_and_changes_nothing() {
    // The forger hears of every attempt here: its answers are the subject,
    // not the stranger's mail ceiling (tests/safety/charge.rs).
    let mut h = Harness::with_config(|config| {
        config.service.sent.stranger.hour = 100;
        config.service.sent.stranger.day = 100;
    });
    let board_mail = board_mail_to_alice(&mut h);
    let event = tournament_mail_to_alice(&mut h);
    h.new_mails();
    let before = h.game_state();
    for mail in [&board_mail, &event] {
        for line in [
            "challenge carol".to_string(),
            "vacation 5".to_string(),
            format!("address {STRANGER}"),
            "password stolen-secret".to_string(),
        ] {
            for forger in [STRANGER, BOB] {
                let answers = h.reply(mail, forger, &line);
                assert_eq!(answers.len(), 1, "{line}: {answers:#?}");
                assert_eq!(answers[0].to, forger, "{answers:#?}");
                assert!(
                    flat(&answers[0].body).contains("not an address of alice"),
                    "{line}: {}",
                    answers[0].body
                );
                assert!(
                    !answers[0].body.contains("stolen-secret"),
                    "{}",
                    answers[0].body
                );
            }
        }
    }
    assert_eq!(h.game_state(), before);
    assert_eq!(h.count("SELECT COUNT(*) FROM address_claims"), 0);
    assert!(logs_in(&mut h, ALICE, "alice", "alice-pw"));
}

#[test]
fn the_reply_forms_in_a_mail_without_token_are_refused_with_what_to_do() {
    let mut h = Harness::new();
    let _ = board_mail_to_alice(&mut h);
    let before = h.game_state();
    for line in [
        "challenge carol",
        "vacation 5",
        "address alice@example.org",
        "password stolen-secret",
    ] {
        let answers = h.send(ALICE, "hello", line);
        assert_eq!(answers.len(), 1, "{line}: {answers:#?}");
        let text = flat(&answers[0].body);
        assert!(
            text.contains("must be a reply to a mail pbem sent you")
                && text.contains("give your userid and password"),
            "{line}: {text}"
        );
        assert!(!text.contains("stolen-secret"), "{text}");
    }
    assert_eq!(h.game_state(), before);
    assert!(logs_in(&mut h, ALICE, "alice", "alice-pw"));
}

#[test]
fn the_full_forms_still_work_and_a_password_like_an_option_is_a_password() {
    let mut h = Harness::new();
    let _ = board_mail_to_alice(&mut h);
    let changed = h.send(ALICE, "pw", "password alice alice-pw --odd-secret");
    assert!(
        flat(&to(&changed, ALICE).body).contains("The password of alice was changed"),
        "{changed:#?}"
    );
    // Userid, a password that looks like an option, then the opponent.
    let challenged = h.send(ALICE, "game", "challenge alice --odd-secret carol --white");
    to(&challenged, &address("carol"));
    assert!(
        challenged.iter().all(|m| !m.body.contains("--odd-secret")),
        "{challenged:#?}"
    );
    let away = h.send(ALICE, "away", "vacation alice --odd-secret 3");
    assert!(
        flat(&to(&away, ALICE).body).contains("alice is on vacation for 3 days"),
        "{away:#?}"
    );
    let moved = h.send(
        ALICE,
        "addresses",
        &format!("address alice --odd-secret {ALICE}"),
    );
    assert!(
        flat(&to(&moved, ALICE).body).contains("The addresses of alice were changed"),
        "{moved:#?}"
    );
}
