//! Mail in and out.
//!
//! * [`inbound`]: a received mail as the service needs it (mail-parser does
//!   MIME, charsets, quoted-printable, base64 and HTML-only mail);
//! * [`token`]: the reply tokens that let a reply to a board mail speak for
//!   its player without a password;
//! * [`outgoing`]: building the mails the server sends (lettre);
//! * [`maildir`]: the inbound Maildir;
//! * [`transport`]: outbound transports behind the small [`transport::MailSender`]
//!   trait (a directory of `.eml` files, `sendmail`).

pub mod inbound;
pub mod maildir;
pub mod outgoing;
pub mod token;
pub mod transport;

use std::fmt;

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
