//! Bounces: which mail of pbem's could not be delivered, to whom, and
//! whether for good. Pure: no I/O, no store; the caller matches what is
//! read here against the mails it sent.
//!
//! Two halves:
//! * VERP ([`Verp`]): every mail pbem sends goes out with an envelope
//!   sender that names it, `local+b<outbox id>.<day>.<mac>@domain`, where
//!   the day is the day it was sent (days since 1970-01-01) and the MAC an
//!   HMAC-SHA256 of both under the server's token key ([`TokenKey`]), kept
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

use hmac::Mac;
use mail_parser::{HeaderValue, Message, MessageParser, MessagePart, MimeHeaders, PartType};
use time::{Date, Duration, OffsetDateTime};

use super::token::{TokenKey, decode_hex, hex};
use super::{ServerAddress, address};

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

/// One mail pbem sent, as its bounce address names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentMail {
    /// Its id in the outbox.
    pub outbox_id: i64,
    /// The day it was sent (UTC).
    pub sent_on: Date,
}

/// The server's bounce address and the key its VERP addresses are signed
/// with.
#[derive(Clone, Debug)]
pub struct Verp {
    address: ServerAddress,
    key: TokenKey,
}

impl Verp {
    /// Bounce addresses `address.local+<token>@address.domain` signed with
    /// `key` (the reply tokens' key: one secret for the server).
    pub fn new(address: ServerAddress, key: TokenKey) -> Verp {
        Verp { address, key }
    }

    /// The envelope sender of `mail`.
    pub fn sender(&self, mail: SentMail) -> String {
        let day = unix_day(mail.sent_on);
        let tag = self.mac(mail.outbox_id, day).finalize().into_bytes();
        let mut digits = hex(&tag);
        digits.truncate(MAC_HEX_LEN);
        self.address
            .with_token(&format!("{TOKEN_MARK}{}.{day}.{digits}", mail.outbox_id))
    }

    /// The mail `address` names, if it is one of [`Verp::sender`]'s (its
    /// MAC verifies; case does not matter, since some mail systems fold
    /// it) and no older than [`MAX_TOKEN_AGE`] on `today`.
    pub fn read(&self, address: &str, today: Date) -> Option<SentMail> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let token = self.address.token_of(address)?;
        let token = token
            .strip_prefix(TOKEN_MARK)
            .or_else(|| token.strip_prefix(TOKEN_MARK.to_ascii_uppercase()))?;
        let mut parts = token.split('.');
        let outbox_id: i64 = digits(parts.next()?, 19)?.parse().ok()?;
        // Seven digits reach past the last day `time` knows (year 9999).
        let day: i64 = digits(parts.next()?, 7)?.parse().ok()?;
        let mac = parts.next()?;
        if parts.next().is_some() || mac.len() != MAC_HEX_LEN {
            return None;
        }
        let tag = decode_hex(&mac.to_ascii_lowercase())?;
        self.mac(outbox_id, day).verify_truncated_left(&tag).ok()?;
        let sent_on = OffsetDateTime::UNIX_EPOCH
            .date()
            .checked_add(Duration::days(day))?;
        let age = today - sent_on;
        (age <= MAX_TOKEN_AGE && age >= -FUTURE_SLACK).then_some(SentMail { outbox_id, sent_on })
    }

    fn mac(&self, outbox_id: i64, day: i64) -> hmac::Hmac<sha2::Sha256> {
        let mut mac = self.key.mac_for(PURPOSE);
        mac.update(format!("{outbox_id}\0{day}").as_bytes());
        mac
    }
}

/// Days since 1970-01-01.
fn unix_day(date: Date) -> i64 {
    (date - OffsetDateTime::UNIX_EPOCH.date()).whole_days()
}

