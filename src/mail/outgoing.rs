//! Building the mails the server sends, as complete RFC 5322 messages
//! (lettre's message builder), ready for the outbox.
//!
//! A mail is its text alone (`text/plain`), or, with an HTML part,
//! `multipart/alternative` of the text and a `multipart/related` holding
//! the HTML and its inline pictures (by Content-ID); attachments (a
//! finished game's PGN) wrap either in `multipart/mixed`. The pictures
//! are not drawn here: each gets a placeholder and a description, and is
//! drawn when the mail is sent ([`super::pictures`]).

use std::time::SystemTime;

use lettre::Address;
use lettre::message::header::{
    self, ContentTransferEncoding, ContentType, HeaderName, HeaderValue,
};
use lettre::message::{Attachment, Body, Mailbox, Mailboxes, Message, MultiPart, SinglePart};
use time::OffsetDateTime;

use super::ServerAddress;
use super::address;
use super::pictures::{self, Placed, TOKEN_BYTES};
use crate::render::picture::Scene;

/// A mail to send.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outgoing {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    /// Where replies go: a reply-token address for board mails.
    pub reply_to: Option<String>,
    /// The Message-ID of the mail this one answers.
    pub in_reply_to: Option<String>,
    /// Message-IDs of the thread (the board's thread root, the mail
    /// answered).
    pub references: Vec<String>,
    /// The HTML alternative of the text, with its inline pictures.
    pub html: Option<Html>,
    /// Files attached (a finished game's PGN).
    pub attachments: Vec<File>,
    /// Not sent before this time (`None`: at once): the board mails of a
    /// game action made while pbem's total ceiling was used up.
    pub send_after: Option<time::OffsetDateTime>,
}

/// An HTML part and the pictures it shows by `cid:` URL.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Html {
    pub body: String,
    pub images: Vec<Inline>,
}

/// A picture (a PNG) shown inside the HTML part.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inline {
    /// The Content-ID, without angle brackets (`board-101@pbem`).
    pub content_id: String,
    /// What it shows; drawn when the mail is sent.
    pub scene: Scene,
}

/// A mail built for the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The RFC 5322 message, each picture's body a placeholder.
    pub message: Vec<u8>,
    /// What its pictures show ([`pictures::describe`]); `None` without.
    pub pictures: Option<String>,
}

impl Built {
    /// The message as it is sent, its pictures drawn.
    pub fn complete(&self) -> Vec<u8> {
        pictures::complete(0, &self.message, self.pictures.as_deref()).into_owned()
    }
}

/// An attached file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub name: String,
    /// Its MIME type (`application/vnd.chess-pgn`).
    pub mime: String,
    pub bytes: Vec<u8>,
}

/// Why a mail could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    BadAddress(#[from] address::AddressError),
    #[error("the mail has no recipient pbem can write to")]
    NoRecipient,
    #[error("cannot build the mail: {0}")]
    Message(#[from] lettre::error::Error),
    /// Building it panicked (a bug); the panic was caught.
    #[error("building the mail failed on a bug: {0}")]
    Panicked(String),
}

/// Angle brackets around a Message-ID, as headers want it.
pub fn bracketed(message_id: &str) -> String {
    let id = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    format!("<{id}>")
}

/// The longest Message-ID pbem repeats in `In-Reply-To` and `References`:
/// longer ones (or ones with spaces or control characters) are left out, so
/// no header line grows past RFC 5322's 998 characters.
const MAX_REFERENCED_ID: usize = 250;
/// The Message-IDs a `References` header keeps (the last ones).
const MAX_REFERENCES: usize = 3;

/// A Message-ID fit to be repeated in a header, bracketed.
fn referable(message_id: &str) -> Option<String> {
    let id = bracketed(message_id);
    (id.len() <= MAX_REFERENCED_ID + 2
        && id.bytes().all(|b| b.is_ascii_graphic())
        && id[1..id.len() - 1].bytes().all(|b| b != b'<' && b != b'>'))
    .then_some(id)
}

/// Twelve random bytes; the `salt`-th of a mail (its Message-ID is the
/// 0th, its pictures' placeholders come after) differs from the others
/// even without randomness.
fn random_bytes(salt: u8) -> [u8; 12] {
    let mut random = [0u8; 12];
    // Without randomness the clock alone still keeps them apart in practice.
    if getrandom::fill(&mut random).is_err() {
        let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos();
        random.copy_from_slice(&nanos.to_le_bytes()[..12]);
        random[11] ^= salt;
    }
    random
}

