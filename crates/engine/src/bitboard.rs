//! A set of points as the bits of a `u64`.
//!
//! Point `p` is bit `p`; see [`crate::geometry`] for how points are numbered.
//! Every board of this engine has at most 64 points, so one word holds a side.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A point of the board: `rank * columns + file`, both counted from zero.
pub type Point = u8;

/// A set of points, one bit per point.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set holding only `point`.
    #[inline(always)]
    pub const fn from_point(point: Point) -> Bitboard {
        Bitboard(1 << point)
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    #[inline(always)]
    pub const fn contains(self, point: Point) -> bool {
        self.0 >> point & 1 != 0
    }

    /// The lowest point of a non-empty set.
    #[inline(always)]
    pub const fn first(self) -> Point {
        self.0.trailing_zeros() as Point
    }

    #[inline(always)]
    pub const fn with(self, point: Point) -> Bitboard {
        Bitboard(self.0 | 1 << point)
    }

    #[inline(always)]
    pub const fn without(self, point: Point) -> Bitboard {
        Bitboard(self.0 & !(1 << point))
    }

    /// The points of the set, lowest first.
    #[inline(always)]
    pub const fn points(self) -> Points {
        Points(self.0)
    }
}

/// Iterator over the points of a [`Bitboard`], lowest first.
#[derive(Clone, Copy)]
pub struct Points(u64);

impl Iterator for Points {
    type Item = Point;

    #[inline(always)]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let point = self.0.trailing_zeros() as Point;
        self.0 &= self.0 - 1;
        Some(point)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Self {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

macro_rules! bit_operator {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $method(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $assign_trait for Bitboard {
            #[inline(always)]
            fn $assign_method(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_operator!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_operator!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_operator!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_come_out_lowest_first() {
        let set: Bitboard = [9, 0, 44].into_iter().collect();
        assert_eq!(set.points().collect::<Vec<_>>(), vec![0, 9, 44]);
        assert_eq!(set.count(), 3);
        assert!(set.contains(44) && !set.contains(43));
        assert_eq!(
            set.without(9).with(63).points().collect::<Vec<_>>(),
            vec![0, 44, 63]
        );
    }
}
