//! `set <userid> <password> board|mail|pgn <value>`, or `set board
//! compact` in a reply to a mail of pbem's: one of the speaker's
//! preferences.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, error};
use crate::domain::{BoardChoice, MailChoice};

/// One preference and its new value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    Board(BoardChoice),
    Mail(MailChoice),
    Pgn(bool),
}

/// `set <userid> <password> <preference> <value>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetPreference {
    pub speaker: Speaker,
    pub change: Change,
}

pub const SET: &str =
    "set <userid> <password> board ascii|compact|html|list | mail every|digest | pgn on|off";

impl MailCommand for SetPreference {
    const DEFINITION: Definition = Definition {
        words: &["set"],
        forms: &[
            Form::new(SET, &[2], "set alice alice-pw board compact"),
            Form::new(SET, &[], "set mail digest"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: false,
        game_action: false,
        fixed: &[
            "board", "mail", "pgn", "ascii", "compact", "html", "every", "digest", "on", "off",
        ],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<SetPreference, CommandError> {
        let (speaker, name, value) = match args {
            [name, value] => (Speaker::Token, name, value),
            [userid, password, name, value] => (
                Speaker::Password {
                    userid: userid.to_string(),
                    password: password.to_string(),
                },
                name,
                value,
            ),
            _ => {
                return Err(error(
                    keyword,
                    "expected a userid, a password, a preference and its value",
                    SET,
                ));
            }
        };
        let change = change(name, value).map_err(|problem| error(keyword, &problem, SET))?;
        Ok(SetPreference { speaker, change })
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

fn change(name: &str, value: &str) -> Result<Change, String> {
    let bad = |allowed: &str| format!("\"{value}\" is not a value of {name}: give {allowed}");
    match name.to_ascii_lowercase().as_str() {
        "board" => BoardChoice::from_word(value)
            .map(Change::Board)
            .ok_or_else(|| bad("ascii, compact, html or list")),
        "mail" => MailChoice::from_word(value)
            .map(Change::Mail)
            .ok_or_else(|| bad("every or digest")),
        "pgn" => match value.to_ascii_lowercase().as_str() {
            "on" => Ok(Change::Pgn(true)),
            "off" => Ok(Change::Pgn(false)),
            _ => Err(bad("on or off")),
        },
        _ => Err(format!(
            "\"{name}\" is not a preference: give board, mail or pgn"
        )),
    }
}

#[cfg(test)]
mod tests {
    use crate::command::{Command, Speaker, parse_line};
    use crate::domain::BoardChoice;

    use super::*;

    fn parse(line: &str) -> Result<Command, CommandError> {
        parse_line(line).expect("a command").map(|l| l.command)
    }

    #[test]
    fn set_reads_with_password_and_by_reply() {
        assert_eq!(
            parse("set alice pw board compact"),
            Ok(Command::Set(SetPreference {
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "pw".into()
                },
                change: Change::Board(BoardChoice::Compact),
            }))
        );
        assert_eq!(
            parse("Set board ASCII"),
            Ok(Command::Set(SetPreference {
                speaker: Speaker::Token,
                change: Change::Board(BoardChoice::Ascii),
            }))
        );
        assert_eq!(
            parse("set alice pw pgn off").map(|c| c.passwords().len()),
            Ok(1)
        );
        assert_eq!(
            parse("settings"),
            Ok(Command::Settings(crate::command::settings::Settings {
                speaker: Speaker::Token
            }))
        );
    }

    #[test]
    fn errors_name_what_is_wrong() {
        let error = parse("set alice pw board pretty").expect_err("refused");
        assert!(error.problem.contains("\"pretty\""), "{error}");
        let error = parse("set alice pw colour blue").expect_err("refused");
        assert!(
            error.problem.contains("\"colour\" is not a preference"),
            "{error}"
        );
        assert!(parse("set alice").is_err());
        assert!(parse("settings alice").is_err());
    }
}
