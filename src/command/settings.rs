//! `settings <userid> <password>`, or `settings` in a reply to a mail of
//! pbem's: the speaker's preferences and addresses.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, error};

/// `settings <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub speaker: Speaker,
}

const USAGE: &str = "settings <userid> <password>";

impl MailCommand for Settings {
    const DEFINITION: Definition = Definition {
        words: &["settings"],
        forms: &[
            Form::new(USAGE, &[2], "settings alice alice-pw"),
            Form::new(USAGE, &[], "settings"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Settings, CommandError> {
        match args {
            [] => Ok(Settings {
                speaker: Speaker::Token,
            }),
            [userid, password] => Ok(Settings {
                speaker: Speaker::Password {
                    userid: userid.to_string(),
                    password: password.to_string(),
                },
            }),
            [_] => Err(error(keyword, "the password is missing", USAGE)),
            _ => Err(error(
                keyword,
                "expected only a userid and a password",
                USAGE,
            )),
        }
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
