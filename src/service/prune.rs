//! Forgetting what is no longer needed, so the database does not grow
//! with every mail. Runs with the deadline sweep.
//!
//! What is kept, and why that long:
//! * the record of a processed mail ([`PROCESSED_KEPT`]): it makes a mail
//!   delivered again act only once. Redelivery happens after a crash
//!   between the commit and the removal from the inbox (seconds), and in
//!   MDA mode when the mail system retries a `pbem process` that exited 75
//!   (Postfix gives up after 5 days); 30 days is well beyond both, and the
//!   per-sender rate limit looks back one hour only;
//! * a sent outbox mail ([`SENT_KEPT`]): for a bounce to be matched to it
//!   (its VERP address lapses after 14 days, `mail::bounce::MAX_TOKEN_AGE`)
//!   and for the operator to look at; an unsent one stays until it is sent;
//! * what pbem knows of the mails it sent on a board (threading, the lines
//!   never read as a player's words): while the board is active, and
//!   [`FINISHED_BOARD_KEPT`] after it ended, for replies to the final mail;
//! * address claims: until they lapse ([`super::confirm::CLAIM_LAPSE`]);
//!   a player left with no address, no claim and no board then (a signup
//!   never confirmed) is deleted, and its userid is free again;
//! * mail counts of the rate ceilings: 26 hours (a day's ceilings read the
//!   last 24 clock hours); failed logins and wrong confirmation codes: a
//!   day after the last one; a tournament's broadcasts (for their ceiling
//!   per day): a day.

use time::{Duration, OffsetDateTime};

use super::confirm::CLAIM_LAPSE;
use super::{Service, ServiceError};
use crate::store::{claims, limits, mailbox, players, sent, tournaments};

/// How long the record of a processed mail is kept.
pub const PROCESSED_KEPT: Duration = Duration::days(30);
/// How long a sent mail stays in the outbox table: a day beyond the age
/// up to which a bounce of it is read.
pub const SENT_KEPT: Duration = Duration::days(15);
/// How long the sent-mail records of a finished board are kept.
pub const FINISHED_BOARD_KEPT: Duration = Duration::days(30);
/// How long failed logins are remembered after the last one.
const FAILURES_KEPT: Duration = Duration::days(1);
/// How long the mail counts of past hours are kept: a day's ceilings
/// (`service::charge`) read the last 24 clock hours.
const COUNTS_KEPT: Duration = Duration::hours(26);

/// What one pruning removed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pruned {
    pub processed: usize,
    pub sent: usize,
    pub other: usize,
}

impl Service {
    /// Forgets what is no longer needed as of `now`, in one transaction.
    pub fn prune(&mut self, now: OffsetDateTime) -> Result<Pruned, ServiceError> {
        let tx = self.store().transaction()?;
        let pruned = Pruned {
            processed: mailbox::prune_processed(&tx, now - PROCESSED_KEPT)?,
            sent: mailbox::prune_sent(&tx, now - SENT_KEPT)?,
            other: claims::prune(&tx, now - CLAIM_LAPSE)?
                + players::prune_abandoned(&tx, now - CLAIM_LAPSE)?
                + sent::prune_finished(&tx, now - FINISHED_BOARD_KEPT)?
                + limits::prune_counts(&tx, now - COUNTS_KEPT)?
                + limits::prune_failures(&tx, now - FAILURES_KEPT)?
                + tournaments::prune_broadcasts(&tx, now - Duration::days(1))?
                + claims::prune_code_failures(&tx, now - FAILURES_KEPT)?,
        };
        tx.commit()?;
        Ok(pruned)
    }
}
