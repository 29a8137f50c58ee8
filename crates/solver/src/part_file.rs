//! Files written whole or not at all: each is written under a temporary name beside its own
//! and renamed over it once complete, so a reader never sees half a file, and a crash leaves
//! the last whole one. A write that fails (a full disk) removes what it had written: left
//! there, the part held the very room the next try needs.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A file being written under a temporary name; removed when dropped unless
/// [`PartFile::keep_as`] renamed it to its own name.
pub(crate) struct PartFile {
    temporary: PathBuf,
    kept: bool,
}

impl PartFile {
    /// Create (or empty) the temporary file `temporary`, and the guard that removes it.
    pub(crate) fn create(temporary: PathBuf) -> io::Result<(PartFile, File)> {
        let file = File::create(&temporary)?;
        let part = PartFile {
            temporary,
            kept: false,
        };
        Ok((part, file))
    }

    /// The file is complete (and synced where that matters): give it its own name `path`.
    pub(crate) fn keep_as(mut self, path: &Path) -> io::Result<()> {
        std::fs::rename(&self.temporary, path)?;
        self.kept = true;
        Ok(())
    }
}

impl Drop for PartFile {
    fn drop(&mut self) {
        if !self.kept {
            let _ = std::fs::remove_file(&self.temporary);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_part_is_renamed_when_kept_and_removed_when_not() {
        let dir = tempfile::tempdir().unwrap();
        let (part, mut file) = PartFile::create(dir.path().join("a.tmp")).unwrap();
        file.write_all(b"whole").unwrap();
        part.keep_as(&dir.path().join("a")).unwrap();
        assert_eq!(std::fs::read(dir.path().join("a")).unwrap(), b"whole");
        assert!(!dir.path().join("a.tmp").exists());

        let (part, mut file) = PartFile::create(dir.path().join("b.tmp")).unwrap();
        file.write_all(b"half").unwrap();
        drop(part); // as when a write fails and `?` returns
        assert!(!dir.path().join("b.tmp").exists());
        assert!(!dir.path().join("b").exists());

        // A rename that fails (a directory in the way) leaves nothing behind either.
        std::fs::create_dir_all(dir.path().join("c").join("in-the-way")).unwrap();
        let (part, _file) = PartFile::create(dir.path().join("c.tmp")).unwrap();
        assert!(part.keep_as(&dir.path().join("c")).is_err());
        assert!(!dir.path().join("c.tmp").exists());
    }
}
