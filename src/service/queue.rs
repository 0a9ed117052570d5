//! Putting replies in the outbox. Each reply is built into its MIME message
//! ([`outgoing::build`]) and queued with it ([`mailbox::enqueue`]).
//!
//! While a batch of inbound mail is handled, the building is done on a
//! thread beside the one handling the mail ([`with_builder`]): the MIME of
//! one mail's replies is put together while the next mail is read, played
//! and rendered. Every reply is still queued, in order, inside the batch's
//! transaction before it commits ([`Beside::finish`]), and the replies of
//! a mail whose handling is taken back are dropped with it
//! ([`Beside::take_back`]). What a reply records about itself (its lines
//! and the position it shows, [`threading::record_sent`]) is written at once,
//! in the mail's savepoint, because it reads the board as that mail left
//! it. The deadline sweep and the digest build at once ([`Replies::Now`]).

use std::sync::mpsc;

use rusqlite::Connection;
use time::OffsetDateTime;

use super::{ServiceConfig, ServiceError, threading};
use crate::mail::ServerAddress;
use crate::mail::outgoing::{self, BuildError, Built, Outgoing};
use crate::mail::token::TokenKey;
use crate::store::mailbox;

/// Where the replies of [`queue_all`] are built.
pub(super) enum Replies<'b> {
    /// Built and queued at once.
    Now,
    /// Built on the thread beside; queued by [`Beside::finish`].
    Beside(&'b mut Beside),
}

/// Builds each reply and puts it in the outbox; a mail a player may reply
/// to (it carries a reply token) is recorded with the position it shows
/// and its lines (see [`threading::record_sent`]).
pub(super) fn queue_all(
    conn: &Connection,
    config: &ServiceConfig,
    key: &TokenKey,
    mails: Vec<Outgoing>,
    now: OffsetDateTime,
    replies: &mut Replies<'_>,
) -> Result<(), ServiceError> {
    for mail in mails {
        // A player without a confirmed address gets no mail.
        if mail.to.iter().all(String::is_empty) {
            continue;
        }
        let message_id = outgoing::new_message_id(&config.address);
        let to = outgoing::deliverable(&mail.to);
        if to.is_empty() {
            not_sent(&mail.to, &mail.subject, &BuildError::NoRecipient);
            continue;
        }
        threading::record_sent(conn, config, key, &mail, &message_id, now)?;
        match replies {
            Replies::Now => {
                let built = outgoing::build(&config.address, &mail, &message_id, now);
                let reply = Waiting::new(&mail, message_id, to, now);
                reply.place(conn, built)?;
            }
            Replies::Beside(beside) => beside.push(mail, message_id, to, now),
        }
    }
    Ok(())
}

/// A reply pbem cannot build (no recipient it can write to, an address
/// lettre refuses) is logged and left out; the mail's other effects stand.
fn not_sent(to: &[String], subject: &str, error: &BuildError) {
    tracing::warn!(
        to = %to.join(", "),
        subject = %subject,
        "a reply is not sent: {error}"
    );
}

/// A reply given to the builder, waiting to be queued.
struct Waiting {
    message_id: String,
    /// Its deliverable recipients.
    to: Vec<String>,
    /// Its recipients as addressed and its subject, for the log.
    addressed: Vec<String>,
    subject: String,
    now: OffsetDateTime,
    /// Held back in the outbox until then (`Outgoing::send_after`).
    send_after: Option<OffsetDateTime>,
    /// Its mail's handling was taken back: it is dropped.
    taken_back: bool,
}

impl Waiting {
    fn new(mail: &Outgoing, message_id: String, to: Vec<String>, now: OffsetDateTime) -> Waiting {
        Waiting {
            message_id,
            to,
            addressed: mail.to.clone(),
            subject: mail.subject.clone(),
            now,
            send_after: mail.send_after,
            taken_back: false,
        }
    }

