//! `confirm <code>`: the sender's address confirms a claim on it (a
//! signup's, or an address a player added).

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

/// `confirm <code>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirm {
    /// The code, upper case.
    pub code: String,
}

const USAGE: &str = "confirm <code>";

impl MailCommand for Confirm {
    const DEFINITION: Definition = Definition {
        words: &["confirm"],
        forms: &[Form::new(USAGE, &[], "confirm K7QX2M")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Confirm, CommandError> {
        match args {
            [code] => Ok(Confirm {
                code: code.to_ascii_uppercase(),
            }),
            _ => Err(error(
                keyword,
                "give the code of the confirmation mail",
                USAGE,
            )),
        }
    }
}
