//! A closure's candidates (see `holds.rs`): their list, and an index that finds a position's
//! number in it.
//!
//! The index is the largest thing a closure holds: a slot for every candidate it may take
//! and as many again, 2^26 slots for the 2^25 candidates of a long search's closure. With
//! each slot holding the position itself (16 bytes) and its number (4), that was 1.34 GB, and
//! the closure's peak (2.8 GB) went past the memory the searches left free, so the kernel
//! evicted the pages of the tables that the closure and the searches probe (sixty-first
//! session). Here a slot holds only the number and 32 bits of the position's hash (8 bytes:
//! 537 MB): a lookup whose hash bits match compares the position with the list's entry,
//! which a position that is not a candidate almost never needs.
//!
//! The list is on huge pages too (see `zeroed_memory`): a closure reads the entry of every
//! turn to another candidate, at random, and on 4 KiB pages each read (and the prefetch that
//! asks for it) also waited for a page walk: a sixth of a long 5x9 search's closure's look at
//! the turns (seventy-first session).

use super::position_map::Packed;
use crate::prefetch::prefetch;
use crate::zeroed_memory::ZeroedMemory;
use fanorona_engine::{hash, Position};

pub(super) struct Candidates {
    list: CandidateList,
    /// Per slot: 32 bits of a candidate's hash (the high half) and its number plus one (the
    /// low half, so that an empty slot is 0). At most half of the slots are used.
    slots: ZeroedMemory<u64>,
}

/// The fewest slots an index has.
const LEAST_SLOTS: usize = 1024;

impl Candidates {
    /// An empty list with room for `most` candidates (never more).
    pub(super) fn with_room(most: usize) -> Candidates {
        assert!(
            most < u32::MAX as usize,
            "{most} candidates: numbers are 32 bits"
        );
        Candidates {
            list: CandidateList::with_room(most),
            slots: ZeroedMemory::new((2 * most).next_power_of_two().max(LEAST_SLOTS)),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.list.len()
    }

    /// The candidates, in the order of their numbers.
    pub(super) fn list(&self) -> &[Packed] {
        &self.list
    }

    /// The list alone, the index freed.
    pub(super) fn into_list(self) -> CandidateList {
        self.list
    }

    /// `position`'s number: the one it had if it was a candidate already, a new one (the next)
    /// if not.
    pub(super) fn insert(&mut self, position: &Position) -> u32 {
        self.insert_hashed(position, hash(position))
    }

    /// [`Self::insert`] of `position`, whose [`hash`] is `position_hash`.
    fn insert_hashed(&mut self, position: &Position, position_hash: u64) -> u32 {
        if let Some(number) = self.number_of(position, position_hash) {
            return number;
        }
        assert!(
            2 * (self.list.len() + 1) <= self.slots.len(),
            "more candidates than the room asked for"
        );
        let number = self.list.len() as u32;
        let mut at = self.home(position_hash);
        while self.slots[at] != 0 {
            at = self.next(at);
        }
        self.slots[at] = tag(position_hash) | (number as u64 + 1);
        self.list.push(Packed::of(position));
        number
    }

    /// The number of `position` (whose [`hash`] is `position_hash`), if it is a candidate.
    pub(super) fn number_of(&self, position: &Position, position_hash: u64) -> Option<u32> {
        let (wanted_tag, packed) = (tag(position_hash), Packed::of(position));
        let mut at = self.home(position_hash);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return None;
            }
            let number = (slot as u32).wrapping_sub(1);
            if slot & TAG_BITS == wanted_tag && self.list[number as usize] == packed {
                return Some(number);
            }
            at = self.next(at);
        }
    }

    /// Start loading the slot where the position whose [`hash`] is `position_hash` would be.
    pub(super) fn prefetch_hashed(&self, position_hash: u64) {
        prefetch(&self.slots[self.home(position_hash)]);
    }

    /// Start loading the list entry that [`Self::number_of`] will compare a position with:
    /// that of the first slot whose hash bits match (read from the slots, best asked for with
    /// [`Self::prefetch_hashed`] a while before). False if no slot's bits match: the position
    /// is no candidate.
    pub(super) fn prefetch_entry(&self, position_hash: u64) -> bool {
        let wanted_tag = tag(position_hash);
        let mut at = self.home(position_hash);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return false;
            }
            if slot & TAG_BITS == wanted_tag {
                let number = (slot as u32).wrapping_sub(1) as usize;
                if let Some(entry) = self.list.get(number) {
                    prefetch(entry);
                }
                return true;
            }
            at = self.next(at);
        }
    }

    /// The slot a position's probe starts from: from the hash's upper half, as in
    /// [`super::position_map`] (the candidates come in the order of the transposition table's
    /// buckets, which its lower bits name).
    fn home(&self, position_hash: u64) -> usize {
        position_hash.rotate_right(32) as usize & (self.slots.len() - 1)
    }

    fn next(&self, at: usize) -> usize {
        (at + 1) & (self.slots.len() - 1)
    }
}

