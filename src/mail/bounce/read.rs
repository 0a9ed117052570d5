//! Reading a bounce: an RFC 3464 DSN, qmail's, Exim's, or another
//! mailer daemon's (see the parent module).

use mail_parser::{HeaderValue, Message, MessageParser, MessagePart, MimeHeaders, PartType};

use super::*;
use crate::mail::address;

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
pub(super) fn guess_status(text: &str) -> Option<Status> {
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
pub(super) fn enhanced_at(bytes: &[u8]) -> Option<(Status, usize)> {
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
pub(super) fn one_line(text: &str) -> Option<String> {
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
