//! `extend`: extra days on the clock of the opponent (issue 27).

use pbem_clock::{Days, DaysError};

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, board_number, credentials,
    days_problem, error, without_day_unit,
};

/// `extend <board> <userid> <password> <days>`, or `extend <days>` in a
/// reply to a board mail (the reply's board, player and token): gives
/// the speaker's opponent `days` more on their clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Extend {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
    pub days: Days,
}

const EXTEND: &str = "extend <board> <userid> <password> <days> (gives your opponent extra days, at most 30 per game; in a reply to a board mail: extend <days>)";

impl MailCommand for Extend {
    const DEFINITION: Definition = Definition {
        words: &["extend"],
        forms: &[
            Form::new(EXTEND, &[3], "extend 101 alice alice-pw 2"),
            Form::new(EXTEND, &[], "extend 2"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: true,
        game_action: true,
        // The unit players write after the number (`extend 2 days`).
        fixed: &["days", "day"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Extend, CommandError> {
        extend(keyword, args)
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

fn extend(keyword: &str, args: &[&str]) -> Result<Extend, CommandError> {
    let args = without_day_unit(args);
    let (board, speaker, days) = match &args[..] {
        [days] => (0, Speaker::Token, days),
        [board, rest @ ..] => {
            let board = board_number(Some(board), keyword, EXTEND)?;
            let (userid, password, rest) = credentials(rest, keyword, EXTEND)?;
            let [days] = rest else {
                return Err(error(keyword, "give the number of days", EXTEND));
            };
            (board, Speaker::Password { userid, password }, days)
        }
        [] => {
            return Err(error(
                keyword,
                "give the board and the number of days",
                EXTEND,
            ));
        }
    };
    if let Some(problem) = days_problem(days) {
        return Err(error(keyword, &problem, EXTEND));
    }
    let days = Days::parse(days).map_err(|problem| {
        let problem = match problem {
            DaysError::TooPrecise { rounded } => format!(
                "write {}, not {days}",
                crate::render::count(rounded, "day")
            ),
            DaysError::TooLarge => format!("\"{days}\" days is far too many"),
            DaysError::NotANumber => {
                format!("\"{days}\" is not a number of days (e.g. 2 or 0.5)")
            }
        };
        error(keyword, &problem, EXTEND)
    })?;
    Ok(Extend {
        board,
        speaker,
        days,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    fn parse(line: &str) -> Result<Command, CommandError> {
        parse_line(line).expect("a command").map(|l| l.command)
    }

    #[test]
    fn extend_reads_days_as_players_write_them() {
        for line in ["extend 2 days", "extend 2d", "extend 2", "extend 2 Days", "extend 2days"] {
            assert_eq!(
                parse(line),
                Ok(Command::Extend(Extend {
                    board: 0,
                    speaker: Speaker::Token,
                    days: Days::from_hundredths(200),
                })),
                "{line}"
            );
        }
        assert_eq!(
            parse("extend 101 alice days 1 day"),
            Ok(Command::Extend(Extend {
                board: 101,
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "days".into()
                },
                days: Days::from_hundredths(100),
            }))
        );
    }

    #[test]
    fn extend_reads_in_full_and_in_a_reply() {
        assert_eq!(
            parse("extend 101 alice alice-pw 2.5"),
            Ok(Command::Extend(Extend {
                board: 101,
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "alice-pw".into()
                },
                days: Days::from_hundredths(250),
            }))
        );
        assert_eq!(
            parse("Extend 3"),
            Ok(Command::Extend(Extend {
                board: 0,
                speaker: Speaker::Token,
                days: Days::from_hundredths(300),
            }))
        );
        for (line, says) in [
            ("extend", "give the board"),
            ("extend 101 alice alice-pw", "give the number of days"),
            ("extend 101 alice", "password is missing"),
            ("extend 101 alice alice-pw soon", "not a number of days"),
            ("extend 101 alice alice-pw 0.125", "write 0.13"),
            ("extend 101 alice alice-pw 1 2", "give the number of days"),
            ("extend -2", "negative"),
            ("extend 0", "give nothing"),
            ("extend 0 days", "give nothing"),
            ("extend 4294967296", "far too many"),
            ("extend 99999999999d", "far too many"),
            ("extend days", "not a number of days"),
        ] {
            let problem = parse(line).expect_err(line).to_string();
            assert!(problem.contains(says), "{line}: {problem}");
        }
    }
}
