//! The outbox, what every outbound transport shares. The outbox table holds
//! the messages to send, their board pictures described but not drawn;
//! [`Outbox::drain`] draws them into each message ([`super::pictures`]), a
//! [`MailSender`] (one of [`super::transport`]) hands it to the world, and
//! the drain marks it sent once the transport accepted it. [`run_sender`]
//! is the sender loop of `pbem serve`: it drains the outbox whenever woken
//! (and every [`CHECK_INTERVAL`]), and retries with backoff while the
//! transport fails.
//!
//! Only one process sends at a time: a drain holds an exclusive lock on the
//! file `<database>.send-lock`, and a drain that finds it taken leaves the
//! outbox to the process holding it, so two senders never send one mail
//! twice.
//!
//! A mail is marked sent right after the transport accepted it. A crash in
//! between (a few milliseconds) sends that one mail again after the restart,
//! with the same Message-ID: SMTP cannot tell a sender whether a mail
//! whose acceptance it did not record was accepted (RFC 1047). A transport
//! that replaces its own copy of a mail sent again (the directory of `.eml`
//! files) is confirmed a batch at a time instead: the batch is made durable
//! on a thread of its own while the next batch is written, then marked
//! sent; a crash sends at most those two batches again, over themselves.
//!
//! The sender also copies SQLite's write-ahead log into the database every
//! few batches it marks and at the end of each drain (a checkpoint), so
//! that the inbound commits need not.

use std::collections::HashMap;
use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use time::{OffsetDateTime, UtcOffset};

use super::bounce::{SentMail, Verp};
use super::pictures;
use super::stop::{Backoff, Stop};
use super::transport::{MailSender, Refusal, SendError};
use crate::store::mailbox::Queued;
use crate::store::{Store, mailbox};

/// How often the sender looks at the outbox without being woken (for
/// mail queued by other processes, such as `pbem process`).
pub const CHECK_INTERVAL: Duration = Duration::from_secs(30);

/// A refused mail is tried again after this long, doubling up to a day.
const REFUSED_RETRY: (Duration, Duration) =
    (Duration::from_secs(60), Duration::from_secs(24 * 3600));
/// A mail put off (4xx) is tried again after this long, doubling up to an hour.
const DEFERRED_RETRY: (Duration, Duration) = (Duration::from_secs(30), Duration::from_secs(3600));

/// A 4xx refusal of a recipient at RCPT TO counts as a transient bounce of
/// that address only once the mail has waited this long unaccepted:
/// greylisting refuses a sender's first try with 4xx for some minutes,
/// routinely, and the retries get through.
pub const GREYLIST_GRACE: time::Duration = time::Duration::hours(6);

/// Acts on a recipient of the outbox mail (its id) refused at RCPT TO, as
/// of the given time, as on a bounce of it (see `Service::refused_at_rcpt`).
pub type RefusalHandler =
    Box<dyn FnMut(i64, &Refusal, OffsetDateTime) -> Result<(), String> + Send>;

/// The outbox and the transport that empties it.
pub struct Outbox {
    /// Acts on recipients refused at RCPT TO; without one such a mail is
    /// held back as a refused mail.
    on_refusal: Option<RefusalHandler>,
    sender: Box<dyn MailSender + Send>,
    /// Makes each mail's envelope sender, its bounce address.
    verp: Verp,
    lock_path: PathBuf,
    /// Mails the server refused, held back until their next try.
    refused: HashMap<i64, (Instant, Backoff)>,
    /// Batches marked sent since the write-ahead log was last copied into
    /// the database.
    marked_since_checkpoint: u32,
}

impl Outbox {
    /// An outbox of the database at `database`, sent with `sender`; each
    /// mail's envelope sender is its bounce address from `verp`.
    pub fn new(sender: Box<dyn MailSender + Send>, database: &Path, verp: Verp) -> Outbox {
        let mut lock_path = database.as_os_str().to_owned();
        lock_path.push(".send-lock");
        Outbox {
            sender,
            verp,
            lock_path: lock_path.into(),
            refused: HashMap::new(),
            marked_since_checkpoint: 0,
            on_refusal: None,
        }
    }

    /// Hands each recipient refused at RCPT TO to `handler` (a bounce of
    /// that address).
    pub fn on_refusal(mut self, handler: RefusalHandler) -> Outbox {
        self.on_refusal = Some(handler);
        self
    }