/// `text` if it is a number as [`Verp::sender`] writes it: at most `max`
/// ASCII digits (short enough that no arithmetic on it overflows), no
/// sign, no spaces, no leading zero (one spelling per number).
fn digits(text: &str, max: usize) -> Option<&str> {
    (!text.is_empty()
        && text.len() <= max
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0')))
    .then_some(text)
}

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

/// Reads `raw` as a bounce; `None` when it is none (an out-of-office reply
/// to a bounce address is not one).
pub fn read(raw: &[u8]) -> Option<Bounce> {
    let raw = &raw[..raw.len().min(MAX_READ_BYTES)];
    let message = MessageParser::default().parse(raw)?;
    let mut envelope = Vec::new();
    for name in ["Delivered-To", "X-Original-To", "Envelope-To", "To"] {
        for value in message.header_values(name) {
            // Room is kept for the two the report and the returned mail name.
            push_addresses(&mut envelope, value, MAX_ENVELOPE_ADDRESSES - 2);
        }
    }
    let found = dsn(&message)
        .or_else(|| qmail(&message))
        .or_else(|| exim(&message))
        .or_else(|| other(&message))?;
    let mut returned = found.returned.unwrap_or_default();
    envelope.extend(found.envelope);
    envelope.extend(returned.return_path.take());
    Some(Bounce {
        format: found.format,
        reports: found.reports,
        envelope,
        message_id: returned.message_id,
    })
}

/// What one reader found in a bounce.
struct Found {
    format: Format,
    reports: Vec<Report>,
    /// The envelope sender the report itself names (Postfix's
    /// `X-Postfix-Sender`).
    envelope: Option<String>,
    returned: Option<Returned>,
}

/// What the returned mail's headers tell.
#[derive(Default)]
struct Returned {
    message_id: Option<String>,
    return_path: Option<String>,
}

impl Returned {
    fn of(message: &Message<'_>) -> Returned {
        let return_path = match message.header("Return-Path") {
            Some(HeaderValue::Text(text)) => Some(text.to_string()),
            Some(HeaderValue::TextList(list)) => list.first().map(|t| t.to_string()),
            Some(HeaderValue::Address(address)) => address
                .first()
                .and_then(|a| a.address())
                .map(str::to_string),
            _ => None,
        };
        Returned {
            message_id: message.message_id().and_then(message_id),
            return_path: return_path.map(|p| p.trim().trim_matches(['<', '>']).to_string()),
        }
    }

    /// The headers at the start of `text` (a returned mail, or its headers).
    fn in_text(text: &str) -> Option<Returned> {
        let text = text.trim_start_matches(['\r', '\n']);
        MessageParser::default()
            .parse_headers(text.as_bytes())
            .map(|message| Returned::of(&message))
            .filter(|returned| returned.message_id.is_some() || returned.return_path.is_some())
    }

    /// The returned mail of a multipart bounce: a `message/rfc822` part
    /// (or `message/global`), or its headers alone (`text/rfc822-headers`).
    fn in_parts(message: &Message<'_>) -> Option<Returned> {
        message.parts.iter().find_map(|part| {
            let (ctype, subtype) = content_type(part)?;
            match (ctype.as_str(), subtype.as_str()) {
                ("message", "rfc822" | "global") => match &part.body {
                    PartType::Message(nested) => Some(Returned::of(nested)),
                    _ => Returned::in_text(&String::from_utf8_lossy(bounded(part.contents()))),
                },
                ("text" | "message", "rfc822-headers" | "global-headers") => {
                    Returned::in_text(&String::from_utf8_lossy(bounded(part.contents())))
                }
                _ => None,
            }
        })
    }
}

/// A Message-ID fit to be looked up: without angle brackets, short, with
/// no spaces or control characters.
fn message_id(text: &str) -> Option<String> {
    let id = text.trim().trim_start_matches('<').trim_end_matches('>');
    (!id.is_empty()
        && id.len() <= MAX_MESSAGE_ID_LEN
        && id
            .bytes()
            .all(|b| b.is_ascii_graphic() && b != b'<' && b != b'>'))
    .then(|| id.to_string())
}

/// A part's content type and subtype, lowercased.
fn content_type(part: &MessagePart<'_>) -> Option<(String, String)> {
    let content_type = part.content_type()?;
    Some((
        content_type.ctype().to_ascii_lowercase(),
        content_type.subtype().unwrap_or("").to_ascii_lowercase(),
    ))
}

/// The first [`MAX_TEXT_BYTES`] of `bytes`.
fn bounded(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.len().min(MAX_TEXT_BYTES)]
}

