//! `decline <board> <userid> <password>`, or `decline` alone in a reply to a
//! board mail: declines a challenge before making a move.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_and_login};

/// `decline <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decline {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
}

/// The usage the one-word board commands share (as `help` lists them).
const USAGE: &str = super::BOARD_ACTIONS;

impl MailCommand for Decline {
    const DEFINITION: Definition = Definition {
        words: &["decline"],
        forms: &[Form::new(USAGE, &[3], "decline 101 alice alice-pw")],
        in_reply: InReply::Bare,
        names_board: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Decline, CommandError> {
        let (board, speaker) = board_and_login(args, keyword, USAGE)?;
        Ok(Decline { board, speaker })
    }

    /// The word alone; what follows it on its line is a comment.
    fn in_reply(_rest: &str, board: u32) -> Option<Decline> {
        Some(Decline {
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
