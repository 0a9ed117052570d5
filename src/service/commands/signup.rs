//! The act of `signup`: a reserved userid whose address must confirm
//! before the account exists.

use super::{Act, Asked};
use crate::command::Signup;
use crate::mail::outgoing::Outgoing;
use crate::service::account::{check_addresses, check_new_password, reservation_of, valid_userid};
use crate::service::{Failure, MailCtx, confirm, refuse};
use crate::store::claims;
use crate::store::players::{self};

impl Act for Signup {
    fn act(&self, ctx: &mut MailCtx<'_>, _asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        // A person needs one account: a mail of many signups would only
        // reserve userids and mail strangers.
        ctx.accounts.signups = ctx.accounts.signups.saturating_add(1);
        if ctx.accounts.signups > 1 {
            return Err(refuse(
                "pbem acts on one signup per mail, the first; send this one in a mail of its own",
                None,
            ));
        }
        if !valid_userid(&self.userid) {
            return Err(refuse(
                format!(
                    "\"{}\" cannot be a userid: use 2 to 24 letters, digits, '_', '-' or '.'",
                    self.userid
                ),
                None,
            ));
        }
        check_new_password(ctx, &self.password)?;
        let reserved = reservation_of(ctx, self)?;
        let addresses = if self.addresses.is_empty() {
            vec![ctx.sender.to_string()]
        } else {
            self.addresses.clone()
        };
        let addresses = check_addresses(ctx, &addresses, reserved.as_ref().map(|p| p.id))?;
        confirm::check_count(&addresses)?;
        let player = match reserved {
            Some(player) => {
                // Signed up again: the addresses of this signup replace the
                // earlier ones.
                claims::withdraw_claims_except(ctx.conn, player.id, &addresses)?;
                player
            }
            None => {
                let hash = ctx
                    .passwords
                    .new_hash(&self.password)
                    .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
                // The player starts without addresses, its userid only
                // reserved: the account exists once an address confirms (until
                // then it cannot log in, and others cannot see it).
                let id = players::insert(ctx.conn, &self.userid, &hash, &[], ctx.now)?;
                players::by_id(ctx.conn, id)?
            }
        };
        let mut mails = confirm::claim(ctx, &player, &addresses)?;
        // A sender who named its own address has its answer in the
        // confirmation mail; another sender is told where the codes went.
        if !addresses.iter().any(|a| a.eq_ignore_ascii_case(ctx.sender)) {
            let text = format!(
                "The userid {} is reserved for you; the account exists once an address of it confirms by replying to its confirmation mail, and until then it cannot play. Each new address gets a confirmation code ({}; at most one such mail a week to an address, so if it does not come, send the command from the address itself). A reservation no address confirms lapses after {}; until then the same signup with the same password sends a code again or names other addresses.",
                self.userid,
                addresses.join(", "),
                crate::render::count(confirm::CLAIM_LAPSE.whole_days(), "day")
            );
            mails.push(ctx.notice_to_sender(&format!("pbem signup {}", self.userid), &text)?);
        }
        Ok(mails)
    }
}
