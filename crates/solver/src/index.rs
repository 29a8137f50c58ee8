//! The index of a position within its material, with the side to move folded.
//!
//! A material is (stones of the side to move, stones of the side waiting). A position of it is
//! numbered by ranking the mover's set among all points, then the waiting set among the points
//! the mover leaves free, both in colex order (Σ C(cᵢ, i) over the set's points c₁ < c₂ < …):
//!
//! ```text
//! index = rank(mover among N points) × C(N − a, b) + rank(waiting packed into the N − a free points)
//! ```
//!
//! Colex order is the numeric order of the sets as integers, so enumerating indices in order
//! is Gosper's hack on each part (no unranking per position).

use crate::binomial::choose;
use fanorona_engine::{Bitboard, Board};

/// Stones of the side to move and of the side waiting.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub mover: usize,
    pub waiting: usize,
}

impl Material {
    pub const fn new(mover: usize, waiting: usize) -> Material {
        Material { mover, waiting }
    }

    /// The material after the sides swap roles with no capture (a paika).
    pub const fn swapped(self) -> Material {
        Material {
            mover: self.waiting,
            waiting: self.mover,
        }
    }

    pub const fn stones(self) -> usize {
        self.mover + self.waiting
    }

    /// The material of `mover` against `waiting`.
    pub fn of(mover: Bitboard, waiting: Bitboard) -> Material {
        Material::new(mover.count() as usize, waiting.count() as usize)
    }
}

/// Ranks and unranks the positions of one material on one board.
#[derive(Clone, Debug)]
pub struct MaterialIndex {
    points: usize,
    material: Material,
    /// C(N − a, b): how many waiting sets each mover set has.
    waiting_sets: u64,
}

impl MaterialIndex {
    pub fn new(board: &Board, material: Material) -> MaterialIndex {
        let points = board.points();
        assert!(
            material.stones() <= points,
            "{material:?} does not fit on {}",
            board.size_name()
        );
        let waiting_sets = choose(points - material.mover, material.waiting);
        MaterialIndex {
            points,
            material,
            waiting_sets,
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of points of the board.
    pub fn points(&self) -> usize {
        self.points
    }

    /// The number of positions of this material.
    pub fn size(&self) -> u64 {
        choose(self.points, self.material.mover) * self.waiting_sets
    }

    /// The number of mover sets.
    pub fn mover_sets(&self) -> u64 {
        choose(self.points, self.material.mover)
    }

    /// The number of waiting sets per mover set.
    pub fn waiting_sets(&self) -> u64 {
        self.waiting_sets
    }

    /// The index of a position of this material.
    #[inline]
    pub fn index(&self, mover: Bitboard, waiting: Bitboard) -> u64 {
        debug_assert_eq!(Material::of(mover, waiting), self.material);
        let free = self.all_points() & !mover;
        colex_rank(mover.0) * self.waiting_sets + colex_rank(waiting.extract(free))
    }

    /// The position with this index: (mover, waiting).
    pub fn position(&self, index: u64) -> (Bitboard, Bitboard) {
        let mover = Bitboard(colex_unrank(index / self.waiting_sets, self.material.mover));
        (mover, self.waiting_set(mover, index % self.waiting_sets))
    }

    /// The waiting set with this rank among those that `mover` leaves free.
    pub fn waiting_set(&self, mover: Bitboard, rank: u64) -> Bitboard {
        Bitboard::deposit(
            colex_unrank(rank, self.material.waiting),
            self.all_points() & !mover,
        )
    }

    /// Every point of the board.
    pub fn all_points(&self) -> Bitboard {
        Bitboard(if self.points == 64 {
            u64::MAX
        } else {
            (1 << self.points) - 1
        })
    }

    /// Every position of this material in index order: mover sets, and for each the waiting sets.
    pub fn positions(&self) -> impl Iterator<Item = (Bitboard, Bitboard)> + '_ {
        let all = self.all_points();
        let waiting = self.material.waiting;
        k_subsets(self.points, self.material.mover).flat_map(move |mover| {
            let free = all & !Bitboard(mover);
            k_subsets(self.points - self.material.mover, waiting)
                .map(move |packed| (Bitboard(mover), Bitboard::deposit(packed, free)))
        })
    }
}

/// The colex rank of a set among the sets of its size: Σ C(cᵢ, i).
#[inline]
pub fn colex_rank(mut set: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += choose(set.trailing_zeros() as usize, i);
        set &= set - 1;
        i += 1;
    }
    rank
}

/// The set of `size` elements with this colex rank.
pub fn colex_unrank(mut rank: u64, size: usize) -> u64 {
    let mut set = 0;
    for i in (1..=size).rev() {
        // The largest c with C(c, i) ≤ rank.
        let mut c = i - 1;
        while choose(c + 1, i) <= rank {
            c += 1;
        }
        rank -= choose(c, i);
        set |= 1 << c;
    }
    set
}

/// The `k`-element subsets of `n` points in colex (numeric) order, by Gosper's hack.
pub fn k_subsets(n: usize, k: usize) -> impl Iterator<Item = u64> {
    let limit = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let first = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
    let mut next = (k <= n).then_some(first);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            gosper(current).filter(|&n| n <= limit && n != 0)
        };
        Some(current)
    })
}

/// The next larger integer with as many bits set, if there is one in 64 bits.
fn gosper(set: u64) -> Option<u64> {
    let lowest = set & set.wrapping_neg();
    let ripple = set.checked_add(lowest)?;
    Some(ripple | (((set ^ ripple) >> 2) / lowest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_order_is_index_order() {
        let board = Board::new(3, 5).unwrap();
        for (a, b) in [(1, 1), (2, 3), (4, 2), (1, 0), (7, 8)] {
            let index = MaterialIndex::new(&board, Material::new(a, b));
            let mut count = 0;
            for (i, (mover, waiting)) in index.positions().enumerate() {
                assert_eq!(index.index(mover, waiting), i as u64);
                assert_eq!(index.position(i as u64), (mover, waiting));
                assert!((mover & waiting).is_empty());
                count += 1;
            }
            assert_eq!(count, index.size());
        }
    }

    #[test]
    fn sizes_match_the_counts_of_the_papers() {
        // All 5x9 positions with 2..=7 stones, each side to move folded: with the other side to
        // move counted as the swapped material, Σ C(45,a)·C(45−a,b) over a,b ≥ 1, a+b ≤ 7.
        let board = Board::standard();
        let total: u64 = (2..=7)
            .flat_map(|n| (1..n).map(move |a| Material::new(a, n - a)))
            .map(|m| MaterialIndex::new(&board, m).size())
            .sum();
        assert_eq!(
            total, 6_261_651_660,
            "SPEC.md §4: 6,261,651,660 positions up to 7 stones"
        );
    }

    #[test]
    fn subsets_of_full_words() {
        assert_eq!(k_subsets(64, 64).collect::<Vec<_>>(), vec![u64::MAX]);
        assert_eq!(k_subsets(5, 0).collect::<Vec<_>>(), vec![0]);
        assert_eq!(k_subsets(4, 2).count(), 6);
        assert_eq!(k_subsets(3, 4).count(), 0);
    }
}
