//! Retrograde analysis of one closed system of materials, in parallel.
//!
//! A capture lowers the stone count and a paika keeps it and swaps the sides, so the materials
//! (a, b) and (b, a) form a closed system whose only other exits lead to smaller, already solved
//! materials. Positions with a capture are therefore decided at once from the smaller tables;
//! blocked positions are decided by the rules; every other position counts its paika children.
//!
//! Then, for distance d = 0, 1, 2, …, every position decided at distance d undoes its paika
//! (un-moves) to reach its predecessors: a lost child makes an undecided predecessor won at d + 1;
//! a won child lowers the predecessor's count of undecided children, and the last one makes it
//! lost at d + 1. Going by distance gives the winner the quickest win and the loser the slowest
//! loss. What is never decided is a draw.
//!
//! Symmetry: only canonical positions are nodes (see [`crate::index`]). A position's count is
//! the number of distinct canonical forms among its paika children, and a decided position
//! passes its value once to each distinct canonical form among its un-moves; the two relations
//! are the same ("some child of p has canonical form c"), so the counts come out right. Two
//! children of one position can share a canonical form only if a symmetry fixes the waiting set
//! (the mover set of the children), so the plain count of paika is used everywhere else.
//! Redundant slots are skipped and get the entry of their canonical image at the end.
//!
//! Memory: one byte per slot ([`cells`]: a count while undecided, the distance once decided),
//! and 32 bytes per mover class. The positions of level d are found by scanning the slots for
//! distance d, only in the mover classes whose bit set of distances decided has d (most classes
//! have none of a late level's few positions, and a scan of every slot per level was most of
//! the time those levels took).
//! Threads share the work by blocks of
//! one mover class (all its waiting sets); the slots are atomics. Claiming a predecessor as won,
//! or taking its count to zero, is one atomic step, so each position is decided once.

mod cells;

use crate::entry::Entry;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use cells::Cells;
use fanorona_engine::movegen::{children, count_turns, has_capture, paika_predecessors};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The solved entries of one material, in index order.
pub struct SolvedTable {
    pub index: MaterialIndex,
    cells: Cells,
}

impl SolvedTable {
    pub fn entry(&self, i: u64) -> Entry {
        self.cells.entry(i)
    }

    /// Every entry in index order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry> + '_ {
        (0..self.cells.len() as usize).map(|i| self.cells.entry(i as u64))
    }
}

/// The state of one material while its system is solved.
struct Slot {
    index: MaterialIndex,
    cells: Cells,
    /// Per mover class, the distances at which it has decided positions (bit d of word d / 64,
    /// for d below [`TRACKED_DISTANCES`]; deeper levels are always scanned).
    levels: Vec<[AtomicU64; LEVEL_WORDS]>,
}

const LEVEL_WORDS: usize = 4;
/// No point has more lines than this, so a position has at most this many paika per stone.
const MAX_LINES_PER_POINT: usize = 8;
const TRACKED_DISTANCES: u16 = 64 * LEVEL_WORDS as u16;

/// Solve the system of `material` and its swap (one material if they are equal). `probe` gives
/// the entry of any position of a smaller material.
pub fn solve_system(
    board: &Board,
    rules: &Rules,
    material: Material,
    probe: &(dyn Fn(&Position) -> Entry + Sync),
    progress: &dyn Progress,
) -> Vec<SolvedTable> {
    solve_system_with_counts(board, rules, material, probe, progress, &|m| {
        u8::try_from(MAX_LINES_PER_POINT * m.mover)
            .expect("materials of fewer than 32 stones a side")
    })
}

/// [`solve_system`] with slots that hold counts up to `max_count(material)` (the rest of a
/// slot's codes hold distances; deeper ones go to a map beside).
fn solve_system_with_counts(
    board: &Board,
    rules: &Rules,
    material: Material,
    probe: &(dyn Fn(&Position) -> Entry + Sync),
    progress: &dyn Progress,
    max_count: &dyn Fn(Material) -> u8,
) -> Vec<SolvedTable> {
    let mut materials = vec![material];
    if material.swapped() != material {
        materials.push(material.swapped());
    }
    let slots: Vec<Slot> = materials
        .into_iter()
        .map(|m| Slot::new(board, m, max_count(m)))
        .collect();
    let name: Vec<String> = slots
        .iter()
        .map(|s| {
            format!(
                "{}v{}",
                s.index.material().mover,
                s.index.material().waiting
            )
        })
        .collect();
    let name = name.join("+");
    let positions: u64 = slots.iter().map(|s| s.index.size()).sum();

    progress.phase(
        &format!("{name}: captures and blocked positions"),
        positions,
    );
    let mut deepest = 0;
    for slot in &slots {
        deepest = deepest.max(decide_at_once(board, rules, slot, probe, progress));
    }
    progress.phase(&format!("{name}: paika, distance by distance"), positions);
    let mut distance = 0;
    // Each level's positions can only decide positions one ply further, so once a level is
    // empty and no capture position lies deeper, nothing more can be decided.
    loop {
        let found: u64 = (0..slots.len())
            .map(|s| propagate_level(board, &slots, s, distance))
            .sum();
        progress.advance(found);
        if found == 0 && distance >= deepest {
            break;
        }
        distance += 1;
    }
    for slot in &slots {
        fill_redundant(slot);
    }
    slots
        .into_iter()
        .map(|slot| SolvedTable {
            index: slot.index,
            cells: slot.cells,
        })
        .collect()
}

