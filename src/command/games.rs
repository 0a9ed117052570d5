//! `games <userid> [active|next|all]`: a player's boards, as the sender
//! may see them.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

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

const USAGE: &str = "games <userid> [active|next|all]";

impl MailCommand for Games {
    const DEFINITION: Definition = Definition {
        words: &["games"],
        forms: &[Form::new(USAGE, &[], "games alice")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &["active", "next", "all"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Games, CommandError> {
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
                            USAGE,
                        ));
                    }
                };
                (userid, filter)
            }
            _ => {
                return Err(error(
                    keyword,
                    "give a userid and optionally active, next or all",
                    USAGE,
                ));
            }
        };
        Ok(Games {
            userid: userid.to_string(),
            filter,
        })
    }
}
