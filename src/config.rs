//! Configuration: embedded defaults that need no file, optionally
//! overridden by a TOML file (`pbem --config FILE`). Unknown keys, keys of
//! another transport kind, missing values and bad values are errors at
//! start, naming the key and what to do.
//!
//! Defaults, all under the data directory (`./pbem-data`): the database
//! `pbem.sqlite3`, the inbound Maildir `inbox/`, the outbound directory
//! `outbox/` (one `.eml` per mail), and the server address `pbem@localhost`.
//! `deploy/pbem.example.toml` shows every key.
//!
//! Secrets (the token secret and the IMAP and SMTP passwords) may be given
//! in the file, or by name of an environment variable (`*_env`), or by a
//! file holding them (`*_file`); they are read once, at start.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::mail::imap::{AfterProcessing, ImapConfig};
use crate::mail::transport::smtp::SmtpConfig;
use crate::mail::{Endpoint, Secret, Security, ServerAddress, is_loopback_host};
use crate::schedule::cron::{self, Schedule};
use crate::service::ServiceConfig;

/// Where mail comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inbound {
    /// A Maildir that `serve` watches.
    Maildir(PathBuf),
    /// One mail at a time on standard input (`pbem process`, from
    /// `.forward` or procmail); `serve` then only sends the outbox.
    Stdin,
    /// A mailbox on an IMAP server.
    Imap(Box<ImapConfig>),
}

/// Where mail goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outbound {
    /// A directory of `.eml` files.
    Directory(PathBuf),
    /// The local `sendmail` (the given binary, or the system's).
    Sendmail(Option<String>),
    /// An SMTP submission server.
    Smtp(Box<SmtpConfig>),
}

/// Everything `pbem` needs to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub database: PathBuf,
    pub inbound: Inbound,
    pub outbound: Outbound,
    /// How often `serve` looks for new mail in a Maildir.
    pub poll_interval: Duration,
    pub service: ServiceConfig,
    /// Where bounces go (mails' envelope senders are VERP addresses at it:
    /// see `mail::bounce`); `None` for the server's own address.
    pub bounce_address: Option<ServerAddress>,
    /// When `serve` runs the deadline sweep and the daily digest.
    pub schedule: Schedule,
    /// The file the log is appended to (`[server] log_file`); `None` for
    /// standard error.
    pub log_file: Option<PathBuf>,
    /// The spectators' web site (`crate::web`).
    pub web: WebConfig,
    /// How long handled mails are kept in the Maildir's `cur/` (deleted
    /// by the sweep) or the IMAP processed folder (deleted at each
    /// connection) (`[inbound] keep_processed_days`); `None`: for ever (0).
    pub keep_processed: Option<Duration>,
}

fn days(days: u64) -> Duration {
    Duration::from_secs(days * 24 * 60 * 60)
}

/// Handled mails kept, by default, for a month of "did you get my mail?".
pub const KEEP_PROCESSED_DAYS: u64 = 30;

/// Where `serve` serves the web site.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebConfig {
    /// `None`: no web site (`listen = ""`).
    pub listen: Option<std::net::SocketAddr>,
}

impl Default for WebConfig {
    /// This machine only, port 8080: a reverse proxy in front publishes it.
    fn default() -> WebConfig {
        WebConfig {
            listen: Some(std::net::SocketAddr::from(([127, 0, 0, 1], 8080))),
        }
    }
}

/// A configuration that cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read the configuration file {path}: {error}")]
    Read {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("configuration file {path}: {message}")]
    Invalid { path: PathBuf, message: String },
}

impl Config {
    /// The embedded defaults for a data directory.
    pub fn defaults(data_dir: &Path) -> Config {
        Config {
            data_dir: data_dir.to_path_buf(),
            database: data_dir.join("pbem.sqlite3"),
            inbound: Inbound::Maildir(data_dir.join("inbox")),
            outbound: Outbound::Directory(data_dir.join("outbox")),
            poll_interval: Duration::from_secs(5),
            keep_processed: Some(days(KEEP_PROCESSED_DAYS)),
            service: ServiceConfig::default(),
            bounce_address: None,
            schedule: Schedule::default(),
            log_file: None,
            web: WebConfig::default(),
        }
    }

    /// The address bounces go to: `server.bounce_address`, else the
    /// server's own address.
    pub fn bounce_address(&self) -> &ServerAddress {
        self.bounce_address
            .as_ref()
            .unwrap_or(&self.service.address)
    }

