//! Telling the kernel that a file's pages will not be read again.
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
