//! `password <userid> <old> <new>`, or `password <new>` in a reply to a
//! mail pbem sent the player (the reply token proves the player, and the
//! one-time address of a reset mail too); `password reset <userid>` mails
//! the player's confirmed addresses such a one-time address.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, error};

/// `password <userid> <old> <new>`, `password <new>` in a reply, or
/// `password reset <userid>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Password {
    /// A new password for the speaker.
    Change {
        /// The userid and the old password, or the reply token.
        speaker: Speaker,
        new: String,
    },
    /// A reset mail to the confirmed addresses of `userid`.
    Reset { userid: String },
}

const USAGE: &str =
    "password <userid> <old password> <new password>, or in a reply: password <new password>";
const RESET_USAGE: &str = "password reset <userid>";

impl MailCommand for Password {
    const DEFINITION: Definition = Definition {
        words: &["password"],
        forms: &[
            Form::new(USAGE, &[2, 3], "password alice old-pw new-pw"),
            Form::new(USAGE, &[1], "password new-pw"),
            Form::of_sub(RESET_USAGE, &["reset"], &[], "password reset alice"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &["reset"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Password, CommandError> {
        match args {
            [reset, userid] if reset.eq_ignore_ascii_case("reset") => Ok(Password::Reset {
                userid: userid.to_string(),
            }),
            [new] => Ok(Password::Change {
                speaker: Speaker::Token,
                new: new.to_string(),
            }),
            [userid, old, new] => Ok(Password::Change {
                speaker: Speaker::Password {
                    userid: userid.to_string(),
                    password: old.to_string(),
                },
                new: new.to_string(),
            }),
            _ => Err(error(
                keyword,
                "expected a userid, the old and the new password (in a reply: the new password alone; to reset a lost one: password reset <userid>)",
                USAGE,
            )),
        }
    }

    fn speaker(&self) -> Option<&Speaker> {
        match self {
            Password::Change { speaker, .. } => Some(speaker),
            Password::Reset { .. } => None,
        }
    }

    fn passwords_besides(&self) -> Vec<&str> {
        match self {
            Password::Change { new, .. } => vec![new],
            Password::Reset { .. } => Vec::new(),
        }
    }
}
