//! Table files: one per material, self-describing, checksummed, memory-mapped for probing.
//!
//! Two kinds (see [`Content`]): *entry files* (`.fntb`) hold each position's value and
//! distance; *value files* (`.fnval`) hold the value alone, in 2 bits, an eighth of the size,
//! for searches, which need no distances. A value file is derived from its entry file.
//!
//! ```text
//! offset  size  field
//!      0     8  magic "FANOTBL\0" (entry file) or "FANOVAL\0" (value file)
//!      8     4  format version (1)
//!     12     1  rows            13  1  columns
//!     14     1  blocked rule (0: a blocked side loses, 1: draw)
//!     15     1  stones of the side to move   16  1  stones of the side waiting
//!     17     1  index scheme (2: colex ranks, side to move folded, board symmetries used)
//!     18     1  entry width in bytes (2; 0 in a value file)
//!     19     1  bits per entry (0 in an entry file; 2 in a value file)
//!     24     8  entries
//!   4096     -  entry file: entries, little-endian u16, in index order (see `Entry`);
//!               value file: four 2-bit values per byte, the first in the low bits
//!               (0 draw, 1 win, 2 loss, for the side to move)
//!    end    16  trailer: "FANOEND\0", then the checksum of everything before it
//! ```
//!
//! Files are written under a temporary name and renamed when complete, so a file with the final
//! name is whole unless something damaged it later; opening one checks its size, header and
//! checksum, and names the file and the problem when any is wrong. A job that reads a few slots
//! checks instead the blocks it reads, against the block checksums kept beside the file
//! ([`crate::block_sums`]).

use crate::base3_values;
use crate::block_sums::{self, BlockSums};
use crate::entry::Entry;
use crate::index::Material;
use crate::part_file::PartFile;
use crate::sparse_values;
use fanorona_engine::{Blocked, Board, Rules, Value};
use memmap2::Mmap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"FANOTBL\0";
const VALUES_MAGIC: &[u8; 8] = b"FANOVAL\0";
const TRAILER_MAGIC: &[u8; 8] = b"FANOEND\0";
const FORMAT_VERSION: u32 = 1;
const INDEX_SCHEME: u8 = 2;
const ENTRY_WIDTH: u8 = 2;
/// The payload starts on a page boundary.
const HEADER_SIZE: usize = 4096;
pub(crate) const TRAILER_SIZE: usize = 16;

/// What a table file holds for each slot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Content {
    /// The value and the distance: an [`Entry`] of 2 bytes (`.fntb`).
    Entries,
    /// The value alone, in 2 bits (`.fnval`): what a search probes.
    Values,
}

impl Content {
    fn extension(self) -> &'static str {
        match self {
            Content::Entries => "fntb",
            Content::Values => "fnval",
        }
    }

    /// Bytes of payload for `entries` slots.
    pub(crate) fn payload_bytes(self, entries: u64) -> u64 {
        match self {
            Content::Entries => ENTRY_WIDTH as u64 * entries,
            Content::Values => entries.div_ceil(VALUES_PER_BYTE),
        }
    }
}

/// 2-bit values in a byte.
const VALUES_PER_BYTE: u64 = 4;

/// The 2-bit code of a value in a value file.
fn value_code(value: Value) -> u8 {
    match value {
        Value::Draw => 0,
        Value::Win => 1,
        Value::Loss => 2,
    }
}

/// The value of a 2-bit code (3 never occurs in a file whose checksum holds).
const VALUE_OF_CODE: [Value; 4] = [Value::Draw, Value::Win, Value::Loss, Value::Draw];

/// What a table file is for: board, rules and material, and what it holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableId {
    pub rows: usize,
    pub columns: usize,
    pub blocked: Blocked,
    pub material: Material,
    pub content: Content,
}

impl TableId {
    /// The entry file of a material.
    pub fn new(board: &Board, rules: &Rules, material: Material) -> TableId {
        TableId {
            rows: board.rows(),
            columns: board.columns(),
            blocked: rules.blocked,
            material,
            content: Content::Entries,
        }
    }

    /// The value file of the same material.
    pub fn values(self) -> TableId {
        self.with(Content::Values)
    }

    /// The file of the same material that holds `content`.
    pub fn with(self, content: Content) -> TableId {
        TableId { content, ..self }
    }

