//! Where inbound mail comes from: the [`InboundSource`] trait that the
//! Maildir ([`super::maildir::MaildirSource`]), the IMAP mailbox
//! ([`super::imap::ImapSource`]) and a mail given whole ([`OneMail`], for
//! `pbem process`) implement, so that one loop in `server.rs` drives each
//! through the service with the same exactly-once logic.
//!
//! The loop fetches a batch, hands it to the service (which commits the
//! batch's effects in one transaction, together with the record of every
//! mail's Message-ID), and only then acknowledges the batch to the source.
//! A failure anywhere in between acknowledges nothing, and the batch is
//! fetched again.
//!
//! Exactly once, then, rests on two promises: the service's, that a mail
//! whose Message-ID (with its sender) is recorded is a duplicate and does
//! nothing; and the source's, written on [`InboundSource`], that a mail not
//! acknowledged comes back the same. A crash between the commit and the
//! acknowledgement therefore costs the batch a second reading, never a
//! second effect.

use std::io;
use std::path::PathBuf;

use super::imap::ImapError;
use super::stop::Stop;

/// A mail as fetched: the bytes read (the whole mail, or only its head
/// when it is larger than the limit) and its whole size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fetched {
    pub raw: Vec<u8>,
    pub size: usize,
}

/// A source of inbound mail, read in batches.
///
/// What a source must promise:
///
/// * **Nothing is lost**: a mail leaves the source only in
///   [`InboundSource::acknowledge`], which the loop calls once the batch's
///   results are committed. A mail fetched and not acknowledged (a failure,
///   a crash, a stop) is fetched again after [`InboundSource::open`] (or
///   after a restart).
/// * **The same mail comes back the same**: fetched again, a mail has the
///   same headers (the bytes read are the same, and so is the head of a
///   mail over the size limit), so its Message-ID and sender are those the
///   service recorded in the batch's transaction, and the service treats
///   it as a duplicate. This makes a crash between the commit and the
///   acknowledgement harmless.
/// * **Acknowledging is safe to repeat**: an acknowledgement cut off half
///   way (a lost connection, a crash) leaves the rest of the batch to be
///   fetched again (then a duplicate) or finished later; nothing is
///   removed twice, nor copied twice to where the source keeps handled
///   mail.
///
/// A source may keep a record of its own of what it acknowledged (the IMAP
/// source keeps the highest UID it handled): a mail found again inside it
/// is finished off without being handed to the service again. That is a
/// second line behind the service's record of Message-IDs, not a
/// replacement for it.
pub trait InboundSource {
    /// Gets ready to fetch (the IMAP source connects and logs in; a
    /// connection attempt that hangs ends on `stop`); called before the
    /// first fetch and again after any failure. What an earlier opening
    /// left is dropped without a goodbye (after a failure a goodbye may
    /// hang), and a batch fetched and not acknowledged is forgotten: it is
    /// fetched again.
    fn open(&mut self, stop: &Stop) -> Result<(), SourceError>;

    /// The next mails waiting, oldest first, at most `max` of them; none
    /// when nothing is waiting. A mail larger than `limit` bytes is read
    /// only in part, enough for its headers (to answer it), never whole.
    /// Calling it again before [`InboundSource::acknowledge`] forgets the
    /// batch in hand (its mails come again later).
    fn fetch(&mut self, max: usize, limit: usize) -> Result<Vec<Fetched>, SourceError>;

    /// The batch last fetched is committed: removes its mails from the
    /// source for good (moved to `cur/`, moved to the processed folder or
    /// deleted, ...).
    fn acknowledge(&mut self) -> Result<(), SourceError>;

    /// Waits until new mail may have come (IMAP IDLE, or the poll
    /// interval), or until `stop`.
    fn wait(&mut self, stop: &Stop) -> Result<(), SourceError>;

    /// Ends the work in good order (the IMAP source logs out). Not called
    /// after a failure: the next [`InboundSource::open`], or dropping the
    /// source, lets go of what is left.
    fn close(&mut self) {}
}

/// A failure of an inbound source. The batch in hand is not acknowledged.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The inbox Maildir cannot be read, or a mail not moved: a matter for
    /// the operator (permissions, a full disk), which ends `pbem serve`.
    #[error("inbox {path}: {error}")]
    Maildir { path: PathBuf, error: io::Error },
    /// The IMAP server failed or went away: the connection is dropped and
    /// opened again after a pause.
    #[error("IMAP: {0}")]
    Imap(#[from] ImapError),
}

impl SourceError {
    /// Whether trying again later may succeed by itself (a mail server
    /// that restarts), rather than needing the operator.
    pub fn is_transient(&self) -> bool {
        matches!(self, SourceError::Imap(_))
    }
}

/// One mail given whole, as `pbem process` gets it from the mail system on
/// standard input, fetched once. Here the mail system keeps the promises:
/// it counts the mail delivered once pbem exits 0 (acknowledging does
/// nothing), and after a failure (pbem exits 75) delivers it again.
#[derive(Debug)]
pub struct OneMail {
    raw: Option<Vec<u8>>,
}

impl OneMail {
    pub fn new(raw: Vec<u8>) -> OneMail {
        OneMail { raw: Some(raw) }
    }
}

impl InboundSource for OneMail {
    fn open(&mut self, _stop: &Stop) -> Result<(), SourceError> {
        Ok(())
    }

    /// The mail, whole (it is in memory already, and the service answers a
    /// mail over the limit from its headers), the first time only.
    fn fetch(&mut self, _max: usize, _limit: usize) -> Result<Vec<Fetched>, SourceError> {
        Ok(self
            .raw
            .take()
            .map(|raw| Fetched {
                size: raw.len(),
                raw,
            })
            .into_iter()
            .collect())
    }

    fn acknowledge(&mut self) -> Result<(), SourceError> {
        Ok(())
    }

    /// Nothing more comes: waits for the stop.
    fn wait(&mut self, stop: &Stop) -> Result<(), SourceError> {
        while !stop.sleep(std::time::Duration::from_secs(3600)) {}
        Ok(())
    }
}
