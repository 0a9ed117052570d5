//! IMAP inbound: the server reads its mail from a mailbox on an IMAP server
//! (the `imap` crate, with rustls for TLS), as an [`InboundSource`]
//! ([`ImapSource`]) that the server's inbound loop drives.
//!
//! The connection is TLS from the first byte, plain upgraded by STARTTLS,
//! or plain (loopback only, checked by the configuration). After login the
//! mailbox (`INBOX`) is selected and the mails in it are fetched in UID
//! order with `BODY.PEEK[]` (so nothing is marked before its result is
//! committed); once the loop has the batch's results committed, it
//! acknowledges the batch, and only then are its mails flagged `\Seen` and
//! moved to the processed folder (or deleted, by setting). With nothing
//! left, the source waits with IDLE where the server offers it, else sleeps
//! the poll interval. Any failure (connection lost, server restarted, a
//! command refused) is transient: the loop drops the connection and opens
//! it again after a backoff; mails stay in the mailbox until they are done.
//!
//! Nothing is handled twice: besides the service's own record of every
//! Message-ID it processed, the highest UID handled is kept with the
//! mailbox's UIDVALIDITY in the `settings` table (key
//! `imap:<user>@<host>:<port>/<mailbox>`), written when a batch is
//! acknowledged, and a mail found again at or below it (because a crash or
//! a lost connection came between the acknowledgement and the move) is only
//! moved, never fetched again. Nor is it copied twice: on a server without
//! MOVE, where the move is a COPY then an EXPUNGE, such a mail is copied
//! only if the processed folder does not hold its Message-ID yet, since the
//! COPY may have been carried out without its answer reaching pbem.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Duration;

use imap::extensions::idle::{SetReadTimeout, stop_on_any};
use mail_parser::MessageParser;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use super::source::{Fetched, InboundSource, SourceError};
use super::stop::Stop;
use super::{Endpoint, Secret, Security};
use crate::store::{self, Store, StoreError};

/// Where the mail is read and what becomes of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImapConfig {
    pub endpoint: Endpoint,
    pub user: String,
    pub password: Secret,
    /// The mailbox read (`INBOX`).
    pub mailbox: String,
    pub after: AfterProcessing,
    /// How often to look for mail when the server offers no IDLE (or
    /// `idle` is off).
    pub poll_interval: Duration,
    /// Wait with IDLE where the server offers it.
    pub idle: bool,
    /// How long the processed folder keeps a mail, by the date it came
    /// in (`inbound.keep_processed_days`); `None`: for ever.
    pub keep_processed: Option<Duration>,
}

/// What becomes of a mail once its result is committed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterProcessing {
    /// Flagged `\Seen` and moved to this folder (created if missing).
    Move(String),
    /// Flagged `\Seen \Deleted` and expunged.
    Delete,
}

/// An IDLE is ended and issued again after this long (RFC 2177 asks for
/// less than 29 minutes); the mailbox is looked at in between.
const IDLE_REFRESH: Duration = Duration::from_secs(10 * 60);

/// A failure of the IMAP side; the inbound loop reconnects after it.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("cannot connect to the IMAP server {endpoint}: {error}")]
    Connect { endpoint: String, error: io::Error },
    #[error("TLS with the IMAP server {endpoint}: {message}")]
    Tls { endpoint: String, message: String },
    #[error(
        "the IMAP server {endpoint} refused the login as {user}: {error}; check inbound.user and the password"
    )]
    Login {
        endpoint: String,
        user: String,
        error: Box<imap::Error>,
    },
    #[error("IMAP server {endpoint}, {doing}: {error}")]
    Command {
        endpoint: String,
        doing: String,
        error: Box<imap::Error>,
    },
    #[error("the IMAP server {endpoint} answered IDLE unexpectedly")]
    Idle { endpoint: String },
    #[error(
        "the IMAP server {endpoint} changed the UIDVALIDITY of \"{mailbox}\" while pbem read it"
    )]
    ValidityChanged { endpoint: String, mailbox: String },
    #[error("recording the IMAP position: {0}")]
    Store(#[from] StoreError),
}

