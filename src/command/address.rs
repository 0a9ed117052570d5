//! `address <userid> <password> <address...>`, or `address <address...>`
//! in a reply: the player's addresses (each new one confirms first).

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, credentials, error};

/// `address <userid> <password> <address...>`, or `address <address...>`
/// in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetAddresses {
    pub speaker: Speaker,
    pub addresses: Vec<String>,
}

const USAGE: &str = "address <userid> <password> <address...>, or in a reply: address <address...>";

impl MailCommand for SetAddresses {
    const DEFINITION: Definition = Definition {
        words: &["address"],
        forms: &[
            Form::new(USAGE, &[2], "address alice alice-pw alice@example.org"),
            Form::new(USAGE, &[], "address alice@example.org"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<SetAddresses, CommandError> {
        // A userid holds no '@': a first word with one is the reply form's
        // first address.
        let (speaker, rest) = if args.first().is_some_and(|first| first.contains('@')) {
            (Speaker::Token, args)
        } else {
            let (userid, password, rest) = credentials(args, keyword, USAGE)?;
            (Speaker::Password { userid, password }, rest)
        };
        if rest.is_empty() {
            return Err(error(keyword, "give at least one address", USAGE));
        }
        Ok(SetAddresses {
            speaker,
            addresses: rest.iter().map(|a| a.to_string()).collect(),
        })
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
