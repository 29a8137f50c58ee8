//! A table's most common value, and where the others are: how a lopsided value file's copy in
//! memory holds its slots when the copies do not all fit five values a byte.
//!
//! Many tables are lopsided: 5v2 on 5x9 is 99.6 % wins, 1v6 97 % losses, 7v2 and 5v3 mostly
//! wins. Such a table is held as its common value, a bit per slot that says whether the slot
//! holds another ("an exception"), and a bit per exception that says which of the other two
//! it holds; the bitmap's words with no exception are left out.
//!
//! The slots come in superblocks of 512 (eight words of 64). A superblock has a header word:
//! the eight bits of its words that hold an exception (the "present" words) and, above them,
//! where its data begins among the data words. Its data is its present words, then the bits
//! of its exceptions in slot order, padded to a whole word. Reading a value reads the header
//! and then a few neighbouring data words: two places in memory instead of the one of
//! [`crate::base3_values`] (a batch of probes loads the second once the first is there:
//! `TableFile::prefetch_second`). On the 5x9 value files up to 9 stones this measured 0.13 to
//! 1.35 bits a slot on the lopsided tables, against 1.6 (data/results.md, "Sixty-seventh
//! session"); a table whose values are spread evenly keeps five values a byte
//! ([`Plan::smaller_than`]).

use fanorona_engine::Value;
use rayon::prelude::*;

/// Slots a superblock.
const SLOTS_PER_SUPERBLOCK: u64 = 512;
/// Superblocks a chunk: the unit of work in parallel, and of the plan's word counts.
const SUPERBLOCKS_PER_CHUNK: usize = 4096;

/// The values by their digit, as [`crate::base3_values`] numbers them.
const VALUE_OF_DIGIT: [Value; 3] = [Value::Draw, Value::Win, Value::Loss];

/// The two values other than the common one (by its digit), an exception's bit choosing.
const OTHERS: [[Value; 2]; 3] = [
    [Value::Win, Value::Loss],
    [Value::Draw, Value::Loss],
    [Value::Draw, Value::Win],
];

/// How a table would be laid out: the common value, and how many data words each chunk of
/// superblocks takes with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Plan {
    common: u8,
    entries: u64,
    chunk_words: Vec<u64>,
}

impl Plan {
    /// The value most slots hold.
    pub(crate) fn common(&self) -> Value {
        VALUE_OF_DIGIT[self.common as usize]
    }

    /// The bytes of the layout: a header word a superblock, and the data words.
    pub(crate) fn bytes(&self) -> u64 {
        8 * (superblocks(self.entries) + self.chunk_words.iter().sum::<u64>())
    }

    /// Whether this layout takes fewer bytes than `other` bytes, by a tenth of them at least
    /// (reading a value here costs two places in memory instead of one: not for a little).
    pub(crate) fn smaller_than(&self, other: u64) -> bool {
        self.bytes() * 10 < other * 9
    }
}

fn superblocks(entries: u64) -> u64 {
    entries.div_ceil(SLOTS_PER_SUPERBLOCK)
}

/// Bits 0, 2, 4, … of `x`, gathered into the low 32.
fn even_bits(x: u64) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0x0000_0000_ffff_ffff
}

/// The slots of word `w` (slots `64 w` to `64 w + 63`) of the codes (a value file's payload,
/// `entries` values) that hold each digit: draws, wins, losses (a code 3, which a checked file
/// never holds, as a draw, as [`crate::base3_values`] reads it). Slots past `entries` in none.
fn digit_masks(codes: &[u8], entries: u64, w: u64) -> [u64; 3] {
    let first = 16 * w as usize;
    let mut bytes = [0u8; 16];
    let end = (first + 16).min(codes.len());
    bytes[..end - first].copy_from_slice(&codes[first..end]);
    let half = |k: usize| u64::from_le_bytes(bytes[8 * k..8 * k + 8].try_into().expect("8"));
    // Per half: the low and high bit of each code, gathered to a bit a slot.
    let (low, high) = (half(0), half(1));
    let lo = even_bits(low) | even_bits(high) << 32;
    let hi = even_bits(low >> 1) | even_bits(high >> 1) << 32;
    let slots = (entries - 64 * w).min(64);
    let valid = if slots == 64 {
        u64::MAX
    } else {
        (1 << slots) - 1
    };
    let win = lo & !hi & valid;
    let loss = hi & !lo & valid;
    [valid & !win & !loss, win, loss]
}