/// The IMAP mailbox as an inbound source. It keeps its own database
/// connection for the position (the highest UID handled, with the
/// mailbox's UIDVALIDITY), read when it connects and written when a batch
/// is acknowledged, before the batch's mails are moved.
pub struct ImapSource<'a> {
    config: &'a ImapConfig,
    store: Store,
    /// The session, while connected.
    mailbox: Option<Mailbox<'a>>,
    /// The UIDs of the batch fetched and not acknowledged yet.
    in_hand: Vec<u32>,
}

impl<'a> ImapSource<'a> {
    /// Reads the mailbox `config` names; `store` is a connection to the
    /// database, for the position.
    pub fn new(config: &'a ImapConfig, store: Store) -> ImapSource<'a> {
        ImapSource {
            config,
            store,
            mailbox: None,
            in_hand: Vec::new(),
        }
    }

    fn connected(&mut self) -> Result<&mut Mailbox<'a>, ImapError> {
        self.mailbox.as_mut().ok_or_else(|| ImapError::Connect {
            endpoint: self.config.endpoint.to_string(),
            error: io::Error::new(io::ErrorKind::NotConnected, "not connected"),
        })
    }
}

impl InboundSource for ImapSource<'_> {
    /// Connects, logs in, creates the processed folder if missing, selects
    /// the mailbox and reads the stored position.
    fn open(&mut self, stop: &Stop) -> Result<(), SourceError> {
        self.in_hand.clear();
        self.mailbox = None;
        let mailbox = Mailbox::open(self.config, &self.store, stop)?;
        tracing::info!(
            server = %self.config.endpoint,
            mailbox = %self.config.mailbox,
            idle = mailbox.idle,
            "reading mail over IMAP"
        );
        self.mailbox = Some(mailbox);
        Ok(())
    }

    /// Finishes off the mails handled before (at or below the position: a
    /// crash or a lost connection came between the commit and their move),
    /// then fetches the next `max` mails, oldest UID first.
    fn fetch(&mut self, max: usize, limit: usize) -> Result<Vec<Fetched>, SourceError> {
        self.in_hand.clear();
        let mailbox = self.connected()?;
        let mut batch = Vec::new();
        let mut in_hand = Vec::new();
        for uid in mailbox.waiting()? {
            if uid <= mailbox.last_uid {
                mailbox.dispose(uid, true)?;
                continue;
            }
            if batch.len() >= max {
                break;
            }
            // Gone meanwhile (another client): nothing to do.
            if let Some((raw, size)) = mailbox.fetch(uid, limit)? {
                batch.push(Fetched { raw, size });
                in_hand.push(uid);
            }
        }
        self.in_hand = in_hand;
        Ok(batch)
    }

    /// Records the position, then moves (or deletes) the batch's mails.
    fn acknowledge(&mut self) -> Result<(), SourceError> {
        let in_hand = std::mem::take(&mut self.in_hand);
        let Some(&last) = in_hand.iter().max() else {
            return Ok(());
        };
        let mailbox = self.mailbox.as_mut().ok_or_else(|| ImapError::Connect {
            endpoint: self.config.endpoint.to_string(),
            error: io::Error::new(io::ErrorKind::NotConnected, "not connected"),
        })?;
        store::set_setting(
            self.store.conn(),
            &mailbox.key,
            &format!("{} {last}", mailbox.validity),
        )
        .map_err(ImapError::from)?;
        mailbox.last_uid = last;
        for uid in in_hand {
            mailbox.dispose(uid, false)?;
        }
        Ok(())
    }

    fn wait(&mut self, stop: &Stop) -> Result<(), SourceError> {
        Ok(self.connected()?.wait(stop)?)
    }

    fn close(&mut self) {
        self.in_hand.clear();
        if let Some(mailbox) = self.mailbox.take() {
            mailbox.logout();
        }
    }
}

