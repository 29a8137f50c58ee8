//! A system's build state on disk, so that an interrupted build goes on where it stopped.
//!
//! The largest systems take hours to solve; the state between two steps (a block of mover
//! classes in the first phase, a level in the second) is the slots' bytes, the deep distances,
//! the classes' bit sets of levels, the deepest distance seen and where to go on. It is
//! written to a temporary name and renamed, and carries a checksum: a file that is damaged or
//! belongs to another build is reported and ignored, never trusted.

use super::Slot;
use crate::file::Checksum;
use crate::part_file::PartFile;
use fanorona_engine::{Blocked, Board, Rules};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering::Relaxed;

const MAGIC: &[u8; 8] = b"FANOPART";
/// Changes whenever the layout of the state, or what a slot's byte means, changes.
const VERSION: u32 = 1;

/// Where a build goes on from: its first phase, the same for both builders, or its second
/// (`Later`: [`Levels`] here, the sweeps of the values-only builder).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage<Later> {
    /// Deciding captures: slots before `slot` are done, and `classes_done` classes of it.
    Captures { slot: usize, classes_done: u64 },
    /// The second phase.
    Later(Later),
}

impl<Later> Stage<Later> {
    /// How many of the `classes` mover classes of slot `s` have their captures decided.
    pub(crate) fn classes_done(&self, s: usize, classes: u64) -> u64 {
        match *self {
            Stage::Captures { slot, classes_done } if slot == s => classes_done,
            Stage::Captures { slot, .. } if slot < s => 0,
            _ => classes, // done before the state was saved
        }
    }
}

/// In words, for the notes a build prints when it saves and goes on.
impl<Later: std::fmt::Display> std::fmt::Display for Stage<Later> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Stage::Captures { slot, classes_done } => write!(
                f,
                "deciding captures: table {} of the system, {classes_done} mover classes done",
                slot + 1
            ),
            Stage::Later(later) => later.fmt(f),
        }
    }
}

/// The byte builder's second phase: passing values back, every level before `next_distance`
/// done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Levels {
    pub(super) next_distance: u16,
}

impl std::fmt::Display for Levels {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "paika levels: next distance {}", self.next_distance)
    }
}

/// What a saved state says besides the slots.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Saved {
    pub stage: Stage<Levels>,
    /// The largest distance decided so far in the first phase.
    pub deepest: u16,
}

/// Write the state of `slots` at `saved` to `path`.
pub(super) fn save(
    path: &Path,
    board: &Board,
    rules: &Rules,
    slots: &mut [Slot],
    saved: &Saved,
) -> io::Result<()> {
    let (part, mut out) = create_state(path, &fingerprint(board, rules, slots))?;
    let (kind, a, b) = match saved.stage {
        Stage::Captures { slot, classes_done } => (0u8, slot as u64, classes_done),
        Stage::Later(Levels { next_distance }) => (1u8, next_distance as u64, 0),
    };
    out.write_all(&[kind])?;
    out.write_all(&a.to_le_bytes())?;
    out.write_all(&b.to_le_bytes())?;
    out.write_all(&saved.deepest.to_le_bytes())?;
    for slot in slots.iter_mut() {
        for words in &slot.levels {
            for word in words {
                out.write_all(&word.load(Relaxed).to_le_bytes())?;
            }
        }
        slot.cells.write_to(&mut out)?;
    }
    finish_state(part, out, path)
}

/// A state file being written to a temporary name, its fingerprint written.
pub(super) fn create_state(
    path: &Path,
    fingerprint: &[u8],
) -> io::Result<(PartFile, Hashed<BufWriter<File>>)> {
    let (part, file) = PartFile::create(temporary_path(path))?;
    let mut out = Hashed::new(BufWriter::with_capacity(1 << 20, file));
    out.write_all(fingerprint)?;
    Ok((part, out))
}

/// End a state file with its checksum, and rename it to `path`.
pub(super) fn finish_state(
    part: PartFile,
    out: Hashed<BufWriter<File>>,
    path: &Path,
) -> io::Result<()> {
    let checksum = out.checksum.finish();
    let mut file = out.inner;
    file.write_all(&checksum.to_le_bytes())?;
    file.into_inner()
        .map_err(|error| error.into_error())?
        .sync_all()?;
    part.keep_as(path)
}

/// The state file `path` opened and its fingerprint checked against `expected`; `Ok(None)`
/// if there is none, an error that names why one cannot be used.
pub(super) fn open_state(
    path: &Path,
    expected: &[u8],
) -> Result<Option<Hashed<BufReader<File>>>, String> {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error.to_string()),
    };
    let mut input = Hashed::new(BufReader::with_capacity(1 << 20, file));
    let mut found = vec![0u8; expected.len()];
    input.read_exact(&mut found).map_err(read_failure)?;
    if found != expected {
        return Err("it belongs to another build (board, rules, materials or version)".into());
    }
    Ok(Some(input))
}

