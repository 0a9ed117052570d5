//! The act of `chat`: a message under the board, which the opponent and
//! the board's subscribers read in the board mail it brings.

use super::{Act, Asked};
use crate::command::Chat;
use crate::command::reading::COMMENT_CHARS;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::{self, Occasion, load};
use crate::service::{Failure, MailCtx, refuse};
use crate::store::{boards, players};

/// The longest chat message (one line of a mail).
const MAX_CHAT_CHARS: usize = 1_000;

impl Act for Chat {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        if self.text.chars().count() > MAX_CHAT_CHARS {
            return Err(refuse(
                format!("a chat message may have up to {MAX_CHAT_CHARS} characters"),
                Some(number),
            ));
        }
        let player = ctx.speaker(&self.speaker, asked.token, Some(number))?;
        let loaded = load(ctx, number)?;
        if loaded.board.color_of(player.id).is_none() {
            return Err(refuse(
                format!("{} does not play on board {number}", player.userid),
                Some(number),
            ));
        }
        // A challenge is no way to write to a stranger.
        if let Some(challenge) = boards::unaccepted(ctx.conn, number)?
            && challenge.challenged != player.id
        {
            let challenged = players::by_id(ctx.conn, challenge.challenged)?.userid;
            return Err(refuse(
                format!(
                    "{challenged} has not accepted the challenge of board {number}; chat reaches {challenged} once {challenged} has accepted it"
                ),
                Some(number),
            ));
        }
        // Chat is a comment under the board: the other player and the
        // observers read it in the board mail it brings.
        let text: String = self.text.chars().take(COMMENT_CHARS).collect();
        boards::add_comment(
            ctx.conn,
            number,
            Some(player.id),
            loaded.turns.len() as u32,
            &text,
            ctx.now,
        )?;
        Ok(board_mail::board_mails(ctx, number, Occasion::Comment)?)
    }
}
