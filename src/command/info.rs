//! Commands that only read: `help`, `games`, `show`, `history`, `pgn`.

use super::{Command, CommandError, board_number, error};
use crate::rules::Variant;

/// What `help` explains.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpTopic {
    /// The command language.
    Commands,
    /// The list of variants.
    Variants,
    /// One variant's rules.
    Variant(Variant),
}

/// Which boards `games` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GamesFilter {
    /// Games in progress.
    Active,
    /// Games where it is the player's turn.
    Next,
    All,
}

/// `games <userid> [active|next|all]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Games {
    pub userid: String,
    pub filter: GamesFilter,
}

/// `show <board>[#<turn>] [compact]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Show {
    pub board: u32,
    /// Show the position when turn #n was to be played (board mails
    /// number turns so) instead of now.
    pub turn: Option<u32>,
    pub compact: bool,
}

pub(super) const HELP: &str = "help [<variant> | list | variants]";
pub(super) const GAMES: &str = "games <userid> [active|next|all]";
pub(super) const SHOW: &str = "show <board>[#<turn number>] [compact]";
pub(super) const HISTORY: &str = "history <board>";
pub(super) const PGN: &str = "pgn <board>";

pub(super) fn help(args: &[&str]) -> Result<Command, CommandError> {
    match args {
        [] => Ok(Command::Help(HelpTopic::Commands)),
        [topic] if topic.eq_ignore_ascii_case("list") || topic.eq_ignore_ascii_case("variants") => {
            Ok(Command::Help(HelpTopic::Variants))
        }
        [topic] => topic
            .parse()
            .map(|v| Command::Help(HelpTopic::Variant(v)))
            .map_err(|e: crate::rules::variant::UnknownVariant| {
                error("help", &e.to_string(), HELP)
            }),
        _ => Err(error("help", "give at most one topic", HELP)),
    }
}

pub(super) fn games(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "games";
    let (userid, filter) = match args {
        [userid] => (userid, GamesFilter::Active),
        [userid, filter] => {
            let filter = match filter.to_ascii_lowercase().as_str() {
                "active" => GamesFilter::Active,
                "next" => GamesFilter::Next,
                "all" => GamesFilter::All,
                _ => {
                    return Err(error(
                        keyword,
                        &format!("unknown filter \"{filter}\""),
                        GAMES,
                    ));
                }
            };
            (userid, filter)
        }
        _ => {
            return Err(error(
                keyword,
                "give a userid and optionally active, next or all",
                GAMES,
            ));
        }
    };
    Ok(Command::Games(Games {
        userid: userid.to_string(),
        filter,
    }))
}

pub(super) fn show(args: &[&str]) -> Result<Command, CommandError> {
    let keyword = "show";
    let (board_word, turn) = match args.first() {
        Some(word) => match word.split_once('#') {
            Some((board, turn)) => {
                let turn = turn.parse().map_err(|_| {
                    error(keyword, &format!("\"{turn}\" is not a turn number"), SHOW)
                })?;
                (board, Some(turn))
            }
            None => (*word, None),
        },
        None => return Err(error(keyword, "the board number is missing", SHOW)),
    };
    let board = board_number(Some(&board_word), keyword, SHOW)?;
    let compact = match &args[1..] {
        [] => false,
        [word] if word.eq_ignore_ascii_case("compact") => true,
        _ => {
            return Err(error(
                keyword,
                "unexpected words after the board number",
                SHOW,
            ));
        }
    };
    Ok(Command::Show(Show {
        board,
        turn,
        compact,
    }))
}

pub(super) fn history(args: &[&str]) -> Result<Command, CommandError> {
    let board = only_board(args, "history", HISTORY)?;
    Ok(Command::History { board })
}

pub(super) fn pgn(args: &[&str]) -> Result<Command, CommandError> {
    let board = only_board(args, "pgn", PGN)?;
    Ok(Command::Pgn { board })
}

/// The board number that is the only word after the command word.
fn only_board(args: &[&str], keyword: &str, usage: &'static str) -> Result<u32, CommandError> {
    if args.len() > 1 {
        return Err(error(
            keyword,
            "unexpected words after the board number",
            usage,
        ));
    }
    board_number(args.first(), keyword, usage)
}
