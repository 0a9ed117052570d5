//! Tests of reading bounces and of VERP addresses.

use super::*;
use crate::mail::ServerAddress;
use crate::mail::token::TokenKey;
use proptest::prelude::*;
use read::guess_status;
use time::OffsetDateTime;
use time::macros::date;

/// The key the fixtures' bounce addresses were made with (see
/// tests/fixtures/bounces/README.md).
const FIXTURE_KEY: &str = "d4f1c2a9e8b7065f3a2c1d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a";
/// The day the fixtures were made.
const FIXTURE_DAY: Date = date!(2026 - 11 - 26);

fn verp() -> Verp {
    Verp::new(
        ServerAddress::parse("pbem@pbem.test").expect("address"),
        TokenKey::from_text(FIXTURE_KEY).expect("key"),
    )
}

fn sent(outbox_id: i64) -> SentMail {
    SentMail {
        outbox_id,
        sent_on: FIXTURE_DAY,
    }
}

macro_rules! fixture {
    ($name:literal) => {
        include_bytes!(concat!("../../../tests/fixtures/bounces/", $name)).as_slice()
    };
}

/// Every fixture, by name.
const FIXTURES: [(&str, &[u8]); 14] = [
    (
        "postfix-unknown-user.eml",
        fixture!("postfix-unknown-user.eml"),
    ),
    (
        "postfix-unknown-user-headers-only.eml",
        fixture!("postfix-unknown-user-headers-only.eml"),
    ),
    (
        "postfix-two-unknown-users.eml",
        fixture!("postfix-two-unknown-users.eml"),
    ),
    ("postfix-delayed.eml", fixture!("postfix-delayed.eml")),
    ("postfix-expired.eml", fixture!("postfix-expired.eml")),
    (
        "postfix-mailbox-full.eml",
        fixture!("postfix-mailbox-full.eml"),
    ),
    (
        "postfix-smtputf8-unknown-user.eml",
        fixture!("postfix-smtputf8-unknown-user.eml"),
    ),
    (
        "rfc3464-remote-mixed.eml",
        fixture!("rfc3464-remote-mixed.eml"),
    ),
    ("qmail-permanent.eml", fixture!("qmail-permanent.eml")),
    ("exim-failed.eml", fixture!("exim-failed.eml")),
    ("exim-delayed.eml", fixture!("exim-delayed.eml")),
    (
        "other-undeliverable.eml",
        fixture!("other-undeliverable.eml"),
    ),
    (
        "other-listed-recipient.eml",
        fixture!("other-listed-recipient.eml"),
    ),
    ("vacation-reply.eml", fixture!("vacation-reply.eml")),
];

fn fixture(name: &str) -> &'static [u8] {
    FIXTURES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, raw)| *raw)
        .expect("a fixture of that name")
}

fn read_fixture(name: &str) -> Bounce {
    read(fixture(name)).unwrap_or_else(|| panic!("{name} is read as a bounce"))
}

/// The Message-ID of the fixture mail sent from outbox id `n`.
fn fixture_message_id(n: u32) -> String {
    format!("pbem.00064a1c2b3d4e.{n:024x}@pbem.test")
}

/// What a test compares of a report.
type Summary = (Option<String>, Action, Option<Status>, Option<Severity>);

/// A report's summary; an empty recipient is none, status class 0 none.
fn report(
    recipient: &str,
    action: Action,
    status: (u8, u16, u16),
    severity: Option<Severity>,
) -> Summary {
    let (class, subject, detail) = status;
    (
        (!recipient.is_empty()).then(|| recipient.to_string()),
        action,
        (class != 0).then_some(Status {
            class,
            subject,
            detail,
        }),
        severity,
    )
}

fn summary(bounce: &Bounce) -> Vec<Summary> {
    bounce
        .reports
        .iter()
        .map(|r| (r.recipient.clone(), r.action, r.status, r.severity))
        .collect()
}

