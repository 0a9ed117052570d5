//! `queue <board> <userid> <password> <turn>`, or `queue <turn>` in a
//! reply to a board mail: a turn played after the opponent's next one, if
//! it is legal then.

use super::{CommandError, Definition, Form, InReply, MailCommand, Speaker, board_login_turn};
use crate::command::reading::turn_text;

/// `queue <board> <userid> <password> <turn>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queue {
    pub board: u32,
    pub speaker: Speaker,
    pub turn: String,
}

const USAGE: &str = "queue <board> <userid> <password> <turn>";

impl MailCommand for Queue {
    const DEFINITION: Definition = Definition {
        words: &["queue"],
        forms: &[Form::new(USAGE, &[3], "queue 101 alice alice-pw Nf3")],
        in_reply: InReply::Bare,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Queue, CommandError> {
        let (board, speaker, turn) = board_login_turn(args, keyword, USAGE)?;
        Ok(Queue {
            board,
            speaker,
            turn,
        })
    }

    fn in_reply(rest: &str, board: u32) -> Option<Queue> {
        (!rest.is_empty()).then(|| Queue {
            board,
            speaker: Speaker::Token,
            turn: turn_text(rest),
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
