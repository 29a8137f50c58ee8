//! The transposition table of a search: a fixed array of two-slot buckets, each slot a position
//! with its proof and disproof numbers, the height of a proof and the work spent on it.

use super::{Number, Numbers};
use crate::prefetch::prefetch;
use crate::zeroed_memory::ZeroedMemory;
use fanorona_engine::{hash, Bitboard, Color, Position};

/// One slot of the transposition table, four words so that a fresh table is zeroed memory
/// (which the allocator hands out lazily):
/// 0. the mover's stones, with bit 63 set when Black is to move;
/// 1. the waiting stones, with bit 63 set when the slot is used;
/// 2. proof number (low half) and disproof number (high half);
/// 3. the height of a proof (low half) and the nodes spent on it (high half): the slot that
///    cost more survives a collision.
pub(super) type Slot = [u64; 4];

pub(super) const BLACK_TO_MOVE: u64 = 1 << 63;
pub(super) const USED: u64 = 1 << 63;

/// The most work a slot holds: a slot given it stays (in the saved state too) until given less,
/// pushed out only where both slots of its bucket hold it.
pub const KEPT_FOR_GOOD: u64 = u32::MAX as u64;

/// The position a used slot is about (the inverse of [`key`]).
pub(super) fn slot_position(slot: &Slot) -> Position {
    let side = if slot[0] & BLACK_TO_MOVE != 0 {
        Color::Black
    } else {
        Color::White
    };
    Position {
        mover: Bitboard(slot[0] & !BLACK_TO_MOVE),
        waiting: Bitboard(slot[1] & !USED),
        side,
    }
}

pub(super) fn key(position: &Position) -> (u64, u64) {
    let side = match position.side {
        Color::White => 0,
        Color::Black => BLACK_TO_MOVE,
    };
    (position.mover.0 | side, position.waiting.0 | USED)
}

/// A fixed-size table of two-slot buckets (64 bytes: one cache line each).
pub(super) struct TranspositionTable {
    pub(super) slots: ZeroedMemory<Slot>,
    mask: usize,
}

/// What the table holds about one position.
#[derive(Clone, Copy)]
pub(super) struct Stored {
    pub(super) proof: Number,
    pub(super) disproof: Number,
    pub(super) height: u32,
}

/// The positions of some of the table's slots with neither a proof nor a disproof.
fn unresolved_in(slots: &[Slot]) -> impl Iterator<Item = Position> + '_ {
    unresolved_with_work_in(slots).map(|(position, _)| position)
}

/// [`unresolved_in`], each with the nodes its last search spent on it.
pub(super) fn unresolved_with_work_in(
    slots: &[Slot],
) -> impl Iterator<Item = (Position, u64)> + '_ {
    slots.iter().filter_map(|slot| {
        let numbers = slot[2];
        let resolved = numbers as u32 == 0 || (numbers >> 32) as u32 == 0;
        (slot[1] & USED != 0 && !resolved).then(|| (slot_position(slot), slot[3] >> 32))
    })
}

/// The buckets of a table of at most `bytes` (at least one): the largest power of two that
/// fits, since a bucket is named by the lower bits of a position's hash.
fn buckets_in(bytes: usize) -> usize {
    let wanted = (bytes / std::mem::size_of::<Slot>()).max(2);
    1usize << (usize::BITS - 1 - (wanted / 2).max(1).leading_zeros())
}

/// The bytes a transposition table given `bytes` takes: `bytes` rounded down to a power of
/// two (at least one bucket), so that a caller can say what it gets.
pub fn table_bytes(bytes: usize) -> usize {
    buckets_in(bytes) * 2 * std::mem::size_of::<Slot>()
}

/// How many slots [`TranspositionTable::parts`] puts in one run.
const SLOTS_PER_PART: usize = 1 << 20;

impl TranspositionTable {
    pub(super) fn new(bytes: usize) -> TranspositionTable {
        let buckets = buckets_in(bytes);
        TranspositionTable {
            slots: ZeroedMemory::new(buckets * 2),
            mask: buckets - 1,
        }
    }

