//! SMTP submission with lettre: TLS from the first byte, STARTTLS, or
//! plain (loopback only, checked by the configuration); optional login;
//! one connection kept open and reused between mails when
//! `reuse_connection` is on.
//!
//! [`SmtpSender`] tells the two kinds of failure apart, because the outbox
//! sender treats them differently: a server that cannot be reached, refuses
//! the login or fails for the time being ([`SendError::Smtp`]) keeps every
//! mail queued for a retry; a server that answered a working connection
//! with a permanent refusal of this one mail at MAIL FROM or DATA
//! ([`SendError::Rejected`], e.g. `554 content refused`) holds that mail
//! back for a long while (up to a day between tries), and a temporary one
//! (a 4xx answer other than `421`, [`SendError::Deferred`]) for a short
//! while; the others go on.
//!
//! A recipient refused at RCPT TO is told apart from the rest: the dialogue
//! is driven step by step (`converse`), and such a refusal is
//! [`SendError::Recipients`], which the outbox treats as a bounce of that
//! address (e.g. `550 5.1.1 User unknown`).

use std::fs;
use std::sync::{Arc, Mutex, PoisonError, Weak};
use std::time::{Duration, Instant};

use lettre::address::Envelope;
use lettre::transport::smtp::authentication::{Credentials, Mechanism};
use lettre::transport::smtp::client::{Certificate, SmtpConnection, TlsParameters};
use lettre::transport::smtp::commands::{Data, Mail, Rcpt, Rset};
use lettre::transport::smtp::extension::{ClientId, Extension, MailBodyParameter, MailParameter};

use super::{MailSender, Refusal, SendError, envelope};
use crate::mail::bounce::Status;
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

/// The connection kept open between mails, shared with the thread that
/// closes it once it has been idle for the idle limit.
#[derive(Default)]
struct Kept {
    connection: Option<(SmtpConnection, Instant)>,
    /// Whether a closing thread watches it.
    watched: bool,
}

/// Sends the outbox over SMTP.
pub struct SmtpSender {
    config: SmtpConfig,
    tls: Option<TlsParameters>,
    hello: ClientId,
    kept: Arc<Mutex<Kept>>,
    idle_limit: Duration,
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
            kept: Arc::default(),
            idle_limit: IDLE_LIMIT,
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
        let kept = lock(&self.kept).connection.take();
        if let Some((mut connection, since)) = kept {
            if since.elapsed() < self.idle_limit && connection.test_connected() {
                return Ok(connection);
            }
            connection.abort();
        }
        self.connect()
    }

    /// Keeps the connection for the next mail, and has it closed (QUIT)
    /// when no mail came for the idle limit.
    fn keep(&self, connection: SmtpConnection) {
        let mut kept = lock(&self.kept);
        kept.connection = Some((connection, Instant::now()));
        if !std::mem::replace(&mut kept.watched, true) {
            let (shared, limit) = (Arc::downgrade(&self.kept), self.idle_limit);
            std::thread::spawn(move || close_when_idle(&shared, limit));
        }
    }
}

fn lock(kept: &Mutex<Kept>) -> std::sync::MutexGuard<'_, Kept> {
    kept.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Closes the kept connection once it has not been used for `limit`; ends
/// then, or when no connection is kept (the sender took it, and watches it
/// again when it puts it back), or when the sender is gone.
fn close_when_idle(kept: &Weak<Mutex<Kept>>, limit: Duration) {
    let mut wait = limit;
    loop {
        std::thread::sleep(wait);
        let Some(kept) = kept.upgrade() else {
            return;
        };
        let mut guard = lock(&kept);
        match &guard.connection {
            Some((_, since)) if since.elapsed() < limit => wait = limit - since.elapsed(),
            _ => {
                let idle = guard.connection.take();
                guard.watched = false;
                drop(guard);
                if let Some((mut connection, _)) = idle {
                    connection.quit().ok();
                }
                return;
            }
        }
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
        match converse(&mut connection, &envelope, message) {
            Ok(refused) => {
                if self.config.reuse_connection {
                    self.keep(connection);
                } else {
                    // A polite goodbye; the mail is accepted either way.
                    connection.quit().ok();
                }
                if refused.is_empty() {
                    Ok(())
                } else {
                    Err(SendError::Recipients(refused))
                }
            }
            Err(error) => {
                connection.abort();
                Err(self.failure(&error))
            }
        }
    }
}

impl SmtpSender {
    /// What a refusal other than a recipient's at RCPT TO (of the mail at
    /// MAIL FROM, of its content at DATA, a lost connection) means.
    fn failure(&self, error: &lettre::transport::smtp::Error) -> SendError {
        if error.is_permanent() {
            SendError::Rejected(error.to_string())
        } else if is_about_this_mail(error) {
            SendError::Deferred(error.to_string())
        } else {
            SendError::Smtp(format!(
                "the SMTP server {} did not take the mail: {error}",
                self.config.endpoint
            ))
        }
    }
}

