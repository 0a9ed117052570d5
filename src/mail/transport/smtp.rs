//! SMTP submission with lettre: TLS from the first byte, STARTTLS, or
//! plain (loopback only, checked by the configuration); optional login;
//! one connection kept open and reused between mails when
//! `reuse_connection` is on.
//!
//! [`SmtpSender`] tells the two kinds of failure apart, because the outbox
//! sender treats them differently: a server that cannot be reached, refuses
//! the login or fails for the time being ([`SendError::Smtp`]) keeps every
//! mail queued for a retry; a server that answered a working connection
//! with a permanent refusal of this one mail ([`SendError::Rejected`], e.g.
//! `550 no such user`) gives that mail up, as a bounce would. A temporary
//! refusal of this one mail (a 4xx answer other than `421`, e.g. `452 too
//! many recipients`, [`SendError::Deferred`]) holds that mail back for a
//! while, and the others go on.

use std::fs;
use std::time::{Duration, Instant};

use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::extension::ClientId;

use super::{MailSender, SendError, envelope};
use crate::mail::{Endpoint, Secret, Security, ServerAddress};

/// How to reach the SMTP server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmtpConfig {
    pub endpoint: Endpoint,
    /// User and password to log in with; `None` to send without a login.
    pub login: Option<(String, Secret)>,
    /// Keep the connection open between mails.
    pub reuse_connection: bool,
}

/// A connection kept open is closed after this long without use.
const IDLE_LIMIT: Duration = Duration::from_secs(60);

/// Sends the outbox over SMTP.
pub struct SmtpSender {
    config: SmtpConfig,
    tls: Option<TlsParameters>,
    hello: ClientId,
    connection: Option<(SmtpConnection, Instant)>,
}

impl SmtpSender {
    /// Prepares the sender (reading the CA file); connects on first use.
    pub fn new(config: &SmtpConfig, server: &ServerAddress) -> Result<SmtpSender, SendError> {
        let endpoint = &config.endpoint;
        let tls = match endpoint.security {
            Security::Plain => None,
            Security::Tls | Security::StartTls => {
                let mut builder = TlsParameters::builder(endpoint.host.clone());
                if let Some(ca_file) = &endpoint.ca_file {
                    let pem = fs::read(ca_file).map_err(|e| {
                        SendError::Smtp(format!(
                            "cannot read outbound.ca_file {}: {e}",
                            ca_file.display()
                        ))
                    })?;
                    let certificate = Certificate::from_pem(&pem).map_err(|e| {
                        SendError::Smtp(format!(
                            "outbound.ca_file {} holds no PEM certificate: {e}",
                            ca_file.display()
                        ))
                    })?;
                    builder = builder.add_root_certificate(certificate);
                }
                Some(builder.build_rustls().map_err(|e| {
                    SendError::Smtp(format!("cannot set up TLS for {endpoint}: {e}"))
                })?)
            }
        };
        Ok(SmtpSender {
            config: config.clone(),
            tls,
            hello: ClientId::Domain(server.domain.clone()),
            connection: None,
        })
    }

    /// A new connection: greeting, EHLO, TLS as configured, login.
    fn connect(&self) -> Result<SmtpConnection, SendError> {
        let endpoint = &self.config.endpoint;
        let failed = |what: &str, e: lettre::transport::smtp::Error| {
            SendError::Smtp(format!("{what} {endpoint}: {e}"))
        };
        let wrapper = match endpoint.security {
            Security::Tls => self.tls.as_ref(),
            Security::StartTls | Security::Plain => None,
        };
        let mut connection = SmtpConnection::connect(
            (endpoint.host.as_str(), endpoint.port),
            Some(endpoint.timeout),
            &self.hello,
            wrapper,
            None,
        )
        .map_err(|e| failed("cannot connect to the SMTP server", e))?;
        if endpoint.security == Security::StartTls {
            let Some(tls) = &self.tls else {
                return Err(SendError::Smtp(format!("no TLS set up for {endpoint}")));
            };
            if !connection.can_starttls() {
                connection.abort();
                return Err(SendError::Smtp(format!(
                    "the SMTP server {endpoint} does not offer STARTTLS; use outbound.security = \"tls\" if it speaks TLS from the start"
                )));
            }
            connection
                .starttls(tls, &self.hello)
                .map_err(|e| failed("STARTTLS failed with", e))?;
        }
        if let Some((user, password)) = &self.config.login {
            let credentials = Credentials::new(user.clone(), password.expose().to_string());
            connection
                .auth(&[Mechanism::Plain, Mechanism::Login], &credentials)
                .map_err(|e| {
                    SendError::Smtp(format!(
                        "the SMTP server {endpoint} refused the login as {user}: {e}; check outbound.user and the password"
                    ))
                })?;
        }
        Ok(connection)
    }

    /// The open connection if it still works, else a new one.
    fn connection(&mut self) -> Result<SmtpConnection, SendError> {
        if let Some((mut connection, since)) = self.connection.take() {
            if since.elapsed() < IDLE_LIMIT && connection.test_connected() {
                return Ok(connection);
            }
            connection.abort();
        }
        self.connect()
    }
}

impl MailSender for SmtpSender {
    fn send(
        &mut self,
        _outbox_id: i64,
        envelope_sender: &str,
        recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError> {
        let envelope = envelope(envelope_sender, recipients)?;
        let mut connection = self.connection()?;
        match connection.send(&envelope, message) {
            Ok(_) => {
                if self.config.reuse_connection {
                    self.connection = Some((connection, Instant::now()));
                } else {
                    // A polite goodbye; the mail is accepted either way.
                    connection.quit().ok();
                }
                Ok(())
            }
            Err(error) => {
                connection.abort();
                if error.is_permanent() {
                    Err(SendError::Rejected(error.to_string()))
                } else if is_about_this_mail(&error) {
                    Err(SendError::Deferred(error.to_string()))
                } else {
                    Err(SendError::Smtp(format!(
                        "the SMTP server {} did not take the mail: {error}",
                        self.config.endpoint
                    )))
                }
            }
        }
    }
}

/// Whether an SMTP failure is a temporary refusal of this one mail (a 4xx
/// answer to it), not of the server as a whole (`421`: the server closes
/// the connection) nor a lost connection.
fn is_about_this_mail(error: &lettre::transport::smtp::Error) -> bool {
    error.is_transient() && error.status().is_some_and(|code| code.to_string() != "421")
}
