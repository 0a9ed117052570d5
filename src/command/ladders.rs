//! `ladders`: every ladder, as anybody may see them.

use super::{CommandError, Definition, Form, InReply, MailCommand, error};

/// `ladders`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ladders;

const USAGE: &str = "ladders";

impl MailCommand for Ladders {
    const DEFINITION: Definition = Definition {
        words: &["ladders"],
        forms: &[Form::new(USAGE, &[], "ladders")],
        in_reply: InReply::Full,
        names_board: false,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Ladders, CommandError> {
        if !args.is_empty() {
            return Err(error(keyword, "ladders takes no more words", USAGE));
        }
        Ok(Ladders)
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Command, parse_line};

    use super::*;

    #[test]
    fn ladders_takes_no_more_words() {
        let parse = |line: &str| parse_line(line).expect("a command").map(|l| l.command);
        assert_eq!(parse("ladders"), Ok(Command::Ladders(Ladders)));
        let problem = parse("ladders all").expect_err("refused").problem;
        assert!(problem.contains("no more words"), "{problem}");
    }
}
