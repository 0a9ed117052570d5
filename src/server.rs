//! The running server: wires the configured inbound and outbound transports
//! to the service. Mail in, service, outbox, mail out; a mail leaves the
//! inbox only after its result is committed, and an outbox mail is marked
//! sent only after the transport accepted it.

use std::fs;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use time::OffsetDateTime;

use crate::config::{Config, Inbound, Outbound};
use crate::mail::maildir::Maildir;
use crate::mail::transport::{self, FileSender, MailSender, SendError, SendmailSender};
use crate::service::{Handled, Service, ServiceError, SweepReport};
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
    #[error("cannot open the database {path}: {error}")]
    Database { path: PathBuf, error: StoreError },
    #[error("inbox {path}: {error}")]
    Inbox {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error(transparent)]
    Service(#[from] ServiceError),
    #[error("sending mail: {0}")]
    Send(#[from] SendError),
    #[error("cannot start the event loop: {0}")]
    Runtime(std::io::Error),
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

/// The server: service, inbox and outbound transport.
pub struct Server {
    service: Service,
    inbox: Maildir,
    sender: Box<dyn MailSender + Send>,
}

impl Server {
    /// Opens everything the configuration names, creating what is missing.
    pub fn open(config: &Config) -> Result<Server, ServerError> {
        fs::create_dir_all(&config.data_dir).map_err(|error| ServerError::DataDir {
            path: config.data_dir.clone(),
            error,
        })?;
        let store = Store::open(&config.database).map_err(|error| ServerError::Database {
            path: config.database.clone(),
            error,
        })?;
        let service = Service::new(store, config.service.clone())?;
        let Inbound::Maildir(dir) = &config.inbound;
        let inbox = Maildir::create(dir).map_err(|error| ServerError::Inbox {
            path: dir.clone(),
            error,
        })?;
        let sender: Box<dyn MailSender + Send> = match &config.outbound {
            Outbound::Directory(dir) => Box::new(FileSender::new(dir).map_err(SendError::from)?),
            Outbound::Sendmail(command) => Box::new(SendmailSender::new(
                command.as_deref(),
                &config.service.address,
            )?),
        };
        Ok(Server {
            service,
            inbox,
            sender,
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
    /// mail in hand) when `stop` is set; then sends the replies.
    pub fn process_waiting(
        &mut self,
        clock: Clock,
        stop: &AtomicBool,
    ) -> Result<Pass, ServerError> {
        let mut pass = Pass::default();
        let waiting = self.inbox.waiting().map_err(|error| ServerError::Inbox {
            path: self.inbox.root().to_path_buf(),
            error,
        })?;
        let total = waiting.len();
        for path in waiting {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            let raw = match fs::read(&path) {
                Ok(raw) => raw,
                // Taken away meanwhile (another process): nothing to do.
                Err(error) if error.kind() == std::io::ErrorKind::NotFound => continue,
                Err(error) => return Err(ServerError::Inbox { path, error }),
            };
            pass.count(self.service.handle(&raw, clock.now())?);
            self.inbox
                .mark_handled(&path)
                .map_err(|error| ServerError::Inbox {
                    path: path.clone(),
                    error,
                })?;
            if total >= 1000 && pass.mails % 1000 == 0 {
                tracing::info!("processed {} of {total} mails", pass.mails);
            }
        }
        pass.sent = self.drain(clock)?;
        Ok(pass)
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
        Ok(transport::drain(
            self.service.store(),
            self.sender.as_mut(),
            clock.now(),
        )?)
    }
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

/// Runs the server: with `once`, one pass over the inbox; otherwise it
/// watches the inbox until SIGINT or SIGTERM, finishing the mail in hand.
pub fn serve(config: &Config, once: bool, clock: Clock) -> Result<Pass, ServerError> {
    let mut server = Server::open(config)?;
    let stop = Arc::new(AtomicBool::new(false));
    if once {
        return server.process_waiting(clock, &stop);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    let interval = config.poll_interval;
    runtime.block_on(async move {
        let shutdown = Arc::new(tokio::sync::Notify::new());
        spawn_signal_watch(stop.clone(), shutdown.clone()).map_err(ServerError::Runtime)?;
        tracing::info!(inbox = %server.inbox().root().display(), "pbem is serving");
        let mut total = Pass::default();
        while !stop.load(Ordering::SeqCst) {
            let flag = stop.clone();
            let (returned, pass) = tokio::task::spawn_blocking(move || {
                let pass = server.process_waiting(clock, &flag);
                (server, pass)
            })
            .await
            .map_err(|e| ServerError::Runtime(std::io::Error::other(e)))?;
            server = returned;
            let pass = pass?;
            if pass.mails > 0 {
                tracing::info!(
                    mails = pass.mails,
                    replies = pass.replies,
                    sent = pass.sent,
                    "inbox pass"
                );
            }
            total.add(pass);
            tokio::select! {
                _ = tokio::time::sleep(interval) => {}
                _ = shutdown.notified() => {}
            }
        }
        tracing::info!("pbem stopped");
        Ok(total)
    })
}

/// Sets `stop` and wakes the loop on SIGINT or SIGTERM.
fn spawn_signal_watch(
    stop: Arc<AtomicBool>,
    shutdown: Arc<tokio::sync::Notify>,
) -> std::io::Result<()> {
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
            stop.store(true, Ordering::SeqCst);
            shutdown.notify_one();
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        tokio::signal::ctrl_c().await.ok();
        stop.store(true, Ordering::SeqCst);
        shutdown.notify_one();
    });
    Ok(())
}
