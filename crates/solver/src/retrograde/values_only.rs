//! Retrograde analysis that keeps the values alone: 3 bits a position instead of the byte of
//! [`super::solve_system`] (and instead of the 2 bytes of an entry), for the systems whose
//! bytes do not fit in memory (6v3 + 3v6 on 5x9 is 3.7 × 10^10 positions: 37 GB a byte each,
//! 14 GB at 3 bits).
//!
//! Each position has a 2-bit value (the codes of a value file: 0 undecided, which ends as a
//! draw, 1 won, 2 lost, for the side to move) and a *frontier* bit: decided, its value not yet
//! passed to its predecessors.
//!
//! - Positions with a capture are decided from the smaller tables (a draw among them stays 0:
//!   no paika leads to a position with a capture, so nothing ever asks it again), blocked ones
//!   by the rules. Every win and loss decided goes on the frontier.
//! - Then, until the frontier is empty: each frontier position passes its value to every
//!   undecided canonical predecessor (un-moves). A lost child makes it won. A won child makes
//!   it a candidate: its children are generated, and if every one is won, it is lost. Every
//!   position decided goes on the frontier.
//!
//! No distance is kept, so the order of the passes is free: a position is won as soon as one
//! child is known lost and lost as soon as all are known won, whatever the order they became
//! known in, and what is never decided is a draw (the least fixed point of those two rules,
//! which is the game's value). The frontier is swept in index order, over and over, and a
//! position decided behind the sweep waits for the next. Each position is decided once (a
//! claim is one atomic step from 0), and goes on the frontier once.
//!
//! What is given up against the byte builder: distances (a query can say who wins, not in how
//! many plies), and re-derived counts (a candidate's children are generated again each time one
//! of them is found won; the check stops at the first child not won).

use super::CaptureBatch;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use crate::zeroed_memory::ZeroedMemory;
use fanorona_engine::movegen::{children, has_capture, paika_predecessors};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release, SeqCst};

/// What the builder reads the smaller tables with: the values of `positions` (all of smaller
/// materials) into `out` (see [`crate::Tables::probe_values`]).
pub type ValueProbe<'a> = dyn Fn(&[Position], &mut Vec<Value>) + Sync + 'a;

/// The solved values of one material, in index order.
pub struct SolvedValues {
    pub index: MaterialIndex,
    values: ValueBits,
}

impl SolvedValues {
    pub fn value(&self, i: u64) -> Value {
        value_of_code(self.values.code(i))
    }

    /// Every value in index order.
    pub fn values(&self) -> impl ExactSizeIterator<Item = Value> + '_ {
        (0..self.values.len as usize).map(|i| self.value(i as u64))
    }
}

const UNDECIDED: u64 = 0;
const WON: u64 = 1;
const LOST: u64 = 2;

fn value_of_code(code: u64) -> Value {
    match code {
        WON => Value::Win,
        LOST => Value::Loss,
        _ => Value::Draw,
    }
}

/// Words of 64 bits shared between threads, zeroed at the start.
struct AtomicWords {
    memory: ZeroedMemory<u64>,
    /// The words of `memory`, as atomics.
    words: *const AtomicU64,
    len: usize,
}

// SAFETY: the words are only ever touched as atomics, through `words()`.
unsafe impl Send for AtomicWords {}
unsafe impl Sync for AtomicWords {}

impl AtomicWords {
    fn new(len: usize) -> AtomicWords {
        let mut memory = ZeroedMemory::<u64>::new(len);
        let words = memory.as_mut_ptr().cast::<AtomicU64>();
        AtomicWords { memory, words, len }
    }

    fn words(&self) -> &[AtomicU64] {
        debug_assert_eq!(self.memory.len(), self.len);
        // SAFETY: `AtomicU64` has the size and bit validity of `u64`, and on the 64-bit
        // targets this builds for its alignment too; the pointer comes from the exclusive
        // borrow taken in `new`, and `memory` lives (unmoved on the heap or in its map) as
        // long as `self`.
        unsafe { std::slice::from_raw_parts(self.words, self.len) }
    }
}

/// A 2-bit code per position, 32 to a word.
struct ValueBits {
    words: AtomicWords,
    len: u64,
}

impl ValueBits {
    fn new(len: u64) -> ValueBits {
        ValueBits {
            words: AtomicWords::new(len.div_ceil(32) as usize),
            len,
        }
    }

    /// The code of position `i`. Claims and reads are sequentially consistent (free on x86,
    /// where every claim is a locked instruction anyway): of the children of a position that
    /// are won one after another, the check made after the last claim sees them all.
    #[inline]
    fn code(&self, i: u64) -> u64 {
        self.words.words()[(i / 32) as usize].load(SeqCst) >> (2 * (i % 32)) & 3
    }

