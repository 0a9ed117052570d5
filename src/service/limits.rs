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
//! Throttle: after [`FREE_FAILURES`] wrong passwords under one userid,
//! password logins under it pause for a minute, doubling with every
//! further failure up to a day; a right password ends it. A reply from the
//! player's address to a board mail (its reply token) is never paused. The
//! failures are kept per userid as written, known or not, so the answers
//! never tell whether a userid exists.

use time::{Duration, OffsetDateTime};

use super::{ServiceConfig, ServiceError};
use crate::store::limits::{self, ALL_MAIL, domain_key};
use crate::store::mailbox;
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

/// Until when password logins under `userid` pause, if they do, counting
/// `more` failures of the mail in hand (not yet stored) as made `now`.
pub(super) fn paused_until(
    conn: &Connection,
    userid: &str,
    more: u32,
    now: OffsetDateTime,
) -> Result<Option<OffsetDateTime>, ServiceError> {
    let stored = limits::login_failures(conn, userid)?;
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
        for _ in 0..FREE_FAILURES - 1 {
            limits::login_failed(conn, "alice", start).expect("failed");
        }
        assert_eq!(paused_until(conn, "alice", 0, start).expect("read"), None);
        limits::login_failed(conn, "ALICE", start).expect("failed");
        assert_eq!(
            paused_until(conn, "alice", 0, start).expect("read"),
            Some(start + Duration::minutes(1))
        );
        limits::login_failed(conn, "alice", start).expect("failed");
        assert_eq!(
            paused_until(conn, "alice", 0, start).expect("read"),
            Some(start + Duration::minutes(2))
        );
        for _ in 0..100 {
            limits::login_failed(conn, "alice", start).expect("failed");
        }
        assert_eq!(
            paused_until(conn, "alice", 0, start).expect("read"),
            Some(start + Duration::days(1))
        );
        limits::login_succeeded(conn, "alice").expect("reset");
        assert_eq!(
            paused_until(conn, "alice", FREE_FAILURES, start).expect("read"),
            Some(start + Duration::minutes(1)),
            "failures of the mail in hand count"
        );
        assert_eq!(paused_until(conn, "alice", 0, start).expect("read"), None);
    }
}
