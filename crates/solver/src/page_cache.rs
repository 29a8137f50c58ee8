//! Telling the kernel that a file's pages will not be read again, or reading files into the
//! cache ahead of the random probes that would otherwise read them a page at a time.
//!
//! A long search reads a saved state of gigabytes, copies the endgame tables into memory and
//! writes the state again every few minutes. Left alone, the kernel keeps all those file pages
//! cached, and the free memory left between them is scattered in small pieces: the huge pages
//! the transposition table, the held set and each closure's arrays ask for (see
//! `zeroed_memory.rs`) then fall back to 4 KiB pages, and every random probe of those
//! pays a page walk (measured on the 8 GiB search after d3-e3W: a seventh of the table and two
//! thirds of the held set on small pages). Dropping the pages of a file read or written once
//! keeps the memory whole.

use std::fs::File;
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Drop the cached pages of `file` (advice only: what cannot be dropped stays, and nothing
/// else changes). Dirty pages are not dropped, so call it after the file is synced.
#[cfg(target_os = "linux")]
pub fn forget(file: &File) {
    use std::os::fd::AsRawFd;
    // Safety: a plain system call on a descriptor this `File` owns; it reads no memory.
    unsafe {
        libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
}

/// Elsewhere the page cache is left to the system.
#[cfg(not(target_os = "linux"))]
pub fn forget(_file: &File) {}

/// The memory the system says is available now (`MemAvailable` in `/proc/meminfo`: free
/// memory and the page cache it could drop), in bytes; `None` where it does not say.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes << 10)
}

/// Memory the warming leaves to others: searches grow (a closure takes gigabytes for a while).
const WARMING_SPARE: u64 = 2 << 30;

/// Whether a warming thread is reading now: one at a time is enough.
static WARMING: AtomicBool = AtomicBool::new(false);

/// Read `files` through once, in that order, in a thread of their own, so that their pages are
/// in the page cache before the probes ask for them; at most what the cache can hold now
/// (the available memory less [`WARMING_SPARE`]), and nothing where a warming is under way or
/// the system does not say what is available. Returns whether a thread was started.
///
/// Why: a table probed in place is advised random (see `TableFile::probe_at_random`), so each
/// page a probe misses is read alone. After a closure has pushed the tables out of the cache
/// (fifty-ninth session, two searches of d3-e3W's points over the 9-stone tables, 11.8 GB of
/// them mapped), the searches ran at 0.06 to 0.7 M nodes a second for a quarter of an hour,
/// half of the time waiting on the disk, with 5 GB of memory free: the faults filled the
/// cache at 1 to 3 MB a second. Read through once, at the disk's sequential speed, the files
/// were in the cache in 3.5 minutes, and the searches went back to 1.3 M nodes a second.
pub fn warm_in_background(files: Vec<PathBuf>) -> bool {
    if files.is_empty() {
        return false;
    }
    let Some(budget) = available_memory().map(|bytes| bytes.saturating_sub(WARMING_SPARE)) else {
        return false;
    };
    if budget == 0 || WARMING.swap(true, Ordering::AcqRel) {
        return false;
    }
    let started = std::thread::Builder::new()
        .name("warm-page-cache".into())
        .spawn(move || {
            read_through(&files, budget);
            WARMING.store(false, Ordering::Release);
        });
    if started.is_err() {
        WARMING.store(false, Ordering::Release);
    }
    started.is_ok()
}

/// Read the files in order, until `budget` bytes are read; a file that cannot be read is
/// passed over (the probes will name it if it matters). Returns the bytes read.
fn read_through(files: &[PathBuf], budget: u64) -> u64 {
    let mut buffer = vec![0u8; 8 << 20];
    let mut read = 0u64;
    for path in files {
        let Ok(mut file) = File::open(path) else {
            continue;
        };
        while read < budget {
            let wanted = buffer.len().min((budget - read) as usize);
            match file.read(&mut buffer[..wanted]) {
                Ok(0) | Err(_) => break,
                Ok(bytes) => read += bytes as u64,
            }
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reading_through_stops_at_the_budget_and_passes_over_missing_files() {
        let directory = std::env::temp_dir().join(format!("warm-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let (small, large) = (directory.join("small"), directory.join("large"));
        std::fs::write(&small, vec![1u8; 1000]).unwrap();
        std::fs::write(&large, vec![2u8; 10_000]).unwrap();
        let missing = directory.join("missing");
        let files = [small.clone(), missing, large.clone()];
        assert_eq!(read_through(&files, u64::MAX), 11_000);
        assert_eq!(read_through(&files, 5_000), 5_000);
        assert_eq!(read_through(&files[..1], 5_000), 1_000);
        std::fs::remove_dir_all(&directory).unwrap();
    }
}
