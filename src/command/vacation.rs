//! `vacation <userid> <password> <days>`, or `vacation <days>` in a
//! reply: the player's clocks stop for that many days.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, credentials, error};

/// `vacation <userid> <password> <days>`, or `vacation <days>` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub speaker: Speaker,
    pub days: u32,
}

const USAGE: &str = "vacation <userid> <password> <days>, or in a reply: vacation <days>";

impl MailCommand for Vacation {
    const DEFINITION: Definition = Definition {
        words: &["vacation"],
        forms: &[
            Form::new(USAGE, &[2], "vacation alice alice-pw 10"),
            Form::new(USAGE, &[], "vacation 10"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Vacation, CommandError> {
        let (speaker, rest) = match args {
            [_] => (Speaker::Token, args),
            _ => {
                let (userid, password, rest) = credentials(args, keyword, USAGE)?;
                (Speaker::Password { userid, password }, rest)
            }
        };
        let days = match rest {
            [days] => days.parse().map_err(|_| {
                error(
                    keyword,
                    &format!("\"{days}\" is not a number of days"),
                    USAGE,
                )
            })?,
            _ => return Err(error(keyword, "give the number of days", USAGE)),
        };
        Ok(Vacation { speaker, days })
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
