//! Hostile mail through the real Maildir, SQLite file and outbox: each
//! test reproduces one finding of the hardening issue (issue 10) and
//! checks that no mail stops the server, rolls back other people's mail,
//! or makes pbem write to a stranger.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

fn raw_from(from: &str, id: &str, body: &str) -> String {
    format!(
        "From: {from}\r\nTo: pbem@localhost\r\nSubject: hello\r\nMessage-ID: <{id}@x>\r\n\r\n{body}\r\n"
    )
}

#[test]
fn mail_from_an_address_pbem_cannot_write_to_is_recorded_and_the_batch_goes_on() {
    let mut h = Harness::new();
    let inbox = h.server.inbox().clone();
    let bad_senders = [
        "a@",
        "@b",
        "a@x..org",
        "a@x.org.",
        "\"a b\"@x.org",
        "<@relay:bob@x.org>",
        "a\0b@x.org",
        "a@[1.2.3.4]",
    ];
    for (i, from) in bad_senders.iter().enumerate() {
        inbox
            .deliver(raw_from(from, &format!("bad{i}"), "help").as_bytes())
            .expect("delivered");
    }
    inbox
        .deliver(raw_from(ALICE, "good", "help").as_bytes())
        .expect("delivered");
    let pass = h.pass();
    assert_eq!(pass.mails, bad_senders.len() + 1, "{pass:?}");
    assert_eq!(pass.ignored, bad_senders.len(), "{pass:?}");
    let mails = h.new_mails();
    assert_eq!(mails.len(), 1, "only alice is answered: {mails:#?}");
    assert_eq!(mails[0].to, ALICE);
    assert!(
        inbox.waiting().expect("inbox").is_empty(),
        "nothing is left"
    );
    // A restart finds nothing to do again.
    h.restart();
    assert_eq!(h.pass().mails, 0);
}

#[test]
fn addresses_are_checked_with_the_senders_rule_at_signup() {
    let mut h = Harness::new();
    for address in ["a@[1.2.3.4]", "a@x..org", "a@x.org.", "\"a b\"@x.org"] {
        let replies = h.send(ALICE, "hello", &format!("signup carol carol-pw9 {address}"));
        assert_eq!(replies.len(), 1, "{replies:#?}");
        assert!(
            replies[0].body.contains("not a mail address"),
            "{address}: {}",
            replies[0].body
        );
    }
    assert_eq!(h.count("SELECT COUNT(*) FROM players"), 0);
}

#[test]
fn the_same_address_twice_in_another_case_is_one_address() {
    let mut h = Harness::new();
    let replies = h.send(
        "eve@evil.org",
        "hello",
        "signup eve eve-secret eve@evil.org EVE@evil.org",
    );
    assert!(!replies.is_empty(), "an answer");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM players WHERE userid = 'eve'"),
        1
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM address_claims"), 1);
    // The server goes on with the next mail.
    let replies = h.send(BOB, "hello", "help");
    assert_eq!(to(&replies, BOB).to, BOB);
}

#[test]
fn vacation_days_near_the_u32_limit_are_refused_and_the_server_goes_on() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    let first = h.send(ALICE, "away", "vacation alice alice-pw 1");
    assert!(
        first[0].body.contains("alice is on vacation for 1 day,"),
        "{}",
        first[0].body
    );
    for days in ["4294967295", "4294967294", "99999999999"] {
        let replies = h.send(ALICE, "away", &format!("vacation alice alice-pw {days}"));
        assert_eq!(replies.len(), 1, "{replies:#?}");
        assert!(
            replies[0].body.contains("vacation days left")
                || replies[0].body.contains("days is far too many"),
            "{days}: {}",
            replies[0].body
        );
    }
    let replies = h.send(BOB, "hello", "help");
    assert_eq!(replies.len(), 1, "the server still answers");
}

/// A harness with the default (production) password minimum.
fn strict() -> Harness {
    Harness::with_config(|config| {
        config.service.min_password_length =
            pbem::service::ServiceConfig::default().min_password_length
    })
}

