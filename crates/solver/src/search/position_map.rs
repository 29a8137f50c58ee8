//! A map from positions to small values for the search's large, hot sets: the held positions
//! (see [`super::holds`]), the pinned ones with their heights, and the path-dependent
//! disproofs (see [`super::path_dependent`]). (A closure's candidates
//! have an index of their own, smaller: `super::candidates`.)
//!
//! These are asked about for nearly every child, and the positions in them are spread over
//! memory, so each question is a cache miss (two with the standard map: its control bytes and
//! its entries lie apart). Here a position's entry sits in the slot its hash names, or in the
//! next few (open addressing): one cache line, which [`PositionMap::prefetch_hashed`] can ask for
//! before the answer is needed. Entries are never removed one by one (these sets only grow, or are
//! emptied whole).

use crate::prefetch::prefetch;
use crate::zeroed_memory::{ZeroValid, ZeroedMemory};
use fanorona_engine::hash::mix;
use fanorona_engine::{hash, Bitboard, Color, Position};

pub(super) struct PositionMap<V> {
    /// A position's key per slot, `EMPTY` where none: fewer than half of them are used.
    keys: ZeroedMemory<Key>,
    /// The value of the position in the same slot. Apart from the keys, so that a slot with a
    /// 4-byte value takes 20 bytes, not the 24 of a padded pair, and a set's none more.
    values: ZeroedMemory<V>,
    len: usize,
}

/// The held positions.
pub(super) type PositionSet = PositionMap<()>;

/// The side to move in the top bit of the mover's stones (a board has at most 63 points, so
/// that bit is free), and the waiting stones.
type Key = [u64; 2];

/// No position without stones is ever stored.
const EMPTY: Key = [0, 0];

/// Mixed into a position's hash for its home slot (see [`PositionMap::home_of`]).
const HOME_SALT: u64 = 0x5851_f42d_4c95_7f2d;

const GOLDEN_RATIO: f64 = 1.618_033_988_749_895;

fn key(position: &Position) -> Key {
    let side = (position.side == Color::Black) as u64;
    debug_assert!(position.mover.0 >> 63 == 0, "a board of 64 points");
    [position.mover.0 | side << 63, position.waiting.0]
}

/// A position in 16 bytes instead of the 24 of a padded [`Position`], as the keys are: for a
/// closure's list of tens of millions of candidates (268 MB less for 2^25 of them).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Packed(Key);

// SAFETY: a pair of integers, valid as zero bytes.
unsafe impl crate::zeroed_memory::ZeroValid for Packed {}

impl Packed {
    pub(super) fn of(position: &Position) -> Packed {
        Packed(key(position))
    }

    pub(super) fn position(self) -> Position {
        position_of(self.0)
    }

    pub(super) fn side(self) -> Color {
        self.position().side
    }
}

/// The position a key was made from.
fn position_of(stored: Key) -> Position {
    let side = if stored[0] >> 63 == 1 {
        Color::Black
    } else {
        Color::White
    };
    Position {
        mover: Bitboard(stored[0] & !(1 << 63)),
        waiting: Bitboard(stored[1]),
        side,
    }
}

impl<V: ZeroValid> PositionMap<V> {
    pub(super) fn new() -> PositionMap<V> {
        PositionMap {
            keys: ZeroedMemory::new(0),
            values: ZeroedMemory::new(0),
            len: 0,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Every position stored, in no particular order.
    pub(super) fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        self.keys
            .iter()
            .filter(|&&stored| stored != EMPTY)
            .map(|&stored| position_of(stored))
    }

    /// The slot a position's probe starts from.
    fn home(&self, position: &Position) -> usize {
        self.home_of(hash(position))
    }

    /// [`Self::home`] of the position whose [`hash`] is `hash`: from a mix of it of its own,
    /// unrelated to the bits anything else orders or picks positions by. Taken from the hash's
    /// bits themselves, homes followed any such order: from the lower bits, a closure that
    /// inserts positions in the transposition table's order (by its buckets: the lower bits)
    /// made one long run that each insert walked to its end; from the upper bits, a held set
    /// trimmed in its own slots' order kept the positions of its first slots (below), until
    /// e5-d4A's held set of 4.18 M positions in 8.4 M slots held a run of 1.6 M slots and a
    /// lookup that found nothing read 158,187 slots on average: its search ran at a tenth of
    /// its speed (sixty-third session, data/results.md).
    fn home_of(&self, hash: u64) -> usize {
        mix(hash ^ HOME_SALT) as usize & (self.keys.len() - 1)
    }

    /// Every position stored, visiting the slots in a scattered order (slot k·s for k = 0, 1,
    /// …, s odd and near the size over the golden ratio): the first positions of this order
    /// lie spread over all the slots, so that keeping the first ones of a kind keeps them from
    /// all over the map, not from its start (where, kept in a map of the same homes, they
    /// crowd a stretch of it).
    pub(super) fn positions_scattered(&self) -> impl Iterator<Item = Position> + '_ {
        let size = self.keys.len();
        let stride = ((size as f64 / GOLDEN_RATIO) as usize) | 1;
        (0..size)
            .map(move |k| self.keys[k.wrapping_mul(stride) & (size - 1)])
            .filter(|&stored| stored != EMPTY)
            .map(position_of)
    }

