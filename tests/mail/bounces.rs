//! Bounces (issue 30 section 1): a DSN of a mail pbem sent marks the
//! address, stops the clocks of a player whose every address fails, tells
//! the opponent once; a forged one changes nothing; three transient ones
//! mark the address; the player's next mail clears it; `pbem status`.

use pbem_testkit::{ALICE, BOB, Harness, Sent, pbem_binary, tick, to};
use time::Duration;

/// A bounce as Postfix writes it (the form of
/// tests/fixtures/bounces/postfix-unknown-user.eml) of the mail
/// `message_id` to `recipient`, with `action` and `status`.
fn dsn(id: u32, message_id: &str, recipient: &str, action: &str, status: &str) -> Vec<u8> {
    let message_id = message_id.trim_matches(['<', '>']);
    format!(
        "Return-Path: <>\r\nDelivered-To: pbem@localhost\r\nFrom: Mail Delivery System <MAILER-DAEMON@mx.example.org>\r\n\
Subject: Undelivered Mail Returned to Sender\r\nTo: pbem@localhost\r\nAuto-Submitted: auto-replied\r\nMIME-Version: 1.0\r\n\
Message-Id: <bounce-{id}@mx.example.org>\r\n\
Content-Type: multipart/report; report-type=delivery-status; boundary=\"B\"\r\n\r\n\
--B\r\nContent-Type: text/plain\r\n\r\nYour mail could not be delivered.\r\n\r\n\
--B\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n\
Final-Recipient: rfc822; {recipient}\r\nAction: {action}\r\nStatus: {status}\r\nDiagnostic-Code: smtp; {status} mailbox trouble\r\n\r\n\
--B\r\nContent-Type: text/rfc822-headers\r\n\r\nFrom: pbem@localhost\r\nTo: {recipient}\r\nMessage-ID: <{message_id}>\r\nSubject: pbem\r\n\r\n\
--B--\r\n"
    )
    .into_bytes()
}

/// Alice and Bob on board 101, 1.e4 e5 (Bob's move accepted the
/// challenge): Alice to move. Alice's board mail.
fn alice_to_move(h: &mut Harness) -> Sent {
    let (alice, _) = h.alice_and_bob_on("chess");
    let mails = h.reply(&alice, ALICE, "e4");
    let bob = to(&mails, BOB).clone();
    let mails = h.reply(&bob, BOB, "e5");
    to(&mails, ALICE).clone()
}

/// Each address's delivery trouble (`address failing=F transient=T`) and
/// each pause (`pause player=P open=O`), a line each.
fn health(h: &Harness) -> String {
    let conn = h.database();
    let mut out = String::new();
    let mut rows = conn
        .prepare("SELECT address, failing, transient FROM address_health ORDER BY 1")
        .expect("query");
    for row in rows
        .query_map([], |r| {
            Ok(format!(
                "{} failing={} transient={}\n",
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?
            ))
        })
        .expect("rows")
    {
        out.push_str(&row.expect("row"));
    }
    let mut rows = conn
        .prepare("SELECT player_id, ends_at IS NULL FROM bounce_pauses ORDER BY id")
        .expect("query");
    for row in rows
        .query_map([], |r| {
            Ok(format!(
                "pause player={} open={}\n",
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?
            ))
        })
        .expect("rows")
    {
        out.push_str(&row.expect("row"));
    }
    out
}

fn lost_on_time(mails: &[Sent]) -> bool {
    mails.iter().any(|m| m.body.contains("lost on time"))
}

#[test]
fn a_permanent_bounce_stops_the_clock_tells_the_opponent_once_and_a_mail_clears_it() {
    let mut h = Harness::new();
    let alice = alice_to_move(&mut h);
    let bounced = h.deliver_raw(&dsn(1, &alice.message_id, ALICE, "failed", "5.1.1"));
    // The opponent is told, once; the bounce itself is never answered.
    assert_eq!(bounced.len(), 1, "{bounced:#?}");
    assert_eq!(bounced[0].to, BOB);
    assert!(
        bounced[0]
            .body
            .contains("Mail to alice cannot be delivered"),
        "{}",
        bounced[0].body
    );
    let rows = health(&h);
    assert!(
        rows.contains("alice@example.org failing=1 transient=0"),
        "{rows}"
    );
    assert!(rows.contains("pause player=1 open=1"), "{rows}");
    // A second bounce tells nobody again.
    assert!(
        h.deliver_raw(&dsn(2, &alice.message_id, ALICE, "failed", "5.1.1"))
            .is_empty()
    );
    // Far past the 21 days of the turn, within the 30-day pause: no loss.
    let paused_at = h.now;
    assert!(!lost_on_time(&h.sweep(paused_at + Duration::days(25))));
    // Alice writes from her confirmed address: the trouble is gone and
    // her clock runs again.
    h.now = paused_at + Duration::days(25);
    let answer = h.send(ALICE, "settings", "settings alice alice-pw");
    assert!(
        answer[0].body.contains("alice@example.org: ok"),
        "{}",
        answer[0].body
    );
    assert_eq!(health(&h), "pause player=1 open=0\n");
    assert!(lost_on_time(&h.sweep(paused_at + Duration::days(25 + 22))));
}