    /// `5x9-loss-3v2.fntb`: board, blocked rule, stones to move v stones waiting (`.fnval`
    /// for the value file).
    pub fn file_name(&self) -> String {
        let rule = match self.blocked {
            Blocked::Loss => "loss",
            Blocked::Draw => "draw",
        };
        format!(
            "{}x{}-{rule}-{}v{}.{}",
            self.rows,
            self.columns,
            self.material.mover,
            self.material.waiting,
            self.content.extension()
        )
    }

    fn header(&self, entries: u64) -> [u8; HEADER_SIZE] {
        let mut header = [0u8; HEADER_SIZE];
        header[0..8].copy_from_slice(match self.content {
            Content::Entries => MAGIC,
            Content::Values => VALUES_MAGIC,
        });
        header[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        header[12] = self.rows as u8;
        header[13] = self.columns as u8;
        header[14] = match self.blocked {
            Blocked::Loss => 0,
            Blocked::Draw => 1,
        };
        header[15] = self.material.mover as u8;
        header[16] = self.material.waiting as u8;
        header[17] = INDEX_SCHEME;
        match self.content {
            Content::Entries => header[18] = ENTRY_WIDTH,
            Content::Values => header[19] = 2,
        }
        header[24..32].copy_from_slice(&entries.to_le_bytes());
        header
    }
}

/// What is wrong with a table file.
#[derive(Debug)]
pub enum TableError {
    Missing {
        path: PathBuf,
    },
    Io {
        path: PathBuf,
        error: io::Error,
    },
    /// The tables' directory could not be made.
    NoDirectory {
        path: PathBuf,
        error: io::Error,
    },
    Truncated {
        path: PathBuf,
        expected: u64,
        found: u64,
    },
    BadHeader {
        path: PathBuf,
        field: &'static str,
    },
    BadChecksum {
        path: PathBuf,
    },
    /// A file of a material with more positions than the tables' index can number (no build
    /// writes one).
    TooLarge {
        path: PathBuf,
    },
    /// A build or verification stopped on request, its state saved in `path` (run it again
    /// to go on).
    Stopped {
        path: PathBuf,
    },
    /// Another run builds or verifies the same tables now, or the lock that says so could
    /// not be taken.
    Busy(crate::run_lock::LockError),
    /// Too little room on the disk of `directory` for a build, said before it starts.
    NoRoom {
        directory: PathBuf,
        why: String,
    },
}

impl From<crate::run_lock::LockError> for TableError {
    fn from(error: crate::run_lock::LockError) -> TableError {
        TableError::Busy(error)
    }
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Missing { path } => write!(f, "table file {} is missing", path.display()),
            TableError::Io { path, error } => write!(f, "table file {}: {error}", path.display()),
            TableError::NoDirectory { path, error } => {
                write!(
                    f,
                    "tables directory {}: cannot make it: {error}",
                    path.display()
                )
            }
            TableError::Truncated {
                path,
                expected,
                found,
            } => write!(
                f,
                "table file {} is truncated or padded: {found} bytes, expected {expected}",
                path.display()
            ),
            TableError::BadHeader { path, field } => {
                write!(
                    f,
                    "table file {} has a wrong header: {field} does not match",
                    path.display()
                )
            }
            TableError::BadChecksum { path } => {
                write!(
                    f,
                    "table file {} is corrupt: its checksum does not match its contents",
                    path.display()
                )
            }
            TableError::TooLarge { path } => write!(
                f,
                "table file {} is of a material too large to number: no table of it can be built",
                path.display()
            ),
            TableError::Stopped { path } => write!(
                f,
                "interrupted; the state is saved in {}: run the same command to go on",
                path.display()
            ),
            TableError::Busy(error) => error.fmt(f),
            TableError::NoRoom { directory, why } => {
                write!(f, "not enough room in {}: {why}", directory.display())
            }
        }
    }
}

impl std::error::Error for TableError {}

/// Write `entries` as the table `id` in `directory` (all of each entry, or its value alone, as
/// `id.content` says): to a temporary name, then renamed.
pub fn write_table(
    directory: &Path,
    id: &TableId,
    entries: impl ExactSizeIterator<Item = Entry>,
) -> Result<PathBuf, TableError> {
    match id.content {
        Content::Entries => write_payload(directory, id, entries.len() as u64, |push| {
            entries
                .into_iter()
                .try_for_each(|entry| push(&entry.0.to_le_bytes()))
        }),
        Content::Values => write_values(directory, id, entries.map(|entry| entry.value())),
    }
}

