//! A received mail, reduced to what the service needs. Parsing never fails:
//! a mail that is garbage simply has empty fields.

use mail_parser::{HeaderValue, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

use super::{address, reply};

/// A received mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// The Message-ID, or for a mail without one a stable id derived from
    /// its bytes, so that it too is processed once only.
    pub message_id: String,
    /// The sender's address (From), normalized by [`address::normalize`];
    /// `None` when there is none pbem could write to.
    pub from: Option<String>,
    /// Every address the mail was sent to (To, Cc, Delivered-To,
    /// X-Original-To), where a reply token may be found.
    pub recipients: Vec<String>,
    pub subject: String,
    /// The plain text of the body (HTML-only mail converted to text).
    pub body: String,
    /// The HTML body of a mail without a plain-text part, where the
    /// quoted mail can still be told from the reply.
    pub html: Option<String>,
    /// The Message-IDs the mail answers: In-Reply-To first, then
    /// References from the newest.
    pub answers: Vec<String>,
    /// Why the mail is never to be answered (automatic mail, or a sender
    /// pbem cannot trust or write to), if it is.
    pub automatic: Option<Automatic>,
    /// The size of the raw mail in bytes.
    pub size: usize,
    /// The `Authentication-Results` headers, topmost first (see
    /// [`Inbound::authenticated`]).
    pub authentication_results: Vec<String>,
    /// What the mail says as a bounce of a mail pbem sent (read only from
    /// automatic mail: see [`super::bounce::read`]); `None` for any other.
    pub bounce: Option<super::bounce::Bounce>,
}

/// What the operator's mail server found out about the sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Authenticated {
    /// DMARC passed, or DKIM or SPF passed for the From's domain.
    Pass,
    /// DMARC failed, or SPF failed without a passing DKIM signature: the
    /// From is forged.
    Fail,
}

/// Why a mail is never answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Automatic {
    AutoSubmitted,
    BulkPrecedence,
    NullReturnPath,
    MailerDaemon,
    /// `X-Autoreply`, `X-Autorespond`, `X-Auto-Response-Suppress`, `X-Loop`
    /// or `List-Id`: a robot or a mailing list.
    AutoReplyHeader,
    /// A delivery or disposition report (`multipart/report`).
    Report,
    /// More than one From header, or more than one address in it: whose
    /// mail it is cannot be told.
    SeveralFrom,
    /// A From that is not an address pbem can write to (see
    /// [`address::normalize`]).
    UnusableFrom,
}

/// The Message-ID of a mail without one: from the digest of its bytes, so
/// the same mail delivered twice is known again.
fn synthetic_id(raw: &[u8]) -> String {
    let digest = Sha256::digest(raw);
    let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
    format!("{hex}@no-message-id.pbem")
}

impl Inbound {
    pub fn parse(raw: &[u8]) -> Inbound {
        Inbound::parse_head(raw, raw.len())
    }

    /// Parses a mail of `size` bytes of which only `raw` was read (the
    /// head of a mail too large to read whole: enough for its headers).
    pub fn parse_head(raw: &[u8], size: usize) -> Inbound {
        Inbound {
            size: size.max(raw.len()),
            ..Inbound::parse_whole(raw)
        }
    }

    /// A mail that cannot be read at all: known by the digest of its
    /// bytes, from nobody (so recorded and never answered).
    fn unreadable(raw: &[u8]) -> Inbound {
        Inbound {
            message_id: synthetic_id(raw),
            from: None,
            recipients: Vec::new(),
            subject: String::new(),
            body: String::new(),
            html: None,
            answers: Vec::new(),
            automatic: None,
            size: raw.len(),
            authentication_results: Vec::new(),
            bounce: None,
        }
    }

    fn parse_whole(raw: &[u8]) -> Inbound {
        // A panic (a bug, here or in the parser) on hostile bytes must not
        // end the server and meet the same mail again after the restart.
        match std::panic::catch_unwind(|| Inbound::parse_readable(raw)) {
            Ok(inbound) => inbound,
            Err(panic) => {
                tracing::error!(
                    "a mail could not be parsed (a bug: {}); it is recorded unanswered",
                    crate::caught::panic_text(panic.as_ref())
                );
                Inbound::unreadable(raw)
            }
        }
    }

