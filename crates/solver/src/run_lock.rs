//! One run at a time on a piece of saved state. A table build, a verification and a saved
//! search each take a lock file beside their state before they touch it (`5x9-loss-4v5.lock`
//! for the system 4v5 + 5v4), so that the same job started again while it runs (the command
//! in a second terminal, a script beside a `nohup` build) is refused at once, instead of both
//! writing the same state file and spoiling hours of work.
//!
//! The lock is the operating system's (`flock`, on Linux): a run that dies leaves no stale
//! lock, at most the empty file, which the next run takes. Elsewhere no lock is taken.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};

/// A lock held by this process; the file is removed when it is dropped.
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    /// Closing it releases the lock, after the file is removed.
    _file: File,
}

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another run holds it.
    Held { path: PathBuf },
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
}

impl std::fmt::Display for LockError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LockError::Held { path } => write!(
                f,
                "another run is working on the same state: it holds {}; wait for it to end, or \
                 stop it (Ctrl-C saves its state) and run this again",
                path.display()
            ),
            LockError::Io { path, error } => {
                write!(f, "cannot take the lock {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

impl RunLock {
    /// Take the lock `path` (the file is made if missing), or say that another run holds it.
    pub fn take(path: &Path) -> Result<RunLock, LockError> {
        let io = |error| LockError::Io {
            path: path.to_path_buf(),
            error,
        };
        loop {
            let file = OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(path)
                .map_err(io)?;
            if !os::try_lock(&file).map_err(io)? {
                return Err(LockError::Held {
                    path: path.to_path_buf(),
                });
            }
            // A run that ended between the open and the lock removed the file: this lock is
            // on a file no longer there, and another run may hold a new one. Take that instead.
            if os::is_the_file_at(&file, path) {
                return Ok(RunLock {
                    path: path.to_path_buf(),
                    _file: file,
                });
            }
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed while still held, so that no other run can have taken it in between.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Whether a run holds the lock `path` now (false when there is no such file).
pub fn is_held(path: &Path) -> bool {
    let Ok(file) = File::open(path) else {
        return false;
    };
    os::try_lock(&file).is_ok_and(|locked| !locked)
}

/// The lock beside a state file: its name up to the first dot, then `.lock`
/// (`5x9-loss-4v5.values.fnpart` and `5x9-loss-4v5.fnpart` share `5x9-loss-4v5.lock`).
pub fn lock_beside(state: &Path) -> PathBuf {
    let name = state
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.split('.').next().unwrap_or_default();
    state.with_file_name(format!("{stem}.lock"))
}

#[cfg(target_os = "linux")]
mod os {
    use std::fs::File;
    use std::os::unix::fs::MetadataExt;
    use std::os::unix::io::AsRawFd;
    use std::path::Path;

    /// Take an exclusive lock on `file` without waiting: false if another open file holds one.
    pub fn try_lock(file: &File) -> std::io::Result<bool> {
        // SAFETY: flock on a descriptor this File owns and keeps open.
        let result = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if result == 0 {
            return Ok(true);
        }
        let error = std::io::Error::last_os_error();
        match error.raw_os_error() {
            Some(libc::EWOULDBLOCK) => Ok(false),
            _ => Err(error),
        }
    }

    /// Whether `path` still names the open `file`.
    pub fn is_the_file_at(file: &File, path: &Path) -> bool {
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
            _ => false,
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod os {
    use std::fs::File;
    use std::path::Path;

    pub fn try_lock(_file: &File) -> std::io::Result<bool> {
        Ok(true)
    }

    pub fn is_the_file_at(_file: &File, _path: &Path) -> bool {
        true
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_second_run_is_refused_while_the_first_holds_the_lock() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("3x3-loss-2v2.lock");
        let first = RunLock::take(&path).unwrap();
        assert!(is_held(&path));
        let second = RunLock::take(&path);
        assert!(matches!(second, Err(LockError::Held { path: ref held }) if *held == path));
        drop(first);
        assert!(!path.exists(), "the lock file goes with the lock");
        assert!(!is_held(&path));
        let again = RunLock::take(&path).unwrap();
        assert_eq!(again.path(), path);
    }

    #[test]
    fn a_lock_file_left_by_a_run_that_died_is_taken() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("5x9-loss-verify-9-5v4.lock");
        std::fs::write(&path, b"").unwrap();
        assert!(!is_held(&path));
        assert!(RunLock::take(&path).is_ok());
    }

    #[test]
    fn a_lock_in_a_directory_that_is_not_there_is_an_error_naming_it() {
        let path = Path::new("/nonexistent-fanorona-directory/x.lock");
        let error = RunLock::take(path).unwrap_err();
        assert!(matches!(error, LockError::Io { .. }));
        assert!(error
            .to_string()
            .contains("/nonexistent-fanorona-directory/x.lock"));
    }

    #[test]
    fn the_states_of_a_system_share_one_lock() {
        let lock = |state: &str| lock_beside(Path::new(state));
        assert_eq!(
            lock("/t/5x9-loss-4v5.values.fnpart"),
            Path::new("/t/5x9-loss-4v5.lock")
        );
        assert_eq!(
            lock("/t/5x9-loss-4v5.fnpart"),
            Path::new("/t/5x9-loss-4v5.lock")
        );
        assert_eq!(
            lock("/t/5x9-loss-verify-10-1v9.fnverify"),
            Path::new("/t/5x9-loss-verify-10-1v9.lock")
        );
    }
}