#[test]
fn a_squatted_address_gets_one_short_mail_and_its_owner_takes_it() {
    let mut h = Harness::new();
    const DAVE: &str = "dave@example.org";
    const MALLORY: &str = "mallory@example.net";
    let replies = h.send(
        MALLORY,
        "hello",
        "signup mallory buy-cheap-pills dave@example.org",
    );
    let to_dave: Vec<_> = replies.iter().filter(|m| m.to == DAVE).collect();
    assert_eq!(to_dave.len(), 1, "{replies:#?}");
    let confirmation = to_dave[0];
    assert!(
        confirmation.subject.starts_with("confirm "),
        "{}",
        confirmation.subject
    );
    for text in ["mallory", "pills"] {
        assert!(
            !confirmation.body.contains(text),
            "no text of the requester's: {}",
            confirmation.body
        );
    }
    // Mallory's games and chat never reach Dave.
    h.signup("bob", BOB);
    let board = h.send(
        MALLORY,
        "game",
        "chess challenge mallory buy-cheap-pills bob",
    );
    assert!(board.iter().all(|m| m.to != DAVE), "{board:#?}");
    let again = h.send(
        MALLORY,
        "hello",
        "address mallory buy-cheap-pills dave@example.org",
    );
    assert!(
        again.iter().all(|m| m.to != DAVE),
        "one mail a week: {again:#?}"
    );
    // Dave signs up himself: the claim does not block him.
    let own = h.send(DAVE, "hello", "signup dave dave-secret");
    assert_eq!(own.len(), 1, "{own:#?}");
    let welcome = h.confirm(&own[0], DAVE);
    assert_eq!(welcome[0].subject, "pbem signup dave");
    // Mallory's old code no longer confirms anything.
    let late = h.confirm(confirmation, DAVE);
    assert!(
        late[0].body.contains("no confirmation with this code"),
        "{}",
        late[0].body
    );
    assert_eq!(
        h.count(
            "SELECT COUNT(*) FROM addresses a JOIN players p ON p.id = a.player_id WHERE p.userid = 'dave' AND a.address = 'dave@example.org'"
        ),
        1
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM address_claims"), 0);
}

#[test]
fn a_code_confirms_only_from_its_own_address_and_addresses_are_capped() {
    let mut h = Harness::new();
    let replies = h.send(ALICE, "hello", "signup alice alice-pw");
    let forged = h.confirm(&replies[0], "mallory@example.net");
    assert!(
        forged[0].body.contains("no confirmation with this code"),
        "{}",
        forged[0].body
    );
    h.confirm(&replies[0], ALICE);
    let five = h.send(
        ALICE,
        "hello",
        "address alice alice-pw a1@x.org a2@x.org a3@x.org a4@x.org a5@x.org",
    );
    assert_eq!(five.len(), 1, "{five:#?}");
    assert!(
        five[0].body.contains("at most 4 addresses"),
        "{}",
        five[0].body
    );
}

#[test]
fn password_and_address_changes_are_told_to_every_registered_address() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    const WORK: &str = "alice@work.example";
    let claim = h.send(
        ALICE,
        "hello",
        &format!("address alice alice-pw {ALICE} {WORK}"),
    );
    let code = claim
        .iter()
        .find(|m| m.to == WORK)
        .expect("a confirmation")
        .clone();
    assert!(
        to(&claim, ALICE)
            .body
            .contains("were changed by a mail from")
    );
    h.confirm(&code, WORK);
    // A stranger who guessed the password changes it.
    let changed = h.send(
        "thief@evil.example",
        "hi",
        "password alice alice-pw stolen-password",
    );
    let told: Vec<&str> = changed.iter().map(|m| m.to.as_str()).collect();
    assert_eq!(changed.len(), 1, "{changed:#?}");
    let raw = std::fs::read_to_string(&changed[0].file).expect("mail");
    for address in [ALICE, WORK, "thief@evil.example"] {
        assert!(raw.contains(address), "{address} is told: {told:?}\n{raw}");
    }
}

