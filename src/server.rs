//! The running server: wires the configured inbound and outbound transports
//! to the service. Mail in, service, outbox, mail out; a mail leaves the
//! inbox only after its result is committed, and an outbox mail is marked
//! sent only after the transport accepted it.
//!
//! `pbem serve` runs two loops: the inbound loop on one thread, and the
//! outbox sender ([`outbox::run_sender`]) on another, each with its own
//! database connection. The inbound loop is the same for every
//! [`InboundSource`] (a Maildir polled, an IMAP mailbox; none in MDA mode,
//! where `pbem process` brings each mail in as a [`OneMail`]): it fetches a
//! batch, has the service handle it in one transaction, and acknowledges
//! the batch to the source only after the commit (see [`crate::mail::source`]
//! for why that makes each mail act exactly once). It wakes the sender
//! after each batch that queued replies. SIGINT or SIGTERM stops both after
//! the batch in hand. `serve --once` takes what is waiting, sends the
//! outbox once, and exits.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use std::sync::mpsc::{Receiver, RecvTimeoutError};

use crate::config::{Config, Inbound, Outbound};
use crate::mail::bounce::Verp;
use crate::mail::imap::ImapSource;
use crate::mail::maildir::{Maildir, MaildirSource};
use crate::mail::outbox::{self, Outbox};
use crate::mail::source::{InboundSource, OneMail, SourceError};
use crate::mail::stop::{Backoff, Stop};
use crate::mail::transport::{FileSender, MailSender, SendError, SendmailSender, SmtpSender};
use crate::metrics::Metrics;
use crate::schedule::cron;
use crate::service::{Handled, Pruned, Service, ServiceError, SweepReport};
use crate::store::{Store, StoreError};

/// Where the time comes from: the system clock, or a fixed time for tests (`--now`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeSource {
    System,
    Fixed(OffsetDateTime),
}

impl TimeSource {
    pub fn now(self) -> OffsetDateTime {
        match self {
            TimeSource::System => OffsetDateTime::now_utc(),
            TimeSource::Fixed(time) => time,
        }
    }
}

/// A failure of the server as a whole.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot create the data directory {path}: {error}")]
    DataDir {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(
        "cannot open the database {path}: {error}; check that its directory exists and that pbem may write there"
    )]
    Database { path: PathBuf, error: StoreError },
    #[error("inbox {path}: {error}")]
    Inbox {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Inbound(#[from] SourceError),
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("sending mail: {0}")]
    Send(#[from] SendError),
    #[error("cannot start the event loop: {0}")]
    Runtime(std::io::Error),
}

impl ServerError {
    /// Whether the database was busy (locked by another connection for
    /// longer than the busy timeout): worth trying again later.
    pub fn is_busy(&self) -> bool {
        let store = match self {
            ServerError::Service(ServiceError::Store(store)) => store,
            ServerError::Database { error, .. } => error,
            _ => return false,
        };
        matches!(
            store,
            StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _))
                if matches!(
                    error.code,
                    rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked
                )
        )
    }
}

/// What one pass over the inbox did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub mails: usize,
    pub duplicates: usize,
    pub ignored: usize,
    pub replies: usize,
    pub sent: usize,
}

/// The server on a Maildir inbox: service, inbox and outbox.
pub struct Server {
    service: Service,
    inbox: Maildir,
    outbox: Outbox,
    /// The database file, for the sender's own connection.
    database: PathBuf,
    /// How long the inbox keeps handled mails (`keep_processed_days`).
    keep_processed: Option<Duration>,
}