/// A logged-in session with the mailbox selected.
struct Mailbox<'a> {
    config: &'a ImapConfig,
    session: imap::Session<imap::Connection>,
    /// A second handle on the socket, to interrupt a wait on stop.
    socket: TcpStream,
    /// The settings key of the position, and the position: UIDVALIDITY and
    /// the highest UID handled.
    key: String,
    validity: u32,
    last_uid: u32,
    idle: bool,
    can_move: bool,
    uidplus: bool,
}

impl<'a> Mailbox<'a> {
    fn open(config: &'a ImapConfig, store: &Store, stop: &Stop) -> Result<Mailbox<'a>, ImapError> {
        let endpoint = &config.endpoint;
        let (client, socket) = {
            // A connection attempt that hangs must not outlive a stop.
            let tcp = connect_tcp(endpoint)?;
            let _watch = stop.watch_socket(&tcp);
            let socket = tcp.try_clone().map_err(|error| ImapError::Connect {
                endpoint: endpoint.to_string(),
                error,
            })?;
            (open_client(endpoint, tcp)?, socket)
        };
        let mut session = client
            .login(&config.user, config.password.expose())
            .map_err(|(error, _)| ImapError::Login {
                endpoint: endpoint.to_string(),
                user: config.user.clone(),
                error: Box::new(error),
            })?;
        let command = |doing: &str| {
            let endpoint = endpoint.to_string();
            let doing = doing.to_string();
            move |error| ImapError::Command {
                endpoint,
                doing,
                error: Box::new(error),
            }
        };
        let capabilities = session
            .capabilities()
            .map_err(command("asking for its capabilities"))?;
        let idle = config.idle && capabilities.has_str("IDLE");
        let can_move = capabilities.has_str("MOVE");
        let uidplus = capabilities.has_str("UIDPLUS");
        drop(capabilities);
        if let AfterProcessing::Move(folder) = &config.after
            && session.status(folder, "(UIDVALIDITY)").is_err()
        {
            match session.create(folder) {
                Ok(()) => tracing::info!(%folder, "created the IMAP folder for processed mail"),
                // A CREATE refused because the folder exists (made meanwhile
                // by another client, or so Dovecot answers when a delivery
                // sets up the account at the same moment) leaves what pbem
                // needs: the folder is there.
                Err(_) if session.status(folder, "(UIDVALIDITY)").is_ok() => {}
                Err(error) => {
                    return Err(command(&format!(
                        "creating the folder \"{folder}\" for processed mail (inbound.processed_folder)"
                    ))(error));
                }
            }
        }
        if let (AfterProcessing::Move(folder), Some(keep)) = (&config.after, config.keep_processed)
            && let Err(error) = prune_processed(&mut session, folder, keep)
        {
            // The mail goes on; the next connection tries again.
            tracing::warn!(%folder, "pruning the processed folder failed: {error}");
        }
        let selected = session.select(&config.mailbox).map_err(command(&format!(
            "opening the mailbox \"{}\" (inbound.mailbox)",
            config.mailbox
        )))?;
        let validity = selected.uid_validity.unwrap_or(0);
        let key = format!(
            "imap:{}@{}:{}/{}",
            config.user, endpoint.host, endpoint.port, config.mailbox
        );
        let stored = store::setting(store.conn(), &key)?;
        let last_uid = match stored.as_deref().and_then(parse_position) {
            Some((stored_validity, uid)) if stored_validity == validity => uid,
            Some(_) => {
                tracing::warn!(
                    mailbox = %config.mailbox,
                    "the mailbox's UIDVALIDITY changed: its mails are looked at again (each Message-ID is still handled once only)"
                );
                0
            }
            None => 0,
        };
        Ok(Mailbox {
            config,
            session,
            socket,
            key,
            validity,
            last_uid,
            idle,
            can_move,
            uidplus,
        })
    }

    fn command_error(&self, doing: String) -> impl FnOnce(imap::Error) -> ImapError + use<> {
        let endpoint = self.config.endpoint.to_string();
        move |error| ImapError::Command {
            endpoint,
            doing,
            error: Box::new(error),
        }
    }

    /// The UIDs in the mailbox, in order.
    fn waiting(&mut self) -> Result<Vec<u32>, ImapError> {
        // NOOP first: some servers notice new mail only when synced.
        self.session
            .noop()
            .map_err(self.command_error("looking for new mail (NOOP)".into()))?;
        let mut uids: Vec<u32> = self
            .session
            .uid_search("ALL")
            .map_err(self.command_error("searching the mailbox".into()))?
            .into_iter()
            .collect();
        uids.sort_unstable();
        Ok(uids)
    }

    /// The raw mail with this UID and its size, without marking it seen.
    /// A mail larger than `limit` bytes is fetched as its header alone
    /// (enough to answer it), never whole.
    fn fetch(&mut self, uid: u32, limit: usize) -> Result<Option<(Vec<u8>, usize)>, ImapError> {
        let sizes = self
            .session
            .uid_fetch(uid.to_string(), "RFC822.SIZE")
            .map_err(self.command_error(format!("asking the size of mail UID {uid}")))?;
        let Some(size) = sizes
            .iter()
            .find(|fetch| fetch.uid == Some(uid))
            .map(|fetch| fetch.size.map_or(0, |s| s as usize))
        else {
            return Ok(None);
        };
        let (item, header_only) = if size > limit {
            ("BODY.PEEK[HEADER]", true)
        } else {
            ("BODY.PEEK[]", false)
        };
        let fetches = self
            .session
            .uid_fetch(uid.to_string(), item)
            .map_err(self.command_error(format!("fetching mail UID {uid}")))?;
        Ok(fetches
            .iter()
            .find(|fetch| fetch.uid == Some(uid))
            .and_then(|fetch| {
                if header_only {
                    fetch.header()
                } else {
                    fetch.body()
                }
            })
            .map(|raw| {
                let size = size.max(raw.len());
                (raw.to_vec(), size)
            }))
    }

    /// Flags a handled mail and moves it to the processed folder, or
    /// deletes it. `handled_before`: it was handled before this pass, and
    /// an earlier attempt to move it may have copied it already.
    fn dispose(&mut self, uid: u32, handled_before: bool) -> Result<(), ImapError> {
        let set = uid.to_string();
        match &self.config.after {
            AfterProcessing::Move(folder) => {
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen)")
                    .map_err(self.command_error(format!("flagging mail UID {uid}")))?;
                if self.can_move {
                    self.session.uid_mv(&set, folder).map_err(
                        self.command_error(format!("moving mail UID {uid} to \"{folder}\"")),
                    )?;
                } else {
                    if handled_before && self.already_copied(uid, folder)? {
                        tracing::info!(
                            uid,
                            %folder,
                            "a mail handled before is in the processed folder already (copied before a lost connection); it is only removed from the mailbox"
                        );
                    } else {
                        self.session.uid_copy(&set, folder).map_err(
                            self.command_error(format!("copying mail UID {uid} to \"{folder}\"")),
                        )?;
                    }
                    self.session
                        .uid_store(&set, "+FLAGS.SILENT (\\Deleted)")
                        .map_err(self.command_error(format!("deleting mail UID {uid}")))?;
                    self.expunge(uid)?;
                }
            }
            AfterProcessing::Delete => {
                self.session
                    .uid_store(&set, "+FLAGS.SILENT (\\Seen \\Deleted)")
                    .map_err(self.command_error(format!("deleting mail UID {uid}")))?;
                self.expunge(uid)?;
            }
        }
        Ok(())
    }

