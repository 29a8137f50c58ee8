//! A values-only build's state on disk, so that an interrupted build goes on where it stopped.
//!
//! Between two steps (a block of mover classes while captures are decided, a part of a sweep
//! after), the state is each slot's values and frontier and where to go on. A frontier holds
//! exactly the work left, so a build that goes on need only sweep it again. The file is
//! written to a temporary name and renamed, and carries a checksum: a file that is damaged or
//! belongs to another build is reported and ignored, never trusted.

use super::super::checkpoint::{
    build_fingerprint, check_end, create_state, finish_state, open_state, read_failure,
};
use super::{AtomicWords, Slot};
use fanorona_engine::{Board, Rules};
use std::io::{self, Read, Write};
use std::path::Path;
use std::sync::atomic::Ordering::Relaxed;

const MAGIC: &[u8; 8] = b"FANOVPRT";
/// Changes whenever the layout of the state, or what its bits mean, changes. Older states are
/// taken up where they can be read in the newer meaning, and a newer state is refused by the
/// builders before it, which would misread it:
/// - version 1: the frontier holds decided positions only (means the same in every version);
/// - version 2: an undecided position on an exact frontier (a bit a position) is a candidate;
///   taken up as code 3;
/// - version 3: a candidate has code 3, and a frontier of blocks has a second set of bits, for
///   the blocks with candidates (written after the first).
const VERSION: u32 = 3;
/// The oldest version whose states this builder takes up.
const OLDEST_VERSION: u32 = 1;

/// Where a build goes on from.
pub(super) type Stage = super::super::checkpoint::Stage<Sweeps>;

/// The second phase: passing values on, what is left being on the frontiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sweeps;

impl std::fmt::Display for Sweeps {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "passing values on")
    }
}

/// Write the state of `slots` at `stage` to `path`.
pub(super) fn save(
    path: &Path,
    board: &Board,
    rules: &Rules,
    slots: &[Slot],
    stage: Stage,
) -> io::Result<()> {
    save_as(VERSION, path, board, rules, slots, stage)
}

fn save_as(
    version: u32,
    path: &Path,
    board: &Board,
    rules: &Rules,
    slots: &[Slot],
    stage: Stage,
) -> io::Result<()> {
    let (part, mut out) = create_state(path, &fingerprint(version, board, rules, slots))?;
    let (kind, slot, classes_done) = match stage {
        Stage::Captures { slot, classes_done } => (0u8, slot as u64, classes_done),
        Stage::Later(Sweeps) => (1u8, 0, 0),
    };
    out.write_all(&[kind])?;
    out.write_all(&slot.to_le_bytes())?;
    out.write_all(&classes_done.to_le_bytes())?;
    for slot in slots {
        write_words(&mut out, &slot.values.words)?;
        write_words(&mut out, &slot.frontier.to_pass)?;
        if let (Some(to_check), 3..) = (&slot.frontier.to_check, version) {
            write_words(&mut out, to_check)?;
        }
    }
    finish_state(part, out, path)
}

/// Read the state saved in `path` into `slots`. `Ok(None)` if there is none; an error names
/// why a file there cannot be used (after which `slots` hold garbage and must be made again).
pub(super) fn load(
    path: &Path,
    board: &Board,
    rules: &Rules,
    slots: &[Slot],
) -> Result<Option<Stage>, String> {
    let mut opened = open_state(path, &fingerprint(VERSION, board, rules, slots));
    let mut version = VERSION;
    for older in (OLDEST_VERSION..VERSION).rev() {
        if opened.is_ok() {
            break;
        }
        if let Ok(input) = open_state(path, &fingerprint(older, board, rules, slots)) {
            (opened, version) = (Ok(input), older);
        }
    }
    let Some(mut input) = opened? else {
        return Ok(None);
    };
    let truncated = read_failure;
    let mut stage = [0u8; 1 + 8 + 8];
    input.read_exact(&mut stage).map_err(truncated)?;
    let word = |at: usize| u64::from_le_bytes(stage[at..at + 8].try_into().expect("8 bytes"));
    let stage = match (stage[0], word(1), word(9)) {
        (0, slot, classes_done) if (slot as usize) < slots.len() => Stage::Captures {
            slot: slot as usize,
            classes_done,
        },
        (1, 0, 0) => Stage::Later(Sweeps),
        _ => return Err("its stage is not one a build writes".into()),
    };
    for slot in slots {
        read_words(&mut input, &slot.values.words).map_err(truncated)?;
        read_words(&mut input, &slot.frontier.to_pass).map_err(truncated)?;
        // Before version 3, candidates of blocks were checked at once: there are none.
        if let (Some(to_check), 3..) = (&slot.frontier.to_check, version) {
            read_words(&mut input, to_check).map_err(truncated)?;
        }
    }
    check_end(input)?;
    if version == 2 {
        slots.iter().for_each(mark_frontier_candidates);
    }
    Ok(Some(stage))
}

