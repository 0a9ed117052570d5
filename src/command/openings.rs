//! `openings <words>`: the named chess openings whose code or name
//! matches, for `--opening=` (thematic starts). Anybody may send it.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

/// `openings <ECO code | words of a name>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Openings {
    /// What was asked, its words joined by spaces.
    pub query: String,
}

const USAGE: &str = "openings <ECO code | words of a name>";

impl MailCommand for Openings {
    const DEFINITION: Definition = Definition {
        words: &["openings"],
        forms: &[Form::new(USAGE, &[], "openings sicilian najdorf")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Openings, CommandError> {
        if args.is_empty() {
            return Err(error(
                keyword,
                "give an ECO code (B90) or some words of a name (sicilian najdorf)",
                USAGE,
            ));
        }
        Ok(Openings {
            query: args.join(" "),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Command, parse_line};

    use super::*;

    #[test]
    fn openings_takes_words() {
        let line = parse_line("openings Sicilian najdorf")
            .expect("a command")
            .expect("well formed");
        assert_eq!(
            line.command,
            Command::Openings(Openings {
                query: "Sicilian najdorf".into()
            })
        );
        assert!(parse_line("openings").expect("a command").is_err());
    }
}
