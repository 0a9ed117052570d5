//! `rating <userid>`: one player's ratings and last rated games, as the
//! sender may see them. Anybody may send it.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

/// `rating <userid>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rating {
    pub userid: String,
}

const USAGE: &str = "rating <userid>";

impl MailCommand for Rating {
    const DEFINITION: Definition = Definition {
        words: &["rating"],
        forms: &[Form::new(USAGE, &[], "rating alice")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Rating, CommandError> {
        match args {
            [userid] => Ok(Rating {
                userid: userid.to_string(),
            }),
            [] => Err(error(keyword, "the userid is missing", USAGE)),
            _ => Err(error(keyword, "give one userid", USAGE)),
        }
    }
}