/// A new Message-ID at the server's domain: the time in microseconds,
/// then twelve random bytes. The time first makes the IDs of one server
/// grow, so that the indexes on them (the outbox's, the record of sent
/// mail) take each batch's new IDs on their last page instead of on a
/// page each; the random part keeps them unique and unguessable.
pub fn new_message_id(server: &ServerAddress) -> String {
    let hex: String = random_bytes(0).iter().map(|b| format!("{b:02x}")).collect();
    let micros =
        u64::try_from(OffsetDateTime::now_utc().unix_timestamp_nanos() / 1000).unwrap_or(0);
    format!("<pbem.{micros:014x}.{hex}@{}>", server.domain)
}

/// The message, with `Auto-Submitted: auto-replied` so that other robots
/// do not answer it, and the description of its pictures.
pub fn build(
    server: &ServerAddress,
    mail: &Outgoing,
    message_id: &str,
    date: OffsetDateTime,
) -> Result<Built, BuildError> {
    let mailbox =
        |normalized: Result<String, address::AddressError>| -> Result<Mailbox, BuildError> {
            // A normalized address is one lettre parses as a mailbox (checked
            // by `normalize`); parsing it again as a bare address is cheaper.
            let address: Address = normalized?
                .parse()
                .expect("a normalized address is an address for lettre");
            Ok(Mailbox::new(None, address))
        };
    // One To header built at once: adding recipients one by one makes
    // lettre copy the list each time (quadratic in the recipients). A
    // recipient pbem cannot write to is left out and logged.
    let mut to = Mailboxes::new();
    for recipient in &mail.to {
        match mailbox(address::normalize(recipient)) {
            Ok(mailbox) => to.push(mailbox),
            Err(error) => tracing::warn!(%error, "a recipient is left out of a reply"),
        }
    }
    if to.iter().next().is_none() {
        return Err(BuildError::NoRecipient);
    }
    let mut builder = Message::builder()
        .from(mailbox(address::normalize(&server.to_string()))?)
        .subject(mail.subject.clone())
        .message_id(Some(message_id.to_string()))
        .date(SystemTime::from(date))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_string(),
        ))
        .header(header::To::from(to));
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(mailbox(address::normalize_once(reply_to))?);
    }
    if let Some(in_reply_to) = mail.in_reply_to.as_deref().and_then(referable) {
        builder = builder.in_reply_to(in_reply_to);
    }
    let references: Vec<String> = mail
        .references
        .iter()
        .filter_map(|r| referable(r))
        .collect();
    if !references.is_empty() {
        let last = &references[references.len().saturating_sub(MAX_REFERENCES)..];
        builder = builder.references(last.join(" "));
    }
    // 8bit keeps the text readable as written; lettre allows it for lines of
    // up to 76 characters and otherwise picks quoted-printable itself.
    let body = Body::new_with_encoding(mail.body.clone(), ContentTransferEncoding::EightBit)
        .unwrap_or_else(|_| Body::new(mail.body.clone()));
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body);
    let mut placed = Vec::new();
    let message = match (&mail.html, mail.attachments.is_empty()) {
        (None, true) => builder.singlepart(text)?,
        (None, false) => builder.multipart(attached(MultiPart::mixed().singlepart(text), mail))?,
        (Some(html), true) => builder.multipart(alternative(text, html, &mut placed))?,
        (Some(html), false) => builder.multipart(attached(
            MultiPart::mixed().multipart(alternative(text, html, &mut placed)),
            mail,
        ))?,
    };
    Ok(Built {
        message: message.formatted(),
        pictures: (!placed.is_empty()).then(|| pictures::describe(&placed)),
    })
}

/// The text and, as its alternative, the HTML with its pictures, each a
/// placeholder (base64, as the PNG will be) added to `placed`.
fn alternative(text: SinglePart, html: &Html, placed: &mut Vec<Placed>) -> MultiPart {
    let mut related = MultiPart::related().singlepart(SinglePart::html(html.body.clone()));
    for (index, image) in html.images.iter().enumerate() {
        let placeholder: [u8; TOKEN_BYTES] = random_bytes(index.wrapping_add(1) as u8);
        let body = Body::new_with_encoding(placeholder.to_vec(), ContentTransferEncoding::Base64)
            .expect("any bytes can be written in base64");
        related = related.singlepart(
            Attachment::new_inline(image.content_id.clone())
                .body(body, ContentType::parse("image/png").expect("a MIME type")),
        );
        placed.push(Placed {
            token: pictures::token_of(&placeholder),
            scene: image.scene.clone(),
            content_id: image.content_id.clone(),
        });
    }
    MultiPart::alternative().singlepart(text).multipart(related)
}

