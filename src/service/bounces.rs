//! Acting on bounces (issue 30): a bounce of a mail pbem sent marks the
//! address it could not reach; while every address of a player fails, that
//! player's clocks stop and the opponents and directors are told once; the
//! player's next mail from a confirmed address ends it.
//!
//! Every bounce is hostile (anyone can write one), so a bounce counts only
//! when it names a mail pbem sent: by its VERP envelope address, whose MAC
//! only pbem can make, or else by the Message-ID of a mail in the outbox
//! (pbem's Message-IDs are not guessable); and only for a recipient that
//! mail went to. Anything else changes nothing. A bounce is never answered.
//!
//! The rules:
//! * a permanent failure (`failed`, 5.x.x) marks the address failing;
//! * a transient one (`delayed`, or 4.x.x) counts; [`TRANSIENT_IN_A_ROW`]
//!   in a row mark it failing. Each sent mail counts once (a delay warning
//!   and the later failure of one mail are one). The count starts again
//!   when the player mails from the address, when a report says a mail to
//!   it was delivered, or when the last transient bounce is older than
//!   [`COUNT_LAPSES`] (the mails between evidently arrived);
//! * the clocks of a player whose every address fails stop from then until
//!   the player's next mail from a confirmed address, as vacation (issue
//!   36): at most the vacation days the player has left this year, and in
//!   an event within its `--vacation` allowance (reckoned in
//!   `store::deadlines::honoured_vacations`); the days it lasted (each day
//!   begun once, however many boards) are charged to the yearly allowance
//!   when it ends;
//! * meanwhile mail goes to the player's first address that works, if any
//!   (`Player::mail_address`), and those addresses are told, in pbem's own
//!   words, what the status code means ([`status_meaning`]).
//!
//! What a bounce says in words is never passed on (anyone can write it,
//! and a real one names the address): only its status code is kept.

use time::{Duration, OffsetDateTime, UtcOffset};

use super::{Ctx, ServiceError};
use crate::domain::PlayerId;
use crate::mail::bounce::{Bounce, MAX_TOKEN_AGE, Original, Severity, Status, Verp};
use crate::mail::outgoing::Outgoing;
use crate::mail::transport::Refusal;
use crate::store::delivery::{self, AddressHealth, SentRecord, TRANSIENT_IN_A_ROW};
use crate::store::{StoreError, players};
use rusqlite::Connection;

/// A transient count whose last bounce is older than this starts again.
pub const COUNT_LAPSES: Duration = Duration::days(14);

/// What a bounce did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// It names no mail pbem sent, or no recipient of it: nothing changed.
    Unmatched,
    /// It was counted against these addresses.
    Counted(Vec<String>),
}

/// Acts on `bounce` as of `ctx.now`: updates the addresses it proves
/// failing, starts the pauses of players now failing everywhere, and
/// leaves the notices for their opponents and directors in `ctx.out`
/// (for the caller to charge to pbem).
pub(super) fn act_on(
    ctx: &mut Ctx<'_>,
    bounce: &Bounce,
    verp: &Verp,
) -> Result<Outcome, ServiceError> {
    let Some(sent) = sent_mail(ctx.conn, bounce, verp, ctx.now)? else {
        return Ok(Outcome::Unmatched);
    };
    let mut counted = Vec::new();
    for report in &bounce.reports {
        let Some(recipient) = report.recipient.as_deref() else {
            continue;
        };
        let Some(address) = sent
            .recipients
            .iter()
            .find(|r| r.eq_ignore_ascii_case(recipient))
        else {
            continue;
        };
        let Some(severity) = report.severity else {
            // Delivered (or relayed) after all: the count starts again.
            let known = delivery::health_of(ctx.conn, address)?;
            if known.as_ref().is_some_and(|h| !h.failing) {
                delivery::clear_health(ctx.conn, address)?;
            }
            continue;
        };
        count(ctx, address, sent.outbox_id, severity, report.status)?;
        counted.push(address.clone());
    }
    Ok(if counted.is_empty() {
        Outcome::Unmatched
    } else {
        Outcome::Counted(counted)
    })
}