/// The first [`MAX_TEXT_BYTES`] of `text`, cut at a character boundary.
fn bounded_text(text: &str) -> &str {
    let mut end = text.len().min(MAX_TEXT_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The addresses in a header value, as written, until `into` holds `max`.
fn push_addresses(into: &mut Vec<String>, value: &HeaderValue<'_>, max: usize) {
    let room = max.saturating_sub(into.len());
    match value {
        HeaderValue::Address(address) => into.extend(
            address
                .iter()
                .filter_map(|a| a.address())
                .map(str::to_string)
                .take(room),
        ),
        HeaderValue::Text(text) => {
            into.extend(Some(text.trim().to_string()).into_iter().take(room))
        }
        HeaderValue::TextList(list) => {
            into.extend(list.iter().map(|t| t.trim().to_string()).take(room))
        }
        _ => {}
    }
}

/// The text of a mail's first text part, bounded.
fn body_text<'m>(message: &'m Message<'_>) -> Option<&'m str> {
    let part = message.part(*message.text_body.first()?)?;
    match &part.body {
        PartType::Text(text) => Some(bounded_text(text)),
        _ => None,
    }
}

// ---- RFC 3464 ----

/// A delivery status notification: its `message/delivery-status` part
/// (`message/global-delivery-status`, RFC 6533) read field by field.
fn dsn(message: &Message<'_>) -> Option<Found> {
    let status = message.parts.iter().find(|part| {
        content_type(part).is_some_and(|(ctype, subtype)| {
            ctype == "message"
                && (subtype == "delivery-status" || subtype == "global-delivery-status")
        })
    })?;
    let text = String::from_utf8_lossy(bounded(status.contents()));
    let mut envelope = None;
    let mut reports = Vec::new();
    for (index, group) in field_groups(&text).iter().enumerate() {
        let field = |name: &str| {
            group
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.as_str())
        };
        let is_recipient = ["Final-Recipient", "Original-Recipient", "Action"]
            .iter()
            .any(|name| field(name).is_some());
        if !is_recipient {
            // The per-message fields come first.
            if index == 0 {
                envelope = field("X-Postfix-Sender").map(|v| without_type(v).to_string());
            }
            continue;
        }
        if reports.len() == MAX_REPORTS {
            break;
        }
        let recipient = field("Final-Recipient")
            .and_then(recipient_address)
            .or_else(|| field("Original-Recipient").and_then(recipient_address));
        let diagnostic = field("Diagnostic-Code").map_or("", without_type);
        let status = field("Status")
            .and_then(Status::parse)
            .or_else(|| guess_status(diagnostic));
        let action = field("Action").map_or(Action::Unknown, Action::parse);
        reports.push(Report::new(recipient, action, status, diagnostic));
    }
    Some(Found {
        format: Format::Dsn,
        reports,
        envelope,
        returned: Returned::in_parts(message),
    })
}

/// The groups of fields of a delivery-status part (separated by blank
/// lines), each field's name and value with folded lines joined.
fn field_groups(text: &str) -> Vec<Vec<(String, String)>> {
    let mut groups = Vec::new();
    let mut group: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        if line.trim().is_empty() {
            if !group.is_empty() {
                groups.push(std::mem::take(&mut group));
                if groups.len() > MAX_REPORTS {
                    return groups;
                }
            }
        } else if line.starts_with([' ', '\t']) {
            if let Some((_, value)) = group.last_mut()
                && value.len() < MAX_FIELD_CHARS
            {
                value.push(' ');
                value.push_str(line.trim());
            }
        } else if let Some((name, value)) = line.split_once(':')
            && group.len() < MAX_FIELDS
        {
            group.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
    if !group.is_empty() {
        groups.push(group);
    }
    groups
}

/// The value of a typed field without its type: `rfc822; bob@example.org`
/// is `bob@example.org`, `smtp; 550 5.1.1 ...` is `550 5.1.1 ...`.
fn without_type(value: &str) -> &str {
    value.split_once(';').map_or(value, |(_, rest)| rest).trim()
}

/// The address of a recipient field, if pbem could write to it.
fn recipient_address(value: &str) -> Option<String> {
    address::normalize(without_type(value)).ok()
}

// ---- Plain-text bounces ----

/// qmail's bounce: "Hi. This is the qmail-send program at ...", then each
/// recipient as `<address>:` followed by what happened, then the returned
/// mail after "--- Below this line is a copy of the message." qmail sends
/// one only when it has given up, so each recipient failed; the code at
/// the end of its lines (`(#5.1.1)`) tells whether for good.
fn qmail(message: &Message<'_>) -> Option<Found> {
    let text = body_text(message)?;
    if !text.contains("This is the qmail-send program") {
        return None;
    }
    let (report, copy) = split_at_marker(text, &QMAIL_COPY_MARKERS);
    let reports = listed_recipients(report)
        .into_iter()
        .map(|(recipient, diagnostic)| {
            Report::new(
                Some(recipient),
                Action::Failed,
                guess_status(&diagnostic),
                &diagnostic,
            )
        })
        .collect();
    Some(Found {
        format: Format::Qmail,
        reports,
        envelope: None,
        returned: copy.and_then(Returned::in_text),
    })
}

/// Where qmail's bounce (and those written after it) copies the mail.
const QMAIL_COPY_MARKERS: [&str; 2] = [
    "--- Below this line is a copy of the message.",
    "--- Enclosed are the original headers of the message.",
];

/// The recipients listed as qmail lists them, `<address>:` at the start of
/// a line, each with what is said of it: the rest of the line (Postfix's
/// and Yahoo's way) and the lines up to the next blank one (qmail's).
fn listed_recipients(report: &str) -> Vec<(String, String)> {
    let mut listed = Vec::new();
    let mut lines = report.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((recipient, rest)) = line
            .strip_prefix('<')
            .and_then(|l| l.split_once(">:"))
            .and_then(|(a, rest)| Some((address::normalize(a).ok()?, rest)))
        else {
            continue;
        };
        let mut diagnostic = rest.trim().to_string();
        while let Some(next) = lines.next_if(|l| !l.trim().is_empty()) {
            if diagnostic.len() < MAX_FIELD_CHARS {
                diagnostic.push(' ');
                diagnostic.push_str(next.trim());
            }
        }
        listed.push((recipient, diagnostic));
        if listed.len() == MAX_REPORTS {
            break;
        }
    }
    listed
}

/// Exim's bounce without DSN: "This message was created automatically by
/// mail delivery software.", each recipient indented by two spaces with
/// what happened indented further, and the returned mail after "------
/// This is a copy of the message". Its delay warning says the mail "has
/// not yet been delivered". Exim also lists the failed recipients in
/// `X-Failed-Recipients`, read when the text gives none.
fn exim(message: &Message<'_>) -> Option<Found> {
    let text = body_text(message)?;
    if !text.contains("This message was created automatically by mail delivery software") {
        return None;
    }
    const COPY_MARKERS: [&str; 2] = [
        "------ This is a copy of the message",
        "------ The body of the message is",
    ];
    let (report, copy) = split_at_marker(text, &COPY_MARKERS);
    let delayed = report.contains("has not yet been delivered");
    let action = if delayed {
        Action::Delayed
    } else {
        Action::Failed
    };
    let mut reports = Vec::new();
    let mut lines = report.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(written) = line
            .strip_prefix("  ")
            .filter(|l| !l.starts_with([' ', '\t']))
        else {
            continue;
        };
        let written = written.trim().trim_end_matches(':');
        let Ok(recipient) = address::normalize(written) else {
            continue;
        };
        let mut diagnostic = String::new();
        while let Some(next) = lines.next_if(|l| l.starts_with("    ") || l.starts_with('\t')) {
            if diagnostic.len() < MAX_FIELD_CHARS {
                diagnostic.push_str(next.trim());
                diagnostic.push(' ');
            }
        }
        reports.push(exim_report(recipient, action, &diagnostic));
        if reports.len() == MAX_REPORTS {
            break;
        }
    }
    if reports.is_empty() {
        reports = failed_recipients(message)
            .into_iter()
            .map(|recipient| exim_report(recipient, action, report))
            .collect();
    }
    Some(Found {
        format: Format::Exim,
        reports,
        envelope: None,
        returned: Returned::in_parts(message).or_else(|| copy.and_then(Returned::in_text)),
    })
}

