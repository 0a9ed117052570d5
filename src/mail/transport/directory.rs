//! The directory transport: each mail becomes the file `<outbox id>.eml`,
//! for a mail system (or a test, or `pbem demo`) to pick up. The envelope
//! sender is not written: a file has no envelope, and `Return-Path` is the
//! final delivery's to add (RFC 5321 4.4), not a sender's; the mail stays
//! byte for byte what the outbox holds.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

use super::{MailSender, SendError};
use crate::mail::private;

/// Writes each mail as `<outbox id>.eml` into a directory. Written through
/// a temporary file and renamed, and named by outbox id, so a mail sent
/// again after a crash replaces itself: every mail is there exactly once.
pub struct FileSender {
    dir: PathBuf,
    /// Files written but not yet synced to disk.
    unsynced: Vec<PathBuf>,
    /// The flush under way on its own thread, if one was started.
    flushing: Option<std::thread::JoinHandle<io::Result<()>>>,
}

impl FileSender {
    /// Writes into `dir`, created if missing; its mails hold confirmation
    /// codes and reply tokens, so the folder is its owner's (see
    /// [`private::dir`]) and each mail readable by its owner only.
    pub fn new(dir: &Path) -> io::Result<FileSender> {
        private::dir(dir)?;
        Ok(FileSender {
            dir: dir.to_path_buf(),
            unsynced: Vec::new(),
            flushing: None,
        })
    }

    /// The file a mail goes to.
    pub fn path_of(&self, outbox_id: i64) -> PathBuf {
        self.dir.join(format!("{outbox_id:010}.eml"))
    }
}

impl MailSender for FileSender {
    fn send(
        &mut self,
        outbox_id: i64,
        _envelope_sender: &str,
        _recipients: &[String],
        message: &[u8],
    ) -> Result<(), SendError> {
        let path = self.path_of(outbox_id);
        let tmp = self.dir.join(format!(".{outbox_id:010}.eml.tmp"));
        private::write(&tmp, message)?;
        fs::rename(&tmp, &path)?;
        self.unsynced.push(path);
        Ok(())
    }

    fn resend_is_harmless(&self) -> bool {
        true
    }

    /// Starts making the files written since the last flush durable, with
    /// their directory entries, on a thread of its own: the disk flushes
    /// one batch while the next is written. At most one flush runs.
    fn start_flush(&mut self) -> Result<(), SendError> {
        self.finish_flush()?;
        if !self.unsynced.is_empty() {
            let (dir, files) = (self.dir.clone(), self.unsynced.clone());
            let flush = std::thread::Builder::new()
                .name("pbem-flush".to_string())
                .spawn(move || sync_written(&dir, &files));
            match flush {
                Ok(flush) => self.flushing = Some(flush),
                // No thread to be had: flushed here, in turn.
                Err(_) => sync_written(&self.dir, &self.unsynced)?,
            }
            self.unsynced.clear();
        }
        Ok(())
    }

    fn finish_flush(&mut self) -> Result<(), SendError> {
        match self.flushing.take() {
            None => Ok(()),
            Some(flush) => Ok(flush
                .join()
                .map_err(|_| io::Error::other("the thread flushing the outbox panicked"))??),
        }
    }
}

/// Syncs `files`, written into `dir`, and `dir` itself. On Linux one
/// `syncfs` of the directory's filesystem does it all with a single flush
/// of the disk's cache, where a `fsync` per file would flush it once per
/// mail (most of the cost of a batch on a disk that honours flushes).
#[cfg(target_os = "linux")]
fn sync_written(dir: &Path, _files: &[PathBuf]) -> io::Result<()> {
    Ok(rustix::fs::syncfs(File::open(dir)?)?)
}

/// Syncs `files`, written into `dir`, and `dir` itself: one `fsync` each.
#[cfg(not(target_os = "linux"))]
fn sync_written(dir: &Path, files: &[PathBuf]) -> io::Result<()> {
    for path in files {
        File::open(path)?.sync_all()?;
    }
    File::open(dir)?.sync_all()
}
