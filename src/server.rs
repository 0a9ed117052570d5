//! The running server: wires the configured inbound and outbound transports
//! to the service. Mail in, service, outbox, mail out; a mail leaves the
//! inbox only after its result is committed, and an outbox mail is marked
//! sent only after the transport accepted it.
//!
//! `pbem serve` runs two loops: the inbound loop (a Maildir polled, an IMAP
//! mailbox, or none for MDA mode, where `pbem process` brings mail in) on
//! one thread, and the outbox sender ([`transport::run_sender`]) on another,
//! each with its own database connection. The inbound loop wakes the sender
//! after each mail that queued replies. SIGINT or SIGTERM stops both after
//! the mail in hand. `serve --once` takes what is waiting, sends the outbox
//! once, and exits.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use time::OffsetDateTime;

use std::sync::mpsc::{Receiver, RecvTimeoutError};

use crate::config::{Config, Inbound, Outbound};
use crate::mail::imap::{self, ImapError};
use crate::mail::maildir::Maildir;
use crate::mail::smtp::SmtpSender;
use crate::mail::stop::Stop;
use crate::mail::transport::{self, FileSender, MailSender, Outbox, SendError, SendmailSender};
use crate::schedule::cron;
use crate::service::{Handled, Pruned, Service, ServiceError, SweepReport};
use crate::store::{Store, StoreError};

/// Where the time comes from: the system clock, or a fixed time for tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clock {
    System,
    Fixed(OffsetDateTime),
}

impl Clock {
    pub fn now(self) -> OffsetDateTime {
        match self {
            Clock::System => OffsetDateTime::now_utc(),
            Clock::Fixed(time) => time,
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
    Imap(#[from] ImapError),
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
        let inbox = Maildir::create(&dir).map_err(|error| ServerError::Inbox {
            path: dir.clone(),
            error,
        })?;
        Ok(Server {
            service,
            inbox,
            outbox: open_outbox(config)?,
            database: config.database.clone(),
        })
    }

    pub fn service(&self) -> &Service {
        &self.service
    }

    pub fn inbox(&self) -> &Maildir {
        &self.inbox
    }

    /// Processes one mail given as bytes (MDA mode), then sends the replies.
    pub fn process_one(&mut self, raw: &[u8], clock: Clock) -> Result<Pass, ServerError> {
        let mut pass = Pass::default();
        pass.count(self.service.handle(raw, clock.now())?);
        pass.sent = self.drain(clock)?;
        Ok(pass)
    }

    /// Processes every mail waiting in the inbox, stopping early (after the
    /// mail in hand) when `stop` is set, and sends the replies. As in
    /// `serve`, the outbox is sent on a second thread with its own database
    /// connection while the inbox is handled, so a backlog keeps both the
    /// processor and the disk busy; every reply is sent before it returns.
    pub fn process_waiting(
        &mut self,
        clock: Clock,
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
            let sender =
                scope.spawn(move || send_until_stopped(&sender_store, outbox, clock, replies));
            let handled =
                handle_waiting(&mut self.service, &self.inbox, clock, stop, &mut |result| {
                    if matches!(result, Handled::Processed { replies } if replies > 0) {
                        replies_queued.wake();
                    }
                });
            replies_queued.stop();
            let sent = sender.join().map_err(|_| {
                ServerError::Runtime(std::io::Error::other("the outbox sender panicked"))
            })?;
            let mut pass = handled?;
            pass.sent = sent?;
            Ok(pass)
        })
    }

    /// Runs the deadline sweep as of the clock's time, then sends its mails.
    pub fn sweep(&mut self, clock: Clock) -> Result<(SweepReport, usize), ServerError> {
        let report = self.service.sweep(clock.now())?;
        Ok((report, self.drain(clock)?))
    }

    /// Sends the daily digest (once a day at most), then the outbox.
    pub fn digest(&mut self, clock: Clock) -> Result<(usize, usize), ServerError> {
        let digests = self.service.digest(clock.now())?;
        Ok((digests, self.drain(clock)?))
    }