// ---- VERP ----

#[test]
fn a_bounce_address_names_its_mail_and_a_changed_one_does_not() {
    let verp = verp();
    let mail = sent(4711);
    let address = verp.sender(mail);
    assert!(address.starts_with("pbem+b4711.20783."), "{address}");
    assert!(address.ends_with("@pbem.test"), "{address}");
    assert!(address.len() <= 64, "a short local part: {address}");
    assert_eq!(verp.read(&address, FIXTURE_DAY), Some(mail));
    assert_eq!(
        verp.read(&address.to_uppercase(), FIXTURE_DAY),
        Some(mail),
        "case-folding mail systems"
    );
    assert_eq!(
        verp.read(&format!(" <{address}> "), FIXTURE_DAY),
        Some(mail)
    );
    for outbox_id in [0, 1, 1_000_000_000_000_000_000, i64::MAX] {
        let mail = sent(outbox_id);
        assert_eq!(verp.read(&verp.sender(mail), FIXTURE_DAY), Some(mail));
    }
    let other_key = Verp::new(
        ServerAddress::parse("pbem@pbem.test").expect("address"),
        TokenKey::generate().expect("randomness"),
    );
    assert_eq!(
        other_key.read(&address, FIXTURE_DAY),
        None,
        "another server"
    );
    for forged in [
        address.replacen("b4711.", "b4712.", 1),
        address.replacen(".20783.", ".20782.", 1),
        address.replacen("pbem+", "other+", 1),
        address.replacen("@pbem.test", "@example.org", 1),
        address.replacen("pbem+b", "pbem+", 1),
        address.replacen("pbem+b", "pbem+b0", 1),
        address.replacen("pbem+b", "pbem+b+", 1),
    ] {
        assert_eq!(verp.read(&forged, FIXTURE_DAY), None, "{forged}");
    }
}

#[test]
fn the_bounce_address_is_the_operators_choice() {
    let key = TokenKey::from_text(FIXTURE_KEY).expect("key");
    let bounces = Verp::new(
        ServerAddress::parse("Bounces@Mail.Example.org").expect("address"),
        key,
    );
    let address = bounces.sender(sent(7));
    assert!(
        address.starts_with("Bounces+b7.20783.") && address.ends_with("@Mail.Example.org"),
        "{address}"
    );
    assert_eq!(
        bounces.read(&address.to_lowercase(), FIXTURE_DAY),
        Some(sent(7))
    );
    // The same token at another address of the server's is not read.
    let at_server = verp().sender(sent(7));
    assert_eq!(bounces.read(&at_server, FIXTURE_DAY), None);
    assert_eq!(verp().read(&address, FIXTURE_DAY), None);
}

#[test]
fn a_bounce_address_lapses_and_is_not_a_reply_token() {
    let verp = verp();
    let address = verp.sender(sent(1));
    let day = |days: i64| FIXTURE_DAY + Duration::days(days);
    assert!(verp.read(&address, day(14)).is_some(), "two weeks on");
    assert_eq!(verp.read(&address, day(15)), None, "too old");
    assert!(
        verp.read(&address, day(-1)).is_some(),
        "a clock a day behind"
    );
    assert_eq!(verp.read(&address, day(-2)), None, "from the future");
    // A reply token at the same address is not a bounce address, and a
    // bounce address is not a reply token.
    let key = TokenKey::from_text(FIXTURE_KEY).expect("key");
    let reply = format!(
        "pbem+{}@pbem.test",
        key.token(101, crate::store::players::PlayerId(1))
    );
    assert_eq!(verp.read(&reply, FIXTURE_DAY), None);
    let token = verp.address.token_of(&address).expect("a token");
    assert_eq!(key.verify(token), None);
}

