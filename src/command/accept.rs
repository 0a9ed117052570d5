//! `accept <board> <userid> <password>`, or `accept` alone in a reply to a
//! board mail: accepts the opponent's standing draw or undo offer, or the challenge waiting for the speaker.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_and_login};

/// `accept <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accept {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
}

/// The usage the one-word board commands share (as `help` lists them).
const USAGE: &str = super::BOARD_ACTIONS;

impl MailCommand for Accept {
    const DEFINITION: Definition = Definition {
        words: &["accept"],
        forms: &[Form::new(USAGE, &[3], "accept 101 alice alice-pw")],
        in_reply: InReply::Bare,
        names_board: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Accept, CommandError> {
        let (board, speaker) = board_and_login(args, keyword, USAGE)?;
        Ok(Accept { board, speaker })
    }

    /// The word alone; what follows it on its line is a comment.
    fn in_reply(_rest: &str, board: u32) -> Option<Accept> {
        Some(Accept {
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
