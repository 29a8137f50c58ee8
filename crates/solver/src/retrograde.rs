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
//! Memory: an entry (2 bytes) and a count (1 byte) per slot, and 32 bytes per mover class. The
//! positions of level d are found by scanning the entries for distance d, only in the mover
//! classes whose bit set of distances decided has d (most classes have none of a late level's
//! few positions, and a scan of every entry per level was most of the time those levels took).
//! Threads share the work by blocks of
//! one mover class (all its waiting sets); entries and counts are atomics. Claiming a predecessor
//! as won, or taking its count to zero, is one atomic step, so each position is decided once. A
//! position with a lost child can never have its count reach zero (lost children never count
//! down), so "won" and "lost" never compete for the same position.

use crate::entry::Entry;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use fanorona_engine::movegen::{children, count_turns, has_capture, paika_predecessors};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU16, AtomicU64, AtomicU8, Ordering::Relaxed};

/// The solved entries of one material, in index order.
pub struct SolvedTable {
    pub index: MaterialIndex,
    entries: Vec<AtomicU16>,
}

impl SolvedTable {
    pub fn entry(&self, i: u64) -> Entry {
        Entry(self.entries[i as usize].load(Relaxed))
    }

    /// Every entry in index order.
    pub fn entries(&self) -> impl ExactSizeIterator<Item = Entry> + '_ {
        self.entries.iter().map(|e| Entry(e.load(Relaxed)))
    }
}

/// The state of one material while its system is solved.
struct Slot {
    index: MaterialIndex,
    entries: Vec<AtomicU16>,
    /// Undecided positions: how many paika children are not yet known to be won (at least 1).
    /// Decided positions: 0.
    undecided_children: Vec<AtomicU8>,
    /// Per mover class, the distances at which it has decided positions (bit d of word d / 64,
    /// for d below [`TRACKED_DISTANCES`]; deeper levels are always scanned).
    levels: Vec<[AtomicU64; LEVEL_WORDS]>,
}

const LEVEL_WORDS: usize = 4;
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
    let mut materials = vec![material];
    if material.swapped() != material {
        materials.push(material.swapped());
    }
    let slots: Vec<Slot> = materials.into_iter().map(|m| Slot::new(board, m)).collect();
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
            entries: slot.entries,
        })
        .collect()
}

impl Slot {
    fn new(board: &Board, material: Material) -> Slot {
        let index = MaterialIndex::new(board, material);
        let size = index.size() as usize;
        let entries = (0..size).map(|_| AtomicU16::new(0)).collect();
        let undecided_children = (0..size).map(|_| AtomicU8::new(0)).collect();
        let levels = (0..index.mover_classes())
            .map(|_| std::array::from_fn(|_| AtomicU64::new(0)))
            .collect();
        Slot {
            index,
            entries,
            undecided_children,
            levels,
        }
    }

    /// Decide slot `i` with `entry` (a win or a loss), noting its distance for its class.
    fn decide(&self, i: usize, entry: Entry) {
        self.entries[i].store(entry.0, Relaxed);
        let distance = entry.distance().expect("a decided entry");
        if distance < TRACKED_DISTANCES {
            let class = i / self.index.waiting_sets() as usize;
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
                let i = (class * block) as usize + offset;
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
                    let count = u8::try_from(count).expect("fewer than 256 paika in any position");
                    slot.undecided_children[i].store(count, Relaxed);
                    continue;
                };
                let Some(distance) = entry.distance() else {
                    continue; // a draw (entries start as draws)
                };
                slot.decide(i, entry);
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
                    let canonical = slot.index.index(mover, waiting) as usize;
                    let entry = slot.entries[canonical].load(Relaxed);
                    slot.entries[(class * block) as usize + offset].store(entry, Relaxed);
                }
            }
        });
}

/// Pass the values of slot `s`'s positions decided at `distance` to their predecessors, once to
/// each distinct canonical form. Returns how many such positions there were.
fn propagate_level(board: &Board, slots: &[Slot], s: usize, distance: u16) -> u64 {
    let slot = &slots[s];
    let block = slot.index.waiting_sets() as usize;
    let at_distance = |e: u16| e != 0 && (e >> 1) == distance + 1;
    (0..slot.index.mover_classes() as usize)
        .into_par_iter()
        .map(|class| {
            if !slot.may_have_level(class, distance) {
                return 0;
            }
            let entries = &slot.entries[class * block..(class + 1) * block];
            let mover = slot.index.mover_set(class as u64);
            let symmetries = slot.index.symmetries();
            let mut predecessors = Vec::new();
            let mut forms = Vec::new();
            let mut found = 0;
            for (offset, e) in entries.iter().enumerate() {
                let entry = Entry(e.load(Relaxed));
                if !at_distance(entry.0) {
                    continue;
                }
                found += 1;
                let position = Position {
                    mover,
                    waiting: slot.index.waiting_set(mover, offset as u64),
                    side: Color::White,
                };
                predecessors.clear();
                paika_predecessors(board, &position, &mut predecessors);
                forms.clear();
                forms.extend(
                    predecessors
                        .iter()
                        .map(|before| symmetries.canonical(before.mover, before.waiting)),
                );
                forms.sort_unstable();
                forms.dedup();
                for &(mover, waiting) in &forms {
                    update_predecessor(slots, mover, waiting, entry);
                }
            }
            found
        })
        .sum()
}

/// A child of the canonical position (mover, waiting) turned out to be `child`: decide the
/// position if that settles it.
fn update_predecessor(slots: &[Slot], mover: Bitboard, waiting: Bitboard, child: Entry) {
    let material = Material::of(mover, waiting);
    let slot = slots
        .iter()
        .find(|slot| slot.index.material() == material)
        .expect("paika stay in the system");
    let i = slot.index.index(mover, waiting) as usize;
    let count = &slot.undecided_children[i];
    let decided_now = match child.value() {
        // A lost child: the predecessor is won, if nobody decided it yet.
        Value::Loss => count.swap(0, Relaxed) > 0,
        // A won child: one fewer undecided child; the last one decides it lost.
        _ => count.fetch_update(Relaxed, Relaxed, |c| c.checked_sub(1)) == Ok(1),
    };
    if decided_now {
        slot.decide(i, child.one_ply_earlier());
    }
}
