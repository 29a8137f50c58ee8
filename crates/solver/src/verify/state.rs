//! The saved state of a verification under way (`5x9-loss-verify-8-2v6.fnverify` beside the
//! tables),
//! so that one stopped with Ctrl-C, or killed, goes on where it was: an 8-stone system takes
//! longer to verify than a working session may have left.
//!
//! Each material's slots are checked in units of [`UNIT_SLOTS`]; the state records which units
//! are done and which slots did not follow from their successors so far, and is written again
//! (a few hundred bytes) after every unit. It names the table files it belongs to by their
//! checksums: a state of other files, or a damaged one, is noted and not used.
//!
//! ```text
//! "FANOVRFY", version u32 (1), rows u8, columns u8, blocked rule u8, 1 byte unused,
//! materials u32, then per material: mover u8, waiting u8, file checksum u64, units u64, and
//! one bit per unit (u64 words, bit k of word w is unit 64w + k); mismatches u64, then per
//! mismatch: material number u32, slot u64; the checksum of all before it, u64.
//! ```

use crate::file::Checksum;
use crate::index::Material;
use crate::part_file::PartFile;
use fanorona_engine::{Blocked, Board, Rules};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"FANOVRFY";
const VERSION: u32 = 1;
/// Slots checked between two saves of the state (a few seconds of work on a few cores).
pub(crate) const UNIT_SLOTS: u64 = 1 << 22;

/// The state file of a verification of tables of `board` under `rules` in `directory`;
/// `scope` tells verifications of different materials apart (`8`, `8-2v6`), so that one does
/// not push out the state of another.
pub fn state_path(directory: &Path, board: &Board, rules: &Rules, scope: &str) -> PathBuf {
    let rule = match rules.blocked {
        Blocked::Loss => "loss",
        Blocked::Draw => "draw",
    };
    directory.join(format!(
        "{}x{}-{rule}-verify-{scope}.fnverify",
        board.rows(),
        board.columns()
    ))
}

/// What a verification is checking, and what it has checked so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct VerifyState {
    /// rows, columns, blocked rule.
    board: [u8; 3],
    /// Per material: the material, its file's checksum, and its units done.
    pub(crate) materials: Vec<MaterialState>,
    /// (material number, slot) of each slot found wrong so far.
    pub(crate) mismatches: Vec<(u32, u64)>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MaterialState {
    pub(crate) material: Material,
    checksum: u64,
    units: u64,
    done: Vec<u64>,
}

impl MaterialState {
    pub(crate) fn new(material: Material, checksum: u64, slots: u64) -> MaterialState {
        let units = slots.div_ceil(UNIT_SLOTS);
        MaterialState {
            material,
            checksum,
            units,
            done: vec![0; units.div_ceil(64) as usize],
        }
    }

    pub(crate) fn units(&self) -> u64 {
        self.units
    }

    pub(crate) fn is_done(&self, unit: u64) -> bool {
        self.done[(unit / 64) as usize] >> (unit % 64) & 1 == 1
    }

    pub(crate) fn mark_done(&mut self, unit: u64) {
        self.done[(unit / 64) as usize] |= 1 << (unit % 64);
    }
}

impl VerifyState {
    pub(crate) fn new(board: &Board, rules: &Rules, materials: Vec<MaterialState>) -> VerifyState {
        VerifyState {
            board: [
                board.rows() as u8,
                board.columns() as u8,
                matches!(rules.blocked, Blocked::Draw) as u8,
            ],
            materials,
            mismatches: Vec::new(),
        }
    }

    /// Whether `saved` checks the same files as this fresh state (then it can go on).
    pub(crate) fn same_files(&self, saved: &VerifyState) -> bool {
        self.board == saved.board
            && self.materials.len() == saved.materials.len()
            && self.materials.iter().zip(&saved.materials).all(|(a, b)| {
                (a.material, a.checksum, a.units) == (b.material, b.checksum, b.units)
            })
    }

    fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&self.board);
        bytes.push(0);
        bytes.extend_from_slice(&(self.materials.len() as u32).to_le_bytes());
        for m in &self.materials {
            bytes.extend_from_slice(&[m.material.mover as u8, m.material.waiting as u8]);
            bytes.extend_from_slice(&m.checksum.to_le_bytes());
            bytes.extend_from_slice(&m.units.to_le_bytes());
            for word in &m.done {
                bytes.extend_from_slice(&word.to_le_bytes());
            }
        }
        bytes.extend_from_slice(&(self.mismatches.len() as u64).to_le_bytes());
        for (material, slot) in &self.mismatches {
            bytes.extend_from_slice(&material.to_le_bytes());
            bytes.extend_from_slice(&slot.to_le_bytes());
        }
        let mut checksum = Checksum::new();
        checksum.update(&bytes);
        bytes.extend_from_slice(&checksum.finish().to_le_bytes());
        bytes
    }

    fn from_bytes(bytes: &[u8]) -> Option<VerifyState> {
        let (body, stored) = bytes.split_at(bytes.len().checked_sub(8)?);
        let mut checksum = Checksum::new();
        checksum.update(body);
        if stored != checksum.finish().to_le_bytes() {
            return None;
        }
        let mut reader = Reader { bytes: body };
        if reader.take(8)? != MAGIC || reader.u32()? != VERSION {
            return None;
        }
        let header = reader.take(4)?;
        let board = [header[0], header[1], header[2]];
        let count = reader.u32()?;
        let mut materials = Vec::new();
        for _ in 0..count {
            let sides = reader.take(2)?;
            let material = Material::new(sides[0] as usize, sides[1] as usize);
            let checksum = reader.u64()?;
            let units = reader.u64()?;
            let done = (0..units.div_ceil(64))
                .map(|_| reader.u64())
                .collect::<Option<Vec<u64>>>()?;
            materials.push(MaterialState {
                material,
                checksum,
                units,
                done,
            });
        }
        let found = reader.u64()?;
        let mut mismatches = Vec::new();
        for _ in 0..found {
            let material = reader.u32()?;
            let slot = reader.u64()?;
            if material as usize >= materials.len() {
                return None;
            }
            mismatches.push((material, slot));
        }
        reader.bytes.is_empty().then_some(VerifyState {
            board,
            materials,
            mismatches,
        })
    }

    /// Write the state to `path`: to a temporary name, then renamed.
    pub(crate) fn save(&self, path: &Path) -> io::Result<()> {
        let mut temporary = path.as_os_str().to_owned();
        temporary.push(".tmp");
        let (part, mut file) = PartFile::create(temporary.into())?;
        file.write_all(&self.to_bytes())?;
        part.keep_as(path)
    }

    /// The state saved in `path`: `Ok(None)` if there is none, `Err` with the reason if it is
    /// damaged.
    pub(crate) fn load(path: &Path) -> Result<Option<VerifyState>, String> {
        match fs::read(path) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error.to_string()),
            Ok(bytes) => VerifyState::from_bytes(&bytes)
                .map(Some)
                .ok_or_else(|| "damaged (its checksum or layout does not hold)".to_string()),
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_reads_back_and_damage_is_refused() {
        let board = Board::standard();
        let mut first = MaterialState::new(Material::new(2, 6), 0xabc, 3 * UNIT_SLOTS + 5);
        first.mark_done(0);
        first.mark_done(3);
        let second = MaterialState::new(Material::new(6, 2), 0xdef, 70 * UNIT_SLOTS);
        let mut state = VerifyState::new(&board, &Rules::default(), vec![first, second]);
        state.mismatches.push((1, 12345));
        let bytes = state.to_bytes();
        let back = VerifyState::from_bytes(&bytes).unwrap();
        assert_eq!(back, state);
        assert!(back.materials[0].is_done(3) && !back.materials[0].is_done(1));
        assert!(state.same_files(&back));
        for at in [0, 9, 20, bytes.len() - 1] {
            let mut damaged = bytes.clone();
            damaged[at] ^= 1;
            assert_eq!(VerifyState::from_bytes(&damaged), None, "byte {at}");
        }
        assert_eq!(VerifyState::from_bytes(&bytes[..bytes.len() - 9]), None);
        let other = VerifyState::new(
            &board,
            &Rules::default(),
            vec![MaterialState::new(
                Material::new(2, 6),
                0xabd,
                3 * UNIT_SLOTS + 5,
            )],
        );
        assert!(!other.same_files(&state));
    }
}