impl Server {
    /// Opens everything the configuration names, creating what is
    /// missing. With another inbound than a Maildir (IMAP, standard input)
    /// the local Maildir is `<data dir>/inbox`, which `serve` leaves alone.
    pub fn open(config: &Config) -> Result<Server, ServerError> {
        let dir = match &config.inbound {
            Inbound::Maildir(dir) => dir.clone(),
            Inbound::Imap(_) | Inbound::Stdin => config.data_dir.join("inbox"),
        };
        let service = open_service(config)?;
        let outbox = open_outbox(config, &service)?;
        let inbox = Maildir::create(&dir).map_err(|error| ServerError::Inbox {
            path: dir.clone(),
            error,
        })?;
        Ok(Server {
            service,
            inbox,
            outbox,
            database: config.database.clone(),
            keep_processed: config.keep_processed,
        })
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    pub fn inbox(&self) -> &Maildir {
        &self.inbox
    }

    /// Processes one mail given as bytes (MDA mode), then sends the replies.
    /// Once the mail is handled it is done with: replies that cannot be
    /// sent now wait in the outbox for the next sender (`serve`, `tick`,
    /// the next mail), and are no reason for the mail system to hand the
    /// mail over again.
    pub fn process_one(
        &mut self,
        raw: &[u8],
        time_source: TimeSource,
    ) -> Result<Pass, ServerError> {
        let mut pass = Pass::default();
        let mut source = OneMail::new(raw.to_vec());
        let no_stop = AtomicBool::new(false);
        take_waiting(
            &mut self.service,
            &mut source,
            time_source,
            &no_stop,
            &mut pass,
            &mut |_| {},
        )?;
        match self.drain(time_source) {
            Ok(sent) => pass.sent = sent,
            Err(error) => tracing::warn!(
                "the mail is handled; its replies wait in the outbox, as they cannot be sent now: {error}"
            ),
        }
        Ok(pass)
    }

    /// Processes every mail waiting in the inbox, stopping early (after the
    /// batch in hand) when `stop` is set, and sends the replies. As in
    /// `serve`, the outbox is sent on a second thread with its own database
    /// connection while the inbox is handled, so a backlog keeps both the
    /// processor and the disk busy; every reply is sent before it returns.
    pub fn process_waiting(
        &mut self,
        time_source: TimeSource,
        stop: &AtomicBool,
    ) -> Result<Pass, ServerError> {
        let mut source = MaildirSource::new(self.inbox.clone(), Duration::ZERO);
        self.process_source(&mut source, time_source, stop)
    }

    /// As [`Server::process_waiting`], for the mails waiting in `source`
    /// (opened here, and closed at the end): `serve --once` on IMAP.
    pub fn process_source(
        &mut self,
        source: &mut dyn InboundSource,
        time_source: TimeSource,
        stop: &AtomicBool,
    ) -> Result<Pass, ServerError> {
        let sender_store = Store::open(&self.database).map_err(|error| ServerError::Database {
            path: self.database.clone(),
            error,
        })?;
        // Woken when a batch queued replies; stopped when the inbox is done.
        let replies_queued = Stop::default();
        let outbox = &mut self.outbox;
        std::thread::scope(|scope| {
            let _stop_on_panic = replies_queued.stop_on_panic();
            let replies = &replies_queued;
            let sender = scope
                .spawn(move || send_until_stopped(&sender_store, outbox, time_source, replies));
            let mut pass = Pass::default();
            let handled = source
                .open(&Stop::default())
                .map_err(ServerError::from)
                .and_then(|()| {
                    take_waiting(
                        &mut self.service,
                        source,
                        time_source,
                        stop,
                        &mut pass,
                        &mut |result| {
                            if matches!(result, Handled::Processed { replies, .. } if replies > 0) {
                                replies_queued.wake();
                            }
                        },
                    )
                });
            if handled.is_ok() {
                source.close();
            }
            replies_queued.stop();
            let sent = sender.join().map_err(|_| {
                ServerError::Runtime(std::io::Error::other("the outbox sender panicked"))
            })?;
            handled?;
            pass.sent = sent?;
            Ok(pass)
        })
    }

    /// Runs the deadline sweep as of `time_source`'s time, then sends its mails.
    pub fn sweep(&mut self, time_source: TimeSource) -> Result<(SweepReport, usize), ServerError> {
        let now = time_source.now();
        let report = self.service.sweep(now)?;
        remember_sweep(&self.service, &report, now);
        Ok((report, self.drain(time_source)?))
    }

    /// Forgets old records (sent mails, processed mails), as `serve` does
    /// before each sweep.
    pub fn prune(&mut self, time_source: TimeSource) -> Result<Pruned, ServerError> {
        let pruned = self.service.prune(time_source.now())?;
        prune_inbox(&self.inbox, self.keep_processed, time_source);
        Ok(pruned)
    }

    /// Sends the daily digest (once a day at most), then the outbox.
    pub fn digest(&mut self, time_source: TimeSource) -> Result<(usize, usize), ServerError> {
        let digests = self.service.digest(time_source.now())?;
        Ok((digests, self.drain(time_source)?))
    }

    /// Sends what is in the outbox.
    pub fn drain(&mut self, time_source: TimeSource) -> Result<usize, ServerError> {
        Ok(self.outbox.drain(self.service.store(), time_source.now())?)
    }
}

fn open_store(config: &Config) -> Result<Store, ServerError> {
    // The inbox and the outbox are in it: its owner's (see `private::dir`).
    crate::mail::private::dir(&config.data_dir).map_err(|error| ServerError::DataDir {
        path: config.data_dir.clone(),
        error,
    })?;
    Store::open(&config.database).map_err(|error| ServerError::Database {
        path: config.database.clone(),
        error,
    })
}

fn open_service(config: &Config) -> Result<Service, ServerError> {
    Ok(Service::new(open_store(config)?, config.service.clone())?)
}

/// Deletes the handled mails older than `keep` from the Maildir's `cur/`;
/// a failure is logged, and the next sweep tries again.
fn prune_inbox(inbox: &Maildir, keep: Option<Duration>, time_source: TimeSource) {
    let Some(keep) = keep else { return };
    let Some(before) = std::time::SystemTime::from(time_source.now()).checked_sub(keep) else {
        return;
    };
    match inbox.prune_handled(before) {
        Ok(0) => {}
        Ok(mails) => tracing::info!(mails, "handled mails pruned from the inbox"),
        Err(error) => tracing::error!(
            %error,
            inbox = %inbox.root().display(),
            "pruning handled mails failed; it runs again at the next sweep"
        ),
    }
}

/// What a sweep did, in words: the line of `pbem tick` and `pbem status`.
pub fn sweep_text(report: &SweepReport) -> String {
    format!(
        "{} reminders, {} losses on time, {} draws by timeout",
        report.reminders, report.losses_on_time, report.draws_by_timeout
    )
}

/// Keeps when the last sweep ran and what it did, for `pbem status`: the
/// operator's proof that cron (or `serve`'s schedule) runs it. A failure
/// to keep it is logged and changes nothing else.
fn remember_sweep(service: &Service, report: &SweepReport, now: OffsetDateTime) {
    let conn = service.store().conn();
    if let Err(error) = crate::store::delivery::record_sweep(conn, &sweep_text(report), now) {
        tracing::warn!(%error, "cannot record the sweep for `pbem status`");
    }
}

/// The configured outbound transport and the outbox it empties, whose
/// mails' envelope senders are VERP addresses at the bounce address,
/// signed with `service`'s token key.
fn open_outbox(config: &Config, service: &Service) -> Result<Outbox, ServerError> {
    let sender: Box<dyn MailSender + Send> = match &config.outbound {
        Outbound::Directory(dir) => Box::new(FileSender::new(dir).map_err(SendError::from)?),
        Outbound::Sendmail(command) => Box::new(SendmailSender::new(command.as_deref())),
        Outbound::Smtp(smtp) => Box::new(SmtpSender::new(smtp, &config.service.address)?),
    };
    let verp = Verp::new(config.bounce_address().clone(), service.token_key().clone());
    // A recipient refused at RCPT TO is a bounce of that address, acted on
    // by a service of the outbox's own (it runs on the sender's thread).
    let mut bounces = open_service(config)?;
    let on_refusal: outbox::RefusalHandler = Box::new(move |outbox_id, refusal, now| {
        bounces
            .refused_at_rcpt(outbox_id, refusal, now)
            .map_err(|error| error.to_string())
    });
    Ok(Outbox::new(sender, &config.database, verp).on_refusal(on_refusal))
}

/// Mails handled in one transaction: a batch costs one disk flush, and a
/// stop request waits for at most this many mails.
pub const BATCH: usize = 64;

/// Sends the outbox whenever `replies_queued` is woken, and a last time
/// once it is stopped. Returns how many mails it sent.
fn send_until_stopped(
    store: &Store,
    outbox: &mut Outbox,
    time_source: TimeSource,
    replies_queued: &Stop,
) -> Result<usize, SendError> {
    let mut sent = 0;
    loop {
        let last = replies_queued.wait_for_wake(Duration::from_secs(1));
        sent += outbox.drain(store, time_source.now())?;
        if last {
            return Ok(sent);
        }
    }
}

/// Handles every mail `source` has waiting, a batch ([`BATCH`] mails) per
/// transaction, until it has none or `stop`: fetches the batch, has the
/// service handle it and commit, and only then acknowledges it to the
/// source. On a failure the batch in hand is not acknowledged, and the
/// source gives it again. Counts into `pass`, and calls `handled` after
/// each commit. The source must be open.
fn take_waiting(
    service: &mut Service,
    source: &mut dyn InboundSource,
    time_source: TimeSource,
    stop: &AtomicBool,
    pass: &mut Pass,
    handled: &mut dyn FnMut(Handled),
) -> Result<(), ServerError> {
    let mut next_report = pass.mails + 1000;
    while !stop.load(Ordering::SeqCst) {
        let batch = source.fetch(BATCH, service.config().max_mail_bytes)?;
        if batch.is_empty() {
            break;
        }
        let heads: Vec<(&[u8], usize)> = batch
            .iter()
            .map(|mail| (mail.raw.as_slice(), mail.size))
            .collect();
        let results = service.handle_heads(&heads, time_source.now())?;
        drop(heads);
        drop(batch);
        source.acknowledge()?;
        for result in results {
            pass.count(result);
            handled(result);
        }
        if pass.mails >= next_report {
            tracing::info!("processed {} mails", pass.mails);
            next_report += 1000;
        }
    }
    Ok(())
}

/// The inbound loop of `pbem serve`, the same for every source: opens the
/// source, takes what is waiting, waits for more, until `stop`. A failure
/// leaves the batch in hand unacknowledged (it comes again), is logged,
/// and the source is opened again after a pause (1 s doubling to 5
/// minutes): a mail server that restarted, a database kept busy by another
/// process past its timeout, a service failure that is not one mail's.
/// Only a failure of the source that needs its operator (a Maildir it
/// cannot read) ends the loop, and the server with it.
fn receive(
    service: &mut Service,
    source: &mut dyn InboundSource,
    time_source: TimeSource,
    stop: &Stop,
    total: &mut Pass,
    handled: &mut dyn FnMut(Handled),
) -> Result<(), ServerError> {
    let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(300));
    while !stop.is_stopping() {
        let result = source.open(stop).map_err(ServerError::from).and_then(|()| {
            while !stop.is_stopping() {
                let (mails, replies) = (total.mails, total.replies);
                take_waiting(service, source, time_source, stop.flag(), total, handled)?;
                backoff.reset();
                if total.mails > mails {
                    tracing::info!(
                        mails = total.mails - mails,
                        replies = total.replies - replies,
                        "inbox pass"
                    );
                }
                source.wait(stop)?;
            }
            Ok(())
        });
        let error = match result {
            Ok(()) => {
                source.close();
                break;
            }
            Err(ServerError::Inbound(error)) if !error.is_transient() => {
                return Err(error.into());
            }
            Err(_) if stop.is_stopping() => break,
            Err(error) => error,
        };
        let delay = backoff.next_delay();
        let retry_in_ms = delay.as_millis() as u64;
        if error.is_busy() {
            // Another process kept the database past the busy timeout (a
            // long backup, say), as the sweep and the sender meet it too.
            tracing::warn!(
                retry_in_ms,
                "the database stayed busy; the batch was not committed and waits in the inbox: {error}"
            );
        } else if matches!(error, ServerError::Inbound(_)) {
            tracing::warn!(retry_in_ms, "{error}; reconnecting");
        } else {
            tracing::warn!(
                retry_in_ms,
                "handling mail failed; the batch was not committed and waits in the inbox: {error}"
            );
        }
        stop.sleep(delay);
    }
    Ok(())
}