#[test]
fn a_second_command_does_not_fold_the_notice_into_the_senders_answer() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    // One answer per mail must not keep the owner from hearing of it.
    let changed = h.send(
        "thief@evil.example",
        "hi",
        "password alice alice-pw stolen-password\nhelp",
    );
    let notice = changed
        .iter()
        .find(|m| m.subject == "pbem password changed")
        .unwrap_or_else(|| panic!("a notice: {changed:#?}"));
    let raw = std::fs::read_to_string(&notice.file).expect("mail");
    assert!(raw.contains(ALICE), "alice is told: {raw}");
    assert!(
        changed
            .iter()
            .all(|m| m.to == ALICE || m.to == "thief@evil.example"),
        "{changed:#?}"
    );
}

#[test]
fn passwords_are_at_least_eight_characters() {
    let mut h = strict();
    let short = h.send(ALICE, "hello", "signup alice 1234567");
    assert!(
        short[0].body.contains("at least 8 characters"),
        "{}",
        short[0].body
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM players"), 0);
}

#[test]
fn password_guessing_pauses_logins_but_not_the_owners_replies_and_tells_nothing() {
    // The guesser hears of every guess here: its answers are the subject,
    // not the stranger's mail ceiling (tests/safety/charge.rs).
    let mut h = Harness::with_config(|config| {
        config.service.sent.stranger.hour = 100;
        config.service.sent.stranger.day = 100;
    });
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let board = h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    let unknown = h.send("x@evil.example", "g", "draw 101 nobody guess");
    let wrong = h.send("x@evil.example", "g", "draw 101 alice guess");
    let reason = |mail: &Sent| {
        mail.body
            .lines()
            .find(|l| l.contains("userid or password"))
            .map(|l| l.replace("nobody", "X").replace("alice", "X"))
    };
    assert_eq!(
        reason(&unknown[0]),
        reason(&wrong[0]),
        "{}\n{}",
        unknown[0].body,
        wrong[0].body
    );
    for n in 0..8 {
        h.send("x@evil.example", "g", &format!("draw 101 alice guess{n}"));
    }
    // Logins from strangers pause, even with the right password, and
    // from any other stranger's address too.
    for stranger in ["x@evil.example", "y@other.example"] {
        let paused = h.send(stranger, "t", "move 101 alice alice-pw e4");
        assert!(
            paused[0].body.contains("too many wrong passwords"),
            "{}",
            paused[0].body
        );
    }
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 0);
    // The owner's reply to a board mail still plays, and so does the
    // owner's password from the owner's own address (issue 24).
    let played = h.reply(to(&board, ALICE), ALICE, "e4");
    assert_eq!(played.len(), 2, "{played:#?}");
    let played = h.send(BOB, "t", "move 101 bob bob-pw e5");
    assert_eq!(played.len(), 2, "{played:#?}");
    let played = h.send(ALICE, "t", "move 101 alice alice-pw Nf3");
    assert_eq!(played.len(), 2, "{played:#?}");
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 3);
}

#[test]
fn forged_mail_over_the_ceilings_never_locks_a_player_out() {
    let mut h = Harness::with_config(|config| {
        config.service.mails_per_sender_per_hour = 5;
        config.service.mails_per_domain_per_hour = 8;
        config.service.mails_per_hour = 1000;
    });
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let board = h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    // Forged as alice, and from many addresses of one domain.
    let inbox = h.server.inbox().clone();
    for n in 0..10 {
        let raw = format!(
            "From: {ALICE}\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <f{n}@x>\r\n\r\nhelp\r\n"
        );
        inbox.deliver(raw.as_bytes()).expect("delivered");
        let raw = format!(
            "From: s{n}@evil.example\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <e{n}@x>\r\n\r\nhelp\r\n"
        );
        inbox.deliver(raw.as_bytes()).expect("delivered");
    }
    h.pass();
    let flood = h.new_mails();
    let to_evil: Vec<&str> = flood
        .iter()
        .filter(|m| m.to.ends_with("@evil.example"))
        .map(|m| m.to.as_str())
        .collect();
    assert_eq!(to_evil.len(), 8, "the domain ceiling: {to_evil:#?}");
    // Alice's reply and her password still act.
    let played = h.reply(to(&board, ALICE), ALICE, "e4");
    assert_eq!(played.len(), 2, "{played:#?}");
    let by_password = h.send(BOB, "t", "move 101 bob bob-pw e5");
    assert_eq!(by_password.len(), 2, "{by_password:#?}");
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 2);
}

