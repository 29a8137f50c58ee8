//! A search saved to a file and read back: the transposition table's slots, then the held set.
//!
//! Layout (little-endian): the magic `FANODFPN`, the attacker (1 White, 2 Black), the nodes
//! spent, the number of slots and the slots (four words each); then `HELDSET1`, the number of
//! held positions and each as its two key words.
//!
//! A search's *top* ([`Search::save_top`]) is a saved search of the same layout that keeps only
//! the slots that cost the most work, and no held set: megabytes where the whole is gigabytes,
//! small enough to keep with the code, so that a search whose saved state is lost goes on from
//! its top instead of from nothing. (Measured on 7x5, White's win, a 16 MiB table: stopped at
//! 4, 8 and 12 M of its 16.39 M nodes, it needed 10.10, 9.36 and 4.80 M more from the whole
//! saved table, 13.88, 9.07 and 5.65 M from a top of its 377, 779 and 1,203 costliest slots
//! (at least 10,000 nodes of work each), and 16.39 M from nothing: `data/results.md`,
//! seventy-sixth session. At 5x9 scale, d3-e3A's "can Black force a win?" over the 7-stone
//! tables in 16.8 M slots, 429.8 M nodes: stopped at half and three quarters, a top of 65,536
//! slots needed 177.6 and 196.3 M more, the whole table 290.4 and 128.1 M: seventy-seventh.)

use super::transposition::{key, slot_position, Slot, TranspositionTable, USED};
use super::{stones, Search, FIRST_CLOSURE, MAX_CLOSURE_INTERVAL};
use crate::part_file::PartFile;
use fanorona_engine::{Bitboard, Color};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;
use std::time::Instant;

/// The first bytes of a saved search.
pub(super) const STATE_MAGIC: &[u8; 8] = b"FANODFPN";
/// What begins the held set after the table in a saved search.
pub(super) const HELD_MAGIC: &[u8; 8] = b"HELDSET1";

/// The attacker's colour as one byte in a saved search.
fn side_code(side: Color) -> u8 {
    match side {
        Color::White => 1,
        Color::Black => 2,
    }
}

/// The attacker of the search saved in `path` (read from its first bytes), or why it is not
/// a saved search; the error names `path`.
pub fn saved_attacker(path: &Path) -> io::Result<Color> {
    File::open(path)
        .and_then(|mut file| read_attacker(&mut file))
        .map_err(|e| named(path, "the saved search", e))
}

/// The first bytes of a saved search: its magic and its attacker.
fn read_attacker(input: &mut impl Read) -> io::Result<Color> {
    let bad = || io::Error::new(io::ErrorKind::InvalidData, "not a saved search");
    let mut head = [0u8; 9];
    input.read_exact(&mut head).map_err(|_| bad())?;
    match (&head[..8] == STATE_MAGIC, head[8]) {
        (true, code) if code == side_code(Color::White) => Ok(Color::White),
        (true, code) if code == side_code(Color::Black) => Ok(Color::Black),
        _ => Err(bad()),
    }
}

/// `error` of the file `path`, said as "{what} {path}: {error}".
fn named(path: &Path, what: &str, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{what} {}: {error}", path.display()))
}

/// One slot of a saved table.
fn read_slot(input: &mut impl Read) -> io::Result<Slot> {
    let mut slot = [0u64; 4];
    let mut word = [0u8; 8];
    for value in slot.iter_mut() {
        input.read_exact(&mut word)?;
        *value = u64::from_le_bytes(word);
    }
    Ok(slot)
}