/// The exception bitmap of word `w` against the common digit, and the exceptions' bits (set
/// for the higher of the two other digits), in slot order.
fn word_bits(codes: &[u8], entries: u64, w: u64, common: u8) -> (u64, u64) {
    let masks = digit_masks(codes, entries, w);
    let valid = masks[0] | masks[1] | masks[2];
    let present = valid & !masks[common as usize];
    let higher = masks[if common == 2 { 1 } else { 2 }];
    // The bits of `higher` at the present slots, packed in their order.
    let (mut which, mut rest, mut count) = (0u64, present, 0);
    while rest != 0 {
        let slot = rest.trailing_zeros();
        which |= (higher >> slot & 1) << count;
        count += 1;
        rest &= rest - 1;
    }
    (present, which)
}

/// The superblock range of chunk `c`.
fn chunk_superblocks(entries: u64, c: usize) -> std::ops::Range<u64> {
    let first = (c * SUPERBLOCKS_PER_CHUNK) as u64;
    first..(first + SUPERBLOCKS_PER_CHUNK as u64).min(superblocks(entries))
}

fn chunks(entries: u64) -> usize {
    (superblocks(entries) as usize).div_ceil(SUPERBLOCKS_PER_CHUNK)
}

/// Data words of superblock `s` against each common digit.
fn superblock_words(codes: &[u8], entries: u64, s: u64) -> [u64; 3] {
    let mut present = [0u64; 3];
    let mut exceptions = [0u64; 3];
    for w in s * 8..(s * 8 + 8).min(entries.div_ceil(64)) {
        let masks = digit_masks(codes, entries, w);
        let valid = masks[0] | masks[1] | masks[2];
        for common in 0..3 {
            let others = (valid & !masks[common]).count_ones() as u64;
            present[common] += u64::from(others > 0);
            exceptions[common] += others;
        }
    }
    std::array::from_fn(|c| present[c] + exceptions[c].div_ceil(64))
}

/// The plan of the codes of a value file's payload (`entries` values four a byte): the common
/// value that leaves the fewest words, on every core.
pub(crate) fn plan(codes: &[u8], entries: u64) -> Plan {
    assert!(
        codes.len() as u64 >= entries.div_ceil(4),
        "a code for every value"
    );
    let per_chunk: Vec<[u64; 3]> = (0..chunks(entries))
        .into_par_iter()
        .map(|c| {
            chunk_superblocks(entries, c)
                .map(|s| superblock_words(codes, entries, s))
                .fold([0; 3], |sum, words| {
                    std::array::from_fn(|k| sum[k] + words[k])
                })
        })
        .collect();
    let total = |common: usize| per_chunk.iter().map(|words| words[common]).sum::<u64>();
    let common = (0..3).min_by_key(|&common| total(common)).expect("three");
    Plan {
        common: common as u8,
        entries,
        chunk_words: per_chunk.iter().map(|words| words[common]).collect(),
    }
}

/// Fill `out` ([`Plan::bytes`] of `plan`) with the layout of `codes` (as given to [`plan`]),
/// on every core.
pub(crate) fn pack_codes(codes: &[u8], plan: &Plan, out: &mut [u8]) {
    assert_eq!(out.len() as u64, plan.bytes(), "room for the layout");
    let entries = plan.entries;
    let header_bytes = 8 * superblocks(entries) as usize;
    let (headers, mut data) = out.split_at_mut(header_bytes);
    // Each chunk's run of headers and of data, side by side.
    let mut runs = Vec::with_capacity(plan.chunk_words.len());
    let mut headers = headers;
    let mut first_word = 0u64;
    for (c, &words) in plan.chunk_words.iter().enumerate() {
        let count = chunk_superblocks(entries, c).count();
        let (chunk_headers, rest) = headers.split_at_mut(8 * count);
        let (chunk_data, rest_data) = data.split_at_mut(8 * words as usize);
        runs.push((c, chunk_headers, chunk_data, first_word));
        headers = rest;
        data = rest_data;
        first_word += words;
    }
    runs.into_par_iter()
        .for_each(|(c, chunk_headers, chunk_data, first_word)| {
            let mut at = 0usize;
            for (k, s) in chunk_superblocks(entries, c).enumerate() {
                let (mask, words) = pack_superblock(codes, entries, plan.common, s, chunk_data, at);
                let offset = if mask == 0 { 0 } else { first_word + at as u64 };
                put_word(chunk_headers, k, offset << 8 | mask);
                at += words;
            }
            assert_eq!(8 * at, chunk_data.len(), "the plan's words");
        });
}

