//! Configuration: embedded defaults that need no file, optionally
//! overridden by a TOML file (`pbem --config FILE`). Unknown keys and bad
//! values are errors at start, naming the key.
//!
//! Defaults, all under the data directory (`./pbem-data`): the database
//! `pbem.sqlite3`, the inbound Maildir `inbox/`, the outbound directory
//! `outbox/` (one `.eml` per mail), and the server address `pbem@localhost`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

use crate::mail::ServerAddress;
use crate::service::ServiceConfig;

/// Where mail comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inbound {
    Maildir(PathBuf),
}

/// Where mail goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outbound {
    /// A directory of `.eml` files.
    Directory(PathBuf),
    /// The local `sendmail` (the given binary, or the system's).
    Sendmail(Option<String>),
}

/// Everything `pbem` needs to run.
#[derive(Clone, Debug)]
pub struct Config {
    pub data_dir: PathBuf,
    pub database: PathBuf,
    pub inbound: Inbound,
    pub outbound: Outbound,
    /// How often `serve` looks for new mail.
    pub poll_interval: Duration,
    pub service: ServiceConfig,
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
            service: ServiceConfig::default(),
        }
    }

    /// The defaults, overridden by the TOML file at `path`. Relative paths
    /// in the file are relative to the data directory.
    pub fn load(path: &Path, data_dir: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|error| ConfigError::Read {
            path: path.to_path_buf(),
            error,
        })?;
        let invalid = |message: String| ConfigError::Invalid {
            path: path.to_path_buf(),
            message,
        };
        let file: FileConfig = toml::from_str(&text).map_err(|e| invalid(e.to_string()))?;
        let mut config = Config::defaults(data_dir);
        let resolve = |p: PathBuf| if p.is_absolute() { p } else { data_dir.join(p) };
        if let Some(server) = file.server {
            if let Some(address) = server.address {
                config.service.address = ServerAddress::parse(&address)
                    .ok_or_else(|| invalid(format!("server.address \"{address}\" is not an address like pbem@example.org (without '+')")))?;
            }
            config.service.token_secret = match (server.token_secret, server.token_secret_file) {
                (Some(_), Some(_)) => {
                    return Err(invalid(
                        "give server.token_secret or server.token_secret_file, not both".into(),
                    ));
                }
                (Some(secret), None) => Some(secret),
                (None, Some(file)) => {
                    let file = resolve(file);
                    Some(std::fs::read_to_string(&file).map_err(|e| {
                        invalid(format!("server.token_secret_file {}: {e}", file.display()))
                    })?)
                }
                (None, None) => None,
            };
            if let Some(dir) = server.templates {
                config.service.templates_dir = Some(resolve(dir));
            }
        }
        if let Some(database) = file.database {
            config.database = resolve(database);
        }
        if let Some(inbound) = file.inbound {
            match inbound.kind.as_str() {
                "maildir" => {
                    if let Some(dir) = inbound.maildir {
                        config.inbound = Inbound::Maildir(resolve(dir));
                    }
                }
                other => {
                    return Err(invalid(format!(
                        "inbound.kind \"{other}\" is not known; use \"maildir\""
                    )));
                }
            }
            if let Some(seconds) = inbound.poll_seconds {
                config.poll_interval = Duration::from_secs(seconds.max(1));
            }
        }
        if let Some(outbound) = file.outbound {
            config.outbound = match outbound.kind.as_str() {
                "file" => {
                    Outbound::Directory(resolve(outbound.dir.unwrap_or_else(|| "outbox".into())))
                }
                "sendmail" => Outbound::Sendmail(outbound.sendmail),
                other => {
                    return Err(invalid(format!(
                        "outbound.kind \"{other}\" is not known; use \"file\" or \"sendmail\""
                    )));
                }
            };
        }
        if let Some(limits) = file.limits {
            if let Some(bytes) = limits.max_mail_bytes {
                config.service.max_mail_bytes = bytes;
            }
            if let Some(count) = limits.mails_per_sender_per_hour {
                config.service.mails_per_sender_per_hour = count;
            }
        }
        Ok(config)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileConfig {
    server: Option<ServerSection>,
    database: Option<PathBuf>,
    inbound: Option<InboundSection>,
    outbound: Option<OutboundSection>,
    limits: Option<LimitsSection>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ServerSection {
    address: Option<String>,
    token_secret: Option<String>,
    token_secret_file: Option<PathBuf>,
    templates: Option<PathBuf>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct InboundSection {
    kind: String,
    maildir: Option<PathBuf>,
    poll_seconds: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OutboundSection {
    kind: String,
    dir: Option<PathBuf>,
    sendmail: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LimitsSection {
    max_mail_bytes: Option<usize>,
    mails_per_sender_per_hour: Option<u32>,
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

    #[test]
    fn a_file_overrides_the_defaults() {
        let config =
            load("[server]\naddress = \"games@example.org\"\n[outbound]\nkind = \"sendmail\"\n")
                .expect("valid");
        assert_eq!(config.service.address.to_string(), "games@example.org");
        assert_eq!(config.outbound, Outbound::Sendmail(None));
    }

    #[test]
    fn unknown_keys_and_bad_values_are_named() {
        let unknown = load("[server]\nadress = \"x@y\"\n").expect_err("typo");
        assert!(unknown.to_string().contains("adress"), "{unknown}");
        let bad = load("[server]\naddress = \"nobody\"\n").expect_err("bad address");
        assert!(bad.to_string().contains("server.address"), "{bad}");
    }
}