/// Write `values` as the value file `id` in `directory` (a table built with values alone has
/// no entry file to derive it from).
pub fn write_values(
    directory: &Path,
    id: &TableId,
    values: impl ExactSizeIterator<Item = Value>,
) -> Result<PathBuf, TableError> {
    assert_eq!(id.content, Content::Values, "values go to a value file");
    let len = values.len() as u64;
    let mut values = values.peekable();
    write_payload(directory, id, len, |push| {
        while values.peek().is_some() {
            let byte = values
                .by_ref()
                .take(VALUES_PER_BYTE as usize)
                .enumerate()
                .fold(0u8, |byte, (i, value)| byte | value_code(value) << (2 * i));
            push(&[byte])?;
        }
        Ok(())
    })
}

/// Write the table `id` of `slots` slots, its payload made by `payload` (which hands its bytes
/// to the function it is given), with header and trailer: to a temporary name, then renamed.
fn write_payload(
    directory: &Path,
    id: &TableId,
    slots: u64,
    payload: impl FnOnce(&mut dyn FnMut(&[u8]) -> io::Result<()>) -> io::Result<()>,
) -> Result<PathBuf, TableError> {
    let path = directory.join(id.file_name());
    let temporary = path.with_extension(format!("{}.tmp", id.content.extension()));
    let io_error = |error| TableError::Io {
        path: temporary.clone(),
        error,
    };
    let mut checksum = Checksum::new();
    let (part, file) = PartFile::create(temporary.clone()).map_err(io_error)?;
    let mut out = BufWriter::new(file);
    let header = id.header(slots);
    checksum.update(&header);
    out.write_all(&header).map_err(io_error)?;
    let mut buffer = Vec::with_capacity(1 << 17);
    let mut push = |bytes: &[u8]| -> io::Result<()> {
        buffer.extend_from_slice(bytes);
        if buffer.len() >= 1 << 17 {
            checksum.update(&buffer);
            out.write_all(&buffer)?;
            buffer.clear();
        }
        Ok(())
    };
    payload(&mut push).map_err(io_error)?;
    checksum.update(&buffer);
    out.write_all(&buffer).map_err(io_error)?;
    out.write_all(TRAILER_MAGIC).map_err(io_error)?;
    out.write_all(&checksum.finish().to_le_bytes())
        .map_err(io_error)?;
    let file = out.into_inner().map_err(|e| io_error(e.into_error()))?;
    file.sync_all().map_err(io_error)?;
    part.keep_as(&path).map_err(|error| TableError::Io {
        path: path.clone(),
        error,
    })?;
    Ok(path)
}

/// A table file, mapped into memory after its size, header and checksum were checked: the
/// whole file's ([`TableFile::open`]), or each block's before it is read
/// ([`TableFile::open_by_blocks`], see [`crate::block_sums`]).
pub struct TableFile {
    map: Mmap,
    entries: u64,
    content: Content,
    path: PathBuf,
    /// `None` once the whole file was checked; else the checksums of its blocks, each to be
    /// checked ([`TableFile::check_slot`]) before the slots in it are read.
    blocks: Option<BlockSums>,
    layout: Layout,
    /// A value file's lopsided layout, where it is the smaller: planned (a read of the file)
    /// the first time a copy's layout or size is asked for.
    sparse_plan: OnceLock<Option<sparse_values::Plan>>,
}

/// How a value file's copy in memory is packed: five values a byte (a read from one place in
/// memory: the fastest), or for a lopsided table its most common value and its exceptions
/// where that is the smaller (see [`crate::sparse_values`]: a read from two places).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Packing {
    Fastest,
    Smallest,
}

/// How a table's slots lie in the bytes of its map.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    /// As in the file: header, payload, trailer.
    File,
    /// A value file's copy in memory: its values five to a byte, without header or trailer
    /// (see [`crate::base3_values`]); `checksum` is the file's.
    FiveValuesAByte { checksum: u64 },
    /// A lopsided value file's copy in memory: its most common value, and where the others
    /// are (see [`crate::sparse_values`]); `checksum` is the file's.
    Sparse { checksum: u64, common: Value },
}

