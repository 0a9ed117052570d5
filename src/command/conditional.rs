//! `if`: conditional moves (issue 26). One line of "if they play X, I
//! answer Y" turns, or `clear`; checked and stored by the service
//! (`service::conditional`) with `pbem-conditional`.

use super::{Command, CommandError, Speaker, board_number, credentials, error};
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

pub(super) const IF: &str = "if <board> <userid> <password> <their turn> <my turn> [<their turn> <my turn> ...], or if <board> <userid> <password> clear (in a reply to a board mail: if <their turn> <my turn> ..., or if clear)";

/// The `if` of a full line. `None` when the words after `if` are prose
/// (`If you agree, ...`): such a line is a comment, not a command; a line
/// whose next word is a turn or `clear` is a malformed command (the board
/// is missing), so that lines are never passed on as a comment.
pub(super) fn parse(args: &[&str]) -> Option<Result<Command, CommandError>> {
    let first = args.first()?;
    if first.trim_start_matches('#').parse::<u32>().is_err() {
        return begins_like_a_line(first).then(|| {
            Err(error(
                "if",
                "the board number is missing (only a reply to a board mail may leave out board, userid and password)",
                IF,
            ))
        });
    }
    Some(full(args))
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

fn full(args: &[&str]) -> Result<Command, CommandError> {
    let board = board_number(args.first(), "if", IF)?;
    let (userid, password, rest) = credentials(&args[1..], "if", IF)?;
    let what = IfWhat::of(&rest.join(" ")).ok_or_else(|| error("if", "the line is missing", IF))?;
    Ok(Command::If(If {
        board,
        speaker: Speaker::Password { userid, password },
        what,
    }))
}

impl IfWhat {
    /// The words after the board (and login): `clear`, or a line; `None`
    /// when there are none.
    pub fn of(rest: &str) -> Option<IfWhat> {
        let rest = rest.trim();
        if rest.is_empty() {
            None
        } else if rest.eq_ignore_ascii_case("clear") {
            Some(IfWhat::Clear)
        } else {
            Some(IfWhat::Line(rest.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::parse_line;

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
