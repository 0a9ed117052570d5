//! `undo <board> <userid> <password>`, or `undo` alone in a reply to a
//! board mail: asks the opponent to take back the last turn.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_and_login};

/// `undo <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
}

/// The usage the one-word board commands share (as `help` lists them).
const USAGE: &str = super::BOARD_ACTIONS;

impl MailCommand for Undo {
    const DEFINITION: Definition = Definition {
        words: &["undo"],
        forms: &[Form::new(USAGE, &[3], "undo 101 alice alice-pw")],
        in_reply: InReply::Bare,
        names_board: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Undo, CommandError> {
        let (board, speaker) = board_and_login(args, keyword, USAGE)?;
        Ok(Undo { board, speaker })
    }

    /// The word alone; what follows it on its line is a comment.
    fn in_reply(_rest: &str, board: u32) -> Option<Undo> {
        Some(Undo {
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