    fn parse_readable(raw: &[u8]) -> Inbound {
        let Some(message) = MessageParser::default().parse(raw) else {
            return Inbound::unreadable(raw);
        };
        let from_headers = message.header_values("From").count();
        let from_addresses = message.from().map_or(0, |a| a.iter().count());
        let written_from = message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address());
        let from = written_from.and_then(|a| address::normalize(a).ok());
        let mut recipients = Vec::new();
        for name in ["To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To"] {
            match message.header(name) {
                Some(HeaderValue::Address(address)) => {
                    recipients.extend(
                        address
                            .iter()
                            .filter_map(|a| a.address())
                            .map(str::to_string),
                    );
                }
                Some(HeaderValue::Text(text)) => {
                    recipients.push(text.trim().trim_matches(['<', '>']).to_string())
                }
                _ => {}
            }
        }
        let header_text = |name: &str| {
            message
                .header_raw(name)
                .map(|v| v.trim().to_ascii_lowercase())
        };
        let automatic = if from_headers > 1 || from_addresses > 1 {
            Some(Automatic::SeveralFrom)
        } else if written_from.is_some() && from.is_none() {
            Some(Automatic::UnusableFrom)
        } else if header_text("Auto-Submitted").is_some_and(|v| auto_submitted(&v)) {
            Some(Automatic::AutoSubmitted)
        } else if header_text("Precedence").is_some_and(|v| {
            ["bulk", "list", "junk", "auto_reply", "auto-reply"]
                .iter()
                .any(|p| v.starts_with(p))
        }) {
            Some(Automatic::BulkPrecedence)
        } else if [
            "X-Autoreply",
            "X-Autorespond",
            "X-Auto-Response-Suppress",
            "X-Loop",
        ]
        .iter()
        .any(|name| message.header_raw(*name).is_some())
            || header_text("List-Id").is_some()
        {
            Some(Automatic::AutoReplyHeader)
        } else if message.root_part().content_type().is_some_and(|ct| {
            ct.ctype().eq_ignore_ascii_case("multipart")
                && ct
                    .subtype()
                    .is_some_and(|s| s.eq_ignore_ascii_case("report"))
        }) {
            Some(Automatic::Report)
        } else if header_text("Return-Path").is_some_and(|v| v.replace(' ', "") == "<>") {
            Some(Automatic::NullReturnPath)
        } else if from.as_deref().is_some_and(is_daemon) {
            Some(Automatic::MailerDaemon)
        } else {
            None
        };
        let html_only = message
            .text_body
            .first()
            .and_then(|id| message.part(*id))
            .is_some_and(|part| matches!(part.body, PartType::Html(_)));
        let mut answers = ids(message.in_reply_to());
        answers.extend(ids(message.references()).into_iter().rev());
        Inbound {
            message_id: message
                .message_id()
                .map(|id| id.trim().to_string())
                .filter(|id| !id.is_empty())
                .unwrap_or_else(|| synthetic_id(raw)),
            from,
            recipients,
            subject: message.subject().unwrap_or_default().trim().to_string(),
            body: message
                .body_text(0)
                .map(|b| b.into_owned())
                .unwrap_or_default(),
            html: html_only
                .then(|| message.body_html(0).map(|b| b.into_owned()))
                .flatten(),
            answers,
            automatic,
            size: raw.len(),
            authentication_results: message
                .header_values("Authentication-Results")
                .filter_map(|v| v.as_text())
                .map(str::to_string)
                .collect(),
            // Every bounce is automatic mail (a report, from a mailer
            // daemon, or with a null Return-Path): nothing else is read
            // twice.
            bounce: automatic.and_then(|_| super::bounce::read(raw)),
        }
    }

    /// The verdict on the sender of the topmost `Authentication-Results`
    /// header written by the mail server named `authserv_id` (RFC 8601);
    /// `None` when there is none or it says nothing clear. Only that
    /// server's headers count: the operator's mail server must remove
    /// headers with its name that arrive from outside (RFC 8601 section 5;
    /// Postfix with OpenDMARC or rspamd does).
    pub fn authenticated(&self, authserv_id: &str) -> Option<Authenticated> {
        let from_domain = self.from.as_deref()?.rsplit_once('@')?.1;
        let results = self.authentication_results.iter().find(|value| {
            value
                .split(';')
                .next()
                .and_then(|id| id.split_whitespace().next())
                .is_some_and(|id| id.eq_ignore_ascii_case(authserv_id))
        })?;
        let verdict = |method: &str| -> Option<(String, Option<String>)> {
            results.split(';').skip(1).find_map(|resinfo| {
                let mut words = resinfo.split_whitespace();
                let (name, result) = words.next()?.split_once('=')?;
                if !name.eq_ignore_ascii_case(method) {
                    return None;
                }
                let domain = words
                    .filter_map(|w| w.split_once('='))
                    .find(|(property, _)| {
                        ["header.d", "header.from", "smtp.mailfrom"]
                            .iter()
                            .any(|p| property.eq_ignore_ascii_case(p))
                    })
                    .map(|(_, value)| {
                        let value = value.trim_matches(['"', '(', ')']);
                        value
                            .rsplit_once('@')
                            .map_or(value, |(_, d)| d)
                            .to_ascii_lowercase()
                    });
                Some((result.to_ascii_lowercase(), domain))
            })
        };
        let same_domain = |domain: &Option<String>| {
            domain
                .as_deref()
                .is_some_and(|d| d.eq_ignore_ascii_case(from_domain))
        };
        let dmarc = verdict("dmarc");
        let dkim = verdict("dkim");
        let spf = verdict("spf");
        match dmarc.as_ref().map(|(result, _)| result.as_str()) {
            Some("pass") => return Some(Authenticated::Pass),
            Some("fail") => return Some(Authenticated::Fail),
            _ => {}
        }
        let dkim_pass = dkim
            .as_ref()
            .is_some_and(|(result, domain)| result == "pass" && same_domain(domain));
        let spf_pass = spf
            .as_ref()
            .is_some_and(|(result, domain)| result == "pass" && same_domain(domain));
        if dkim_pass || spf_pass {
            Some(Authenticated::Pass)
        } else if spf.is_some_and(|(result, _)| result == "fail") {
            Some(Authenticated::Fail)
        } else {
            None
        }
    }

    /// The lines that may hold commands: the sender's own words, without
    /// what the mail client quoted (see [`reply`]).
    pub fn command_lines(&self) -> Vec<String> {
        reply::own_words(&self.body, self.html.as_deref(), &reply::Known::none())
    }
}

