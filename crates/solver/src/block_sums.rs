//! Block checksums of a table file, kept beside it (`5x9-loss-4v4.fntb.blocks`): one checksum
//! per 64 KiB of the file, so that a job that reads a few slots of a file of gigabytes (a
//! `query`) checks the blocks it reads instead of the whole file, and still never answers from
//! damaged bytes.
//!
//! The companion is written by whoever checks a whole file and finds none (a build, a search,
//! `tables stats` or `verify`, a first `query`). It names the length and the trailer checksum of
//! the file it belongs to and carries its own checksum, so a companion that is stale, damaged or
//! another file's is never used: the whole file is checked instead, and the companion written
//! again. Only an accelerator: where it cannot be written (a read-only directory), every job
//! checks whole files as before.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "FANOBLK\0"
//!      8     4  version (1)
//!     12     4  bytes per block
//!     16     8  length of the table file
//!     24     8  the table file's checksum (its trailer's)
//!     32     8  blocks
//!     40   8·n  checksum of each block of the table file before its trailer, from offset 0
//!               (the last block may be short)
//!    end     8  checksum of everything before it
//! ```

use crate::file::{Checksum, TRAILER_SIZE};
use crate::part_file::PartFile;
use rayon::prelude::*;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: &[u8; 8] = b"FANOBLK\0";
const VERSION: u32 = 1;
/// Bytes of the table file each checksum covers.
pub(crate) const BLOCK_BYTES: usize = 1 << 16;
const HEADER: usize = 40;

/// The companion's name: the table file's name with `.blocks` added.
pub fn companion_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".blocks");
    PathBuf::from(name)
}

fn checksum_of(bytes: &[u8]) -> u64 {
    let mut checksum = Checksum::new();
    checksum.update(bytes);
    checksum.finish()
}

/// The checksum of each block of `body` (a table file before its trailer), on every core.
fn sums_of(body: &[u8]) -> Vec<u64> {
    body.par_chunks(BLOCK_BYTES).map(checksum_of).collect()
}

/// Write the companion of the table file `table`, whose bytes are `file` (checked whole by
/// the caller): to a temporary name, then renamed. Where the directory refuses the temporary
/// file, nothing is computed.
pub(crate) fn write(table: &Path, file: &[u8]) -> io::Result<()> {
    let path = companion_path(table);
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let (part, mut out) = PartFile::create(temporary.into())?;
    let body = &file[..file.len() - TRAILER_SIZE];
    let file_checksum = u64::from_le_bytes(file[body.len() + 8..].try_into().expect("8 bytes"));
    let sums = sums_of(body);
    let mut bytes = Vec::with_capacity(HEADER + 8 * sums.len() + 8);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&(BLOCK_BYTES as u32).to_le_bytes());
    bytes.extend_from_slice(&(file.len() as u64).to_le_bytes());
    bytes.extend_from_slice(&file_checksum.to_le_bytes());
    bytes.extend_from_slice(&(sums.len() as u64).to_le_bytes());
    for sum in sums {
        bytes.extend_from_slice(&sum.to_le_bytes());
    }
    let own = checksum_of(&bytes);
    bytes.extend_from_slice(&own.to_le_bytes());
    out.write_all(&bytes)?;
    drop(out);
    part.keep_as(&path)
}

/// The block checksums of one table file, and which blocks have been checked so far.
pub(crate) struct BlockSums {
    sums: Vec<u64>,
    /// One bit per block, set once the block matched its checksum.
    checked: Vec<AtomicU64>,
}

impl BlockSums {
    /// The companion of `table`, if it is there, whole, and belongs to a file of `length`
    /// bytes whose trailer checksum is `file_checksum`.
    pub(crate) fn read(table: &Path, length: u64, file_checksum: u64) -> Option<BlockSums> {
        let bytes = fs::read(companion_path(table)).ok()?;
        let blocks = (length as usize - TRAILER_SIZE).div_ceil(BLOCK_BYTES);
        if bytes.len() != HEADER + 8 * blocks + 8 {
            return None;
        }
        let (body, own) = bytes.split_at(bytes.len() - 8);
        let word = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().expect("8 bytes"));
        let fits = &bytes[0..8] == MAGIC
            && bytes[8..12] == VERSION.to_le_bytes()
            && bytes[12..16] == (BLOCK_BYTES as u32).to_le_bytes()
            && word(16) == length
            && word(24) == file_checksum
            && word(32) == blocks as u64
            && own == checksum_of(body).to_le_bytes();
        fits.then(|| BlockSums {
            sums: (0..blocks).map(|k| word(HEADER + 8 * k)).collect(),
            checked: (0..blocks.div_ceil(64))
                .map(|_| AtomicU64::new(0))
                .collect(),
        })
    }

    /// Whether the block that holds byte `at` was checked already.
    pub(crate) fn is_checked(&self, at: usize) -> bool {
        let (word, bit) = self.checked_bit(at);
        word.load(Ordering::Relaxed) & bit != 0
    }

    /// Whether the block of `body` (the table file before its trailer) that holds byte `at`
    /// matches its checksum; each block is read once, later calls only look at a bit.
    pub(crate) fn check(&self, body: &[u8], at: usize) -> bool {
        if self.is_checked(at) {
            return true;
        }
        let fits = checksum_of(&body[block_range(body.len(), at)]) == self.sums[at / BLOCK_BYTES];
        if fits {
            let (word, bit) = self.checked_bit(at);
            word.fetch_or(bit, Ordering::Relaxed);
        }
        fits
    }

    /// The word and bit that say whether the block holding byte `at` was checked.
    fn checked_bit(&self, at: usize) -> (&AtomicU64, u64) {
        let block = at / BLOCK_BYTES;
        (&self.checked[block / 64], 1u64 << (block % 64))
    }
}

/// The bytes of the block that holds byte `at`, in a body of `body_len` bytes.
pub(crate) fn block_range(body_len: usize, at: usize) -> std::ops::Range<usize> {
    let start = at / BLOCK_BYTES * BLOCK_BYTES;
    start..body_len.min(start + BLOCK_BYTES)
}
