//! Rate ceilings and the password throttle.
//!
//! Ceilings: mails per sender in the last hour, per sender domain and from
//! everybody per clock hour. A mail over a ceiling is acted on only if it
//! proves its player (a reply token from the player's own address, or a
//! right password), so a flood of mail, forged in a player's name or not,
//! never locks a player out of a game; the rest is recorded and left
//! unanswered (but for one short error when a sender reaches its own
//! ceiling).
//!
//! Throttle: after [`FREE_FAILURES`] wrong passwords under one userid from
//! one place, password logins under it from there pause for a minute,
//! doubling with every further failure up to a day; a right password from
//! there ends it. A place is one of the player's confirmed addresses, or
//! everywhere else together ([`ELSEWHERE`]): a stranger's wrong guesses
//! (from any number of addresses) pause the strangers, never the player
//! writing from an own address, and forging many senders buys no more
//! guesses than one. A reply from the player's address to a mail pbem sent
//! the player (its reply token) is never paused. The failures are kept per
//! userid as written, known or not, so the answers never tell whether a
//! userid exists.

use time::{Duration, OffsetDateTime};

use super::{ServiceConfig, ServiceError};
use crate::store::limits::{self, ALL_MAIL, domain_key};
use crate::store::{mailbox, players};
use rusqlite::Connection;

/// Wrong passwords under a userid before logins under it pause.
pub const FREE_FAILURES: u32 = 5;
/// The first pause; each further failure doubles it.
const FIRST_PAUSE: Duration = Duration::minutes(1);
/// The longest pause.
const LONGEST_PAUSE: Duration = Duration::days(1);

/// The ceiling a mail is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Over {
    /// The sender's own, with the sender's mails in the last hour before
    /// this one.
    Sender(u32),
    Domain,
    All,
}

/// Counts the mail from `sender` and tells which ceiling (if any) it is over.
pub(super) fn count(
    conn: &Connection,
    config: &ServiceConfig,
    sender: &str,
    now: OffsetDateTime,
) -> Result<Option<Over>, ServiceError> {
    let from_sender = mailbox::mails_from_since(conn, sender, now - Duration::hours(1))?;
    let from_domain = limits::count_mail(conn, &domain_key(sender), now)?;
    let from_all = limits::count_mail(conn, ALL_MAIL, now)?;
    Ok(if from_sender >= config.mails_per_sender_per_hour {
        Some(Over::Sender(from_sender))
    } else if from_domain >= config.mails_per_domain_per_hour {
        Some(Over::Domain)
    } else if from_all >= config.mails_per_hour {
        Some(Over::All)
    } else {
        None
    })
}

/// The place of every sender that is not a confirmed address of the
/// player a userid names.
pub(super) const ELSEWHERE: &str = "*";

/// Where a login under `userid` from `sender` counts its failures: the
/// sender itself when it is a confirmed address of the player `userid`
/// names, otherwise [`ELSEWHERE`] (also for an unknown userid, so the
/// answers stay alike).
pub(super) fn failure_place(
    conn: &Connection,
    userid: &str,
    sender: &str,
) -> Result<String, ServiceError> {
    Ok(match players::by_userid(conn, userid)? {
        Some(player) if !sender.is_empty() && player.owns_address(sender) => {
            sender.to_ascii_lowercase()
        }
        _ => ELSEWHERE.to_string(),
    })
}

/// Until when password logins under `userid` from `sender` pause, if they
/// do, counting `more` failures of the mail in hand (not yet stored) as
/// made `now`.
pub(super) fn paused_until(
    conn: &Connection,
    userid: &str,
    sender: &str,
    more: u32,
    now: OffsetDateTime,
) -> Result<Option<OffsetDateTime>, ServiceError> {
    let place = failure_place(conn, userid, sender)?;
    let stored = limits::login_failures(conn, userid, &place)?;
    Ok(pause_after(stored, more, now))
}

/// Until when a pause lasts after the `stored` failures (their count and
/// when the last was) and `more` failures made `now`, if it lasts past
/// `now`: [`FREE_FAILURES`] free, then a minute, doubling with every
/// further failure up to a day. Wrong passwords and wrong confirmation
/// codes pause alike.
pub(super) fn pause_after(
    stored: Option<(u32, OffsetDateTime)>,
    more: u32,
    now: OffsetDateTime,
) -> Option<OffsetDateTime> {
    let (failures, last) = match (stored, more) {
        (None, 0) => return None,
        (None, more) => (more, now),
        (Some((failures, last)), 0) => (failures, last),
        (Some((failures, _)), more) => (failures.saturating_add(more), now),
    };
    let beyond = failures.checked_sub(FREE_FAILURES)?;
    let pause = 2i32
        .checked_pow(beyond)
        .and_then(|factor| FIRST_PAUSE.checked_mul(factor))
        .map_or(LONGEST_PAUSE, |pause| pause.min(LONGEST_PAUSE));
    let until = last.checked_add(pause).unwrap_or(last);
    (until > now).then_some(until)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;
    use time::macros::datetime;

    #[test]
    fn the_pause_doubles_after_the_free_failures_up_to_a_day() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let start = datetime!(2026-03-01 12:00 UTC);
        let paused =
            |more| paused_until(conn, "alice", "x@evil.example", more, start).expect("read");
        for _ in 0..FREE_FAILURES - 1 {
            limits::login_failed(conn, "alice", ELSEWHERE, start).expect("failed");
        }
        assert_eq!(paused(0), None);
        limits::login_failed(conn, "ALICE", ELSEWHERE, start).expect("failed");
        assert_eq!(paused(0), Some(start + Duration::minutes(1)));
        limits::login_failed(conn, "alice", ELSEWHERE, start).expect("failed");
        assert_eq!(paused(0), Some(start + Duration::minutes(2)));
        for _ in 0..100 {
            limits::login_failed(conn, "alice", ELSEWHERE, start).expect("failed");
        }
        assert_eq!(paused(0), Some(start + Duration::days(1)));
        limits::login_succeeded(conn, "alice", ELSEWHERE).expect("reset");
        assert_eq!(
            paused(FREE_FAILURES),
            Some(start + Duration::minutes(1)),
            "failures of the mail in hand count"
        );
        assert_eq!(paused(0), None);
    }

    #[test]
    fn strangers_failures_never_pause_the_players_own_address() {
        let store = Store::open_in_memory().expect("store");
        let conn = store.conn();
        let start = datetime!(2026-03-01 12:00 UTC);
        players::insert(conn, "alice", "hash", &["alice@example.org".into()], start)
            .expect("alice");
        for sender in ["a@evil.example", "b@evil.example", "c@other.example"] {
            let place = failure_place(conn, "alice", sender).expect("place");
            assert_eq!(place, ELSEWHERE, "every stranger counts together");
            for _ in 0..FREE_FAILURES {
                limits::login_failed(conn, "alice", &place, start).expect("failed");
            }
        }
        assert!(
            paused_until(conn, "alice", "d@evil.example", 0, start)
                .expect("read")
                .is_some()
        );
        assert_eq!(
            paused_until(conn, "alice", "ALICE@example.org", 0, start).expect("read"),
            None,
            "the player's own address"
        );
        assert_eq!(
            failure_place(conn, "nobody", "alice@example.org").expect("place"),
            ELSEWHERE
        );
    }
}
