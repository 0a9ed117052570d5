//! Who pays for the mail pbem sends, and the ceilings on it.
//!
//! Every mail pbem sends because of an inbound mail is charged to whoever
//! caused it ([`Payer`]): the player a right password or a reply token from
//! the player's own address proves, or else the sender address (and its
//! domain). A password moves the charge to the player's own budget; it
//! never lifts a ceiling. Every mail also counts toward the total, and a
//! mail to an address that is no player's confirmed address counts against
//! that address as a recipient ([`SentCeilings::stranger`]), so that a
//! stranger, named in a command or forged as the sender, gets only a few
//! mails whoever pays for them.
//!
//! Each ceiling holds per clock hour and per day (the last 24 clock
//! hours). A mail whose replies would pass one is taken back whole: none of
//! its commands acts, and its sender gets one short notice an hour saying
//! so (see `handle_in`). The deadline sweep's mails are charged to pbem
//! itself: they count toward the total but are never held back, since
//! they only follow from what players started.
//!
//! The total alone never refuses a proven player's game actions (a mail
//! whose commands are all turns, `draw`, `resign`, ...; see
//! `Definition::game_action`): a deadline keeps running while the player
//! waits, so refusing the move would lose the game on time for others'
//! mail. Such a mail is acted on, and its mails wait in the outbox until
//! the first clock hour whose total has room for them (`next_room`);
//! they are counted in that hour (`Bill::hold_total_until`).

use rusqlite::Connection;
use time::{Duration, OffsetDateTime};

use super::ServiceError;
use crate::domain::PlayerId;
use crate::mail::outgoing::{self, Outgoing};
use crate::store::limits::{self, domain_key};
use crate::store::players;

/// A ceiling: the most mails per clock hour and per day.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ceiling {
    pub hour: u32,
    pub day: u32,
}

/// The ceilings on the mail pbem sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SentCeilings {
    /// Caused by one player (proven by password or reply token).
    pub player: Ceiling,
    /// Caused by one sender address that proves no player.
    pub address: Ceiling,
    /// Caused by the senders of one domain that prove no player.
    pub domain: Ceiling,
    /// Sent to one address that is no player's confirmed address.
    pub stranger: Ceiling,
    /// Everything pbem sends.
    pub total: Ceiling,
}

impl Default for SentCeilings {
    fn default() -> SentCeilings {
        SentCeilings {
            // A director starting a 200-player Swiss mails about 300 (a
            // list to each player, a board mail to each White), a
            // 30-player double round robin 901.
            player: Ceiling {
                hour: 1_000,
                day: 5_000,
            },
            address: Ceiling { hour: 30, day: 100 },
            domain: Ceiling {
                hour: 1_000,
                day: 5_000,
            },
            stranger: Ceiling { hour: 5, day: 10 },
            total: Ceiling {
                hour: 20_000,
                day: 200_000,
            },
        }
    }
}

/// Whoever caused a mail's replies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Payer {
    Player(PlayerId),
    /// A sender address that proves no player.
    Address(String),
    /// pbem itself (the deadline sweep and the digest).
    Pbem,
}

/// A ceiling the replies would pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Passed {
    /// Whose ceiling, for the notice ("your", "your domain's", ...).
    pub whose: &'static str,
    pub per: &'static str,
    pub ceiling: u32,
    /// Whether it is the total of everything pbem sends.
    pub total: bool,
}

impl Passed {
    /// When the window of this ceiling has room again, at the latest.
    pub fn until(&self, now: OffsetDateTime) -> OffsetDateTime {
        let window = if self.per == "hour" {
            Duration::hours(1)
        } else {
            Duration::days(1)
        };
        now.checked_add(window).unwrap_or(now)
    }
}

/// The counting keys of a payer and of a recipient.
fn payer_key(payer: &Payer) -> Option<String> {
    match payer {
        Payer::Player(id) => Some(format!("sent:player:{}", id.0)),
        Payer::Address(address) => Some(format!("sent:address:{}", address.to_ascii_lowercase())),
        Payer::Pbem => None,
    }
}

fn domain_of(payer: &Payer) -> Option<String> {
    match payer {
        Payer::Address(address) => Some(format!("sent:domain:{}", domain_key(address))),
        Payer::Player(_) | Payer::Pbem => None,
    }
}

const TOTAL_KEY: &str = "sent:*";

fn stranger_key(address: &str) -> String {
    format!("sent:to:{}", address.to_ascii_lowercase())
}

/// What a set of mails costs: read once, then checked against the
/// ceilings and recorded.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Bill {
    /// One per recipient pbem can write to.
    deliveries: u32,
    /// The recipients that are no player's confirmed address, with the
    /// deliveries to each.
    strangers: Vec<(String, u32)>,
    /// The hour the mails count toward the total in, when they are held
    /// back to it; `None`: the hour they are made in.
    total_at: Option<OffsetDateTime>,
}