/// Write superblock `s`'s data at word `at` of `data`: its present words, then its
/// exceptions' bits padded to a whole word. Returns its mask of present words and the words
/// written.
fn pack_superblock(
    codes: &[u8],
    entries: u64,
    common: u8,
    s: u64,
    data: &mut [u8],
    at: usize,
) -> (u64, usize) {
    let mut mask = 0u64;
    let mut written = 0;
    // Each present word's exception bits and their count.
    let mut which = [(0u64, 0u32); 8];
    for j in 0..8u64 {
        let w = s * 8 + j;
        if w >= entries.div_ceil(64) {
            break;
        }
        let (present, bits) = word_bits(codes, entries, w, common);
        if present != 0 {
            mask |= 1 << j;
            put_word(data, at + written, present);
            which[written] = (bits, present.count_ones());
            written += 1;
        }
    }
    let (mut word, mut filled) = (0u64, 0u32);
    for &(bits, count) in &which[..written] {
        word |= bits.checked_shl(filled).unwrap_or(0);
        if filled + count >= 64 {
            put_word(data, at + written, word);
            written += 1;
            word = bits.checked_shr(64 - filled).unwrap_or(0);
            filled = filled + count - 64;
        } else {
            filled += count;
        }
    }
    if filled > 0 {
        put_word(data, at + written, word);
        written += 1;
    }
    (mask, written)
}

fn put_word(bytes: &mut [u8], at: usize, word: u64) {
    bytes[8 * at..8 * at + 8].copy_from_slice(&word.to_le_bytes());
}

#[inline]
fn word_at(bytes: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(bytes[8 * at..8 * at + 8].try_into().expect("eight bytes"))
}

/// Where value `index` begins to be read: its superblock's header.
#[inline]
pub(crate) fn byte_of(index: u64) -> usize {
    8 * (index / SLOTS_PER_SUPERBLOCK) as usize
}

/// What value `index`'s superblock header tells of its word of 64 values: where (in words)
/// the superblock's data words begin, how many of them come before this word's, and the mask
/// of the words present. `None` when the word marks no exception (it is left out).
#[inline]
fn data_words_of(bytes: &[u8], entries: u64, index: u64) -> Option<(usize, usize, u64)> {
    let header = word_at(bytes, (index / SLOTS_PER_SUPERBLOCK) as usize);
    let j = (index / 64) % 8;
    let mask = header & 0xff;
    (mask >> j & 1 != 0).then(|| {
        let data = superblocks(entries) as usize + (header >> 8) as usize;
        let before = (mask & ((1 << j) - 1)).count_ones() as usize;
        (data, before, mask)
    })
}

/// Where the data word of value `index` lies (in bytes), if its header (which
/// [`byte_of`] names) says it has one: to be loaded ahead of [`value_at`] once the header is.
#[inline]
pub(crate) fn data_byte_of(bytes: &[u8], entries: u64, index: u64) -> Option<usize> {
    data_words_of(bytes, entries, index).map(|(data, before, _)| 8 * (data + before))
}

/// Value `index` of `bytes`, laid out by [`pack_codes`] for `entries` values with `common`
/// the common value.
#[inline]
pub(crate) fn value_at(bytes: &[u8], entries: u64, common: Value, index: u64) -> Value {
    let Some((data, before, mask)) = data_words_of(bytes, entries, index) else {
        return common;
    };
    let word = word_at(bytes, data + before);
    let bit = index % 64;
    if word >> bit & 1 == 0 {
        return common;
    }
    let rank = (0..before)
        .map(|k| word_at(bytes, data + k).count_ones())
        .sum::<u32>()
        + (word & ((1 << bit) - 1)).count_ones();
    let exceptions_at = data + mask.count_ones() as usize + rank as usize / 64;
    let which = word_at(bytes, exceptions_at) >> (rank % 64) & 1;
    OTHERS[digit_of(common)][which as usize]
}

