//! Refusals at RCPT TO (issue 36): pbem sends over SMTP to the tests' SMTP
//! listener (`servers`), told to refuse a recipient at RCPT TO. A 5xx
//! refusal is a bounce of that address (marked failing, the player's
//! clocks stop as vacation, the opponent told once), and the mail goes to
//! the player's working address or is given up and listed by `pbem
//! status`; a 4xx refusal is retried, and counts as a transient bounce
//! only once the mail has waited [`GREYLIST_GRACE`]; a refusal at MAIL FROM
//! or DATA stays a transport failure. Time is the harness's fixed time,
//! handed to each drain of the outbox.

use pbem::config::Outbound;
use pbem::mail::outbox::GREYLIST_GRACE;
use pbem::mail::transport::smtp::SmtpConfig;
use pbem::mail::{Endpoint, Secret, Security};
use pbem::server::TimeSource;
use pbem_testkit::{ALICE, BOB, Harness, Sent, flat, to};
use time::{Duration, OffsetDateTime};

use super::servers::{MailServers, Options};

const BOB2: &str = "bob2@example.org";
const UNKNOWN: &str = r#"{"rcpt": {"bob": "550 5.1.1 User unknown"}}"#;
const GREYLISTED: &str = r#"{"rcpt": {"bob": "450 4.2.0 greylisted, try again later"}}"#;

/// The listener's users, and a harness whose game is set up with the
/// directory transport (its mails read from files): Alice and Bob on
/// board 101, 1.e4 e5, Alice to move; her board mail. With `bob2`, Bob
/// has confirmed a second address, `bob2@example.org`.
fn game(bob2: bool) -> (MailServers, Harness, Sent) {
    let servers = MailServers::start(&["alice", "bob", "bob2"], Options::default());
    let mut h = Harness::new();
    let (alice, _) = h.alice_and_bob_on("chess");
    let mails = h.reply(&alice, ALICE, "e4");
    let bob = to(&mails, BOB).clone();
    let mails = h.reply(&bob, BOB, "e5");
    let alice = to(&mails, ALICE).clone();
    if bob2 {
        let mails = h.send(
            BOB,
            "addresses",
            &format!("address bob bob-pw {BOB} {BOB2}"),
        );
        let confirmation = to(&mails, BOB2).clone();
        h.confirm(&confirmation, BOB2);
    }
    (servers, h, alice)
}

/// From now on the harness sends over SMTP to the listener (a restart:
/// the outbox forgets which mails it held back).
fn over_smtp(h: &mut Harness, servers: &MailServers) {
    let pbem = servers.user("pbem");
    h.config.outbound = Outbound::Smtp(Box::new(SmtpConfig {
        endpoint: Endpoint {
            host: "127.0.0.1".to_string(),
            port: servers.smtp.port,
            security: Security::Plain,
            ca_file: None,
            timeout: std::time::Duration::from_secs(10),
        },
        login: Some((pbem.name.clone(), Secret::new(pbem.password.clone()))),
        reuse_connection: false,
    }));
    h.restart();
}

/// Drains the outbox as of `at` after a restart (so that a mail held back
/// is tried at once); how many were sent.
fn drain_at(h: &mut Harness, at: OffsetDateTime) -> usize {
    h.restart();
    h.server
        .drain(TimeSource::Fixed(at))
        .expect("the outbox drains")
}

/// Each address's trouble and each pause, a line each.
fn health(h: &Harness) -> String {
    let conn = h.database();
    let mut out = String::new();
    let mut rows = conn
        .prepare("SELECT address, failing, transient, diagnostic FROM address_health ORDER BY 1")
        .expect("query");
    let lines = rows
        .query_map([], |r| {
            Ok(format!(
                "{} failing={} transient={} status={}\n",
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, i64>(2)?,
                r.get::<_, Option<String>>(3)?.unwrap_or_default(),
            ))
        })
        .expect("rows");
    for line in lines {
        out.push_str(&line.expect("row"));
    }
    let pauses = h.count("SELECT COUNT(*) FROM bounce_pauses WHERE ends_at IS NULL");
    out.push_str(&format!("open pauses={pauses}\n"));
    out
}

