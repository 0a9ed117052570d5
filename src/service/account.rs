//! Account and information commands: `signup`, `password`, `address`,
//! `vacation`, `help`, `games`.

use super::{Failure, MailCtx, refuse};
use crate::command::Signup;
use crate::domain::PlayerId;
use crate::mail::address;
use crate::store::players::{self, Player};

/// What one mail's account commands did so far, for the limits that hold
/// across its commands.
#[derive(Debug, Default)]
pub(super) struct MailAccounts {
    /// `signup` commands read: only the first is acted on.
    pub signups: u32,
    /// Confirmation mails made (see `confirm::CONFIRMATIONS_PER_MAIL`).
    pub confirmation_mails: usize,
    /// Whether each `confirm` had a right code, for the throttle of wrong
    /// codes (stored after the mail, outside the commands' savepoints).
    pub code_outcomes: Vec<bool>,
    /// The player a `confirm` of this mail gave its sender's address to.
    /// The mail brought back the code pbem sent only to that address, which
    /// proves as much as a reply token mailed there: its later commands
    /// speak for that player as a reply to a notice would.
    pub confirmed_for: Option<PlayerId>,
}

/// Userids: letters, digits, `_`, `-` and `.`, 2 to 24 of them.
pub(super) fn valid_userid(userid: &str) -> bool {
    (2..=24).contains(&userid.len())
        && userid
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !crate::command::is_command_word(userid)
}

/// The addresses of a command, normalized with the rule the sender uses
/// (so pbem can write to every address it stores) and each once; refused
/// when one is not an address, is pbem's own, or another player's.
pub(super) fn check_addresses(
    ctx: &MailCtx<'_>,
    addresses: &[String],
    owner: Option<PlayerId>,
) -> Result<Vec<String>, Failure> {
    let mut checked: Vec<String> = Vec::new();
    for written in addresses {
        let address = address::normalize(written).map_err(|e| refuse(e.to_string(), None))?;
        if ctx.config.address.is_own(&address) {
            return Err(refuse(format!("{address} is pbem's own address"), None));
        }
        if let Some(other) = players::address_owner(ctx.conn, &address)?
            && Some(other) != owner
        {
            return Err(refuse(
                format!("{address} is already registered to another player"),
                None,
            ));
        }
        if !checked.iter().any(|a| a.eq_ignore_ascii_case(&address)) {
            checked.push(address);
        }
    }
    Ok(checked)
}

/// The unconfirmed signup that `command` signs up again, if the userid is
/// reserved and the password is the reservation's: whoever lost the
/// confirmation mail, or mistyped an address, need not wait for the
/// reservation to lapse. A userid taken otherwise is refused.
pub(super) fn reservation_of(
    ctx: &mut MailCtx<'_>,
    command: &Signup,
) -> Result<Option<Player>, Failure> {
    let Some(taken) = players::by_userid_or_reserved(ctx.conn, &command.userid)? else {
        return Ok(None);
    };
    if !taken.is_confirmed() {
        match ctx.login_even_unconfirmed(&command.userid, &command.password, None) {
            Ok(player) => return Ok(Some(player)),
            Err(Failure::Refused(_)) => {}
            Err(fatal) => return Err(fatal),
        }
    }
    Err(refuse(
        format!("the userid \"{}\" is taken; choose another", command.userid),
        None,
    ))
}

/// A new password is long enough.
pub(super) fn check_new_password(ctx: &MailCtx<'_>, password: &str) -> Result<(), Failure> {
    let minimum = ctx.config.min_password_length;
    if password.chars().count() < minimum {
        return Err(refuse(
            format!(
                "choose a password of at least {}",
                crate::render::count(minimum, "character")
            ),
            None,
        ));
    }
    Ok(())
}

/// The sender and every registered address of `player`, each once: who
/// hears of a change to the account.
pub(super) fn account_notice_recipients(ctx: &MailCtx<'_>, player: &Player) -> Vec<String> {
    let mut to = vec![ctx.sender.to_string()];
    for address in &player.addresses {
        if !to.iter().any(|t| t.eq_ignore_ascii_case(address)) {
            to.push(address.clone());
        }
    }
    to
}
