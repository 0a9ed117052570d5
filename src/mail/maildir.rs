//! The inbound Maildir: mails arrive in `new/`; a mail moves to `cur/` only
//! after its result is committed, so a crash never loses one (and the
//! Message-ID record keeps a re-read mail from acting twice).

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::private;

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