#[test]
fn junk_bounce_addresses_are_refused() {
    let verp = verp();
    for junk in [
        "",
        "pbem@pbem.test",
        "pbem+@pbem.test",
        "pbem+b@pbem.test",
        "pbem+b1@pbem.test",
        "pbem+b1.20783@pbem.test",
        "pbem+b1.20783.zzzzzzzzzzzzzzzz@pbem.test",
        "pbem+b1.20783.397946ddea2fc8f@pbem.test",
        "pbem+b1.20783.592979dca64a78a1.1@pbem.test",
        "pbem+b-1.20783.592979dca64a78a1@pbem.test",
        "pbem+b999999999999999999999.20783.592979dca64a78a1@pbem.test",
        "pbem+b1.99999999999.592979dca64a78a1@pbem.test",
        "pbem+b1.9999999.592979dca64a78a1@pbem.test",
        "pbem+b1.+20783.592979dca64a78a1@pbem.test",
        "pbem+b01.20783.592979dca64a78a1@pbem.test",
        "pbem+b1.020783.592979dca64a78a1@pbem.test",
        "pbem+bé.20783.592979dca64a78a1@pbem.test",
        "@",
        "+@",
    ] {
        assert_eq!(verp.read(junk, FIXTURE_DAY), None, "{junk}");
    }
}

#[test]
fn the_fixtures_bounce_addresses_are_the_servers() {
    // Made by hand with openssl (see the README); pbem makes the same.
    for (id, address) in [
        (1, "pbem+b1.20783.592979dca64a78a1@pbem.test"),
        (2, "pbem+b2.20783.7c6760a555f4ba68@pbem.test"),
        (3, "pbem+b3.20783.e78e0b0261bb6cef@pbem.test"),
        (4, "pbem+b4.20783.aa507a0f2bad2f85@pbem.test"),
        (5, "pbem+b5.20783.eaa20f4baef6a082@pbem.test"),
        (6, "pbem+b6.20783.b289063cb657cb1f@pbem.test"),
        (7, "pbem+b7.20783.4ff4427532547800@pbem.test"),
        (8, "pbem+b8.20783.9c43572507c6a78f@pbem.test"),
        (9, "pbem+b9.20783.457270a2afcd189f@pbem.test"),
        (10, "pbem+b10.20783.da6935840ac81e2f@pbem.test"),
        (11, "pbem+b11.20783.df19ef242bd4839e@pbem.test"),
        (12, "pbem+b12.20783.939b66c7e968b7ed@pbem.test"),
        (13, "pbem+b13.20783.2fbed5f772589b5e@pbem.test"),
    ] {
        assert_eq!(verp().sender(sent(id)), address);
    }
}

// ---- Real bounces from Postfix ----

#[test]
fn postfix_unknown_user() {
    let bounce = read_fixture("postfix-unknown-user.eml");
    assert_eq!(bounce.format, Format::Dsn);
    assert_eq!(
        summary(&bounce),
        [report(
            "ghost@pbem.test",
            Action::Failed,
            (5, 1, 1),
            Some(Severity::Permanent)
        )]
    );
    assert_eq!(
        bounce.reports[0].diagnostic.as_deref(),
        Some("unknown user: \"ghost\"")
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(1)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(1)))
    );
}

#[test]
fn postfix_unknown_user_with_headers_only() {
    let bounce = read_fixture("postfix-unknown-user-headers-only.eml");
    assert_eq!(
        summary(&bounce),
        [report(
            "ghost@pbem.test",
            Action::Failed,
            (5, 1, 1),
            Some(Severity::Permanent)
        )]
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(2)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(2)))
    );
}

#[test]
fn postfix_two_unknown_users() {
    let bounce = read_fixture("postfix-two-unknown-users.eml");
    assert_eq!(
        summary(&bounce),
        [
            report(
                "ghost@pbem.test",
                Action::Failed,
                (5, 1, 1),
                Some(Severity::Permanent)
            ),
            report(
                "phantom@pbem.test",
                Action::Failed,
                (5, 1, 1),
                Some(Severity::Permanent)
            ),
        ]
    );
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(5)))
    );
}