/// Give the undecided positions on an exact frontier of a version 2 state code 3: they are the
/// candidates of that version. (With frontier blocks, version 2 checked candidates at once.)
fn mark_frontier_candidates(slot: &Slot) {
    if slot.frontier.shift > 0 {
        return;
    }
    for (w, word) in slot.frontier.to_pass.words().iter().enumerate() {
        let mut bits = word.load(Relaxed);
        while bits != 0 {
            let i = w as u64 * 64 + bits.trailing_zeros() as u64;
            bits &= bits - 1;
            slot.values.mark_candidate(i);
        }
    }
}

/// What a state belongs to: the format, the board, the rules, each slot's material and size,
/// and the positions a frontier bit stands for (not written when one: the states of before
/// frontier blocks stay good).
fn fingerprint(version: u32, board: &Board, rules: &Rules, slots: &[Slot]) -> Vec<u8> {
    let mut bytes = build_fingerprint(MAGIC, version, board, rules);
    bytes.push(slots.len() as u8);
    for slot in slots {
        let material = slot.index.material();
        bytes.push(material.mover as u8);
        bytes.push(material.waiting as u8);
        bytes.extend_from_slice(&slot.index.size().to_le_bytes());
        if slot.frontier.shift > 0 {
            bytes.push(slot.frontier.shift as u8);
        }
    }
    bytes
}

/// Words written or read at a time.
const WORDS_PER_CHUNK: usize = 1 << 17;

fn write_words(out: &mut impl Write, words: &AtomicWords) -> io::Result<()> {
    let mut bytes = Vec::with_capacity(WORDS_PER_CHUNK * 8);
    for chunk in words.words().chunks(WORDS_PER_CHUNK) {
        bytes.clear();
        for word in chunk {
            bytes.extend_from_slice(&word.load(Relaxed).to_le_bytes());
        }
        out.write_all(&bytes)?;
    }
    Ok(())
}

fn read_words(input: &mut impl Read, words: &AtomicWords) -> io::Result<()> {
    let mut bytes = vec![0u8; WORDS_PER_CHUNK * 8];
    for chunk in words.words().chunks(WORDS_PER_CHUNK) {
        let bytes = &mut bytes[..chunk.len() * 8];
        input.read_exact(bytes)?;
        for (word, read) in chunk.iter().zip(bytes.chunks_exact(8)) {
            word.store(
                u64::from_le_bytes(read.try_into().expect("8 bytes")),
                Relaxed,
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{Slot, System};
    use super::*;
    use crate::index::Material;

    /// An undecided position on the frontier of [`slots`] (a candidate in version 2).
    const ON_FRONTIER: u64 = 12;

    /// The slots of the 3x5 system 1v2 + 2v1, some values and frontier bits set.
    fn slots() -> Vec<Slot> {
        let board = Board::new(3, 5).unwrap();
        let system = System {
            board: &board,
            rules: &Rules::default(),
            materials: vec![Material::new(1, 2), Material::new(2, 1)],
            frontier_shift: 0,
        };
        let slots = system.new_slots();
        for i in [0, 7, 30] {
            slots[0].decide(i, super::super::WON);
            slots[1].decide(i + 1, super::super::LOST);
        }
        slots[0].frontier.add_candidate(ON_FRONTIER);
        slots
    }

    #[test]
    fn a_state_of_an_older_version_is_taken_up_and_a_newer_one_refused() {
        let board = Board::new(3, 5).unwrap();
        let rules = Rules::default();
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("state.values.fnpart");
        let saved = slots();
        let stage = Stage::Later(Sweeps);
        for version in OLDEST_VERSION..=VERSION {
            save_as(version, &path, &board, &rules, &saved, stage).unwrap();
            let loaded = slots();
            loaded[0].values.claim(3, super::super::WON);
            assert_eq!(load(&path, &board, &rules, &loaded), Ok(Some(stage)));
            let was_candidate = loaded[0].values.take_candidate(ON_FRONTIER);
            assert_eq!(was_candidate, version == 2, "version {version}");
            for (a, b) in saved.iter().zip(&loaded) {
                let words = |slot: &Slot| -> Vec<u64> {
                    slot.values
                        .words
                        .words()
                        .iter()
                        .chain(slot.frontier.to_pass.words())
                        .map(|w| w.load(Relaxed))
                        .collect()
                };
                assert_eq!(words(a), words(b), "version {version}");
            }
        }
        save_as(VERSION + 1, &path, &board, &rules, &saved, stage).unwrap();
        let refused = load(&path, &board, &rules, &slots()).unwrap_err();
        assert!(refused.contains("another build"), "{refused}");
    }
}