/// One recipient of Exim's: "retry timeout exceeded" with no code means it
/// gave up after transient errors (as a DSN's 4.4.7).
fn exim_report(recipient: String, action: Action, diagnostic: &str) -> Report {
    let status = guess_status(diagnostic).or_else(|| {
        diagnostic
            .contains("retry timeout exceeded")
            .then_some(Status {
                class: 4,
                subject: 4,
                detail: 7,
            })
    });
    Report::new(Some(recipient), action, status, diagnostic)
}

/// The addresses of `X-Failed-Recipients` (Exim's, also written by others).
fn failed_recipients(message: &Message<'_>) -> Vec<String> {
    let mut written = Vec::new();
    for value in message.header_values("X-Failed-Recipients") {
        push_addresses(&mut written, value, MAX_REPORTS);
    }
    written
        .iter()
        .flat_map(|value| value.split(','))
        .filter_map(|a| address::normalize(a).ok())
        .take(MAX_REPORTS)
        .collect()
}

/// Words in a bounce's subject (lowercased).
const BOUNCE_SUBJECTS: [&str; 13] = [
    "undeliver",
    "undelivered",
    "returned mail",
    "delivery status notification",
    "delivery failure",
    "failure notice",
    "mail delivery failed",
    "delivery has failed",
    "non-delivery",
    "could not be delivered",
    "not delivered",
    "delivery delayed",
    "delayed mail",
];