    /// Make room for `more` positions at once, instead of growing (and moving every entry)
    /// on the way.
    pub(super) fn reserve(&mut self, more: usize) {
        while 2 * (self.len + more) > self.keys.len() {
            self.grow();
        }
    }

    /// Start loading the slot where the position whose [`hash`] is `hash` would be.
    pub(super) fn prefetch_hashed(&self, hash: u64) {
        if !self.keys.is_empty() {
            let home = self.home_of(hash);
            prefetch(&self.keys[home]);
            if std::mem::size_of::<V>() > 0 {
                prefetch(&self.values[home]);
            }
        }
    }

    #[cfg(test)]
    fn get(&self, position: &Position) -> Option<V> {
        self.get_hashed(position, hash(position))
    }

    /// [`Self::get`] of `position`, whose [`hash`] is `hash`.
    pub(super) fn get_hashed(&self, position: &Position, hash: u64) -> Option<V> {
        if self.keys.is_empty() {
            return None;
        }
        let at = self.slot_from(self.home_of(hash), key(position));
        (self.keys[at] != EMPTY).then(|| self.values[at])
    }

    #[cfg(test)]
    fn contains(&self, position: &Position) -> bool {
        self.get(position).is_some()
    }

    /// [`Self::contains`] of `position`, whose [`hash`] is `hash`.
    pub(super) fn contains_hashed(&self, position: &Position, hash: u64) -> bool {
        self.get_hashed(position, hash).is_some()
    }

    /// Add `position` with `value`; false (and nothing changed) if it was there already.
    pub(super) fn insert(&mut self, position: &Position, value: V) -> bool {
        if 2 * (self.len + 1) > self.keys.len() {
            self.grow();
        }
        let wanted = key(position);
        let at = self.slot(position, wanted);
        if self.keys[at] == wanted {
            return false;
        }
        self.keys[at] = wanted;
        self.values[at] = value;
        self.len += 1;
        true
    }

    /// Store `value` for `position`, whether it was there or not.
    pub(super) fn set(&mut self, position: &Position, value: V) {
        if !self.insert(position, value) {
            let at = self.slot(position, key(position));
            self.values[at] = value;
        }
    }

    /// The slot that holds `wanted` (the key of `position`), or the empty one where it would
    /// go: the first of the two from the position's home slot on.
    fn slot(&self, position: &Position, wanted: Key) -> usize {
        self.slot_from(self.home(position), wanted)
    }

    /// [`Self::slot`] from the home slot `home`.
    fn slot_from(&self, home: usize, wanted: Key) -> usize {
        let mask = self.keys.len() - 1;
        let mut at = home;
        while self.keys[at] != wanted && self.keys[at] != EMPTY {
            at = (at + 1) & mask;
        }
        at
    }

    /// Twice the slots (at least 1,024), every entry moved to its new home.
    fn grow(&mut self) {
        let size = (2 * self.keys.len()).max(1024);
        // Zeroed: every key `EMPTY`.
        let old_keys = std::mem::replace(&mut self.keys, ZeroedMemory::new(size));
        let old_values = std::mem::replace(&mut self.values, ZeroedMemory::new(size));
        for (&stored, &value) in old_keys.iter().zip(old_values.iter()) {
            if stored != EMPTY {
                let at = self.slot(&position_of(stored), stored);
                self.keys[at] = stored;
                self.values[at] = value;
            }
        }
    }
}

