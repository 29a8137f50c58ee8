//! One byte per position while its system is solved.
//!
//! An undecided position needs only the number of its children not yet known to be won, and a
//! decided one only its distance: never both at once. So one byte holds either, and the
//! builder needs a third of the memory of a 2-byte entry beside a 1-byte count. The codes:
//!
//! - `0`: a draw (decided as one by its captures or the rules; and, once the system is solved,
//!   whatever was never decided);
//! - `1 ..= max_count`: undecided, with that many children not yet known to be won;
//! - `max_count + 1 ..= 254`: decided at distance `code - max_count - 1`;
//! - `255`: decided deeper than the byte reaches; the distance is kept in a map beside (a few
//!   positions of the last levels, if any).
//!
//! The value follows from the distance: the player who makes the last turn wins and every turn
//! is one ply, so a won position is an odd number of plies from the end and a lost one an even
//! number.

use crate::entry::Entry;
use fanorona_engine::Value;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

const DEEP: u8 = u8::MAX;

pub(super) struct Cells {
    codes: Vec<AtomicU8>,
    max_count: u8,
    /// Distances of the positions with code [`DEEP`], by slot.
    deep: Mutex<HashMap<u64, u16>>,
}

impl Cells {
    /// `size` draws, whose counts will never exceed `max_count`.
    pub fn new(size: u64, max_count: u8) -> Cells {
        assert!(max_count < DEEP, "counts up to {max_count} leave no code");
        Cells {
            codes: (0..size).map(|_| AtomicU8::new(0)).collect(),
            max_count,
            deep: Mutex::new(HashMap::new()),
        }
    }

    pub fn len(&self) -> u64 {
        self.codes.len() as u64
    }

    pub fn max_count(&self) -> u8 {
        self.max_count
    }

    /// The codes as plain bytes (no other thread can touch them meanwhile).
    fn bytes_mut(&mut self) -> &mut [u8] {
        let codes = self.codes.as_mut_slice();
        // SAFETY: `AtomicU8` has the size, alignment and bit validity of `u8`, and the
        // exclusive borrow rules out any other access for the slice's lifetime.
        unsafe { std::slice::from_raw_parts_mut(codes.as_mut_ptr().cast::<u8>(), codes.len()) }
    }

    /// Write every code, then the deep distances (count, then slot and distance, by slot).
    pub fn write_to(&mut self, out: &mut impl Write) -> io::Result<()> {
        out.write_all(self.bytes_mut())?;
        let deep = self
            .deep
            .get_mut()
            .expect("no thread panics holding the map");
        let mut pairs: Vec<(u64, u16)> = deep.iter().map(|(&i, &d)| (i, d)).collect();
        pairs.sort_unstable();
        out.write_all(&(pairs.len() as u64).to_le_bytes())?;
        for (i, distance) in pairs {
            out.write_all(&i.to_le_bytes())?;
            out.write_all(&distance.to_le_bytes())?;
        }
        Ok(())
    }

    /// Read back what [`Cells::write_to`] wrote for cells of this size.
    pub fn read_from(&mut self, input: &mut impl Read) -> io::Result<()> {
        input.read_exact(self.bytes_mut())?;
        let mut word = [0u8; 8];
        input.read_exact(&mut word)?;
        let count = u64::from_le_bytes(word);
        let invalid = |what: &str| io::Error::new(io::ErrorKind::InvalidData, what.to_string());
        if count > self.len() {
            return Err(invalid("more deep distances than slots"));
        }
        let mut deep = HashMap::new();
        for _ in 0..count {
            let mut pair = [0u8; 10];
            input.read_exact(&mut pair)?;
            let i = u64::from_le_bytes(pair[..8].try_into().expect("8 bytes"));
            let distance = u16::from_le_bytes([pair[8], pair[9]]);
            if i >= self.len() {
                return Err(invalid("a deep distance of a slot past the end"));
            }
            deep.insert(i, distance);
        }
        let codes = &self.codes;
        let deep_codes = codes.iter().filter(|c| c.load(Relaxed) == DEEP).count();
        if deep_codes != deep.len()
            || deep
                .keys()
                .any(|&i| codes[i as usize].load(Relaxed) != DEEP)
        {
            return Err(invalid("deep distances that do not match the deep slots"));
        }
        *self
            .deep
            .get_mut()
            .expect("no thread panics holding the map") = deep;
        Ok(())
    }

    /// Note that undecided slot `i` has `count` children not known to be won (at least 1).
    pub fn set_count(&self, i: u64, count: usize) {
        assert!(
            (1..=self.max_count as usize).contains(&count),
            "a paika count of {count} outside 1..={}",
            self.max_count
        );
        self.codes[i as usize].store(count as u8, Relaxed);
    }

    /// Decide slot `i`, which nothing else touches yet, as `entry`.
    pub fn set_decided(&self, i: u64, entry: Entry) {
        let code = self.code_of(entry);
        self.codes[i as usize].store(code, Relaxed);
        self.note_deep(i, code, entry);
    }

    /// A child of slot `i` is lost: the slot is won as `entry` unless it is decided already.
    /// Returns whether this call decided it.
    pub fn claim_win(&self, i: u64, entry: Entry) -> bool {
        let code = self.code_of(entry);
        let undecided = |c: u8| (1..=self.max_count).contains(&c);
        let decided_now = self.codes[i as usize]
            .fetch_update(Relaxed, Relaxed, |c| undecided(c).then_some(code))
            .is_ok();
        if decided_now {
            self.note_deep(i, code, entry);
        }
        decided_now
    }

