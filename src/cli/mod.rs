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
mod status;
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
    /// The data directory of serve, process, tick, demo, backup and
    /// ratings (also after the subcommand) [default: pbem-data]
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
    /// The configuration file of serve, process, tick, backup and ratings
    /// (also after the subcommand)
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// The time serve, process, tick and ratings act at (also after the
    /// subcommand); for tests
    #[arg(long, value_name = "TIME")]
    now: Option<String>,
    #[command(subcommand)]
    command: Command,
}

/// `--data-dir`, for the subcommands that keep their state there.
#[derive(Debug, clap::Args)]
struct DataDir {
    /// Where the database, the inbox Maildir and the outbox live
    /// [default: pbem-data]
    #[arg(long, value_name = "DIR")]
    data_dir: Option<PathBuf>,
}

/// `--config`, for the subcommands that read the configuration.
#[derive(Debug, clap::Args)]
struct ConfigFile {
    /// A TOML configuration file overriding the embedded defaults
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
}

/// `--now`, for the subcommands that act at a time.
#[derive(Debug, clap::Args)]
struct Now {
    /// Act as if the time were TIME (RFC 3339, e.g. 2026-01-31T12:00:00Z);
    /// for tests
    #[arg(long, value_name = "TIME")]
    now: Option<String>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the mail server: read the inbox, answer, send the outbox.
    Serve {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
        #[command(flatten)]
        now: Now,
        /// Process the mail waiting now, then exit.
        #[arg(long)]
        once: bool,
    },
    /// Create the data directory and the database (once, before the mail
    /// system runs `pbem process`), checking the configuration.
    Init {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
    },
    /// Process one mail from standard input (for .forward or procmail);
    /// the database must exist (`pbem init`).
    Process {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
        #[command(flatten)]
        now: Now,
    },
    /// Run one deadline sweep (reminders, losses on time) as of now or --now.
    Tick {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
        #[command(flatten)]
        now: Now,
        /// Also send the daily digest (once a day at most).
        #[arg(long)]
        digest: bool,
    },
    /// Play a short chess2 game by mail through the real pipeline and show
    /// the last mail (in <data-dir>/demo, started afresh).
    Demo {
        #[command(flatten)]
        data_dir: DataDir,
    },
    /// Copy the database to FILE, consistently, while the server runs.
    Backup {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
        /// Where the copy goes (replaced if it exists).
        file: PathBuf,
    },
    /// Print how mail flows: outbox depth, held mails, failing addresses,
    /// last inbound and outbound times, last errors.
    Status {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
    },
    /// List the variants: one line each, `<id>  <description>`.
    Variants,
    /// Print the rating standings, or rebuild the ratings from the stored results.
    Ratings {
        #[command(flatten)]
        data_dir: DataDir,
        #[command(flatten)]
        config: ConfigFile,
        #[command(flatten)]
        now: Now,
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
    /// Count the legal sequences of whole turns DEPTH deep (perft), to test the move generator.
    ///
    /// A turn is one player's whole turn: one move in chess, one or two in
    /// the double-move variants, a doublestep counting as one. Prints each
    /// legal first turn with the number of sequences that begin with it,
    /// then `turns(DEPTH) = N`.
    Perft {
        #[command(flatten)]
        start: StartArgs,
        /// Record of turns to play before counting.
        #[arg(long)]
        moves: Option<String>,
        /// How many turns deep to count (0 counts the position itself).
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
    /// Pair the next round of a Swiss event (FIDE Dutch) from a TRF file, or check its rounds.
    ///
    /// `--dutch FILE` pairs the next round (bbpPairings' `-p` output),
    /// `--check FILE` checks every round. Exit 0 done, 1 no valid pairing or
    /// a round differs, 2 bad file.
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

/// Where a subcommand keeps its state and when it acts: the options
/// given before the subcommand (as scripts and service files write them)
/// or after it.
#[derive(Debug, Default)]
struct Place {
    data_dir: Option<PathBuf>,
    config: Option<PathBuf>,
    now: Option<String>,
}

impl Place {
    /// The data directory, `pbem-data` unless given.
    fn data_dir(&self) -> PathBuf {
        self.data_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("pbem-data"))
    }

    /// The options given after the subcommand `command`, with those given
    /// before it: an option may be given once, and only to a subcommand
    /// that uses it (`takes`: what `after` can hold).
    fn merged(
        before: Place,
        after: Place,
        command: &str,
        takes: &[&str],
    ) -> Result<Place, CliError> {
        fn one<T>(
            name: &str,
            before: Option<T>,
            after: Option<T>,
            command: &str,
            takes: &[&str],
        ) -> Result<Option<T>, CliError> {
            match (before, after) {
                (Some(_), Some(_)) => Err(CliError::Input(format!("--{name} is given twice"))),
                (Some(_), None) if !takes.contains(&name) => Err(CliError::Input(format!(
                    "{command} takes no --{name}{}",
                    if takes.is_empty() {
                        String::new()
                    } else {
                        format!(" (only --{})", takes.join(", --"))
                    }
                ))),
                (before, after) => Ok(after.or(before)),
            }
        }
        Ok(Place {
            data_dir: one("data-dir", before.data_dir, after.data_dir, command, takes)?,
            config: one("config", before.config, after.config, command, takes)?,
            now: one("now", before.now, after.now, command, takes)?,
        })
    }
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
    let mda = matches!(cli.command, Command::Process { .. });
    let (data_dir, config) = cli.log_place();
    let log_file = config.and_then(|file| crate::config::Config::log_file_in(&file, &data_dir));
    let mut log = log::Log::choose(log_file.as_deref(), mda);
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(DEFAULT_LOG)),
        )
        .with_ansi(log.ansi())
        .with_writer(log.writer())
        .init();
    log.report_unopened();
    if mda {
        return process_mail(cli, &log);
    }
    let result = run(cli);
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

/// What is logged unless `RUST_LOG` says otherwise: pbem's own account
/// of its work, and only the warnings of the crates it uses (the
/// scheduler logs every job it creates at INFO, the migrations a version
/// that is not the migration's number).
const DEFAULT_LOG: &str = "warn,pbem=info";

impl Cli {
    /// The data directory and configuration file, given before or after
    /// the subcommand, that say where the log goes before the subcommand
    /// runs (a mistake in them is the subcommand's to report).
    fn log_place(&self) -> (PathBuf, Option<PathBuf>) {
        let (data_dir, config) = match &self.command {
            Command::Serve {
                data_dir, config, ..
            }
            | Command::Process {
                data_dir, config, ..
            }
            | Command::Tick {
                data_dir, config, ..
            }
            | Command::Ratings {
                data_dir, config, ..
            }
            | Command::Backup {
                data_dir, config, ..
            }
            | Command::Status { data_dir, config }
            | Command::Init { data_dir, config } => {
                (data_dir.data_dir.clone(), config.config.clone())
            }
            _ => (None, None),
        };
        let place = Place {
            data_dir: data_dir.or_else(|| self.data_dir.clone()),
            config: config.or_else(|| self.config.clone()),
            now: None,
        };
        (place.data_dir(), place.config)
    }
}

/// Runs the subcommand.
fn run(cli: Cli) -> Result<(), CliError> {
    let before = Place {
        data_dir: cli.data_dir,
        config: cli.config,
        now: cli.now,
    };
    let place =
        |command: &str, after: Place, takes: &[&str]| Place::merged(before, after, command, takes);
    const ALL: &[&str] = &["data-dir", "config", "now"];
    match cli.command {
        Command::Serve {
            data_dir,
            config,
            now,
            once,
        } => {
            let place = place("serve", Place::of(data_dir, config, now), ALL)?;
            serve::serve(
                &place.data_dir(),
                place.config.as_deref(),
                place.now.as_deref(),
                once,
            )
        }
        Command::Process {
            data_dir,
            config,
            now,
        } => {
            let place = place("process", Place::of(data_dir, config, now), ALL)?;
            serve::process(
                &place.data_dir(),
                place.config.as_deref(),
                place.now.as_deref(),
            )
        }
        Command::Tick {
            data_dir,
            config,
            now,
            digest,
        } => {
            let place = place("tick", Place::of(data_dir, config, now), ALL)?;
            serve::tick(
                &place.data_dir(),
                place.config.as_deref(),
                place.now.as_deref(),
                digest,
            )
        }
        Command::Demo { data_dir } => {
            let after = Place {
                data_dir: data_dir.data_dir,
                ..Place::default()
            };
            demo::run(&place("demo", after, &["data-dir"])?.data_dir())
        }
        Command::Backup {
            data_dir,
            config,
            file,
        } => {
            let after = Place {
                data_dir: data_dir.data_dir,
                config: config.config,
                now: None,
            };
            let place = place("backup", after, &["data-dir", "config"])?;
            backup::run(&place.data_dir(), place.config.as_deref(), &file)
        }
        Command::Status { data_dir, config } => {
            let after = Place {
                data_dir: data_dir.data_dir,
                config: config.config,
                now: None,
            };
            let place = place("status", after, &["data-dir", "config"])?;
            status::run(&place.data_dir(), place.config.as_deref())
        }
        Command::Init { data_dir, config } => {
            let after = Place {
                data_dir: data_dir.data_dir,
                config: config.config,
                now: None,
            };
            let place = place("init", after, &["data-dir", "config"])?;
            serve::init(&place.data_dir(), place.config.as_deref())
        }
        Command::Ratings {
            data_dir,
            config,
            now,
            rebuild,
            variant,
        } => {
            let place = place("ratings", Place::of(data_dir, config, now), ALL)?;
            ratings::run(
                &place.data_dir(),
                place.config.as_deref(),
                place.now.as_deref(),
                rebuild,
                variant,
            )
        }
        Command::Variants => {
            place("variants", Place::default(), &[])?;
            variants::run()
        }
        Command::Replay { start, file } => {
            place("replay", Place::default(), &[])?;
            replay::run(&start, file.as_deref())
        }
        Command::Perft {
            start,
            moves,
            depth,
        } => {
            place("perft", Place::default(), &[])?;
            perft::run(&start, moves.as_deref(), depth)
        }
        Command::Legal { start, moves } => {
            place("legal", Place::default(), &[])?;
            legal::run(&start, moves.as_deref())
        }
        Command::Pairings { dutch, check } => {
            place("pairings", Place::default(), &[])?;
            match (dutch, check) {
                (Some(file), _) => pairings::dutch(&file),
                (None, Some(file)) => pairings::check(&file),
                (None, None) => Err(CliError::Input(
                    "pairings needs --dutch FILE or --check FILE".into(),
                )),
            }
        }
    }
}

impl Place {
    /// The three options as a subcommand that takes them all holds them.
    fn of(data_dir: DataDir, config: ConfigFile, now: Now) -> Place {
        Place {
            data_dir: data_dir.data_dir,
            config: config.config,
            now: now.now,
        }
    }
}

/// What standard error says when `pbem process` fails and the reason is in
/// the log. A mail system puts it in its log, and in the notice the sender
/// gets if the mail is still undelivered when it gives up (Postfix: "...
/// temporary failure. Command output: `<this>`"): it says nothing of the
/// server's setup, and starts with no status code, which Postfix would
/// obey over the exit code. It names the command that prints the reason
/// of a setup error in full (a configuration that does not load, a
/// database not made), as the log may be the very thing a broken
/// configuration got wrong.
pub const MDA_FAILURE: &str = "the pbem server failed, not this mail; its operator finds why with `pbem status` (given the same --config and --data-dir) and in pbem's log";

/// `pbem process`: one mail from standard input. Every failure is the
/// server's, never the mail's (a mail pbem cannot read is answered or
/// dropped, and exits 0), so each one exits 75 (EX_TEMPFAIL): the mail
/// system keeps the mail and gives it again later, instead of bouncing it
/// to the player (Postfix bounces on every other code but 71). A panic is
/// such a failure too.
fn process_mail(cli: Cli, log: &log::Log) -> ExitCode {
    if !log.is_stderr() {
        // A panic's message goes to the log, not to the mail system.
        std::panic::set_hook(Box::new(|info| tracing::error!("{info}")));
    }
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli)))
        .unwrap_or_else(|panic| {
            Err(CliError::Server(format!(
                "pbem panicked: {}",
                crate::caught::panic_text(&*panic)
            )))
        });
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
