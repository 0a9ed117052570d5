//! `note <board> <userid> <password> <text>`: a private note on a board by
//! one of its two players, which only its writer ever reads (in their own
//! board mails and `show`); `note <board> ... clear` drops the writer's
//! notes. In a reply to a board mail: `note <board> <text>`. A line
//! starting `note` without a board number is prose ("Note that ...").

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, board_number, error,
};

/// `note <board> <userid> <password> <text>|clear`, or `note <board>
/// <text>|clear` in a reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub board: u32,
    pub speaker: Speaker,
    pub what: NoteWhat,
}

/// What a `note` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoteWhat {
    /// A note, as written.
    Text(String),
    /// Drop every note of the writer on the board.
    Clear,
}

const USAGE: &str = "note <board> <userid> <password> <text>, or note <board> <userid> <password> clear (in a reply to a board mail: note <board> <text>, or note <board> clear)";

impl MailCommand for Note {
    const DEFINITION: Definition = Definition {
        words: &["note"],
        forms: &[
            Form::new(USAGE, &[3], "note 101 alice alice-pw watch the knight"),
            Form::new(USAGE, &[3], "note 101 alice alice-pw clear"),
            Form::new(USAGE, &[], "note 101 clear"),
        ],
        in_reply: InReply::WithoutLogin,
        names_board: true,
        game_action: true,
        fixed: &["clear"],
    };

    /// Without a board number right after it, `note` begins prose.
    fn is_prose(args: &[&str]) -> bool {
        args.first()
            .is_none_or(|first| first.trim_start_matches('#').parse::<u32>().is_err())
    }

    /// Three words or more after the board are a login and the note (the
    /// service reads them again as the note of a reply's player who names
    /// another userid); fewer are a reply's note.
    fn parse(keyword: &str, args: &[&str]) -> Result<Note, CommandError> {
        let board = board_number(args.first(), keyword, USAGE)?;
        let what = |words: &[&str]| match words {
            [] => Err(error(keyword, "the note is missing", USAGE)),
            [word] if word.eq_ignore_ascii_case("clear") => Ok(NoteWhat::Clear),
            _ => Ok(NoteWhat::Text(words.join(" "))),
        };
        match &args[1..] {
            [userid, password, rest @ ..] if !rest.is_empty() => Ok(Note {
                board,
                speaker: Speaker::Password {
                    userid: userid.to_string(),
                    password: password.to_string(),
                },
                what: what(rest)?,
            }),
            rest => Ok(Note {
                board,
                speaker: Speaker::Token,
                what: what(rest)?,
            }),
        }
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    #[test]
    fn notes_read_in_full_and_in_a_reply_and_prose_is_no_command() {
        let parse = |line: &str| parse_line(line).map(|r| r.map(|l| l.command));
        assert_eq!(
            parse("note 101 alice pw watch the knight"),
            Some(Ok(Command::Note(Note {
                board: 101,
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "pw".into()
                },
                what: NoteWhat::Text("watch the knight".into()),
            })))
        );
        assert_eq!(
            parse("Note 101 clear"),
            Some(Ok(Command::Note(Note {
                board: 101,
                speaker: Speaker::Token,
                what: NoteWhat::Clear,
            })))
        );
        assert!(parse("Note that I am away next week.").is_none());
        assert!(parse("note").is_none());
        assert!(parse("note 101").is_some_and(|r| r.is_err()));
        assert!(parse("note 101 alice pw").is_some_and(|r| r.is_ok()));
    }
}
