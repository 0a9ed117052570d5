//! The act of `address`: the speaker's addresses; each new one confirms
//! first.

use super::{Act, Asked};
use crate::command::SetAddresses;
use crate::mail::outgoing::Outgoing;
use crate::service::account::{account_notice_recipients, check_addresses};
use crate::service::{Failure, MailCtx, confirm};
use crate::store::players::{self};
use crate::store::claims;

impl Act for SetAddresses {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let player = ctx.speaker(&self.speaker, asked.token, None)?;
        let addresses = check_addresses(ctx, &self.addresses, Some(player.id))?;
        confirm::check_count(&addresses)?;
        let kept: Vec<String> = addresses
            .iter()
            .filter(|a| player.owns_address(a))
            .cloned()
            .collect();
        let claimed: Vec<String> = addresses
            .iter()
            .filter(|a| !player.owns_address(a))
            .cloned()
            .collect();
        // Addresses left out go at once, unless that would leave the player
        // none: then they stay until the player sends `address` again.
        if !kept.is_empty() {
            players::set_addresses(ctx.conn, player.id, &kept)?;
        }
        claims::withdraw_claims_except(ctx.conn, player.id, &claimed)?;
        let mut mails = confirm::claim(ctx, &player, &claimed)?;
        let now_from = if kept.is_empty() {
            player.addresses.clone()
        } else {
            kept.clone()
        };
        let mut text = format!(
            "The addresses of {} were changed by a mail from {}. {} plays from {}; board mail goes to {}.",
            player.userid,
            ctx.sender,
            player.userid,
            now_from.join(", "),
            now_from.first().map_or("nobody", String::as_str),
        );
        // What bounces showed of each address; an address that bounced and
        // was left out no longer stops the clocks.
        let now_player = players::by_id(ctx.conn, player.id)?;
        if !now_player.all_failing() {
            crate::service::bounces::end_pause(ctx.conn, player.id, ctx.now)?;
        }
        text.push_str(&format!(
            "\n\nDelivery:\n{}",
            crate::service::bounces::address_lines(ctx.conn, &now_player)?
        ));
        if !claimed.is_empty() {
            text.push_str(&format!(
                "\n\nA confirmation code goes to {} (at most one such mail a week to an address; if it does not come, send the command from the address itself); each joins when it replies.",
                claimed.join(", ")
            ));
        }
        mails.push(ctx.notice(
            account_notice_recipients(ctx, &player),
            "pbem addresses changed",
            &text,
        )?);
        Ok(mails)
    }
}