impl TableFile {
    /// Open and check the table `id` in `directory`, the whole file; `entries` is how many it
    /// must hold. Writes the file's block checksums beside it if they are not there yet.
    pub fn open(directory: &Path, id: &TableId, entries: u64) -> Result<TableFile, TableError> {
        let (path, map) = map_file(directory, id)?;
        check_shape(&path, &map, id, entries)?;
        check_whole(&path, &map)?;
        if BlockSums::read(&path, map.len() as u64, trailer_checksum(&map)).is_none() {
            // Only an accelerator: a directory that refuses it changes nothing.
            let _ = block_sums::write(&path, &map);
        }
        Ok(TableFile {
            map,
            entries,
            content: id.content,
            path,
            blocks: None,
            layout: Layout::File,
            sparse_plan: OnceLock::new(),
        })
    }

    /// Open the table `id` in `directory` checking its size and header only, and its blocks
    /// as they are read: for a job that reads a few slots ([`TableFile::check_slot`] first).
    /// Without usable block checksums beside it, the whole file is checked, as by `open`.
    pub fn open_by_blocks(
        directory: &Path,
        id: &TableId,
        entries: u64,
    ) -> Result<TableFile, TableError> {
        let (path, map) = map_file(directory, id)?;
        check_shape(&path, &map, id, entries)?;
        match BlockSums::read(&path, map.len() as u64, trailer_checksum(&map)) {
            Some(blocks) => Ok(TableFile {
                map: read_by_blocks(map),
                entries,
                content: id.content,
                path,
                blocks: Some(blocks),
                layout: Layout::File,
                sparse_plan: OnceLock::new(),
            }),
            None => TableFile::open(directory, id, entries),
        }
    }

    /// Check the block that holds slot `index`, if this file was opened by blocks (each block
    /// once): an error names the file if its bytes do not match their checksum.
    pub fn check_slot(&self, index: u64) -> Result<(), TableError> {
        let Some(blocks) = &self.blocks else {
            return Ok(());
        };
        assert!(index < self.entries, "index {index} out of range");
        let body = &self.map[..self.map.len() - TRAILER_SIZE];
        let at = self.offset_of(index);
        #[cfg(unix)]
        if !blocks.is_checked(at) {
            // The block in one read (see `read_by_blocks`); only advice.
            let block = block_sums::block_range(body.len(), at);
            let _ = self
                .map
                .advise_range(memmap2::Advice::WillNeed, block.start, block.len());
        }
        match blocks.check(body, at) {
            true => Ok(()),
            false => Err(TableError::BadChecksum {
                path: self.path.clone(),
            }),
        }
    }

    /// The same table copied into anonymous memory backed by huge pages where the system
    /// allows (Linux transparent huge pages on `madvise`): random probes then miss the TLB far
    /// less than on the file's 4 KiB pages. A value file's values are copied five to a byte
    /// ([`crate::base3_values`]), a fifth less memory than in the file. Of a file whose whole
    /// contents were checked.
    pub fn resident_copy(&self, packing: Packing) -> io::Result<TableFile> {
        assert!(self.blocks.is_none(), "a copy of a file checked whole");
        let layout = self.copy_layout(packing);
        let mut copy = memmap2::MmapMut::map_anon(self.bytes_in(layout) as usize)?;
        #[cfg(target_os = "linux")]
        {
            // Only advice: without huge pages the copy still works.
            let _ = copy.advise(memmap2::Advice::HugePage);
        }
        match layout {
            _ if layout == self.layout => copy.copy_from_slice(&self.map),
            Layout::Sparse { .. } => {
                let plan = self.sparse_plan().expect("a plan for a sparse copy");
                sparse_values::pack_codes(self.codes(), plan, &mut copy);
            }
            _ => base3_values::pack_codes(self.codes(), self.entries, &mut copy),
        }
        // A sparse copy's size is its plan's.
        let sparse_plan = match layout {
            Layout::Sparse { .. } => OnceLock::from(self.sparse_plan().cloned()),
            _ => OnceLock::new(),
        };
        Ok(TableFile {
            map: copy.make_read_only()?,
            entries: self.entries,
            content: self.content,
            path: self.path.clone(),
            blocks: None,
            layout,
            sparse_plan,
        })
    }

