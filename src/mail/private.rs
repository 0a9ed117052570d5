//! Folders and files of mail that only pbem's own user may read: the
//! outbox holds confirmation codes and reply tokens, the inbox passwords.
//! A folder is created 0700 and a file 0600, whatever the umask; an
//! existing folder that everybody may enter loses that (its group keeps
//! what it has, for the shared-group MDA setup), as the database does
//! (see `store::private_file`).

use std::fs;
use std::io;
use std::path::Path;

/// Creates `path` and its missing parents, entered by their owner only;
/// takes away the access of others from an existing `path`.
pub fn dir(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        if !path.is_dir() {
            return fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(path);
        }
        let mode = fs::metadata(path)?.permissions().mode();
        if mode & 0o007 != 0 {
            // Expected of a folder made before pbem (umask 022): no warning.
            tracing::info!(
                path = %path.display(),
                "the folder was open to everybody; pbem takes that away (mode {:o})",
                mode & 0o770
            );
            fs::set_permissions(path, fs::Permissions::from_mode(mode & 0o770))?;
        }
        Ok(())
    }
    #[cfg(not(unix))]
    fs::create_dir_all(path)
}

/// Writes `bytes` to the file `path`, readable by its owner only (also
/// when it was left behind, with other permissions, by an earlier run).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    use std::io::Write;
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(0o600);
        let mut file = options.open(path)?;
        file.set_permissions(fs::Permissions::from_mode(0o600))?;
        file.write_all(bytes)
    }
    #[cfg(not(unix))]
    options.open(path)?.write_all(bytes)
}