/// Any other bounce: from a mailer daemon (or with an empty Return-Path),
/// with a bounce's subject. Its recipients are those listed as qmail lists
/// them (`<address>:`, as Yahoo does), else those of
/// `X-Failed-Recipients`, else one report with no recipient; the failure
/// is what a status code said of the recipient (or anywhere in the text)
/// makes it, and transient when there is none (nothing proves it
/// permanent); a delay when its subject or text says so.
fn other(message: &Message<'_>) -> Option<Found> {
    let from_daemon = message
        .from()
        .and_then(|from| from.first())
        .and_then(|from| from.address())
        .and_then(|from| from.rsplit_once('@'))
        .is_some_and(|(local, _)| {
            ["mailer-daemon", "mail-daemon", "mailerdaemon", "postmaster"]
                .iter()
                .any(|daemon| local.eq_ignore_ascii_case(daemon))
        });
    let null_sender = message
        .header_raw("Return-Path")
        .is_some_and(|path| path.trim().replace(' ', "") == "<>");
    let subject = message.subject().unwrap_or("").to_ascii_lowercase();
    if !(from_daemon || null_sender) || !BOUNCE_SUBJECTS.iter().any(|s| subject.contains(s)) {
        return None;
    }
    let text = body_text(message).unwrap_or("");
    let (said, copy) = split_at_marker(text, &QMAIL_COPY_MARKERS);
    let delayed = subject.contains("delay")
        || [
            "has not yet been delivered",
            "will continue",
            "still trying",
        ]
        .iter()
        .any(|phrase| said.contains(phrase));
    let action = if delayed {
        Action::Delayed
    } else {
        Action::Failed
    };
    // What is said of a recipient, else of the whole mail, gives the code.
    let report = |recipient: Option<String>, of_recipient: &str| {
        let status = guess_status(of_recipient).or_else(|| guess_status(said));
        let mut report = Report::new(recipient, action, status, of_recipient);
        if !delayed && status.is_none() {
            report.severity = Some(Severity::Transient);
        }
        report
    };
    let listed = listed_recipients(said);
    let reports = if !listed.is_empty() {
        listed
            .iter()
            .map(|(recipient, of_recipient)| report(Some(recipient.clone()), of_recipient))
            .collect()
    } else {
        let failed = failed_recipients(message);
        if failed.is_empty() {
            vec![report(None, "")]
        } else {
            failed.into_iter().map(|r| report(Some(r), "")).collect()
        }
    };
    Some(Found {
        format: Format::Other,
        reports,
        envelope: None,
        returned: Returned::in_parts(message).or_else(|| copy.and_then(Returned::in_text)),
    })
}

