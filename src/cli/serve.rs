//! `pbem serve [--once]` and `pbem process`: the server on the configured
//! (or embedded default) transports.

use std::io::Read;
use std::path::{Path, PathBuf};

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::CliError;
use crate::config::Config;
use crate::server::{self, Server, TimeSource};

/// The configuration: the file if given, else the embedded defaults.
pub fn config(data_dir: &Path, file: Option<&Path>) -> Result<Config, CliError> {
    match file {
        Some(file) => Config::load(file, data_dir).map_err(|e| CliError::Input(e.to_string())),
        None => Ok(Config::defaults(data_dir)),
    }
}

/// Where the database is: the file's `database` key if given, else the
/// default; no secret is read (see [`Config::database_in`]).
pub fn database(data_dir: &Path, file: Option<&Path>) -> Result<PathBuf, CliError> {
    match file {
        Some(file) => {
            Config::database_in(file, data_dir).map_err(|e| CliError::Input(e.to_string()))
        }
        None => Ok(Config::defaults(data_dir).database),
    }
}

/// Where the time comes from: `--now` if given, else the system clock.
pub fn time_source(now: Option<&str>) -> Result<TimeSource, CliError> {
    match now {
        None => Ok(TimeSource::System),
        Some(text) => OffsetDateTime::parse(text, &Rfc3339)
            .map(TimeSource::Fixed)
            .map_err(|e| CliError::Input(format!("--now \"{text}\" is not an RFC 3339 time: {e}"))),
    }
}

pub fn serve(
    data_dir: &Path,
    file: Option<&Path>,
    now: Option<&str>,
    once: bool,
) -> Result<(), CliError> {
    let config = config(data_dir, file)?;
    let pass = server::serve(&config, once, time_source(now)?)
        .map_err(|e| CliError::Server(e.to_string()))?;
    if once {
        println!(
            "processed {} mails ({} duplicates, {} ignored); queued {} replies; sent {}",
            pass.mails, pass.duplicates, pass.ignored, pass.replies, pass.sent
        );
    }
    Ok(())
}

/// `pbem init`: the data directory and the database, made (or checked
/// and brought up to date) with the configuration loaded in full, so that
/// a mistake in it shows here rather than in the first mail.
pub fn init(data_dir: &Path, file: Option<&Path>) -> Result<(), CliError> {
    let config = config(data_dir, file)?;
    Server::open(&config).map_err(|e| CliError::Server(e.to_string()))?;
    println!(
        "ready: the database {} in the data directory {}",
        config.database.display(),
        config.data_dir.display()
    );
    Ok(())
}

pub fn process(data_dir: &Path, file: Option<&Path>, now: Option<&str>) -> Result<(), CliError> {
    let config = config(data_dir, file)?;
    let time_source = time_source(now)?;
    // Run by the mail system, pbem makes nothing: a data directory or a
    // database that is not there is a mistake in the command line (a
    // wrong --data-dir, a missing --config) or a step of the setup not
    // done, and a fresh empty database would answer the players as
    // strangers. The mail waits (exit 75) until `pbem init` is run.
    for (what, path, there) in [
        ("data directory", &config.data_dir, config.data_dir.is_dir()),
        ("database", &config.database, config.database.is_file()),
    ] {
        if !there {
            return Err(CliError::Server(format!(
                "there is no {what} {}; `pbem init` with the same --config and --data-dir makes it",
                path.display()
            )));
        }
    }
    let mut raw = Vec::new();
    std::io::stdin()
        .read_to_end(&mut raw)
        .map_err(|e| CliError::Server(format!("cannot read the mail from standard input: {e}")))?;
    let mut server = Server::open(&config).map_err(|e| CliError::Server(e.to_string()))?;
    server
        .process_one(&raw, time_source)
        .map_err(|e| CliError::Server(e.to_string()))?;
    Ok(())
}

pub fn tick(
    data_dir: &Path,
    file: Option<&Path>,
    now: Option<&str>,
    digest: bool,
) -> Result<(), CliError> {
    let config = config(data_dir, file)?;
    let time_source = time_source(now)?;
    let mut server = Server::open(&config).map_err(|e| CliError::Server(e.to_string()))?;
    // Where cron's `tick` stands in for `serve` (MDA mode), it also keeps
    // the records from growing; a failure waits for the next tick.
    match server.prune(time_source) {
        Ok(pruned) => tracing::debug!(?pruned, "old records pruned"),
        Err(error) => tracing::error!(%error, "pruning failed; it runs again at the next tick"),
    }
    let (report, sent) = server
        .sweep(time_source)
        .map_err(|e| CliError::Server(e.to_string()))?;
    // On standard output for the operator at a terminal, and in the log
    // for cron, which throws standard output away.
    let line = format!("sweep: {}; sent {sent} mails", server::sweep_text(&report));
    tracing::info!("{line}");
    println!("{line}");
    if digest {
        let (digests, sent) = server
            .digest(time_source)
            .map_err(|e| CliError::Server(e.to_string()))?;
        let line = format!("digest: {digests} digests; sent {sent} mails");
        tracing::info!("{line}");
        println!("{line}");
    }
    Ok(())
}