    /// The defaults, overridden by the TOML file at `path`. Relative paths
    /// in the file are relative to the data directory.
    pub fn load(path: &Path, data_dir: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let env = |name: &str| std::env::var(name).ok();
        Config::parse(&text, data_dir, &env).map_err(|message| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        })
    }

    /// Where the database is, from the file at `path` (checked for unknown
    /// keys), reading none of its secrets: for the commands that only open
    /// the database (`backup`, `ratings`), which must work without the
    /// server's environment.
    pub fn database_in(path: &Path, data_dir: &Path) -> Result<PathBuf, ConfigError> {
        let file = FileConfig::read(path)?;
        Ok(file
            .database
            .map(|database| resolve(data_dir, database))
            .unwrap_or_else(|| Config::defaults(data_dir).database))
    }

    /// The `[server] log_file` of the file at `path`, if it can be read,
    /// reading none of its secrets: the log must be set up before the
    /// configuration is loaded, so that an error loading it is logged there.
    ///
    /// Read leniently: a file with a mistake elsewhere (a misspelt key, a
    /// bad value) still names its log file, so that the mistake is logged
    /// where the operator looks. Only a file that is not TOML at all names
    /// none.
    pub fn log_file_in(path: &Path, data_dir: &Path) -> Option<PathBuf> {
        let text = std::fs::read_to_string(path).ok()?;
        let table: toml::Table = toml::from_str(&text).ok()?;
        let log_file = table.get("server")?.get("log_file")?.as_str()?;
        Some(resolve(data_dir, PathBuf::from(log_file)))
    }

    /// The defaults, overridden by the TOML `text`; `env` reads the
    /// environment variables that secrets may be given in.
    fn parse(text: &str, data_dir: &Path, env: &Env) -> Result<Config, String> {
        let file: FileConfig = toml::from_str(text).map_err(|e| e.to_string())?;
        let mut config = Config::defaults(data_dir);
        let resolve = |p: PathBuf| resolve(data_dir, p);
        if let Some(server) = file.server {
            if let Some(address) = server.address {
                config.service.address = ServerAddress::parse(&address).ok_or_else(|| {
                    format!("server.address \"{address}\" is not an address like pbem@example.org (without '+')")
                })?;
            }
            if let Some(address) = server.bounce_address {
                config.bounce_address = Some(ServerAddress::parse(&address).ok_or_else(|| {
                    format!("server.bounce_address \"{address}\" is not an address like pbem-bounces@example.org (without '+')")
                })?);
                config.service.bounce_address = config.bounce_address.clone();
            }
            config.service.token_secret = secret(
                env,
                "server.token_secret",
                server.token_secret,
                server.token_secret_env,
                server.token_secret_file.map(resolve),
            )?
            .map(|secret| secret.expose().trim().to_string());
            config.log_file = server.log_file.map(resolve);
            if let Some(dir) = server.templates {
                config.service.templates_dir = Some(resolve(dir));
            }
            if let Some(id) = server.trusted_authserv_id {
                if id.trim().is_empty() || id.contains(char::is_whitespace) || id.contains(';') {
                    return Err(format!(
                        "server.trusted_authserv_id \"{id}\" is not an authserv-id: give the host name your mail server writes first in its Authentication-Results headers"
                    ));
                }
                config.service.trusted_authserv_id = Some(id);
            }
        }
        if let Some(database) = file.database {
            config.database = resolve(database);
        }
        if let Some(inbound) = file.inbound {
            if let Some(keep) = inbound.keep_processed_days {
                config.keep_processed = (keep > 0).then(|| days(keep.min(36_500)));
            }
            config.inbound = inbound_from(inbound, &resolve, env, &mut config.poll_interval)?;
            if let Inbound::Imap(imap) = &mut config.inbound {
                imap.keep_processed = config.keep_processed;
            }
        }
        if let Some(outbound) = file.outbound {
            config.outbound = outbound_from(outbound, &resolve, env)?;
        }
        if let Some(schedule) = file.schedule {
            if let Some(sweep) = schedule.sweep {
                cron::validate(&sweep).map_err(|e| format!("schedule.sweep: {e}"))?;
                config.schedule.sweep = sweep;
            }
            if let Some(digest) = schedule.digest {
                cron::validate(&digest).map_err(|e| format!("schedule.digest: {e}"))?;
                config.schedule.digest = Some(digest);
            }
        }
        if let Some(web) = file.web
            && let Some(listen) = web.listen
        {
            config.web.listen = match listen.trim() {
                "" => None,
                address => Some(address.parse().map_err(|_| {
                    format!("web.listen \"{listen}\" is not an IP address and port like \"127.0.0.1:8080\" or \"[::1]:8080\"; \"\" turns the web site off")
                })?),
            };
        }
        if let Some(limits) = file.limits {
            if let Some(bytes) = limits.max_mail_bytes {
                config.service.max_mail_bytes = bytes;
            }
            if let Some(count) = limits.mails_per_sender_per_hour {
                config.service.mails_per_sender_per_hour = count;
            }
            if let Some(count) = limits.mails_per_domain_per_hour {
                config.service.mails_per_domain_per_hour = count;
            }
            if let Some(count) = limits.mails_per_hour {
                config.service.mails_per_hour = count;
            }
            if let Some(count) = limits.mails_per_player_per_hour {
                config.service.mails_per_player_per_hour = count;
            }
            if let Some(sent) = limits.sent {
                sent.apply(&mut config.service.sent);
            }
            if let Some(length) = limits.min_password_length {
                if length < 1 {
                    return Err("limits.min_password_length must be at least 1".into());
                }
                config.service.min_password_length = length;
            }
        }
        Ok(config)
    }
}