/// The mails in the outbox table to `address` (sent or not): subject and
/// text of each.
fn mails_to(h: &Harness, address: &str) -> Vec<(String, String)> {
    let conn = h.database();
    let mut rows = conn
        .prepare(
            "SELECT message FROM outbox JOIN outbox_message USING (id)
             WHERE recipients = ?1 ORDER BY id",
        )
        .expect("query");
    rows.query_map([address], |r| r.get::<_, Vec<u8>>(0))
        .expect("rows")
        .map(|raw| {
            let raw = raw.expect("row");
            let parsed = mail_parser::MessageParser::default()
                .parse(&raw)
                .expect("a mail");
            (
                parsed.subject().unwrap_or("").to_string(),
                parsed.body_text(0).unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// How many times the listener accepted a mail for `address`.
fn accepted_for(servers: &MailServers, address: &str) -> usize {
    servers
        .journal()
        .iter()
        .filter(|(recipient, _)| recipient == address)
        .count()
}

fn unsent(h: &Harness) -> i64 {
    h.count("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL AND given_up_at IS NULL")
}

#[test]
fn a_5xx_at_rcpt_to_marks_the_address_pauses_tells_once_and_gives_the_mail_up() {
    let (servers, mut h, alice) = game(false);
    over_smtp(&mut h, &servers);
    servers.refuse(UNKNOWN);
    // Alice's move sends Bob his board mail: refused at RCPT TO.
    h.reply(&alice, ALICE, "Nf3");
    assert_eq!(
        health(&h),
        "bob@example.org failing=1 transient=0 status=5.1.1\nopen pauses=1\n"
    );
    let told: Vec<_> = mails_to(&h, ALICE)
        .into_iter()
        .filter(|(subject, _)| subject == "pbem: mail to bob bounces")
        .collect();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(
        told[0].1.contains("Mail to bob cannot be delivered"),
        "{told:#?}"
    );
    assert!(!told[0].1.contains("User unknown"), "{told:#?}");
    assert!(!told[0].1.contains(BOB), "{told:#?}");
    // Alice's notice went out; Bob's mail is given up, not retried.
    assert!(accepted_for(&servers, ALICE) >= 1);
    assert_eq!(accepted_for(&servers, BOB), 0);
    assert_eq!(unsent(&h), 0);
    let later = h.now + Duration::hours(1);
    assert_eq!(drain_at(&mut h, later), 0);
    let status = h.run(&["status"]);
    assert!(status.contains("given up: 1"), "{status}");
    assert!(status.contains(&format!("to {BOB} (")), "{status}");
    assert!(
        status.contains("no other address of its player works"),
        "{status}"
    );
    // The pause is vacation: 25 days later Bob has not lost on time.
    h.server
        .sweep(TimeSource::Fixed(h.now + Duration::days(25)))
        .expect("the sweep");
    assert_eq!(
        h.count("SELECT COUNT(*) FROM boards WHERE result IS NOT NULL"),
        0
    );
}

#[test]
fn a_4xx_at_rcpt_to_is_retried_and_counts_only_after_the_greylisting_grace() {
    let (servers, mut h, alice) = game(false);
    over_smtp(&mut h, &servers);
    servers.refuse(GREYLISTED);
    h.reply(&alice, ALICE, "Nf3");
    let queued = h.now;
    assert_eq!(health(&h), "open pauses=0\n");
    assert_eq!(unsent(&h), 1, "Bob's board mail waits");
    // Tried again within the grace: still nothing counted.
    assert_eq!(drain_at(&mut h, queued + Duration::hours(1)), 0);
    assert_eq!(health(&h), "open pauses=0\n");
    let status = h.run(&["status"]);
    assert!(status.contains("held in back-off: 1"), "{status}");
    assert!(status.contains("RCPT TO"), "{status}");
    // Past the grace, unaccepted still: one transient bounce, no more
    // however often it is tried.
    let late = queued + GREYLIST_GRACE + Duration::minutes(5);
    assert_eq!(drain_at(&mut h, late), 0);
    assert_eq!(drain_at(&mut h, late + Duration::hours(1)), 0);
    assert_eq!(
        health(&h),
        "bob@example.org failing=0 transient=1 status=4.2.0\nopen pauses=0\n"
    );
    assert_eq!(unsent(&h), 1, "still retried");
    // Once the listener takes it, it is sent.
    servers.refuse("{}");
    assert_eq!(drain_at(&mut h, late + Duration::hours(2)), 1);
    assert_eq!(accepted_for(&servers, BOB), 1);
    assert_eq!(unsent(&h), 0);
}

#[test]
fn a_refusal_at_mail_from_or_data_stays_a_transport_failure() {
    for rules in [
        r#"{"mail": "550 5.7.1 sender refused"}"#,
        r#"{"data": "554 5.6.0 content refused"}"#,
    ] {
        let (servers, mut h, alice) = game(false);
        over_smtp(&mut h, &servers);
        servers.refuse(rules);
        let before = h.count("SELECT COALESCE(MAX(id), 0) FROM outbox");
        h.reply(&alice, ALICE, "Nf3");
        let queued = h.count(&format!("SELECT COUNT(*) FROM outbox WHERE id > {before}"));
        assert!(queued >= 1, "{rules}");
        assert_eq!(health(&h), "open pauses=0\n", "{rules}");
        assert_eq!(unsent(&h), queued, "{rules}: retried, not given up");
        let status = h.run(&["status"]);
        assert!(
            status.contains(&format!("held in back-off: {queued}")),
            "{rules}: {status}"
        );
        assert!(status.contains("given up: 0"), "{rules}: {status}");
        // The twin: the same mail once the server takes it.
        servers.refuse("{}");
        let later = h.now + Duration::hours(1);
        assert_eq!(drain_at(&mut h, later), queued as usize, "{rules}");
        assert_eq!(accepted_for(&servers, BOB), 1, "{rules}");
    }
}

#[test]
fn a_5xx_at_rcpt_to_sends_the_mail_to_the_working_address_and_explains_the_code() {
    let (servers, mut h, alice) = game(true);
    over_smtp(&mut h, &servers);
    servers.refuse(UNKNOWN);
    h.reply(&alice, ALICE, "Nf3");
    assert_eq!(
        health(&h),
        "bob@example.org failing=1 transient=0 status=5.1.1\nopen pauses=0\n",
        "an address still works: no pause"
    );
    // The board mail went to Bob's other address, with the notice.
    assert_eq!(accepted_for(&servers, BOB), 0);
    assert_eq!(accepted_for(&servers, BOB2), 2, "{:#?}", servers.journal());
    let notices: Vec<_> = mails_to(&h, BOB2)
        .into_iter()
        .filter(|(subject, _)| subject == "pbem: mail to one of your addresses bounces")
        .collect();
    assert_eq!(notices.len(), 1, "{notices:#?}");
    let text = &flat(&notices[0].1);
    assert!(
        text.contains("the mailbox does not exist (status 5.1.1)"),
        "{text}"
    );
    assert!(!text.contains("User unknown"), "{text}");
    // Alice is not told: Bob can still be reached.
    assert!(
        mails_to(&h, ALICE)
            .iter()
            .all(|(subject, _)| !subject.contains("bounces"))
    );
    assert_eq!(unsent(&h), 0);
    let status = h.run(&["status"]);
    assert!(status.contains("given up: 0"), "{status}");
}

/// The same 5xx through a real Postfix: its smtpd refuses an unknown user
/// at RCPT TO (Postfix's own `550 5.1.1` answer), which marks ghost's
/// address, stops his clock and tells Alice once; his mail is given up.
#[test]
fn a_real_postfix_refusing_an_unknown_user_at_rcpt_to_is_a_bounce() {
    let postfix = super::postfix::Postfix::start_refusing_unknown();
    let mut h = Harness::with_config(|config| {
        config.service.address = super::postfix::server();
    });
    const ALICE_HERE: &str = "alice@pbem.test";
    const GHOST: &str = "ghost@pbem.test";
    h.signup("alice", ALICE_HERE);
    h.signup("ghost", GHOST);
    let mails = h.send(
        ALICE_HERE,
        "new game",
        "chess challenge alice alice-pw ghost --white",
    );
    let mails = h.reply(to(&mails, ALICE_HERE), ALICE_HERE, "e4");
    let mails = h.reply(to(&mails, GHOST), GHOST, "e5");
    let alice = to(&mails, ALICE_HERE).clone();
    h.config.outbound = Outbound::Smtp(Box::new(SmtpConfig {
        endpoint: Endpoint {
            host: "127.0.0.1".to_string(),
            port: postfix.port,
            security: Security::Plain,
            ca_file: None,
            timeout: std::time::Duration::from_secs(10),
        },
        login: None,
        reuse_connection: false,
    }));
    h.restart();
    // Alice's move sends ghost his board mail, into Postfix.
    h.reply(&alice, ALICE_HERE, "Nf3");
    assert_eq!(
        health(&h),
        "ghost@pbem.test failing=1 transient=0 status=5.1.1\nopen pauses=1\n",
        "{}",
        postfix.log()
    );
    let told: Vec<_> = mails_to(&h, ALICE_HERE)
        .into_iter()
        .filter(|(subject, _)| subject == "pbem: mail to ghost bounces")
        .collect();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(!told[0].1.contains("User unknown"), "{told:#?}");
    assert!(!told[0].1.contains(GHOST), "{told:#?}");
    assert_eq!(unsent(&h), 0);
    assert_eq!(
        h.count("SELECT COUNT(*) FROM outbox WHERE given_up_at IS NOT NULL"),
        1
    );
}