/// For tests: how many slots a lookup that finds nothing reads, on average over `samples`
/// homes spread over the map (what a crowded stretch costs the search: most of its lookups
/// are of positions not there).
#[cfg(test)]
pub(super) fn mean_absent_probe<V: ZeroValid>(map: &PositionMap<V>, samples: u64) -> f64 {
    let mask = map.keys.len() - 1;
    let mut read = 0;
    for k in 0..samples {
        let mut at = mix(k) as usize & mask;
        read += 1;
        while map.keys[at] != EMPTY {
            at = (at + 1) & mask;
            read += 1;
        }
    }
    read as f64 / samples as f64
}

/// For tests: a position on the 45 points of 5x9, a different one for each `seed` (its
/// stones scattered by a multiplicative hash of it).
#[cfg(test)]
pub(super) fn scattered_position(seed: u64) -> Position {
    let mixed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mover = mixed & ((1 << 45) - 1) | 1;
    Position {
        mover: Bitboard(mover),
        waiting: Bitboard((mixed >> 19) & !mover & ((1 << 45) - 1)),
        side: if seed % 2 == 0 {
            Color::White
        } else {
            Color::Black
        },
    }
}

#[cfg(test)]
mod tests {
    use super::scattered_position as position;
    use super::*;

    #[test]
    fn holds_what_was_inserted_and_nothing_else() {
        let mut map = PositionMap::new();
        assert_eq!(map.get(&position(1)), None);
        for seed in 0..10_000 {
            assert!(map.insert(&position(seed), seed as u32), "{seed} new");
        }
        assert!(!map.insert(&position(17), 0), "already there");
        assert_eq!(map.get(&position(17)), Some(17), "the first value stays");
        assert_eq!(map.len, 10_000);
        for seed in 0..10_000 {
            assert_eq!(map.get(&position(seed)), Some(seed as u32), "{seed}");
            map.prefetch_hashed(hash(&position(seed)));
        }
        for seed in 10_000..20_000 {
            assert!(!map.contains(&position(seed)), "{seed}");
        }
        let mut listed: Vec<u64> = map.positions().map(|p| p.mover.0).collect();
        listed.sort_unstable();
        let mut expected: Vec<u64> = (0..10_000).map(|seed| position(seed).mover.0).collect();
        expected.sort_unstable();
        assert_eq!(
            listed, expected,
            "positions() lists each stored position once"
        );
        // The same stones with the other side to move are another position.
        let mut other = position(3);
        other.side = Color::White;
        assert!(!map.contains(&other));
    }

    /// How many slots a lookup of `p` in `map` walks.
    fn probe_length(map: &PositionMap<u32>, p: &Position) -> usize {
        let mask = map.keys.len() - 1;
        ((map.slot(p, key(p)) + map.keys.len() - map.home(p)) & mask) + 1
    }

    /// Insert `positions` in their order; the longest probe any insert walked.
    fn longest_insert(map: &mut PositionMap<u32>, positions: &[Position]) -> usize {
        let mut longest = 0;
        for (i, p) in positions.iter().enumerate() {
            map.insert(p, i as u32);
            longest = longest.max(probe_length(map, p));
        }
        longest
    }

    #[test]
    fn positions_in_a_tables_order_do_not_gather_in_one_run() {
        // A closure inserts the open positions of the transposition table in its order: by
        // the low bits of their hashes (here more positions than buckets, as in a full
        // table). Those must not pile up in one stretch of the map while it grows.
        let mut positions: Vec<Position> = (0..200_000).map(position).collect();
        let table_buckets = (1u64 << 17) - 1;
        positions.sort_by_key(|p| hash(p) & table_buckets);
        let mut map = PositionMap::new();
        let longest = longest_insert(&mut map, &positions);
        assert!(longest < 64, "an insert walked {longest} slots");
        // And a map filled in the order of another's slots (as a saved held set is read back).
        let in_slot_order: Vec<Position> = map.positions().collect();
        let mut copy = PositionMap::new();
        copy.reserve(in_slot_order.len());
        let longest = longest_insert(&mut copy, &in_slot_order);
        assert!(
            longest < 64,
            "an insert into the copy walked {longest} slots"
        );
    }

    #[test]
    fn keys_and_packed_positions_give_back_their_positions() {
        for seed in 0..1_000 {
            let p = position(seed);
            assert_eq!(position_of(key(&p)), p);
            assert_eq!(Packed::of(&p).position(), p);
            assert_eq!(Packed::of(&p).side(), p.side);
        }
        assert_eq!(std::mem::size_of::<Packed>(), 16);
    }
}