/// A path of the file, relative to the data directory unless absolute.
fn resolve(data_dir: &Path, path: PathBuf) -> PathBuf {
    if path.is_absolute() {
        path
    } else {
        data_dir.join(path)
    }
}

/// Reads an environment variable.
type Env = dyn Fn(&str) -> Option<String>;

/// A secret given inline, by environment variable or by file: at most one
/// of the three; `None` when none is given.
fn secret(
    env: &Env,
    key: &str,
    inline: Option<String>,
    variable: Option<String>,
    file: Option<PathBuf>,
) -> Result<Option<Secret>, String> {
    match (inline, variable, file) {
        (None, None, None) => Ok(None),
        (Some(text), None, None) => Ok(Some(Secret::new(text))),
        (None, Some(name), None) => match env(&name) {
            Some(value) if !value.is_empty() => Ok(Some(Secret::new(value))),
            Some(_) => Err(format!(
                "{key}_env names the environment variable {name}, which is empty: set it (for systemd, Environment= or EnvironmentFile=) or use {key}_file"
            )),
            None => Err(format!(
                "{key}_env names the environment variable {name}, which is not set: set it (for systemd, Environment= or EnvironmentFile=) or use {key}_file"
            )),
        },
        (None, None, Some(file)) => match std::fs::read_to_string(&file) {
            Ok(text) if !text.trim().is_empty() => {
                Ok(Some(Secret::new(text.trim_end_matches(['\r', '\n']))))
            }
            Ok(_) => Err(format!("{key}_file {} is empty", file.display())),
            Err(e) => Err(format!(
                "{key}_file {}: {e}; check the path and that pbem's user may read it",
                file.display()
            )),
        },
        _ => Err(format!("give only one of {key}, {key}_env and {key}_file")),
    }
}

/// Fails naming the first key that is set but does not belong to `kind`.
fn only_for(section: &str, kind: &str, keys: &[(&str, bool)]) -> Result<(), String> {
    match keys.iter().find(|(_, set)| *set) {
        Some((key, _)) => Err(format!(
            "{section}.{key} does not apply to {section}.kind = \"{kind}\"; remove it or change the kind"
        )),
        None => Ok(()),
    }
}

fn security(section: &str, word: Option<&str>, host: &str) -> Result<Security, String> {
    let word = word.unwrap_or("tls");
    let security = Security::parse(word).ok_or_else(|| {
        format!(
            "{section}.security \"{word}\" is not known; use \"tls\", \"starttls\" or \"plain\""
        )
    })?;
    if security == Security::Plain && !is_loopback_host(host) {
        return Err(format!(
            "{section}.security = \"plain\" sends the password unencrypted, so it is only allowed to this machine (localhost, 127.0.0.1, ::1), not to {host}; use \"tls\" or \"starttls\""
        ));
    }
    Ok(security)
}

fn required<T>(section: &str, kind: &str, key: &str, value: Option<T>) -> Result<T, String> {
    value.ok_or_else(|| format!("{section}.{key} is missing; {section}.kind = \"{kind}\" needs it"))
}

/// The keys that say where a mail server is.
struct EndpointKeys {
    host: Option<String>,
    port: Option<u16>,
    security: Option<String>,
    ca_file: Option<PathBuf>,
    timeout_seconds: Option<u64>,
}