impl Slot {
    fn new(board: &Board, material: Material, max_count: u8) -> Slot {
        let index = MaterialIndex::new(board, material);
        let cells = Cells::new(index.size(), max_count);
        let levels = (0..index.mover_classes())
            .map(|_| std::array::from_fn(|_| AtomicU64::new(0)))
            .collect();
        Slot {
            index,
            cells,
            levels,
        }
    }

    /// Note that slot `i` was decided as `entry` (a win or a loss), for its class's levels.
    fn note_level(&self, i: u64, entry: Entry) {
        let distance = entry.distance().expect("a decided entry");
        if distance < TRACKED_DISTANCES {
            let class = (i / self.index.waiting_sets()) as usize;
            self.levels[class][distance as usize / 64].fetch_or(1 << (distance % 64), Relaxed);
        }
    }

    /// Whether mover class `class` may have positions decided at `distance`.
    fn may_have_level(&self, class: usize, distance: u16) -> bool {
        distance >= TRACKED_DISTANCES
            || self.levels[class][distance as usize / 64].load(Relaxed) & 1 << (distance % 64) != 0
    }
}

/// Decide captures (from smaller tables) and blocked positions, and count the paika children of
/// the rest, one mover class per task. Returns the largest distance decided.
fn decide_at_once(
    board: &Board,
    rules: &Rules,
    slot: &Slot,
    probe: &(dyn Fn(&Position) -> Entry + Sync),
    progress: &dyn Progress,
) -> u16 {
    let block = slot.index.waiting_sets();
    (0..slot.index.mover_classes())
        .into_par_iter()
        .map(|class| {
            let mover = slot.index.mover_set(class);
            let symmetric = slot.index.is_symmetric_class(class);
            let mut next = Vec::new();
            let mut deepest = 0;
            for (offset, waiting) in slot.index.waiting_sets_of(mover).enumerate() {
                if symmetric && slot.index.is_redundant(class, waiting) {
                    continue;
                }
                let i = class * block + offset as u64;
                let position = Position {
                    mover,
                    waiting,
                    side: Color::White,
                };
                let entry = if has_capture(board, mover, waiting) {
                    next.clear();
                    children(board, &position, &mut next);
                    Entry::from_children(next.iter().map(probe))
                } else if let Some(value) = rules.outcome(board, &position) {
                    if value == Value::Loss {
                        Entry::loss(0)
                    } else {
                        // A blocked side to move draws under this rule: nothing to note.
                        continue;
                    }
                } else {
                    let count = canonical_paika_children(board, &slot.index, &position, &mut next);
                    slot.cells.set_count(i, count);
                    continue;
                };
                let Some(distance) = entry.distance() else {
                    continue; // a draw (entries start as draws)
                };
                slot.cells.set_decided(i, entry);
                slot.note_level(i, entry);
                deepest = deepest.max(distance);
            }
            progress.advance(block);
            deepest
        })
        .max()
        .unwrap_or(0)
}

/// The number of distinct canonical forms among the children of `position`, which has paika
/// only. `scratch` is working space.
fn canonical_paika_children(
    board: &Board,
    index: &MaterialIndex,
    position: &Position,
    scratch: &mut Vec<Position>,
) -> usize {
    let symmetries = index.symmetries();
    if symmetries.stabiliser(position.waiting) == 0 {
        // No symmetry fixes the children's mover set, so no two children are images.
        return count_turns(board, position) as usize;
    }
    scratch.clear();
    children(board, position, scratch);
    let mut forms: Vec<_> = scratch
        .iter()
        .map(|child| symmetries.canonical(child.mover, child.waiting))
        .collect();
    forms.sort_unstable();
    forms.dedup();
    forms.len()
}

/// Give every redundant slot of `slot` the entry of its canonical image.
fn fill_redundant(slot: &Slot) {
    let block = slot.index.waiting_sets();
    (0..slot.index.mover_classes())
        .into_par_iter()
        .filter(|&class| slot.index.is_symmetric_class(class))
        .for_each(|class| {
            let mover = slot.index.mover_set(class);
            for (offset, waiting) in slot.index.waiting_sets_of(mover).enumerate() {
                if slot.index.is_redundant(class, waiting) {
                    let canonical = slot.index.index(mover, waiting);
                    slot.cells.copy(canonical, class * block + offset as u64);
                }
            }
        });
}