    /// Whether `folder` holds a mail with the Message-ID of mail `uid` of
    /// the mailbox. A connection lost after the server carried out a COPY
    /// but before the EXPUNGE leaves the mail in both, and pbem cannot tell
    /// whether its COPY was carried out. A mail whose Message-ID cannot be
    /// searched for (none, or not ASCII) is copied again: better twice
    /// than not at all.
    fn already_copied(&mut self, uid: u32, folder: &str) -> Result<bool, ImapError> {
        let fetches = self
            .session
            .uid_fetch(uid.to_string(), "BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)]")
            .map_err(self.command_error(format!("fetching the Message-ID of mail UID {uid}")))?;
        let message_id = fetches
            .iter()
            .find(|fetch| fetch.uid == Some(uid))
            .and_then(|fetch| fetch.header())
            .and_then(|header| MessageParser::default().parse_headers(header))
            .and_then(|header| header.message_id().map(|id| format!("<{id}>")));
        drop(fetches);
        let Some(query) = message_id.as_deref().and_then(quoted) else {
            return Ok(false);
        };
        // SEARCH looks in the selected mailbox only: look in the folder,
        // read-only, then select the mailbox again. HEADER matches a
        // substring, ignoring case; the angle brackets make it the whole
        // Message-ID.
        self.session.examine(folder).map_err(
            self.command_error(format!("opening \"{folder}\" to look for mail UID {uid}")),
        )?;
        let found = self
            .session
            .uid_search(format!("HEADER MESSAGE-ID {query}"))
            .map_err(self.command_error(format!("looking for mail UID {uid} in \"{folder}\"")))?;
        let mailbox = &self.config.mailbox;
        let selected = self
            .session
            .select(mailbox)
            .map_err(self.command_error(format!("opening the mailbox \"{mailbox}\" again")))?;
        // The UIDs in hand belong to the UIDVALIDITY read at login.
        if selected.uid_validity.unwrap_or(0) != self.validity {
            return Err(ImapError::ValidityChanged {
                endpoint: self.config.endpoint.to_string(),
                mailbox: mailbox.clone(),
            });
        }
        Ok(!found.is_empty())
    }

