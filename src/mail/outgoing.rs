//! Building the mails the server sends, as complete RFC 5322 messages
//! (lettre's message builder), ready for the outbox.

use std::time::SystemTime;

use lettre::message::header::{ContentTransferEncoding, ContentType, HeaderName, HeaderValue};
use lettre::message::{Body, Mailbox, Message, SinglePart};
use time::OffsetDateTime;

use super::ServerAddress;

/// A mail to send.
#[derive(Clone, Debug, PartialEq, Eq)]
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
}

/// Why a mail could not be built.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("\"{0}\" is not a mail address")]
    BadAddress(String),
    #[error("cannot build the mail: {0}")]
    Message(#[from] lettre::error::Error),
}

/// Angle brackets around a Message-ID, as headers want it.
pub fn bracketed(message_id: &str) -> String {
    let id = message_id
        .trim()
        .trim_start_matches('<')
        .trim_end_matches('>');
    format!("<{id}>")
}

/// A new Message-ID at the server's domain.
pub fn new_message_id(server: &ServerAddress) -> String {
    let mut random = [0u8; 12];
    // Without randomness the clock alone still keeps ids apart in practice.
    if getrandom::fill(&mut random).is_err() {
        let nanos = OffsetDateTime::now_utc().unix_timestamp_nanos();
        random.copy_from_slice(&nanos.to_le_bytes()[..12]);
    }
    let hex: String = random.iter().map(|b| format!("{b:02x}")).collect();
    format!("<pbem.{hex}@{}>", server.domain)
}

/// The complete message, with `Auto-Submitted: auto-replied` so that other
/// robots do not answer it.
pub fn build(
    server: &ServerAddress,
    mail: &Outgoing,
    message_id: &str,
    date: OffsetDateTime,
) -> Result<Vec<u8>, BuildError> {
    let mailbox = |address: &str| -> Result<Mailbox, BuildError> {
        address
            .parse()
            .map_err(|_| BuildError::BadAddress(address.to_string()))
    };
    let mut builder = Message::builder()
        .from(mailbox(&server.to_string())?)
        .subject(mail.subject.clone())
        .message_id(Some(message_id.to_string()))
        .date(SystemTime::from(date))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            "auto-replied".to_string(),
        ));
    for to in &mail.to {
        builder = builder.to(mailbox(to)?);
    }
    if let Some(reply_to) = &mail.reply_to {
        builder = builder.reply_to(mailbox(reply_to)?);
    }
    if let Some(in_reply_to) = &mail.in_reply_to {
        builder = builder.in_reply_to(bracketed(in_reply_to));
    }
    if !mail.references.is_empty() {
        let references: Vec<String> = mail.references.iter().map(|r| bracketed(r)).collect();
        builder = builder.references(references.join(" "));
    }
    // 8bit keeps the text readable as written; lettre allows it for lines of
    // up to 76 characters and otherwise picks quoted-printable itself.
    let body = Body::new_with_encoding(mail.body.clone(), ContentTransferEncoding::EightBit)
        .unwrap_or_else(|_| Body::new(mail.body.clone()));
    let body = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(body);
    let message = builder.singlepart(body)?;
    Ok(message.formatted())
}
