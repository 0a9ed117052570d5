//! `history <board>`: a board's move list.

use super::{CommandError, Definition, Form, InReply, MailCommand, only_board};

/// `history <board>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    pub board: u32,
}

const USAGE: &str = "history <board>";

impl MailCommand for History {
    const DEFINITION: Definition = Definition {
        words: &["history"],
        forms: &[Form::new(USAGE, &[], "history 101")],
        in_reply: InReply::Full,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<History, CommandError> {
        Ok(History {
            board: only_board(args, keyword, USAGE)?,
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }
}