impl Bill {
    /// The bill of `mails`.
    pub(super) fn of(conn: &Connection, mails: &[Outgoing]) -> Result<Bill, ServiceError> {
        let mut bill = Bill::default();
        for address in mails
            .iter()
            .flat_map(|mail| outgoing::deliverable(&mail.to))
        {
            bill.deliveries = bill.deliveries.saturating_add(1);
            if players::address_owner(conn, &address)?.is_some() {
                continue;
            }
            match bill
                .strangers
                .iter_mut()
                .find(|(a, _)| a.eq_ignore_ascii_case(&address))
            {
                Some((_, count)) => *count = count.saturating_add(1),
                None => bill.strangers.push((address, 1)),
            }
        }
        Ok(bill)
    }

    /// Counts the mails toward the total of the hour of `at` (they are
    /// held back to it), rather than of the hour they are made in.
    pub(super) fn hold_total_until(&mut self, at: OffsetDateTime) {
        self.total_at = Some(at);
    }
}

/// The start of the first clock hour after `now` whose total has room for
/// `bill` (within the hour's and the day's ceiling), looking a day and
/// more ahead; past that, the hour after the last looked at. Mails held
/// to hours ahead count toward the day's window of every hour before
/// them too, which only holds later mail a little longer.
pub(super) fn next_room(
    conn: &Connection,
    total: Ceiling,
    bill: &Bill,
    now: OffsetDateTime,
) -> Result<OffsetDateTime, ServiceError> {
    const HOURS_AHEAD: i64 = 48;
    let now = now.to_offset(time::UtcOffset::UTC);
    let this_hour = now
        .replace_time(time::Time::MIDNIGHT)
        .checked_add(Duration::hours(i64::from(now.hour())))
        .unwrap_or(now);
    let mut hour = this_hour;
    for _ in 0..HOURS_AHEAD {
        hour += Duration::HOUR;
        let from_hour = limits::mails_since(conn, TOTAL_KEY, hour)?;
        let after_it = limits::mails_since(conn, TOTAL_KEY, hour + Duration::HOUR)?;
        let in_hour = from_hour.saturating_sub(after_it);
        let day = limits::mails_since(conn, TOTAL_KEY, hour - Duration::hours(23))?;
        if in_hour.saturating_add(bill.deliveries) <= total.hour
            && day.saturating_add(bill.deliveries) <= total.day
        {
            return Ok(hour);
        }
    }
    Ok(hour + Duration::HOUR)
}

/// Whether `more` mails under `key` would pass `ceiling`.
fn passes(
    conn: &Connection,
    key: &str,
    ceiling: Ceiling,
    more: u32,
    now: OffsetDateTime,
) -> Result<Option<(&'static str, u32)>, ServiceError> {
    let hour = limits::mails_since(conn, key, now)?;
    if hour.saturating_add(more) > ceiling.hour {
        return Ok(Some(("hour", ceiling.hour)));
    }
    let day = limits::mails_since(conn, key, now - Duration::hours(23))?;
    if day.saturating_add(more) > ceiling.day {
        return Ok(Some(("day", ceiling.day)));
    }
    Ok(None)
}

/// The first ceiling that `bill`, charged to `payer`, would pass.
pub(super) fn check(
    conn: &Connection,
    ceilings: &SentCeilings,
    payer: &Payer,
    bill: &Bill,
    now: OffsetDateTime,
) -> Result<Option<Passed>, ServiceError> {
    let count = bill.deliveries;
    if count == 0 || *payer == Payer::Pbem {
        return Ok(None);
    }
    let passed = |whose: &'static str, (per, ceiling): (&'static str, u32)| Passed {
        whose,
        per,
        ceiling,
        total: false,
    };
    let own = match payer {
        Payer::Player(_) => ceilings.player,
        _ => ceilings.address,
    };
    if let Some(key) = payer_key(payer)
        && let Some(over) = passes(conn, &key, own, count, now)?
    {
        return Ok(Some(passed("you", over)));
    }
    if let Some(key) = domain_of(payer)
        && let Some(over) = passes(conn, &key, ceilings.domain, count, now)?
    {
        return Ok(Some(passed("the senders of your domain", over)));
    }
    for (address, more) in &bill.strangers {
        if let Some(over) = passes(conn, &stranger_key(address), ceilings.stranger, *more, now)? {
            return Ok(Some(passed("an address that is no player's", over)));
        }
    }
    if let Some(over) = passes(conn, TOTAL_KEY, ceilings.total, count, now)? {
        return Ok(Some(Passed {
            total: true,
            ..passed("pbem in all", over)
        }));
    }
    Ok(None)
}

