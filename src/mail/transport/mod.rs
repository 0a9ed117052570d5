//! Outbound transports: a [`MailSender`] hands one mail to the outside
//! world, one file per transport:
//!
//! * [`directory`]: a directory of `.eml` files ([`FileSender`]), where a mail
//!   sent again replaces itself, so sends are confirmed a batch at a time;
//! * [`sendmail`]: the local `sendmail` ([`SendmailSender`]);
//! * [`smtp`]: SMTP submission ([`SmtpSender`]).
//!
//! The outbox that they empty, and the sender loop of `pbem serve`, are in
//! [`super::outbox`].

pub mod directory;
pub mod sendmail;
pub mod smtp;

use std::io;
use std::path::PathBuf;

use lettre::Address;
use lettre::address::Envelope;

use crate::mail::bounce::Status;
use crate::store::StoreError;

pub use directory::FileSender;
pub use sendmail::SendmailSender;
pub use smtp::SmtpSender;

/// Why a mail could not be handed on; it stays in the outbox.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("cannot write the mail: {0}")]
    Io(#[from] io::Error),
    #[error("bad address in the outbox: {0}")]
    Address(String),
    #[error("sendmail failed: {0}")]
    Sendmail(String),
    #[error("{0}")]
    Smtp(String),
    /// The server refused this one mail for good (a 5xx answer at MAIL
    /// FROM or DATA).
    #[error("the SMTP server refused the mail: {0}")]
    Rejected(String),
    /// The server refused this one mail for now (a 4xx answer at MAIL FROM
    /// or DATA).
    #[error("the SMTP server put the mail off: {0}")]
    Deferred(String),
    /// The server refused some recipients at RCPT TO (4xx or 5xx); the
    /// mail was sent to nobody. Each is a bounce of that address.
    #[error("the SMTP server refused at RCPT TO: {}", describe(.0))]
    Recipients(Vec<Refusal>),
    #[error("cannot lock {path} (only one pbem process sends at a time): {error}")]
    Lock { path: PathBuf, error: io::Error },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A recipient the server refused at RCPT TO: the address and the status
/// of the answer (its enhanced code, or the class of its reply code; see
/// [`Status::of_reply`]); the answer's words are not kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub recipient: String,
    pub status: Status,
}

impl Refusal {
    /// A 5xx answer: the address is refused for good.
    pub fn is_permanent(&self) -> bool {
        self.status.class == 5
    }
}

fn describe(refused: &[Refusal]) -> String {
    let each: Vec<String> = refused
        .iter()
        .map(|r| format!("{} ({})", r.recipient, r.status))
        .collect();
    each.join(", ")
}

/// Hands one mail to the outside world.
pub trait MailSender {
    /// Sends `message` (complete RFC 5322) to `recipients`, with
    /// `envelope_sender` as the envelope's sender (where bounces go: the
    /// mail's VERP address, see [`crate::mail::bounce::Verp`]). `outbox_id`
    /// identifies the mail, so a transport can make a repeated send after a
    /// crash harmless.
    fn send(
        &mut self,
        outbox_id: i64,
        envelope_sender: &str,
        recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError>;

    /// Whether sending a mail again is harmless (the transport replaces its
    /// own earlier copy), so that sends may be confirmed in batches.
    fn resend_is_harmless(&self) -> bool {
        false
    }

    /// Starts making every mail sent so far durable, in the background
    /// where the transport can, so that the next batch is written
    /// meanwhile; [`MailSender::finish_flush`] waits for it. A batch is
    /// marked sent only once its flush finished.
    fn start_flush(&mut self) -> Result<(), SendError> {
        Ok(())
    }

    /// Waits for the flush [`MailSender::start_flush`] started: the mails
    /// sent before it are durable once this returns `Ok`.
    fn finish_flush(&mut self) -> Result<(), SendError> {
        Ok(())
    }
}

/// The SMTP envelope of a mail from `from` to `recipients`; an address
/// that does not parse is refused for this mail alone.
pub(crate) fn envelope(from: &str, recipients: &[String]) -> Result<Envelope, SendError> {
    let from: Address = from
        .parse()
        .map_err(|_| SendError::Address(from.to_string()))?;
    let to = recipients
        .iter()
        .map(|r| r.parse().map_err(|_| SendError::Address(r.clone())))
        .collect::<Result<Vec<Address>, _>>()?;
    Envelope::new(Some(from), to).map_err(|e| SendError::Address(e.to_string()))
}
