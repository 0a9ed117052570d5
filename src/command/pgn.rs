//! `pgn <board>`: a board's game as PGN; `pgn` alone in a reply to a
//! board mail.

use super::{CommandError, Definition, Form, InReply, MailCommand, only_board};

/// `pgn <board>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pgn {
    pub board: u32,
}

const USAGE: &str = "pgn <board>";

impl MailCommand for Pgn {
    const DEFINITION: Definition = Definition {
        words: &["pgn"],
        forms: &[Form::new(USAGE, &[], "pgn 101")],
        in_reply: InReply::Bare,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Pgn, CommandError> {
        Ok(Pgn {
            board: only_board(args, keyword, USAGE)?,
        })
    }

    fn in_reply(rest: &str, board: u32) -> Option<Pgn> {
        rest.is_empty().then_some(Pgn { board })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }
}