    fn expunge(&mut self, uid: u32) -> Result<(), ImapError> {
        let result = if self.uidplus {
            self.session.uid_expunge(uid.to_string()).map(|_| ())
        } else {
            self.session.expunge().map(|_| ())
        };
        result.map_err(self.command_error(format!("expunging mail UID {uid}")))
    }

    /// Waits for new mail: IDLE where offered, else the poll interval.
    fn wait(&mut self, stop: &Stop) -> Result<(), ImapError> {
        if !self.idle {
            stop.sleep(self.config.poll_interval);
            return Ok(());
        }
        let Some(_watch) = stop.watch_socket(&self.socket) else {
            return Ok(());
        };
        let session = &mut self.session;
        // The imap crate panics when a server answers IDLE with anything
        // but a continuation; that ends this connection, not the server.
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let mut handle = session.idle();
            handle.timeout(IDLE_REFRESH).keepalive(false);
            handle.wait_while(stop_on_any)
        }));
        match outcome {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(_)) if stop.is_stopping() => Ok(()),
            Ok(Err(error)) => Err(ImapError::Command {
                endpoint: self.config.endpoint.to_string(),
                doing: "waiting for mail (IDLE)".into(),
                error: Box::new(error),
            }),
            Err(_) => Err(ImapError::Idle {
                endpoint: self.config.endpoint.to_string(),
            }),
        }
    }

    fn logout(mut self) {
        // Leaving anyway: a failed goodbye changes nothing.
        self.session.logout().ok();
    }
}

