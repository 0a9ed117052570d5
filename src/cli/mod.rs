//! The `pbem` command line. Each subcommand has its own file; this module
//! parses the arguments and maps failures to exit codes and messages.

mod backup;
mod demo;
mod legal;
mod log;
mod pairings;
mod perft;
mod ratings;
mod replay;
mod serve;
mod variants;

use std::fmt;
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::rules::notation::parse_record;
use crate::rules::{Game, Variant};

/// A play-by-email server for chess and its double-move variants.
#[derive(Debug, Parser)]
#[command(name = "pbem", version, about)]
pub struct Cli {
    /// Where the database, the inbox Maildir and the outbox live.
    #[arg(long, global = true, default_value = "pbem-data")]
    data_dir: PathBuf,
    /// A TOML configuration file overriding the embedded defaults.
    #[arg(long, global = true)]
    config: Option<PathBuf>,
    /// Act as if the time were this (RFC 3339, e.g. 2026-01-31T12:00:00Z); for tests.
    #[arg(long, global = true)]
    now: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the mail server: read the inbox, answer, send the outbox.
    Serve {
        /// Process the mail waiting now, then exit.
        #[arg(long)]
        once: bool,
    },
    /// Process one mail from standard input (for .forward or procmail).
    Process,
    /// Run one deadline sweep (reminders, losses on time) as of now or --now.
    Tick {
        /// Also send the daily digest (once a day at most).
        #[arg(long)]
        digest: bool,
    },
    /// Play a short chess2 game by mail through the real pipeline and show the last mail.
    Demo,
    /// Copy the database to FILE, consistently, while the server runs.
    Backup {
        /// Where the copy goes (replaced if it exists).
        file: PathBuf,
    },
    /// List the variants: one line each, `<id>  <description>`.
    Variants,
    /// Print the rating standings, or rebuild the ratings from the stored results.
    Ratings {
        /// Replay every rated result in order and store exactly what the
        /// replay gives (changes nothing when the ratings are right).
        #[arg(long)]
        rebuild: bool,
        /// Only this variant.
        variant: Option<Variant>,
    },
    /// Replay a game record, printing each turn, the final FEN and the result.
    Replay {
        #[command(flatten)]
        start: StartArgs,
        /// The record to read; `-` or nothing reads standard input.
        file: Option<PathBuf>,
    },
    /// Count the sequences of legal whole turns of a given depth.
    Perft {
        #[command(flatten)]
        start: StartArgs,
        /// Record of turns to play before counting.
        #[arg(long)]
        moves: Option<String>,
        depth: u32,
    },
    /// Show the legal-move summary a player would get by mail.
    Legal {
        #[command(flatten)]
        start: StartArgs,
        /// Record of turns to play first.
        #[arg(long)]
        moves: Option<String>,
    },
    /// Swiss pairings (FIDE Dutch) of a TRF file: `--dutch FILE` pairs the
    /// next round (bbpPairings' `-p` output), `--check FILE` checks every
    /// round. Exit 0 done, 1 no valid pairing / a round differs, 2 bad file.
    Pairings {
        /// TRF file whose next round to pair.
        #[arg(
            long,
            value_name = "FILE",
            conflicts_with = "check",
            required_unless_present = "check"
        )]
        dutch: Option<PathBuf>,
        /// TRF file whose every round to check.
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
    },
}

/// Which variant, and from which position.
#[derive(Debug, clap::Args)]
struct StartArgs {
    /// The variant id (see `pbem variants`).
    #[arg(long)]
    variant: Variant,
    /// Start from this position instead of the standard one.
    #[arg(long)]
    fen: Option<String>,
}

/// A failure of a subcommand, with the exit code it maps to.
#[derive(Debug)]
pub enum CliError {
    /// The input could not be read or understood (exit 2).
    Input(String),
    /// The input was read but a turn in it is illegal (exit 1); the
    /// message is complete as it stands.
    Rejected(String),
    /// The server could not do its work (exit 75, "try again later").
    Server(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Input(message) | CliError::Rejected(message) | CliError::Server(message) => {
                f.write_str(message)
            }
        }
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => return bad_arguments(error),
    };
    let mda = matches!(cli.command, Command::Process);
    let log_file = (cli.config.as_deref())
        .and_then(|file| crate::config::Config::log_file_in(file, &cli.data_dir));
    let mut log = log::Log::choose(log_file.as_deref(), mda);
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_ansi(log.ansi())
        .with_writer(log.writer())
        .init();
    log.report_unopened();
    let result = match cli.command {
        Command::Serve { once } => serve::serve(
            &cli.data_dir,
            cli.config.as_deref(),
            cli.now.as_deref(),
            once,
        ),
        Command::Process => {
            return process_mail(
                &cli.data_dir,
                cli.config.as_deref(),
                cli.now.as_deref(),
                &log,
            );
        }
        Command::Tick { digest } => serve::tick(
            &cli.data_dir,
            cli.config.as_deref(),
            cli.now.as_deref(),
            digest,
        ),
        Command::Demo => demo::run(&cli.data_dir),
        Command::Backup { file } => backup::run(&cli.data_dir, cli.config.as_deref(), &file),
        Command::Variants => variants::run(),
        Command::Ratings { rebuild, variant } => ratings::run(
            &cli.data_dir,
            cli.config.as_deref(),
            cli.now.as_deref(),
            rebuild,
            variant,
        ),
        Command::Replay { start, file } => replay::run(&start, file.as_deref()),
        Command::Perft {
            start,
            moves,
            depth,
        } => perft::run(&start, moves.as_deref(), depth),
        Command::Legal { start, moves } => legal::run(&start, moves.as_deref()),
        Command::Pairings { dutch, check } => match (dutch, check) {
            (Some(file), _) => pairings::dutch(&file),
            (None, Some(file)) => pairings::check(&file),
            (None, None) => Err(CliError::Input(
                "pairings needs --dutch FILE or --check FILE".into(),
            )),
        },
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Rejected(message)) => {
            eprintln!("{message}");
            ExitCode::from(1)
        }
        Err(CliError::Input(message)) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
        Err(CliError::Server(message)) => {
            eprintln!("error: {message}");
            // EX_TEMPFAIL: a mail transfer agent keeps the mail and retries.
            ExitCode::from(75)
        }
    }
}