    /// A child of slot `i` is won: one fewer child is unknown, and when none is left the slot
    /// is lost as `entry`. Returns whether this call decided it.
    pub fn count_down(&self, i: u64, entry: Entry) -> bool {
        let code = self.code_of(entry);
        let previous = self.codes[i as usize].fetch_update(Relaxed, Relaxed, |c| match c {
            1 => Some(code),
            c if c <= self.max_count && c > 1 => Some(c - 1),
            _ => None,
        });
        let decided_now = previous == Ok(1);
        if decided_now {
            self.note_deep(i, code, entry);
        }
        decided_now
    }

    /// Start loading slot `i`'s code.
    #[inline]
    pub fn prefetch(&self, i: u64) {
        crate::prefetch::prefetch(&self.codes[i as usize]);
    }

    /// The code of the positions decided at `distance`, or `None` where they are deep.
    pub fn level_code(&self, distance: u16) -> Option<u8> {
        let code = distance + self.max_count as u16 + 1;
        (code < DEEP as u16).then_some(code as u8)
    }

    /// The slot codes, to scan for a level's code.
    pub fn codes(&self) -> &[AtomicU8] {
        &self.codes
    }

    /// The slots decided at a deep `distance`, in no particular order.
    pub fn deep_at(&self, distance: u16) -> Vec<u64> {
        let deep = self.deep.lock().expect("no thread panics holding the map");
        deep.iter()
            .filter(|&(_, &d)| d == distance)
            .map(|(&i, _)| i)
            .collect()
    }

    /// Give slot `to` the state of slot `from`.
    pub fn copy(&self, from: u64, to: u64) {
        let code = self.codes[from as usize].load(Relaxed);
        self.codes[to as usize].store(code, Relaxed);
        if code == DEEP {
            let mut deep = self.deep.lock().expect("no thread panics holding the map");
            let distance = deep[&from];
            deep.insert(to, distance);
        }
    }

    /// The entry of slot `i`; undecided counts read as draws.
    pub fn entry(&self, i: u64) -> Entry {
        let code = self.codes[i as usize].load(Relaxed);
        let distance = match code {
            DEEP => self.deep.lock().expect("no thread panics holding the map")[&i],
            c if c > self.max_count => (c - self.max_count - 1) as u16,
            _ => return Entry::DRAW,
        };
        if distance % 2 == 1 {
            Entry::win(distance)
        } else {
            Entry::loss(distance)
        }
    }

    fn code_of(&self, entry: Entry) -> u8 {
        let distance = entry
            .distance()
            .expect("only decided positions get a distance");
        let parity_value = if distance % 2 == 1 {
            Value::Win
        } else {
            Value::Loss
        };
        assert_eq!(
            entry.value(),
            parity_value,
            "a {entry:?}: wins are an odd number of plies from the end, losses an even number"
        );
        self.level_code(distance).unwrap_or(DEEP)
    }

    fn note_deep(&self, i: u64, code: u8, entry: Entry) {
        if code == DEEP {
            let distance = entry.distance().expect("a decided entry");
            let mut deep = self.deep.lock().expect("no thread panics holding the map");
            deep.insert(i, distance);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_reads_back_as_its_entry() {
        let cells = Cells::new(6, 40);
        cells.set_decided(0, Entry::loss(0));
        cells.set_decided(1, Entry::win(213)); // the deepest distance a code holds
        cells.set_decided(2, Entry::win(215)); // deep
        cells.set_count(3, 40);
        cells.copy(2, 4);
        assert_eq!(cells.level_code(213), Some(254));
        assert_eq!(cells.level_code(214), None);
        assert_eq!(cells.entry(0), Entry::loss(0));
        assert_eq!(cells.entry(1), Entry::win(213));
        assert_eq!(cells.entry(2), Entry::win(215));
        assert_eq!(cells.entry(3), Entry::DRAW);
        assert_eq!(cells.entry(4), Entry::win(215));
        assert_eq!(cells.entry(5), Entry::DRAW);
        let mut deep = cells.deep_at(215);
        deep.sort();
        assert_eq!(deep, [2, 4]);
    }

    #[test]
    fn a_count_runs_down_to_a_loss_and_a_win_is_claimed_once() {
        let cells = Cells::new(2, 8);
        cells.set_count(0, 2);
        assert!(!cells.count_down(0, Entry::loss(4)));
        assert!(cells.count_down(0, Entry::loss(6)));
        assert_eq!(cells.entry(0), Entry::loss(6));
        assert!(!cells.claim_win(0, Entry::win(7)), "decided already");
        assert!(!cells.count_down(0, Entry::loss(8)), "decided already");
        cells.set_count(1, 3);
        assert!(cells.claim_win(1, Entry::win(5)));
        assert!(!cells.claim_win(1, Entry::win(7)));
        assert!(!cells.count_down(1, Entry::loss(8)));
        assert_eq!(cells.entry(1), Entry::win(5));
        // Draws are never touched.
        let draws = Cells::new(1, 8);
        assert!(!draws.claim_win(0, Entry::win(1)));
        assert!(!draws.count_down(0, Entry::loss(2)));
        assert_eq!(draws.entry(0), Entry::DRAW);
    }

    #[test]
    #[should_panic(expected = "odd number of plies")]
    fn a_value_against_its_parity_is_refused() {
        Cells::new(1, 8).set_decided(0, Entry::win(2));
    }
}