    /// How many mails are held back until their next try (refused or put
    /// off by the mail server).
    pub fn held(&self) -> usize {
        self.refused.len()
    }

    /// Sends every unsent mail, oldest first, and marks each sent once the
    /// transport took it. Stops at the first failure of the transport (the
    /// mail stays for the next try). A mail the server refuses for good, or
    /// whose address no transport can take, stays in the outbox too, is
    /// logged, and is tried again later without holding up the others.
    /// Returns how many were sent; 0 when another process is sending.
    pub fn drain(&mut self, store: &Store, now: OffsetDateTime) -> Result<usize, SendError> {
        let lock = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock_path)
            .map_err(|error| SendError::Lock {
                path: self.lock_path.clone(),
                error,
            })?;
        match lock.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                tracing::debug!("another pbem process is sending the outbox");
                return Ok(0);
            }
            Err(TryLockError::Error(error)) => {
                return Err(SendError::Lock {
                    path: self.lock_path.clone(),
                    error,
                });
            }
        }
        let mut sent = 0;
        // Sent by a transport that is flushing them (see below), not yet
        // marked sent.
        let mut flushing: Vec<i64> = Vec::new();
        loop {
            let held = (self.refused.len() + flushing.len()) as u32;
            let batch: Vec<_> = mailbox::due(store.conn(), SEND_BATCH + held, now)?
                .into_iter()
                .filter(|mail| {
                    !flushing.contains(&mail.id)
                        && self
                            .refused
                            .get(&mail.id)
                            .is_none_or(|(until, _)| *until <= Instant::now())
                })
                .collect();
            if batch.is_empty() {
                self.mark_flushed(store, &mut flushing, now)?;
                if self.marked_since_checkpoint > 0 {
                    self.checkpoint(store)?;
                }
                return Ok(sent);
            }
            // Where a resend is harmless, a batch is made durable and marked
            // sent together; otherwise each mail is marked as soon as the
            // transport took it, so a crash resends at most one.
            let batched = self.sender.resend_is_harmless();
            let mut accepted = Vec::new();
            for mail in batch {
                let message = pictures::complete(mail.id, &mail.message, mail.pictures.as_deref());
                let envelope_sender = self.verp.sender(SentMail {
                    outbox_id: mail.id,
                    sent_on: now.to_offset(UtcOffset::UTC).date(),
                });
                let sent_mail =
                    self.sender
                        .send(mail.id, &envelope_sender, &mail.recipients, &message);
                match sent_mail {
                    Ok(()) => {
                        if batched {
                            accepted.push(mail.id);
                        } else {
                            mailbox::mark_all_sent(store, &[mail.id], now)?;
                        }
                        self.refused.remove(&mail.id);
                        sent += 1;
                    }
                    Err(SendError::Recipients(refused)) => {
                        self.refused_recipients(store, &mail, refused, now)?;
                    }
                    // A refusal, a temporary refusal of this mail, or an
                    // address no transport can take: that mail waits, the
                    // others go on.
                    Err(
                        error @ (SendError::Rejected(_)
                        | SendError::Address(_)
                        | SendError::Deferred(_)),
                    ) => {
                        let retry = match error {
                            SendError::Deferred(_) => DEFERRED_RETRY,
                            _ => REFUSED_RETRY,
                        };
                        self.hold(store, &mail, &error, retry, now)?;
                    }
                    Err(error) => {
                        // The batch flushing meanwhile was accepted: it is
                        // marked before the failure is reported.
                        self.mark_flushed(store, &mut flushing, now)?;
                        return Err(error);
                    }
                }
            }
            if !batched {
                // Marked one by one above.
                self.marked(store)?;
            }
            // The batch before this one was flushing while this one was
            // written: marked sent once it is durable, then this one starts.
            self.mark_flushed(store, &mut flushing, now)?;
            if !accepted.is_empty() {
                self.sender.start_flush()?;
                flushing = accepted;
            }
        }
    }

    /// Holds `mail` back until its next try (with `retry`'s backoff), and
    /// records why for `pbem status`.
    fn hold(
        &mut self,
        store: &Store,
        mail: &Queued,
        error: &SendError,
        retry: (Duration, Duration),
        now: OffsetDateTime,
    ) -> Result<(), SendError> {
        let (until, backoff) = self
            .refused
            .entry(mail.id)
            .or_insert_with(|| (Instant::now(), Backoff::new(retry.0, retry.1)));
        let delay = backoff.next_delay();
        *until = Instant::now() + delay;
        // For `pbem status`: why the mail waits.
        let retry_at = now + time::Duration::try_from(delay).unwrap_or(time::Duration::DAY);
        crate::store::delivery::record_send_failure(
            store.conn(),
            mail.id,
            &error.to_string(),
            retry_at,
        )?;
        let recipients = mail.recipients.len();
        if matches!(error, SendError::Deferred(_) | SendError::Recipients(_)) {
            tracing::warn!(
                outbox_id = mail.id,
                message_id = %mail.message_id,
                recipients,
                retry_in_seconds = delay.as_secs(),
                "{error}; it is tried again later, the other mails go on"
            );
        } else {
            tracing::error!(
                outbox_id = mail.id,
                message_id = %mail.message_id,
                recipients,
                retry_in_seconds = delay.as_secs(),
                "the mail server refused this mail: {error}; it stays in the outbox (check the recipient addresses and the server's relay settings)"
            );
        }
        Ok(())
    }

    /// Recipients of `mail` refused at RCPT TO. A 5xx refusal is a bounce
    /// of that address, and so is a 4xx one once the mail has waited
    /// [`GREYLIST_GRACE`] (greylisting puts the first try of a mail off
    /// for minutes, routinely): each goes to the bounce handler
    /// ([`Outbox::on_refusal`]), which marks the address and sends the
    /// mail to the player's working address instead, or gives it up. The
    /// mail is held back for a retry while a refusal was temporary, or
    /// could not be handled.
    fn refused_recipients(
        &mut self,
        store: &Store,
        mail: &Queued,
        refused: Vec<Refusal>,
        now: OffsetDateTime,
    ) -> Result<(), SendError> {
        let waited = crate::store::delivery::queued_at(store.conn(), mail.id)?
            .map_or(time::Duration::ZERO, |queued| now - queued);
        let mut retry = None;
        for refusal in &refused {
            if !refusal.is_permanent() {
                retry = Some(DEFERRED_RETRY);
                if waited < GREYLIST_GRACE {
                    continue;
                }
            }
            let handled = match &mut self.on_refusal {
                Some(handler) => handler(mail.id, refusal, now),
                None => Err("no bounce handler".to_string()),
            };
            if let Err(error) = handled {
                tracing::error!(
                    outbox_id = mail.id,
                    recipient = %refusal.recipient,
                    "a refusal at RCPT TO could not be acted on: {error}"
                );
                retry = retry.or(Some(REFUSED_RETRY));
            }
        }
        // Whatever the handler did, a permanently refused address no longer
        // gets this mail; if it still would, the mail waits rather than
        // being tried again at once.
        let still_refused = refused.iter().filter(|r| r.is_permanent()).any(|r| {
            crate::store::delivery::unsent_to(store.conn(), &r.recipient)
                .is_ok_and(|mails| mails.iter().any(|(id, _)| *id == mail.id))
        });
        if still_refused {
            retry = retry.or(Some(REFUSED_RETRY));
        }
        match retry {
            Some(retry) => self.hold(store, mail, &SendError::Recipients(refused), retry, now),
            None => {
                self.refused.remove(&mail.id);
                Ok(())
            }
        }
    }

    /// Waits for the transport's flush of `flushing`, then marks those
    /// mails sent. The log is copied into the database here, on the
    /// sender's thread, rather than in the commit of an inbound batch.
    fn mark_flushed(
        &mut self,
        store: &Store,
        flushing: &mut Vec<i64>,
        now: OffsetDateTime,
    ) -> Result<(), SendError> {
        if flushing.is_empty() {
            return Ok(());
        }
        self.sender.finish_flush()?;
        mailbox::mark_all_sent(store, flushing, now)?;
        flushing.clear();
        self.marked(store)
    }

    /// Counts a batch marked sent, and copies the log into the database
    /// every [`CHECKPOINT_EVERY`] batches: a page the batches between
    /// wrote again and again is copied once.
    fn marked(&mut self, store: &Store) -> Result<(), SendError> {
        self.marked_since_checkpoint += 1;
        if self.marked_since_checkpoint >= CHECKPOINT_EVERY {
            self.checkpoint(store)?;
        }
        Ok(())
    }

    fn checkpoint(&mut self, store: &Store) -> Result<(), SendError> {
        store.checkpoint()?;
        self.marked_since_checkpoint = 0;
        Ok(())
    }
}

