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

    /// The members of `mask` that are in the set, packed into the low bits in the order of
    /// `mask` (`pext`): how a set is ranked among the points left free by another.
    #[inline(always)]
    pub fn extract(self, mask: Bitboard) -> u64 {
        extract_bits(self.0, mask.0)
    }

    /// The low bits of `packed` spread onto the points of `mask`, in order (`pdep`): the inverse
    /// of [`Bitboard::extract`].
    #[inline(always)]
    pub fn deposit(packed: u64, mask: Bitboard) -> Bitboard {
        Bitboard(deposit_bits(packed, mask.0))
    }

    /// The points of the set, lowest first.
    #[inline(always)]
    pub const fn points(self) -> Points {
        Points(self.0)
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn extract_bits(value: u64, mask: u64) -> u64 {
    // Safety: BMI2 is enabled for the whole build (this function exists only under that cfg).
    unsafe { std::arch::x86_64::_pext_u64(value, mask) }
}

#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn deposit_bits(packed: u64, mask: u64) -> u64 {
    // Safety: as above.
    unsafe { std::arch::x86_64::_pdep_u64(packed, mask) }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
fn extract_bits(value: u64, mask: u64) -> u64 {
    portable_extract(value, mask)
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
fn deposit_bits(packed: u64, mask: u64) -> u64 {
    portable_deposit(packed, mask)
}

/// `pext` one mask bit at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn portable_extract(value: u64, mut mask: u64) -> u64 {
    let mut packed = 0;
    let mut out_bit = 1;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if value & lowest != 0 {
            packed |= out_bit;
        }
        out_bit <<= 1;
        mask ^= lowest;
    }
    packed
}

/// `pdep` one mask bit at a time.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
fn portable_deposit(mut packed: u64, mut mask: u64) -> u64 {
    let mut value = 0;
    while mask != 0 {
        let lowest = mask & mask.wrapping_neg();
        if packed & 1 != 0 {
            value |= lowest;
        }
        packed >>= 1;
        mask ^= lowest;
    }
    value
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
    fn extract_and_deposit_are_inverse_and_match_the_portable_forms() {
        let mut x = 0x0123_4567_89ab_cdefu64;
        for _ in 0..1000 {
            x = x.rotate_left(7).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x55;
            let (value, mask) = (x, x.rotate_left(29) ^ x.rotate_left(13));
            let packed = Bitboard(value).extract(Bitboard(mask));
            assert_eq!(packed, portable_extract(value, mask));
            assert_eq!(
                Bitboard::deposit(packed, Bitboard(mask)),
                Bitboard(value & mask)
            );
            assert_eq!(portable_deposit(packed, mask), value & mask);
        }
    }

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
