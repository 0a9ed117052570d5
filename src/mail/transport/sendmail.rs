//! The sendmail transport: each mail is handed to the local `sendmail`
//! (lettre's sendmail transport), with the server's address as the
//! envelope sender.

use lettre::{Address, SendmailTransport, Transport};

use super::{MailSender, SendError, envelope};
use crate::mail::ServerAddress;

/// Hands each mail to the local `sendmail` (lettre's sendmail transport).
pub struct SendmailSender {
    transport: SendmailTransport,
    from: Address,
}

impl SendmailSender {
    /// `command` is the sendmail binary, `None` for the system default.
    pub fn new(command: Option<&str>, server: &ServerAddress) -> Result<SendmailSender, SendError> {
        let transport = match command {
            Some(command) => SendmailTransport::new_with_command(command),
            None => SendmailTransport::new(),
        };
        let from = server
            .to_string()
            .parse()
            .map_err(|_| SendError::Address(server.to_string()))?;
        Ok(SendmailSender { transport, from })
    }
}

impl MailSender for SendmailSender {
    fn send(
        &mut self,
        _outbox_id: i64,
        recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError> {
        let envelope = envelope(&self.from, recipients)?;
        self.transport
            .send_raw(&envelope, message)
            .map_err(|e| SendError::Sendmail(e.to_string()))
    }
}