    /// Queues the built reply; one that could not be built is logged, and
    /// the record of it as sent taken back.
    fn place(
        self,
        conn: &Connection,
        built: Result<Built, BuildError>,
    ) -> Result<(), ServiceError> {
        match built {
            Ok(built) => {
                mailbox::enqueue(
                    conn,
                    &self.message_id,
                    &self.to,
                    &built.message,
                    built.pictures.as_deref(),
                    self.now,
                )?;
                if let Some(at) = self.send_after {
                    mailbox::send_after(conn, &self.message_id, at)?;
                }
            }
            Err(error) => {
                not_sent(&self.addressed, &self.subject, &error);
                threading::forget_sent(conn, &self.message_id)?;
            }
        }
        Ok(())
    }
}

/// What the builder thread is given: a reply, its Message-ID and date.
type Job = (Outgoing, String, OffsetDateTime);

/// The handle on the builder thread of [`with_builder`].
pub(super) struct Beside {
    /// The builder's jobs: `None` where there is no builder thread (the
    /// system would not start one), and once [`Beside::finish`] told the
    /// builder no more comes.
    jobs: Option<mpsc::Sender<Job>>,
    built: mpsc::Receiver<Result<Built, BuildError>>,
    /// The replies given to the builder, in order; it answers in order.
    waiting: Vec<Waiting>,
    /// Without a builder thread, the replies are built here, at once, and
    /// their results kept.
    server: ServerAddress,
    built_here: std::collections::VecDeque<Result<Built, BuildError>>,
}

impl Beside {
    fn push(&mut self, mail: Outgoing, message_id: String, to: Vec<String>, now: OffsetDateTime) {
        self.waiting
            .push(Waiting::new(&mail, message_id.clone(), to, now));
        match &self.jobs {
            // A builder that stopped (it panicked) shows in `finish`.
            Some(jobs) => drop(jobs.send((mail, message_id, now))),
            None => {
                let built = outgoing::build(&self.server, &mail, &message_id, now);
                self.built_here.push_back(built);
            }
        }
    }

    /// Where the replies of the mail about to be handled begin.
    pub(super) fn mark(&self) -> usize {
        self.waiting.len()
    }

    /// Drops the replies given since `mark`: their mail's handling was
    /// taken back.
    pub(super) fn take_back(&mut self, mark: usize) {
        for reply in self.waiting.iter_mut().skip(mark) {
            reply.taken_back = true;
        }
    }

    /// Waits for the builder and queues every reply not taken back, in
    /// the order given; call it in the batch's transaction, before it
    /// commits.
    pub(super) fn finish(&mut self, conn: &Connection) -> Result<(), ServiceError> {
        self.jobs = None;
        for reply in std::mem::take(&mut self.waiting) {
            let built = match self.built_here.pop_front() {
                Some(built) => built,
                None => self.built.recv().map_err(|_| {
                    ServiceError::Builder("the thread building the replies stopped".to_string())
                })?,
            };
            if !reply.taken_back {
                reply.place(conn, built)?;
            }
        }
        Ok(())
    }
}

/// Builds a reply on the builder thread. A panic (a bug) is that reply's
/// failure alone: left to stop the thread, it would fail the whole batch,
/// and the batch again after every restart.
fn build_caught(
    server: &ServerAddress,
    mail: &Outgoing,
    message_id: &str,
    now: OffsetDateTime,
) -> Result<Built, BuildError> {
    std::panic::catch_unwind(|| outgoing::build(server, mail, message_id, now)).unwrap_or_else(
        |panic| {
            Err(BuildError::Panicked(
                crate::caught::panic_text(panic.as_ref()).to_string(),
            ))
        },
    )
}

