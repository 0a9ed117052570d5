//! The web server against slow clients: 300 sockets from one address that
//! send half a request line and stall neither keep `/health` from another
//! address waiting nor stay open past the header read timeout; and a web
//! port taken at start is retried until it is free.

use std::io::{ErrorKind, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpStream};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use pbem_testkit::Harness;

use crate::site::{Serving, start_in_process};

/// A connection to `site` from the loopback address `local` (Linux routes
/// all of 127.0.0.0/8 to the loopback device).
pub(crate) fn connect_from(local: Ipv4Addr, site: SocketAddr) -> TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .expect("a runtime");
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("a socket");
        socket
            .bind(SocketAddr::from((local, 0)))
            .expect("bound to the loopback address");
        socket.connect(site).await.expect("connected")
    });
    let stream = stream.into_std().expect("a std stream");
    stream.set_nonblocking(false).expect("blocking");
    stream
}

/// `GET /health` from `local`: the status line, or why there was none.
fn health_from(local: Ipv4Addr, site: SocketAddr, wait: Duration) -> Result<String, String> {
    let mut stream = connect_from(local, site);
    stream.set_read_timeout(Some(wait)).expect("timeout");
    write!(
        stream,
        "GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    stream
        .read_to_end(&mut answer)
        .map_err(|e| format!("{e} after {:?}", String::from_utf8_lossy(&answer)))?;
    let answer = String::from_utf8_lossy(&answer);
    Ok(answer.lines().next().unwrap_or_default().to_string())
}

/// Whether the server closed `stream` (without waiting).
fn closed(mut stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).expect("non-blocking");
    let mut byte = [0; 64];
    let closed = loop {
        match stream.read(&mut byte) {
            Ok(0) => break true,
            // A 408 or other bytes before the close: read on.
            Ok(_) => continue,
            Err(e) if e.kind() == ErrorKind::WouldBlock => break false,
            Err(_) => break true,
        }
    };
    stream.set_nonblocking(false).expect("blocking");
    closed
}

#[test]
fn stalled_clients_from_one_address_leave_the_site_to_others() {
    let h = Harness::new();
    let site = start_in_process(&h);
    let stalled_from = Ipv4Addr::new(127, 0, 0, 1);
    let opened = Instant::now();
    let stalled: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut stream = connect_from(stalled_from, site);
            // Half a request line, never finished.
            stream.write_all(b"GET /heal").expect("half a line");
            stream
        })
        .collect();
    // One address holds no more than its share; the rest are closed at once.
    let over = stalled.len() - pbem::web::PER_ADDRESS;
    let start = Instant::now();
    let mut refused = 0;
    while refused < over && start.elapsed() < Duration::from_secs(3) {
        refused = stalled.iter().filter(|s| closed(s)).count();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(
        refused,
        over,
        "the connections past {} from one address are closed",
        pbem::web::PER_ADDRESS
    );
    // Another address is answered at once.
    let asked = Instant::now();
    let answer = health_from(Ipv4Addr::new(127, 0, 0, 2), site, Duration::from_secs(2));
    assert!(
        answer
            .as_deref()
            .is_ok_and(|l| l.starts_with("HTTP/1.1 200")),
        "/health from another address while 300 stall: {answer:?}"
    );
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "answered in {:?}",
        asked.elapsed()
    );
    // Still open before the header read timeout, closed after it.
    let timeout = pbem::web::HEADER_READ_TIMEOUT;
    assert!(opened.elapsed() < timeout, "the test ran too slowly");
    let held = stalled.iter().filter(|s| !closed(s)).count();
    assert_eq!(held, pbem::web::PER_ADDRESS, "held before the timeout");
    let deadline = opened + timeout + Duration::from_secs(5);
    let mut open = held;
    while open > 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        open = stalled.iter().filter(|s| !closed(s)).count();
    }
    assert_eq!(open, 0, "stalled connections still open past the timeout");
    assert!(
        opened.elapsed() >= timeout - Duration::from_millis(500),
        "closed after {:?}, before the timeout",
        opened.elapsed()
    );
    drop(stalled);
    // The site serves the stalled address again.
    let answer = health_from(stalled_from, site, Duration::from_secs(5));
    assert!(
        answer
            .as_deref()
            .is_ok_and(|l| l.starts_with("HTTP/1.1 200")),
        "{answer:?}"
    );
}

#[test]
fn a_web_port_taken_at_start_is_retried_until_free() {
    let h = Harness::new();
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let site = taken.local_addr().expect("address");
    let config = h.dir.path().join("web.toml");
    std::fs::write(&config, format!("[web]\nlisten = \"{site}\"\n")).expect("config written");
    let log = h.dir.path().join("serve.log");
    let child = Command::new(env!("CARGO_BIN_EXE_pbem"))
        .arg("--data-dir")
        .arg(h.dir.path())
        .arg("--config")
        .arg(&config)
        .arg("serve")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).expect("log file"))
        .spawn()
        .expect("pbem serve starts");
    let _serving = Serving(child);
    // Held until pbem serve has failed to bind it twice.
    let start = Instant::now();
    loop {
        let logged = std::fs::read_to_string(&log).unwrap_or_default();
        if logged.matches("cannot serve the web site").count() >= 2 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no failed bind logged: {logged}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(taken);
    // Served within a retry's interval or two.
    let freed = Instant::now();
    let answer = loop {
        if TcpStream::connect(site).is_ok() {
            break health_from(Ipv4Addr::LOCALHOST, site, Duration::from_secs(5));
        }
        assert!(
            freed.elapsed() < Duration::from_secs(10),
            "the site did not take the freed port: {}",
            std::fs::read_to_string(&log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(
        answer
            .as_deref()
            .is_ok_and(|l| l.starts_with("HTTP/1.1 200")),
        "{answer:?}"
    );
}
