//! [`Stop`]: what ends the server's loops and wakes them. One `Stop` is
//! shared by the threads of `pbem serve`: the signal handler calls
//! [`Stop::stop`]; the inbound loop finishes the batch in hand and returns;
//! the outbox sender finishes the mail it is sending and returns. Sleeps
//! (polling, backoff) end at once on stop, and a socket waiting in IMAP IDLE
//! is shut down so the blocked read returns.
//!
//! The same object carries the "new mail in the outbox" wake-up from the
//! inbound loop to the sender.

use std::net::{Shutdown, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The stop signal and wake-ups of a running server.
#[derive(Debug, Default)]
pub struct Stop {
    flag: AtomicBool,
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Set by [`Stop::wake`], cleared by [`Stop::wait_for_wake`].
    woken: bool,
    /// Sockets blocked in a wait that only closing them ends.
    sockets: Vec<(u64, TcpStream)>,
    next_socket: u64,
}

/// See [`Stop::stop_on_panic`].
#[derive(Debug)]
pub struct StopOnPanic<'a>(&'a Stop);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            tracing::error!("a panic ends pbem; the service manager should start it again");
            self.0.stop();
        }
    }
}

/// While alive, [`Stop::stop`] shuts down the socket it watches.
#[derive(Debug)]
pub struct SocketWatch<'a> {
    stop: &'a Stop,
    id: u64,
}

impl Stop {
    /// Asks every loop to finish what is in hand and return.
    pub fn stop(&self) {
        let mut state = self.lock();
        self.flag.store(true, Ordering::SeqCst);
        for (_, socket) in state.sockets.drain(..) {
            // Already closed is as good as closed.
            socket.shutdown(Shutdown::Both).ok();
        }
        self.changed.notify_all();
    }

    /// A guard that stops every loop when the thread holding it unwinds
    /// from a panic. The loops of `pbem serve` run side by side in one
    /// thread scope, which waits for all of them: without the guard a panic
    /// in one left the process up and hung (handling no more mail); with
    /// it, the panic ends `pbem serve` with an error, and the service
    /// manager starts it again.
    pub fn stop_on_panic(&self) -> StopOnPanic<'_> {
        StopOnPanic(self)
    }

    pub fn is_stopping(&self) -> bool {
        self.flag.load(Ordering::SeqCst)
    }

    /// The flag itself, for loops that take a plain `&AtomicBool`.
    pub fn flag(&self) -> &AtomicBool {
        &self.flag
    }

    /// Sleeps for `duration` or until stopped; true when stopping.
    pub fn sleep(&self, duration: Duration) -> bool {
        let deadline = Instant::now() + duration;
        let mut state = self.lock();
        while !self.is_stopping() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = match self.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        self.is_stopping()
    }

    /// Tells the waiting sender that the outbox has new mail.
    pub fn wake(&self) {
        self.lock().woken = true;
        self.changed.notify_all();
    }

    /// Waits until [`Stop::wake`] was called (since the last wait), the
    /// stop, or `timeout`; true when stopping.
    pub fn wait_for_wake(&self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        while !state.woken && !self.is_stopping() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            state = match self.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        state.woken = false;
        self.is_stopping()
    }

    /// Registers a socket to shut down on stop, for as long as the returned
    /// watch lives. `None` when already stopping (do not start waiting).
    pub fn watch_socket(&self, socket: &TcpStream) -> Option<SocketWatch<'_>> {
        let mut state = self.lock();
        if self.is_stopping() {
            return None;
        }
        // Without a second handle the wait cannot be interrupted; it still
        // ends at its timeout.
        let id = state.next_socket;
        state.next_socket += 1;
        if let Ok(clone) = socket.try_clone() {
            state.sockets.push((id, clone));
        }
        Some(SocketWatch { stop: self, id })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent whatever a panicking holder did.
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Drop for SocketWatch<'_> {
    fn drop(&mut self) {
        self.stop.lock().sockets.retain(|(id, _)| *id != self.id);
    }
}

/// Exponential backoff between retries: doubles from `first` up to `max`.
#[derive(Clone, Copy, Debug)]
pub struct Backoff {
    first: Duration,
    max: Duration,
    next: Duration,
}

impl Backoff {
    pub fn new(first: Duration, max: Duration) -> Backoff {
        Backoff {
            first,
            max,
            next: first,
        }
    }

    /// The delay before the next retry; each call doubles the following one.
    pub fn next_delay(&mut self) -> Duration {
        let delay = self.next;
        self.next = (self.next * 2).min(self.max);
        delay
    }

    /// After a success: the next failure waits `first` again.
    pub fn reset(&mut self) {
        self.next = self.first;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_up_to_the_limit_and_resets() {
        let mut backoff = Backoff::new(Duration::from_secs(1), Duration::from_secs(5));
        let delays: Vec<u64> = (0..5).map(|_| backoff.next_delay().as_secs()).collect();
        assert_eq!(delays, vec![1, 2, 4, 5, 5]);
        backoff.reset();
        assert_eq!(backoff.next_delay(), Duration::from_secs(1));
    }

    #[test]
    fn stop_ends_sleeps_and_waits_at_once() {
        let stop = std::sync::Arc::new(Stop::default());
        let other = stop.clone();
        let started = Instant::now();
        let thread = std::thread::spawn(move || other.sleep(Duration::from_secs(30)));
        std::thread::sleep(Duration::from_millis(50));
        stop.stop();
        assert!(thread.join().expect("the sleeper returns"));
        assert!(stop.wait_for_wake(Duration::from_secs(30)));
        assert!(started.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_panic_in_one_loop_stops_the_others() {
        let stop = Stop::default();
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            std::thread::scope(|scope| {
                let other = scope.spawn(|| {
                    let _guard = stop.stop_on_panic();
                    // What the outbox sender does: loop until stopped.
                    stop.sleep(Duration::from_secs(60))
                });
                let _guard = stop.stop_on_panic();
                let _ = &other;
                panic!("a bug in the inbound loop");
            })
        }));
        assert!(outcome.is_err(), "the panic comes through");
        assert!(stop.is_stopping(), "and it stopped the other loop");
    }

    #[test]
    fn a_wake_before_the_wait_is_not_lost() {
        let stop = Stop::default();
        stop.wake();
        let started = Instant::now();
        assert!(!stop.wait_for_wake(Duration::from_secs(30)));
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
