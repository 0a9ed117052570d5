//! Replies to a real board mail in the layouts mail clients produce: the
//! turn above or below the quote, attributions in several languages and
//! wrapped over lines, Outlook header blocks, `Original Message`
//! separators, signatures, HTML-only mail, and a quote without any
//! marker. In each, the turn is played, no error is sent, and nothing of
//! the quote or the signature reaches the opponent.

mod support;

use support::{Harness, Sent, to};

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// A new chess board 101 where Alice played e4 by reply; returns Bob's
/// board mail (his turn) and the Message-ID of the mail it answers.
fn bob_to_move(h: &mut Harness) -> Sent {
    h.signup("alice", ALICE);
    h.signup("bob", BOB);
    let mails = h.send(ALICE, "new", "chess challenge alice alice-pw bob --white");
    let alice = to(&mails, ALICE).clone();
    let mails = h.reply(&alice, ALICE, "e4");
    assert_eq!(mails.len(), 2, "{mails:#?}");
    to(&mails, BOB).clone()
}

fn quoted(body: &str) -> String {
    body.lines().map(|l| format!("> {l}\n")).collect()
}

fn html_escaped(body: &str) -> String {
    body.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .lines()
        .map(|l| format!("{l}<br>\n"))
        .collect()
}

/// The layouts: a name, the Content-Type, and the body built from the
/// board mail (its reply address is `token`).
fn layouts(mail: &Sent) -> Vec<(&'static str, &'static str, String)> {
    let body = mail.body.as_str();
    let token = mail.reply_to.clone().expect("a reply token");
    let subject = &mail.subject;
    let plain = "text/plain; charset=utf-8";
    let html = "text/html; charset=utf-8";
    vec![
        (
            "gmail",
            plain,
            format!(
                "e5\n\nOn Sun, Mar 1, 2026 at 12:01 PM pbem <{token}> wrote:\n\n{}",
                quoted(body)
            ),
        ),
        (
            "gmail, attribution wrapped over two lines",
            plain,
            format!(
                "e5\n\nOn Sun, Mar 1, 2026 at 12:01 PM pbem <\n{token}> wrote:\n\n{}",
                quoted(body)
            ),
        ),
        (
            "attribution wrapped over three lines",
            plain,
            format!(
                "e5\n\nOn Mar 1, 2026, at 12:01 PM, pbem\n<{token}>\nwrote:\n\n{}",
                quoted(body)
            ),
        ),
        (
            "outlook with a rule",
            plain,
            format!(
                "e5\n\n________________________________\nFrom: pbem <{token}>\nSent: Sunday, March 1, 2026 12:01 PM\nTo: bob <bob@example.org>\nSubject: {subject}\n\n{body}"
            ),
        ),
        (
            "outlook, bold headers",
            plain,
            format!(
                "e5\n\n*From:* pbem [mailto:{token}]\n*Sent:* Sunday, March 1, 2026 12:01 PM\n*To:* bob\n*Subject:* {subject}\n\n{body}"
            ),
        ),
        (
            "outlook in German",
            plain,
            format!(
                "e5\n\nVon: pbem <{token}>\nGesendet: Sonntag, 1. März 2026 12:01\nAn: bob\nBetreff: {subject}\n\n{body}"
            ),
        ),
        (
            "outlook in French",
            plain,
            format!(
                "e5\n\nDe : pbem <{token}>\nEnvoyé : dimanche 1 mars 2026 12:01\nÀ : bob\nObjet : {subject}\n\n{body}"
            ),
        ),
        (
            "original message",
            plain,
            format!(
                "e5\n\n-----Original Message-----\nFrom: pbem\nSent: Sunday\nSubject: {subject}\n\n{body}"
            ),
        ),
        (
            "original message with spaces (yahoo)",
            plain,
            format!(
                "e5\n\n----- Original Message -----\nFrom: \"pbem\" <{token}>\nTo: bob\nSent: Sunday, March 1, 2026 12:01 PM\nSubject: {subject}\n\n{body}"
            ),
        ),
        (
            "iphone",
            plain,
            format!(
                "e5\n\nSent from my iPhone\n\n> On 1 Mar 2026, at 12:01, pbem <{token}> wrote:\n>\n{}",
                quoted(body)
            ),
        ),
        (
            "android in Russian, wrapped",
            plain,
            format!(
                "e5\n\n01.03.2026 12:01 пользователь \"pbem\" <\n{token}> написал:\n\n{}",
                quoted(body)
            ),
        ),
        (
            "thunderbird, bottom posted",
            plain,
            format!("On 01/03/2026 12:01, pbem wrote:\n{}\ne5\n", quoted(body)),
        ),
        (
            "thunderbird in German",
            plain,
            format!("Am 01.03.26 um 12:01 schrieb pbem:\n{}\ne5\n", quoted(body)),
        ),
        (
            "french attribution",
            plain,
            format!(
                "e5\n\nLe dim. 1 mars 2026 à 12:01, pbem <{token}> a écrit :\n{}",
                quoted(body)
            ),
        ),
        (
            "spanish attribution",
            plain,
            format!(
                "e5\n\nEl dom, 1 mar 2026 a las 12:01, pbem (<{token}>) escribió:\n{}",
                quoted(body)
            ),
        ),
        (
            "signature above the quote",
            plain,
            format!(
                "e5\n\n-- \nBob Smith\nChess club secretary\n\nOn Sun, 1 Mar 2026, pbem wrote:\n{}",
                quoted(body)
            ),
        ),
        (
            "hotmail, quoted header block",
            plain,
            format!(
                "e5\n\n> From: {token}\n> Date: Sun, 1 Mar 2026 12:01:00 +0000\n> Subject: {subject}\n>\n{}",
                quoted(body)
            ),
        ),
        (
            "the board mail pasted without any quote marker",
            plain,
            format!("e5\n\n{body}"),
        ),
        (
            "gmail, HTML only",
            html,
            format!(
                "<div dir=\"ltr\">e5</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sun, Mar 1, 2026 at 12:01 PM pbem &lt;{token}&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\">{}</blockquote></div>",
                html_escaped(body)
            ),
        ),
        (
            "outlook, HTML only, bordered header",
            html,
            format!(
                "<html><body><div class=\"WordSection1\"><p class=\"MsoNormal\">e5<o:p></o:p></p><div><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in\"><p class=\"MsoNormal\"><b>From:</b> pbem<br><b>Sent:</b> Sunday<br><b>Subject:</b> {subject}</p></div></div><p>{}</p></div></body></html>",
                html_escaped(body)
            ),
        ),
        (
            "outlook web, HTML only, divRplyFwdMsg",
            html,
            format!(
                "<div>e5</div><hr style=\"display:inline-block;width:98%\"><div id=\"divRplyFwdMsg\" dir=\"ltr\"><b>From:</b> pbem<br><b>Sent:</b> Sunday</div><div>{}</div>",
                html_escaped(body)
            ),
        ),
    ]
}

