//! The act of `unsubscribe`: by password, the player's addresses stop
//! following the board; an address written out may only unsubscribe
//! itself.

use super::{Act, Asked};
use crate::command::Subscriber;
use crate::command::unsubscribe::Unsubscribe;
use crate::domain::BoardNumber;
use crate::mail::outgoing::Outgoing;
use crate::service::board_mail::load;
use crate::service::{Failure, MailCtx, refuse};
use crate::store::boards;

impl Act for Unsubscribe {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let number = BoardNumber(self.board);
        let loaded = load(ctx, number)?;
        let addresses = match &self.subscriber {
            Subscriber::Player(speaker) => ctx.speaker(speaker, None, Some(number))?.addresses,
            Subscriber::Address(address) => {
                if !address.eq_ignore_ascii_case(ctx.sender) {
                    return Err(refuse(
                        format!(
                            "an address can only unsubscribe itself: write from {address}, or give your userid and password"
                        ),
                        Some(number),
                    ));
                }
                vec![address.clone()]
            }
        };
        let mut removed = false;
        for address in &addresses {
            removed |= boards::remove_observer(ctx.conn, number, address)?;
        }
        if !removed {
            return Err(refuse(
                format!("{} does not follow board {number}", addresses.join(", ")),
                Some(number),
            ));
        }
        let variant = loaded.board.variant.display_name();
        let subject = format!("{variant} Board {number} unsubscribed");
        let text = format!(
            "{} no longer receives the mails of board {number}.",
            addresses.join(", ")
        );
        Ok(vec![ctx.notice_to_sender(&subject, &text)?])
    }
}