/// One mail's SMTP dialogue, step by step (as lettre's `send` does it, but
/// telling the steps apart): MAIL FROM, RCPT TO for each recipient, DATA.
/// A recipient refused at RCPT TO (a 4xx or 5xx answer other than `421`)
/// is a refusal of that address ([`Refusal`]); then no DATA is sent (RSET
/// ends the dialogue), so the outbox may send the mail again to the
/// others alone. Any other refusal is the error.
fn converse(
    connection: &mut SmtpConnection,
    envelope: &Envelope,
    message: &[u8],
) -> Result<Vec<Refusal>, lettre::transport::smtp::Error> {
    let mut options = Vec::new();
    let non_ascii = envelope
        .to()
        .iter()
        .chain(envelope.from())
        .any(|address: &lettre::Address| !address.to_string().is_ascii());
    if non_ascii
        && connection
            .server_info()
            .supports_feature(Extension::SmtpUtfEight)
    {
        options.push(MailParameter::SmtpUtfEight);
    }
    if !message.is_ascii()
        && connection
            .server_info()
            .supports_feature(Extension::EightBitMime)
    {
        options.push(MailParameter::Body(MailBodyParameter::EightBitMime));
    }
    connection.command(Mail::new(envelope.from().cloned(), options))?;
    let mut refused = Vec::new();
    for recipient in envelope.to() {
        if let Err(error) = connection.command(Rcpt::new(recipient.clone(), Vec::new())) {
            match refusal_of(recipient.as_ref(), &error) {
                Some(refusal) => refused.push(refusal),
                None => return Err(error),
            }
        }
    }
    if !refused.is_empty() {
        connection.command(Rset)?;
        return Ok(refused);
    }
    connection.command(Data)?;
    connection.message(message)?;
    Ok(refused)
}

/// The refusal of `recipient` an answer to its RCPT TO is, if it is one:
/// a 4xx or 5xx answer, but not `421` (the server closes the connection).
/// Only the status is kept, never the answer's words.
fn refusal_of(recipient: &str, error: &lettre::transport::smtp::Error) -> Option<Refusal> {
    let code: u16 = error.status()?.to_string().parse().ok()?;
    if code == 421 {
        return None;
    }
    let text = std::error::Error::source(error)
        .map(ToString::to_string)
        .unwrap_or_default();
    Some(Refusal {
        recipient: recipient.to_string(),
        status: Status::of_reply(code, &text)?,
    })
}

/// Whether an SMTP failure is a temporary refusal of this one mail (a 4xx
/// answer to it), not of the server as a whole (`421`: the server closes
/// the connection) nor a lost connection.
fn is_about_this_mail(error: &lettre::transport::smtp::Error) -> bool {
    error.is_transient() && error.status().is_some_and(|code| code.to_string() != "421")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    /// An SMTP server that takes every mail and records the commands it
    /// got, each connection starting with `connect`.
    fn fake_server() -> (u16, Arc<Mutex<Vec<String>>>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("address").port();
        let heard = Arc::new(Mutex::new(Vec::new()));
        let record = Arc::clone(&heard);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { return };
                let mut writer = stream.try_clone().expect("a second handle");
                let mut reader = BufReader::new(stream);
                record.lock().expect("record").push("connect".to_string());
                writer.write_all(b"220 fake ESMTP\r\n").ok();
                let (mut line, mut in_data) = (String::new(), false);
                loop {
                    line.clear();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        break;
                    }
                    if in_data {
                        if line == ".\r\n" {
                            in_data = false;
                            writer.write_all(b"250 queued\r\n").ok();
                        }
                        continue;
                    }
                    let verb = line.split_whitespace().next().unwrap_or("");
                    let verb = verb.to_ascii_uppercase();
                    record.lock().expect("record").push(verb.clone());
                    let answer: &[u8] = match verb.as_str() {
                        "DATA" => {
                            in_data = true;
                            b"354 go on\r\n"
                        }
                        "QUIT" => b"221 bye\r\n",
                        _ => b"250 ok\r\n",
                    };
                    writer.write_all(answer).ok();
                    if verb == "QUIT" {
                        break;
                    }
                }
            }
        });
        (port, heard)
    }

    #[test]
    fn a_connection_kept_open_is_closed_when_idle() {
        let (port, heard) = fake_server();
        let config = SmtpConfig {
            endpoint: Endpoint {
                host: "127.0.0.1".into(),
                port,
                security: Security::Plain,
                ca_file: None,
                timeout: Duration::from_secs(5),
            },
            login: None,
            reuse_connection: true,
        };
        let server = ServerAddress::parse("pbem@localhost").expect("address");
        let mut sender = SmtpSender::new(&config, &server).expect("sender");
        sender.idle_limit = Duration::from_millis(300);
        let to = ["alice@example.org".to_string()];
        let mail = b"Subject: x\r\n\r\nhi\r\n";
        let count = |word: &str| {
            let heard = heard.lock().expect("heard");
            heard.iter().filter(|w| *w == word).count()
        };
        sender.send(1, "pbem@localhost", &to, mail).expect("sent");
        sender
            .send(2, "pbem@localhost", &to, mail)
            .expect("sent on the same connection");
        assert_eq!((count("connect"), count("QUIT")), (1, 0));

        let deadline = Instant::now() + Duration::from_secs(10);
        while count("QUIT") == 0 {
            assert!(
                Instant::now() < deadline,
                "the idle connection was never closed: {:?}",
                heard.lock().expect("heard")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(lock(&sender.kept).connection.is_none());
        sender
            .send(3, "pbem@localhost", &to, mail)
            .expect("sent on a new connection");
        assert_eq!(count("connect"), 2);
    }
}
