//! `vacation <userid> <password> <days>`, or `vacation <days>` in a
//! reply: the player's clocks stop for that many days.

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, credentials, days_problem, error,
    without_day_unit,
};

/// `vacation <userid> <password> <days>`, or `vacation <days>` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vacation {
    pub speaker: Speaker,
    pub days: u32,
}

const USAGE: &str = "vacation <userid> <password> <days>, or in a reply: vacation <days>";

impl MailCommand for Vacation {
    const DEFINITION: Definition = Definition {
        words: &["vacation"],
        forms: &[
            Form::new(USAGE, &[2], "vacation alice alice-pw 10"),
            Form::new(USAGE, &[], "vacation 10"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        // The unit players write after the number (`vacation 5 days`).
        fixed: &["days", "day"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Vacation, CommandError> {
        let args = without_day_unit(args);
        let (speaker, rest) = match &args[..] {
            [_] => (Speaker::Token, &args[..]),
            _ => {
                let (userid, password, rest) = credentials(&args, keyword, USAGE)?;
                (Speaker::Password { userid, password }, rest)
            }
        };
        if let [days] = rest
            && let Some(problem) = days_problem(days)
        {
            return Err(error(keyword, &problem, USAGE));
        }
        let days = match rest {
            [days] => days.parse().map_err(|_| {
                error(
                    keyword,
                    &format!("\"{days}\" is not a whole number of days (e.g. 5)"),
                    USAGE,
                )
            })?,
            _ => return Err(error(keyword, "give the number of days", USAGE)),
        };
        Ok(Vacation { speaker, days })
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    fn parse(line: &str) -> Result<Command, CommandError> {
        parse_line(line).expect("a command").map(|l| l.command)
    }

    #[test]
    fn vacation_reads_days_as_players_write_them() {
        for line in ["vacation 5 days", "vacation 5d", "vacation 5", "Vacation 5 Days"] {
            assert_eq!(
                parse(line),
                Ok(Command::Vacation(Vacation {
                    speaker: Speaker::Token,
                    days: 5
                })),
                "{line}"
            );
        }
        assert_eq!(
            parse("vacation alice alice-pw 1 day"),
            Ok(Command::Vacation(Vacation {
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "alice-pw".into()
                },
                days: 1
            }))
        );
        for (line, says) in [
            ("vacation 0", "give nothing"),
            ("vacation -3 days", "negative"),
            ("vacation 4294967296", "far too many"),
            ("vacation 2.5", "whole number"),
            ("vacation soon", "whole number"),
            ("vacation alice alice-pw", "give the number of days"),
        ] {
            let problem = parse(line).expect_err(line).to_string();
            assert!(problem.contains(says), "{line}: {problem}");
        }
    }
}