impl Search<'_> {
    /// Write what the transposition table knows to `path`, so that a later search can go on
    /// from it ([`Search::resume`]). Path-dependent results are not kept (they are a cache).
    /// The file is written beside `path` first and then takes its place, so a save that fails
    /// (a full disk) leaves the last one whole; what it had written is removed. The error
    /// names `path`.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        self.write_state(path)
            .map_err(|e| named(path, "saving the search to", e))
    }

    /// The body of [`Self::save`].
    fn write_state(&self, path: &Path) -> io::Result<()> {
        let (part, file) = PartFile::create(path.with_extension("tmp"))?;
        let mut out = BufWriter::new(file);
        self.write_table(&mut out, &self.table)?;
        // The held set after the table: without it a resumed search would find every hold
        // again, closure by closure.
        out.write_all(HELD_MAGIC)?;
        out.write_all(&(self.held.len() as u64).to_le_bytes())?;
        for position in self.held.positions() {
            let (mover, waiting) = key(&position);
            out.write_all(&mover.to_le_bytes())?;
            out.write_all(&waiting.to_le_bytes())?;
        }
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        crate::page_cache::forget(&file);
        part.keep_as(path)
    }

    /// The header (magic, attacker, nodes spent) and the slots of `table`: a saved search up
    /// to its held set.
    fn write_table(&self, out: &mut impl Write, table: &TranspositionTable) -> io::Result<()> {
        out.write_all(STATE_MAGIC)?;
        out.write_all(&[side_code(self.attacker)])?;
        out.write_all(&self.nodes.to_le_bytes())?;
        out.write_all(&(table.slots.len() as u64).to_le_bytes())?;
        for slot in table.slots.iter() {
            for word in slot {
                out.write_all(&word.to_le_bytes())?;
            }
        }
        Ok(())
    }

    /// Write the search's top to `path` (see the module's notes): its `most` costliest slots
    /// (by the work they hold; the root's turns, kept for good, first), each in its bucket of a
    /// table of the next power of two above four times as many slots (the few that find their
    /// bucket full of costlier ones left out), and the nodes spent. [`Search::resume`] reads it like any
    /// saved search. Returns the slots kept. The error names `path`.
    pub fn save_top(&self, path: &Path, most: usize) -> io::Result<usize> {
        self.write_top(path, most)
            .map_err(|e| named(path, "saving the search's top to", e))
    }

    /// The body of [`Self::save_top`].
    fn write_top(&self, path: &Path, most: usize) -> io::Result<usize> {
        // (work, slot) of every used slot: 12 bytes each, then the costliest `most` in order.
        let mut by_work: Vec<(u64, usize)> = (0..self.table.slots.len())
            .filter(|&at| self.table.slots[at][1] & USED != 0)
            .map(|at| (self.table.slots[at][3] >> 32, at))
            .collect();
        let most = most.min(by_work.len());
        let costliest_first = |&(work, _): &(u64, usize)| std::cmp::Reverse(work);
        if most < by_work.len() {
            by_work.select_nth_unstable_by_key(most, costliest_first);
            by_work.truncate(most);
        }
        by_work.sort_unstable_by_key(costliest_first);
        let slots = (4 * most).next_power_of_two().max(2);
        let mut top = TranspositionTable::new(slots * std::mem::size_of::<Slot>());
        let kept = by_work
            .iter()
            .filter(|&&(_, at)| top.store_if_room(self.table.slots[at]))
            .count();
        let (part, file) = PartFile::create(path.with_extension("tmp"))?;
        let mut out = BufWriter::new(file);
        self.write_table(&mut out, &top)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        part.keep_as(path)?;
        Ok(kept)
    }

    /// Go on from a table written by [`Search::save`] for the same attacker (of any size: see
    /// below); the nodes spent before count toward the limit. The error names `path`.
    pub fn resume(&mut self, path: &Path) -> io::Result<()> {
        self.read_state(path)
            .map_err(|e| named(path, "the saved search", e))
    }

    /// The body of [`Self::resume`].
    fn read_state(&mut self, path: &Path) -> io::Result<()> {
        let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
        let mut input = BufReader::new(File::open(path)?);
        if read_attacker(&mut input)? != self.attacker {
            return Err(bad("saved for the other side"));
        }
        let mut word = [0u8; 8];
        input.read_exact(&mut word)?;
        let nodes = u64::from_le_bytes(word);
        input.read_exact(&mut word)?;
        let count = u64::from_le_bytes(word) as usize;
        if count < 2 || !count.is_power_of_two() {
            return Err(bad("a table size that is not a power of two"));
        }
        if count == self.table.slots.len() {
            for slot in self.table.slots.iter_mut() {
                *slot = read_slot(&mut input)?;
            }
        } else {
            // Another --memory than the saved run's: move the entries into this table (where
            // it is smaller, those that lose a collision are dropped).
            self.table.slots.fill([0; 4]);
            for _ in 0..count {
                let slot = read_slot(&mut input)?;
                if slot[1] & USED != 0 {
                    self.table.store(slot);
                }
            }
        }
        // Gigabytes read once: dropped before the held set grows (see `page_cache`).
        crate::page_cache::forget(input.get_ref());
        // What follows the table: the header and the slots are 25 + 32 per slot bytes.
        let after_table = std::fs::metadata(path)?
            .len()
            .saturating_sub(25 + 32 * count as u64);
        self.read_held(&mut input, after_table)
            .map_err(|e| bad(&e))?;
        self.node_limit = self.node_limit.saturating_add(nodes);
        self.nodes = nodes;
        self.reported = nodes;
        self.run_start = nodes;
        self.run_clock = Instant::now();
        (self.closure_seconds, self.last_closure) = (0.0, None);
        // A closure soon after a resume finds the holds again, unless the file kept them.
        self.next_closure = nodes
            + if self.held.is_empty() {
                FIRST_CLOSURE
            } else {
                MAX_CLOSURE_INTERVAL
            };
        Ok(())
    }

    /// The held set that follows the table in a saved search (files saved before it was kept
    /// end with the table). Each position must fit the board, with the sides apart.
    fn read_held(&mut self, input: &mut impl Read, bytes: u64) -> Result<(), String> {
        let mut magic = [0u8; 8];
        match input.read(&mut magic[..1]) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(e.to_string()),
        }
        let truncated = |e: io::Error| format!("its held set is cut short ({e})");
        input.read_exact(&mut magic[1..]).map_err(truncated)?;
        if &magic != HELD_MAGIC {
            return Err("longer than its table, and not followed by a held set".into());
        }
        let mut word = [0u8; 8];
        let mut read_word = |input: &mut dyn Read| {
            input
                .read_exact(&mut word)
                .map(|_| u64::from_le_bytes(word))
                .map_err(truncated)
        };
        let count = read_word(input)?;
        // 16 bytes a position after the magic and the count: a damaged count must neither
        // ask for memory the file does not fill nor read past it.
        let room = bytes.saturating_sub(16) / 16;
        if count > room {
            return Err(format!(
                "its held set is cut short ({count} positions announced, room for {room})"
            ));
        }
        // Room for all at once, rather than growing on the way.
        self.held.reserve(count as usize);
        for _ in 0..count {
            let slot = [read_word(input)?, read_word(input)? | USED, 0, 0];
            let position = slot_position(&slot);
            let (mover, waiting) = (position.mover, position.waiting);
            if (mover | waiting) & !self.board.all() != Bitboard::EMPTY
                || (mover & waiting).any()
                || !mover.any()
            {
                return Err("a held position that does not fit the board".into());
            }
            if stones(&position) <= self.hold_stones {
                self.mark_held(&position);
            }
        }
        // Saved by a run with more memory, perhaps.
        self.limit_held(self.most_held());
        if input.read(&mut word).map_err(|e| e.to_string())? != 0 {
            return Err("longer than its table and held set".into());
        }
        Ok(())
    }
}