fn endpoint(
    section: &str,
    kind: &str,
    keys: EndpointKeys,
    default_port: impl Fn(Security) -> u16,
) -> Result<Endpoint, String> {
    let host = required(section, kind, "host", keys.host)?;
    if host.trim().is_empty() {
        return Err(format!("{section}.host is empty"));
    }
    let security = security(section, keys.security.as_deref(), &host)?;
    let ca_file = keys.ca_file;
    if let Some(ca) = &ca_file
        && !ca.is_file()
    {
        return Err(format!(
            "{section}.ca_file {} is not a readable file; give the PEM file of the certificate authority that signed the server's certificate",
            ca.display()
        ));
    }
    Ok(Endpoint {
        host,
        port: keys.port.unwrap_or_else(|| default_port(security)),
        security,
        ca_file,
        timeout: Duration::from_secs(keys.timeout_seconds.unwrap_or(60).max(1)),
    })
}

fn inbound_from(
    section: InboundSection,
    resolve: &dyn Fn(PathBuf) -> PathBuf,
    env: &Env,
    poll_interval: &mut Duration,
) -> Result<Inbound, String> {
    let s = section;
    let imap_keys = [
        ("host", s.host.is_some()),
        ("port", s.port.is_some()),
        ("security", s.security.is_some()),
        ("ca_file", s.ca_file.is_some()),
        ("timeout_seconds", s.timeout_seconds.is_some()),
        ("user", s.user.is_some()),
        ("password", s.password.is_some()),
        ("password_env", s.password_env.is_some()),
        ("password_file", s.password_file.is_some()),
        ("mailbox", s.mailbox.is_some()),
        ("processed_folder", s.processed_folder.is_some()),
        ("delete", s.delete.is_some()),
        ("idle", s.idle.is_some()),
    ];
    let poll = s
        .poll_seconds
        .map(|seconds| Duration::from_secs(seconds.max(1)));
    match s.kind.as_str() {
        "maildir" => {
            only_for("inbound", "maildir", &imap_keys)?;
            if let Some(poll) = poll {
                *poll_interval = poll;
            }
            Ok(Inbound::Maildir(resolve(
                s.maildir.unwrap_or_else(|| "inbox".into()),
            )))
        }
        "stdin" => {
            only_for("inbound", "stdin", &imap_keys)?;
            only_for(
                "inbound",
                "stdin",
                &[
                    ("maildir", s.maildir.is_some()),
                    ("poll_seconds", poll.is_some()),
                ],
            )?;
            Ok(Inbound::Stdin)
        }
        "imap" => {
            only_for("inbound", "imap", &[("maildir", s.maildir.is_some())])?;
            let keys = EndpointKeys {
                host: s.host,
                port: s.port,
                security: s.security,
                ca_file: s.ca_file.map(resolve),
                timeout_seconds: s.timeout_seconds,
            };
            let endpoint = endpoint("inbound", "imap", keys, |security| {
                if security == Security::Tls { 993 } else { 143 }
            })?;
            let user = required("inbound", "imap", "user", s.user)?;
            let password = secret(
                env,
                "inbound.password",
                s.password,
                s.password_env,
                s.password_file.map(resolve),
            )?
            .ok_or_else(|| {
                "inbound.password is missing: give inbound.password, inbound.password_env or inbound.password_file".to_string()
            })?;
            let mailbox = s.mailbox.unwrap_or_else(|| "INBOX".into());
            let after = match (s.delete.unwrap_or(false), s.processed_folder) {
                (true, Some(_)) => {
                    return Err("inbound.delete = true and inbound.processed_folder exclude each other: processed mail is either deleted or moved".into());
                }
                (true, None) => AfterProcessing::Delete,
                (false, folder) => {
                    let folder = folder.unwrap_or_else(|| "processed".into());
                    if folder.eq_ignore_ascii_case(&mailbox) {
                        return Err(format!(
                            "inbound.processed_folder \"{folder}\" is the mailbox pbem reads; name another folder"
                        ));
                    }
                    AfterProcessing::Move(folder)
                }
            };
            Ok(Inbound::Imap(Box::new(ImapConfig {
                endpoint,
                user,
                password,
                mailbox,
                after,
                poll_interval: poll.unwrap_or(Duration::from_secs(60)),
                idle: s.idle.unwrap_or(true),
                // Set by the caller, from `keep_processed_days`.
                keep_processed: None,
            })))
        }
        other => Err(format!(
            "inbound.kind \"{other}\" is not known; use \"maildir\", \"stdin\" or \"imap\""
        )),
    }
}