    /// Decide undecided position `i` as `code`; false if it was decided already.
    #[inline]
    fn claim(&self, i: u64, code: u64) -> bool {
        let shift = 2 * (i % 32);
        let old = self.words.words()[(i / 32) as usize].fetch_or(code << shift, SeqCst);
        debug_assert!(old >> shift & 3 == UNDECIDED || old >> shift & 3 == code);
        old >> shift & 3 == UNDECIDED
    }

    #[inline]
    fn prefetch(&self, i: u64) {
        crate::prefetch::prefetch(&self.words.words()[(i / 32) as usize]);
    }
}

/// A bit per position: decided, its value not yet passed on.
struct Frontier {
    words: AtomicWords,
}

impl Frontier {
    fn new(len: u64) -> Frontier {
        Frontier {
            words: AtomicWords::new(len.div_ceil(64) as usize),
        }
    }

    /// Put position `i` on the frontier (after its value was claimed: whoever takes it off
    /// sees the value).
    #[inline]
    fn add(&self, i: u64) {
        self.words.words()[(i / 64) as usize].fetch_or(1 << (i % 64), Release);
    }

    fn count(&self) -> u64 {
        let words = self.words.words();
        words
            .par_iter()
            .map(|w| w.load(Relaxed).count_ones() as u64)
            .sum()
    }
}

/// One material of the system being solved.
struct Slot {
    index: MaterialIndex,
    values: ValueBits,
    frontier: Frontier,
}

impl Slot {
    fn new(board: &Board, material: Material) -> Slot {
        let index = MaterialIndex::new(board, material);
        let size = index.size();
        Slot {
            index,
            values: ValueBits::new(size),
            frontier: Frontier::new(size),
        }
    }

    /// Decide undecided position `i` as `code` and put it on the frontier; false if it was
    /// decided already.
    fn decide(&self, i: u64, code: u64) -> bool {
        let decided_now = self.values.claim(i, code);
        if decided_now {
            self.frontier.add(i);
        }
        decided_now
    }

    fn position(&self, i: u64) -> Position {
        let (mover, waiting) = self.index.position(i);
        Position {
            mover,
            waiting,
            side: Color::White,
        }
    }
}

/// Solve the system of `material` and its swap (one material if they are equal), values
/// only. `probe` gives the values of positions of smaller materials.
pub fn solve_system_values(
    board: &Board,
    rules: &Rules,
    material: Material,
    probe: &ValueProbe,
    progress: &dyn Progress,
) -> Vec<SolvedValues> {
    let mut materials = vec![material];
    if material.swapped() != material {
        materials.push(material.swapped());
    }
    let slots: Vec<Slot> = materials.iter().map(|&m| Slot::new(board, m)).collect();
    let name: Vec<String> = materials
        .iter()
        .map(|m| format!("{}v{}", m.mover, m.waiting))
        .collect();
    let name = name.join("+");
    let positions: u64 = slots.iter().map(|s| s.index.size()).sum();
    progress.phase(
        &format!("{name}: captures and blocked positions"),
        positions,
    );
    for slot in &slots {
        decide_at_once(board, rules, slot, probe, progress);
    }
    for sweep in 1.. {
        let waiting: u64 = slots.iter().map(|slot| slot.frontier.count()).sum();
        if waiting == 0 {
            break;
        }
        progress.phase(&format!("{name}: paika, sweep {sweep}"), waiting);
        for s in 0..slots.len() {
            sweep_frontier(board, &slots, s, progress);
        }
    }
    slots
        .into_iter()
        .map(|slot| {
            fill_redundant(&slot);
            SolvedValues {
                index: slot.index,
                values: slot.values,
            }
        })
        .collect()
}

/// Decide the positions with a capture (from the smaller tables) and the blocked ones (by the
/// rules), one mover class per task.
fn decide_at_once(
    board: &Board,
    rules: &Rules,
    slot: &Slot,
    probe: &ValueProbe,
    progress: &dyn Progress,
) {
    let block = slot.index.waiting_sets();
    (0..slot.index.mover_classes())
        .into_par_iter()
        .for_each(|class| {
            let mover = slot.index.mover_set(class);
            let symmetric = slot.index.is_symmetric_class(class);
            let mut captures = CaptureBatch::new(probe);
            let mut settle = |i, children: &[Value]| {
                if let Some(code) = code_of_best(children) {
                    slot.decide(i, code);
                }
            };
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
                if has_capture(board, mover, waiting) {
                    if captures.add(board, i, &position) {
                        captures.settle(&mut settle);
                    }
                } else if rules.outcome(board, &position) == Some(Value::Loss) {
                    slot.decide(i, LOST);
                }
            }
            captures.settle(&mut settle);
            progress.advance(block);
        });
}

