//! `show <board>[#<turn>] [compact]`: a board now, or as it was when a
//! turn was to be played; `show` alone in a reply to a board mail.

use super::{CommandError, Definition, Form, InReply, MailCommand, board_number, error};

/// `show <board>[#<turn>] [compact]`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Show {
    pub board: u32,
    /// Show the position when turn #n was to be played (board mails
    /// number turns so) instead of now.
    pub turn: Option<u32>,
    pub compact: bool,
}

const USAGE: &str = "show <board>[#<turn number>] [compact]";

impl MailCommand for Show {
    const DEFINITION: Definition = Definition {
        words: &["show"],
        forms: &[Form::new(USAGE, &[], "show 101#3")],
        in_reply: InReply::Bare,
        names_board: true,
        game_action: false,
        fixed: &["compact"],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Show, CommandError> {
        let (board_word, turn) = match args.first() {
            Some(word) => match word.split_once('#') {
                Some((board, turn)) => {
                    let turn = turn.parse().map_err(|_| {
                        error(keyword, &format!("\"{turn}\" is not a turn number"), USAGE)
                    })?;
                    (board, Some(turn))
                }
                None => (*word, None),
            },
            None => return Err(error(keyword, "the board number is missing", USAGE)),
        };
        let board = board_number(Some(&board_word), keyword, USAGE)?;
        let compact = match &args[1..] {
            [] => false,
            [word] if word.eq_ignore_ascii_case("compact") => true,
            _ => {
                return Err(error(
                    keyword,
                    "unexpected words after the board number",
                    USAGE,
                ));
            }
        };
        Ok(Show {
            board,
            turn,
            compact,
        })
    }

    fn in_reply(rest: &str, board: u32) -> Option<Show> {
        rest.is_empty().then_some(Show {
            board,
            turn: None,
            compact: false,
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }
}