/// Counts a failure of `severity` of the mail `outbox_id` to `address`
/// (a DSN's report, or a refusal at RCPT TO): the address's health; once
/// it fails, the working addresses are told (when it begins), the
/// player's clocks stop if no address works, and the mail still queued
/// for it goes elsewhere ([`reroute_queued`]).
fn count(
    ctx: &mut Ctx<'_>,
    address: &str,
    outbox_id: i64,
    severity: Severity,
    status: Option<Status>,
) -> Result<(), ServiceError> {
    let known = delivery::health_of(ctx.conn, address)?;
    let failing_before = known.as_ref().is_some_and(|h| h.failing);
    let health = next_health(
        known,
        address,
        severity,
        outbox_id,
        status.map(|status| status.to_string()),
        ctx.now,
    );
    delivery::set_health(ctx.conn, &health)?;
    tracing::info!(
        address = %address,
        outbox_id,
        ?severity,
        failing = health.failing,
        transient = health.transient,
        "a bounce of a mail pbem sent was counted"
    );
    if health.failing {
        if !failing_before {
            tell_working_addresses(ctx, address, status)?;
        }
        pause_if_unreachable(ctx, address)?;
        reroute_queued(ctx.conn, address, ctx.now)?;
    }
    Ok(())
}

/// The unsent mails to `address`, now failing, go to its player's working
/// address instead (the envelope only: the message is as written); a mail
/// left with no recipient (no player owns the address, or none of the
/// player's addresses works) is given up, and `pbem status` lists it.
fn reroute_queued(conn: &Connection, address: &str, now: OffsetDateTime) -> Result<(), StoreError> {
    let working = players::by_address(conn, address)?
        .filter(|player| !player.all_failing())
        .map(|player| player.mail_address().to_string());
    for (id, recipients) in delivery::unsent_to(conn, address)? {
        let mut to: Vec<String> = recipients
            .into_iter()
            .filter(|r| !r.eq_ignore_ascii_case(address))
            .collect();
        if let Some(working) = &working
            && !to.iter().any(|r| r.eq_ignore_ascii_case(working))
        {
            to.push(working.clone());
        }
        if to.is_empty() {
            delivery::give_up(
                conn,
                id,
                &format!("given up: {address} fails and no other address of its player works"),
                now,
            )?;
            tracing::warn!(outbox_id = id, address = %address, "a mail to a failing address is given up");
        } else {
            delivery::set_recipients(conn, id, &to)?;
            tracing::info!(outbox_id = id, address = %address, "a mail to a failing address goes to the player's working address");
        }
    }
    Ok(())
}

impl super::Service {
    /// The recipient `refusal.recipient` of the unsent outbox mail
    /// `outbox_id` was refused at RCPT TO (issue 36): a bounce of that
    /// address, through the same path as a DSN's report (a 5xx refusal is
    /// permanent, a 4xx one transient), in a transaction of its own. The
    /// notices it makes are charged to pbem and queued.
    pub fn refused_at_rcpt(
        &mut self,
        outbox_id: i64,
        refusal: &Refusal,
        now: OffsetDateTime,
    ) -> Result<(), ServiceError> {
        let tx = self.store.transaction()?;
        // Only a recipient of that mail (the transport reports what the
        // server said of the mail's own envelope, but the outbox is the
        // authority).
        let ours = delivery::unsent_to(&tx, &refusal.recipient)?
            .iter()
            .any(|(id, _)| *id == outbox_id);
        if !ours {
            return Ok(());
        }
        let severity = if refusal.is_permanent() {
            Severity::Permanent
        } else {
            Severity::Transient
        };
        let mut ctx = Ctx::new(&tx, &self.config, &self.templates, &self.key, now, None);
        count(
            &mut ctx,
            &refusal.recipient,
            outbox_id,
            severity,
            Some(refusal.status),
        )?;
        let notices = std::mem::take(&mut ctx.out);
        drop(ctx);
        // As a DSN's notices: they follow from delivery trouble, not from
        // anyone's mail.
        super::charge::record(
            &tx,
            &super::charge::Payer::Pbem,
            &super::charge::Bill::of(&tx, &notices)?,
            now,
        )?;
        super::queue::queue_all(
            &tx,
            &self.config,
            &self.key,
            notices,
            now,
            &mut super::queue::Replies::Now,
        )?;
        tx.commit()?;
        Ok(())
    }
}