/// `text` as an IMAP quoted string; `None` for text one cannot hold (line
/// breaks, and anything but ASCII without a CHARSET).
/// Deletes the mails of the processed `folder` that came in more than
/// `keep` ago (by their internal date, which a copy keeps: the date they
/// reached the mailbox), at each connection; returns how many. Leaves the
/// folder selected: the caller selects the mailbox next.
fn prune_processed<T: Read + Write>(
    session: &mut imap::Session<T>,
    folder: &str,
    keep: Duration,
) -> imap::Result<usize> {
    let Some(before) =
        time::OffsetDateTime::now_utc().checked_sub(keep.try_into().unwrap_or(time::Duration::MAX))
    else {
        return Ok(0);
    };
    let date = before
        .format(time::macros::format_description!(
            "[day padding:none]-[month repr:short]-[year]"
        ))
        .unwrap_or_default();
    session.select(folder)?;
    let old = session.uid_search(format!("BEFORE {date}"))?;
    if old.is_empty() {
        return Ok(0);
    }
    let mut uids: Vec<u32> = old.into_iter().collect();
    uids.sort_unstable();
    let set = uids
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    session.uid_store(&set, "+FLAGS.SILENT (\\Deleted)")?;
    // The processed folder is pbem's alone: every mail flagged deleted
    // there is one of these.
    session.expunge()?;
    tracing::info!(%folder, mails = uids.len(), "old mails pruned from the processed folder");
    Ok(uids.len())
}

fn quoted(text: &str) -> Option<String> {
    if !text.chars().all(|c| c.is_ascii() && !c.is_ascii_control()) {
        return None;
    }
    Some(format!(
        "\"{}\"",
        text.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

/// `"<uidvalidity> <last uid>"`.
fn parse_position(text: &str) -> Option<(u32, u32)> {
    let (validity, uid) = text.split_once(' ')?;
    Some((validity.parse().ok()?, uid.parse().ok()?))
}

fn connect_tcp(endpoint: &Endpoint) -> Result<TcpStream, ImapError> {
    let failed = |error: io::Error| ImapError::Connect {
        endpoint: endpoint.to_string(),
        error,
    };
    let addresses: Vec<_> = (endpoint.host.as_str(), endpoint.port)
        .to_socket_addrs()
        .map_err(failed)?
        .collect();
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host name has no address");
    for address in addresses {
        if endpoint.security == Security::Plain && !address.ip().is_loopback() {
            last = io::Error::new(
                io::ErrorKind::PermissionDenied,
                format!(
                    "{address} is not a loopback address, and security = \"plain\" is only allowed to this machine"
                ),
            );
            continue;
        }
        match TcpStream::connect_timeout(&address, endpoint.timeout) {
            Ok(tcp) => {
                tcp.set_read_timeout(Some(endpoint.timeout))
                    .and_then(|()| tcp.set_write_timeout(Some(endpoint.timeout)))
                    .map_err(failed)?;
                return Ok(tcp);
            }
            Err(error) => last = error,
        }
    }
    Err(failed(last))
}

/// The IMAP client over TCP, TLS, or TCP upgraded by STARTTLS, with the
/// greeting read.
fn open_client(
    endpoint: &Endpoint,
    mut tcp: TcpStream,
) -> Result<imap::Client<imap::Connection>, ImapError> {
    let io_failed = |error: io::Error| ImapError::Connect {
        endpoint: endpoint.to_string(),
        error,
    };
    let timeout = endpoint.timeout;
    let stream = match endpoint.security {
        Security::Plain => Stream::Plain(tcp, timeout),
        Security::Tls => Stream::Tls(Box::new(tls(endpoint, tcp)?), timeout),
        Security::StartTls => {
            let greeting = read_line(&mut tcp).map_err(io_failed)?;
            if !greeting.starts_with("* OK") {
                return Err(ImapError::Tls {
                    endpoint: endpoint.to_string(),
                    message: format!("unexpected greeting before STARTTLS: {greeting}"),
                });
            }
            tcp.write_all(b"pbem1 STARTTLS\r\n").map_err(io_failed)?;
            loop {
                let line = read_line(&mut tcp).map_err(io_failed)?;
                if let Some(status) = line.strip_prefix("pbem1 ") {
                    if status.starts_with("OK") {
                        break;
                    }
                    return Err(ImapError::Tls {
                        endpoint: endpoint.to_string(),
                        message: format!(
                            "the server refused STARTTLS ({status}); use inbound.security = \"tls\" if it speaks TLS from the start"
                        ),
                    });
                }
            }
            // After STARTTLS the server sends no second greeting.
            let stream = Stream::Tls(Box::new(tls(endpoint, tcp)?), timeout);
            return Ok(imap::Client::new(Box::new(stream)));
        }
    };
    let mut client = imap::Client::new(Box::new(stream) as imap::Connection);
    client.read_greeting().map_err(|error| ImapError::Command {
        endpoint: endpoint.to_string(),
        doing: "reading its greeting".into(),
        error: Box::new(error),
    })?;
    Ok(client)
}

/// One line (up to CRLF) read byte by byte, so nothing after it is
/// consumed before the TLS handshake.
fn read_line(tcp: &mut TcpStream) -> io::Result<String> {
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while line.len() < 8192 {
        if tcp.read(&mut byte)? == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            ));
        }
        if byte[0] == b'\n' {
            return Ok(String::from_utf8_lossy(&line).trim_end().to_string());
        }
        line.push(byte[0]);
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        "the server sent an overlong line",
    ))
}