impl Pass {
    fn count(&mut self, handled: Handled) {
        self.mails += 1;
        match handled {
            Handled::Processed { replies, .. } => self.replies += replies,
            Handled::Duplicate => self.duplicates += 1,
            Handled::Ignored => self.ignored += 1,
        }
    }
}

/// Runs the server: with `once`, one pass over the inbound and one over
/// the outbox; otherwise the inbound loop and the outbox sender until
/// SIGINT or SIGTERM, finishing the batch in hand.
pub fn serve(config: &Config, once: bool, time_source: TimeSource) -> Result<Pass, ServerError> {
    if once {
        return serve_once(config, time_source);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    let config = config.clone();
    runtime.block_on(async move {
        let stop = Arc::new(Stop::default());
        spawn_signal_watch(stop.clone()).map_err(ServerError::Runtime)?;
        // Counted by the loops below, read by the web site's /metrics.
        let metrics = Arc::new(Metrics::default());
        // The web site reads the store on this runtime; its failure is logged, not fatal.
        crate::web::spawn(&config, time_source, metrics.clone()).await;
        // The cron jobs run on this runtime and only queue events; a full
        // queue means the same work is already pending.
        let (events, deadline_events) = std::sync::mpsc::sync_channel(4);
        // Catch up at start: deadlines may have passed while pbem was down.
        let _ = events.try_send(cron::Event::Sweep);
        let _scheduler = cron::start(&config.schedule, events)
            .await
            .map_err(|e| ServerError::Runtime(std::io::Error::other(e)))?;
        tokio::task::spawn_blocking(move || {
            run(&config, time_source, &stop, deadline_events, &metrics)
        })
        .await
        .map_err(|e| ServerError::Runtime(std::io::Error::other(e)))?
    })
}

fn serve_once(config: &Config, time_source: TimeSource) -> Result<Pass, ServerError> {
    let no_stop = AtomicBool::new(false);
    match &config.inbound {
        Inbound::Maildir(_) => Server::open(config)?.process_waiting(time_source, &no_stop),
        Inbound::Imap(settings) => {
            let mut server = Server::open(config)?;
            let mut source = ImapSource::new(settings, open_store(config)?);
            server.process_source(&mut source, time_source, &no_stop)
        }
        Inbound::Stdin => {
            let sent = Server::open(config)?.drain(time_source)?;
            Ok(Pass {
                sent,
                ..Pass::default()
            })
        }
    }
}

/// The inbound loop on this thread, the outbox sender on another and the
/// deadline sweeps on a third, until `stop` (or a failure of the inbound
/// loop, which stops the others too). Each counts into `metrics`.
fn run(
    config: &Config,
    time_source: TimeSource,
    stop: &Stop,
    deadline_events: Receiver<cron::Event>,
    metrics: &Metrics,
) -> Result<Pass, ServerError> {
    let mut deadline_service = open_service(config)?;
    let mut service = open_service(config)?;
    let outbox = open_outbox(config, &service)?;
    let sender_store = open_store(config)?;
    // The Maildir inbox, whose handled mails the sweep prunes.
    let maildir = match &config.inbound {
        Inbound::Maildir(dir) => {
            Some(Maildir::create(dir).map_err(|error| ServerError::Inbox {
                path: dir.clone(),
                error,
            })?)
        }
        Inbound::Imap(_) | Inbound::Stdin => None,
    };
    let mut source: Option<Box<dyn InboundSource + '_>> = match (&config.inbound, &maildir) {
        (Inbound::Maildir(_), Some(inbox)) => Some(Box::new(MaildirSource::new(
            inbox.clone(),
            config.poll_interval,
        ))),
        (Inbound::Maildir(_), None) => None,
        (Inbound::Imap(settings), _) => {
            Some(Box::new(ImapSource::new(settings, open_store(config)?)))
        }
        // MDA mode: `pbem process` brings the mail.
        (Inbound::Stdin, _) => None,
    };
    tracing::info!(
        inbound = %describe(&config.inbound),
        schema = crate::store::SCHEMA,
        "pbem is serving"
    );
    std::thread::scope(|scope| {
        let _stop_on_panic = stop.stop_on_panic();
        scope.spawn(move || {
            let _stop_on_panic = stop.stop_on_panic();
            run_deadlines(
                &mut deadline_service,
                (maildir.as_ref(), config.keep_processed),
                time_source,
                stop,
                &deadline_events,
                metrics,
            )
        });
        let sender = scope.spawn(move || {
            let _stop_on_panic = stop.stop_on_panic();
            let mut outbox = outbox;
            outbox::run_sender(
                &sender_store,
                &mut outbox,
                &|| time_source.now(),
                stop,
                &|held| metrics.set_held(held),
            )
        });
        let mut total = Pass::default();
        let result = match source.as_deref_mut() {
            Some(source) => receive(
                &mut service,
                source,
                time_source,
                stop,
                &mut total,
                &mut |result| {
                    let (answered, refused) = match result {
                        Handled::Processed { replies, refused } => (replies > 0, refused),
                        Handled::Duplicate | Handled::Ignored => (false, false),
                    };
                    metrics.count_mail(answered, refused);
                    if answered {
                        stop.wake();
                    }
                },
            ),
            // Only send here.
            None => {
                while !stop.sleep(Duration::from_secs(3600)) {}
                Ok(())
            }
        };
        stop.stop();
        match sender.join() {
            Ok(sent) => total.sent = sent,
            Err(_) => {
                return Err(ServerError::Runtime(std::io::Error::other(
                    "the outbox sender stopped unexpectedly",
                )));
            }
        }
        tracing::info!("pbem stopped");
        result.map(|()| total)
    })
}