/// Runs `work` with a builder thread beside it; the replies `work` gives
/// it are queued by [`Beside::finish`], which `work` calls before it
/// commits. Replies not finished when `work` returns are dropped. Where
/// the system will not start a thread, the replies are built at once.
pub(super) fn with_builder<R>(server: &ServerAddress, work: impl FnOnce(&mut Beside) -> R) -> R {
    let (jobs, received) = mpsc::channel::<Job>();
    let (answer, built) = mpsc::channel();
    std::thread::scope(|scope| {
        let builder = std::thread::Builder::new()
            .name("pbem-build".to_string())
            .spawn_scoped(scope, move || {
                for (mail, message_id, now) in received {
                    if answer
                        .send(build_caught(server, &mail, &message_id, now))
                        .is_err()
                    {
                        return;
                    }
                }
            });
        if let Err(error) = &builder {
            tracing::warn!(
                "no thread to build the replies beside ({error}); they are built in turn"
            );
        }
        let mut beside = Beside {
            jobs: builder.is_ok().then_some(jobs),
            built,
            waiting: Vec::new(),
            server: server.clone(),
            built_here: std::collections::VecDeque::new(),
        };
        // The builder stops when `beside`, and with it the sending end of
        // its jobs, is dropped; the scope then waits for it.
        work(&mut beside)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn reply(subject: &str) -> Outgoing {
        Outgoing {
            to: vec!["bob@example.org".to_string()],
            subject: subject.to_string(),
            body: format!("about {subject}"),
            ..Outgoing::default()
        }
    }

    /// The subjects of the queued mails, in the outbox's order.
    fn queued_subjects(conn: &Connection) -> Vec<String> {
        mailbox::unsent(conn, 100)
            .expect("unsent")
            .into_iter()
            .map(|mail| {
                let text = String::from_utf8(mail.message).expect("text");
                let line = text
                    .lines()
                    .find(|l| l.starts_with("Subject: "))
                    .expect("subject");
                line["Subject: ".len()..].to_string()
            })
            .collect()
    }

    /// Gives `beside` the replies of three mails, the second taken back,
    /// the third with a reply that cannot be built and one to nobody, and
    /// finishes: the subjects queued.
    fn queue_three_mails(beside: &mut Beside) -> Vec<String> {
        let store = Store::open_in_memory().expect("store");
        let config = ServiceConfig::default();
        let key = TokenKey::generate().expect("key");
        let now = OffsetDateTime::UNIX_EPOCH;
        let tx = store.transaction().expect("transaction");
        let queue = |mails: Vec<Outgoing>, beside: &mut Beside| {
            queue_all(&tx, &config, &key, mails, now, &mut Replies::Beside(beside)).expect("queued")
        };
        queue(vec![reply("first"), reply("second")], beside);
        // A mail whose handling is taken back after its replies went to the
        // builder.
        tx.execute_batch("SAVEPOINT mail").expect("savepoint");
        let mark = beside.mark();
        queue(vec![reply("taken back")], beside);
        tx.execute_batch("ROLLBACK TO mail; RELEASE mail")
            .expect("rollback");
        beside.take_back(mark);
        // One that cannot be built (its Reply-To is no address), one to
        // nobody pbem can write to, and a last good one.
        let mut broken = reply("broken");
        broken.reply_to = Some("not an address".to_string());
        let mut nobody = reply("nobody");
        nobody.to = vec!["@".to_string()];
        queue(vec![broken, nobody, reply("last")], beside);
        // Nothing is queued before the builder is finished with.
        assert!(queued_subjects(&tx).is_empty());
        beside.finish(&tx).expect("finished");
        queued_subjects(&tx)
    }

    #[test]
    fn replies_built_beside_are_queued_in_order_without_those_taken_back() {
        let server = ServiceConfig::default().address;
        let queued = with_builder(&server, queue_three_mails);
        assert_eq!(queued, ["first", "second", "last"]);
    }

    #[test]
    fn without_a_builder_thread_the_replies_are_built_in_turn_alike() {
        let (_, built) = mpsc::channel();
        let mut here = Beside {
            jobs: None,
            built,
            waiting: Vec::new(),
            server: ServiceConfig::default().address,
            built_here: std::collections::VecDeque::new(),
        };
        assert_eq!(queue_three_mails(&mut here), ["first", "second", "last"]);
    }

    #[test]
    fn replies_built_now_are_queued_at_once() {
        let store = Store::open_in_memory().expect("store");
        let config = ServiceConfig::default();
        let key = TokenKey::generate().expect("key");
        let now = OffsetDateTime::UNIX_EPOCH;
        let mails = vec![reply("one"), reply("two")];
        queue_all(store.conn(), &config, &key, mails, now, &mut Replies::Now).expect("queued");
        assert_eq!(queued_subjects(store.conn()), ["one", "two"]);
    }
}