#[test]
fn postfix_delay_warning() {
    let bounce = read_fixture("postfix-delayed.eml");
    assert_eq!(
        summary(&bounce),
        [report(
            "bob@unreachable.test",
            Action::Delayed,
            (4, 4, 1),
            Some(Severity::Transient)
        )]
    );
    assert_eq!(
        bounce.reports[0].diagnostic.as_deref(),
        Some("connect to 127.0.0.1[127.0.0.1]:2526: Connection refused"),
        "folded lines joined"
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(3)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(3)))
    );
}

#[test]
fn postfix_giving_up_after_transient_errors_is_transient() {
    let bounce = read_fixture("postfix-expired.eml");
    assert_eq!(
        summary(&bounce),
        [report(
            "bob@unreachable.test",
            Action::Failed,
            (4, 4, 1),
            Some(Severity::Transient)
        )]
    );
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(3)))
    );
}

#[test]
fn postfix_mailbox_full() {
    let bounce = read_fixture("postfix-mailbox-full.eml");
    assert_eq!(
        summary(&bounce),
        [report(
            "full@pbem.test",
            Action::Failed,
            (5, 2, 2),
            Some(Severity::Permanent)
        )]
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(11)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(11)))
    );
}

#[test]
fn postfix_utf8_dsn() {
    // RFC 6533: message/global-delivery-status, message/global. The
    // recipient's UTF-8 local part is no address pbem writes to.
    let bounce = read_fixture("postfix-smtputf8-unknown-user.eml");
    assert_eq!(bounce.format, Format::Dsn);
    assert_eq!(
        summary(&bounce),
        [report(
            "",
            Action::Failed,
            (5, 1, 1),
            Some(Severity::Permanent)
        )]
    );
    assert_eq!(
        bounce.reports[0].diagnostic.as_deref(),
        Some("unknown user: \"jürgen\"")
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(13)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(13)))
    );
}

// ---- Bounces written by hand ----

#[test]
fn a_remote_dsn_with_failed_delayed_and_relayed_recipients() {
    let bounce = read_fixture("rfc3464-remote-mixed.eml");
    assert_eq!(bounce.format, Format::Dsn);
    assert_eq!(
        summary(&bounce),
        [
            report(
                "Alice@example.net",
                Action::Failed,
                (5, 2, 2),
                Some(Severity::Permanent)
            ),
            report(
                "carol@example.net",
                Action::Delayed,
                (4, 4, 7),
                Some(Severity::Transient)
            ),
            report("dave@example.net", Action::Relayed, (2, 0, 0), None),
        ]
    );
    assert_eq!(
        bounce.reports[1].diagnostic.as_deref(),
        Some("451 4.4.7 Timed out while waiting for the greeting")
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(4)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(4)))
    );
}

#[test]
fn qmail_bounces_are_read() {
    let bounce = read_fixture("qmail-permanent.eml");
    assert_eq!(bounce.format, Format::Qmail);
    assert_eq!(
        summary(&bounce),
        [
            report(
                "erin@example.com",
                Action::Failed,
                (5, 1, 1),
                Some(Severity::Permanent)
            ),
            report(
                "frank@example.com",
                Action::Failed,
                (4, 2, 2),
                Some(Severity::Transient)
            ),
        ]
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(6)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(6)))
    );
}

#[test]
fn exim_bounces_without_dsn_are_read() {
    let bounce = read_fixture("exim-failed.eml");
    assert_eq!(bounce.format, Format::Exim);
    assert_eq!(
        summary(&bounce),
        [report(
            "grace@example.org",
            Action::Failed,
            (5, 1, 1),
            Some(Severity::Permanent)
        )]
    );
    assert!(
        bounce.reports[0]
            .diagnostic
            .as_deref()
            .is_some_and(|d| d.starts_with("SMTP error from remote mail server")),
        "{:?}",
        bounce.reports[0].diagnostic
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(7)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(7)))
    );

    let delayed = read_fixture("exim-delayed.eml");
    assert_eq!(delayed.format, Format::Exim);
    assert_eq!(
        summary(&delayed),
        [report(
            "heidi@example.org",
            Action::Delayed,
            (4, 2, 2),
            Some(Severity::Transient)
        )]
    );
    assert_eq!(delayed.message_id, None, "a warning returns nothing");
    assert_eq!(
        delayed.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(8)))
    );
}

