//! How the web site accepts and serves connections, so that slow or
//! hostile clients cannot take it (or the mail's file descriptors) away:
//!
//! - At most [`MAX_CONNECTIONS`] connections are open at once: each takes
//!   a slot before it is accepted, so a flood waits in the kernel's backlog
//!   instead of taking the descriptors the mail (the Maildir, SQLite, SMTP)
//!   needs.
//! - At most [`PER_ADDRESS`] of them from one client address: one more is
//!   accepted and closed at once, so one address cannot hold every slot.
//! - Each request's header must arrive within [`HEADER_READ_TIMEOUT`];
//!   hyper starts that clock again when a kept-alive connection waits for
//!   its next request, so it also closes idle connections.
//! - A connection lives at most [`MAX_LIFETIME`]: then it is asked to close
//!   after the request in hand, and dropped [`GRACE`] later if it has not
//!   (a client that never reads its answer, or trickles a body).
//!
//! axum's own `serve` sets none of hyper's timeouts, so the site runs its
//! own accept loop around hyper's HTTP/1 connection with a tokio timer.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections open at once: half of the 1,024 descriptors a service
/// commonly gets by default, leaving the rest to the mail.
pub const MAX_CONNECTIONS: usize = 512;

/// Connections open at once from one client address. A reverse proxy
/// sends everything from one address: 256 is more than its pool needs for
/// a site that reads at most four pages at a time, and it leaves half of
/// [`MAX_CONNECTIONS`] to everyone else when one address misbehaves.
pub const PER_ADDRESS: usize = 256;

/// The time a request's header may take to arrive, and a kept-alive
/// connection may wait for its next request. A browser or proxy sends a
/// header in one packet; five seconds forgive a slow network.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest a connection is served before it is asked to close. Pages
/// are small (about 14 KB), so a minute is room for many of them.
pub const MAX_LIFETIME: Duration = Duration::from_secs(60);

/// How long a connection asked to close may finish its request in hand.
pub const GRACE: Duration = Duration::from_secs(10);

/// Open connections per client address; an address with none has no entry.
#[derive(Default)]
struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

impl PerAddress {
    /// A share for `address`, or `None` when it holds [`PER_ADDRESS`].
    fn take(self: &Arc<Self>, address: IpAddr) -> Option<Share> {
        let mut open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(address).or_default();
        if *count >= PER_ADDRESS {
            return None;
        }
        *count += 1;
        Some(Share {
            counts: self.clone(),
            address,
        })
    }
}

/// One connection's place in its address's count, given back on drop.
struct Share {
    counts: Arc<PerAddress>,
    address: IpAddr,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut open = self.counts.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&self.address) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.address);
            }
        }
    }
}

/// Accepts connections on `listener` and serves `router` on each, within
/// the bounds above, until the runtime stops.
pub async fn serve(listener: TcpListener, router: Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let per_address = Arc::new(PerAddress::default());
    loop {
        // The semaphore is never closed: a slot always comes.
        let Ok(slot) = slots.clone().acquire_owned().await else {
            continue;
        };
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // Out of descriptors, or a connection reset before it was
                // accepted: wait a little rather than spin.
                tracing::warn!(%error, "the web site cannot accept a connection");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Some(share) = per_address.take(peer.ip()) else {
            tracing::debug!(%peer, "too many connections from one address; closed");
            continue;
        };
        tokio::spawn(connection(stream, peer, router.clone(), slot, share));
    }
}

/// Serves one connection, holding its slot and share until it closes.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    _slot: OwnedSemaphorePermit,
    _share: Share,
) {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_READ_TIMEOUT);
    let mut served =
        pin!(builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(router)));
    let result = match tokio::time::timeout(MAX_LIFETIME, served.as_mut()).await {
        Ok(result) => result,
        Err(_) => {
            served.as_mut().graceful_shutdown();
            match tokio::time::timeout(GRACE, served.as_mut()).await {
                Ok(result) => result,
                Err(_) => return tracing::debug!(%peer, "connection dropped after its grace"),
            }
        }
    };
    if let Err(error) = result {
        // A header timeout, a reset or a malformed request: the client's.
        tracing::debug!(%peer, %error, "connection ended");
    }
}