/// `text` before the first of `markers`, and what follows the marker.
fn split_at_marker<'t>(text: &'t str, markers: &[&str]) -> (&'t str, Option<&'t str>) {
    markers
        .iter()
        .filter_map(|marker| text.find(marker).map(|at| (at, marker.len())))
        .min()
        .map_or((text, None), |(at, len)| {
            let rest = &text[at + len..];
            // The rest of the marker's line ("including all the headers. ------").
            let rest = rest.split_once('\n').map_or("", |(_, after)| after);
            (&text[..at], Some(rest))
        })
}

/// The first failure code in a bounce's text: an enhanced status code
/// (`5.1.1`, qmail's `#5.1.1`) if there is one, else an SMTP reply code
/// (`550`). Success codes (a `250 OK` of an earlier step) are left out, and
/// so are numbers inside others (an IP address like `10.5.1.1`).
fn guess_status(text: &str) -> Option<Status> {
    let bytes = text.as_bytes();
    let starts = || {
        (0..bytes.len()).filter(|&i| {
            matches!(bytes[i], b'4' | b'5') && (i == 0 || !is_number_char(bytes[i - 1]))
        })
    };
    starts()
        .find_map(|i| enhanced_at(&bytes[i..]).map(|(status, _)| status))
        .or_else(|| {
            starts().find_map(|i| {
                let code = bytes.get(i..i + 3)?;
                let after = bytes.get(i + 3).copied();
                (code[1..].iter().all(u8::is_ascii_digit)
                    && matches!(after, None | Some(b' ' | b'-' | b':' | b'\r' | b'\n')))
                .then_some(Status {
                    class: code[0] - b'0',
                    subject: 0,
                    detail: 0,
                })
            })
        })
}

/// A character that belongs to a number or a dotted run of them.
fn is_number_char(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'.'
}

/// The enhanced status code at the start of `bytes` (class 2, 4 or 5, then
/// one to three digits twice, dot-separated, not followed by more of a
/// number), and its length.
fn enhanced_at(bytes: &[u8]) -> Option<(Status, usize)> {
    let class = match bytes.first()? {
        b @ (b'2' | b'4' | b'5') => b - b'0',
        _ => return None,
    };
    let (subject, after_subject) = number_after_dot(bytes, 1)?;
    let (detail, end) = number_after_dot(bytes, after_subject)?;
    let more = match bytes.get(end) {
        Some(b) if b.is_ascii_alphanumeric() => true,
        Some(b'.') => bytes.get(end + 1).is_some_and(u8::is_ascii_digit),
        _ => false,
    };
    (!more).then_some((
        Status {
            class,
            subject,
            detail,
        },
        end,
    ))
}

/// The one to three digits after a dot at `at`, and where they end.
fn number_after_dot(bytes: &[u8], at: usize) -> Option<(u16, usize)> {
    if bytes.get(at) != Some(&b'.') {
        return None;
    }
    let start = at + 1;
    let len = bytes[start.min(bytes.len())..]
        .iter()
        .take(4)
        .take_while(|b| b.is_ascii_digit())
        .count();
    if !(1..=3).contains(&len) {
        return None;
    }
    let digits = std::str::from_utf8(&bytes[start..start + len]).ok()?;
    Some((digits.parse().ok()?, start + len))
}

/// `text` on one line (control characters as spaces, runs of spaces as
/// one), at most [`MAX_DIAGNOSTIC_CHARS`] characters; `None` when empty.
fn one_line(text: &str) -> Option<String> {
    let line: String = text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .take(MAX_DIAGNOSTIC_CHARS)
        .collect();
    (!line.is_empty()).then_some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
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
            include_bytes!(concat!("../../tests/fixtures/bounces/", $name)).as_slice()
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
                format!(
                    "Final-Recipient: rfc822; u{i}@example.org\nAction: failed\nStatus: 5.1.1\n\n"
                )
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
}
