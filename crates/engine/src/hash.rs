//! A 64-bit position hash for transposition tables.
//!
//! Positions are two words and a flag, so rather than Zobrist keys per point the hash mixes the
//! words with a strong finaliser: one multiply-xorshift round per word, no tables, and every input
//! bit affects every output bit.

use crate::position::{Color, Position};

/// The hash of `position`, including the side to move.
#[inline]
pub fn hash(position: &Position) -> u64 {
    let side = match position.side {
        Color::White => 0x9e37_79b9_7f4a_7c15,
        Color::Black => 0xd1b5_4a32_d192_ed03,
    };
    mix(position.mover.0 ^ mix(position.waiting.0 ^ side))
}

/// The finaliser of SplitMix64 (Steele, Lea, Flood 2014): every input bit affects every output bit.
#[inline(always)]
pub const fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bitboard;

    #[test]
    fn side_and_roles_change_the_hash() {
        let a = Position {
            mover: Bitboard(1),
            waiting: Bitboard(2),
            side: Color::White,
        };
        let b = Position {
            side: Color::Black,
            ..a
        };
        let c = Position {
            mover: Bitboard(2),
            waiting: Bitboard(1),
            ..a
        };
        assert_ne!(hash(&a), hash(&b));
        assert_ne!(hash(&a), hash(&c));
        assert_eq!(hash(&a), hash(&a.clone()));
    }
}
