//! A listener that holds at most [`MAX_CONNECTIONS`] connections open at
//! once: each one takes a slot, given back when the connection closes, and
//! the next is accepted only when a slot is free. A flood of connections
//! then waits in the kernel's backlog instead of taking the file
//! descriptors that the mail (the Maildir, SQLite, SMTP) needs.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Connections open at once.
pub const MAX_CONNECTIONS: usize = 256;

/// A TCP listener with a bounded number of open connections.
pub struct Bounded {
    inner: TcpListener,
    slots: Arc<Semaphore>,
}

impl Bounded {
    pub fn new(inner: TcpListener) -> Bounded {
        Bounded {
            inner,
            slots: Arc::new(Semaphore::new(MAX_CONNECTIONS)),
        }
    }
}

/// A connection and the slot it holds.
pub struct Connection {
    stream: TcpStream,
    _slot: OwnedSemaphorePermit,
}

impl Listener for Bounded {
    type Io = Connection;
    type Addr = std::net::SocketAddr;

    async fn accept(&mut self) -> (Connection, std::net::SocketAddr) {
        // The semaphore is never closed: a slot always comes.
        let slot = loop {
            if let Ok(slot) = self.slots.clone().acquire_owned().await {
                break slot;
            }
        };
        let (stream, address) = Listener::accept(&mut self.inner).await;
        (
            Connection {
                stream,
                _slot: slot,
            },
            address,
        )
    }

    fn local_addr(&self) -> io::Result<std::net::SocketAddr> {
        self.inner.local_addr()
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