    /// A value file's payload: its values four a byte.
    fn codes(&self) -> &[u8] {
        let payload = self.content.payload_bytes(self.entries) as usize;
        &self.map[HEADER_SIZE..HEADER_SIZE + payload]
    }

    /// The plan of a value file's lopsided layout if it is smaller than five values a byte
    /// (see [`sparse_values::Plan::smaller_than`]), made once; a sparse copy's own plan.
    fn sparse_plan(&self) -> Option<&sparse_values::Plan> {
        self.sparse_plan
            .get_or_init(|| match (self.content, self.layout) {
                (Content::Values, Layout::File) => {
                    let plan = sparse_values::plan(self.codes(), self.entries);
                    let five_a_byte = base3_values::bytes_for(self.entries);
                    plan.smaller_than(five_a_byte).then_some(plan)
                }
                _ => None,
            })
            .as_ref()
    }

    /// The bytes of memory a [`TableFile::resident_copy`] of it takes, packed so (for
    /// [`Packing::Smallest`] a value file is read whole the first time).
    pub fn copy_bytes(&self, packing: Packing) -> u64 {
        self.bytes_in(self.copy_layout(packing))
    }

    /// How a [`TableFile::resident_copy`] of it lays out its slots: a value file's five
    /// values a byte, or packed the smallest, its most common value and its exceptions where
    /// that is the smaller; anything else as it is.
    fn copy_layout(&self, packing: Packing) -> Layout {
        let checksum = self.checksum();
        match (self.content, self.layout) {
            (Content::Values, Layout::File) if packing == Packing::Fastest => {
                Layout::FiveValuesAByte { checksum }
            }
            (Content::Values, Layout::File) => match self.sparse_plan() {
                Some(plan) => Layout::Sparse {
                    checksum,
                    common: plan.common(),
                },
                None => Layout::FiveValuesAByte { checksum },
            },
            (_, layout) => layout,
        }
    }

    /// The bytes its slots take laid out as `layout`.
    fn bytes_in(&self, layout: Layout) -> u64 {
        match layout {
            Layout::File => {
                (HEADER_SIZE + TRAILER_SIZE) as u64 + self.content.payload_bytes(self.entries)
            }
            Layout::FiveValuesAByte { .. } => base3_values::bytes_for(self.entries),
            Layout::Sparse { .. } => self.sparse_plan().expect("planned").bytes(),
        }
    }

    pub fn content(&self) -> Content {
        self.content
    }

    /// Tell the system that this file's pages are read at random, a probe at a time: a page
    /// not in the page cache is then read alone, instead of with the read-ahead around it
    /// (`read_ahead_kb` of its disk: 8 MiB on this machine's, so each probe that missed read
    /// megabytes, most of them never probed, and pushed probed pages out of the cache). For
    /// files probed in place that the page cache cannot hold whole; only advice.
    pub fn probe_at_random(&self) {
        #[cfg(unix)]
        {
            let _ = self.map.advise(memmap2::Advice::Random);
        }
    }

    /// The size of the file (all of it is mapped).
    pub fn mapped_bytes(&self) -> u64 {
        self.map.len() as u64
    }

    /// The file it was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The entry in slot `index`; `None` in a value file, which has no distances.
    #[inline]
    pub fn get(&self, index: u64) -> Option<Entry> {
        assert!(index < self.entries, "index {index} out of range");
        match self.content {
            Content::Entries => {
                let at = self.offset_of(index);
                Some(Entry(u16::from_le_bytes([self.map[at], self.map[at + 1]])))
            }
            Content::Values => None,
        }
    }

    /// Start loading slot `index` (see [`crate::prefetch`]).
    #[inline]
    pub fn prefetch(&self, index: u64) {
        if let Some(byte) = self.map.get(self.offset_of(index)) {
            crate::prefetch::prefetch(byte);
        }
    }

    /// Start loading the second place that reading slot `index` reads, where its layout has
    /// one (a lopsided copy's data word: [`crate::sparse_values`]), once [`Self::prefetch`]
    /// of it has had time to load the first.
    #[inline]
    pub fn prefetch_second(&self, index: u64) {
        if let Layout::Sparse { .. } = self.layout {
            if let Some(at) = sparse_values::data_byte_of(&self.map, self.entries, index) {
                crate::prefetch::prefetch(&self.map[at]);
            }
        }
    }