#[test]
fn without_a_bounce_the_same_sweep_forfeits() {
    let mut h = Harness::new();
    alice_to_move(&mut h);
    let at = h.now + Duration::days(25);
    assert!(lost_on_time(&h.sweep(at)));
}

#[test]
fn a_forged_bounce_changes_nothing() {
    let mut h = Harness::new();
    let alice = alice_to_move(&mut h);
    let before = h.game_state() + &health(&h);
    // A Message-ID pbem never sent; a recipient the mail did not go to; a
    // VERP address with a wrong MAC and no Message-ID.
    assert!(
        h.deliver_raw(&dsn(1, "<guess-1@localhost>", ALICE, "failed", "5.1.1"))
            .is_empty()
    );
    assert!(
        h.deliver_raw(&dsn(2, &alice.message_id, BOB, "failed", "5.1.1"))
            .is_empty()
    );
    let forged_verp = String::from_utf8(dsn(3, "x", ALICE, "failed", "5.1.1"))
        .expect("text")
        .replace(
            "Delivered-To: pbem@localhost",
            "Delivered-To: pbem+b1.20500.0123456789abcdef@localhost",
        )
        .replace("Message-ID: <x>\r\n", "");
    assert!(h.deliver_raw(forged_verp.as_bytes()).is_empty());
    assert_eq!(before, h.game_state() + &health(&h));
    assert_eq!(health(&h), "");
    // Its clock still runs.
    let at = h.now + Duration::days(25);
    assert!(lost_on_time(&h.sweep(at)));
}

#[test]
fn three_transient_bounces_of_three_mails_mark_the_address_failing() {
    let mut h = Harness::new();
    let alice1 = alice_to_move(&mut h);
    // The same mail's delay warning and failure count once.
    h.deliver_raw(&dsn(1, &alice1.message_id, ALICE, "delayed", "4.2.2"));
    h.deliver_raw(&dsn(2, &alice1.message_id, ALICE, "failed", "4.4.1"));
    assert_eq!(health(&h), "alice@example.org failing=0 transient=1\n");
    // Alice's own mail clears the count.
    let mails = h.reply(&alice1, ALICE, "Nf3");
    assert_eq!(health(&h), "");
    let mails = h.reply(to(&mails, BOB), BOB, "Nc6");
    let alice2 = to(&mails, ALICE).clone();
    // Mails that need no reply from Alice: her settings, twice.
    let alice3 = h.send(ALICE, "x", "settings alice alice-pw")[0].clone();
    let alice4 = h.send(ALICE, "x", "settings alice alice-pw")[0].clone();
    for (n, mail) in [&alice2, &alice3, &alice4].into_iter().enumerate() {
        let told = h.deliver_raw(&dsn(
            10 + n as u32,
            &mail.message_id,
            ALICE,
            "delayed",
            "4.2.2",
        ));
        // The third marks the address failing: Bob is told.
        assert_eq!(told.len(), usize::from(n == 2), "{told:#?}");
    }
    assert_eq!(
        health(&h),
        "alice@example.org failing=1 transient=3\npause player=1 open=1\n"
    );
}

#[test]
fn pbem_status_shows_the_outbox_the_failing_addresses_and_the_times() {
    let mut h = Harness::new();
    let alice = alice_to_move(&mut h);
    h.deliver_raw(&dsn(1, &alice.message_id, ALICE, "failed", "5.1.1"));
    let text = h.run(&["status"]);
    assert!(text.contains("outbox: 0 unsent"), "{text}");
    assert!(text.contains("held in back-off: 0"), "{text}");
    assert!(text.contains("failing addresses: 1"), "{text}");
    assert!(text.contains("alice@example.org (alice) since"), "{text}");
    assert!(
        text.contains("alice@example.org (alice) since") && text.contains(": 5.1.1"),
        "{text}"
    );
    assert!(text.contains("last inbound: 2026-"), "{text}");
    assert!(text.contains("last outbound: 2026-"), "{text}");
}