/// Charges `bill` to `payer` (and to its stranger recipients and the
/// total).
pub(super) fn record(
    conn: &Connection,
    payer: &Payer,
    bill: &Bill,
    now: OffsetDateTime,
) -> Result<(), ServiceError> {
    let count = bill.deliveries;
    if count == 0 {
        return Ok(());
    }
    for key in payer_key(payer).into_iter().chain(domain_of(payer)) {
        limits::add_mails(conn, &key, count, now)?;
    }
    limits::add_mails(conn, TOTAL_KEY, count, bill.total_at.unwrap_or(now))?;
    for (address, more) in &bill.strangers {
        limits::add_mails(conn, &stranger_key(address), *more, now)?;
    }
    Ok(())
}

/// Whether the over-ceiling notice may go to `payer` now: one an hour.
pub(super) fn may_tell(
    conn: &Connection,
    payer: &Payer,
    now: OffsetDateTime,
) -> Result<bool, ServiceError> {
    let Some(key) = payer_key(payer) else {
        return Ok(false);
    };
    let key = format!("told:{key}");
    let told = limits::mails_since(conn, &key, now)?;
    if told > 0 {
        return Ok(false);
    }
    limits::add_mails(conn, &key, 1, now)?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use time::macros::datetime;

    fn bill(conn: &Connection, mails: &[Outgoing]) -> Bill {
        Bill::of(conn, mails).expect("bill")
    }

    fn mail_to(to: &str) -> Outgoing {
        Outgoing {
            to: vec![to.to_string()],
            subject: "s".into(),
            body: "b".into(),
            ..Outgoing::default()
        }
    }

    #[test]
    fn a_payer_is_held_to_its_hour_and_its_day() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let ceilings = SentCeilings {
            address: Ceiling { hour: 3, day: 5 },
            stranger: Ceiling {
                hour: 100,
                day: 100,
            },
            ..SentCeilings::default()
        };
        let payer = Payer::Address("x@example.net".into());
        let two = [mail_to("a@example.net"), mail_to("b@example.net")];
        let start = datetime!(2026-03-01 12:10 UTC);
        assert_eq!(
            check(conn, &ceilings, &payer, &bill(conn, &two), start).expect("check"),
            None
        );
        record(conn, &payer, &bill(conn, &two), start).expect("record");
        let over = check(conn, &ceilings, &payer, &bill(conn, &two), start).expect("check");
        assert_eq!(over.map(|p| p.per), Some("hour"), "2 + 2 passes 3 an hour");
        let later = start + Duration::hours(1);
        assert_eq!(
            check(conn, &ceilings, &payer, &bill(conn, &two), later).expect("check"),
            None
        );
        record(conn, &payer, &bill(conn, &two), later).expect("record");
        let after = later + Duration::hours(1);
        let over = check(conn, &ceilings, &payer, &bill(conn, &two), after).expect("check");
        assert_eq!(over.map(|p| p.per), Some("day"), "4 + 2 passes 5 a day");
        let next_day = start + Duration::hours(24);
        assert_eq!(
            check(conn, &ceilings, &payer, &bill(conn, &two), next_day).expect("check"),
            None,
            "the first hour has left the day's window"
        );
    }

    #[test]
    fn a_stranger_gets_few_mails_whoever_pays() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let ceilings = SentCeilings::default();
        let now = datetime!(2026-03-01 12:10 UTC);
        let victim = [mail_to("victim@example.net")];
        for n in 0..ceilings.stranger.hour {
            let payer = Payer::Player(PlayerId(i64::from(n) + 1));
            assert_eq!(
                check(conn, &ceilings, &payer, &bill(conn, &victim), now).expect("check"),
                None
            );
            record(conn, &payer, &bill(conn, &victim), now).expect("record");
        }
        let payer = Payer::Player(PlayerId(99));
        let over = check(conn, &ceilings, &payer, &bill(conn, &victim), now).expect("check");
        assert_eq!(
            over.map(|p| p.whose),
            Some("an address that is no player's")
        );
    }

    #[test]
    fn pbem_itself_is_counted_but_never_held_back() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let ceilings = SentCeilings {
            total: Ceiling { hour: 1, day: 1 },
            ..SentCeilings::default()
        };
        let now = datetime!(2026-03-01 12:10 UTC);
        let mails = [mail_to("a@example.net"), mail_to("b@example.net")];
        assert_eq!(
            check(conn, &ceilings, &Payer::Pbem, &bill(conn, &mails), now).expect("check"),
            None
        );
        record(conn, &Payer::Pbem, &bill(conn, &mails), now).expect("record");
        assert_eq!(limits::mails_since(conn, TOTAL_KEY, now).expect("count"), 2);
        let payer = Payer::Address("x@example.net".into());
        let over = check(conn, &ceilings, &payer, &bill(conn, &mails[..1]), now).expect("check");
        assert_eq!(over.map(|p| p.whose), Some("pbem in all"));
    }
}
