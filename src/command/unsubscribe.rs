//! `unsubscribe <board> <userid> <password>`, or
//! `unsubscribe <board> <address>` from that very address: the board's
//! mails stop.

use super::{
    CommandError, Definition, Form, InReply, MailCommand, SUBSCRIPTIONS, Speaker, board_number,
    error,
};

/// `unsubscribe <board> <userid> <password>` or
/// `unsubscribe <board> <address>`
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsubscribe {
    pub board: u32,
    pub subscriber: Subscriber,
}

/// Who unsubscribes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subscriber {
    /// A player, by password.
    Player(Speaker),
    /// An address written out (only from itself).
    Address(String),
}

impl MailCommand for Unsubscribe {
    const DEFINITION: Definition = Definition {
        words: &["unsubscribe"],
        forms: &[
            Form::new(SUBSCRIPTIONS, &[3], "unsubscribe 101 ann ann-pw"),
            Form::new(SUBSCRIPTIONS, &[], "unsubscribe 101 ann@example.org"),
        ],
        in_reply: InReply::Full,
        names_board: true,
        game_action: false,
        fixed: &[],
    };

    fn parse(keyword: &str, args: &[&str]) -> Result<Unsubscribe, CommandError> {
        let board = board_number(args.first(), keyword, SUBSCRIPTIONS)?;
        let subscriber = match &args[1..] {
            [address] if address.contains('@') => Subscriber::Address(address.to_string()),
            [userid, password] => Subscriber::Player(Speaker::Password {
                userid: userid.to_string(),
                password: password.to_string(),
            }),
            _ => {
                return Err(error(
                    keyword,
                    "give a board number, your userid and your password",
                    SUBSCRIPTIONS,
                ));
            }
        };
        Ok(Unsubscribe { board, subscriber })
    }

    fn board(&self) -> Option<u32> {
        Some(self.board)
    }

    fn speaker(&self) -> Option<&Speaker> {
        match &self.subscriber {
            Subscriber::Player(speaker) => Some(speaker),
            Subscriber::Address(_) => None,
        }
    }
}