/// The mail pbem sent that `bounce` names, if it names one it can prove.
fn sent_mail(
    conn: &Connection,
    bounce: &Bounce,
    verp: &Verp,
    now: OffsetDateTime,
) -> Result<Option<SentRecord>, StoreError> {
    let today = now.to_offset(UtcOffset::UTC).date();
    Ok(match bounce.original(verp, today) {
        None => None,
        Some(Original::Verp(named)) => delivery::sent_by_outbox_id(conn, named.outbox_id)?
            // The day in the address is the day it was sent: an outbox id
            // of another day is another mail.
            .filter(|sent| {
                (sent.sent_at.to_offset(UtcOffset::UTC).date() - named.sent_on).abs()
                    <= Duration::days(1)
            }),
        Some(Original::MessageId(message_id)) => {
            // The outbox keeps Message-IDs in angle brackets.
            delivery::sent_by_message_id(conn, &format!("<{message_id}>"))?
                .filter(|sent| now - sent.sent_at <= MAX_TOKEN_AGE)
        }
    })
}

/// What is known of `address` after a bounce of `severity` for the mail
/// `outbox_id`.
fn next_health(
    known: Option<AddressHealth>,
    address: &str,
    severity: Severity,
    outbox_id: i64,
    diagnostic: Option<String>,
    now: OffsetDateTime,
) -> AddressHealth {
    let fresh = AddressHealth {
        address: address.to_string(),
        failing: false,
        transient: 0,
        last_outbox_id: None,
        since: now,
        last_at: now,
        diagnostic: None,
    };
    let mut health = match known {
        // A lapsed count starts again (the mails between arrived).
        Some(known) if !known.failing && now - known.last_at > COUNT_LAPSES => fresh,
        Some(known) => known,
        None => fresh,
    };
    let counted_before = health.last_outbox_id == Some(outbox_id);
    health.last_at = now;
    health.last_outbox_id = Some(outbox_id);
    if diagnostic.is_some() {
        health.diagnostic = diagnostic;
    }
    match severity {
        Severity::Permanent => health.failing = true,
        Severity::Transient if !counted_before => {
            health.transient = health.transient.saturating_add(1);
            if health.transient >= TRANSIENT_IN_A_ROW {
                health.failing = true;
            }
        }
        Severity::Transient => {}
    }
    health
}

