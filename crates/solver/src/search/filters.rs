//! Two bit filters in front of the search's large sets: the path-dependent disproofs and the
//! held positions; and the marks of the held positions the search has met.
//!
//! Nearly every child the search looks at is in neither set, and a lookup in either is a cache
//! miss (they cost a sixth of the 5x9 search's time before the filters). A filter says "not in
//! the set" for most positions from one word; only a "maybe" is looked up. A position's two
//! words lie side by side, so one memory access (prefetched) answers both.
//!
//! The held filter sets three bits of its word per position, the path-dependent one a single
//! bit. A long 5x9 search holds tens of millions of held positions: one bit each in the old
//! 2^26-bit filter answered "maybe" for about a third of all positions of few stones, each
//! then a lookup in a gigabyte-sized set. So the filter grows with the bound of the held set
//! (eight bits per position it may keep), and three bits of one word answer "maybe" for about
//! 3% of the others when the set is full, at the cost of the same one memory access.

use crate::prefetch::prefetch;
use crate::zeroed_memory::ZeroedMemory;
use fanorona_engine::hash::mix;
use fanorona_engine::{hash, Position};
use std::sync::atomic::{AtomicU64, Ordering};

pub(super) struct Filters {
    /// Per word: `[path-dependent, held]`.
    words: ZeroedMemory<[u64; 2]>,
}

/// Where a position's bits lie in the filters.
#[derive(Clone, Copy)]
pub(super) struct FilterPlace {
    word: usize,
    path_dependent: u64,
    held: u64,
}

const PATH_DEPENDENT: usize = 0;
const HELD: usize = 1;

/// Filter bits per position the held set may keep.
const BITS_PER_HELD: usize = 8;

/// Filter bits per entry of the path-dependent cache: its 2^22 entries want 2^26 bits (with
/// 2^24 bits, a full cache answered "maybe" for a fifth of all positions).
const BITS_PER_PATH_DEPENDENT: usize = 16;

/// The most entries the path-dependent cache keeps (`Search::remember_path_dependent`).
pub(super) const PATH_DEPENDENT_ENTRIES: usize = 1 << 22;

/// At least this many words: the path-dependent filter of a full cache.
const LEAST_WORDS: usize = PATH_DEPENDENT_ENTRIES * BITS_PER_PATH_DEPENDENT / 64;

impl Filters {
    /// Filters for a held set of at most `most_held` positions, in a search of at most
    /// `most_nodes` nodes. Each node leaves at most one path-dependent entry, so a search
    /// of fewer nodes than the cache holds gets a smaller path-dependent filter: the filters
    /// are zeroed as they are first touched, and for a search of a few thousand nodes
    /// (the search benchmark's) their 16 MiB took a third of its time.
    pub(super) fn new(most_held: usize, most_nodes: u64) -> Filters {
        let held = most_held * BITS_PER_HELD / 64;
        let entries = most_nodes.min(PATH_DEPENDENT_ENTRIES as u64) as usize;
        let path_dependent = (entries * BITS_PER_PATH_DEPENDENT / 64).min(LEAST_WORDS);
        Filters::with_words(held.max(path_dependent).next_power_of_two())
    }

    /// Filters of `words` words each (a power of two).
    fn with_words(words: usize) -> Filters {
        debug_assert!(words.is_power_of_two());
        Filters {
            words: ZeroedMemory::new(words),
        }
    }

    /// A position's word (from the top half of its hash: the transposition table's bucket
    /// comes from the bottom bits) and its bits in that word (from a second mix of the hash,
    /// so that the bits of a word are independent of which word it is).
    pub(super) fn place(&self, position: &Position) -> FilterPlace {
        self.place_hashed(hash(position))
    }

    /// [`Self::place`] of the position whose [`hash`] is `bits`.
    pub(super) fn place_hashed(&self, bits: u64) -> FilterPlace {
        let word = (bits >> 32) as usize & (self.words.len() - 1);
        let spread = mix(bits);
        let bit = |k: u32| 1u64 << (spread >> (6 * k) & 63);
        FilterPlace {
            word,
            path_dependent: bit(0),
            held: bit(1) | bit(2) | bit(3),
        }
    }

    /// Ask for a position's words before they are needed.
    pub(super) fn prefetch(&self, place: FilterPlace) {
        prefetch(&self.words[place.word]);
    }

    pub(super) fn may_be_held(&self, place: FilterPlace) -> bool {
        self.words[place.word][HELD] & place.held == place.held
    }

    pub(super) fn may_be_path_dependent(&self, place: FilterPlace) -> bool {
        self.words[place.word][PATH_DEPENDENT] & place.path_dependent != 0
    }

    pub(super) fn mark_held(&mut self, place: FilterPlace) {
        self.words[place.word][HELD] |= place.held;
    }

    pub(super) fn mark_path_dependent(&mut self, place: FilterPlace) {
        self.words[place.word][PATH_DEPENDENT] |= place.path_dependent;
    }

    pub(super) fn clear_held(&mut self) {
        for pair in self.words.iter_mut() {
            pair[HELD] = 0;
        }
    }