fn outbound_from(
    section: OutboundSection,
    resolve: &dyn Fn(PathBuf) -> PathBuf,
    env: &Env,
) -> Result<Outbound, String> {
    let s = section;
    let smtp_keys = [
        ("host", s.host.is_some()),
        ("port", s.port.is_some()),
        ("security", s.security.is_some()),
        ("ca_file", s.ca_file.is_some()),
        ("timeout_seconds", s.timeout_seconds.is_some()),
        ("user", s.user.is_some()),
        ("password", s.password.is_some()),
        ("password_env", s.password_env.is_some()),
        ("password_file", s.password_file.is_some()),
        ("reuse_connection", s.reuse_connection.is_some()),
    ];
    match s.kind.as_str() {
        "file" => {
            only_for("outbound", "file", &smtp_keys)?;
            only_for("outbound", "file", &[("sendmail", s.sendmail.is_some())])?;
            Ok(Outbound::Directory(resolve(
                s.dir.unwrap_or_else(|| "outbox".into()),
            )))
        }
        "sendmail" => {
            only_for("outbound", "sendmail", &smtp_keys)?;
            only_for("outbound", "sendmail", &[("dir", s.dir.is_some())])?;
            Ok(Outbound::Sendmail(s.sendmail))
        }
        "smtp" => {
            only_for(
                "outbound",
                "smtp",
                &[("dir", s.dir.is_some()), ("sendmail", s.sendmail.is_some())],
            )?;
            let keys = EndpointKeys {
                host: s.host,
                port: s.port,
                security: s.security,
                ca_file: s.ca_file.map(resolve),
                timeout_seconds: s.timeout_seconds,
            };
            let endpoint = endpoint("outbound", "smtp", keys, |security| match security {
                Security::Tls => 465,
                Security::StartTls => 587,
                Security::Plain => 25,
            })?;
            let password = secret(
                env,
                "outbound.password",
                s.password,
                s.password_env,
                s.password_file.map(resolve),
            )?;
            let login = match (s.user, password) {
                (Some(user), Some(password)) => Some((user, password)),
                (None, None) => None,
                (Some(_), None) => {
                    return Err("outbound.user is given but no password: give outbound.password, outbound.password_env or outbound.password_file".into());
                }
                (None, Some(_)) => {
                    return Err("outbound has a password but no outbound.user to log in as".into());
                }
            };
            Ok(Outbound::Smtp(Box::new(SmtpConfig {
                endpoint,
                login,
                reuse_connection: s.reuse_connection.unwrap_or(true),
            })))
        }
        other => Err(format!(
            "outbound.kind \"{other}\" is not known; use \"file\", \"sendmail\" or \"smtp\""
        )),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    server: Option<ServerSection>,
    database: Option<PathBuf>,
    inbound: Option<InboundSection>,
    outbound: Option<OutboundSection>,
    schedule: Option<ScheduleSection>,
    limits: Option<LimitsSection>,
    web: Option<WebSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WebSection {
    listen: Option<String>,
}

impl FileConfig {
    /// The file's keys, checked for form but not resolved.
    fn read(path: &Path) -> Result<FileConfig, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        toml::from_str(&text).map_err(|e| ConfigError::Invalid {
            path: path.to_path_buf(),
            message: e.to_string(),
        })
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScheduleSection {
    sweep: Option<String>,
    digest: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerSection {
    address: Option<String>,
    bounce_address: Option<String>,
    token_secret: Option<String>,
    token_secret_env: Option<String>,
    token_secret_file: Option<PathBuf>,
    log_file: Option<PathBuf>,
    templates: Option<PathBuf>,
    trusted_authserv_id: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InboundSection {
    kind: String,
    maildir: Option<PathBuf>,
    poll_seconds: Option<u64>,
    keep_processed_days: Option<u64>,
    host: Option<String>,
    port: Option<u16>,
    security: Option<String>,
    ca_file: Option<PathBuf>,
    timeout_seconds: Option<u64>,
    user: Option<String>,
    password: Option<String>,
    password_env: Option<String>,
    password_file: Option<PathBuf>,
    mailbox: Option<String>,
    processed_folder: Option<String>,
    delete: Option<bool>,
    idle: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutboundSection {
    kind: String,
    dir: Option<PathBuf>,
    sendmail: Option<String>,
    host: Option<String>,
    port: Option<u16>,
    security: Option<String>,
    ca_file: Option<PathBuf>,
    timeout_seconds: Option<u64>,
    user: Option<String>,
    password: Option<String>,
    password_env: Option<String>,
    password_file: Option<PathBuf>,
    reuse_connection: Option<bool>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsSection {
    max_mail_bytes: Option<usize>,
    mails_per_sender_per_hour: Option<u32>,
    mails_per_domain_per_hour: Option<u32>,
    mails_per_hour: Option<u32>,
    mails_per_player_per_hour: Option<u32>,
    min_password_length: Option<usize>,
    sent: Option<SentSection>,
}

/// `[limits.sent]`: the ceilings on the mail pbem sends
/// (`service::charge`), each per clock hour and per day.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SentSection {
    player_per_hour: Option<u32>,
    player_per_day: Option<u32>,
    address_per_hour: Option<u32>,
    address_per_day: Option<u32>,
    domain_per_hour: Option<u32>,
    domain_per_day: Option<u32>,
    stranger_per_hour: Option<u32>,
    stranger_per_day: Option<u32>,
    total_per_hour: Option<u32>,
    total_per_day: Option<u32>,
}

impl SentSection {
    fn apply(self, sent: &mut crate::service::charge::SentCeilings) {
        let pairs = [
            (&mut sent.player, self.player_per_hour, self.player_per_day),
            (
                &mut sent.address,
                self.address_per_hour,
                self.address_per_day,
            ),
            (&mut sent.domain, self.domain_per_hour, self.domain_per_day),
            (
                &mut sent.stranger,
                self.stranger_per_hour,
                self.stranger_per_day,
            ),
            (&mut sent.total, self.total_per_hour, self.total_per_day),
        ];
        for (ceiling, hour, day) in pairs {
            if let Some(hour) = hour {
                ceiling.hour = hour;
            }
            if let Some(day) = day {
                ceiling.day = day;
            }
        }
    }
}

#[cfg(test)]
mod schedule_tests {
    use super::*;

    #[test]
    fn the_schedule_is_read_and_checked() {
        let env = |_: &str| None;
        let dir = Path::new("/tmp");
        let config = Config::parse(
            "[schedule]\nsweep = \"0 * * * * *\"\ndigest = \"0 0 8 * * *\"\n",
            dir,
            &env,
        )
        .expect("valid");
        assert_eq!(config.schedule.sweep, "0 * * * * *");
        assert_eq!(config.schedule.digest.as_deref(), Some("0 0 8 * * *"));
        let bad =
            Config::parse("[schedule]\nsweep = \"often\"\n", dir, &env).expect_err("not cron");
        assert!(bad.contains("schedule.sweep"), "{bad}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, ConfigError> {
        let dir =
            std::env::temp_dir().join(format!("pbem-config-{}-{}", std::process::id(), text.len()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("pbem.toml");
        std::fs::write(&path, text).expect("write");
        let config = Config::load(&path, &dir);
        std::fs::remove_dir_all(&dir).ok();
        config
    }

    /// Parses with a made-up environment.
    fn parse(text: &str) -> Result<Config, String> {
        let env = |name: &str| match name {
            "PBEM_IMAP_PASSWORD" => Some("imap-secret".to_string()),
            "PBEM_SMTP_PASSWORD" => Some("smtp-secret".to_string()),
            "PBEM_TOKEN_SECRET" => Some("0123456789abcdef0123456789abcdef".to_string()),
            "EMPTY" => Some(String::new()),
            _ => None,
        };
        Config::parse(text, Path::new("/var/lib/pbem"), &env)
    }

    #[test]
    fn the_log_file_and_the_database_are_read_without_the_secrets() {
        let text = "database = \"games.sqlite3\"\n[server]\nlog_file = \"pbem.log\"\ntoken_secret_env = \"PBEM_NOT_SET\"\n";
        let dir =
            std::env::temp_dir().join(format!("pbem-config-secretless-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("pbem.toml");
        std::fs::write(&path, text).expect("write");
        let data = Path::new("/var/lib/pbem");
        let loaded = Config::load(&path, data).expect_err("the secret is not set");
        assert!(loaded.to_string().contains("PBEM_NOT_SET"), "{loaded}");
        assert_eq!(
            Config::database_in(&path, data).expect("no secret is read"),
            data.join("games.sqlite3")
        );
        assert_eq!(
            Config::log_file_in(&path, data),
            Some(data.join("pbem.log"))
        );
        std::fs::write(&path, "[server]\nlogfile = \"x\"\n").expect("write");
        let typo = Config::database_in(&path, data).expect_err("unknown key");
        assert!(typo.to_string().contains("logfile"), "{typo}");
        std::fs::remove_dir_all(&dir).ok();
        assert_eq!(
            Config::database_in(&path, data)
                .expect_err("no file")
                .to_string(),
            format!(
                "cannot read the configuration file {}: No such file or directory (os error 2)",
                path.display()
            )
        );
        let parsed = parse("[server]\nlog_file = \"/var/log/pbem.log\"\n").expect("valid");
        assert_eq!(parsed.log_file, Some(PathBuf::from("/var/log/pbem.log")));
    }

    #[test]
    fn a_file_overrides_the_defaults() {
        let config =
            load("[server]\naddress = \"games@example.org\"\n[outbound]\nkind = \"sendmail\"\n")
                .expect("valid");
        assert_eq!(config.service.address.to_string(), "games@example.org");
        assert_eq!(config.outbound, Outbound::Sendmail(None));
        // Bounces go to the server's address unless told otherwise.
        assert_eq!(config.bounce_address().to_string(), "games@example.org");
    }

    #[test]
    fn bounces_go_to_the_configured_bounce_address() {
        let config = parse(
            "[server]\naddress = \"games@example.org\"\nbounce_address = \"bounces@example.org\"\n",
        )
        .expect("valid");
        assert_eq!(config.bounce_address().to_string(), "bounces@example.org");
        let bad = parse("[server]\nbounce_address = \"b+x@example.org\"\n").expect_err("a '+'");
        assert!(bad.contains("server.bounce_address"), "{bad}");
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let unknown = load("[server]\nadress = \"x@y\"\n").expect_err("typo");
        assert!(unknown.to_string().contains("adress"), "{unknown}");
        let bad = load("[server]\naddress = \"nobody\"\n").expect_err("bad address");
        assert!(bad.to_string().contains("server.address"), "{bad}");
    }

    #[test]
    fn the_example_config_loads_with_every_transport_setting() {
        // The example reads its secrets from files in /etc/pbem: here, in
        // a directory of the test's, and from nothing in the environment.
        let dir = std::env::temp_dir().join(format!("pbem-example-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        for (file, secret) in [
            ("token-secret", "0123456789abcdef0123456789abcdef\n"),
            ("imap-password", "imap-secret\n"),
            ("smtp-password", "smtp-secret"),
        ] {
            std::fs::write(dir.join(file), secret).expect("secret file");
        }
        let example = include_str!("../deploy/pbem.example.toml")
            .replace("/etc/pbem/", &format!("{}/", dir.display()));
        let nothing_set = |_: &str| None;
        let config = Config::parse(&example, Path::new("/var/lib/pbem"), &nothing_set);
        std::fs::remove_dir_all(&dir).ok();
        let config = config.expect("the example is valid");
        assert_eq!(config.service.address.to_string(), "pbem@example.org");
        // Bounces go to the server's address (bounce_address is commented out).
        assert_eq!(config.bounce_address().to_string(), "pbem@example.org");
        assert_eq!(
            config.service.token_secret.as_deref(),
            Some("0123456789abcdef0123456789abcdef")
        );
        let Inbound::Imap(imap) = &config.inbound else {
            panic!("the example reads IMAP: {:?}", config.inbound);
        };
        assert_eq!(imap.endpoint.host, "imap.example.org");
        assert_eq!(imap.endpoint.port, 993);
        assert_eq!(imap.endpoint.security, Security::Tls);
        assert_eq!(imap.password.expose(), "imap-secret");
        assert_eq!(imap.mailbox, "INBOX");
        assert_eq!(imap.after, AfterProcessing::Move("processed".into()));
        assert!(imap.idle);
        let Outbound::Smtp(smtp) = &config.outbound else {
            panic!("the example sends by SMTP: {:?}", config.outbound);
        };
        assert_eq!(smtp.endpoint.port, 587);
        assert_eq!(smtp.endpoint.security, Security::StartTls);
        let (user, password) = smtp.login.as_ref().expect("the example logs in");
        assert_eq!(
            (user.as_str(), password.expose()),
            ("pbem@example.org", "smtp-secret")
        );
        assert!(smtp.reuse_connection);
        assert_eq!(config.database, PathBuf::from("/var/lib/pbem/pbem.sqlite3"));
    }

    #[test]
    fn imap_and_smtp_settings_are_read_with_their_defaults() {
        let config = parse(
            "[inbound]\nkind = \"imap\"\nhost = \"127.0.0.1\"\nsecurity = \"plain\"\nuser = \"pbem\"\npassword = \"pw\"\ndelete = true\nidle = false\npoll_seconds = 3\n\
             [outbound]\nkind = \"smtp\"\nhost = \"localhost\"\nsecurity = \"plain\"\nreuse_connection = false\n",
        )
        .expect("valid");
        let Inbound::Imap(imap) = config.inbound else {
            panic!("imap");
        };
        assert_eq!(
            (imap.endpoint.port, imap.endpoint.security),
            (143, Security::Plain)
        );
        assert_eq!(imap.after, AfterProcessing::Delete);
        assert_eq!(imap.poll_interval, Duration::from_secs(3));
        assert!(!imap.idle);
        let Outbound::Smtp(smtp) = config.outbound else {
            panic!("smtp");
        };
        assert_eq!((smtp.endpoint.port, smtp.login.is_none()), (25, true));
        assert!(!smtp.reuse_connection);
        let stdin = parse("[inbound]\nkind = \"stdin\"\n").expect("valid");
        assert_eq!(stdin.inbound, Inbound::Stdin);
    }

    #[test]
    fn missing_and_misplaced_transport_settings_are_clear_errors() {
        let cases = [
            (
                "[inbound]\nkind = \"imap\"\nuser = \"u\"\npassword = \"p\"\n",
                "inbound.host is missing",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\npassword = \"p\"\n",
                "inbound.user is missing",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\n",
                "inbound.password is missing",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\npassword_env = \"PBEM_NOT_SET\"\n",
                "PBEM_NOT_SET, which is not set",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\npassword_env = \"EMPTY\"\n",
                "EMPTY, which is empty",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\npassword = \"p\"\npassword_env = \"PBEM_IMAP_PASSWORD\"\n",
                "only one of inbound.password",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"imap.example.org\"\nsecurity = \"plain\"\nuser = \"u\"\npassword = \"p\"\n",
                "only allowed to this machine",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nsecurity = \"ssl\"\nuser = \"u\"\npassword = \"p\"\n",
                "inbound.security \"ssl\" is not known",
            ),
            (
                "[inbound]\nkind = \"imap\"\nhost = \"h\"\nuser = \"u\"\npassword = \"p\"\ndelete = true\nprocessed_folder = \"done\"\n",
                "exclude each other",
            ),
            (
                "[inbound]\nkind = \"maildir\"\nhost = \"h\"\n",
                "inbound.host does not apply",
            ),
            (
                "[inbound]\nkind = \"pop3\"\n",
                "inbound.kind \"pop3\" is not known",
            ),
            ("[outbound]\nkind = \"smtp\"\n", "outbound.host is missing"),
            (
                "[outbound]\nkind = \"smtp\"\nhost = \"h\"\nuser = \"u\"\n",
                "no password",
            ),
            (
                "[outbound]\nkind = \"file\"\nport = 25\n",
                "outbound.port does not apply",
            ),
            (
                "[outbound]\nkind = \"smtp\"\nhost = \"h\"\nca_file = \"/nonexistent/ca.pem\"\n",
                "outbound.ca_file /nonexistent/ca.pem is not a readable file",
            ),
            (
                "[outbound]\nkind = \"smtp\"\nhost = \"h\"\nreuse = true\n",
                "unknown field `reuse`",
            ),
        ];
        for (text, expected) in cases {
            let error = parse(text).expect_err(text);
            assert!(error.contains(expected), "{text}: {error}");
        }
    }
}

#[cfg(test)]
mod web_tests {
    use super::*;

    #[test]
    fn the_web_site_listens_on_this_machine_unless_told_otherwise() {
        let env = |_: &str| None;
        let dir = Path::new("/tmp");
        let listen = |text: &str| Config::parse(text, dir, &env).map(|c| c.web.listen);
        assert_eq!(
            listen("").expect("defaults"),
            Some("127.0.0.1:8080".parse().expect("address"))
        );
        assert_eq!(
            listen("[web]\nlisten = \"[::1]:9000\"\n").expect("valid"),
            Some("[::1]:9000".parse().expect("address"))
        );
        assert_eq!(listen("[web]\nlisten = \"\"\n").expect("off"), None);
        let bad = listen("[web]\nlisten = \"example.org:80\"\n").expect_err("a host name");
        assert!(bad.contains("web.listen"), "{bad}");
        let unknown = listen("[web]\nport = 80\n").expect_err("unknown key");
        assert!(unknown.contains("port"), "{unknown}");
    }
}
