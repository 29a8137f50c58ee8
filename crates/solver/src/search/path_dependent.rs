//! The disproofs that rely on the path above them (a repetition there), kept as a cache: per
//! position, up to [`PER_POSITION`] stretches of path (length and rolling hash) under which
//! it was disproven. The search asks it for children its filter bit marks (see
//! [`super::filters`]) and empties it when it reaches its size limit.
//!
//! Kept flat: a [`PositionMap`] from each position to its newest stretch, and the stretches in
//! one list, each linking to the position's next older one. A standard map of positions to a
//! `Vec` each took 178 bytes a stretch at the size limit (729 MB for 2^22 stretches, one per
//! position: the map's buckets, each `Vec`'s heap block of four and malloc's header), and two
//! searches keep one each; this takes 64 (264 MB), measured as the growth of `RssAnon` while
//! 2^22 scattered positions went in (sixty-third session, data/results.md).

use super::position_map::PositionMap;
use fanorona_engine::Position;

/// The most stretches kept for one position: a new one pushes out its oldest.
const PER_POSITION: usize = 4;

/// No older stretch.
const NONE: u32 = u32::MAX;

pub(super) struct PathDependent {
    /// Per position, the index in `stretches` of its newest stretch.
    newest: PositionMap<u32>,
    stretches: Vec<Stretch>,
}

#[derive(Clone, Copy)]
struct Stretch {
    /// The rolling hash of the stretch of path above the position ...
    hash: u64,
    /// ... its length ...
    length: u32,
    /// ... and the index of the same position's next older stretch, `NONE` where none.
    older: u32,
}

impl PathDependent {
    pub(super) fn new() -> PathDependent {
        PathDependent {
            newest: PositionMap::new(),
            stretches: Vec::new(),
        }
    }

    /// How many stretches are kept (the cache's size).
    pub(super) fn len(&self) -> usize {
        self.stretches.len()
    }

    pub(super) fn is_empty(&self) -> bool {
        self.stretches.is_empty()
    }

    /// How many positions have a stretch.
    pub(super) fn positions_count(&self) -> usize {
        self.newest.len()
    }

    /// Every position with a stretch, in no particular order.
    pub(super) fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        self.newest.positions()
    }

    /// The stretches (length, hash) kept for `position`, whose [`fanorona_engine::hash`] is
    /// `hash`, newest first.
    pub(super) fn stretches_of(
        &self,
        position: &Position,
        hash: u64,
    ) -> impl Iterator<Item = (u32, u64)> + '_ {
        let mut next = self.newest.get_hashed(position, hash).unwrap_or(NONE);
        std::iter::from_fn(move || {
            let stretch = self.stretches.get(next as usize)?;
            next = stretch.older;
            Some((stretch.length, stretch.hash))
        })
    }

    /// Keep the stretch (`length`, `hash`) for `position`; where it has [`PER_POSITION`]
    /// already, the oldest makes room.
    pub(super) fn remember(&mut self, position: &Position, length: u32, hash: u64) {
        let newest = self
            .newest
            .get_hashed(position, fanorona_engine::hash(position));
        let Some(newest) = newest else {
            let at = self.push(length, hash, NONE);
            self.newest.insert(position, at);
            return;
        };
        let (chain, count) = self.chain_from(newest);
        let at = if count == PER_POSITION {
            // The oldest's place takes the new one, and the one before it ends the chain.
            let oldest = chain[PER_POSITION - 1];
            self.stretches[chain[PER_POSITION - 2] as usize].older = NONE;
            self.stretches[oldest as usize] = Stretch {
                hash,
                length,
                older: newest,
            };
            oldest
        } else {
            self.push(length, hash, newest)
        };
        self.newest.set(position, at);
    }

    /// Forget everything, and give back the memory the map took (refilling it regrows it).
    pub(super) fn clear(&mut self) {
        self.newest = PositionMap::new();
        self.stretches.clear();
    }

    fn push(&mut self, length: u32, hash: u64, older: u32) -> u32 {
        let at = u32::try_from(self.stretches.len()).expect("fewer than 2^32 stretches");
        self.stretches.push(Stretch {
            hash,
            length,
            older,
        });
        at
    }

    /// The indices of a position's stretches from `newest` on, oldest last, and how many.
    fn chain_from(&self, newest: u32) -> ([u32; PER_POSITION], usize) {
        let mut chain = [NONE; PER_POSITION];
        let mut count = 0;
        let mut at = newest;
        while at != NONE {
            chain[count] = at;
            count += 1;
            at = self.stretches[at as usize].older;
        }
        (chain, count)
    }
}

#[cfg(test)]
mod tests {
    use super::super::position_map::scattered_position as position;
    use super::*;
    use fanorona_engine::hash;

    fn kept(cache: &PathDependent, position: &Position) -> Vec<(u32, u64)> {
        cache.stretches_of(position, hash(position)).collect()
    }

    #[test]
    fn keeps_each_positions_stretches_newest_first() {
        let mut cache = PathDependent::new();
        assert!(cache.is_empty());
        for seed in 0..1_000 {
            for k in 0..3 {
                cache.remember(&position(seed), k, seed * 10 + u64::from(k));
            }
        }
        assert_eq!(cache.len(), 3_000);
        assert_eq!(cache.positions_count(), 1_000);
        for seed in 0..1_000 {
            let expected: Vec<(u32, u64)> =
                (0..3).rev().map(|k| (k, seed * 10 + k as u64)).collect();
            assert_eq!(kept(&cache, &position(seed)), expected, "{seed}");
        }
        assert_eq!(kept(&cache, &position(5_000)), vec![]);
    }

    #[test]
    fn a_fifth_stretch_pushes_out_the_oldest() {
        let mut cache = PathDependent::new();
        for k in 0..7 {
            cache.remember(&position(1), k, 100 + u64::from(k));
            cache.remember(&position(2), k, 200 + u64::from(k));
        }
        assert_eq!(
            cache.len(),
            2 * PER_POSITION,
            "no room taken past four each"
        );
        assert_eq!(
            kept(&cache, &position(1)),
            vec![(6, 106), (5, 105), (4, 104), (3, 103)]
        );
        assert_eq!(
            kept(&cache, &position(2)),
            vec![(6, 206), (5, 205), (4, 204), (3, 203)]
        );
    }

    #[test]
    fn clear_forgets_everything() {
        let mut cache = PathDependent::new();
        for seed in 0..100 {
            cache.remember(&position(seed), 1, seed);
        }
        cache.clear();
        assert!(cache.is_empty());
        assert_eq!(cache.positions().count(), 0);
        assert_eq!(kept(&cache, &position(3)), vec![]);
        cache.remember(&position(3), 2, 9);
        assert_eq!(kept(&cache, &position(3)), vec![(2, 9)]);
    }

    #[test]
    fn lists_the_positions_it_keeps() {
        let mut cache = PathDependent::new();
        for seed in 0..500 {
            cache.remember(&position(seed), 1, seed);
        }
        let mut listed: Vec<Position> = cache.positions().collect();
        let mut expected: Vec<Position> = (0..500).map(position).collect();
        let order = |p: &Position| (p.mover.0, p.waiting.0, p.side as u8);
        listed.sort_by_key(order);
        expected.sort_by_key(order);
        assert_eq!(listed, expected);
    }

    /// The module's note counts 16 bytes per entry of the list.
    #[test]
    fn a_stretch_takes_16_bytes() {
        assert_eq!(std::mem::size_of::<Stretch>(), 16);
    }
}