#[test]
fn other_daemons_bounces_are_read_as_far_as_they_can_be() {
    let bounce = read_fixture("other-undeliverable.eml");
    assert_eq!(bounce.format, Format::Other);
    assert_eq!(
        summary(&bounce),
        [report(
            "",
            Action::Failed,
            (5, 2, 2),
            Some(Severity::Permanent)
        )]
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(9)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(9)))
    );
}

#[test]
fn recipients_listed_as_qmail_lists_them_are_read_from_other_daemons() {
    let bounce = read_fixture("other-listed-recipient.eml");
    assert_eq!(bounce.format, Format::Other);
    assert_eq!(
        summary(&bounce),
        [report(
            "judy@example.net",
            Action::Failed,
            (5, 0, 0),
            Some(Severity::Permanent)
        )]
    );
    assert!(
        bounce.reports[0]
            .diagnostic
            .as_deref()
            .is_some_and(|d| d.starts_with("554: delivery error: dd Sorry")),
        "{:?}",
        bounce.reports[0].diagnostic
    );
    assert_eq!(bounce.message_id, Some(fixture_message_id(12)));
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(12)))
    );
}

#[test]
fn an_out_of_office_reply_to_a_bounce_address_is_no_bounce() {
    assert_eq!(read(fixture("vacation-reply.eml")), None);
    let plain = b"From: a@example.org\nTo: pbem@pbem.test\nSubject: move e4\n\nmove e4\n";
    assert_eq!(read(plain), None);
}

#[test]
fn every_fixture_reads_the_same_with_crlf_line_ends() {
    for (name, raw) in FIXTURES {
        let text = std::str::from_utf8(raw).expect("text fixtures");
        assert!(!text.contains('\r'), "{name} is stored with LF line ends");
        let crlf = text.replace('\n', "\r\n");
        assert_eq!(read(crlf.as_bytes()), read(raw), "{name}");
    }
}

// ---- Forged and malformed bounces ----

#[test]
fn a_forged_bounce_address_leaves_only_the_message_id_to_check() {
    let raw = String::from_utf8_lossy(fixture("postfix-unknown-user.eml"))
        .replace("592979dca64a78a1", "592979dca64a78a2");
    let bounce = read(raw.as_bytes()).expect("still a bounce");
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::MessageId(fixture_message_id(1))),
        "the caller looks the Message-ID up among the mails it sent"
    );
}

#[test]
fn a_dsn_about_a_mail_pbem_never_sent_names_it_for_the_caller_to_refuse() {
    let raw = String::from_utf8_lossy(fixture("rfc3464-remote-mixed.eml"))
        .replace("pbem+b4.20783.aa507a0f2bad2f85@pbem.test", "pbem@pbem.test")
        .replace(
            "pbem.00064a1c2b3d4e.000000000000000000000004@pbem.test",
            "guessed-123@pbem.test",
        );
    let bounce = read(raw.as_bytes()).expect("still a bounce");
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::MessageId("guessed-123@pbem.test".to_string()))
    );
}

#[test]
fn a_bounce_naming_no_mail_has_no_original() {
    let raw = "From: MAILER-DAEMON@example.org\nTo: pbem@pbem.test\n\
        Subject: Undelivered Mail Returned to Sender\n\
        Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n\
        --b\nContent-Type: message/delivery-status\n\n\
        Reporting-MTA: dns; example.org\n\n\
        Final-Recipient: rfc822; bob@example.org\nAction: failed\nStatus: 5.1.1\n\
        --b--\n";
    let bounce = read(raw.as_bytes()).expect("a DSN");
    assert_eq!(bounce.reports.len(), 1);
    assert_eq!(bounce.message_id, None);
    assert_eq!(bounce.original(&verp(), FIXTURE_DAY), None);
}

