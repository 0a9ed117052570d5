//! `resign <board> <userid> <password>`, or `resign` alone in a reply to a
//! board mail: gives up the game.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_and_login};

/// `resign <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resign {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
}

/// The usage the one-word board commands share (as `help` lists them).
const USAGE: &str = super::BOARD_ACTIONS;

impl MailCommand for Resign {
    const DEFINITION: Definition = Definition {
        words: &["resign"],
        forms: &[Form::new(USAGE, &[3], "resign 101 alice alice-pw")],
        in_reply: InReply::Bare,
        names_board: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Resign, CommandError> {
        let (board, speaker) = board_and_login(args, keyword, USAGE)?;
        Ok(Resign { board, speaker })
    }

    /// The word alone; what follows it on its line is a comment.
    fn in_reply(_rest: &str, board: u32) -> Option<Resign> {
        Some(Resign {
            board,
            speaker: Speaker::Token,
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