#[test]
fn replies_in_every_client_layout_play_the_turn_and_leak_nothing() {
    let mut layouts_seen = 0;
    for index in 0.. {
        let mut h = Harness::new();
        let bob_mail = bob_to_move(&mut h);
        let all = layouts(&bob_mail);
        let Some((name, content_type, body)) = all.get(index).cloned() else {
            break;
        };
        layouts_seen += 1;
        let id = h.message_id();
        let raw = format!(
            "From: Bob <{BOB}>\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: {id}\r\nIn-Reply-To: <{}>\r\nReferences: <{}>\r\nMIME-Version: 1.0\r\nContent-Type: {content_type}\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{}",
            bob_mail.reply_to.as_deref().expect("token"),
            bob_mail.subject,
            bob_mail.message_id,
            bob_mail.message_id,
            body.replace('\n', "\r\n")
        );
        let mails = h.deliver_raw(raw.as_bytes());
        assert_eq!(mails.len(), 2, "{name}: {mails:#?}");
        assert!(
            mails.iter().all(|m| !m.subject.contains("Error")),
            "{name}: {mails:#?}"
        );
        let alice = to(&mails, ALICE);
        assert!(alice.body.contains("1.e4 e5"), "{name}:\n{}", alice.body);
        assert!(
            !alice.body.contains("Comments:") && !alice.subject.ends_with("**"),
            "{name}: nothing of the quote reaches the opponent:\n{}",
            alice.body
        );
    }
    assert!(layouts_seen >= 15, "{layouts_seen} layouts");
}
