//! The act of `password`: a new password for the speaker (proven by the
//! old password, a reply token, or the one-time address of a reset mail),
//! or a reset mail to the confirmed addresses of a player.
//!
//! A reset mail goes to the player's confirmed addresses only, never to
//! whoever asked, at most one a player a day whoever asks; its reply
//! address is valid a day and for one use (a stored reset, see
//! `mail::token`). Whoever asks gets the same answer whether the userid
//! exists or not, and whether a mail went or not.

use time::Duration;

use super::{Act, Asked};
use crate::command::{Password, Speaker};
use crate::mail::outgoing::Outgoing;
use crate::service::account::{account_notice_recipients, check_new_password};
use crate::service::{Failure, MailCtx, refuse};
use crate::store::players::{self, Player};
use crate::store::resets;

/// How long a reset mail's address is valid, and how often a player gets
/// one.
const RESET_VALID: Duration = Duration::DAY;

impl Act for Password {
    fn act(&self, ctx: &mut MailCtx<'_>, asked: Asked) -> Result<Vec<Outgoing>, Failure> {
        match self {
            Password::Change { speaker, new } => change(ctx, asked, speaker, new),
            Password::Reset { userid } => reset(ctx, userid),
        }
    }
}

fn change(
    ctx: &mut MailCtx<'_>,
    asked: Asked,
    speaker: &Speaker,
    new: &str,
) -> Result<Vec<Outgoing>, Failure> {
    let player = match (speaker, asked.token, ctx.reset_token()) {
        (Speaker::Token, None, Some((reset, player))) => by_reset(ctx, reset, player)?,
        _ => ctx.speaker(speaker, asked.token, None)?,
    };
    check_new_password(ctx, new)?;
    let hash = ctx
        .passwords
        .new_hash(new)
        .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
    players::set_password_hash(ctx.conn, player.id, &hash)?;
    let text = format!(
        "The password of {} was changed by a mail from {}. If that was not you, change it back at once with: password {} <new password> <another password>",
        player.userid, ctx.sender, player.userid
    );
    Ok(vec![ctx.notice(
        account_notice_recipients(ctx, &player),
        "pbem password changed",
        &text,
    )?])
}

/// The player a reply to reset mail `reset` speaks for: unused, a day old
/// at most, and from one of the player's addresses. Used up here.
fn by_reset(
    ctx: &mut MailCtx<'_>,
    reset: i64,
    player: crate::domain::PlayerId,
) -> Result<Player, Failure> {
    let valid = resets::unused(ctx.conn, reset, player)?
        .is_some_and(|made| made + RESET_VALID > ctx.now);
    let player = players::by_id(ctx.conn, player)?;
    if !valid || !player.owns_address(ctx.sender) {
        return Err(refuse(
            "this password reset address was used already, has expired (it is valid a day), or is not yours; nothing was changed. Send \"password reset <userid>\" for a new one",
            None,
        ));
    }
    resets::mark_used(ctx.conn, reset, ctx.now)?;
    Ok(player)
}

fn reset(ctx: &mut MailCtx<'_>, userid: &str) -> Result<Vec<Outgoing>, Failure> {
    let mut mails = Vec::new();
    let mut to_requester = false;
    if let Some(player) = players::by_userid(ctx.conn, userid)?
        && player.is_confirmed()
        && !resets::made_since(ctx.conn, player.id, ctx.now - RESET_VALID)?
    {
        let reset = resets::insert(ctx.conn, player.id, ctx.now)?;
        let text = format!(
            "Someone (perhaps you) asked pbem to reset the password of {userid}.\n\n\
             To choose a new password, reply to this mail from this address with the line:\n  password <new password>\n\
             The reply address of this mail works once, within a day. If you did not ask for it, ignore this mail: your password stays as it is.",
            userid = player.userid
        );
        let mut mail = ctx.notice(player.addresses.clone(), "pbem password reset", &text)?;
        mail.reply_to = Some(
            ctx.config
                .address
                .with_token(&ctx.key.reset_token(reset, player.id)),
        );
        to_requester = player.owns_address(ctx.sender);
        mails.push(mail);
    }
    // Asked from one of the player's own addresses, the reset mail is the
    // answer (one mail to the sender keeps its reply address).
    if to_requester {
        return Ok(mails);
    }
    let answer = format!(
        "If {userid} is a player with a confirmed address, a mail to reset its password went to that player's addresses (at most one a day). Reply to it as it says."
    );
    mails.insert(0, ctx.notice_to_sender("pbem password reset", &answer)?);
    Ok(mails)
}