/// When every address of the player owning `address` now fails: stops
/// the player's clocks (once) and tells the opponents and directors.
fn pause_if_unreachable(ctx: &mut Ctx<'_>, address: &str) -> Result<(), ServiceError> {
    let Some(player) = players::by_address(ctx.conn, address)? else {
        return Ok(());
    };
    if !player.all_failing() || delivery::open_pause(ctx.conn, player.id)?.is_some() {
        return Ok(());
    }
    let year = ctx.now.year();
    let used = if player.vacation_year == year {
        player.vacation_days_used
    } else {
        0
    };
    let left = ctx.config.vacation_days_per_year.saturating_sub(used);
    delivery::start_pause(ctx.conn, player.id, ctx.now, left)?;
    let how_long = pause_sentence(&player.userid, left);
    let boards = active_boards_of(ctx.conn, player.id)?;
    let mut told: Vec<PlayerId> = Vec::new();
    for (opponent, _) in &boards {
        if told.contains(opponent) {
            continue;
        }
        told.push(*opponent);
        let numbers: Vec<String> = boards
            .iter()
            .filter(|(o, _)| o == opponent)
            .map(|(_, b)| b.to_string())
            .collect();
        let text = format!(
            "Mail to {userid} cannot be delivered.\n\n\
             {how_long} (board {boards}). Nothing else changes; you may keep playing your other games.",
            userid = player.userid,
            boards = numbers.join(", "),
        );
        tell(
            ctx,
            *opponent,
            &format!("pbem: mail to {} bounces", player.userid),
            &text,
        )?;
    }
    for director in directors_of(ctx.conn, player.id)? {
        if told.contains(&director) || director == player.id {
            continue;
        }
        told.push(director);
        let text = format!(
            "Mail to {userid}, an entrant of your event, cannot be delivered.\n\n\
             {how_long}.",
            userid = player.userid,
        );
        tell(
            ctx,
            director,
            &format!("pbem: mail to {} bounces", player.userid),
            &text,
        )?;
    }
    tracing::warn!(
        userid = %player.userid,
        told = told.len(),
        "every address of a player fails: the player's clocks stop"
    );
    Ok(())
}

/// How long the clocks of `userid` stop, with `left` vacation days.
fn pause_sentence(userid: &str, left: u32) -> String {
    if left == 0 {
        format!("{userid} has no vacation days left this year, so {userid}'s clocks keep running")
    } else {
        format!(
            "{userid}'s clocks stop until {userid} writes to pbem again, for at most {} (the vacation days {userid} has left this year; an event's own vacation limit still applies)",
            crate::render::count(left, "day")
        )
    }
}

/// What an enhanced status code means, in pbem's words (never the
/// bounce's): by subject and detail where common, else by class.
pub fn status_meaning(status: Option<&str>) -> &'static str {
    let mut parts = status.unwrap_or("").split('.');
    let class = parts.next().unwrap_or("");
    let rest = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    match rest {
        ("1", "1") => "the mailbox does not exist",
        ("1", "2") => "the address's domain does not exist",
        ("1", _) => "the address is not accepted",
        ("2", "2") => "the mailbox is full",
        ("2", "1") => "the mailbox is disabled",
        ("2", _) => "the mailbox cannot take mail",
        ("4", _) => "the receiving mail system cannot be reached",
        ("7", _) => "the receiving mail system refuses mail from pbem",
        _ if class == "4" => "the mail could not be delivered for the time being",
        _ => "the mail could not be delivered",
    }
}

/// Tells the player's addresses that still work that mail to `address`
/// now fails, and why in pbem's words (one mail to the working address).
fn tell_working_addresses(
    ctx: &mut Ctx<'_>,
    address: &str,
    status: Option<Status>,
) -> Result<(), ServiceError> {
    let Some(player) = players::by_address(ctx.conn, address)? else {
        return Ok(());
    };
    if player.all_failing() {
        return Ok(());
    }
    let code = status.map(|s| s.to_string());
    let text = format!(
        "Mail from pbem to your address {address} cannot be delivered: {}{}. pbem now writes to you at {}. Any mail you send from {address} marks it working again.",
        status_meaning(code.as_deref()),
        code.map(|c| format!(" (status {c})")).unwrap_or_default(),
        player.mail_address(),
    );
    let mail = ctx.notice(
        vec![player.mail_address().to_string()],
        "pbem: mail to one of your addresses bounces",
        &text,
    )?;
    ctx.out.push(mail);
    Ok(())
}

