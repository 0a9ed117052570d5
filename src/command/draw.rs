//! `draw <board> <userid> <password>`, or `draw` alone in a reply to a
//! board mail: offers a draw, accepts the opponent's offer, or claims one (threefold repetition, the 50-move rule).

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_and_login};

/// `draw <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    /// 0 in a reply: the reply's board.
    pub board: u32,
    pub speaker: Speaker,
}

/// The usage the one-word board commands share (as `help` lists them).
const USAGE: &str = super::BOARD_ACTIONS;

impl MailCommand for Draw {
    const DEFINITION: Definition = Definition {
        words: &["draw"],
        forms: &[Form::new(USAGE, &[3], "draw 101 alice alice-pw")],
        in_reply: InReply::Bare,
        names_board: true,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Draw, CommandError> {
        let (board, speaker) = board_and_login(args, keyword, USAGE)?;
        Ok(Draw { board, speaker })
    }

    /// The word alone; what follows it on its line is a comment.
    fn in_reply(_rest: &str, board: u32) -> Option<Draw> {
        Some(Draw {
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