/// A real Postfix DSN: pbem's board mail to a player whose address is an
/// unknown user of a private Postfix instance (`postfix::Postfix`) is sent
/// over SMTP with its VERP sender; Postfix bounces it, and that DSN,
/// delivered to pbem, marks the address, stops the player's clock and
/// tells the opponent once. (The DSN is handed to the server's inbox, not
/// piped through `pbem process` by a `.forward`.)
#[test]
fn a_real_postfix_dsn_marks_the_address_and_stops_the_clock() {
    use pbem::mail::bounce::Verp;
    use pbem::mail::outbox::Outbox;
    use pbem::mail::transport::SmtpSender;
    use pbem::mail::transport::smtp::SmtpConfig;
    use pbem::mail::{Endpoint, Security};

    let postfix = super::postfix::Postfix::start();
    let mut h = Harness::with_config(|config| {
        config.service.address = super::postfix::server();
    });
    const GHOST: &str = "ghost@pbem.test";
    h.signup("alice", ALICE);
    h.signup("ghost", GHOST);
    let mails = h.send(
        ALICE,
        "new game",
        "chess challenge alice alice-pw ghost --white",
    );
    let mails = h.reply(to(&mails, ALICE), ALICE, "e4");
    let mails = h.reply(to(&mails, GHOST), GHOST, "e5");
    let alice = to(&mails, ALICE).clone();
    let mails = h.reply(&alice, ALICE, "Nf3");
    let ghost = to(&mails, GHOST).clone();
    // Ghost's board mail goes out again, this time to Postfix.
    let database = h.dir.path().join("pbem.sqlite3");
    let conn = rusqlite::Connection::open(&database).expect("database");
    let changed = conn
        .execute(
            "UPDATE outbox SET sent_at = NULL WHERE message_id = ?1",
            [format!("<{}>", ghost.message_id.trim_matches(['<', '>']))],
        )
        .expect("update");
    assert_eq!(changed, 1, "{}", ghost.message_id);
    let smtp = SmtpConfig {
        endpoint: Endpoint {
            host: "127.0.0.1".to_string(),
            port: postfix.port,
            security: Security::Plain,
            ca_file: None,
            timeout: std::time::Duration::from_secs(10),
        },
        login: None,
        reuse_connection: false,
    };
    let sender = SmtpSender::new(&smtp, &super::postfix::server()).expect("SMTP sender");
    let verp = Verp::new(
        super::postfix::server(),
        h.server.service().token_key().clone(),
    );
    let store = pbem::store::Store::open(&database).expect("store");
    let mut outbox = Outbox::new(Box::new(sender), &database, verp);
    assert_eq!(outbox.drain(&store, h.now).expect("Postfix takes it"), 1);
    let dsn = postfix.take_bounce();
    let told = h.deliver_raw(&dsn);
    assert_eq!(told.len(), 1, "{told:#?}");
    assert_eq!(told[0].to, ALICE);
    assert_eq!(
        health(&h),
        "ghost@pbem.test failing=1 transient=0\npause player=2 open=1\n"
    );
    let at = h.now + Duration::days(25);
    assert!(!lost_on_time(&h.sweep(at)));
}

