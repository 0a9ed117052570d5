//! Bounces: which mail of pbem's could not be delivered, to whom, and
//! whether for good. Pure: no I/O, no store; the caller matches what is
//! read here against the mails it sent.
//!
//! Two halves:
//! * VERP ([`Verp`]): every mail pbem sends goes out with an envelope
//!   sender that names it, `local+b<outbox id>.<day>.<mac>@domain`, where
//!   the day is the day it was sent (days since 1970-01-01) and the MAC an
//!   HMAC-SHA256 of both under the server's token key ([`TokenKey`](crate::mail::token::TokenKey)), kept
//!   apart from reply tokens by its purpose. A bounce goes to that address,
//!   so it names the mail, and only pbem can make one that verifies. The
//!   day makes an old address worthless after [`MAX_TOKEN_AGE`], and keeps
//!   a reused outbox id (SQLite may hand out the id of a pruned row again)
//!   from naming a newer mail.
//! * Reading a bounce ([`read`]): an RFC 3464 delivery status notification
//!   (`multipart/report; report-type=delivery-status`, or its RFC 6533
//!   UTF-8 form), and as far as they can be read three kinds that are not
//!   one: qmail's ("Hi. This is the qmail-send program"), Exim's without
//!   DSN ("This message was created automatically by mail delivery
//!   software", `X-Failed-Recipients`), and any other mail from a mailer
//!   daemon with a bounce's subject ([`Format`]). What is read: for each
//!   recipient the action, the status code and whether the failure is
//!   permanent or transient ([`Report`]); and what identifies the mail
//!   bounced: the addresses the bounce was sent to (for VERP) and the
//!   Message-ID of the returned mail ([`Bounce::original`]).
//!
//! Every bounce is hostile: anyone can write one. Nothing read here is
//! trusted: a VERP address counts only if its MAC verifies, and a
//! Message-ID only if the caller finds it among the mails it sent, to the
//! recipient the bounce names. No input panics, and the work is bounded:
//! only the first [`MAX_READ_BYTES`] of a mail are read, at most
//! [`MAX_REPORTS`] recipients, and short fields.

mod read;
#[cfg(test)]
mod tests;
mod verp;

use time::{Date, Duration};

pub use read::read;
use read::{enhanced_at, one_line};
pub use verp::{SentMail, Verp};

/// What the MAC of a bounce address is for (reply tokens have their own).
const PURPOSE: &str = "pbem bounce address";
/// The first character of a bounce token: reply tokens start with a digit.
const TOKEN_MARK: char = 'b';
/// Hex digits of the MAC kept in a bounce address (64 bits, as in reply
/// tokens).
const MAC_HEX_LEN: usize = 16;
/// How long after its mail was sent a bounce address is still read: mail
/// systems give up on a mail after five days (Postfix, Exim) to a week.
pub const MAX_TOKEN_AGE: Duration = Duration::days(14);
/// A bounce address dated this far after today is still read (the clock of
/// the process that sent the mail may be ahead of the one reading).
const FUTURE_SLACK: Duration = Duration::days(1);

/// The most of a mail that is read: a DSN's report comes before the
/// returned mail, and mail systems return at most about 50 KB of it.
pub const MAX_READ_BYTES: usize = 1024 * 1024;
/// The most of a delivery-status part, or of a bounce's text, read.
const MAX_TEXT_BYTES: usize = 64 * 1024;
/// The most recipients read from one bounce.
pub const MAX_REPORTS: usize = 100;
/// The most fields read from one group of a delivery-status part.
const MAX_FIELDS: usize = 32;
/// The longest field value kept (folded lines joined).
const MAX_FIELD_CHARS: usize = 1000;
/// The longest diagnostic kept for the operator.
pub const MAX_DIAGNOSTIC_CHARS: usize = 300;
/// The most addresses looked at as the bounce's envelope address.
const MAX_ENVELOPE_ADDRESSES: usize = 16;
/// The longest Message-ID taken from a returned mail.
const MAX_MESSAGE_ID_LEN: usize = 250;

/// What kind of bounce a mail was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An RFC 3464 delivery status notification.
    Dsn,
    /// qmail's plain-text bounce.
    Qmail,
    /// Exim's plain-text bounce or delay warning.
    Exim,
    /// A mailer daemon's mail with a bounce's subject, in no known form:
    /// read for its recipients (`X-Failed-Recipients`, if any), a status
    /// code in its text, and the mail it returns.
    Other,
}

/// The `Action` of a recipient in a DSN (RFC 3464 section 2.3.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Failed,
    Delayed,
    Delivered,
    Relayed,
    Expanded,
    /// Missing or not one of the above.
    Unknown,
}

impl Action {
    fn parse(value: &str) -> Action {
        // A value may carry a comment: `failed (bad address)`.
        let word = value.split_whitespace().next().unwrap_or("");
        match word.to_ascii_lowercase().as_str() {
            "failed" => Action::Failed,
            "delayed" => Action::Delayed,
            "delivered" => Action::Delivered,
            "relayed" => Action::Relayed,
            "expanded" => Action::Expanded,
            _ => Action::Unknown,
        }
    }
}

