//! The act of `subscribe`: the player's registered (so confirmed) address
//! follows the board.

use super::{Act, Asked};
use crate::command::subscribe::Subscribe;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::play::load_to_read;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards;

impl Act for Subscribe {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let (loaded, _) = load_to_read(ctx, number)?;
        let player = ctx.speaker(&self.speaker, None, Some(number))?;
        let address = player.mail_address().to_string();
        if address.is_empty() {
            return Err(refuse(
                "you have no confirmed address yet to send the board's mails to",
                Some(number),
            ));
        }
        boards::add_observer(ctx.conn, number, &address)?;
        let variant = loaded.board.variant.display_name();
        let subject = format!("{variant} Board {number} subscribed");
        let text = format!("{address} now receives every mail of board {number}.");
        Ok(vec![ctx.notice_to_sender(&subject, &text)?])
    }
}