/// Pass the values of slot `s`'s positions decided at `distance` to their predecessors, once to
/// each distinct canonical form. Returns how many such positions there were.
fn propagate_level(board: &Board, slots: &[Slot], s: usize, distance: u16) -> u64 {
    let slot = &slots[s];
    let entry = if distance % 2 == 1 {
        Entry::win(distance)
    } else {
        Entry::loss(distance)
    };
    let Some(code) = slot.cells.level_code(distance) else {
        let deep = slot.cells.deep_at(distance);
        deep.par_iter()
            .for_each_init(Scratch::default, |scratch, &i| {
                pass_to_predecessors(board, slots, s, i, entry, scratch)
            });
        return deep.len() as u64;
    };
    let block = slot.index.waiting_sets();
    (0..slot.index.mover_classes())
        .into_par_iter()
        .map(|class| {
            if !slot.may_have_level(class as usize, distance) {
                return 0;
            }
            let codes =
                &slot.cells.codes()[(class * block) as usize..((class + 1) * block) as usize];
            let mut scratch = Scratch::default();
            let mut found = 0;
            for (offset, c) in codes.iter().enumerate() {
                if c.load(Relaxed) == code {
                    found += 1;
                    let i = class * block + offset as u64;
                    pass_to_predecessors(board, slots, s, i, entry, &mut scratch);
                }
            }
            found
        })
        .sum()
}

/// Working space of [`pass_to_predecessors`].
#[derive(Default)]
struct Scratch {
    predecessors: Vec<Position>,
    forms: Vec<(Bitboard, Bitboard)>,
}

/// Pass `entry`, the value of slot `i` of slot `s`, to each distinct canonical form among its
/// predecessors.
fn pass_to_predecessors(
    board: &Board,
    slots: &[Slot],
    s: usize,
    i: u64,
    entry: Entry,
    scratch: &mut Scratch,
) {
    let index = &slots[s].index;
    let block = index.waiting_sets();
    let mover = index.mover_set(i / block);
    let position = Position {
        mover,
        waiting: index.waiting_set(mover, i % block),
        side: Color::White,
    };
    scratch.predecessors.clear();
    paika_predecessors(board, &position, &mut scratch.predecessors);
    let symmetries = index.symmetries();
    scratch.forms.clear();
    scratch.forms.extend(
        scratch
            .predecessors
            .iter()
            .map(|before| symmetries.canonical(before.mover, before.waiting)),
    );
    scratch.forms.sort_unstable();
    scratch.forms.dedup();
    for &(mover, waiting) in &scratch.forms {
        update_predecessor(slots, mover, waiting, entry);
    }
}

/// A child of the canonical position (mover, waiting) turned out to be `child`: decide the
/// position if that settles it.
fn update_predecessor(slots: &[Slot], mover: Bitboard, waiting: Bitboard, child: Entry) {
    let material = Material::of(mover, waiting);
    let slot = slots
        .iter()
        .find(|slot| slot.index.material() == material)
        .expect("paika stay in the system");
    let i = slot.index.index(mover, waiting);
    let entry = child.one_ply_earlier();
    let decided_now = match child.value() {
        // A lost child: the predecessor is won, if nobody decided it yet.
        Value::Loss => slot.cells.claim_win(i, entry),
        // A won child: one fewer undecided child; the last one decides it lost.
        _ => slot.cells.count_down(i, entry),
    };
    if decided_now {
        slot.note_level(i, entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;
    use crate::tables::Tables;

    /// Slots whose codes hold only distances up to 3 keep every deeper one in the map beside:
    /// the tables come out the same.
    #[test]
    fn deep_distances_kept_beside_the_slots_give_the_same_tables() {
        let board = Board::new(3, 5).unwrap();
        let rules = Rules::default();
        let smaller = Tables::build(&board, rules, 3);
        let probe = |position: &Position| smaller.probe(position).expect("a smaller material");
        let material = Material::new(1, 3);
        let plain = solve_system(&board, &rules, material, &probe, &NoProgress);
        let deep =
            solve_system_with_counts(&board, &rules, material, &probe, &NoProgress, &|_| 250);
        let mut deepest = 0;
        for (plain, deep) in plain.iter().zip(&deep) {
            assert_eq!(plain.index.material(), deep.index.material());
            assert!(plain.entries().eq(deep.entries()));
            deepest = plain
                .entries()
                .filter_map(|e| e.distance())
                .fold(deepest, u16::max);
        }
        assert!(
            deepest > 3,
            "the test needs distances beyond the codes: {deepest}"
        );
    }
}