/// A DSN with `status` as its delivery-status part, sent to pbem's
/// bounce address for mail 1.
fn dsn_with(status: &str) -> String {
    format!(
        "From: MAILER-DAEMON@example.org\n\
         To: pbem+b1.20783.592979dca64a78a1@pbem.test\n\
         Subject: Undelivered Mail Returned to Sender\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n\
         --b\nContent-Type: message/delivery-status\n\n{status}\n--b--\n"
    )
}

#[test]
fn malformed_dsn_fields_are_read_as_far_as_they_go() {
    let cases: [(&str, Vec<_>); 8] = [
        // No Status: the Diagnostic-Code's code stands in.
        (
            "Final-Recipient: rfc822; bob@example.org\nAction: failed\n\
             Diagnostic-Code: smtp; 550 5.7.1 Message rejected",
            vec![report(
                "bob@example.org",
                Action::Failed,
                (5, 7, 1),
                Some(Severity::Permanent),
            )],
        ),
        // No Action: the status class decides.
        (
            "Final-Recipient: rfc822; bob@example.org\nStatus: 4.2.2",
            vec![report(
                "bob@example.org",
                Action::Unknown,
                (4, 2, 2),
                Some(Severity::Transient),
            )],
        ),
        // A status that is no status, and an action that is none.
        (
            "Final-Recipient: rfc822; bob@example.org\nAction: exploded\nStatus: 9.9.9",
            vec![report("bob@example.org", Action::Unknown, (0, 0, 0), None)],
        ),
        // An address pbem would not write to.
        (
            "Final-Recipient: rfc822; \"bob smith\"@[192.0.2.1]\nAction: failed\nStatus: 5.1.1",
            vec![report(
                "",
                Action::Failed,
                (5, 1, 1),
                Some(Severity::Permanent),
            )],
        ),
        // Only an Original-Recipient, in angle brackets, type in capitals.
        (
            "Original-Recipient: RFC822;<bob@Example.ORG>\nAction: FAILED\nStatus: 5.1.2",
            vec![report(
                "bob@example.org",
                Action::Failed,
                (5, 1, 2),
                Some(Severity::Permanent),
            )],
        ),
        // No blank line after the per-message fields.
        (
            "Reporting-MTA: dns; example.org\nFinal-Recipient: rfc822; bob@example.org\n\
             Action: delayed\nStatus: 4.4.1",
            vec![report(
                "bob@example.org",
                Action::Delayed,
                (4, 4, 1),
                Some(Severity::Transient),
            )],
        ),
        // A failure that says it succeeded is taken as the milder.
        (
            "Final-Recipient: rfc822; bob@example.org\nAction: failed\nStatus: 2.0.0",
            vec![report(
                "bob@example.org",
                Action::Failed,
                (2, 0, 0),
                Some(Severity::Transient),
            )],
        ),
        // Nothing but noise.
        (
            ": : :\n\n\n:\n \tfolded without a field\nno colon here",
            vec![],
        ),
    ];
    for (status, expected) in cases {
        let bounce = read(dsn_with(status).as_bytes()).expect("a DSN");
        assert_eq!(summary(&bounce), expected, "{status}");
        assert_eq!(
            bounce.original(&verp(), FIXTURE_DAY),
            Some(Original::Verp(sent(1)))
        );
    }
}

