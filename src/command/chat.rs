//! `chat <board> <userid> <password> <text>`: a message to the opponent
//! and the board's subscribers, without a turn. In a reply to a board mail
//! the comment is the chat.

use super::{
    CommandError, Definition, Form, InReply, MailCommand, Speaker, board_number, credentials, error,
};

/// `chat <board> <userid> <password> <text>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chat {
    pub board: u32,
    pub speaker: Speaker,
    pub text: String,
}

const USAGE: &str = "chat <board> <userid> <password> <text>";

impl MailCommand for Chat {
    const DEFINITION: Definition = Definition {
        words: &["chat"],
        forms: &[Form::new(USAGE, &[3], "chat 101 alice alice-pw good luck")],
        in_reply: InReply::Comment,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Chat, CommandError> {
        let board = board_number(args.first(), keyword, USAGE)?;
        let (userid, password, rest) = credentials(&args[1..], keyword, USAGE)?;
        if rest.is_empty() {
            return Err(error(keyword, "the message is missing", USAGE));
        }
        Ok(Chat {
            board,
            speaker: Speaker::Password { userid, password },
            text: rest.join(" "),
        })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
