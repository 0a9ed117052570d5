//! `tournaments [open|running|finished|all]`: the events, as anybody may
//! see them.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

/// Which events `tournaments` lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventFilter {
    All,
    Open,
    Running,
    Finished,
}

/// `tournaments [open|running|finished|all]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournaments {
    pub filter: EventFilter,
}

const USAGE: &str = "tournaments [open|running|finished]";

impl MailCommand for Tournaments {
    const DEFINITION: Definition = Definition {
        words: &["tournaments"],
        forms: &[Form::new(USAGE, &[], "tournaments running")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &["open", "running", "finished", "all"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Tournaments, CommandError> {
        let filter = match args {
            [] => EventFilter::All,
            [word] => match word.to_ascii_lowercase().as_str() {
                "open" => EventFilter::Open,
                "running" => EventFilter::Running,
                "finished" => EventFilter::Finished,
                "all" => EventFilter::All,
                _ => {
                    return Err(error(
                        keyword,
                        &format!("\"{word}\" is not open, running or finished"),
                        USAGE,
                    ));
                }
            },
            _ => return Err(error(keyword, "too many words", USAGE)),
        };
        Ok(Tournaments { filter })
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Command, parse_line};

    use super::*;

    #[test]
    fn lists_read_their_filter() {
        assert_eq!(
            parse_line("tournaments running")
                .expect("a command")
                .expect("well formed")
                .command,
            Command::Tournaments(Tournaments {
                filter: EventFilter::Running
            })
        );
    }
}