#[test]
fn a_base64_delivery_status_part_is_decoded() {
    use base64::Engine;
    let status = "Final-Recipient: rfc822; bob@example.org\nAction: failed\nStatus: 5.1.1\n";
    let encoded = base64::engine::general_purpose::STANDARD.encode(status);
    let raw = format!(
        "From: MAILER-DAEMON@example.org\nTo: pbem@pbem.test\n\
         Content-Type: multipart/report; report-type=delivery-status; boundary=b\n\n\
         --b\nContent-Type: message/delivery-status\nContent-Transfer-Encoding: base64\n\n\
         {encoded}\n--b--\n"
    );
    let bounce = read(raw.as_bytes()).expect("a DSN");
    assert_eq!(
        summary(&bounce),
        [report(
            "bob@example.org",
            Action::Failed,
            (5, 1, 1),
            Some(Severity::Permanent)
        )]
    );
}

#[test]
fn a_huge_bounce_is_read_within_bounds() {
    let recipients: String = (0..5000)
        .map(|i| {
            format!("Final-Recipient: rfc822; u{i}@example.org\nAction: failed\nStatus: 5.1.1\n\n")
        })
        .collect();
    let bounce = read(dsn_with(&recipients).as_bytes()).expect("a DSN");
    assert_eq!(bounce.reports.len(), MAX_REPORTS);

    let long_field = format!(
        "Final-Recipient: rfc822; bob@example.org\nAction: failed\nDiagnostic-Code: smtp; 550{}",
        "\n x".repeat(200_000)
    );
    let bounce = read(dsn_with(&long_field).as_bytes()).expect("a DSN");
    let diagnostic = bounce.reports[0]
        .diagnostic
        .as_deref()
        .expect("a diagnostic");
    assert!(diagnostic.chars().count() <= MAX_DIAGNOSTIC_CHARS);

    let mut huge =
        dsn_with("Final-Recipient: rfc822; bob@example.org\nAction: failed").into_bytes();
    huge.extend(std::iter::repeat_n(b'x', 20 * MAX_READ_BYTES));
    assert!(read(&huge).is_some(), "the report at the start is read");
}

#[test]
fn many_addresses_in_the_headers_leave_room_for_the_returned_mails() {
    let junk: Vec<String> = (0..1000).map(|i| format!("j{i}@example.org")).collect();
    let raw = String::from_utf8_lossy(fixture("postfix-unknown-user.eml")).replace(
        "To: pbem+b1.20783.592979dca64a78a1@pbem.test",
        &format!("To: {}", junk.join(", ")),
    );
    let raw = raw
        .replace("X-Original-To: pbem+b1.", "X-Original-To: other+b1.")
        .replace("Delivered-To: pbem+b1.", "Delivered-To: other+b1.");
    let bounce = read(raw.as_bytes()).expect("still a bounce");
    assert!(bounce.envelope.len() <= MAX_ENVELOPE_ADDRESSES);
    assert_eq!(
        bounce.original(&verp(), FIXTURE_DAY),
        Some(Original::Verp(sent(1))),
        "from X-Postfix-Sender or the returned Return-Path"
    );
}

#[test]
fn diagnostics_are_kept_on_one_line() {
    let bounce = read(
        dsn_with(
            "Final-Recipient: rfc822; bob@example.org\nAction: failed\n\
             Diagnostic-Code: smtp; 550 no\u{1b}[31m such\tuser",
        )
        .as_bytes(),
    )
    .expect("a DSN");
    assert_eq!(
        bounce.reports[0].diagnostic.as_deref(),
        Some("550 no [31m such user")
    );
}