#[test]
fn subscriptions_need_a_password_and_reach_registered_addresses_only() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    let refused = h.send(
        "mallory@example.net",
        "s",
        "subscribe 101 victim@example.com",
    );
    assert!(
        refused[0].body.contains("userid and password"),
        "{}",
        refused[0].body
    );
    let forged = h.send(
        "victim@example.com",
        "s",
        "subscribe 101 victim@example.com",
    );
    assert!(
        forged.iter().all(|m| !m.body.contains("now receives")),
        "{forged:#?}"
    );
    assert_eq!(h.count("SELECT COUNT(*) FROM observers"), 0);
}

#[test]
fn a_chat_message_is_capped() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    let long = "x".repeat(1001);
    let refused = h.send(ALICE, "c", &format!("chat 101 alice alice-pw {long}"));
    assert_eq!(refused.len(), 1, "{refused:#?}");
    assert!(
        refused[0].body.contains("up to 1000 characters"),
        "{}",
        refused[0].body
    );
}

#[test]
fn a_mail_over_the_size_limit_is_answered_from_its_head() {
    let mut h = Harness::new();
    let inbox = h.server.inbox().clone();
    let mut raw = format!(
        "From: {ALICE}\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <big@x>\r\n\r\n"
    )
    .into_bytes();
    raw.resize(8 * 1024 * 1024, b'x');
    let path = inbox.deliver(&raw).expect("delivered");
    let (head, size) =
        pbem::mail::maildir::Maildir::read(&path, 256 * 1024, 64 * 1024).expect("read");
    assert_eq!(
        (head.len(), size),
        (64 * 1024, 8 * 1024 * 1024),
        "only the head is read"
    );
    h.pass();
    let replies = h.new_mails();
    assert_eq!(replies.len(), 1, "{replies:#?}");
    assert!(
        replies[0].body.contains("8388608 bytes long"),
        "{}",
        replies[0].body
    );
}

#[test]
fn a_message_id_reused_by_another_sender_does_not_drop_that_mail() {
    let mut h = Harness::new();
    let first = h.send_with_id(
        "mallory@example.net",
        "pbem@localhost",
        "hi",
        "help",
        "<same@x>",
    );
    assert_eq!(first.len(), 1);
    let second = h.send_with_id(ALICE, "pbem@localhost", "hi", "help", "<same@x>");
    assert_eq!(second.len(), 1, "alice's mail is handled");
    assert_eq!(second[0].to, ALICE);
    let again = h.send_with_id(ALICE, "pbem@localhost", "hi", "help", "<same@x>");
    assert!(again.is_empty(), "the same mail again is still a duplicate");
}

#[test]
fn a_long_message_id_makes_no_over_long_header_line() {
    let mut h = Harness::new();
    let id = format!("<{}@x>", "a".repeat(5000));
    let replies = h.send_with_id(ALICE, "pbem@localhost", "hi", "help", &id);
    assert_eq!(replies.len(), 1);
    let raw = std::fs::read(&replies[0].file).expect("mail");
    for line in raw.split(|b| *b == b'\n') {
        assert!(line.len() <= 998, "a line of {} bytes", line.len());
    }
}

#[test]
fn mail_the_mail_server_marks_forged_is_not_answered() {
    let mut h = Harness::with_config(|config| {
        config.service.trusted_authserv_id = Some("mx.pbem.example".into());
    });
    let forged = format!(
        "Authentication-Results: mx.pbem.example; dmarc=fail header.from=example.org\r\nFrom: {ALICE}\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <forged@x>\r\n\r\nhelp\r\n"
    );
    assert!(h.deliver_raw(forged.as_bytes()).is_empty());
    let genuine = format!(
        "Authentication-Results: mx.pbem.example; dmarc=pass header.from=example.org\r\nFrom: {ALICE}\r\nTo: pbem@localhost\r\nSubject: hi\r\nMessage-ID: <genuine@x>\r\n\r\nhelp\r\n"
    );
    let answered = h.deliver_raw(genuine.as_bytes());
    assert_eq!(answered.len(), 1, "{answered:#?}");
}

