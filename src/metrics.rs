//! What only the running `pbem serve` knows, for `/metrics`: mails handled
//! since it started, answered and refused, the mails its sender holds back
//! after a refusal or a deferral, and how long the deadline sweeps took.
//! The store's counts (outbox depth, games, players) are read from the
//! store by the web site itself.
//!
//! `server.rs` makes one [`Metrics`], counts into it from the inbound loop,
//! the outbox sender and the sweep, and hands it to the web site, which
//! only reads it: neither the service nor the mail transports know of it.
//! Plain atomics, so counting costs nothing beside handling a mail; the
//! counters start at 0 with each start of the server, as Prometheus
//! counters may.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The counters of one running server.
#[derive(Debug, Default)]
pub struct Metrics {
    mails_in: AtomicU64,
    answered: AtomicU64,
    refused: AtomicU64,
    held: AtomicU64,
    sweeps: AtomicU64,
    sweep_micros_total: AtomicU64,
    last_sweep_micros: AtomicU64,
}

/// The counters as read at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Snapshot {
    /// Mails taken from the inbound, duplicates and automatic mail included.
    pub mails_in: u64,
    /// Mails that got at least one reply.
    pub answered: u64,
    /// Mails a command of which was refused, or that were not acted on.
    pub refused: u64,
    /// Outbox mails held back until their next try (refused or deferred
    /// by the mail server), as of the sender's last pass.
    pub held: u64,
    /// Deadline sweeps run.
    pub sweeps: u64,
    /// Their time in all, and the last one's, in microseconds.
    pub sweep_micros_total: u64,
    pub last_sweep_micros: u64,
}

impl Metrics {
    /// Counts one mail handled: whether it was answered, and whether it
    /// was refused.
    pub fn count_mail(&self, answered: bool, refused: bool) {
        self.mails_in.fetch_add(1, Ordering::Relaxed);
        if answered {
            self.answered.fetch_add(1, Ordering::Relaxed);
        }
        if refused {
            self.refused.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Records how many outbox mails the sender holds back now.
    pub fn set_held(&self, held: usize) {
        self.held
            .store(u64::try_from(held).unwrap_or(u64::MAX), Ordering::Relaxed);
    }

    /// Records one deadline sweep and how long it took.
    pub fn sweep_took(&self, took: Duration) {
        let micros = u64::try_from(took.as_micros()).unwrap_or(u64::MAX);
        self.sweeps.fetch_add(1, Ordering::Relaxed);
        self.sweep_micros_total.fetch_add(micros, Ordering::Relaxed);
        self.last_sweep_micros.store(micros, Ordering::Relaxed);
    }

    /// The counters now.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            mails_in: self.mails_in.load(Ordering::Relaxed),
            answered: self.answered.load(Ordering::Relaxed),
            refused: self.refused.load(Ordering::Relaxed),
            held: self.held.load(Ordering::Relaxed),
            sweeps: self.sweeps.load(Ordering::Relaxed),
            sweep_micros_total: self.sweep_micros_total.load(Ordering::Relaxed),
            last_sweep_micros: self.last_sweep_micros.load(Ordering::Relaxed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_move_with_what_happened() {
        let metrics = Metrics::default();
        metrics.count_mail(true, false);
        metrics.count_mail(true, true);
        metrics.count_mail(false, false);
        metrics.set_held(2);
        metrics.sweep_took(Duration::from_millis(3));
        metrics.sweep_took(Duration::from_millis(1));
        assert_eq!(
            metrics.snapshot(),
            Snapshot {
                mails_in: 3,
                answered: 2,
                refused: 1,
                held: 2,
                sweeps: 2,
                sweep_micros_total: 4000,
                last_sweep_micros: 1000,
            }
        );
    }
}
