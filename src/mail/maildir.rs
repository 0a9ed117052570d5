//! The inbound Maildir: mails arrive in `new/`; a mail moves to `cur/` only
//! after its result is committed, so a crash never loses one (and the
//! Message-ID record keeps a re-read mail from acting twice).
//! [`MaildirSource`] reads it as an [`InboundSource`].

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::private;
use super::source::{Fetched, InboundSource, SourceError};
use super::stop::Stop;

/// A Maildir folder.
#[derive(Clone, Debug)]
pub struct Maildir {
    root: PathBuf,
}

impl Maildir {
    /// Opens the Maildir at `root`, creating `new/`, `cur/` and `tmp/`;
    /// others than its owner (and group) may not enter it (see
    /// [`private::dir`]): its mails hold passwords.
    pub fn create(root: &Path) -> io::Result<Maildir> {
        private::dir(root)?;
        for sub in ["new", "cur", "tmp"] {
            private::dir(&root.join(sub))?;
        }
        Ok(Maildir {
            root: root.to_path_buf(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The mails waiting in `new/`, in order of their names (delivery time
    /// for mails delivered by Maildir-writing agents).
    pub fn waiting(&self) -> io::Result<Vec<PathBuf>> {
        let mut paths: Vec<PathBuf> = fs::read_dir(self.root.join("new"))?
            .filter_map(Result::ok)
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .map(|entry| entry.path())
            .filter(|path| {
                !path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
            })
            .collect();
        paths.sort();
        Ok(paths)
    }

    /// Reads a waiting mail: whole when it has at most `limit` bytes, else
    /// only its first `head` bytes (enough for the headers, to answer it),
    /// so that a batch of huge mails never sits in memory. Returns the
    /// bytes read and the mail's size.
    pub fn read(path: &Path, limit: usize, head: usize) -> io::Result<(Vec<u8>, usize)> {
        let file = File::open(path)?;
        let size = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
        let head = head.min(limit);
        // Never more than the limit, even if the file grows meanwhile.
        let wanted = if size > limit { head } else { limit + 1 };
        let mut bytes = Vec::new();
        file.take(wanted as u64).read_to_end(&mut bytes)?;
        if bytes.len() > limit {
            bytes.truncate(head);
            return Ok((bytes, limit + 1));
        }
        let size = size.max(bytes.len());
        Ok((bytes, size))
    }

    /// Moves a handled mail from `new/` to `cur/`, marked seen.
    pub fn mark_handled(&self, path: &Path) -> io::Result<()> {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let base = name.split(":2,").next().unwrap_or(&name);
        fs::rename(path, self.root.join("cur").join(format!("{base}:2,S")))
    }

    /// Deletes the handled mails in `cur/` last changed before `before`
    /// (a mail's time there is its delivery's: a rename keeps it), and
    /// returns how many. What `serve` and `tick` keep is the operator's
    /// record of what came in; the database keeps what was done.
    pub fn prune_handled(&self, before: std::time::SystemTime) -> io::Result<usize> {
        let mut pruned = 0;
        for entry in fs::read_dir(self.root.join("cur"))? {
            let entry = entry?;
            let meta = entry.metadata()?;
            if meta.is_file() && meta.modified()? < before {
                fs::remove_file(entry.path())?;
                pruned += 1;
            }
        }
        Ok(pruned)
    }

    /// Delivers a mail into `new/` the Maildir way (write to `tmp/`, then
    /// rename), as a mail delivery agent would. Returns its path.
    pub fn deliver(&self, message: &[u8]) -> io::Result<PathBuf> {
        let name = unique_name();
        let tmp = self.root.join("tmp").join(&name);
        private::write(&tmp, message)?;
        let new = self.root.join("new").join(&name);
        fs::rename(&tmp, &new)?;
        Ok(new)
    }
}

/// What is read of a mail over the size limit: its headers, to answer it.
/// A batch holds at most its length times the size limit in memory.
pub const HEAD_BYTES: usize = 64 * 1024;

/// A Maildir as an inbound source: fetches the mails of `new/` in the
/// order of their names, acknowledges a batch by moving its mails to
/// `cur/`. A mail not acknowledged stays in `new/`, the same file, and is
/// read again by the next pass.
#[derive(Debug)]
pub struct MaildirSource {
    maildir: Maildir,
    poll_interval: Duration,
    /// The mails listed in `new/` and not fetched yet: `new/` is listed
    /// once for all the batches of a backlog, and again when they are
    /// done.
    listed: VecDeque<PathBuf>,
    /// The batch fetched and not acknowledged yet.
    in_hand: Vec<PathBuf>,
}

impl MaildirSource {
    /// Reads `maildir`, looking again every `poll_interval` when it waits.
    pub fn new(maildir: Maildir, poll_interval: Duration) -> MaildirSource {
        MaildirSource {
            maildir,
            poll_interval,
            listed: VecDeque::new(),
            in_hand: Vec::new(),
        }
    }

    fn failed(&self, path: &Path) -> impl FnOnce(io::Error) -> SourceError + use<> {
        let path = path.to_path_buf();
        move |error| SourceError::Maildir { path, error }
    }
}

impl InboundSource for MaildirSource {
    fn open(&mut self, _stop: &Stop) -> Result<(), SourceError> {
        self.listed.clear();
        self.in_hand.clear();
        Ok(())
    }

    fn fetch(&mut self, max: usize, limit: usize) -> Result<Vec<Fetched>, SourceError> {
        self.in_hand.clear();
        if self.listed.is_empty() {
            self.listed = self
                .maildir
                .waiting()
                .map_err(self.failed(self.maildir.root()))?
                .into();
        }
        let mut batch = Vec::new();
        while batch.len() < max {
            let Some(path) = self.listed.pop_front() else {
                break;
            };
            match Maildir::read(&path, limit, HEAD_BYTES) {
                Ok((raw, size)) => {
                    batch.push(Fetched { raw, size });
                    self.in_hand.push(path);
                }
                // Taken away meanwhile (another process): nothing to do.
                Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                Err(error) => {
                    // Listed again at the next fetch, with the rest.
                    self.listed.clear();
                    return Err(self.failed(&path)(error));
                }
            }
        }
        Ok(batch)
    }

    fn acknowledge(&mut self) -> Result<(), SourceError> {
        for path in std::mem::take(&mut self.in_hand) {
            self.maildir
                .mark_handled(&path)
                .map_err(self.failed(&path))?;
        }
        Ok(())
    }

    fn wait(&mut self, stop: &Stop) -> Result<(), SourceError> {
        stop.sleep(self.poll_interval);
        Ok(())
    }
}

/// A Maildir file name: time, a sequence number and the process id keep it
/// unique and in delivery order.
fn unique_name() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
    format!(
        "{}.{:09}_{sequence:06}.P{}.pbem",
        now.as_secs(),
        now.subsec_nanos(),
        std::process::id()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn maildir_with(mails: usize) -> (Maildir, tempfile::TempDir) {
        let dir = tempfile::tempdir().expect("temp dir");
        let maildir = Maildir::create(&dir.path().join("inbox")).expect("maildir");
        for i in 0..mails {
            maildir
                .deliver(format!("Subject: {i}\r\n\r\nbody {i}\r\n").as_bytes())
                .expect("delivered");
        }
        (maildir, dir)
    }

    fn subjects(batch: &[Fetched]) -> Vec<String> {
        batch
            .iter()
            .map(|mail| {
                let text = String::from_utf8_lossy(&mail.raw);
                text.lines().next().unwrap_or_default().to_string()
            })
            .collect()
    }

    #[test]
    fn batches_come_in_order_and_leave_new_only_when_acknowledged() {
        let (maildir, _dir) = maildir_with(5);
        let mut source = MaildirSource::new(maildir.clone(), Duration::ZERO);
        source.open(&Stop::default()).expect("open");
        let first = source.fetch(2, 1000).expect("fetch");
        assert_eq!(subjects(&first), ["Subject: 0", "Subject: 1"]);
        source.acknowledge().expect("acknowledged");
        assert_eq!(maildir.waiting().expect("new").len(), 3);
        // A batch in hand when the source is opened again (after a
        // failure) is not acknowledged: it comes again, the same.
        let second = source.fetch(2, 1000).expect("fetch");
        assert_eq!(subjects(&second), ["Subject: 2", "Subject: 3"]);
        source.open(&Stop::default()).expect("open again");
        assert_eq!(
            source.fetch(10, 1000).expect("fetch again"),
            [
                second,
                vec![Fetched {
                    raw: b"Subject: 4\r\n\r\nbody 4\r\n".to_vec(),
                    size: 22,
                }]
            ]
            .concat()
        );
        source.acknowledge().expect("acknowledged");
        assert!(source.fetch(10, 1000).expect("fetch").is_empty());
        assert!(maildir.waiting().expect("new").is_empty());
        assert_eq!(
            fs::read_dir(maildir.root().join("cur"))
                .expect("cur")
                .count(),
            5
        );
    }

    #[test]
    fn a_mail_over_the_limit_is_fetched_as_its_head_with_its_size() {
        let (maildir, _dir) = maildir_with(0);
        let big = format!("Subject: big\r\n\r\n{}", "x".repeat(5000));
        maildir.deliver(big.as_bytes()).expect("delivered");
        let mut source = MaildirSource::new(maildir, Duration::ZERO);
        source.open(&Stop::default()).expect("open");
        let batch = source.fetch(10, 1000).expect("fetch");
        assert_eq!(batch.len(), 1);
        assert_eq!(batch[0].size, big.len(), "its whole size");
        assert!(batch[0].raw.len() <= 1000 && batch[0].raw.starts_with(b"Subject: big"));
    }
}