    /// Sends what is in the outbox.
    pub fn drain(&mut self, clock: Clock) -> Result<usize, ServerError> {
        Ok(self.outbox.drain(self.service.store(), clock.now())?)
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

/// The configured outbound transport and the outbox it empties.
fn open_outbox(config: &Config) -> Result<Outbox, ServerError> {
    let sender: Box<dyn MailSender + Send> = match &config.outbound {
        Outbound::Directory(dir) => Box::new(FileSender::new(dir).map_err(SendError::from)?),
        Outbound::Sendmail(command) => Box::new(SendmailSender::new(
            command.as_deref(),
            &config.service.address,
        )?),
        Outbound::Smtp(smtp) => Box::new(SmtpSender::new(smtp, &config.service.address)?),
    };
    Ok(Outbox::new(sender, &config.database))
}

/// Mails handled in one transaction: a batch costs one disk flush, and a
/// stop request waits for at most this many mails.
pub const BATCH: usize = 64;

/// What is read of a mail over the size limit: its headers, to answer it.
/// A batch holds at most `BATCH` times the size limit in memory.
const HEAD_BYTES: usize = 64 * 1024;

/// Sends the outbox whenever `replies_queued` is woken, and a last time
/// once it is stopped. Returns how many mails it sent.
fn send_until_stopped(
    store: &Store,
    outbox: &mut Outbox,
    clock: Clock,
    replies_queued: &Stop,
) -> Result<usize, SendError> {
    let mut sent = 0;
    loop {
        let last = replies_queued.wait_for_wake(Duration::from_secs(1));
        sent += outbox.drain(store, clock.now())?;
        if last {
            return Ok(sent);
        }
    }
}

/// Handles every mail waiting in a Maildir, oldest first, until `stop`;
/// calls `handled` after each commit.
fn handle_waiting(
    service: &mut Service,
    inbox: &Maildir,
    clock: Clock,
    stop: &AtomicBool,
    handled: &mut dyn FnMut(Handled),
) -> Result<Pass, ServerError> {
    let mut pass = Pass::default();
    let waiting = inbox.waiting().map_err(|error| ServerError::Inbox {
        path: inbox.root().to_path_buf(),
        error,
    })?;
    let total = waiting.len();
    let mut next_report = 1000;
    for chunk in waiting.chunks(BATCH) {
        if stop.load(Ordering::SeqCst) {
            break;
        }
        let mut paths = Vec::with_capacity(chunk.len());
        let mut raws = Vec::with_capacity(chunk.len());
        let limit = service.config().max_mail_bytes;
        for path in chunk {
            match Maildir::read(path, limit, HEAD_BYTES) {
                Ok(raw) => {
                    paths.push(path);
                    raws.push(raw);
                }
                // Taken away meanwhile (another process): nothing to do.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => {}
                Err(error) => {
                    return Err(ServerError::Inbox {
                        path: path.clone(),
                        error,
                    });
                }
            }
        }
        let heads: Vec<(&[u8], usize)> = raws
            .iter()
            .map(|(raw, size)| (raw.as_slice(), *size))
            .collect();
        // One commit for the batch; the mails leave new/ only after it.
        let results = service.handle_heads(&heads, clock.now())?;
        for (path, result) in paths.into_iter().zip(results) {
            pass.count(result);
            inbox
                .mark_handled(path)
                .map_err(|error| ServerError::Inbox {
                    path: path.clone(),
                    error,
                })?;
            handled(result);
        }
        if pass.mails >= next_report {
            tracing::info!("processed {} of {total} mails", pass.mails);
            next_report += 1000;
        }
    }
    Ok(pass)
}

impl Pass {
    fn count(&mut self, handled: Handled) {
        self.mails += 1;
        match handled {
            Handled::Processed { replies } => self.replies += replies,
            Handled::Duplicate => self.duplicates += 1,
            Handled::Ignored => self.ignored += 1,
        }
    }

    fn add(&mut self, other: Pass) {
        self.mails += other.mails;
        self.duplicates += other.duplicates;
        self.ignored += other.ignored;
        self.replies += other.replies;
        self.sent += other.sent;
    }
}

/// Runs the server: with `once`, one pass over the inbound and one over
/// the outbox; otherwise the inbound loop and the outbox sender until
/// SIGINT or SIGTERM, finishing the mail in hand.
pub fn serve(config: &Config, once: bool, clock: Clock) -> Result<Pass, ServerError> {
    if once {
        return serve_once(config, clock);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    let config = config.clone();
    runtime.block_on(async move {
        let stop = Arc::new(Stop::default());
        spawn_signal_watch(stop.clone()).map_err(ServerError::Runtime)?;
        // The web site reads the store on this runtime; its failure is logged, not fatal.
        crate::web::spawn(&config, clock).await;
        // The cron jobs run on this runtime and only queue events; a full
        // queue means the same work is already pending.
        let (events, deadline_events) = std::sync::mpsc::sync_channel(4);
        // Catch up at start: deadlines may have passed while pbem was down.
        let _ = events.try_send(cron::Event::Sweep);
        let _scheduler = cron::start(&config.schedule, events)
            .await
            .map_err(|e| ServerError::Runtime(std::io::Error::other(e)))?;
        tokio::task::spawn_blocking(move || run(&config, clock, &stop, deadline_events))
            .await
            .map_err(|e| ServerError::Runtime(std::io::Error::other(e)))?
    })
}

fn serve_once(config: &Config, clock: Clock) -> Result<Pass, ServerError> {
    match &config.inbound {
        Inbound::Maildir(_) => {
            Server::open(config)?.process_waiting(clock, &AtomicBool::new(false))
        }
        Inbound::Imap(settings) => {
            let mut server = Server::open(config)?;
            let mut pass = Pass::default();
            imap::run_once(
                settings,
                &mut server.service,
                &|| clock.now(),
                &mut |handled| pass.count(handled),
            )?;
            pass.sent = server.drain(clock)?;
            Ok(pass)
        }
        Inbound::Stdin => {
            let sent = Server::open(config)?.drain(clock)?;
            Ok(Pass {
                sent,
                ..Pass::default()
            })
        }
    }
}

/// The inbound loop on this thread, the outbox sender on another and the
/// deadline sweeps on a third, until `stop` (or a failure of the Maildir
/// loop, which stops the others too).
fn run(
    config: &Config,
    clock: Clock,
    stop: &Stop,
    deadline_events: Receiver<cron::Event>,
) -> Result<Pass, ServerError> {
    let mut deadline_service = open_service(config)?;
    let mut service = open_service(config)?;
    let outbox = open_outbox(config)?;
    let sender_store = open_store(config)?;
    let inbox = match &config.inbound {
        Inbound::Maildir(dir) => {
            Some(Maildir::create(dir).map_err(|error| ServerError::Inbox {
                path: dir.clone(),
                error,
            })?)
        }
        Inbound::Imap(_) | Inbound::Stdin => None,
    };
    tracing::info!(inbound = %describe(&config.inbound), "pbem is serving");
    std::thread::scope(|scope| {
        let _stop_on_panic = stop.stop_on_panic();
        scope.spawn(move || {
            let _stop_on_panic = stop.stop_on_panic();
            run_deadlines(&mut deadline_service, clock, stop, &deadline_events)
        });
        let sender = scope.spawn(move || {
            let _stop_on_panic = stop.stop_on_panic();
            let mut outbox = outbox;
            transport::run_sender(&sender_store, &mut outbox, &|| clock.now(), stop)
        });
        let mut total = Pass::default();
        let mut handled = |result: Handled| {
            if matches!(result, Handled::Processed { replies } if replies > 0) {
                stop.wake();
            }
        };
        let result = match (&config.inbound, &inbox) {
            (Inbound::Imap(settings), _) => {
                imap::run(
                    settings,
                    &mut service,
                    &|| clock.now(),
                    stop,
                    &mut |result| {
                        total.count(result);
                        handled(result);
                    },
                );
                Ok(())
            }
            (_, Some(inbox)) => loop {
                if stop.is_stopping() {
                    break Ok(());
                }
                match handle_waiting(&mut service, inbox, clock, stop.flag(), &mut handled) {
                    Ok(pass) => {
                        if pass.mails > 0 {
                            tracing::info!(
                                mails = pass.mails,
                                replies = pass.replies,
                                "inbox pass"
                            );
                        }
                        total.add(pass);
                    }
                    // Another process kept the database past the busy
                    // timeout (a long backup, say): the batch was not
                    // committed, and its mails wait in the inbox for the
                    // next pass, as the sweep and the sender retry theirs.
                    Err(error) if error.is_busy() => tracing::warn!(
                        "the database stayed busy; the inbox is read again at the next poll: {error}"
                    ),
                    Err(error) => break Err(error),
                }
                stop.sleep(config.poll_interval);
            },
            // MDA mode: `pbem process` brings the mail; only send here.
            _ => {
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
/// next event.
fn run_deadlines(service: &mut Service, clock: Clock, stop: &Stop, events: &Receiver<cron::Event>) {
    while !stop.is_stopping() {
        let event = match events.recv_timeout(Duration::from_secs(1)) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout) => continue,
            Err(RecvTimeoutError::Disconnected) => return,
        };
        if event == cron::Event::Sweep {
            match service.prune(clock.now()) {
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
            cron::Event::Sweep => service.sweep(clock.now()).map(|report| {
                tracing::info!(
                    reminders = report.reminders,
                    losses_on_time = report.losses_on_time,
                    draws_by_timeout = report.draws_by_timeout,
                    "deadline sweep"
                );
                report.reminders + report.losses_on_time + report.draws_by_timeout
            }),
            cron::Event::Digest => service.digest(clock.now()).inspect(|digests| {
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