/// Ends `player`'s bounce pause (if any) at `now`, and charges the days
/// it lasted to the player's yearly vacation allowance; whether one ended.
pub(super) fn end_pause(
    conn: &Connection,
    player: PlayerId,
    now: OffsetDateTime,
) -> Result<bool, StoreError> {
    let Some(days) = delivery::end_pause(conn, player, now)? else {
        return Ok(false);
    };
    let player = players::by_id(conn, player)?;
    let year = now.year();
    let used = if player.vacation_year == year {
        player.vacation_days_used
    } else {
        0
    };
    players::set_vacation_days_used(conn, player.id, used.saturating_add(days), year)?;
    Ok(true)
}

/// A notice to `player` in `ctx.out` (one mail).
fn tell(
    ctx: &mut Ctx<'_>,
    player: PlayerId,
    subject: &str,
    text: &str,
) -> Result<(), ServiceError> {
    let player = players::by_id(ctx.conn, player)?;
    if player.mail_address().is_empty() {
        return Ok(());
    }
    let mail: Outgoing = ctx.notice(vec![player.mail_address().to_string()], subject, text)?;
    ctx.out.push(mail);
    Ok(())
}

/// The games `player` is playing: the opponent and the board of each.
fn active_boards_of(
    conn: &Connection,
    player: PlayerId,
) -> Result<Vec<(PlayerId, crate::domain::BoardNumber)>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT CASE WHEN white_id = ?1 THEN black_id ELSE white_id END, number FROM boards
         WHERE result IS NULL AND challenged_id IS NULL AND (white_id = ?1 OR black_id = ?1)
           AND white_id != black_id
         ORDER BY number",
    )?;
    let rows = statement.query_map([player.0], |row| Ok((PlayerId(row.get(0)?), row.get(1)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The directors of the events `player` is in that are not finished.
fn directors_of(conn: &Connection, player: PlayerId) -> Result<Vec<PlayerId>, StoreError> {
    let mut statement = conn.prepare_cached(
        "SELECT DISTINCT t.director_id FROM tournaments t
         JOIN tournament_entries e ON e.tournament_id = t.id
         WHERE e.player_id = ?1 AND e.withdrawn_at IS NULL AND t.status != 'finished'
         ORDER BY t.director_id",
    )?;
    let rows = statement.query_map([player.0], |row| Ok(PlayerId(row.get(0)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// A mail came from `sender`: if it is a player's confirmed address with
/// delivery trouble, the trouble is forgotten, and the pause of the
/// player's clocks (if any) ends. Returns whether anything changed.
pub(super) fn heard_from(
    conn: &Connection,
    sender: &str,
    now: OffsetDateTime,
) -> Result<bool, StoreError> {
    let Some(owner) = players::address_owner(conn, sender)? else {
        return Ok(false);
    };
    let cleared = delivery::clear_health(conn, sender)?;
    let resumed = end_pause(conn, owner, now)?;
    if cleared || resumed {
        tracing::info!(address = %sender, resumed, "a player with bounced mail wrote again");
    }
    Ok(cleared || resumed)
}

/// The state of each of `player`'s addresses, one line each, for `address`
/// and `settings`.
pub(super) fn address_lines(
    conn: &Connection,
    player: &players::Player,
) -> Result<String, StoreError> {
    let mut lines = String::new();
    for address in &player.addresses {
        let state = match delivery::health_of(conn, address)? {
            None => "ok".to_string(),
            Some(h) if h.failing => format!(
                "failing since {} ({})",
                crate::render::readable_time(h.since),
                status_meaning(h.diagnostic.as_deref())
            ),
            Some(h) => format!(
                "ok, {} of {TRANSIENT_IN_A_ROW} delayed mails in a row",
                h.transient
            ),
        };
        lines.push_str(&format!("  {address}: {state}\n"));
    }
    if delivery::open_pause(conn, player.id)?.is_some() {
        lines.push_str("  Mail to every address bounces: your clocks stop until you write, as vacation (the days count against your yearly vacation days). Any mail from a confirmed address ends this.\n");
    }
    Ok(lines)
}