#[test]
fn status_codes_are_found_in_text_but_not_in_addresses() {
    let status = |c: u8, s: u16, d: u16| {
        Some(Status {
            class: c,
            subject: s,
            detail: d,
        })
    };
    for (text, expected) in [
        (
            "Sorry, no mailbox here by that name. (#5.1.1)",
            status(5, 1, 1),
        ),
        ("host [10.5.1.1]: 550 5.2.2 full", status(5, 2, 2)),
        ("host [10.5.1.1]: 550 mailbox unavailable", status(5, 0, 0)),
        ("452-4.2.2 The email account is over quota", status(4, 2, 2)),
        ("said: 421 try later", status(4, 0, 0)),
        ("<judy@example.net>: 554: delivery error", status(5, 0, 0)),
        ("5.1.1", status(5, 1, 1)),
        ("host [192.0.2.4] refused", None),
        ("host 4.5.6.7 refused", None),
        ("250 2.0.0 Ok: queued", None),
        ("code 5.1234.1 or 4.1.1x or 5550 or 55", None),
        ("", None),
        ("5", None),
        ("5.", None),
        ("5.1.", None),
    ] {
        assert_eq!(guess_status(text), expected, "{text}");
    }
}

proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(raw in proptest::collection::vec(any::<u8>(), 0..4096)) {
        let _ = read(&raw);
    }

    #[test]
    fn mangled_fixtures_never_panic(
        which in 0..FIXTURES.len(),
        cut in any::<prop::sample::Index>(),
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
    ) {
        let mut raw = FIXTURES[which].1.to_vec();
        for (at, byte) in flips {
            let at = at.index(raw.len());
            raw[at] = byte;
        }
        raw.truncate(cut.index(raw.len() + 1));
        if let Some(bounce) = read(&raw) {
            let _ = bounce.original(&verp(), FIXTURE_DAY);
        }
    }

    #[test]
    fn arbitrary_delivery_status_text_never_panics(status in "\\PC{0,2000}") {
        if let Some(bounce) = read(dsn_with(&status).as_bytes()) {
            prop_assert!(bounce.reports.len() <= MAX_REPORTS);
            let _ = bounce.original(&verp(), FIXTURE_DAY);
        }
    }

    #[test]
    fn arbitrary_bounce_text_never_panics(
        text in "(  |    |<|>:|@|\\.|#|[0-9]|[a-z]|\n| ){0,400}",
        qmail in any::<bool>(),
    ) {
        let start = if qmail {
            "Hi. This is the qmail-send program at x.\n"
        } else {
            "This message was created automatically by mail delivery software.\n"
        };
        let raw = format!(
            "From: MAILER-DAEMON@example.org\nX-Failed-Recipients: {text}\nSubject: failure notice\n\n{start}{text}\n"
        );
        let _ = read(raw.as_bytes());
    }

    #[test]
    fn arbitrary_addresses_never_panic_and_never_verify(address in "\\PC{0,80}") {
        prop_assert_eq!(verp().read(&address, FIXTURE_DAY), None);
        prop_assert_eq!(verp().read(&format!("pbem+b{address}@pbem.test"), FIXTURE_DAY), None);
    }

    #[test]
    fn every_mail_gets_an_address_that_names_it(id in 0..i64::MAX, day in 0..2_000_000i64) {
        let sent_on = OffsetDateTime::UNIX_EPOCH.date() + Duration::days(day);
        let mail = SentMail { outbox_id: id, sent_on };
        prop_assert_eq!(verp().read(&verp().sender(mail), sent_on), Some(mail));
    }
}

#[test]
fn the_status_of_an_smtp_reply_is_its_enhanced_code_or_its_class() {
    let of = |code, text| Status::of_reply(code, text).map(|s| s.to_string());
    assert_eq!(of(550, "5.1.1 User unknown").as_deref(), Some("5.1.1"));
    assert_eq!(of(450, "4.2.0 greylisted").as_deref(), Some("4.2.0"));
    // No enhanced code, or one of another class: the reply code's class.
    assert_eq!(of(550, "no such user").as_deref(), Some("5.0.0"));
    assert_eq!(of(550, "4.2.0 odd").as_deref(), Some("5.0.0"));
    assert_eq!(of(451, "").as_deref(), Some("4.0.0"));
    // Not a refusal.
    assert_eq!(of(250, "2.0.0 ok"), None);
    assert_eq!(of(354, "go on"), None);
}