/// A TLS session over `tcp`, handshake done, checked against the system's
/// certificate authorities and those in `ca_file`.
fn tls(
    endpoint: &Endpoint,
    mut tcp: TcpStream,
) -> Result<StreamOwned<ClientConnection, TcpStream>, ImapError> {
    let failed = |message: String| ImapError::Tls {
        endpoint: endpoint.to_string(),
        message,
    };
    let mut roots = RootCertStore::empty();
    roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
    if let Some(ca_file) = &endpoint.ca_file {
        let certificates = CertificateDer::pem_file_iter(ca_file)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| {
                failed(format!(
                    "cannot read inbound.ca_file {}: {e}",
                    ca_file.display()
                ))
            })?;
        for certificate in certificates {
            roots.add(certificate).map_err(|e| {
                failed(format!(
                    "inbound.ca_file {} holds a certificate rustls cannot use: {e}",
                    ca_file.display()
                ))
            })?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| failed(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(endpoint.host.clone())
        .map_err(|e| failed(format!("\"{}\" is not a server name: {e}", endpoint.host)))?;
    let mut connection =
        ClientConnection::new(Arc::new(config), name).map_err(|e| failed(e.to_string()))?;
    while connection.is_handshaking() {
        connection
            .complete_io(&mut tcp)
            .map_err(|e| failed(format!("handshake failed: {e}")))?;
    }
    Ok(StreamOwned::new(connection, tcp))
}

/// The byte stream under the IMAP client.
enum Stream {
    Plain(TcpStream, Duration),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>, Duration),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp, _) => tcp.read(buf),
            Stream::Tls(tls, _) => tls.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp, _) => tcp.write(buf),
            Stream::Tls(tls, _) => tls.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(tcp, _) => tcp.flush(),
            Stream::Tls(tls, _) => tls.flush(),
        }
    }
}

impl SetReadTimeout for Stream {
    /// IDLE sets its own timeout and clears it after; cleared means the
    /// configured I/O timeout again, never "wait forever".
    fn set_read_timeout(&mut self, timeout: Option<Duration>) -> imap::Result<()> {
        let (tcp, default) = match self {
            Stream::Plain(tcp, default) => (&*tcp, *default),
            Stream::Tls(tls, default) => (&tls.sock, *default),
        };
        tcp.set_read_timeout(Some(timeout.unwrap_or(default)))
            .map_err(imap::Error::Io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_position_reads_back() {
        assert_eq!(parse_position("1700000000 42"), Some((1_700_000_000, 42)));
        assert_eq!(parse_position("garbage"), None);
        assert_eq!(parse_position("1 x"), None);
    }

    #[test]
    fn message_ids_are_quoted_for_search_or_refused() {
        assert_eq!(quoted("<a@b>").as_deref(), Some("\"<a@b>\""));
        assert_eq!(quoted(r#"<"x\y"@b>"#).as_deref(), Some(r#""<\"x\\y\"@b>""#));
        assert_eq!(quoted("<a\r\n@b>"), None);
        assert_eq!(quoted("<é@b>"), None);
    }
}
