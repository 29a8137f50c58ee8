//! Values five to a byte: how a value file's copy in memory holds its slots.
//!
//! A value file keeps four 2-bit values a byte (see [`crate::file`]), simple to write and to
//! read in place. A value is one of three, so a byte holds five of them as the digits of a
//! base-3 number (3^5 = 243 ≤ 256): 1.6 bits a slot instead of 2, a fifth less memory for the
//! same tables. Long searches over the 9-stone tables are bounded by memory (data/results.md,
//! "Sixty-fifth session": 22.8 of 24 GB, half of it the tables), so the copies a search or a
//! build makes of the tables it probes are packed this way; the files are not changed.
//! Reading a value costs a division by five (a multiplication) and a lookup in a 1.2 KB table.

use fanorona_engine::Value;
use rayon::prelude::*;

/// Values a byte.
pub(crate) const VALUES_PER_BYTE: u64 = 5;

/// The bytes that hold `entries` values.
pub(crate) fn bytes_for(entries: u64) -> u64 {
    entries.div_ceil(VALUES_PER_BYTE)
}

/// The five values of each byte, the first in the lowest digit (bytes above 242 never occur).
const VALUES_OF_BYTE: [[Value; 5]; 256] = values_of_bytes();

const fn values_of_bytes() -> [[Value; 5]; 256] {
    let mut table = [[Value::Draw; 5]; 256];
    let mut byte = 0;
    while byte < 243 {
        let mut rest = byte;
        let mut k = 0;
        while k < 5 {
            table[byte][k] = match rest % 3 {
                0 => Value::Draw,
                1 => Value::Win,
                _ => Value::Loss,
            };
            rest /= 3;
            k += 1;
        }
        byte += 1;
    }
    table
}

/// Where value `index` lies: its byte.
#[inline]
pub(crate) fn byte_of(index: u64) -> usize {
    (index / VALUES_PER_BYTE) as usize
}

/// Value `index` of `bytes`.
#[inline]
pub(crate) fn value_at(bytes: &[u8], index: u64) -> Value {
    VALUES_OF_BYTE[bytes[byte_of(index)] as usize][(index % VALUES_PER_BYTE) as usize]
}

/// The digit of each 2-bit code of a value file (0 draw, 1 win, 2 loss; 3 never occurs in a
/// file whose checksum holds, and reads as a draw there too).
const DIGIT_OF_CODE: [u8; 4] = [0, 1, 2, 0];

/// Fill `out` ([`bytes_for`] of `entries`) with the `entries` values that `codes` holds four
/// a byte, the first in the low bits (a value file's payload), on every core. Four bytes of
/// `out` hold the twenty values of five bytes of `codes`, so each takes its own run of both.
pub(crate) fn pack_codes(codes: &[u8], entries: u64, out: &mut [u8]) {
    assert_eq!(out.len() as u64, bytes_for(entries), "room for every value");
    assert!(
        codes.len() as u64 >= entries.div_ceil(4),
        "a code for every value"
    );
    const CHUNK: usize = 1 << 20; // bytes of `out`, a multiple of 4
    out.par_chunks_mut(CHUNK)
        .enumerate()
        .for_each(|(chunk, bytes)| {
            let first_out = chunk * CHUNK;
            // Runs of four bytes all of whose values there are.
            let full_bytes = (entries / VALUES_PER_BYTE) as usize;
            let whole_groups = full_bytes.saturating_sub(first_out).min(bytes.len()) / 4;
            for group in 0..whole_groups {
                let at = (first_out / 4 + group) * 5;
                let word = codes[at..at + 5]
                    .iter()
                    .rev()
                    .fold(0u64, |word, &byte| word << 8 | u64::from(byte));
                for k in 0..4 {
                    let five = word >> (10 * k);
                    bytes[4 * group + k] = (0..5).rev().fold(0u8, |packed, j| {
                        packed * 3 + DIGIT_OF_CODE[(five >> (2 * j)) as usize & 3]
                    });
                }
            }
            // The last run, value by value, up to the last value.
            for (k, byte) in bytes.iter_mut().enumerate().skip(4 * whole_groups) {
                let start = (first_out + k) as u64 * VALUES_PER_BYTE;
                let end = (start + VALUES_PER_BYTE).min(entries);
                *byte = (start..end).rev().fold(0u8, |packed, index| {
                    let code = codes[(index / 4) as usize] >> (2 * (index % 4));
                    packed * 3 + DIGIT_OF_CODE[code as usize & 3]
                });
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value_of(seed: u64) -> Value {
        match fanorona_engine::hash::mix(seed) % 3 {
            0 => Value::Draw,
            1 => Value::Win,
            _ => Value::Loss,
        }
    }

    /// `values` four a byte, as in a value file.
    fn codes_of(values: &[Value]) -> Vec<u8> {
        let code = |value: &Value| match value {
            Value::Draw => 0u8,
            Value::Win => 1,
            Value::Loss => 2,
        };
        values
            .chunks(4)
            .map(|four| four.iter().rev().fold(0, |byte, v| byte << 2 | code(v)))
            .collect()
    }

    #[test]
    fn every_value_reads_back_as_packed() {
        // Counts around the byte boundaries and over more than one parallel chunk.
        for entries in [
            0,
            1,
            4,
            5,
            6,
            9,
            10,
            11,
            19,
            20,
            21,
            5 * (1 << 20) + 3,
            5 << 21,
        ] {
            let values: Vec<Value> = (0..entries).map(value_of).collect();
            let mut bytes = vec![0xff; bytes_for(entries) as usize];
            pack_codes(&codes_of(&values), entries, &mut bytes);
            for (index, &value) in values.iter().enumerate() {
                assert_eq!(value_at(&bytes, index as u64), value, "{entries}: {index}");
            }
        }
    }

    #[test]
    fn a_byte_holds_every_combination_of_five_values() {
        let values = [Value::Draw, Value::Win, Value::Loss];
        let mut seen = std::collections::HashSet::new();
        for combination in 0..243u64 {
            let five: Vec<Value> = (0..5)
                .map(|k| values[(combination / 3u64.pow(k) % 3) as usize])
                .collect();
            let mut byte = [0u8];
            pack_codes(&codes_of(&five), 5, &mut byte);
            assert!(
                seen.insert(byte[0]),
                "two combinations share byte {}",
                byte[0]
            );
            assert!(byte[0] < 243);
            for (index, &value) in five.iter().enumerate() {
                assert_eq!(value_at(&byte, index as u64), value);
            }
        }
    }
}