    /// The table's size in bytes.
    pub(super) fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    pub(super) fn bucket(&self, position: &Position) -> usize {
        self.bucket_of(hash(position))
    }

    /// The bucket of the position whose [`hash`] is `hash`.
    pub(super) fn bucket_of(&self, hash: u64) -> usize {
        (hash as usize & self.mask) * 2
    }

    /// Every settled slot's position, outcome and work.
    pub(super) fn settled_with_work(
        &self,
    ) -> impl Iterator<Item = (Position, super::Outcome, u64)> + '_ {
        self.slots.iter().filter_map(|slot| {
            let numbers = slot[2];
            let outcome = if numbers as u32 == 0 {
                super::Outcome::Proven
            } else if (numbers >> 32) as u32 == 0 {
                super::Outcome::Disproven
            } else {
                return None;
            };
            (slot[1] & USED != 0).then(|| (slot_position(slot), outcome, slot[3] >> 32))
        })
    }

    /// Start loading the bucket of the position whose [`hash`] is `hash` into the cache, so
    /// that a later [`Self::get_hashed`] of it finds it there.
    pub(super) fn prefetch_hashed(&self, hash: u64) {
        prefetch(&self.slots[self.bucket_of(hash)]);
    }

    /// Every position the table holds with neither a proof nor a disproof.
    pub(super) fn unresolved(&self) -> impl Iterator<Item = Position> + '_ {
        unresolved_in(&self.slots)
    }

    /// The table's slots in runs, for work in parallel (each run's positions in order, the
    /// runs in the table's order).
    pub(super) fn parts(&self) -> std::slice::Chunks<'_, Slot> {
        self.slots.chunks(SLOTS_PER_PART)
    }

    pub(super) fn get(&self, position: &Position) -> Option<Stored> {
        self.get_hashed(position, hash(position))
    }

    /// [`Self::get`] of `position`, whose [`hash`] is `hash`.
    pub(super) fn get_hashed(&self, position: &Position, hash: u64) -> Option<Stored> {
        let b = self.bucket_of(hash);
        let (mover, waiting) = key(position);
        self.own_slot(b, mover, waiting)
            .map(|at| &self.slots[b + at])
            .map(|slot| Stored {
                proof: slot[2] as u32,
                disproof: (slot[2] >> 32) as u32,
                height: slot[3] as u32,
            })
    }

    /// Keep `numbers` for `position` after a visit that searched `work` nodes below it. The
    /// slot's work is that of every visit since the position entered the table: df-pn comes
    /// back to a position many times, each visit a short one, and a slot that kept only its
    /// last visit's work let a position that had cost billions of nodes (a proven turn at the
    /// root of a long 5x9 search) be pushed out by one that had cost a few.
    pub(super) fn put(&mut self, position: &Position, numbers: Numbers, work: u64) {
        let (mover, waiting) = key(position);
        let height = if numbers.is_proven() {
            numbers.extra
        } else {
            0
        };
        let b = self.bucket(position);
        let (at, earlier) = self.slot_for(b, mover, waiting);
        let work = earlier.saturating_add(work).min(KEPT_FOR_GOOD);
        self.slots[b + at] = [
            mover,
            waiting,
            numbers.proof as u64 | (numbers.disproof as u64) << 32,
            height as u64 | work << 32,
        ];
    }

    /// Set the work of `position`'s slot, if the table holds it, to `work`.
    pub(super) fn set_work(&mut self, position: &Position, work: u64) {
        let (mover, waiting) = key(position);
        let b = self.bucket(position);
        if let Some(at) = self.own_slot(b, mover, waiting) {
            let slot = &mut self.slots[b + at];
            slot[3] = (slot[3] & u32::MAX as u64) | work.min(KEPT_FOR_GOOD) << 32;
        }
    }

    /// Write `slot` into its bucket if the bucket has a free slot (or holds its position
    /// already); false where both slots hold other positions.
    pub(super) fn store_if_room(&mut self, slot: Slot) -> bool {
        let b = self.bucket(&slot_position(&slot));
        let at = self
            .own_slot(b, slot[0], slot[1])
            .or_else(|| (0..2).find(|&i| self.slots[b + i][1] & USED == 0));
        match at {
            Some(at) => {
                self.slots[b + at] = slot;
                true
            }
            None => false,
        }
    }

    /// Write `slot` into its bucket (see [`Self::slot_for`]), with the work it holds. (Keeping
    /// proofs first, whatever their work, was tried: it pushed out the root's own children in a
    /// long 5x9 search; see `data/results.md`.)
    pub(super) fn store(&mut self, slot: Slot) {
        let b = self.bucket(&slot_position(&slot));
        let (at, _) = self.slot_for(b, slot[0], slot[1]);
        self.slots[b + at] = slot;
    }

    /// Where in bucket `b` the position keyed `(mover, waiting)` goes: over its own slot, else
    /// over the one that cost less work; and the work its own slot holds already (0 if none).
    fn slot_for(&self, b: usize, mover: u64, waiting: u64) -> (usize, u64) {
        let bucket = &self.slots[b..b + 2];
        let work_of = |slot: &Slot| slot[3] >> 32;
        match self.own_slot(b, mover, waiting) {
            Some(i) => (i, work_of(&bucket[i])),
            None => (usize::from(work_of(&bucket[1]) < work_of(&bucket[0])), 0),
        }
    }

    /// Which slot of bucket `b` holds the position keyed `(mover, waiting)`, if either does.
    #[inline]
    fn own_slot(&self, b: usize, mover: u64, waiting: u64) -> Option<usize> {
        self.slots[b..b + 2]
            .iter()
            .position(|slot| slot[0] == mover && slot[1] == waiting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open_numbers() -> Numbers {
        Numbers {
            proof: 3,
            disproof: 4,
            extra: 0,
        }
    }

    #[test]
    fn a_table_is_rounded_down_to_a_power_of_two() {
        let mib = 1usize << 20;
        assert_eq!(table_bytes(1024 * mib), 1024 * mib);
        assert_eq!(table_bytes(1536 * mib), 1024 * mib);
        assert_eq!(table_bytes(2047 * mib), 1024 * mib);
        assert_eq!(table_bytes(2048 * mib), 2048 * mib);
        // Never less than one bucket of two slots.
        assert_eq!(table_bytes(1), 2 * std::mem::size_of::<Slot>());
        for wanted in [1, 1000, 3 * mib + 5, 1536 * 1024] {
            assert_eq!(TranspositionTable::new(wanted).bytes(), table_bytes(wanted));
        }
    }

    #[test]
    fn a_position_visited_often_outlasts_one_that_cost_more_in_a_single_visit() {
        let board = fanorona_engine::Board::standard();
        // Two buckets: positions share one soon enough.
        let mut table = TranspositionTable::new(2 * 2 * std::mem::size_of::<Slot>());
        let mut seed = 7;
        let first = Position::random_placement(&board, 3, 4, &mut seed);
        let mut same_bucket =
            std::iter::from_fn(|| Some(Position::random_placement(&board, 3, 4, &mut seed)))
                .filter(|p| p != &first && table.bucket(p) == table.bucket(&first));
        let (second, third) = (same_bucket.next().unwrap(), same_bucket.next().unwrap());
        // Three visits of 10 nodes each: 30 in all, more than the second's single 20.
        for _ in 0..3 {
            table.put(&first, open_numbers(), 10);
        }
        table.put(&second, open_numbers(), 20);
        table.put(&third, open_numbers(), 25);
        assert!(
            table.get(&first).is_some(),
            "the position of 30 nodes stays"
        );
        assert!(table.get(&second).is_none(), "the one of 20 nodes goes");
        assert!(table.get(&third).is_some());
        let work = |p: &Position| {
            let b = table.bucket(p);
            table.slots[b..b + 2]
                .iter()
                .find(|slot| slot_position(slot) == *p)
                .map(|slot| slot[3] >> 32)
        };
        assert_eq!(work(&first), Some(30));
        assert_eq!(work(&third), Some(25));
    }
}
