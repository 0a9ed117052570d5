//! A received mail, reduced to what the service needs. Parsing never fails:
//! a mail that is garbage simply has empty fields.

use mail_parser::{HeaderValue, MessageParser, PartType};

use super::reply;
use sha2::{Digest, Sha256};

/// A received mail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inbound {
    /// The Message-ID, or for a mail without one a stable id derived from
    /// its bytes, so that it too is processed once only.
    pub message_id: String,
    /// The sender's address (From).
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
    /// Why the mail is automatic (never to be answered), if it is.
    pub automatic: Option<Automatic>,
    /// The size of the raw mail in bytes.
    pub size: usize,
}

/// Why a mail counts as automatic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Automatic {
    AutoSubmitted,
    BulkPrecedence,
    NullReturnPath,
    MailerDaemon,
}

impl Inbound {
    pub fn parse(raw: &[u8]) -> Inbound {
        let synthetic_id = || {
            let digest = Sha256::digest(raw);
            let hex: String = digest.iter().take(16).map(|b| format!("{b:02x}")).collect();
            format!("{hex}@no-message-id.pbem")
        };
        let Some(message) = MessageParser::default().parse(raw) else {
            return Inbound {
                message_id: synthetic_id(),
                from: None,
                recipients: Vec::new(),
                subject: String::new(),
                body: String::new(),
                html: None,
                answers: Vec::new(),
                automatic: None,
                size: raw.len(),
            };
        };
        let from = message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(|a| a.trim().to_string())
            .filter(|a| a.contains('@'));
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
        let automatic = if header_text("Auto-Submitted").is_some_and(|v| !v.starts_with("no")) {
            Some(Automatic::AutoSubmitted)
        } else if header_text("Precedence")
            .is_some_and(|v| ["bulk", "list", "junk"].iter().any(|p| v.starts_with(p)))
        {
            Some(Automatic::BulkPrecedence)
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
                .unwrap_or_else(synthetic_id),
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

fn is_daemon(address: &str) -> bool {
    let local = address
        .split('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    local == "mailer-daemon" || local == "postmaster"
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
    fn garbage_gets_a_stable_id_and_no_sender() {
        let garbage = [0u8, 159, 146, 150, 255, 10, 13];
        let first = Inbound::parse(&garbage);
        assert_eq!(first, Inbound::parse(&garbage));
        assert_eq!(first.from, None);
    }
}