fn digit_of(value: Value) -> usize {
    match value {
        Value::Draw => 0,
        Value::Win => 1,
        Value::Loss => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::hash::mix;

    /// `values` four a byte, as in a value file.
    fn codes_of(values: &[Value]) -> Vec<u8> {
        let mut codes = vec![0u8; values.len().div_ceil(4)];
        for (i, value) in values.iter().enumerate() {
            let code = match value {
                Value::Draw => 0u8,
                Value::Win => 1,
                Value::Loss => 2,
            };
            codes[i / 4] |= code << (2 * (i % 4));
        }
        codes
    }

    /// `count` values, mostly `common`: one in `one_in` another, more where `runs` says so.
    fn lopsided(count: usize, common: Value, one_in: u64, seed: u64) -> Vec<Value> {
        (0..count as u64)
            .map(|i| {
                let h = mix(i ^ seed);
                // Some superblocks with no exception at all, some crowded.
                let crowded = mix((i / 512) ^ seed) % 4 == 0;
                match (h % if crowded { 2 } else { one_in }, h >> 32 & 1) {
                    (0, 0) => OTHERS[digit_of(common)][0],
                    (0, _) => OTHERS[digit_of(common)][1],
                    _ => common,
                }
            })
            .collect()
    }

    fn laid_out(values: &[Value]) -> (Plan, Vec<u8>) {
        let codes = codes_of(values);
        let plan = plan(&codes, values.len() as u64);
        let mut out = vec![0u8; plan.bytes() as usize];
        pack_codes(&codes, &plan, &mut out);
        (plan, out)
    }

    #[test]
    fn every_value_reads_back_whatever_the_common_value_and_the_size() {
        let sizes = [
            1,
            63,
            64,
            65,
            511,
            512,
            513,
            4096 * 512 + 77,
            3 * 4096 * 512 + 1,
        ];
        for (k, &size) in sizes.iter().enumerate() {
            for (c, common) in [Value::Draw, Value::Win, Value::Loss]
                .into_iter()
                .enumerate()
            {
                let values = lopsided(size, common, 20, (k * 3 + c) as u64);
                let (plan, out) = laid_out(&values);
                if size > 512 {
                    assert_eq!(plan.common(), common, "the most common value, {size}");
                }
                for (i, &value) in values.iter().enumerate() {
                    let read = value_at(&out, size as u64, plan.common(), i as u64);
                    assert_eq!(read, value, "slot {i} of {size}");
                }
            }
        }
    }

    #[test]
    fn a_word_of_exceptions_and_a_word_of_none_read_back() {
        // Every slot another value, then none: the exceptions' bits fill whole words.
        let mut values = vec![Value::Loss; 1024];
        for (i, value) in values.iter_mut().enumerate().take(512) {
            *value = if i % 3 == 0 { Value::Draw } else { Value::Win };
        }
        values.extend(vec![Value::Loss; 4096]);
        let (plan, out) = laid_out(&values);
        assert_eq!(plan.common(), Value::Loss);
        for (i, &value) in values.iter().enumerate() {
            assert_eq!(
                value_at(&out, values.len() as u64, plan.common(), i as u64),
                value
            );
        }
        // Ten superblocks: ten headers; eight present words and eight of exception bits.
        assert_eq!(plan.bytes(), 8 * (10 + 16));
    }

    #[test]
    fn a_lopsided_table_takes_less_than_five_values_a_byte_and_an_even_one_more() {
        let size = 1 << 20;
        let bytes_base3 = crate::base3_values::bytes_for(size as u64);
        let (plan, _) = laid_out(&lopsided(size, Value::Win, 100, 1));
        assert!(plan.smaller_than(bytes_base3), "{} bytes", plan.bytes());
        let even: Vec<Value> = (0..size as u64)
            .map(|i| VALUE_OF_DIGIT[(mix(i) % 3) as usize])
            .collect();
        let (plan, _) = laid_out(&even);
        assert!(!plan.smaller_than(bytes_base3), "{} bytes", plan.bytes());
    }
}
