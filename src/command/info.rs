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

const HELP: &str = "help [<variant> | list | variants]";
const GAMES: &str = "games <userid> [active|next|all]";
const SHOW: &str = "show <board>[#<turn number>] [compact]";
const HISTORY: &str = "history <board>";
const PGN: &str = "pgn <board>";

pub(super) fn parse(keyword: &str, args: &[&str]) -> Result<Command, CommandError> {
    match keyword {
        "help" => match args {
            [] => Ok(Command::Help(HelpTopic::Commands)),
            [topic]
                if topic.eq_ignore_ascii_case("list") || topic.eq_ignore_ascii_case("variants") =>
            {
                Ok(Command::Help(HelpTopic::Variants))
            }
            [topic] => topic
                .parse()
                .map(|v| Command::Help(HelpTopic::Variant(v)))
                .map_err(|e: crate::rules::variant::UnknownVariant| {
                    error(keyword, &e.to_string(), HELP)
                }),
            _ => Err(error(keyword, "give at most one topic", HELP)),
        },
        "games" => {
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
        "show" => {
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
        _ => {
            let usage = if keyword == "history" { HISTORY } else { PGN };
            if args.len() > 1 {
                return Err(error(
                    keyword,
                    "unexpected words after the board number",
                    usage,
                ));
            }
            let board = board_number(args.first(), keyword, usage)?;
            Ok(if keyword == "history" {
                Command::History { board }
            } else {
                Command::Pgn { board }
            })
        }
    }
}
