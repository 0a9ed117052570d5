//! `help [<variant> | list | variants]`: the command language, the list of
//! variants, or one variant's rules.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};
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

const USAGE: &str = "help [<variant> | list | variants]";

impl MailCommand for HelpTopic {
    const DEFINITION: Definition = Definition {
        words: &["help"],
        forms: &[Form::new(USAGE, &[], "help chess2")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &["list", "variants"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<HelpTopic, CommandError> {
        match args {
            [] => Ok(HelpTopic::Commands),
            [topic]
                if topic.eq_ignore_ascii_case("list") || topic.eq_ignore_ascii_case("variants") =>
            {
                Ok(HelpTopic::Variants)
            }
            [topic] => topic.parse().map(HelpTopic::Variant).map_err(
                |e: crate::rules::variant::UnknownVariant| error(keyword, &e.to_string(), USAGE),
            ),
            _ => Err(error(keyword, "give at most one topic", USAGE)),
        }
    }
}