/// An enhanced status code (RFC 3463): `class.subject.detail`. A bare SMTP
/// reply code read from a bounce's text (`550`) is its class with subject
/// and detail 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// 2 success, 4 transient failure, 5 permanent failure.
    pub class: u8,
    pub subject: u16,
    pub detail: u16,
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.class, self.subject, self.detail)
    }
}

impl Status {
    /// A DSN's `Status` field: `5.1.1`, maybe followed by a comment.
    fn parse(value: &str) -> Option<Status> {
        let code = value.split_whitespace().next()?;
        let status = enhanced_at(code.as_bytes())?;
        (status.1 == code.len()).then_some(status.0)
    }

    /// The status of an SMTP reply refusing a recipient: its enhanced code
    /// (`550 5.1.1 User unknown` is 5.1.1) when the text starts with one of
    /// the reply's class, else the reply code's class alone (`550` is
    /// 5.0.0). `None` for a reply that refuses nothing (not 4xx or 5xx).
    /// The text itself is not kept.
    pub fn of_reply(code: u16, text: &str) -> Option<Status> {
        let class = u8::try_from(code / 100)
            .ok()
            .filter(|c| matches!(c, 4 | 5))?;
        Some(
            Status::parse(text)
                .filter(|status| status.class == class)
                .unwrap_or(Status {
                    class,
                    subject: 0,
                    detail: 0,
                }),
        )
    }
}

/// Whether a failure is for good.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The address does not work (`failed` with 5.x.x): mark it failing.
    Permanent,
    /// Delayed, or given up after transient errors (4.x.x): counts toward
    /// marking the address failing.
    Transient,
}

/// What a bounce says of one recipient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The address the mail could not be delivered to (`Final-Recipient`,
    /// else `Original-Recipient`), normalized as pbem writes addresses;
    /// `None` when the bounce does not say, or says it in a form pbem does
    /// not use.
    pub recipient: Option<String>,
    pub action: Action,
    pub status: Option<Status>,
    /// Permanent or transient failure; `None` when this is no failure
    /// (`delivered`, `relayed`, `expanded`) or nothing tells.
    pub severity: Option<Severity>,
    /// What the mail system said (`Diagnostic-Code`, or the lines under
    /// the address in a plain-text bounce), on one line, at most
    /// [`MAX_DIAGNOSTIC_CHARS`] characters, for the operator.
    pub diagnostic: Option<String>,
}

impl Report {
    fn new(
        recipient: Option<String>,
        action: Action,
        status: Option<Status>,
        diagnostic: &str,
    ) -> Report {
        Report {
            severity: severity(action, status),
            recipient,
            action,
            status,
            diagnostic: one_line(diagnostic),
        }
    }
}

/// A DSN's severity: `failed` is permanent unless its status says the
/// trouble was transient (Postfix gives up on a deferred mail with
/// `failed` and 4.4.1); `delayed` is transient; an unknown action is
/// whatever its status class says. A `failed` with a success status
/// contradicts itself and is taken as the milder, transient.
fn severity(action: Action, status: Option<Status>) -> Option<Severity> {
    let class = status.map(|s| s.class);
    match action {
        Action::Delivered | Action::Relayed | Action::Expanded => None,
        Action::Delayed => Some(Severity::Transient),
        Action::Failed => match class {
            Some(5) | None => Some(Severity::Permanent),
            Some(_) => Some(Severity::Transient),
        },
        Action::Unknown => match class {
            Some(5) => Some(Severity::Permanent),
            Some(4) => Some(Severity::Transient),
            _ => None,
        },
    }
}

/// What a bounce says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bounce {
    pub format: Format,
    /// What happened, recipient by recipient (at most [`MAX_REPORTS`]).
    pub reports: Vec<Report>,
    /// The addresses that may be the envelope sender of the mail bounced:
    /// where the bounce was delivered (`Delivered-To`, `X-Original-To`,
    /// `Envelope-To`, `To`), Postfix's `X-Postfix-Sender`, and the
    /// `Return-Path` of the returned mail; at most 16. The caller may add
    /// the envelope recipient its mail system told it.
    pub envelope: Vec<String>,
    /// The Message-ID of the returned mail (from its returned headers),
    /// without angle brackets.
    pub message_id: Option<String>,
}

/// The mail pbem sent that a bounce is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Original {
    /// Named by a VERP address whose MAC verified: pbem made it.
    Verp(SentMail),
    /// Only the returned mail's Message-ID (without angle brackets): the
    /// caller must find it among the mails it sent before believing it.
    MessageId(String),
}

impl Bounce {
    /// The mail the bounce is about: the first of its [`Bounce::envelope`]
    /// addresses that `verp` reads, else the returned Message-ID. `None`
    /// when neither is there: such a bounce must change nothing.
    pub fn original(&self, verp: &Verp, today: Date) -> Option<Original> {
        self.envelope
            .iter()
            .find_map(|address| verp.read(address, today))
            .map(Original::Verp)
            .or_else(|| self.message_id.clone().map(Original::MessageId))
    }
}
