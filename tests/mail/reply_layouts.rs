//! Replies to a real board mail in the layouts mail clients produce: the
//! turn above or below the quote, attributions in several languages and
//! wrapped over lines, Outlook header blocks, `Original Message`
//! separators, signatures, HTML-only mail, and a quote without any
//! marker. In each, the turn is played, no error is sent, and nothing of
//! the quote or the signature reaches the opponent.

use pbem_testkit::{ALICE, BOB, Harness, Sent, to};

/// A new chess board 101 where Alice played e4 by reply; returns Bob's
/// board mail (his turn) and the Message-ID of the mail it answers.
fn bob_to_move(h: &mut Harness) -> Sent {
    let (alice, _) = h.alice_and_bob_on("chess");
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
        assert_no_comment(name, played_for_alice(name, &mails));
    }
    assert!(layouts_seen >= 15, "{layouts_seen} layouts");
}

/// The answer to Bob's reply: the turn is played (two mails, no error)
/// and Alice's board mail shows it; returns Alice's mail.
fn played_for_alice<'a>(name: &str, mails: &'a [Sent]) -> &'a Sent {
    assert_eq!(mails.len(), 2, "{name}: {mails:#?}");
    assert!(
        mails.iter().all(|m| !m.subject.contains("Error")),
        "{name}: {mails:#?}"
    );
    let alice = to(mails, ALICE);
    assert!(alice.body.contains("1.e4 e5"), "{name}:\n{}", alice.body);
    alice
}

/// Nothing of the quote reaches the opponent: no comment in the mail.
fn assert_no_comment(name: &str, alice: &Sent) {
    assert!(
        !alice.body.contains("Comments:") && !alice.subject.ends_with("**"),
        "{name}: nothing of the quote reaches the opponent:\n{}",
        alice.body
    );
}

/// The HTML part of a board mail, and what a mail client quotes of it:
/// the inside of its `<body>`.
fn html_part(mail: &Sent) -> String {
    let raw = std::fs::read(&mail.file).expect("outbox file");
    let message = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("parses");
    let html = message.body_html(0).expect("an HTML part").to_string();
    let start = html
        .find("<body")
        .and_then(|i| html[i..].find('>').map(|j| i + j + 1));
    let end = html.rfind("</body>");
    match (start, end) {
        (Some(start), Some(end)) if start < end => html[start..end].to_string(),
        _ => panic!("no <body> in the HTML part:\n{html}"),
    }
}

/// Replies holding `answer` above the board mail's HTML part quoted as
/// Gmail, Thunderbird, Outlook and Outlook on the web quote HTML: a name,
/// and the HTML of the reply.
fn html_quotes(mail: &Sent, answer: &str) -> Vec<(&'static str, String)> {
    let quoted = html_part(mail);
    let token = mail.reply_to.clone().expect("a reply token");
    let subject = &mail.subject;
    vec![
        (
            "gmail",
            format!(
                "<div dir=\"ltr\">{answer}</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sun, Mar 1, 2026 at 12:01 PM pbem &lt;{token}&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex;border-left:1px solid rgb(204,204,204);padding-left:1ex\">{quoted}</blockquote></div>"
            ),
        ),
        (
            "thunderbird",
            format!(
                "<html><head><meta http-equiv=\"content-type\" content=\"text/html; charset=UTF-8\"></head><body><p>{answer}</p><div class=\"moz-cite-prefix\">On 3/1/26 12:01, pbem wrote:<br></div><blockquote type=\"cite\" cite=\"mid:{}\">{quoted}</blockquote></body></html>",
                mail.message_id.trim_matches(['<', '>'])
            ),
        ),
        (
            "outlook, the original below a bordered header, unquoted",
            format!(
                "<html><body lang=\"EN-US\"><div class=\"WordSection1\"><p class=\"MsoNormal\">{answer}<o:p></o:p></p><p class=\"MsoNormal\"><o:p>&nbsp;</o:p></p><div style=\"border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in\"><p class=\"MsoNormal\"><b>From:</b> pbem &lt;{token}&gt;<br><b>Sent:</b> Sunday, March 1, 2026 12:01 PM<br><b>To:</b> bob &lt;{BOB}&gt;<br><b>Subject:</b> {subject}<o:p></o:p></p></div><p class=\"MsoNormal\"><o:p>&nbsp;</o:p></p>{quoted}</div></body></html>"
            ),
        ),
        (
            "outlook on the web, divRplyFwdMsg",
            format!(
                "<html><body><div style=\"font-family:Calibri\">{answer}</div><hr style=\"display:inline-block;width:98%\" tabindex=\"-1\"><div id=\"divRplyFwdMsg\" dir=\"ltr\"><font face=\"Calibri\"><b>From:</b> pbem &lt;{token}&gt;<br><b>Sent:</b> Sunday, March 1, 2026 12:01<br><b>Subject:</b> {subject}</font><div>&nbsp;</div></div>{quoted}</body></html>"
            ),
        ),
    ]
}

