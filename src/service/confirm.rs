//! Address confirmation. An address a player names (at `signup` or with
//! `address`) is only a claim until a mail from that address brings back
//! the code pbem sent it (`confirm <code>`, or simply a reply to the
//! confirmation mail, whose Subject is that command). Until then:
//!
//! * the address gets one short confirmation mail holding nothing the
//!   requester wrote, and at most one per [`CLAIM_LAPSE`] whoever asks
//!   (unless it asked itself: a mail from the address is answered);
//! * it gets no board mail, chat, notice or digest (it is no player's
//!   address: the store's `addresses` hold confirmed addresses only);
//! * it blocks nobody: another player, or its owner, may claim it too, and
//!   whoever's code comes back from it gets it; a claim lapses after
//!   [`CLAIM_LAPSE`].
//!
//! One inbound mail makes at most [`CONFIRMATIONS_PER_MAIL`] confirmation
//! mails in all, whatever its commands: a command that would make more is
//! refused whole. Wrong codes pause their sender address as wrong
//! passwords pause a userid (see `limits`): a forged sender gains nothing
//! by guessing, and the answers never tell whether a claim waits.

use rusqlite::Connection;
use time::{Duration, OffsetDateTime};

use super::{Failure, MailCtx, ServiceError, refuse};
use crate::mail::outgoing::Outgoing;
use crate::store::claims;
use crate::store::players::Player;

/// How long a claim waits for its confirmation.
pub const CLAIM_LAPSE: Duration = Duration::days(7);

/// The most addresses a player may have, confirmed and claimed together.
pub const MAX_ADDRESSES: usize = 4;

/// The most confirmation mails one inbound mail makes, across all its
/// commands: one mail cannot make pbem write to more strangers than this.
pub const CONFIRMATIONS_PER_MAIL: usize = 4;

/// Records `player`'s claims on the `addresses` it does not hold yet, and
/// returns the confirmation mails to send; refused, changing nothing,
/// when the mail would make more than [`CONFIRMATIONS_PER_MAIL`] of them.
pub(super) fn claim(
    ctx: &mut MailCtx<'_>,
    player: &Player,
    addresses: &[String],
) -> Result<Vec<Outgoing>, Failure> {
    let since = ctx.now - CLAIM_LAPSE;
    // First which addresses are claimed and mailed, then the writes: a
    // command over the limit leaves no claim behind.
    let mut planned: Vec<(&String, bool)> = Vec::new();
    for address in addresses {
        if player.owns_address(address) {
            continue;
        }
        let asked_itself = address.eq_ignore_ascii_case(ctx.sender);
        // A claim made again keeps its code (its mail may be on the way),
        // unless the address asks itself: then it gets a new mail.
        if !asked_itself && claims::claimed_by(ctx.conn, address, player.id, since)? {
            continue;
        }
        let mailed = asked_itself || !claims::mailed_since(ctx.conn, address, since)?;
        planned.push((address, mailed));
    }
    let to_mail = planned.iter().filter(|(_, mailed)| *mailed).count();
    let total = ctx.accounts.confirmation_mails.saturating_add(to_mail);
    if total > CONFIRMATIONS_PER_MAIL {
        return Err(refuse(
            format!(
                "one mail sends at most {CONFIRMATIONS_PER_MAIL} confirmation mails, and this command would make it {total}; nothing of it was done: name the other addresses in another mail"
            ),
            None,
        ));
    }
    ctx.accounts.confirmation_mails = total;
    let mut mails = Vec::new();
    for (address, mailed) in planned {
        let code = new_code()?;
        claims::claim(ctx.conn, address, player.id, &code, mailed, ctx.now)?;
        if mailed {
            mails.push(confirmation_mail(ctx, address, &code)?);
        }
    }
    Ok(mails)
}

/// The one mail an unconfirmed address gets: the code, and nothing of the
/// requester's (no userid, no text).
fn confirmation_mail(ctx: &MailCtx<'_>, address: &str, code: &str) -> Result<Outgoing, Failure> {
    let text = format!(
        "pbem, the play-by-email chess server at {server}, was asked to send a player's mail to this address ({address}).\n\n\
         If you asked for it, reply to this mail without changing its subject, or write to {server} a mail with the line:\n  confirm {code}\n\
         The code is valid for {days}.\n\n\
         If you did not ask for it, ignore this mail: pbem writes to this address again only when it confirms.",
        server = ctx.config.address,
        days = crate::render::count(CLAIM_LAPSE.whole_days(), "day"),
    );
    let mut mail = ctx.notice(vec![address.to_string()], "", &text)?;
    mail.subject = format!("confirm {code}");
    Ok(mail)
}

/// Stores the outcomes of a mail's `confirm` commands for the sender
/// `address`: outside the commands' savepoints, since a wrong code is a
/// refused command and must still count.
pub(super) fn record_outcomes(
    conn: &Connection,
    address: &str,
    outcomes: &[bool],
    now: OffsetDateTime,
) -> Result<(), ServiceError> {
    let wrong = outcomes.iter().filter(|right| !**right).count();
    if wrong > 0 {
        claims::codes_failed(conn, address, u32::try_from(wrong).unwrap_or(u32::MAX), now)?;
    }
    if outcomes.iter().any(|right| *right) {
        claims::code_succeeded(conn, address)?;
    }
    Ok(())
}

/// The player's confirmed addresses and pending claims together stay
/// within [`MAX_ADDRESSES`].
pub(super) fn check_count(addresses: &[String]) -> Result<(), Failure> {
    if addresses.len() > MAX_ADDRESSES {
        return Err(refuse(
            format!(
                "a player may have at most {MAX_ADDRESSES} addresses; you gave {}",
                addresses.len()
            ),
            None,
        ));
    }
    Ok(())
}

/// A confirmation code: 10 random letters and digits (about 50 bits; the
/// code only matters together with a mail from the address itself).
fn new_code() -> Result<String, Failure> {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut random = [0u8; 10];
    getrandom::fill(&mut random)
        .map_err(|e| Failure::Fatal(super::ServiceError::Random(e.to_string())))?;
    Ok(random
        .iter()
        .map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()]))
        .collect())
}
