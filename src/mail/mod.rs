//! Mail in and out.
//!
//! * [`address`]: what a mail address is for pbem (one rule, used in and out);
//! * [`bounce`]: bounce addresses that name each sent mail (VERP), and
//!   reading delivery status notifications and other bounces;
//! * [`inbound`]: a received mail as the service needs it (mail-parser does
//!   MIME, charsets, quoted-printable, base64 and HTML-only mail);
//! * [`token`]: the reply tokens that let a reply to a board mail speak for
//!   its player without a password;
//! * [`outgoing`]: building the mails the server sends (lettre);
//! * [`pictures`]: the board pictures of a queued mail, drawn when it is
//!   sent;
//! * [`source`]: the [`source::InboundSource`] trait, what an inbound
//!   source (the Maildir, IMAP, a mail on standard input) must promise so
//!   that the server's one inbound loop handles each mail exactly once;
//! * [`maildir`]: the inbound Maildir, and its source;
//! * [`private`]: the folders and files of mail, kept from other users;
//! * [`transport`]: the outbound transports behind the small
//!   [`transport::MailSender`] trait, one file each: a directory of `.eml`
//!   files, `sendmail`, and SMTP submission (lettre) with TLS, STARTTLS,
//!   authentication and connection reuse;
//! * [`outbox`]: what the transports share: the outbox drained through one
//!   of them, and the sender loop;
//! * [`imap`]: the IMAP source (IDLE or polling, by UID);
//! * [`stop`]: the stop signal and wake-ups shared by the server's threads.

pub mod address;
pub mod bounce;
pub mod imap;
pub mod inbound;
pub mod maildir;
pub mod outbox;
pub mod outgoing;
pub mod pictures;
pub mod private;
pub mod reply;
pub mod source;
pub mod stop;
pub mod token;
pub mod transport;

use std::fmt;
use std::net::IpAddr;
use std::path::PathBuf;

/// The server's own mail address, split so reply-token addresses
/// (`local+token@domain`) can be built and recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerAddress {
    pub local: String,
    pub domain: String,
}

impl ServerAddress {
    /// Parses `local@domain`.
    pub fn parse(address: &str) -> Option<ServerAddress> {
        let (local, domain) = address.trim().rsplit_once('@')?;
        if local.is_empty() || domain.is_empty() || local.contains('+') {
            return None;
        }
        Some(ServerAddress {
            local: local.to_string(),
            domain: domain.to_string(),
        })
    }

    /// The address with a reply token: `local+token@domain`.
    pub fn with_token(&self, token: &str) -> String {
        format!("{}+{token}@{}", self.local, self.domain)
    }

    /// Whether `address` is the server's own (with or without a token).
    pub fn is_own(&self, address: &str) -> bool {
        self.token_of(address).is_some() || address.eq_ignore_ascii_case(&self.to_string())
    }

    /// The token in `address`, if it is `local+token@domain`.
    pub fn token_of<'a>(&self, address: &'a str) -> Option<&'a str> {
        let (local, domain) = address.rsplit_once('@')?;
        let (base, token) = local.split_once('+')?;
        (base.eq_ignore_ascii_case(&self.local) && domain.eq_ignore_ascii_case(&self.domain))
            .then_some(token)
    }
}

impl fmt::Display for ServerAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.local, self.domain)
    }
}

/// How a connection to a mail server is protected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// TLS from the first byte (IMAPS 993, SMTPS 465).
    Tls,
    /// Plain first, then upgraded with STARTTLS before logging in.
    StartTls,
    /// No encryption at all: only allowed to a loopback address.
    Plain,
}

impl Security {
    /// The configuration word: `tls`, `starttls` or `plain`.
    pub fn parse(word: &str) -> Option<Security> {
        match word {
            "tls" => Some(Security::Tls),
            "starttls" => Some(Security::StartTls),
            "plain" => Some(Security::Plain),
            _ => None,
        }
    }
}

/// A password: never shown in logs or debug output.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn new(text: impl Into<String>) -> Secret {
        Secret(text.into())
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Where and how to reach a mail server (IMAP or SMTP).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Endpoint {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// Extra trusted certificate authorities (PEM), besides the system's.
    pub ca_file: Option<PathBuf>,
    /// How long a connection attempt or a read may take.
    pub timeout: std::time::Duration,
}

impl fmt::Display for Endpoint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

/// Whether `host` names this machine: `localhost` or a loopback address.
pub fn is_loopback_host(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}