/// The Message-IDs of an In-Reply-To or References header, bare.
fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    let bare = |id: &str| id.trim().trim_matches(['<', '>']).to_string();
    match value {
        HeaderValue::Text(text) => vec![bare(text)],
        HeaderValue::TextList(list) => list.iter().map(|t| bare(t)).collect(),
        _ => Vec::new(),
    }
}

/// `Auto-Submitted` other than `no` (RFC 3834: `auto-replied`,
/// `auto-generated`, `auto-notified`, and any other value but `no`).
fn auto_submitted(value: &str) -> bool {
    let keyword = value.split(';').next().unwrap_or_default().trim();
    keyword != "no"
}

/// Robots' addresses: bounces and list software.
fn is_daemon(address: &str) -> bool {
    let local = address
        .split('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    local == "mailer-daemon"
        || local == "postmaster"
        || local.ends_with("-bounces")
        || local.contains("-bounces+")
        || local == "noreply"
        || local == "no-reply"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoted_printable_and_quotes_are_handled() {
        let raw = b"From: Alice <alice@example.org>\r\nTo: pbem@localhost\r\nSubject: Re: Chess2 Board 101 alice\r\nMessage-ID: <m1@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nNf6,d5\r\nSch=C3=B6n!\r\n\r\nOn Mon, 1 Jan 2026, pbem wrote:\r\n> Summary of Chess2 Board 101\r\n";
        let mail = Inbound::parse(raw);
        assert_eq!(mail.from.as_deref(), Some("alice@example.org"));
        assert_eq!(mail.message_id, "m1@example.org");
        assert_eq!(mail.command_lines(), vec!["Nf6,d5", "Schön!"]);
        assert_eq!(mail.automatic, None);
    }

    #[test]
    fn automatic_mail_is_recognised() {
        let auto = Inbound::parse(b"From: a@b.c\r\nAuto-Submitted: auto-replied\r\n\r\nhi\r\n");
        assert_eq!(auto.automatic, Some(Automatic::AutoSubmitted));
        let bounce = Inbound::parse(b"From: MAILER-DAEMON@b.c\r\n\r\nhi\r\n");
        assert_eq!(bounce.automatic, Some(Automatic::MailerDaemon));
        let list = Inbound::parse(b"From: a@b.c\r\nPrecedence: bulk\r\n\r\nhi\r\n");
        assert_eq!(list.automatic, Some(Automatic::BulkPrecedence));
        let null = Inbound::parse(b"Return-Path: <>\r\nFrom: a@b.c\r\n\r\nhi\r\n");
        assert_eq!(null.automatic, Some(Automatic::NullReturnPath));
    }

    #[test]
    fn every_kind_of_robot_is_recognised() {
        for headers in [
            "Auto-Submitted: notification\r\n",
            "Auto-Submitted: auto-generated\r\n",
            "Auto-Submitted: nope\r\n",
            "Precedence: auto_reply\r\n",
            "X-Autoreply: yes\r\n",
            "X-Autorespond: yes\r\n",
            "List-Id: <players.lists.example.org>\r\n",
            "X-Loop: pbem@localhost\r\n",
            "Content-Type: multipart/report; report-type=delivery-status; boundary=b\r\n",
        ] {
            let raw = format!("From: a@b.c\r\n{headers}\r\n--b\r\n\r\nhi\r\n--b--\r\n");
            assert!(
                Inbound::parse(raw.as_bytes()).automatic.is_some(),
                "{headers}"
            );
        }
        for from in [
            "pbem-bounces@localhost",
            "list-bounces+x=y@lists.example.org",
        ] {
            let raw = format!("From: {from}\r\n\r\nhi\r\n");
            assert_eq!(
                Inbound::parse(raw.as_bytes()).automatic,
                Some(Automatic::MailerDaemon),
                "{from}"
            );
        }
        let person = Inbound::parse(b"From: a@b.c\r\nAuto-Submitted: no\r\n\r\nhi\r\n");
        assert_eq!(person.automatic, None);
    }

    #[test]
    fn authentication_results_of_the_named_server_alone_count() {
        let mail = |results: &str| {
            Inbound::parse(
                format!("From: alice@example.org\r\n{results}\r\n\r\nhelp\r\n").as_bytes(),
            )
        };
        let pass =
            mail("Authentication-Results: mx.pbem.example; dmarc=pass header.from=example.org");
        assert_eq!(
            pass.authenticated("mx.pbem.example"),
            Some(Authenticated::Pass)
        );
        assert_eq!(
            pass.authenticated("other.example"),
            None,
            "another server's"
        );
        let forged = mail(
            "Authentication-Results: mx.pbem.example; spf=fail smtp.mailfrom=evil.org; dkim=none\r\n\
             Authentication-Results: mx.evil.org; dmarc=pass",
        );
        assert_eq!(
            forged.authenticated("mx.pbem.example"),
            Some(Authenticated::Fail)
        );
        let dkim = mail(
            "Authentication-Results: mx.pbem.example 1; dkim=pass header.d=example.org; spf=fail smtp.mailfrom=x.org",
        );
        assert_eq!(
            dkim.authenticated("mx.pbem.example"),
            Some(Authenticated::Pass)
        );
        let dkim_elsewhere =
            mail("Authentication-Results: mx.pbem.example; dkim=pass header.d=evil.org");
        assert_eq!(dkim_elsewhere.authenticated("mx.pbem.example"), None);
        let dmarc_fail =
            mail("Authentication-Results: mx.pbem.example; dmarc=fail header.from=example.org");
        assert_eq!(
            dmarc_fail.authenticated("mx.pbem.example"),
            Some(Authenticated::Fail)
        );
    }

    #[test]
    fn several_senders_are_refused() {
        let two_headers = Inbound::parse(b"From: a@b.c\r\nFrom: alice@example.org\r\n\r\nhelp\r\n");
        assert_eq!(two_headers.automatic, Some(Automatic::SeveralFrom));
        let two_addresses = Inbound::parse(b"From: a@b.c, alice@example.org\r\n\r\nhelp\r\n");
        assert_eq!(two_addresses.automatic, Some(Automatic::SeveralFrom));
    }

    #[test]
    fn garbage_gets_a_stable_id_and_no_sender() {
        let garbage = [0u8, 159, 146, 150, 255, 10, 13];
        let first = Inbound::parse(&garbage);
        assert_eq!(first, Inbound::parse(&garbage));
        assert_eq!(first.from, None);
    }
}