/// Issue 30's proof end to end, with nothing handed over in-process: mail
/// reaches pbem only as the guide's `.forward` gives it, Postfix piping
/// each mail to the real `pbem process` (see
/// [`super::postfix::Postfix::start_piping_to`]), and pbem sends over SMTP
/// into the same Postfix. Alice's move, submitted to Postfix, makes pbem
/// send ghost his board mail; ghost has no mailbox, so Postfix bounces it
/// to the mail's VERP address, which Postfix pipes to `pbem process` too.
/// That real DSN marks ghost's address and pauses his clock (a `pbem tick`
/// run 25 days later forfeits nobody), and Alice is told once. A forged
/// DSN delivered the same way changes nothing.
#[test]
fn postfix_pipes_mail_and_its_real_dsn_to_pbem_process() {
    use std::os::unix::fs::chown;
    const ALICE_HERE: &str = "alice@pbem.test";
    const GHOST: &str = "ghost@pbem.test";
    const NOBODY: u32 = 65534;

    // The players and the game, made in-process as a past of the server's.
    let mut h = Harness::with_config(|config| {
        config.service.address = super::postfix::server();
    });
    h.now = time::OffsetDateTime::now_utc() - Duration::hours(1);
    h.signup("alice", ALICE_HERE);
    h.signup("ghost", GHOST);
    let mails = h.send(
        ALICE_HERE,
        "new game",
        "chess challenge alice alice-pw ghost --white",
    );
    let mails = h.reply(to(&mails, ALICE_HERE), ALICE_HERE, "e4");
    h.reply(to(&mails, GHOST), GHOST, "e5");
    let data = h.dir.path().to_path_buf();

    // pbem as the MTA runs it: its own configuration, mail on standard
    // input, mail out by SMTP to Postfix; the data directory is nobody's.
    let etc = tempfile::tempdir().expect("temp dir");
    let config = etc.path().join("pbem.toml");
    let log = etc.path().join("pbem.log");
    // Postfix picks its port at start, and the configuration written next
    // names it; the command Postfix runs reads that file at each mail.
    let command = format!(
        "{} --config {} --data-dir {} process",
        pbem_binary().display(),
        config.display(),
        data.display()
    );
    let postfix = super::postfix::Postfix::start_piping_to(&command);
    std::fs::write(
        &config,
        format!(
            "[server]\naddress = \"pbem@pbem.test\"\nlog_file = \"{}\"\n\
             [inbound]\nkind = \"stdin\"\n\
             [outbound]\nkind = \"smtp\"\nhost = \"127.0.0.1\"\nport = {}\nsecurity = \"plain\"\nreuse_connection = false\n\
             [web]\nlisten = \"\"\n",
            log.display(),
            postfix.port
        ),
    )
    .expect("config");
    std::fs::write(&log, b"").expect("log file");
    for path in walk(&data)
        .into_iter()
        .chain([etc.path().to_path_buf(), log.clone()])
    {
        chown(&path, Some(NOBODY), Some(NOBODY)).expect("chown");
    }

    // Alice moves by mail through Postfix.
    let before = postfix.delivered_to_pbem();
    postfix.submit(
        ALICE_HERE,
        "pbem@pbem.test",
        b"From: alice@pbem.test\r\nTo: pbem@pbem.test\r\nSubject: move\r\nMessage-ID: <alice-nf3@pbem.test>\r\n\r\nmove 101 alice alice-pw Nf3\r\n",
    );
    // Her mail, then ghost's bounce: two deliveries to pbem process.
    let database = data.join("pbem.sqlite3");
    let read_health = || {
        let conn = rusqlite::Connection::open(&database).expect("database");
        let failing: Vec<String> = conn
            .prepare("SELECT address FROM address_health WHERE failing = 1")
            .expect("query")
            .query_map([], |r| r.get(0))
            .expect("rows")
            .map(|row| row.expect("row"))
            .collect();
        let open_pauses: i64 = conn
            .query_row(
                "SELECT COUNT(*) FROM bounce_pauses WHERE ends_at IS NULL",
                [],
                |r| r.get(0),
            )
            .expect("count");
        (failing, open_pauses)
    };
    let start = std::time::Instant::now();
    while read_health().0.is_empty() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "no bounce marked ghost's address; pbem's log:\n{}\nPostfix's log:\n{}",
            std::fs::read_to_string(&log).unwrap_or_default(),
            postfix.log()
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(read_health(), (vec![GHOST.to_string()], 1));
    // Postfix logs the bounce's delivery once `pbem process` has exited,
    // which is after its commit: wait for that line too.
    while postfix.delivered_to_pbem() < before + 2 {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(90),
            "{}",
            postfix.log()
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    let log_text = postfix.log();
    assert!(log_text.contains("to=<ghost@pbem.test>"), "{log_text}");
    assert!(log_text.contains("status=bounced"), "{log_text}");
    // Alice got her board mail, and then word of ghost's trouble, once.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let told = |mails: &[String]| {
        mails
            .iter()
            .filter(|m| m.contains("Subject: pbem: mail to ghost bounces"))
            .count()
    };
    while told(&postfix.alice_mails()) == 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(
        told(&postfix.alice_mails()),
        1,
        "{:#?}\n{}",
        postfix.alice_mails(),
        postfix.log()
    );

    // A forged DSN through the same path: an unknown Message-ID for
    // Alice's address. Postfix delivers it; nothing changes.
    let delivered = postfix.delivered_to_pbem();
    let forged = dsn(90, "<never-sent@pbem.test>", ALICE_HERE, "failed", "5.1.1");
    postfix.submit("", "pbem+b1.20000.0011223344556677@pbem.test", &forged);
    let start = std::time::Instant::now();
    while postfix.delivered_to_pbem() == delivered {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "the forged DSN never reached pbem:\n{}",
            postfix.log()
        );
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    assert_eq!(read_health(), (vec![GHOST.to_string()], 1));

    // 25 days on, `pbem tick` (as cron runs it) forfeits nobody: ghost's
    // clock stands while his address fails.
    let report = tick(
        &data,
        Some(&config),
        time::OffsetDateTime::now_utc() + Duration::days(25),
    );
    let conn = rusqlite::Connection::open(&database).expect("database");
    let result: Option<String> = conn
        .query_row("SELECT result FROM boards WHERE number = 101", [], |r| {
            r.get(0)
        })
        .expect("board 101");
    assert_eq!(result, None, "{report}");
}

