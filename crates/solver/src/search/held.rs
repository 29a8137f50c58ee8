//! The set of positions that closures found held (see [`super::holds`]).
//!
//! It is asked about most children of a long search, and the positions in it are spread over
//! memory, so each question was a cache miss (two, with the standard set: its control bytes
//! and its keys lie apart). Here a position's key sits in the slot its hash names, or in the
//! next few (open addressing): one cache line, which [`HeldSet::prefetch`] can ask for before
//! the answer is needed. The set only grows, as the held positions do.

use super::prefetch;
use fanorona_engine::{hash, Color, Position};

pub(super) struct HeldSet {
    /// A position's key per slot, `EMPTY` where none: fewer than half of them are used.
    slots: Vec<Key>,
    len: usize,
}

/// The side to move in the top bit of the mover's stones (a board has at most 63 points, so
/// that bit is free), and the waiting stones.
type Key = [u64; 2];

/// No position without stones is ever held.
const EMPTY: Key = [0, 0];

fn key(position: &Position) -> Key {
    let side = (position.side == Color::Black) as u64;
    debug_assert!(position.mover.0 >> 63 == 0, "a board of 64 points");
    [position.mover.0 | side << 63, position.waiting.0]
}

impl HeldSet {
    pub(super) fn new() -> HeldSet {
        HeldSet {
            slots: Vec::new(),
            len: 0,
        }
    }

    pub(super) fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn home(&self, position: &Position) -> usize {
        hash(position) as usize & (self.slots.len() - 1)
    }

    /// Start loading the slot where `position` would be.
    pub(super) fn prefetch(&self, position: &Position) {
        if !self.slots.is_empty() {
            prefetch(&self.slots[self.home(position)]);
        }
    }

    pub(super) fn contains(&self, position: &Position) -> bool {
        !self.slots.is_empty() && self.slots[self.slot(position, key(position))] != EMPTY
    }

    /// Add `position`; false if it was there already.
    pub(super) fn insert(&mut self, position: &Position) -> bool {
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let wanted = key(position);
        let at = self.slot(position, wanted);
        if self.slots[at] == wanted {
            return false;
        }
        self.slots[at] = wanted;
        self.len += 1;
        true
    }

    /// The slot that holds `wanted` (the key of `position`), or the empty one where it would
    /// go: the first of the two from the position's home slot on.
    fn slot(&self, position: &Position, wanted: Key) -> usize {
        let mask = self.slots.len() - 1;
        let mut at = self.home(position);
        while self.slots[at] != wanted && self.slots[at] != EMPTY {
            at = (at + 1) & mask;
        }
        at
    }

    /// Twice the slots (at least 1,024), every key moved to its new home.
    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![EMPTY; size]);
        for stored in old.into_iter().filter(|&k| k != EMPTY) {
            let at = self.slot(&position_of(stored), stored);
            self.slots[at] = stored;
        }
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
        mover: fanorona_engine::Bitboard(stored[0] & !(1 << 63)),
        waiting: fanorona_engine::Bitboard(stored[1]),
        side,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::Bitboard;

    fn position(seed: u64) -> Position {
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

    #[test]
    fn holds_what_was_inserted_and_nothing_else() {
        let mut set = HeldSet::new();
        assert!(!set.contains(&position(1)));
        for seed in 0..10_000 {
            assert!(set.insert(&position(seed)), "{seed} new");
        }
        assert!(!set.insert(&position(17)), "already there");
        assert_eq!(set.len, 10_000);
        for seed in 0..10_000 {
            assert!(set.contains(&position(seed)), "{seed}");
            set.prefetch(&position(seed));
        }
        for seed in 10_000..20_000 {
            assert!(!set.contains(&position(seed)), "{seed}");
        }
        // The same stones with the other side to move are another position.
        let mut other = position(3);
        other.side = Color::White;
        assert!(!set.contains(&other));
    }

    #[test]
    fn keys_give_back_their_positions() {
        for seed in 0..1_000 {
            assert_eq!(position_of(key(&position(seed))), position(seed));
        }
    }
}
