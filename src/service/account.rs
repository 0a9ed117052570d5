//! Account and information commands: `signup`, `password`, `address`,
//! `vacation`, `help`, `games`.

use serde::Serialize;
use time::Duration;

use super::{Failure, MailCtx, confirm, refuse};
use crate::command::{Games, GamesFilter, HelpTopic, Password, SetAddresses, Signup, Vacation};
use crate::domain::{BoardNumber, PlayerId};
use crate::mail::address;
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::store::players::{self, Player};
use crate::store::{self, boards, claims, deadlines};

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
}

/// Userids: letters, digits, `_`, `-` and `.`, 2 to 24 of them.
fn valid_userid(userid: &str) -> bool {
    (2..=24).contains(&userid.len())
        && userid
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !crate::command::is_command_word(userid)
}

/// The addresses of a command, normalized with the rule the sender uses
/// (so pbem can write to every address it stores) and each once; refused
/// when one is not an address, is pbem's own, or another player's.
fn check_addresses(
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

pub(super) fn signup(ctx: &mut MailCtx<'_>, command: &Signup) -> Result<Vec<Outgoing>, Failure> {
    // A person needs one account: a mail of many signups would only
    // reserve userids and mail strangers.
    ctx.accounts.signups = ctx.accounts.signups.saturating_add(1);
    if ctx.accounts.signups > 1 {
        return Err(refuse(
            "pbem acts on one signup per mail, the first; send this one in a mail of its own",
            None,
        ));
    }
    if !valid_userid(&command.userid) {
        return Err(refuse(
            format!(
                "\"{}\" cannot be a userid: use 2 to 24 letters, digits, '_', '-' or '.'",
                command.userid
            ),
            None,
        ));
    }
    check_new_password(ctx, &command.password)?;
    let reserved = reservation_of(ctx, command)?;
    let addresses = if command.addresses.is_empty() {
        vec![ctx.sender.to_string()]
    } else {
        command.addresses.clone()
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
                .new_hash(&command.password)
                .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
            // The player starts without addresses, its userid only
            // reserved: the account exists once an address confirms (until
            // then it cannot log in, and others cannot see it).
            let id = players::insert(ctx.conn, &command.userid, &hash, &[], ctx.now)?;
            players::by_id(ctx.conn, id)?
        }
    };
    let mut mails = confirm::claim(ctx, &player, &addresses)?;
    // A sender who named its own address has its answer in the
    // confirmation mail; another sender is told where the codes went.
    if !addresses.iter().any(|a| a.eq_ignore_ascii_case(ctx.sender)) {
        let text = format!(
            "The userid {} is reserved for you; the account exists once an address of it confirms by replying to its confirmation mail, and until then it cannot play. Each new address gets a confirmation code ({}; at most one such mail a week to an address, so if it does not come, send the command from the address itself). A reservation no address confirms lapses after {} days; until then the same signup with the same password sends a code again or names other addresses.",
            command.userid,
            addresses.join(", "),
            confirm::CLAIM_LAPSE.whole_days()
        );
        mails.push(ctx.notice_to_sender(&format!("pbem signup {}", command.userid), &text)?);
    }
    Ok(mails)
}