    /// Clear the path-dependent filter, of `positions` (`count` of them) alone where that is
    /// less work (their words hold no other bits of this filter).
    pub(super) fn clear_path_dependent(
        &mut self,
        count: usize,
        positions: impl Iterator<Item = Position>,
    ) {
        if count < self.words.len() / 64 {
            for position in positions {
                let word = self.place(&position).word;
                self.words[word][PATH_DEPENDENT] = 0;
            }
        } else {
            for pair in self.words.iter_mut() {
                pair[PATH_DEPENDENT] = 0;
            }
        }
    }
}

/// One bit per held position (from its hash, shared by chance with a few others): set when
/// the search meets it as a child, so that a held set over its bound keeps the holds in use.
/// Set while children are looked at in parallel, hence atomic.
pub(super) struct MetMarks {
    words: Vec<AtomicU64>,
}

/// Mark bits per position the held set may keep: a held position not met shares its bit with
/// a met one for about one in eight.
const MARK_BITS_PER_HELD: usize = 8;

impl MetMarks {
    pub(super) fn new(most_held: usize) -> MetMarks {
        let words = (most_held * MARK_BITS_PER_HELD / 64).next_power_of_two();
        MetMarks {
            words: (0..words.max(1)).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    /// The word and the bit of the position whose [`hash`] is `bits` (from a mix of its own,
    /// apart from the filters' places).
    fn place(&self, bits: u64) -> (usize, u64) {
        let spread = mix(bits.rotate_left(17));
        (
            (spread >> 6) as usize & (self.words.len() - 1),
            1 << (spread & 63),
        )
    }

    pub(super) fn mark(&self, hash: u64) {
        let (word, bit) = self.place(hash);
        // Read first: most marks are set already, and a write to a shared line costs more.
        if self.words[word].load(Ordering::Relaxed) & bit == 0 {
            self.words[word].fetch_or(bit, Ordering::Relaxed);
        }
    }

    pub(super) fn is_marked(&self, position: &Position) -> bool {
        let (word, bit) = self.place(hash(position));
        self.words[word].load(Ordering::Relaxed) & bit != 0
    }

    pub(super) fn clear(&mut self) {
        for word in &mut self.words {
            *word.get_mut() = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::Board;
    use std::collections::HashSet;

    fn random_positions(count: u32, seed: &mut u64) -> Vec<Position> {
        let board = Board::standard();
        (0..count)
            .map(|i| Position::random_placement(&board, 1 + i % 5, 1 + i / 5 % 5, seed))
            .collect()
    }

    #[test]
    fn a_full_held_filter_answers_maybe_for_every_held_position_and_few_others() {
        // Filters sized as a search sizes them (checked on the bound of the smallest search),
        // then made small: a held set at its bound, eight filter bits for each.
        assert_eq!(Filters::new(1 << 20, 1 << 30).words.len(), LEAST_WORDS);
        assert_eq!(Filters::new(1 << 25, 1 << 30).words.len(), 1 << 22);
        // A short search: the held part alone.
        assert_eq!(Filters::new(1 << 20, 20_000).words.len(), 1 << 17);
        let mut filters = Filters::with_words(1 << 12);
        let mut seed = 7;
        let held = random_positions((1 << 12) * 64 / BITS_PER_HELD as u32, &mut seed);
        for position in &held {
            filters.mark_held(filters.place(position));
        }
        assert!(held.iter().all(|p| filters.may_be_held(filters.place(p))));
        let held: HashSet<Position> = held.into_iter().collect();
        let others: Vec<Position> = random_positions(1 << 15, &mut seed)
            .into_iter()
            .filter(|p| !held.contains(p))
            .collect();
        let maybe = others
            .iter()
            .filter(|p| filters.may_be_held(filters.place(p)))
            .count();
        // One bit a position would answer "maybe" for 1 - e^(-1/8), about 12%; three bits
        // of a word for about 3%.
        let rate = maybe as f64 / others.len() as f64;
        assert!(
            rate < 0.06,
            "{:.1}% of other positions may be held",
            rate * 100.0
        );
        filters.clear_held();
        assert!(!held.iter().any(|p| filters.may_be_held(filters.place(p))));
    }

    #[test]
    fn the_two_filters_are_apart_and_cleared_apart() {
        let mut filters = Filters::with_words(1 << 12);
        let mut seed = 11;
        let positions = random_positions(1_000, &mut seed);
        let (path_dependent, held) = positions.split_at(500);
        for position in path_dependent {
            filters.mark_path_dependent(filters.place(position));
        }
        for position in held {
            filters.mark_held(filters.place(position));
        }
        let is_path_dependent = |f: &Filters, p: &Position| f.may_be_path_dependent(f.place(p));
        let is_held = |f: &Filters, p: &Position| f.may_be_held(f.place(p));
        assert!(path_dependent
            .iter()
            .all(|p| is_path_dependent(&filters, p)));
        assert!(held.iter().all(|p| is_held(&filters, p)));
        // Few enough to clear word by word, then all of them.
        filters.clear_path_dependent(10, path_dependent[..10].iter().copied());
        assert!(!path_dependent[..10]
            .iter()
            .any(|p| is_path_dependent(&filters, p)));
        let many = random_positions(1 << 6, &mut seed);
        filters.clear_path_dependent(many.len(), many.iter().copied());
        assert!(!path_dependent
            .iter()
            .any(|p| is_path_dependent(&filters, p)));
        assert!(held.iter().all(|p| is_held(&filters, p)), "held bits kept");
    }
}
