//! The act of `confirm`: the sender's address confirms a claim on it.

use super::{Act, Asked};
use crate::command::confirm::Confirm;
use crate::mail::outgoing::Outgoing;
use crate::service::confirm::CLAIM_LAPSE;
use crate::service::{Failure, MailCtx, limits, refuse};
use crate::store::players::{self};
use crate::store::claims;

/// `confirm <code>`: the sender's address joins the addresses of the
/// player whose claim has this code.
impl Act for Confirm {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        let code = self.code.as_str();

        let address = ctx.sender.to_string();
        let wrong_here = ctx
            .accounts
            .code_outcomes
            .iter()
            .filter(|right| !**right)
            .count();
        let wrong_here = u32::try_from(wrong_here).unwrap_or(u32::MAX);
        let stored = claims::code_failures(ctx.conn, &address)?;
        if let Some(until) = limits::pause_after(stored, wrong_here, ctx.now) {
            return Err(refuse(
                format!(
                    "too many wrong confirmation codes from {address}: codes from it are read again after {}",
                    crate::render::readable_time(until)
                ),
                None,
            ));
        }
        let claimant = claims::claimant(ctx.conn, &address, code, ctx.now - CLAIM_LAPSE)?;
        ctx.accounts.code_outcomes.push(claimant.is_some());
        let Some(player_id) = claimant else {
            return Err(refuse(
                format!(
                    "no confirmation with this code is waiting for {address}; codes are valid for {}, and only a mail from the address itself confirms it",
                    crate::render::count(CLAIM_LAPSE.whole_days(), "day")
                ),
                None,
            ));
        };
        if players::address_owner(ctx.conn, &address)?.is_some() {
            claims::drop_address(ctx.conn, &address)?;
            return Err(refuse(
                format!("{address} is registered to a player already"),
                None,
            ));
        }
        let before = players::by_id(ctx.conn, player_id)?;
        players::add_address(ctx.conn, player_id, &address)?;
        claims::drop_address(ctx.conn, &address)?;
        ctx.accounts.confirmed_for = Some(player_id);
        let player = players::by_id(ctx.conn, player_id)?;
        if before.addresses.is_empty() {
            let text = format!(
                "Welcome to pbem, {}! You play from {address}.\n\nChallenge someone with, for example:\n  chess2 challenge {} <password> <opponent>\nSend \"help\" for every command and \"help variants\" for the games.",
                player.userid, player.userid
            );
            return Ok(vec![ctx.notice(
                vec![address],
                &format!("pbem signup {}", player.userid),
                &text,
            )?]);
        }
        let text = format!(
            "{address} is now an address of {}; board mail goes to {}.",
            player.userid,
            player.mail_address()
        );
        Ok(vec![ctx.notice(
            player.addresses.clone(),
            "pbem address confirmed",
            &text,
        )?])
    }
}