/// `mixed` with the mail's attachments added.
fn attached(mut mixed: MultiPart, mail: &Outgoing) -> MultiPart {
    for file in &mail.attachments {
        let mime = ContentType::parse(&file.mime).unwrap_or_else(|_| {
            ContentType::parse("application/octet-stream").expect("a MIME type")
        });
        mixed = mixed.singlepart(Attachment::new(file.name.clone()).body(file.bytes.clone(), mime));
    }
    mixed
}

/// The addresses among `recipients` a mail can go to, normalized; the
/// others are what [`build`] leaves out.
pub fn deliverable(recipients: &[String]) -> Vec<String> {
    recipients
        .iter()
        .filter_map(|r| address::normalize(r).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    fn server() -> ServerAddress {
        ServerAddress {
            local: "pbem".into(),
            domain: "localhost".into(),
        }
    }

    fn mail(to: Vec<String>) -> Outgoing {
        Outgoing {
            to,
            subject: "s".into(),
            body: "b".into(),
            reply_to: None,
            in_reply_to: None,
            references: Vec::new(),
            ..Outgoing::default()
        }
    }

    #[test]
    fn a_normalized_address_makes_the_mailbox_lettre_would_parse() {
        for text in [
            "bob@example.org",
            "<Bob.Smith+chess@Example.ORG>",
            "o'neil_x-1@sub.example.co.uk",
            "a!#$%&*/=?^`{|}~@xn--bcher-kva.example",
        ] {
            let normalized = address::normalize(text).expect("a good address");
            let parsed: Address = normalized.parse().expect("an address");
            assert_eq!(
                Mailbox::new(None, parsed),
                normalized.parse::<Mailbox>().expect("a mailbox"),
                "{text}"
            );
        }
    }

    #[test]
    fn recipients_pbem_cannot_write_to_are_left_out() {
        let now = datetime!(2026-03-01 12:00 UTC);
        let built = build(
            &server(),
            &mail(vec![
                "a@".into(),
                "bob@example.org".into(),
                "a@[1.2.3.4]".into(),
            ]),
            "<x@localhost>",
            now,
        )
        .expect("built for the one good recipient");
        let text = String::from_utf8(built.message).expect("text");
        assert!(text.contains("To: bob@example.org"), "{text}");
        assert!(matches!(
            build(&server(), &mail(vec!["@b".into()]), "<x@localhost>", now),
            Err(BuildError::NoRecipient)
        ));
    }

    #[test]
    fn long_message_ids_never_make_a_header_line_too_long() {
        let now = datetime!(2026-03-01 12:00 UTC);
        let long = format!("<{}@x>", "a".repeat(5000));
        let fair = |i: usize| format!("<{}{i}@x>", "b".repeat(240));
        let mut outgoing = mail(vec!["bob@example.org".into()]);
        outgoing.in_reply_to = Some(long.clone());
        outgoing.references = (0..6).map(fair).chain([long]).collect();
        let built = build(&server(), &outgoing, "<x@localhost>", now).expect("built");
        let text = String::from_utf8(built.message).expect("text");
        for line in text.split("\r\n") {
            assert!(line.len() <= 998, "a line of {} characters", line.len());
        }
        assert!(!text.contains("aaaaaaaaaa"), "the over-long id is left out");
        assert!(text.contains(&fair(5)), "the fair ids are kept");
    }

    #[test]
    fn message_ids_are_unique_and_grow_with_time() {
        let ids: Vec<String> = (0..200).map(|_| new_message_id(&server())).collect();
        let times: Vec<&str> = ids.iter().map(|id| &id[6..20]).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{ids:?}");
        let unique: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(unique.len(), ids.len());
        assert!(ids[0].starts_with("<pbem.") && ids[0].ends_with("@localhost>"));
        assert_eq!(
            ids[0].len(),
            "<pbem.".len() + 14 + 1 + 24 + "@localhost>".len()
        );
    }

    #[test]
    fn building_is_linear_in_the_recipients() {
        let now = datetime!(2026-03-01 12:00 UTC);
        let many: Vec<String> = (0..20_000).map(|i| format!("p{i}@example.org")).collect();
        let built = build(&server(), &mail(many), "<x@localhost>", now).expect("built");
        assert!(built.message.len() > 20_000 * 16);
    }
}