/// The unconfirmed signup that `command` signs up again, if the userid is
/// reserved and the password is the reservation's: whoever lost the
/// confirmation mail, or mistyped an address, need not wait for the
/// reservation to lapse. A userid taken otherwise is refused.
fn reservation_of(ctx: &mut MailCtx<'_>, command: &Signup) -> Result<Option<Player>, Failure> {
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
fn check_new_password(ctx: &MailCtx<'_>, password: &str) -> Result<(), Failure> {
    let minimum = ctx.config.min_password_length;
    if password.chars().count() < minimum {
        return Err(refuse(
            format!("choose a password of at least {minimum} characters"),
            None,
        ));
    }
    Ok(())
}

/// The sender and every registered address of `player`, each once: who
/// hears of a change to the account.
fn account_notice_recipients(ctx: &MailCtx<'_>, player: &Player) -> Vec<String> {
    let mut to = vec![ctx.sender.to_string()];
    for address in &player.addresses {
        if !to.iter().any(|t| t.eq_ignore_ascii_case(address)) {
            to.push(address.clone());
        }
    }
    to
}

pub(super) fn password(
    ctx: &mut MailCtx<'_>,
    command: &Password,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.speaker(&command.speaker, token, None)?;
    check_new_password(ctx, &command.new)?;
    let hash = ctx
        .passwords
        .new_hash(&command.new)
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

pub(super) fn addresses(
    ctx: &mut MailCtx<'_>,
    command: &SetAddresses,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.speaker(&command.speaker, token, None)?;
    let addresses = check_addresses(ctx, &command.addresses, Some(player.id))?;
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
        store::delivery::end_pause(ctx.conn, player.id, ctx.now)?;
    }
    text.push_str(&format!(
        "\n\nDelivery:\n{}",
        super::bounces::address_lines(ctx.conn, &now_player)?
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

pub(super) fn vacation(
    ctx: &mut MailCtx<'_>,
    command: &Vacation,
    token: Option<(BoardNumber, PlayerId)>,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.speaker(&command.speaker, token, None)?;
    let year = ctx.now.year();
    let used = if player.vacation_year == year {
        player.vacation_days_used
    } else {
        0
    };
    let allowance = ctx.config.vacation_days_per_year;
    let left = allowance.saturating_sub(used);
    // Checked: the days come from the mail and may be anything up to u32::MAX.
    let total = used
        .checked_add(command.days)
        .filter(|total| command.days > 0 && *total <= allowance);
    let until = Duration::days(i64::from(command.days));
    let (Some(total), Some(until)) = (total, ctx.now.checked_add(until)) else {
        return Err(refuse(
            format!(
                "you have {left} vacation days left this year (of {allowance}); ask for 1 to {left} days"
            ),
            None,
        ));
    };
    players::set_vacation(ctx.conn, player.id, until, total, year)?;
    deadlines::add_vacation(
        ctx.conn,
        player.id,
        deadlines::Vacation {
            starts_at: ctx.now,
            ends_at: until,
        },
    )?;
    let text = format!(
        "{} is on vacation for {} days, until {}; the clocks of their boards stop meanwhile.",
        player.userid,
        command.days,
        crate::render::readable_time(until)
    );
    let mut mails = vec![ctx.notice_to_sender("pbem vacation", &text)?];
    for board in boards::of_player(ctx.conn, player.id)?
        .iter()
        .filter(|b| !b.is_finished())
    {
        let opponent = if board.white == player.id {
            board.black
        } else {
            board.white
        };
        let opponent = players::by_id(ctx.conn, opponent)?;
        let subject = format!(
            "{} Board {} vacation",
            board.variant.display_name(),
            board.number
        );
        mails.push(ctx.notice(vec![opponent.mail_address().to_string()], &subject, &text)?);
    }
    Ok(mails)
}

#[derive(Serialize)]
struct VariantLine {
    id: &'static str,
    description: &'static str,
}

pub(super) fn help(ctx: &mut MailCtx<'_>, topic: HelpTopic) -> Result<Vec<Outgoing>, Failure> {
    let mail = match topic {
        HelpTopic::Commands => {
            let variants: Vec<VariantLine> = Variant::ALL
                .iter()
                .map(|v| VariantLine {
                    id: v.id(),
                    description: v.description(),
                })
                .collect();
            #[derive(Serialize)]
            struct HelpView {
                variants: Vec<VariantLine>,
            }
            let rendered = ctx.templates.render("help.txt", HelpView { variants })?;
            ctx.notice_to_sender(&rendered.subject, &rendered.body)?
        }
        HelpTopic::Variants => {
            let variants: Vec<VariantLine> = Variant::ALL
                .iter()
                .map(|v| VariantLine {
                    id: v.id(),
                    description: v.description(),
                })
                .collect();
            // Indented, so that a description wrapped in the mail goes on
            // under its own text (see `wrap_long_lines`).
            let text: Vec<String> = variants
                .iter()
                .map(|v| format!("  {}  {}", v.id, v.description))
                .collect();
            ctx.notice_to_sender("pbem variants", &text.join("\n"))?
        }
        HelpTopic::Variant(variant) => {
            ctx.notice_to_sender(&format!("pbem help {}", variant.id()), variant.help())?
        }
    };
    Ok(vec![mail])
}

pub(super) fn games(ctx: &mut MailCtx<'_>, command: &Games) -> Result<Vec<Outgoing>, Failure> {
    let Some(player) = players::by_userid(ctx.conn, &command.userid)? else {
        return Err(refuse(
            format!("there is no player \"{}\"", command.userid),
            None,
        ));
    };
    let mut lines = Vec::new();
    // The boards the sender may list (a private game or an unaccepted
    // challenge only to its players), each as far as the sender sees it.
    let who = ctx.who()?;
    for number in crate::reader::boards_of(ctx.conn, player.id, who)? {
        let (Some(board), Some(sight)) = (
            boards::get(ctx.conn, number)?,
            crate::reader::board(ctx.conn, number, who)?,
        ) else {
            continue;
        };
        let mut turns = boards::turns(ctx.conn, board.number)?;
        turns.truncate(sight.turns_shown(turns.len()));
        let game = super::board_mail::replay(&board, &turns, turns.len())?;
        let white = players::by_id(ctx.conn, board.white)?.userid;
        let black = players::by_id(ctx.conn, board.black)?.userid;
        let to_move = if game.state().turn() == shakmaty::Color::White {
            &white
        } else {
            &black
        };
        let keep = match command.filter {
            GamesFilter::All => true,
            GamesFilter::Active => !board.is_finished(),
            GamesFilter::Next => {
                !board.is_finished() && to_move.eq_ignore_ascii_case(&player.userid)
            }
        };
        if !keep {
            continue;
        }
        let state = match &board.result {
            Some(result) => format!("finished {result}"),
            None if sight.delayed() => format!(
                "shown {} turns behind: {to_move} to move, turn #{}",
                sight.hidden_turns,
                turns.len() + 1
            ),
            None => format!("{to_move} to move, turn #{}", turns.len() + 1),
        };
        lines.push(format!(
            "Board {}  {}  {white} (White) - {black} (Black)  {state}",
            board.number,
            board.variant.display_name()
        ));
    }
    if lines.is_empty() {
        lines.push("No boards.".to_string());
    }
    Ok(vec![ctx.notice_to_sender(
        &format!("pbem games {}", player.userid),
        &lines.join("\n"),
    )?])
}
