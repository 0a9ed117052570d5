//! `password <userid> <old> <new>`, or `password <new>` in a reply to a
//! mail pbem sent the player (the reply token proves the player).

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, error};

/// `password <userid> <old> <new>`, or `password <new>` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Password {
    /// The userid and the old password, or the reply token.
    pub speaker: Speaker,
    pub new: String,
}

const USAGE: &str =
    "password <userid> <old password> <new password>, or in a reply: password <new password>";

impl MailCommand for Password {
    const DEFINITION: Definition = Definition {
        words: &["password"],
        forms: &[
            Form::new(USAGE, &[2, 3], "password alice old-pw new-pw"),
            Form::new(USAGE, &[1], "password new-pw"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Password, CommandError> {
        match args {
            [new] => Ok(Password {
                speaker: Speaker::Token,
                new: new.to_string(),
            }),
            [userid, old, new] => Ok(Password {
                speaker: Speaker::Password {
                    userid: userid.to_string(),
                    password: old.to_string(),
                },
                new: new.to_string(),
            }),
            _ => Err(error(
                keyword,
                "expected a userid, the old and the new password (in a reply: the new password alone)",
                USAGE,
            )),
        }
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }

    fn passwords_besides(&self) -> Vec<&str> {
        vec![&self.new]
    }
}