/// Every file and directory under `dir`, `dir` included.
fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut found = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                found.extend(walk(&path));
            } else {
                found.push(path);
            }
        }
    }
    found
}

/// Issue 36: the days a bounce stops the clocks are vacation days. With
/// 10 left in the year the clock stops 10 days, then runs; the notice to
/// the opponent says that in plain words and quotes neither the bounce's
/// diagnostic nor the address.
#[test]
fn a_bounce_pause_lasts_the_vacation_days_left_and_its_notice_quotes_nothing() {
    let mut h = Harness::with_config(|config| config.service.vacation_days_per_year = 10);
    let alice = alice_to_move(&mut h);
    let bounce = dsn(1, &alice.message_id, ALICE, "failed", "5.1.1");
    assert!(String::from_utf8_lossy(&bounce).contains("5.1.1 mailbox trouble"));
    let bounced = h.deliver_raw(&bounce);
    assert_eq!(bounced.len(), 1, "{bounced:#?}");
    let body = &bounced[0].body;
    assert!(
        body.contains("Mail to alice cannot be delivered.") && body.contains("for at most 10 days"),
        "{body}"
    );
    assert!(!body.contains("mailbox trouble"), "{body}");
    assert!(!body.contains(ALICE), "{body}");
    let paused_at = h.now;
    // 21 days to move and 10 of pause: not lost after 29 days, lost after 32.
    assert!(!lost_on_time(&h.sweep(paused_at + Duration::days(29))));
    assert!(lost_on_time(&h.sweep(paused_at + Duration::days(32))));
}

/// The days a bounce pause lasted are charged once (whole days begun) to
/// the yearly allowance the `vacation` command uses.
#[test]
fn a_bounce_pause_is_charged_to_the_yearly_vacation_allowance() {
    let mut h = Harness::new();
    let alice = alice_to_move(&mut h);
    assert_eq!(
        h.deliver_raw(&dsn(1, &alice.message_id, ALICE, "failed", "5.1.1"))
            .len(),
        1
    );
    // Alice writes again two and a half days later: 3 days are used.
    h.now += Duration::hours(60);
    let answer = h.send(ALICE, "vacation", "vacation alice alice-pw 28");
    assert!(
        answer[0]
            .body
            .contains("you have 27 vacation days left this year"),
        "{}",
        answer[0].body
    );
    assert_eq!(health(&h), "pause player=1 open=0\n");
}

/// Item 1 of issue 36: a player with two confirmed addresses, one of which
/// bounces, is told at the other what the status code means, in pbem's
/// words; the bounce's own words are not passed on, and with an address
/// that works the clocks do not stop and the opponent is not told.
#[test]
fn the_working_address_is_told_the_status_in_pbems_words_and_nothing_of_the_bounce() {
    const HOME: &str = "alice@home.example.org";
    let mut h = Harness::new();
    let alice = alice_to_move(&mut h);
    let mails = h.send(
        ALICE,
        "addresses",
        &format!("address alice alice-pw {ALICE} {HOME}"),
    );
    let confirmation = to(&mails, HOME).clone();
    h.confirm(&confirmation, HOME);
    let bounce = dsn(1, &alice.message_id, ALICE, "failed", "5.1.1");
    assert!(String::from_utf8_lossy(&bounce).contains("5.1.1 mailbox trouble"));
    let told = h.deliver_raw(&bounce);
    assert_eq!(told.len(), 1, "{told:#?}");
    assert_eq!(told[0].to, HOME);
    assert_eq!(
        told[0].subject,
        "pbem: mail to one of your addresses bounces"
    );
    let text = pbem_testkit::flat(&told[0].body);
    assert!(
        text.contains(&format!(
            "Mail from pbem to your address {ALICE} cannot be delivered: the mailbox does not exist (status 5.1.1). pbem now writes to you at {HOME}."
        )),
        "{text}"
    );
    assert!(!text.contains("mailbox trouble"), "{text}");
    assert!(!text.contains("mx.example.org"), "{text}");
    assert_eq!(health(&h), "alice@example.org failing=1 transient=0\n");
}