/// Mails sent between two flushes of a transport that confirms in batches
/// (a crash sends at most twice this many again, each over itself).
const SEND_BATCH: u32 = 200;
/// Batches marked sent between two copies of the write-ahead log into the
/// database (and at the end of every drain).
const CHECKPOINT_EVERY: u32 = 4;

/// The sender loop of `pbem serve`: drains the outbox whenever `stop` is
/// woken and every [`CHECK_INTERVAL`]; after a failure waits with backoff
/// (1 s doubling to 5 minutes) and tries again, until stopped. After each
/// pass it tells `held` how many mails it holds back ([`Outbox::held`]).
/// Returns how many mails it sent.
pub fn run_sender(
    store: &Store,
    outbox: &mut Outbox,
    now: &dyn Fn() -> OffsetDateTime,
    stop: &Stop,
    held: &dyn Fn(usize),
) -> usize {
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(300));
    let mut total = 0;
    let mut failing = false;
    while !stop.is_stopping() {
        let drained = outbox.drain(store, now());
        held(outbox.held());
        match drained {
            Ok(sent) => {
                if failing {
                    tracing::info!("sending works again");
                    failing = false;
                }
                if sent > 0 {
                    tracing::info!(sent, "outbox sent");
                }
                total += sent;
                backoff.reset();
                if stop.wait_for_wake(CHECK_INTERVAL) {
                    break;
                }
            }
            Err(error) => {
                failing = true;
                if let Err(recording) = crate::store::delivery::record_error(
                    store.conn(),
                    "send",
                    &error.to_string(),
                    now(),
                ) {
                    tracing::debug!("cannot record the send error for `pbem status`: {recording}");
                }
                let delay = backoff.next_delay();
                tracing::warn!(
                    retry_in_ms = delay.as_millis() as u64,
                    "cannot send the outbox: {error}"
                );
                if stop.sleep(delay) {
                    break;
                }
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::io;

    use time::macros::datetime;

    use super::*;
    use crate::mail::token::TokenKey;
    use crate::mail::transport::FileSender;

    /// The bounce addresses of a server `pbem@localhost` with a new key.
    fn verp() -> Verp {
        let server = crate::mail::ServerAddress::parse("pbem@localhost").expect("address");
        Verp::new(server, TokenKey::generate().expect("randomness"))
    }

    /// Records what it sent; refuses the mail ids in `refuse` (5xx) and
    /// puts off those in `defer` (4xx).
    struct Recorder {
        sent: std::sync::Arc<std::sync::Mutex<Vec<i64>>>,
        refuse: Vec<i64>,
        defer: Vec<i64>,
    }

    impl MailSender for Recorder {
        fn send(&mut self, id: i64, _: &str, _: &[String], _: &[u8]) -> Result<(), SendError> {
            if self.refuse.contains(&id) {
                return Err(SendError::Rejected("550 no such user".into()));
            }
            if self.defer.contains(&id) {
                return Err(SendError::Deferred("452 too many recipients".into()));
            }
            self.sent.lock().expect("lock").push(id);
            Ok(())
        }
    }

    fn outbox_with(mails: usize) -> (Store, tempfile::TempDir) {
        let store = Store::open_in_memory().expect("store");
        let now = datetime!(2026-03-01 12:00 UTC);
        for i in 0..mails {
            mailbox::enqueue(
                store.conn(),
                &format!("<m{i}@x>"),
                &["a@b.c".into()],
                b"hi",
                None,
                now,
            )
            .expect("enqueue");
        }
        (store, tempfile::tempdir().expect("temp dir"))
    }

    fn unsent(store: &Store) -> Vec<i64> {
        mailbox::unsent(store.conn(), 100)
            .expect("unsent")
            .into_iter()
            .map(|mail| mail.id)
            .collect()
    }

    /// A file outbox that fails for good (as a full disk would) on the
    /// mail `fail_on`, once.
    struct FailingOnce {
        files: FileSender,
        fail_on: Option<i64>,
    }

    impl MailSender for FailingOnce {
        fn send(
            &mut self,
            id: i64,
            from: &str,
            to: &[String],
            message: &[u8],
        ) -> Result<(), SendError> {
            if self.fail_on == Some(id) {
                self.fail_on = None;
                return Err(SendError::Io(io::Error::other("no space left")));
            }
            self.files.send(id, from, to, message)
        }
        fn resend_is_harmless(&self) -> bool {
            true
        }
        fn start_flush(&mut self) -> Result<(), SendError> {
            self.files.start_flush()
        }
        fn finish_flush(&mut self) -> Result<(), SendError> {
            self.files.finish_flush()
        }
    }

    /// A store in a file, with `mails` queued messages of 4 KB each.
    fn file_outbox_with(mails: usize) -> (Store, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = Store::open(&dir.path().join("pbem.sqlite3")).expect("store");
        let now = datetime!(2026-03-01 12:00 UTC);
        let tx = store.transaction().expect("transaction");
        for i in 0..mails {
            let message = format!("Subject: {i}\r\n\r\n{}", "x".repeat(4000));
            mailbox::enqueue(
                &tx,
                &format!("<m{i}@x>"),
                &["a@b.c".into()],
                message.as_bytes(),
                None,
                now,
            )
            .expect("enqueue");
        }
        tx.commit().expect("commit");
        (store, dir)
    }

    #[test]
    fn a_file_outbox_sends_batch_after_batch_marks_all_and_checkpoints() {
        let mails = 2 * SEND_BATCH as usize + 50;
        let (store, dir) = file_outbox_with(mails);
        let database = dir.path().join("pbem.sqlite3");
        // Nothing copied from the log yet: the inbound commits leave it.
        let before = fs::metadata(&database).expect("database").len();
        let files = FileSender::new(&dir.path().join("out")).expect("outbox dir");
        let mut outbox = Outbox::new(Box::new(files), &database, verp());
        let now = datetime!(2026-03-01 12:01 UTC);
        assert_eq!(outbox.drain(&store, now).expect("drain"), mails);
        assert!(unsent(&store).is_empty());
        for id in 1..=mails as i64 {
            let path = dir.path().join("out").join(format!("{id:010}.eml"));
            let text = fs::read_to_string(&path).expect("every mail written");
            assert!(text.starts_with(&format!("Subject: {}", id - 1)), "{id}");
        }
        // The sender copied the log into the database file.
        let after = fs::metadata(&database).expect("database").len();
        assert!(after >= before + mails as u64 * 4000, "{before} -> {after}");
    }

    #[test]
    fn a_failure_still_marks_the_batch_that_was_flushing() {
        let batch = SEND_BATCH as usize;
        let (store, dir) = file_outbox_with(batch + 50);
        let files = FileSender::new(&dir.path().join("out")).expect("outbox dir");
        let failing = FailingOnce {
            files,
            fail_on: Some(SEND_BATCH as i64 + 20),
        };
        let mut outbox = Outbox::new(Box::new(failing), &dir.path().join("pbem.sqlite3"), verp());
        let now = datetime!(2026-03-01 12:01 UTC);
        assert!(matches!(outbox.drain(&store, now), Err(SendError::Io(_))));
        // The first batch was durable and is marked; the next 19 were
        // written but not flushed, so they stay queued with the rest.
        let queued: Vec<i64> = mailbox::unsent(store.conn(), 1000)
            .expect("unsent")
            .into_iter()
            .map(|mail| mail.id)
            .collect();
        assert_eq!(
            queued,
            (batch as i64 + 1..=batch as i64 + 50).collect::<Vec<i64>>()
        );
        assert_eq!(outbox.drain(&store, now).expect("drain"), 50);
        assert!(unsent(&store).is_empty());
    }

    #[test]
    fn a_refused_mail_stays_queued_without_holding_up_the_others() {
        let (store, dir) = outbox_with(3);
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = Recorder {
            sent: sent.clone(),
            refuse: vec![2],
            defer: Vec::new(),
        };
        let mut outbox = Outbox::new(Box::new(recorder), &dir.path().join("pbem.sqlite3"), verp());
        let now = datetime!(2026-03-01 12:01 UTC);
        assert_eq!(outbox.drain(&store, now).expect("drain"), 2);
        assert_eq!(*sent.lock().expect("lock"), vec![1, 3]);
        assert_eq!(unsent(&store), vec![2]);
        // Held back until its retry time: the next drain does not try it.
        assert_eq!(outbox.drain(&store, now).expect("drain"), 0);
        assert_eq!(*sent.lock().expect("lock"), vec![1, 3]);
    }

    #[test]
    fn a_mail_put_off_with_4xx_does_not_hold_up_the_others() {
        let (store, dir) = outbox_with(3);
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = Recorder {
            sent: sent.clone(),
            refuse: Vec::new(),
            defer: vec![1],
        };
        let mut outbox = Outbox::new(Box::new(recorder), &dir.path().join("pbem.sqlite3"), verp());
        let now = datetime!(2026-03-01 12:01 UTC);
        assert_eq!(
            outbox
                .drain(&store, now)
                .expect("no failure of the whole outbox"),
            2
        );
        assert_eq!(*sent.lock().expect("lock"), vec![2, 3]);
        assert_eq!(unsent(&store), vec![1], "it waits for its retry");
        assert_eq!(outbox.drain(&store, now).expect("drain"), 0);
    }

    /// A mail as a transport got it: its envelope sender and its bytes.
    type Handed = (String, Vec<u8>);

    /// Keeps every mail handed to it.
    struct Keeper(std::sync::Arc<std::sync::Mutex<Vec<Handed>>>);

    impl MailSender for Keeper {
        fn send(
            &mut self,
            _: i64,
            from: &str,
            _: &[String],
            message: &[u8],
        ) -> Result<(), SendError> {
            let kept = (from.to_string(), message.to_vec());
            self.0.lock().expect("lock").push(kept);
            Ok(())
        }
    }

    #[test]
    fn the_transport_gets_the_mail_with_its_pictures_drawn() {
        use crate::mail::outgoing::{self, Html, Inline, Outgoing};
        use crate::render::picture::{self, Scene};
        let server = crate::mail::ServerAddress {
            local: "pbem".into(),
            domain: "localhost".into(),
        };
        let scene = Scene {
            board: shakmaty::Board::new(),
            viewer: shakmaty::Color::Black,
            marked: Vec::new(),
            check: None,
        };
        let mail = Outgoing {
            to: vec!["bob@example.org".into()],
            subject: "board".into(),
            body: "text".into(),
            html: Some(Html {
                body: "<img src=\"cid:b@localhost\">".into(),
                images: vec![Inline {
                    content_id: "b@localhost".into(),
                    scene: scene.clone(),
                }],
            }),
            ..Outgoing::default()
        };
        let now = datetime!(2026-03-01 12:00 UTC);
        let built = outgoing::build(&server, &mail, "<m@localhost>", now).expect("built");
        let store = Store::open_in_memory().expect("store");
        let to = ["bob@example.org".to_string()];
        let pictures = built.pictures.as_deref();
        mailbox::enqueue(
            store.conn(),
            "<m@localhost>",
            &to,
            &built.message,
            pictures,
            now,
        )
        .expect("enqueue");
        let dir = tempfile::tempdir().expect("temp dir");
        let kept = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let verp = verp();
        let mut outbox = Outbox::new(
            Box::new(Keeper(kept.clone())),
            &dir.path().join("pbem.sqlite3"),
            verp.clone(),
        );
        assert_eq!(outbox.drain(&store, now).expect("drain"), 1);
        let kept = kept.lock().expect("lock");
        // The envelope sender is the mail's own bounce address.
        let sent = SentMail {
            outbox_id: 1,
            sent_on: now.date(),
        };
        assert_eq!(verp.read(&kept[0].0, now.date()), Some(sent));
        assert!(kept[0].0.starts_with("pbem+b1."), "{}", kept[0].0);
        assert_eq!(kept[0].1, built.complete());
        let parsed = mail_parser::MessageParser::default()
            .parse(&kept[0].1)
            .expect("parses");
        let png = parsed.attachments().next().expect("the picture").contents();
        assert_eq!(png, picture::png(&scene));
    }

    #[test]
    fn only_one_process_sends_at_a_time() {
        let (store, dir) = outbox_with(1);
        let database = dir.path().join("pbem.sqlite3");
        let other = File::create(dir.path().join("pbem.sqlite3.send-lock")).expect("lock file");
        other.lock().expect("the other process's lock");
        let sent = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let recorder = Recorder {
            sent: sent.clone(),
            refuse: Vec::new(),
            defer: Vec::new(),
        };
        let mut outbox = Outbox::new(Box::new(recorder), &database, verp());
        let now = datetime!(2026-03-01 12:01 UTC);
        assert_eq!(outbox.drain(&store, now).expect("drain"), 0);
        assert_eq!(unsent(&store), vec![1]);
        drop(other);
        assert_eq!(outbox.drain(&store, now).expect("drain"), 1);
        assert!(unsent(&store).is_empty());
    }
}
