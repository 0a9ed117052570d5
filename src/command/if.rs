//! `if`: conditional moves (issue 26). One line of "if they play X, I
//! answer Y" turns, or `clear`; checked and stored by the service
//! (`service::commands::if`, matched by `service::conditional`) with
//! `pbem-conditional`.

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, board_number, credentials, error,
};
use crate::rules::notation::parse_turn;

/// `if <board> <userid> <password> <their turn> <my turn> [...]`, `if
/// <board> <userid> <password> clear`; in a reply to a board mail `if
/// <turns...>` or `if clear`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct If {
    pub board: u32,
    pub speaker: Speaker,
    pub what: IfWhat,
}

/// What an `if` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IfWhat {
    /// One line as written: the opponent's turn, the answer, and so on.
    Line(String),
    /// Drop every line of the player on the board.
    Clear,
}

const USAGE: &str = "if <board> <userid> <password> <their turn> <my turn> [<their turn> <my turn> ...], or if <board> <userid> <password> clear (in a reply to a board mail: if <their turn> <my turn> ..., or if clear, if cancel, if none, if stop)";

impl MailCommand for If {
    const DEFINITION: Definition = Definition {
        words: &["if"],
        forms: &[
            Form::new(USAGE, &[3], "if 101 alice alice-pw e5 Nf3"),
            Form::new(USAGE, &[3], "if 101 alice alice-pw clear"),
        ],
        in_reply: InReply::Bare,
        names_board: true,
        game_action: true,
        fixed: &["clear", "cancel", "none", "stop"],
    };

    /// The words after `if` are prose (`If you agree, ...`) unless they
    /// begin with a board number, a turn or `clear`: such a line is a
    /// comment, not a command. A line whose next word is a turn or `clear`
    /// is a malformed command (the board is missing), so that lines are
    /// never passed on as a comment.
    fn is_prose(args: &[&str]) -> bool {
        args.first().is_none_or(|first| {
            first.trim_start_matches('#').parse::<u32>().is_err() && !begins_like_a_line(first)
        })
    }

    fn parse(keyword: &str, args: &[&str]) -> Result<If, CommandError> {
        if args
            .first()
            .is_none_or(|first| first.trim_start_matches('#').parse::<u32>().is_err())
        {
            return Err(error(
                keyword,
                "the board number is missing (only a reply to a board mail may leave out board, userid and password)",
                USAGE,
            ));
        }
        let board = board_number(args.first(), keyword, USAGE)?;
        let (userid, password, rest) = credentials(&args[1..], keyword, USAGE)?;
        let what = IfWhat::of(&rest.join(" "))
            .ok_or_else(|| error(keyword, "the line is missing", USAGE))?;
        Ok(If {
            board,
            speaker: Speaker::Password { userid, password },
            what,
        })
    }

    /// `if <turns...>`, or `if clear` (also `if cancel`, `if none`, `if
    /// stop`: a reply's words for dropping the lines); `If you agree, ...`
    /// is prose. A line that begins like one but cannot be read is still
    /// the command, refused by the service: it never passes on as chat.
    fn in_reply(rest: &str, board: u32) -> Option<If> {
        let what = if clears(rest) {
            IfWhat::Clear
        } else if begins_like_a_line(rest.split_whitespace().next().unwrap_or("")) {
            IfWhat::of(rest)?
        } else {
            return None;
        };
        Some(If {
            board,
            speaker: Speaker::Token,
            what,
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}

/// Whether the first word after `if` begins a line or `clear`: a turn
/// (`e5`, `e5,d5`) or a move number (`12.`, `12...Nf6`, `...`). Prose
/// (`If you agree`) does not.
pub fn begins_like_a_line(first: &str) -> bool {
    let first = first.trim();
    first.eq_ignore_ascii_case("clear")
        || parse_turn(first.trim_end_matches([',', ';'])).is_ok_and(|moves| !moves.is_empty())
        || (first.starts_with(|c: char| c.is_ascii_digit()) && first.contains('.'))
        || first.starts_with("...")
}

/// The words that drop every line of the sender on the board, each the
/// whole of what follows `if` (sentence punctuation aside): `clear`, and in
/// a reply also `cancel`, `none` and `stop`, as players write it.
const CLEARING: [&str; 4] = ["clear", "cancel", "none", "stop"];

/// Whether `rest` is one of the [`CLEARING`] words alone.
fn clears(rest: &str) -> bool {
    let word = rest.trim().trim_end_matches(['.', '!', ',', ';']);
    CLEARING
        .iter()
        .any(|clearing| word.eq_ignore_ascii_case(clearing))
}

impl IfWhat {
    /// The words after the board (and login): `clear`, or a line; `None`
    /// when there are none.
    pub fn of(rest: &str) -> Option<IfWhat> {
        let rest = rest.trim();
        if rest.is_empty() {
            None
        } else if clears(rest) {
            Some(IfWhat::Clear)
        } else {
            Some(IfWhat::Line(rest.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{Command, parse_line};

    #[test]
    fn full_lines_and_clear_parse_and_prose_is_no_command() {
        let Some(Ok(line)) = parse_line("if 101 alice pw e5 Nf3 Nc6 Bb5") else {
            panic!("a line");
        };
        assert_eq!(
            line.command,
            Command::If(If {
                board: 101,
                speaker: Speaker::Password {
                    userid: "alice".into(),
                    password: "pw".into()
                },
                what: IfWhat::Line("e5 Nf3 Nc6 Bb5".into()),
            })
        );
        let Some(Ok(line)) = parse_line("IF 101 alice pw Clear") else {
            panic!("clear");
        };
        assert!(matches!(
            line.command,
            Command::If(If {
                what: IfWhat::Clear,
                ..
            })
        ));
        assert!(parse_line("If you agree, let us play on").is_none());
        assert!(parse_line("if e5 Nf3").is_some_and(|r| r.is_err()));
        assert!(parse_line("if 101 alice pw").is_some_and(|r| r.is_err()));
    }
}