    /// Where in the map slot `index` begins (its entry, or the byte that holds its value).
    #[inline]
    fn offset_of(&self, index: u64) -> usize {
        match self.layout {
            Layout::File => {
                HEADER_SIZE
                    + match self.content {
                        Content::Entries => ENTRY_WIDTH as usize * index as usize,
                        Content::Values => (index / VALUES_PER_BYTE) as usize,
                    }
            }
            Layout::FiveValuesAByte { .. } => base3_values::byte_of(index),
            Layout::Sparse { .. } => sparse_values::byte_of(index),
        }
    }

    /// The value in slot `index`, for the side to move.
    #[inline]
    pub fn value(&self, index: u64) -> Value {
        match self.content {
            Content::Entries => self.get(index).expect("an entry file").value(),
            Content::Values => {
                assert!(index < self.entries, "index {index} out of range");
                match self.layout {
                    Layout::File => {
                        let byte = self.map[self.offset_of(index)];
                        VALUE_OF_CODE[(byte >> (2 * (index % VALUES_PER_BYTE))) as usize & 3]
                    }
                    Layout::FiveValuesAByte { .. } => base3_values::value_at(&self.map, index),
                    Layout::Sparse { common, .. } => {
                        sparse_values::value_at(&self.map, self.entries, common, index)
                    }
                }
            }
        }
    }

    pub fn len(&self) -> u64 {
        self.entries
    }

    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The checksum stored in the trailer (what `data/` records for each file); a copy in
    /// memory keeps its file's.
    pub fn checksum(&self) -> u64 {
        match self.layout {
            Layout::File => trailer_checksum(&self.map),
            Layout::FiveValuesAByte { checksum } | Layout::Sparse { checksum, .. } => checksum,
        }
    }
}

/// A table file as a listing sees it, from its size, header and block checksums, without
/// reading its contents ([`TableFile::inspect`]).
#[derive(Debug)]
pub enum FileState {
    Missing,
    /// Of the right size, with the right header and trailer; `block_checksums` when they are
    /// beside it, which are written only after its whole contents matched the trailer's
    /// checksum (a job that reads it checks again what it reads).
    Present {
        bytes: u64,
        block_checksums: bool,
        /// The checksum in its trailer (what `data/` records; see [`crate::record`]).
        checksum: u64,
    },
    /// There, but of the wrong size, header or trailer, or unreadable.
    Damaged(TableError),
}

impl TableFile {
    /// What the file of table `id` in `directory`, of `entries` slots, is (see [`FileState`]).
    pub fn inspect(directory: &Path, id: &TableId, entries: u64) -> FileState {
        let (path, map) = match map_file(directory, id) {
            Ok(mapped) => mapped,
            Err(TableError::Missing { .. }) => return FileState::Missing,
            Err(error) => return FileState::Damaged(error),
        };
        if let Err(error) = check_shape(&path, &map, id, entries) {
            return FileState::Damaged(error);
        }
        let bytes = map.len() as u64;
        let checksum = trailer_checksum(&map);
        let block_checksums = BlockSums::read(&path, bytes, checksum).is_some();
        FileState::Present {
            bytes,
            block_checksums,
            checksum,
        }
    }
}

/// Map the file of table `id` in `directory`; a missing file is named as such.
/// The map of a file read a block at a time ([`TableFile::open_by_blocks`]), advised as read
/// at random: a page fault then reads no more than its page, instead of the disk's read-ahead
/// around it (8 MiB on this machine's). `check_slot` asks for each block it checks in one
/// read. Without the advice, checking a certificate of 5.9 M positions over the 9-stone
/// tables read so much that a search beside it kept 1 GB of its 11 GB of tables in the page
/// cache (sixty-third session, data/results.md).
fn read_by_blocks(map: Mmap) -> Mmap {
    #[cfg(unix)]
    {
        // Only advice.
        let _ = map.advise(memmap2::Advice::Random);
    }
    map
}

fn map_file(directory: &Path, id: &TableId) -> Result<(PathBuf, Mmap), TableError> {
    let path = directory.join(id.file_name());
    let file = File::open(&path).map_err(|error| match error.kind() {
        io::ErrorKind::NotFound => TableError::Missing { path: path.clone() },
        _ => TableError::Io {
            path: path.clone(),
            error,
        },
    })?;
    // Safety: the map is read-only and the file is never written after its rename; a file
    // changed by someone else while mapped is outside what this program can guard against.
    let map = unsafe { Mmap::map(&file) }.map_err(|error| TableError::Io {
        path: path.clone(),
        error,
    })?;
    Ok((path, map))
}

