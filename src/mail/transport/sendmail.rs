//! The sendmail transport: each mail is handed to the local `sendmail`
//! (lettre's sendmail transport), with the mail's envelope sender (its
//! VERP bounce address) given as `-f`.

use lettre::{SendmailTransport, Transport};

use super::{MailSender, SendError, envelope};

/// Hands each mail to the local `sendmail` (lettre's sendmail transport).
pub struct SendmailSender {
    transport: SendmailTransport,
}

impl SendmailSender {
    /// `command` is the sendmail binary, `None` for the system default.
    pub fn new(command: Option<&str>) -> SendmailSender {
        let transport = match command {
            Some(command) => SendmailTransport::new_with_command(command),
            None => SendmailTransport::new(),
        };
        SendmailSender { transport }
    }
}

impl MailSender for SendmailSender {
    fn send(
        &mut self,
        _outbox_id: i64,
        envelope_sender: &str,
        recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError> {
        let envelope = envelope(envelope_sender, recipients)?;
        self.transport
            .send_raw(&envelope, message)
            .map_err(|e| SendError::Sendmail(e.to_string()))
    }
}
