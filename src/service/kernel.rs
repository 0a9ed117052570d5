//! What every module of the service shares: its settings
//! ([`ServiceConfig`]), the [`Service`] itself, what became of a mail
//! ([`Handled`]), and the two ways a command fails: refused ([`Refusal`],
//! nothing changes and the sender is told) or fatal ([`ServiceError`], the
//! mail is tried again). It uses no other module of the service, so that
//! every one of them may use it.

use std::path::PathBuf;

use crate::domain::BoardNumber;
use crate::mail::ServerAddress;
use crate::mail::outgoing;
use crate::mail::token::TokenKey;
use crate::render::templates::{TemplateError, Templates};
use crate::store::{Store, StoreError};

use super::charge;
use super::passwords::PasswordCheck;

/// Settings of the service.
#[derive(Clone, Debug)]
pub struct ServiceConfig {
    /// The server's own address; replies come from it.
    pub address: ServerAddress,
    /// Where bounces go (`server.bounce_address`); `None`: to `address`.
    /// The VERP addresses a bounce is read by are at it.
    pub bounce_address: Option<ServerAddress>,
    /// Mails larger than this get one short error.
    pub max_mail_bytes: usize,
    /// Mails from one sender per hour before further ones are ignored
    /// (unless they prove their player: see `handle_in`).
    pub mails_per_sender_per_hour: u32,
    /// Mails from one domain per (clock) hour, the same way.
    pub mails_per_domain_per_hour: u32,
    /// Mails from anybody per (clock) hour, the same way.
    pub mails_per_hour: u32,
    /// Mails that prove one player (by password or reply token) per clock
    /// hour: over the sender's ceiling, such a mail is charged to its
    /// player's own budget instead, which has this ceiling.
    pub mails_per_player_per_hour: u32,
    /// The ceilings on the mail pbem sends (see `charge`).
    pub sent: charge::SentCeilings,
    /// The shortest password `signup` and `password` accept.
    pub min_password_length: usize,
    /// The authserv-id of the operator's mail server, whose
    /// `Authentication-Results` headers pbem believes (see
    /// `mail::inbound`); `None` to believe none.
    pub trusted_authserv_id: Option<String>,
    /// Where operators keep edited templates; `None` for the built-in ones.
    pub templates_dir: Option<PathBuf>,
    /// The reply-token secret; `None` to use (and on first start create)
    /// the one stored in the database.
    pub token_secret: Option<String>,
    pub default_nag_days: u32,
    pub default_forfeit_days: u32,
    /// Vacation days each player may take per calendar year.
    pub vacation_days_per_year: u32,
}

impl Default for ServiceConfig {
    fn default() -> ServiceConfig {
        ServiceConfig {
            address: ServerAddress {
                local: "pbem".into(),
                domain: "localhost".into(),
            },
            bounce_address: None,
            max_mail_bytes: 256 * 1024,
            mails_per_sender_per_hour: 120,
            mails_per_domain_per_hour: 1_000,
            mails_per_hour: 10_000,
            mails_per_player_per_hour: 120,
            sent: charge::SentCeilings::default(),
            min_password_length: 8,
            trusted_authserv_id: None,
            templates_dir: None,
            token_secret: None,
            default_nag_days: 7,
            default_forfeit_days: 21,
            vacation_days_per_year: 30,
        }
    }
}

/// A failure that stops a mail from being processed at all; the mail stays
/// in the inbox and is tried again.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error("cannot build a reply: {0}")]
    Build(#[from] outgoing::BuildError),
    #[error("the stored game of board {board} no longer replays: {reason}")]
    CorruptGame { board: BoardNumber, reason: String },
    #[error("no randomness for the reply-token secret: {0}")]
    Random(String),
    #[error("{0}")]
    Builder(String),
    #[error(
        "the configured token secret is too weak: give 64 random hex digits (openssl rand -hex 32), or a text of at least 32 characters of which at least 10 differ"
    )]
    WeakSecret,
}

impl ServiceError {
    /// Whether the failure belongs to the one mail being handled (it would
    /// fail the same way on every try), rather than to the database or the
    /// configuration (which an operator fixes, and the mail then goes
    /// through).
    pub(super) fn is_about_one_mail(&self) -> bool {
        match self {
            ServiceError::Build(_) | ServiceError::CorruptGame { .. } => true,
            ServiceError::Store(StoreError::Corrupt(_)) => true,
            ServiceError::Store(StoreError::Sqlite(rusqlite::Error::SqliteFailure(error, _))) => {
                error.code == rusqlite::ErrorCode::ConstraintViolation
            }
            _ => false,
        }
    }
}

impl From<rusqlite::Error> for ServiceError {
    fn from(error: rusqlite::Error) -> ServiceError {
        ServiceError::Store(StoreError::Sqlite(error))
    }
}

/// What became of a mail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handled {
    /// Processed; this many replies were queued. `refused`: a command of
    /// it was refused, or the mail was not acted on (over a ceiling, too
    /// long, or it failed).
    Processed { replies: usize, refused: bool },
    /// Already processed before (same Message-ID): nothing done.
    Duplicate,
    /// Automatic mail, our own mail, or mail without a sender: recorded,
    /// never answered.
    Ignored,
}

/// A command refused: the sender gets this message, and nothing changes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    /// The board it is about, to show it again in the error mail.
    pub board: Option<BoardNumber>,
}

/// Why a command did not complete.
#[derive(Debug)]
pub(super) enum Failure {
    Refused(Refusal),
    Fatal(ServiceError),
}

impl<E: Into<ServiceError>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure::Fatal(error.into())
    }
}

pub(super) fn refuse(message: impl Into<String>, board: Option<BoardNumber>) -> Failure {
    Failure::Refused(Refusal {
        message: message.into(),
        board,
    })
}

/// The variant a command names, or the refusal that says where the list is.
pub(super) fn variant_named(text: &str) -> Result<crate::rules::Variant, Failure> {
    text.parse().map_err(|_| {
        refuse(
            format!("\"{text}\" is not a variant; send \"help variants\" for the list"),
            None,
        )
    })
}

/// The service.
pub struct Service {
    pub(super) store: Store,
    pub(super) config: ServiceConfig,
    pub(super) templates: Templates,
    pub(super) key: TokenKey,
    pub(super) passwords: PasswordCheck,
}