/// The size, the header's fields and the trailer's magic of a table file.
fn check_shape(path: &Path, bytes: &[u8], id: &TableId, entries: u64) -> Result<(), TableError> {
    let expected = (HEADER_SIZE + TRAILER_SIZE) as u64 + id.content.payload_bytes(entries);
    if bytes.len() as u64 != expected {
        return Err(TableError::Truncated {
            path: path.to_path_buf(),
            expected,
            found: bytes.len() as u64,
        });
    }
    let wanted = id.header(entries);
    let fields: [(&'static str, std::ops::Range<usize>); 9] = [
        ("magic", 0..8),
        ("format version", 8..12),
        ("board size", 12..14),
        ("blocked rule", 14..15),
        ("material", 15..17),
        ("index scheme", 17..18),
        ("entry width", 18..20),
        ("entry count", 24..32),
        ("reserved bytes", 32..HEADER_SIZE),
    ];
    for (field, range) in fields {
        if bytes[range.clone()] != wanted[range] {
            return Err(TableError::BadHeader {
                path: path.to_path_buf(),
                field,
            });
        }
    }
    let body_end = bytes.len() - TRAILER_SIZE;
    if &bytes[body_end..body_end + 8] != TRAILER_MAGIC {
        return Err(TableError::BadHeader {
            path: path.to_path_buf(),
            field: "trailer",
        });
    }
    Ok(())
}

/// The checksum a table file's trailer holds (of a file whose shape was checked).
fn trailer_checksum(bytes: &[u8]) -> u64 {
    let at = bytes.len() - 8;
    u64::from_le_bytes(bytes[at..].try_into().expect("8 bytes"))
}

/// Whether everything before the trailer matches the trailer's checksum.
fn check_whole(path: &Path, bytes: &[u8]) -> Result<(), TableError> {
    let mut checksum = Checksum::new();
    checksum.update(&bytes[..bytes.len() - TRAILER_SIZE]);
    if checksum.finish() != trailer_checksum(bytes) {
        return Err(TableError::BadChecksum {
            path: path.to_path_buf(),
        });
    }
    Ok(())
}

/// A 64-bit checksum over 8-byte words: multiply-rotate mixing per word, length and a final mix
/// at the end. Fast enough for gigabytes (several GB/s) and sensitive to any flipped bit.
pub(crate) struct Checksum {
    state: u64,
    length: u64,
    pending: Vec<u8>,
}

impl Checksum {
    pub(crate) fn new() -> Checksum {
        Checksum {
            state: 0x243f_6a88_85a3_08d3,
            length: 0,
            pending: Vec::new(),
        }
    }

    pub(crate) fn update(&mut self, mut bytes: &[u8]) {
        self.length += bytes.len() as u64;
        if !self.pending.is_empty() {
            let take = (8 - self.pending.len()).min(bytes.len());
            self.pending.extend_from_slice(&bytes[..take]);
            bytes = &bytes[take..];
            if self.pending.len() == 8 {
                let word = u64::from_le_bytes(self.pending[..].try_into().expect("8 bytes"));
                self.mix(word);
                self.pending.clear();
            }
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.mix(u64::from_le_bytes(word.try_into().expect("8 bytes")));
        }
        self.pending.extend_from_slice(words.remainder());
    }

    #[inline(always)]
    fn mix(&mut self, word: u64) {
        self.state = (self.state ^ word)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    pub(crate) fn finish(mut self) -> u64 {
        let mut tail = [0u8; 8];
        tail[..self.pending.len()].copy_from_slice(&self.pending);
        self.mix(u64::from_le_bytes(tail));
        fanorona_engine::hash::mix(self.state ^ self.length)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_does_not_depend_on_how_bytes_are_split() {
        let bytes: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let mut whole = Checksum::new();
        whole.update(&bytes);
        let mut pieces = Checksum::new();
        for chunk in bytes.chunks(13) {
            pieces.update(chunk);
        }
        assert_eq!(whole.finish(), pieces.finish());
    }
}