/// Why a state file could not be read, in words.
pub(super) fn read_failure(error: io::Error) -> String {
    match error.kind() {
        io::ErrorKind::UnexpectedEof => "it is truncated".to_string(),
        _ => error.to_string(),
    }
}

/// Check that a state file read to its end holds its checksum, and nothing after it.
pub(super) fn check_end(mut input: Hashed<BufReader<File>>) -> Result<(), String> {
    let checksum = input.checksum.finish();
    let mut stored = [0u8; 8];
    input.inner.read_exact(&mut stored).map_err(read_failure)?;
    if u64::from_le_bytes(stored) != checksum {
        return Err("it is corrupt: its checksum does not match its contents".into());
    }
    if input.inner.read(&mut [0u8; 1]).map_err(read_failure)? != 0 {
        return Err("it has bytes after its end".into());
    }
    Ok(())
}

/// Where a save to `path` writes before it renames: what a save cut short leaves behind.
pub fn temporary_path(path: &Path) -> PathBuf {
    path.with_extension("fnpart.tmp")
}

/// Read the state saved in `path` into `slots`. `Ok(None)` if there is none; an error names
/// why a file there cannot be used (after which `slots` hold garbage and must be made again).
pub(super) fn load(
    path: &Path,
    board: &Board,
    rules: &Rules,
    slots: &mut [Slot],
) -> Result<Option<Saved>, String> {
    let Some(mut input) = open_state(path, &fingerprint(board, rules, slots))? else {
        return Ok(None);
    };
    let truncated = read_failure;
    let mut stage = [0u8; 1 + 8 + 8 + 2];
    input.read_exact(&mut stage).map_err(truncated)?;
    let word = |at: usize| u64::from_le_bytes(stage[at..at + 8].try_into().expect("8 bytes"));
    let (a, b) = (word(1), word(9));
    let stage_read = match stage[0] {
        0 if (a as usize) < slots.len() => Stage::Captures {
            slot: a as usize,
            classes_done: b,
        },
        1 if a <= u16::MAX as u64 => Stage::Later(Levels {
            next_distance: a as u16,
        }),
        _ => return Err("its stage is not one a build writes".into()),
    };
    let deepest = u16::from_le_bytes([stage[17], stage[18]]);
    for slot in slots.iter_mut() {
        for words in &mut slot.levels {
            for word in words.iter_mut() {
                let mut bytes = [0u8; 8];
                input.read_exact(&mut bytes).map_err(truncated)?;
                *word.get_mut() = u64::from_le_bytes(bytes);
            }
        }
        slot.cells.read_from(&mut input).map_err(truncated)?;
    }
    check_end(input)?;
    Ok(Some(Saved {
        stage: stage_read,
        deepest,
    }))
}

/// What a state belongs to: the format, the board, the rules and each slot's material, size,
/// classes and largest count.
fn fingerprint(board: &Board, rules: &Rules, slots: &[Slot]) -> Vec<u8> {
    let mut bytes = build_fingerprint(MAGIC, VERSION, board, rules);
    bytes.push(slots.len() as u8);
    for slot in slots {
        let material = slot.index.material();
        bytes.push(material.mover as u8);
        bytes.push(material.waiting as u8);
        bytes.extend_from_slice(&slot.index.size().to_le_bytes());
        bytes.extend_from_slice(&slot.index.mover_classes().to_le_bytes());
        bytes.push(slot.cells.max_count());
    }
    bytes
}

/// The start of a state file's fingerprint: its kind and format, the board and the rules.
pub(super) fn build_fingerprint(
    magic: &[u8; 8],
    version: u32,
    board: &Board,
    rules: &Rules,
) -> Vec<u8> {
    let mut bytes = magic.to_vec();
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.push(board.rows() as u8);
    bytes.push(board.columns() as u8);
    bytes.push(match rules.blocked {
        Blocked::Loss => 0,
        Blocked::Draw => 1,
    });
    bytes
}

/// A reader or writer that checksums what passes through it.
pub(super) struct Hashed<T> {
    pub(super) inner: T,
    pub(super) checksum: Checksum,
}

impl<T> Hashed<T> {
    pub(super) fn new(inner: T) -> Hashed<T> {
        Hashed {
            inner,
            checksum: Checksum::new(),
        }
    }
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.inner.write(bytes)?;
        self.checksum.update(&bytes[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, bytes: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(bytes)?;
        self.checksum.update(&bytes[..read]);
        Ok(read)
    }
}