/// A reply by Bob to his board mail: HTML only, or HTML beside the text a
/// client makes of it (the board mail's text quoted with `>`).
fn html_reply(mail: &Sent, id: &str, html: &str, with_text: Option<&str>) -> String {
    let head = format!(
        "From: Bob <{BOB}>\r\nTo: {}\r\nSubject: Re: {}\r\nMessage-ID: {id}\r\nIn-Reply-To: {}\r\nReferences: {}\r\nMIME-Version: 1.0\r\n",
        mail.reply_to.as_deref().expect("token"),
        mail.subject,
        mail.message_id,
        mail.message_id,
    );
    let html = html.replace('\n', "\r\n");
    match with_text {
        None => format!(
            "{head}Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{html}\r\n"
        ),
        Some(answer) => format!(
            "{head}Content-Type: multipart/alternative; boundary=\"b1\"\r\n\r\n--b1\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{answer}\r\n\r\nOn Sun, Mar 1, 2026 at 12:01 PM pbem wrote:\r\n{}\r\n--b1\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n{html}\r\n--b1--\r\n",
            quoted(&mail.body).replace('\n', "\r\n")
        ),
    }
}

#[test]
fn replies_quoting_the_html_part_play_the_turn_and_leak_nothing() {
    let mut seen = 0;
    for index in 0.. {
        for with_text in [false, true] {
            for (answer, comment) in [("e5", None), ("e5<br>Nice opening!", Some("Nice opening!"))]
            {
                let mut h = Harness::new();
                let bob_mail = bob_to_move(&mut h);
                let Some((name, html)) = html_quotes(&bob_mail, answer).get(index).cloned() else {
                    assert!(seen >= 16, "{seen} replies");
                    return;
                };
                seen += 1;
                let name = format!(
                    "{name}, {}",
                    if with_text { "with text" } else { "HTML only" }
                );
                let text = with_text.then(|| answer.replace("<br>", "\n"));
                let id = h.message_id();
                let raw = html_reply(&bob_mail, &id, &html, text.as_deref());
                let mails = h.deliver_raw(raw.as_bytes());
                let alice = played_for_alice(&name, &mails);
                match comment {
                    None => assert_no_comment(&name, alice),
                    Some(comment) => {
                        let start = alice.body.find("Comments:").unwrap_or_else(|| {
                            panic!("{name}: the comment is shown:\n{}", alice.body)
                        });
                        let shown: Vec<&str> = alice.body[start..]
                            .lines()
                            .skip(1)
                            .take_while(|l| l.starts_with("  "))
                            .collect();
                        assert_eq!(
                            shown,
                            vec![format!("  bob: {comment}")],
                            "{name}: only Bob's own words reach Alice:\n{}",
                            alice.body
                        );
                    }
                }
            }
        }
    }
}