/// What standard error says when `pbem process` fails and the reason is in
/// the log. A mail system puts it in its log, and in the notice the sender
/// gets if the mail is still undelivered when it gives up (Postfix: "...
/// temporary failure. Command output: <this>"): it says nothing of the
/// server's setup, and starts with no status code, which Postfix would
/// obey over the exit code.
pub const MDA_FAILURE: &str = "the pbem server failed, not this mail; the reason is in pbem's log ([server] log_file, else syslog)";

/// `pbem process`: one mail from standard input. Every failure is the
/// server's, never the mail's (a mail pbem cannot read is answered or
/// dropped, and exits 0), so each one exits 75 (EX_TEMPFAIL): the mail
/// system keeps the mail and gives it again later, instead of bouncing it
/// to the player (Postfix bounces on every other code but 71). A panic is
/// such a failure too.
fn process_mail(
    data_dir: &std::path::Path,
    config: Option<&std::path::Path>,
    now: Option<&str>,
    log: &log::Log,
) -> ExitCode {
    if !log.is_stderr() {
        // A panic's message goes to the log, not to the mail system.
        std::panic::set_hook(Box::new(|info| tracing::error!("{info}")));
    }
    let result = std::panic::catch_unwind(|| serve::process(data_dir, config, now)).unwrap_or_else(
        |panic| {
            Err(CliError::Server(format!(
                "pbem panicked: {}",
                crate::caught::panic_text(&*panic)
            )))
        },
    );
    let Err(error) = result else {
        return ExitCode::SUCCESS;
    };
    if log.is_stderr() {
        eprintln!("error: {error}; the mail system keeps the mail and tries again");
    } else {
        tracing::error!(
            "cannot process the mail now, the mail system keeps it and tries again: {error}"
        );
        eprintln!("{MDA_FAILURE}");
    }
    ExitCode::from(75)
}

/// Arguments clap cannot read: its message and exit 2, except for
/// `pbem process`, where a mistake in the command the mail system runs
/// must not bounce the mail (exit 75, as [`process_mail`]).
fn bad_arguments(error: clap::Error) -> ExitCode {
    let process = std::env::args().skip(1).any(|arg| arg == "process");
    if !process || !error.use_stderr() {
        error.exit();
    }
    let log = log::Log::choose(None, true);
    if log.is_stderr() {
        eprint!("{error}");
    } else {
        tracing_subscriber::fmt()
            .with_ansi(false)
            .with_writer(log.writer())
            .init();
        tracing::error!("pbem process: {}", error.to_string().trim_end());
        eprintln!("{MDA_FAILURE}");
    }
    ExitCode::from(75)
}

impl StartArgs {
    fn new_game(&self) -> Result<Game, CliError> {
        match &self.fen {
            Some(fen) => {
                Game::from_fen(self.variant, fen).map_err(|e| CliError::Input(e.to_string()))
            }
            None => Ok(Game::new(self.variant)),
        }
    }

    /// The starting game with the turns of `moves` (a record) played.
    fn game_after(&self, moves: Option<&str>) -> Result<Game, CliError> {
        let mut game = self.new_game()?;
        if let Some(moves) = moves {
            replay::play_record(&mut game, moves)?;
        }
        Ok(game)
    }
}

/// Reads a whole file, or standard input for `None` and `-`.
fn read_input(file: Option<&std::path::Path>) -> Result<String, CliError> {
    let mut text = String::new();
    match file {
        None => read_stdin(&mut text)?,
        Some(path) if path.as_os_str() == "-" => read_stdin(&mut text)?,
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| CliError::Input(format!("cannot read {}: {e}", path.display())))?;
            text = String::from_utf8(bytes)
                .map_err(|_| CliError::Input(format!("{} is not UTF-8 text", path.display())))?;
        }
    }
    Ok(text)
}

fn read_stdin(text: &mut String) -> Result<(), CliError> {
    std::io::stdin()
        .read_to_string(text)
        .map(|_| ())
        .map_err(|e| CliError::Input(format!("cannot read standard input: {e}")))
}

/// Parses a record, mapping notation errors to input errors.
fn parse(text: &str) -> Result<crate::rules::notation::Record, CliError> {
    parse_record(text).map_err(|e| CliError::Input(e.to_string()))
}