#[test]
fn old_records_are_pruned_but_exactly_once_holds_within_their_time() {
    let mut h = Harness::new();
    let first = h.send_with_id(ALICE, "pbem@localhost", "hi", "help", "<old@x>");
    assert_eq!(first.len(), 1);
    let path = h.dir.path().join("pbem.sqlite3");
    let db = move || rusqlite::Connection::open(&path).expect("db");
    let count = |sql: &str| -> i64 { db().query_row(sql, [], |row| row.get(0)).expect(sql) };
    let at = h.now + time::Duration::days(29);
    let mut service = pbem::service::Service::new(
        pbem::store::Store::open(&h.dir.path().join("pbem.sqlite3")).expect("store"),
        h.config.service.clone(),
    )
    .expect("service");
    service.prune(at).expect("prune");
    assert_eq!(
        count("SELECT COUNT(*) FROM processed"),
        1,
        "kept for 30 days"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM outbox"),
        1,
        "sent mail goes after 7 days, but for the newest (its id must not come back)"
    );
    // A new mail gets a new outbox id, so no outbox file is overwritten.
    let next = h.send(ALICE, "hi", "help");
    assert_eq!(count("SELECT MAX(id) FROM outbox"), 2, "{next:#?}");
    service.prune(at + time::Duration::days(2)).expect("prune");
    assert_eq!(
        count("SELECT COUNT(*) FROM processed"),
        0,
        "gone after 30 days"
    );
}

#[test]
fn a_weak_token_secret_is_refused() {
    let dir = tempfile::tempdir().expect("dir");
    let store = pbem::store::Store::open(&dir.path().join("db")).expect("store");
    let config = pbem::service::ServiceConfig {
        token_secret: Some("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".into()),
        ..Default::default()
    };
    assert!(matches!(
        pbem::service::Service::new(store, config),
        Err(pbem::service::ServiceError::WeakSecret)
    ));
}

#[test]
fn a_withdrawn_claim_still_counts_against_the_weekly_mail() {
    let mut h = Harness::new();
    h.signup("mallory", "mallory@example.net");
    const VICTIM: &str = "victim@victim.example";
    let mut to_victim = 0;
    for body in [
        format!("address mallory mallory-pw mallory@example.net {VICTIM}"),
        "address mallory mallory-pw mallory@example.net other@victim.example".to_string(),
        format!("address mallory mallory-pw mallory@example.net {VICTIM}"),
        format!("signup sock sock-password {VICTIM}"),
    ] {
        let replies = h.send("mallory@example.net", "hi", &body);
        to_victim += replies.iter().filter(|m| m.to == VICTIM).count();
    }
    assert_eq!(
        to_victim, 1,
        "one mail a week to an address that did not confirm"
    );
}

#[test]
fn a_mail_that_fails_alone_is_recorded_and_answered_and_the_rest_of_its_batch_commits() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    // A stored game that no longer replays (a bug, or a hand-edited row).
    let db = h.database();
    db.execute(
        "INSERT INTO turns (board, seq, text, player_id, played_at) VALUES (101, 1, 'Ke8', 1, '2026-03-01T12:00:00Z')",
        [],
    )
    .expect("a corrupt turn");
    drop(db);
    let inbox = h.server.inbox().clone();
    inbox
        .deliver(raw_from(ALICE, "corrupt", "show 101").as_bytes())
        .expect("delivered");
    inbox
        .deliver(raw_from(BOB, "fine", "help").as_bytes())
        .expect("delivered");
    let pass = h.pass();
    assert_eq!((pass.mails, pass.ignored), (2, 0), "{pass:?}");
    let mails = h.new_mails();
    assert_eq!(mails.len(), 2, "{mails:#?}");
    // Alice learns that her mail was not handled; Bob gets his answer.
    let to_alice: Vec<&Sent> = mails.iter().filter(|m| m.to == ALICE).collect();
    assert_eq!(to_alice.len(), 1, "{mails:#?}");
    assert_eq!(to_alice[0].subject, "pbem Error");
    assert!(
        to_alice[0].body.contains("could not be handled"),
        "{}",
        to_alice[0].body
    );
    assert!(mails.iter().any(|m| m.to == BOB), "{mails:#?}");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM processed WHERE message_id = 'corrupt@x'"),
        1
    );
}

