//! Where the log goes, chosen before anything is logged:
//!
//! - the configuration's `[server] log_file`, appended to, when it names
//!   one (read before the configuration is loaded, so that a failure to
//!   load it is logged there too);
//! - else, for `pbem process` run by a mail system (standard error not a
//!   terminal), syslog's mail facility, or nowhere if there is no syslog:
//!   the mail system throws standard error away when the mail is
//!   delivered, and puts it in the bounce or the delay notice the sender
//!   gets when it is not;
//! - else standard error.
//!
//! Colours only on a terminal, and never with `NO_COLOR` set
//! (<https://no-color.org>).

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::os::unix::net::UnixDatagram;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tracing::{Level, Metadata};
use tracing_subscriber::fmt::MakeWriter;

/// The log's destination.
pub struct Log {
    sink: Arc<Sink>,
    /// A log file that could not be opened, to be said once logging works.
    unopened: Option<(PathBuf, io::Error)>,
}

enum Sink {
    Stderr,
    File(File),
    Syslog(UnixDatagram),
    Nowhere,
}

impl Log {
    /// The log of a command: to `log_file` if given and it opens; `mda` for
    /// `pbem process`.
    pub fn choose(log_file: Option<&Path>, mda: bool) -> Log {
        let mut unopened = None;
        if let Some(path) = log_file {
            match open_append(path) {
                Ok(file) => {
                    return Log {
                        sink: Arc::new(Sink::File(file)),
                        unopened,
                    };
                }
                Err(error) => unopened = Some((path.to_path_buf(), error)),
            }
        }
        let sink = if mda && !io::stderr().is_terminal() {
            syslog().map_or(Sink::Nowhere, Sink::Syslog)
        } else {
            Sink::Stderr
        };
        Log {
            sink: Arc::new(sink),
            unopened,
        }
    }

    /// Whether log lines carry colours: only on a terminal, without `NO_COLOR`.
    pub fn ansi(&self) -> bool {
        matches!(*self.sink, Sink::Stderr)
            && io::stderr().is_terminal()
            && std::env::var_os("NO_COLOR").is_none_or(|value| value.is_empty())
    }

    /// Whether standard error is the log: if not, what goes wrong must be
    /// logged, and standard error gets no more than a pointer to the log.
    pub fn is_stderr(&self) -> bool {
        matches!(*self.sink, Sink::Stderr)
    }

    /// Says, once the log is set up, that the log file could not be opened.
    pub fn report_unopened(&mut self) {
        if let Some((path, error)) = self.unopened.take() {
            tracing::warn!(
                "cannot open the log file {}: {error}; logging here instead",
                path.display()
            );
        }
    }

    /// The writer the subscriber writes to (the log stays the caller's, to
    /// ask where it goes).
    pub fn writer(&self) -> LogWriter {
        LogWriter {
            sink: Arc::clone(&self.sink),
        }
    }
}

fn open_append(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // Log lines name players' addresses: the owner's only, as pbem's
    // other files (see `store::private_file`).
    File::options()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(path)
}

/// The local syslog socket, if there is one.
fn syslog() -> Option<UnixDatagram> {
    let socket = UnixDatagram::unbound().ok()?;
    socket.connect("/dev/log").ok()?;
    Some(socket)
}

/// Writes log lines to the chosen destination.
pub struct LogWriter {
    sink: Arc<Sink>,
}

impl<'a> MakeWriter<'a> for LogWriter {
    type Writer = Line<'a>;

    fn make_writer(&'a self) -> Line<'a> {
        Line {
            sink: &self.sink,
            severity: 6,
        }
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Line<'a> {
        // syslog's severities: err, warning, info, debug.
        let severity = match *meta.level() {
            Level::ERROR => 3,
            Level::WARN => 4,
            Level::INFO => 6,
            Level::DEBUG | Level::TRACE => 7,
        };
        Line {
            sink: &self.sink,
            severity,
        }
    }
}

/// One log line being written (the subscriber writes each line at once).
pub struct Line<'a> {
    sink: &'a Sink,
    severity: u8,
}

/// syslog's mail facility.
const MAIL_FACILITY: u8 = 2;

impl Write for Line<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.sink {
            Sink::Stderr => io::stderr().write(buf),
            Sink::File(file) => Write::write(&mut &*file, buf),
            Sink::Syslog(socket) => {
                let mut datagram = format!(
                    "<{}>pbem[{}]: ",
                    MAIL_FACILITY * 8 + self.severity,
                    std::process::id()
                )
                .into_bytes();
                datagram.extend_from_slice(buf.strip_suffix(b"\n").unwrap_or(buf));
                // A log line lost because syslog is gone must not fail the
                // command: the line is dropped.
                socket.send(&datagram).ok();
                Ok(buf.len())
            }
            Sink::Nowhere => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.sink {
            Sink::Stderr => io::stderr().flush(),
            Sink::File(file) => Write::flush(&mut &*file),
            Sink::Syslog(_) | Sink::Nowhere => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_file_is_appended_to_without_colours() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("pbem.log");
        std::fs::write(&path, "earlier\n").expect("write");
        let log = Log::choose(Some(&path), true);
        assert!(!log.ansi() && !log.is_stderr());
        let writer = log.writer();
        writer
            .make_writer()
            .write_all(b"a line\n")
            .expect("written");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "earlier\na line\n"
        );
    }

    #[test]
    fn a_log_file_that_cannot_be_opened_leaves_the_log_elsewhere() {
        let mut log = Log::choose(Some(Path::new("/nonexistent/dir/pbem.log")), false);
        assert!(log.is_stderr());
        assert!(log.unopened.is_some());
        log.report_unopened();
        assert!(log.unopened.is_none());
    }
}
