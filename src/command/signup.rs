//! `signup <userid> <password> [address...]`: a new player, who exists
//! once an address of theirs confirms.

use super::{CommandError, Definition, Form, InReply, MailCommand, credentials};

/// `signup <userid> <password> [address...]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signup {
    pub userid: String,
    pub password: String,
    /// Empty: the mail's From address.
    pub addresses: Vec<String>,
}

const USAGE: &str = "signup <userid> <password> [address...]";

impl MailCommand for Signup {
    const DEFINITION: Definition = Definition {
        words: &["signup"],
        forms: &[Form::new(
            USAGE,
            &[2],
            "signup alice alice-pw alice@example.org",
        )],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Signup, CommandError> {
        let (userid, password, rest) = credentials(args, keyword, USAGE)?;
        Ok(Signup {
            userid,
            password,
            addresses: rest.iter().map(|a| a.to_string()).collect(),
        })
    }

    fn passwords_besides(&self) -> Vec<&str> {
        vec![&self.password]
    }
}