#[test]
fn numbers_from_mail_past_their_range_are_refused_and_change_nothing() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    for option in [
        "--days=4294967296",
        "--nag=4294967295",
        "--forfeit=99999999999999999999",
    ] {
        let replies = h.send(
            ALICE,
            "game",
            &format!("chess challenge alice alice-pw bob {option}"),
        );
        assert_eq!(replies.len(), 1, "{option}: {replies:#?}");
        assert!(
            replies[0].body.contains("give a number of days from 1 to"),
            "{}",
            replies[0].body
        );
    }
    assert_eq!(h.count("SELECT COUNT(*) FROM boards"), 0);
    h.send(ALICE, "game", "chess challenge alice alice-pw bob --white");
    for guard in ["4294967295", "4294967296", "99999999999999999999"] {
        let replies = h.send(ALICE, "t", &format!("move 101 alice alice-pw e4#{guard}"));
        assert_eq!(replies.len(), 1, "{guard}: {replies:#?}");
    }
    assert_eq!(h.count("SELECT COUNT(*) FROM turns"), 0);
    let show = h.send(BOB, "s", "show 101#4294967295");
    assert_eq!(show.len(), 1, "{show:#?}");
}

#[test]
fn the_sent_mail_record_of_a_long_finished_board_is_pruned_and_an_active_boards_kept() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    assert_eq!(
        h.send(ALICE, "game", "chess challenge alice alice-pw bob --white")
            .len(),
        2
    );
    assert_eq!(
        h.send(ALICE, "game", "chess challenge alice alice-pw bob --white")
            .len(),
        2
    );
    assert_eq!(h.send(BOB, "resign", "resign 101 bob bob-pw").len(), 2);
    let path = h.dir.path().join("pbem.sqlite3");
    let count = |board: u32| -> i64 {
        rusqlite::Connection::open(&path)
            .expect("db")
            .query_row(
                "SELECT COUNT(*) FROM sent_mails WHERE board = ?1",
                [board],
                |row| row.get(0),
            )
            .expect("count")
    };
    assert!(count(101) > 0 && count(102) > 0);
    let mut service = pbem::service::Service::new(
        pbem::store::Store::open(&path).expect("store"),
        h.config.service.clone(),
    )
    .expect("service");
    service
        .prune(h.now + time::Duration::days(29))
        .expect("prune");
    assert!(
        count(101) > 0,
        "a board finished 29 days ago is still answered in its thread"
    );
    service
        .prune(h.now + time::Duration::days(31))
        .expect("prune");
    assert_eq!(count(101), 0, "gone 30 days after the game ended");
    assert!(
        count(102) > 0,
        "an active board keeps its threads however old"
    );
}

#[test]
fn a_signup_never_confirmed_frees_its_userid_once_its_claims_lapse() {
    let mut h = Harness::new();
    h.signup("alice", ALICE);
    // Mallory signs up as "carol" with an address she cannot confirm.
    let squat = h.send(
        "mallory@example.net",
        "hello",
        "signup carol carol-secret carol@example.org",
    );
    assert_eq!(squat.len(), 2, "{squat:#?}");
    let path = h.dir.path().join("pbem.sqlite3");
    let players = || -> Vec<String> {
        let db = rusqlite::Connection::open(&path).expect("db");
        let mut query = db
            .prepare("SELECT userid FROM players ORDER BY userid")
            .expect("query");
        query
            .query_map([], |row| row.get(0))
            .expect("rows")
            .map(|row| row.expect("row"))
            .collect()
    };
    assert_eq!(players(), ["alice", "carol"]);
    let mut service = pbem::service::Service::new(
        pbem::store::Store::open(&path).expect("store"),
        h.config.service.clone(),
    )
    .expect("service");
    service
        .prune(h.now + time::Duration::days(6))
        .expect("prune");
    assert_eq!(players(), ["alice", "carol"], "her claim is still open");
    service
        .prune(h.now + time::Duration::days(8))
        .expect("prune");
    assert_eq!(players(), ["alice"], "no address, no claim, no game: gone");
}
