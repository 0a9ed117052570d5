//! Account and information commands: `signup`, `password`, `address`,
//! `vacation`, `help`, `games`.

use serde::Serialize;
use time::Duration;

use super::{Ctx, Failure, passwords, refuse};
use crate::command::{Games, GamesFilter, HelpTopic, Password, SetAddresses, Signup, Vacation};
use crate::mail::outgoing::Outgoing;
use crate::rules::Variant;
use crate::store::players::{self, PlayerId};
use crate::store::{boards, deadlines};

/// Userids: letters, digits, `_`, `-` and `.`, 2 to 24 of them.
fn valid_userid(userid: &str) -> bool {
    (2..=24).contains(&userid.len())
        && userid
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !crate::command::is_command_word(userid)
}

const MIN_PASSWORD: usize = 4;

/// Checks addresses and that no other player uses them.
fn check_addresses(
    ctx: &Ctx<'_>,
    addresses: &[String],
    owner: Option<PlayerId>,
) -> Result<(), Failure> {
    for address in addresses {
        if address.parse::<lettre::Address>().is_err() {
            return Err(refuse(format!("\"{address}\" is not a mail address"), None));
        }
        if ctx.config.address.is_own(address) {
            return Err(refuse(format!("{address} is pbem's own address"), None));
        }
        if let Some(other) = players::address_owner(ctx.conn, address)?
            && Some(other) != owner
        {
            return Err(refuse(
                format!("{address} is already registered to another player"),
                None,
            ));
        }
    }
    Ok(())
}

pub(super) fn signup(ctx: &mut Ctx<'_>, command: &Signup) -> Result<Vec<Outgoing>, Failure> {
    if !valid_userid(&command.userid) {
        return Err(refuse(
            format!(
                "\"{}\" cannot be a userid: use 2 to 24 letters, digits, '_', '-' or '.'",
                command.userid
            ),
            None,
        ));
    }
    if command.password.len() < MIN_PASSWORD {
        return Err(refuse(
            format!("choose a password of at least {MIN_PASSWORD} characters"),
            None,
        ));
    }
    if players::by_userid(ctx.conn, &command.userid)?.is_some() {
        return Err(refuse(
            format!("the userid \"{}\" is taken; choose another", command.userid),
            None,
        ));
    }
    let addresses = if command.addresses.is_empty() {
        vec![ctx.sender.to_string()]
    } else {
        command.addresses.clone()
    };
    check_addresses(ctx, &addresses, None)?;
    let hash = passwords::hash(&command.password)
        .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
    players::insert(ctx.conn, &command.userid, &hash, &addresses, ctx.now)?;
    let text = format!(
        "Welcome to pbem, {}! You play from {}.\n\nChallenge someone with, for example:\n  chess2 challenge {} <password> <opponent>\nSend \"help\" for every command and \"help variants\" for the games.",
        command.userid,
        addresses.join(", "),
        command.userid
    );
    Ok(vec![ctx.notice_to_sender(
        &format!("pbem signup {}", command.userid),
        &text,
    )?])
}

pub(super) fn password(ctx: &mut Ctx<'_>, command: &Password) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.login(&command.userid, &command.old, None)?;
    if command.new.len() < MIN_PASSWORD {
        return Err(refuse(
            format!("choose a password of at least {MIN_PASSWORD} characters"),
            None,
        ));
    }
    let hash = passwords::hash(&command.new)
        .map_err(|e| refuse(format!("cannot store the password: {e}"), None))?;
    players::set_password_hash(ctx.conn, player.id, &hash)?;
    Ok(vec![ctx.notice_to_sender(
        "pbem password changed",
        &format!("The password of {} is changed.", player.userid),
    )?])
}

pub(super) fn addresses(
    ctx: &mut Ctx<'_>,
    command: &SetAddresses,
) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.login(&command.userid, &command.password, None)?;
    check_addresses(ctx, &command.addresses, Some(player.id))?;
    players::set_addresses(ctx.conn, player.id, &command.addresses)?;
    let text = format!(
        "{} now plays from {}; board mail goes to {}.",
        player.userid,
        command.addresses.join(", "),
        command.addresses[0]
    );
    let mut to = vec![ctx.sender.to_string()];
    to.extend(
        command
            .addresses
            .iter()
            .filter(|a| !a.eq_ignore_ascii_case(ctx.sender))
            .cloned(),
    );
    Ok(vec![ctx.notice(to, "pbem addresses changed", &text)?])
}

pub(super) fn vacation(ctx: &mut Ctx<'_>, command: &Vacation) -> Result<Vec<Outgoing>, Failure> {
    let player = ctx.login(&command.userid, &command.password, None)?;
    let year = ctx.now.year();
    let used = if player.vacation_year == year {
        player.vacation_days_used
    } else {
        0
    };
    let allowance = ctx.config.vacation_days_per_year;
    if command.days == 0 || used + command.days > allowance {
        return Err(refuse(
            format!(
                "you have {} vacation days left this year (of {allowance}); ask for 1 to {} days",
                allowance - used.min(allowance),
                allowance - used.min(allowance)
            ),
            None,
        ));
    }
    let until = ctx.now + Duration::days(i64::from(command.days));
    players::set_vacation(ctx.conn, player.id, until, used + command.days, year)?;
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
        super::deadlines::readable(until)
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

pub(super) fn help(ctx: &mut Ctx<'_>, topic: HelpTopic) -> Result<Vec<Outgoing>, Failure> {
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
            let text: Vec<String> = variants
                .iter()
                .map(|v| format!("{}  {}", v.id, v.description))
                .collect();
            ctx.notice_to_sender("pbem variants", &text.join("\n"))?
        }
        HelpTopic::Variant(variant) => {
            ctx.notice_to_sender(&format!("pbem help {}", variant.id()), variant.help())?
        }
    };
    Ok(vec![mail])
}

pub(super) fn games(ctx: &mut Ctx<'_>, command: &Games) -> Result<Vec<Outgoing>, Failure> {
    let Some(player) = players::by_userid(ctx.conn, &command.userid)? else {
        return Err(refuse(
            format!("there is no player \"{}\"", command.userid),
            None,
        ));
    };
    let mut lines = Vec::new();
    for board in boards::of_player(ctx.conn, player.id)? {
        let turns = boards::turns(ctx.conn, board.number)?;
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