/// The code of a position whose turns lead to positions of these values (for the side to move
/// there): won if one is lost, lost if all are won, `None` for a draw.
fn code_of_best(children: &[Value]) -> Option<u64> {
    if children.contains(&Value::Loss) {
        Some(WON)
    } else if children.iter().all(|&v| v == Value::Win) {
        Some(LOST)
    } else {
        None
    }
}

/// Words of the frontier one task sweeps.
const FRONTIER_WORDS_PER_TASK: usize = 1 << 10;

/// Pass on the value of every position on slot `s`'s frontier, taking it off (and those put
/// on it ahead of the sweep while it goes).
fn sweep_frontier(board: &Board, slots: &[Slot], s: usize, progress: &dyn Progress) {
    let words = slots[s].frontier.words.words();
    words
        .par_chunks(FRONTIER_WORDS_PER_TASK)
        .enumerate()
        .for_each(|(chunk, part)| {
            let mut passer = Passer::new(board, slots);
            let mut passed = 0;
            for (k, word) in part.iter().enumerate() {
                let mut bits = word.swap(0, Acquire);
                passed += bits.count_ones() as u64;
                let first = ((chunk * FRONTIER_WORDS_PER_TASK + k) * 64) as u64;
                while bits != 0 {
                    let i = first + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    passer.pass_on(s, i);
                }
            }
            progress.advance(passed);
        });
}

/// One task's working space for passing values on.
struct Passer<'a> {
    board: &'a Board,
    slots: &'a [Slot],
    predecessors: Vec<Position>,
    forms: Vec<(Bitboard, Bitboard)>,
    children: Vec<Position>,
    indexes: Vec<u64>,
}

impl<'a> Passer<'a> {
    fn new(board: &'a Board, slots: &'a [Slot]) -> Self {
        Passer {
            board,
            slots,
            predecessors: Vec::new(),
            forms: Vec::new(),
            children: Vec::new(),
            indexes: Vec::new(),
        }
    }

    /// Pass the value of position `i` of slot `s` to each undecided canonical form among its
    /// predecessors.
    fn pass_on(&mut self, s: usize, i: u64) {
        let slot = &self.slots[s];
        let code = slot.values.code(i);
        self.predecessors.clear();
        paika_predecessors(self.board, &slot.position(i), &mut self.predecessors);
        let symmetries = slot.index.symmetries();
        self.forms.clear();
        self.forms.extend(
            self.predecessors
                .iter()
                .map(|before| symmetries.canonical(before.mover, before.waiting)),
        );
        self.forms.sort_unstable();
        self.forms.dedup();
        for k in 0..self.forms.len() {
            let (mover, waiting) = self.forms[k];
            let t = slot_of(self.slots, mover, waiting);
            let (mover_rank, waiting_rank) = self.slots[t].index.ranks_of_canonical(mover, waiting);
            let j = self.slots[t].index.index_of_ranks(mover_rank, waiting_rank);
            let predecessor = &self.slots[t];
            if predecessor.values.code(j) != UNDECIDED {
                continue;
            }
            if code == LOST {
                predecessor.decide(j, WON);
            } else if self.all_children_won(mover, waiting) {
                predecessor.decide(j, LOST);
            }
        }
    }

    /// Whether every paika child of the position (mover, waiting), which has no capture, is
    /// known won (for its side to move).
    fn all_children_won(&mut self, mover: Bitboard, waiting: Bitboard) -> bool {
        let position = Position {
            mover,
            waiting,
            side: Color::White,
        };
        self.children.clear();
        children(self.board, &position, &mut self.children);
        let slot = &self.slots[slot_of(self.slots, waiting, mover)];
        self.indexes.clear();
        self.indexes.extend(
            self.children
                .iter()
                .map(|child| slot.index.index(child.mover, child.waiting)),
        );
        for &j in &self.indexes {
            slot.values.prefetch(j);
        }
        self.indexes.iter().all(|&j| slot.values.code(j) == WON)
    }
}

/// The slot of the system that holds the material of (mover, waiting).
fn slot_of(slots: &[Slot], mover: Bitboard, waiting: Bitboard) -> usize {
    let material = Material::of(mover, waiting);
    slots
        .iter()
        .position(|slot| slot.index.material() == material)
        .expect("paika stay in the system")
}

/// Give every redundant position of `slot` the value of its canonical image.
fn fill_redundant(slot: &Slot) {
    let block = slot.index.waiting_sets();
    (0..slot.index.mover_classes())
        .into_par_iter()
        .filter(|&class| slot.index.is_symmetric_class(class))
        .for_each(|class| {
            let mover = slot.index.mover_set(class);
            for (offset, waiting) in slot.index.waiting_sets_of(mover).enumerate() {
                if slot.index.is_redundant(class, waiting) {
                    let code = slot.values.code(slot.index.index(mover, waiting));
                    if code != UNDECIDED {
                        slot.values.claim(class * block + offset as u64, code);
                    }
                }
            }
        });
}
