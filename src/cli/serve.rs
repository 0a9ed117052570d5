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

pub fn process(data_dir: &Path, file: Option<&Path>, now: Option<&str>) -> Result<(), CliError> {
    let config = config(data_dir, file)?;
    let time_source = time_source(now)?;
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
    println!(
        "sweep: {} reminders, {} losses on time, {} draws by timeout; sent {sent} mails",
        report.reminders, report.losses_on_time, report.draws_by_timeout
    );
    if digest {
        let (digests, sent) = server
            .digest(time_source)
            .map_err(|e| CliError::Server(e.to_string()))?;
        println!("digest: {digests} digests; sent {sent} mails");
    }
    Ok(())
}