/// Candidates in the order of their numbers, in an array of a fixed room.
pub(super) struct CandidateList {
    entries: ZeroedMemory<Packed>,
    len: usize,
}

impl CandidateList {
    /// An empty list with room for `most` entries (never more).
    pub(super) fn with_room(most: usize) -> CandidateList {
        CandidateList {
            entries: ZeroedMemory::new(most),
            len: 0,
        }
    }

    pub(super) fn push(&mut self, candidate: Packed) {
        assert!(self.len < self.entries.len(), "a list past its room");
        self.entries[self.len] = candidate;
        self.len += 1;
    }
}

impl std::ops::Deref for CandidateList {
    type Target = [Packed];

    fn deref(&self) -> &[Packed] {
        &self.entries[..self.len]
    }
}

impl std::fmt::Debug for CandidateList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for CandidateList {
    fn eq(&self, other: &CandidateList) -> bool {
        self[..] == other[..]
    }
}

/// The high half of a slot: the hash bits kept there.
const TAG_BITS: u64 = 0xffff_ffff << 32;

/// The hash bits a slot keeps: its lower half, which does not choose the slot (the home comes
/// from the upper half).
fn tag(position_hash: u64) -> u64 {
    position_hash << 32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::position_map::scattered_position as position;
    use fanorona_engine::Color;

    #[test]
    fn numbers_candidates_in_order_and_finds_each_and_nothing_else() {
        let mut candidates = Candidates::with_room(10_000);
        for seed in 0..10_000 {
            assert_eq!(candidates.insert(&position(seed)), seed as u32);
        }
        assert_eq!(candidates.insert(&position(17)), 17, "already there");
        assert_eq!(candidates.len(), 10_000);
        for seed in 0..10_000 {
            let p = position(seed);
            assert_eq!(candidates.number_of(&p, hash(&p)), Some(seed as u32));
            assert_eq!(candidates.list()[seed as usize], Packed::of(&p));
        }
        for seed in 10_000..20_000 {
            let p = position(seed);
            assert_eq!(candidates.number_of(&p, hash(&p)), None, "{seed}");
        }
        let mut other = position(3);
        other.side = Color::White;
        assert_eq!(candidates.number_of(&other, hash(&other)), None);
        assert_eq!(candidates.into_list().len(), 10_000);
    }

    #[test]
    fn positions_whose_hash_bits_agree_are_told_apart_by_the_list() {
        // Two positions given the same hash: the same home and the same tag.
        let mut candidates = Candidates::with_room(16);
        let (a, b) = (position(1), position(2));
        let same_hash = 0x1234_5678_9abc_def0;
        assert_eq!(candidates.insert_hashed(&a, same_hash), 0);
        assert_eq!(
            candidates.insert_hashed(&b, same_hash),
            1,
            "not taken for a"
        );
        assert_eq!(candidates.insert_hashed(&a, same_hash), 0, "there already");
        assert_eq!(candidates.number_of(&a, same_hash), Some(0));
        assert_eq!(candidates.number_of(&b, same_hash), Some(1));
        assert_eq!(candidates.number_of(&position(3), same_hash), None);
    }

    #[test]
    fn asking_for_entries_ahead_ends_and_changes_no_answer_in_a_full_index() {
        // 512 candidates fill their 1024 slots to the most they take: probes run long.
        let mut candidates = Candidates::with_room(512);
        for seed in 0..512 {
            candidates.insert(&position(seed));
        }
        for seed in 0..2048 {
            let p = position(seed);
            candidates.prefetch_hashed(hash(&p));
            let may_be_there = candidates.prefetch_entry(hash(&p));
            let expected = (seed < 512).then_some(seed as u32);
            assert!(may_be_there || expected.is_none(), "{seed}");
            assert_eq!(candidates.number_of(&p, hash(&p)), expected, "{seed}");
        }
    }

    #[test]
    #[should_panic(expected = "past its room")]
    fn a_list_takes_no_more_than_its_room() {
        let mut list = CandidateList::with_room(2);
        for seed in 0..2 {
            list.push(Packed::of(&position(seed)));
        }
        assert_eq!(list.len(), 2);
        assert_eq!(list[1], Packed::of(&position(1)));
        list.push(Packed::of(&position(2)));
    }

    #[test]
    fn a_slot_takes_eight_bytes() {
        let candidates = Candidates::with_room(1 << 20);
        assert_eq!(candidates.slots.len(), 1 << 21);
        assert_eq!(std::mem::size_of_val(&candidates.slots[0]), 8);
    }
}
