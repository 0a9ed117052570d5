//! Outbound transports. The outbox table holds complete messages; a
//! [`MailSender`] hands one to the world, and [`drain`] marks each sent once
//! the transport accepted it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use lettre::address::Envelope;
use lettre::{Address, SendmailTransport, Transport};
use time::OffsetDateTime;

use super::ServerAddress;
use crate::store::{Store, StoreError, mailbox};

/// Why a mail could not be handed on; it stays in the outbox.
#[derive(Debug, thiserror::Error)]
pub enum SendError {
    #[error("cannot write the mail: {0}")]
    Io(#[from] io::Error),
    #[error("bad address in the outbox: {0}")]
    Address(String),
    #[error("sendmail failed: {0}")]
    Sendmail(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Hands one mail to the outside world.
pub trait MailSender {
    /// Sends `message` (complete RFC 5322) to `recipients`. `outbox_id`
    /// identifies the mail, so a transport can make a repeated send after a
    /// crash harmless.
    fn send(
        &mut self,
        outbox_id: i64,
        recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError>;
}

/// Writes each mail as `<outbox id>.eml` into a directory. Written through
/// a temporary file and renamed, and named by outbox id, so a mail sent
/// again after a crash replaces itself: every mail is there exactly once.
pub struct FileSender {
    dir: PathBuf,
}

impl FileSender {
    pub fn new(dir: &Path) -> io::Result<FileSender> {
        fs::create_dir_all(dir)?;
        Ok(FileSender {
            dir: dir.to_path_buf(),
        })
    }

    /// The file a mail goes to.
    pub fn path_of(&self, outbox_id: i64) -> PathBuf {
        self.dir.join(format!("{outbox_id:010}.eml"))
    }
}

impl MailSender for FileSender {
    fn send(
        &mut self,
        outbox_id: i64,
        _recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError> {
        let path = self.path_of(outbox_id);
        let tmp = self.dir.join(format!(".{outbox_id:010}.eml.tmp"));
        fs::write(&tmp, message)?;
        fs::File::open(&tmp)?.sync_all()?;
        fs::rename(&tmp, &path)?;
        Ok(())
    }
}

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
        let to = recipients
            .iter()
            .map(|r| r.parse().map_err(|_| SendError::Address(r.clone())))
            .collect::<Result<Vec<Address>, _>>()?;
        let envelope = Envelope::new(Some(self.from.clone()), to)
            .map_err(|e| SendError::Address(e.to_string()))?;
        self.transport
            .send_raw(&envelope, message)
            .map_err(|e| SendError::Sendmail(e.to_string()))
    }
}

/// Sends every unsent mail in the outbox, oldest first; stops at the first
/// failure (the mail stays for the next try). Returns how many were sent.
pub fn drain(
    store: &Store,
    sender: &mut dyn MailSender,
    now: OffsetDateTime,
) -> Result<usize, SendError> {
    let mut sent = 0;
    loop {
        let batch = mailbox::unsent(store.conn(), 100)?;
        if batch.is_empty() {
            return Ok(sent);
        }
        for mail in batch {
            sender.send(mail.id, &mail.recipients, &mail.message)?;
            mailbox::mark_sent(store.conn(), mail.id, now)?;
            sent += 1;
        }
    }
}
