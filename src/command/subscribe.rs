//! `subscribe <board> <userid> <password>`: the player's (confirmed)
//! addresses follow the board: its board mails, chat and comments.

use super::{
    CommandError, Definition, Form, InReply, MailCommand, SUBSCRIPTIONS, Speaker, board_number,
    error,
};

/// `subscribe <board> <userid> <password>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subscribe {
    pub board: u32,
    pub speaker: Speaker,
}

impl MailCommand for Subscribe {
    const DEFINITION: Definition = Definition {
        words: &["subscribe"],
        forms: &[Form::new(SUBSCRIPTIONS, &[3], "subscribe 101 ann ann-pw")],
        in_reply: InReply::Full,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Subscribe, CommandError> {
        let board = board_number(args.first(), keyword, SUBSCRIPTIONS)?;
        match &args[1..] {
            [address] if address.contains('@') => Err(error(
                keyword,
                "a subscription needs your userid and password (it follows the board at your registered address)",
                SUBSCRIPTIONS,
            )),
            [userid, password] => Ok(Subscribe {
                board,
                speaker: Speaker::Password {
                    userid: userid.to_string(),
                    password: password.to_string(),
                },
            }),
            _ => Err(error(
                keyword,
                "give a board number, your userid and your password",
                SUBSCRIPTIONS,
            )),
        }
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        Some(&self.speaker)
    }
}