/// Runs the deadline sweep and the digest when the schedule says so, with
/// its own database connection; a failure is logged and tried again at the
/// next event. Each sweep's duration goes into `metrics`.
fn run_deadlines(
    service: &mut Service,
    (inbox, keep_processed): (Option<&Maildir>, Option<Duration>),
    time_source: TimeSource,
    stop: &Stop,
    events: &Receiver<cron::Event>,
    metrics: &Metrics,
) {
    while !stop.is_stopping() {
        let event = match events.recv_timeout(Duration::from_secs(1)) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if event == cron::Event::Sweep {
            if let Some(inbox) = inbox {
                prune_inbox(inbox, keep_processed, time_source);
            }
            match service.prune(time_source.now()) {
                Ok(pruned) if pruned != Pruned::default() => {
                    tracing::info!(?pruned, "old records pruned")
                }
                Ok(_) => {}
                Err(error) => {
                    tracing::error!(%error, "pruning failed; it runs again at the next sweep")
                }
            }
        }
        let result = match event {
            cron::Event::Sweep => {
                let started = std::time::Instant::now();
                let now = time_source.now();
                let swept = service.sweep(now);
                metrics.sweep_took(started.elapsed());
                if let Ok(report) = &swept {
                    remember_sweep(service, report, now);
                }
                swept
            }
            .map(|report| {
                tracing::info!(
                    reminders = report.reminders,
                    losses_on_time = report.losses_on_time,
                    draws_by_timeout = report.draws_by_timeout,
                    "deadline sweep"
                );
                report.reminders + report.losses_on_time + report.draws_by_timeout
            }),
            cron::Event::Digest => service.digest(time_source.now()).inspect(|digests| {
                tracing::info!(digests, "daily digest");
            }),
        };
        match result {
            Ok(0) => {}
            Ok(_) => stop.wake(),
            Err(error) => {
                tracing::error!(%error, ?event, "deadline work failed; it runs again at the next event")
            }
        }
    }
}

fn describe(inbound: &Inbound) -> String {
    match inbound {
        Inbound::Maildir(dir) => format!("Maildir {}", dir.display()),
        Inbound::Stdin => "none (mail comes in by `pbem process`)".into(),
        Inbound::Imap(settings) => format!("IMAP {} {}", settings.endpoint, settings.mailbox),
    }
}

/// Stops the server on SIGINT or SIGTERM.
fn spawn_signal_watch(stop: Arc<Stop>) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut interrupt = signal(SignalKind::interrupt())?;
        let mut terminate = signal(SignalKind::terminate())?;
        tokio::spawn(async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            tracing::info!("stopping after the mail in hand");
            stop.stop();
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        tokio::signal::ctrl_c().await.ok();
        stop.stop();
    });
    Ok(())
}
