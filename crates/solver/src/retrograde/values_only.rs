//! Retrograde analysis that keeps the values alone: 3 bits a position instead of the byte of
//! [`super::solve_system`] (and instead of the 2 bytes of an entry), for the systems whose
//! bytes do not fit in memory (3v6 + 6v3 on 5x9 is 3.77 × 10^10 slots: 38 GB at a byte each,
//! 14 GB at 3 bits).
//!
//! Each position has a 2-bit code (0 undecided, which ends as a draw, 1 won, 2 lost, for the
//! side to move, as in a value file; and 3, a *candidate*: undecided, with a won child) and a
//! *frontier* bit: decided and its value not yet passed to its predecessors, or a candidate
//! not yet checked.
//!
//! - Positions with a capture are decided from the smaller tables (a draw among them stays 0:
//!   no paika leads to a position with a capture, so nothing ever asks it again), blocked ones
//!   by the rules. Every win and loss decided goes on the frontier.
//! - Then, until the frontier is empty: each frontier position passes its value to every
//!   undecided canonical predecessor (un-moves). A lost child makes it won (and puts it on the
//!   frontier). A won child makes it a candidate, put on the frontier; when the sweep reaches
//!   it, it goes back to undecided and its children are generated; if every one is won, it is
//!   lost and passes that on at once. A candidate made by several won children in one sweep is
//!   checked once, not once per child: on 2v4 + 4v2 of 5x9 that took 29% off the build's CPU
//!   time.
//!
//! No distance is kept, so the order of the passes is free: a position is won as soon as one
//! child is known lost and lost as soon as all are known won, whatever the order they became
//! known in, and what is never decided is a draw (the least fixed point of those two rules,
//! which is the game's value). The frontier is swept in index order, over and over, and a
//! position decided behind the sweep waits for the next. Each position is decided once (a
//! claim is one atomic step from 0 or 3). A frontier bit may stand for a block of positions
//! instead (`frontier_block`), to save memory: a sweep then passes on every decided position of
//! the block, some of them again, and checks the block's candidates (their code tells them);
//! such a frontier has a second set of bits, for the blocks with candidates (see [`Frontier`]).
//!
//! What is given up against the byte builder: distances (a query can say who wins, not in how
//! many plies), and counts of undecided children (a candidate's children are generated and
//! ranked again each time one of them is found won, and read until the first not won).

mod checkpoint;

use super::{captures_resumed, captures_step, predecessor_forms, Checkpoints, Saver};
use crate::file::TableError;
use crate::index::{materials_name, system_materials, Material, MaterialIndex, SlotWalk};
use crate::progress::Progress;
use crate::zeroed_memory::ZeroedMemory;
use checkpoint::{Stage, Sweeps};
use fanorona_engine::movegen::{children, has_capture, most_capturing_first, paika_children};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::ops::Range;
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
/// Undecided, with a won child: to be checked when the sweep reaches it (it is on the
/// frontier). Never left at the end, and read as a draw if it were.
const CANDIDATE: u64 = 3;

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

    /// Decide undecided position `i` (a candidate or not) as `code`; false if it was decided
    /// already.
    #[inline]
    fn claim(&self, i: u64, code: u64) -> bool {
        self.change(i, |old| {
            (old == UNDECIDED || old == CANDIDATE).then_some(code)
        })
    }

    /// Make undecided position `i` a candidate; false if it is one already, or decided.
    #[inline]
    fn mark_candidate(&self, i: u64) -> bool {
        self.change(i, |old| (old == UNDECIDED).then_some(CANDIDATE))
    }

    /// Take candidate `i` back to undecided, before it is checked; false if it is no longer
    /// a candidate (decided meanwhile, or taken by another).
    #[inline]
    fn take_candidate(&self, i: u64) -> bool {
        self.change(i, |old| (old == CANDIDATE).then_some(UNDECIDED))
    }

    /// Change the code of position `i` to `new(old)` in one atomic step, unless that is
    /// `None`; whether it changed.
    #[inline]
    fn change(&self, i: u64, new: impl Fn(u64) -> Option<u64>) -> bool {
        let shift = 2 * (i % 32);
        self.words.words()[(i / 32) as usize]
            .fetch_update(SeqCst, SeqCst, |word| {
                let code = new(word >> shift & 3)?;
                Some(word & !(3 << shift) | code << shift)
            })
            .is_ok()
    }

    #[inline]
    fn prefetch(&self, i: u64) {
        crate::prefetch::prefetch(&self.words.words()[(i / 32) as usize]);
    }
}

/// The work left, by blocks of `1 << shift` positions: a bit of `to_pass` says that some
/// position of the block was decided and its value not yet passed on, a bit of `to_check` that
/// some position of the block was made a candidate and not yet checked.
///
/// With blocks of one position the frontier is exact, and one set of bits serves for both (a
/// position's code tells which). Larger blocks take less memory, and a sweep passes on every
/// decided position of a block again (a value passed twice decides nothing new, but may make a
/// candidate again of a position whose check failed). That is why their candidates have bits
/// of their own: were they in `to_pass`, two blocks could put each other back on the frontier
/// for ever, each passing on again the won positions that make candidates in the other.
struct Frontier {
    to_pass: AtomicWords,
    /// `None` when exact: then `to_pass` holds the candidates too.
    to_check: Option<AtomicWords>,
    shift: u32,
}

impl Frontier {
    fn new(len: u64, shift: u32) -> Frontier {
        let words = len.div_ceil(64 << shift) as usize;
        Frontier {
            to_pass: AtomicWords::new(words),
            to_check: (shift > 0).then(|| AtomicWords::new(words)),
            shift,
        }
    }

    /// How many words each set of bits has.
    fn words(&self) -> usize {
        self.to_pass.len
    }

    /// Put decided position `i` on the frontier (after its value was claimed: whoever takes
    /// it off sees the value).
    #[inline]
    fn add_decided(&self, i: u64) {
        Self::add(&self.to_pass, i >> self.shift);
    }

    /// Put candidate `i` on the frontier (after it was marked).
    #[inline]
    fn add_candidate(&self, i: u64) {
        Self::add(
            self.to_check.as_ref().unwrap_or(&self.to_pass),
            i >> self.shift,
        );
    }

    #[inline]
    fn add(bits: &AtomicWords, block: u64) {
        bits.words()[(block / 64) as usize].fetch_or(1 << (block % 64), Release);
    }

    /// Take off word `w` of both sets: its blocks with decided positions to pass on, and its
    /// blocks with candidates to check; `None` if it has neither.
    #[inline]
    fn take(&self, w: usize) -> Option<(u64, u64)> {
        let take = |bits: &AtomicWords| {
            let word = &bits.words()[w];
            // Most words are empty in the later sweeps: read before taking off.
            if word.load(Relaxed) == 0 {
                0
            } else {
                word.swap(0, Acquire)
            }
        };
        let to_pass = take(&self.to_pass);
        let to_check = self.to_check.as_ref().map_or(to_pass, take);
        (to_pass | to_check != 0).then_some((to_pass, to_check))
    }

    /// How many positions the frontier's blocks hold.
    fn count(&self) -> u64 {
        let blocks: u64 = (0..self.words())
            .into_par_iter()
            .map(|w| {
                let bits = |set: &AtomicWords| set.words()[w].load(Relaxed);
                let to_check = self.to_check.as_ref().map_or(0, bits);
                (bits(&self.to_pass) | to_check).count_ones() as u64
            })
            .sum();
        blocks << self.shift
    }
}

/// One material of the system being solved.
struct Slot {
    index: MaterialIndex,
    values: ValueBits,
    frontier: Frontier,
}

impl AsRef<MaterialIndex> for Slot {
    fn as_ref(&self) -> &MaterialIndex {
        &self.index
    }
}

impl Slot {
    fn new(board: &Board, material: Material, frontier_shift: u32) -> Slot {
        let index = MaterialIndex::new(board, material);
        let size = index.size();
        Slot {
            index,
            values: ValueBits::new(size),
            frontier: Frontier::new(size, frontier_shift),
        }
    }

    /// Decide undecided position `i` as `code` and put it on the frontier; false if it was
    /// decided already.
    fn decide(&self, i: u64, code: u64) -> bool {
        let decided_now = self.values.claim(i, code);
        if decided_now {
            self.frontier.add_decided(i);
        }
        decided_now
    }
}

/// The bytes that solving a system of `slots` slots takes, with a frontier bit per
/// `frontier_block` positions: 2 bits a slot for the values, and one set of frontier bits (two
/// with blocks of more than one position).
pub fn solving_bytes(slots: u64, frontier_block: u64) -> u64 {
    let values = slots.div_ceil(32) * 8;
    let frontier = slots.div_ceil(64 * frontier_block) * 8;
    let sets = if frontier_block > 1 { 2 } else { 1 };
    values + sets * frontier
}

/// Solve the system of `material` and its swap (one material if they are equal), values
/// only, with a frontier bit per `frontier_block` positions (a power of two up to 64; see
/// [`MAX_FRONTIER_BLOCK`]). `probe` gives the values of positions of smaller materials. With
/// `checkpoints`, the state is saved from time to time, a saved state is taken up, and a stop
/// request ends the build with [`TableError::Stopped`].
pub fn solve_system_values(
    board: &Board,
    rules: &Rules,
    material: Material,
    frontier_block: u64,
    probe: &ValueProbe,
    progress: &dyn Progress,
    checkpoints: Option<&Checkpoints>,
) -> Result<Vec<SolvedValues>, TableError> {
    assert!(
        frontier_block.is_power_of_two() && frontier_block <= MAX_FRONTIER_BLOCK,
        "a frontier block of {frontier_block} positions"
    );
    let materials = system_materials(material).collect();
    let system = System {
        board,
        rules,
        materials,
        frontier_shift: frontier_block.trailing_zeros(),
    };
    let (slots, stage) = system.resume(checkpoints, progress);
    let mut saver = Saver::new(checkpoints, progress);
    system.decide_captures(&slots, stage, &mut saver, probe, progress)?;
    system.sweep(&slots, &mut saver, progress)?;
    Ok(slots
        .into_iter()
        .map(|slot| {
            fill_redundant(&slot);
            SolvedValues {
                index: slot.index,
                values: slot.values,
            }
        })
        .collect())
}

/// The system being solved.
struct System<'a> {
    board: &'a Board,
    rules: &'a Rules,
    materials: Vec<Material>,
    /// A frontier bit stands for `1 << frontier_shift` positions.
    frontier_shift: u32,
}

/// The largest block of positions a frontier bit may stand for. One position a bit takes 3
/// bits a slot in all; blocks of `b` take 2 + 2/`b` (two sets of bits): 2.25 for 8 (5v4 + 4v5
/// on 5x9, 5.6 × 10^10 slots: 15.8 GB instead of 21), at the price of passing on again the
/// decided positions of a block whenever another of them is decided.
pub const MAX_FRONTIER_BLOCK: u64 = 64;

/// Mover classes per step of the first phase, and parts of a slot's sweep, when saving: the
/// most work a stop can lose.
const STEPS_PER_SLOT: u64 = 64;

impl System<'_> {
    fn new_slots(&self) -> Vec<Slot> {
        self.materials
            .iter()
            .map(|&m| Slot::new(self.board, m, self.frontier_shift))
            .collect()
    }

    /// `3v6+6v3`, for the progress lines.
    fn name(&self) -> String {
        materials_name(self.materials.iter().copied())
    }

    /// New slots, or those of the saved state if there is a usable one.
    fn resume(
        &self,
        checkpoints: Option<&Checkpoints>,
        progress: &dyn Progress,
    ) -> (Vec<Slot>, Stage) {
        let slots = self.new_slots();
        let start = Stage::Captures {
            slot: 0,
            classes_done: 0,
        };
        let Some(checkpoints) = checkpoints else {
            return (slots, start);
        };
        let path = &checkpoints.path;
        match checkpoint::load(path, self.board, self.rules, &slots) {
            Ok(None) => (slots, start),
            Ok(Some(stage)) => {
                progress.note(&format!("going on from {} ({stage})", path.display()));
                (slots, stage)
            }
            Err(why) => {
                progress.note(&format!(
                    "ignoring {}: {why}; starting the system afresh",
                    path.display()
                ));
                drop(slots);
                (self.new_slots(), start)
            }
        }
    }

    /// The first phase: captures decided from the smaller tables, blocked positions by the
    /// rules; by blocks of mover classes when saving.
    fn decide_captures(
        &self,
        slots: &[Slot],
        stage: Stage,
        saver: &mut Saver,
        probe: &ValueProbe,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let positions: u64 = slots.iter().map(|s| s.index.size()).sum();
        // The bar counts the positions done before a stop as done, on top of its total.
        let resumed = captures_resumed(slots, |s, classes| stage.classes_done(s, classes));
        progress.phase(
            &format!("{}: captures and blocked positions", self.name()),
            positions - resumed,
        );
        let steps = if saver.checkpoints.is_some() {
            STEPS_PER_SLOT
        } else {
            1
        };
        for (s, slot) in slots.iter().enumerate() {
            let classes = slot.index.mover_classes();
            let first = stage.classes_done(s, classes);
            progress.resumed(first * slot.index.waiting_sets());
            let step = captures_step(classes, steps, rayon::current_num_threads() as u64);
            for start in (first..classes).step_by(step as usize) {
                let end = (start + step).min(classes);
                decide_at_once(self.board, self.rules, slot, start..end, probe, progress);
                let stage = Stage::Captures {
                    slot: s,
                    classes_done: end,
                };
                saver.step(&stage, |path| {
                    checkpoint::save(path, self.board, self.rules, slots, stage)
                })?;
            }
        }
        Ok(())
    }

    /// The second phase: the frontiers swept until they are empty; each slot's sweep in parts
    /// when saving.
    fn sweep(
        &self,
        slots: &[Slot],
        saver: &mut Saver,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let parts = if saver.checkpoints.is_some() {
            STEPS_PER_SLOT as usize
        } else {
            1
        };
        for sweep in 1.. {
            let waiting: u64 = slots.iter().map(|slot| slot.frontier.count()).sum();
            if waiting == 0 {
                return Ok(());
            }
            progress.phase(&format!("{}: paika, sweep {sweep}", self.name()), waiting);
            for s in 0..slots.len() {
                let words = slots[s].frontier.words();
                let step = words.div_ceil(parts).max(1);
                for start in (0..words).step_by(step) {
                    let end = (start + step).min(words);
                    sweep_frontier(self.board, slots, s, start..end, progress);
                    let stage = Stage::Later(Sweeps);
                    saver.step(&stage, |path| {
                        checkpoint::save(path, self.board, self.rules, slots, stage)
                    })?;
                }
            }
        }
        unreachable!("the sweeps end when the frontiers are empty")
    }
}

/// Decide the positions with a capture (from the smaller tables) and the blocked ones (by the
/// rules), one mover class per task.
fn decide_at_once(
    board: &Board,
    rules: &Rules,
    slot: &Slot,
    classes: Range<u64>,
    probe: &ValueProbe,
    progress: &dyn Progress,
) {
    let block = slot.index.waiting_sets();
    classes.into_par_iter().for_each(|class| {
        let mut captures = Captures::new(probe);
        for (i, mover, waiting) in slot.index.canonical_slots(class) {
            let position = Position {
                mover,
                waiting,
                side: Color::White,
            };
            if has_capture(board, mover, waiting) {
                if captures.add(board, i, &position) {
                    captures.settle(slot);
                }
            } else if rules.outcome(board, &position) == Some(Value::Loss) {
                slot.decide(i, LOST);
            }
        }
        captures.settle(slot);
        progress.advance(block);
    });
}

/// Positions with a capture, decided in batches from the values of their children (all of
/// smaller materials). The first [`FIRST_CAPTURE_LOOK`] children of every position are probed
/// first, and the others only of the positions those leave open: one lost child decides a
/// win, and most positions with a capture are won by one of their first children, so most of
/// the probes (their canonical forms and their random reads) are saved. The child looked at
/// first is the one that captures the most (see [`most_capturing_first`]).
struct Captures<'a> {
    probe: &'a ValueProbe<'a>,
    /// The children of the batch's positions, one after another ...
    children: Vec<Position>,
    /// ... and for each position, its slot and where its children end.
    ends: Vec<(u64, usize)>,
    /// The children probed in one look, and their values.
    looks: Vec<Position>,
    probed: Vec<Value>,
    /// The positions the first look left open: slot, the range of their other children, and
    /// whether their first ones were all won.
    open: Vec<(u64, Range<usize>, bool)>,
}

/// How many children of a position with a capture are probed before any of the others.
const FIRST_CAPTURE_LOOK: usize = 1;

impl<'a> Captures<'a> {
    fn new(probe: &'a ValueProbe<'a>) -> Self {
        Captures {
            probe,
            children: Vec::with_capacity(super::CHILDREN_PER_BATCH + 64),
            ends: Vec::new(),
            looks: Vec::new(),
            probed: Vec::new(),
            open: Vec::new(),
        }
    }

    /// Slot `i` holds `position`, which has a capture: gather its children. True when the
    /// batch is full and should be settled.
    fn add(&mut self, board: &Board, i: u64, position: &Position) -> bool {
        // `children` appends.
        let start = self.children.len();
        children(board, position, &mut self.children);
        most_capturing_first(&mut self.children[start..]);
        self.ends.push((i, self.children.len()));
        self.children.len() >= super::CHILDREN_PER_BATCH
    }

    /// Decide the batch's positions that are won or lost in `slot`; the batch is then empty.
    fn settle(&mut self, slot: &Slot) {
        self.looks.clear();
        let mut start = 0;
        for &(_, end) in &self.ends {
            let first = &self.children[start..end.min(start + FIRST_CAPTURE_LOOK)];
            self.looks.extend_from_slice(first);
            start = end;
        }
        (self.probe)(&self.looks, &mut self.probed);
        self.open.clear();
        let (mut start, mut read) = (0, 0);
        for &(i, end) in &self.ends {
            let first = &self.probed[read..read + (end - start).min(FIRST_CAPTURE_LOOK)];
            read += first.len();
            let others = start + first.len()..end;
            if first.contains(&Value::Loss) {
                slot.decide(i, WON);
            } else if others.is_empty() {
                if let Some(code) = code_of_best(first) {
                    slot.decide(i, code);
                }
            } else {
                let all_won = first.iter().all(|&v| v == Value::Win);
                self.open.push((i, others, all_won));
            }
            start = end;
        }
        self.looks.clear();
        for (_, others, _) in &self.open {
            self.looks.extend_from_slice(&self.children[others.clone()]);
        }
        (self.probe)(&self.looks, &mut self.probed);
        let mut read = 0;
        for (i, others, first_won) in &self.open {
            let values = &self.probed[read..read + others.len()];
            read += others.len();
            match code_of_best(values) {
                Some(WON) => slot.decide(*i, WON),
                Some(LOST) if *first_won => slot.decide(*i, LOST),
                _ => false,
            };
        }
        self.children.clear();
        self.ends.clear();
    }
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

/// Pass on the value of every decided position, and check every candidate, in the words
/// `words` of slot `s`'s frontier, taking them off (and those put there ahead of the sweep
/// while it goes).
fn sweep_frontier(
    board: &Board,
    slots: &[Slot],
    s: usize,
    words: Range<usize>,
    progress: &dyn Progress,
) {
    let slot = &slots[s];
    let shift = slot.frontier.shift;
    let tasks = words.len().div_ceil(FRONTIER_WORDS_PER_TASK);
    (0..tasks).into_par_iter().for_each(|task| {
        let mut passer = Passer::new(board, slots);
        let first = words.start + task * FRONTIER_WORDS_PER_TASK;
        let mut looked_at = 0;
        for w in first..(first + FRONTIER_WORDS_PER_TASK).min(words.end) {
            let Some((to_pass, to_check)) = slot.frontier.take(w) else {
                continue;
            };
            let mut blocks = to_pass | to_check;
            looked_at += (blocks.count_ones() as u64) << shift;
            while blocks != 0 {
                let bit = blocks & blocks.wrapping_neg();
                blocks &= blocks - 1;
                let (pass, check) = (to_pass & bit != 0, to_check & bit != 0);
                let block = w as u64 * 64 + bit.trailing_zeros() as u64;
                for i in block << shift..((block + 1) << shift).min(slot.values.len) {
                    match slot.values.code(i) {
                        WON | LOST if pass => passer.pass_on(s, i),
                        // Taken back to undecided first: a child won after this is
                        // passed on to an undecided position, which makes it a
                        // candidate again, and one won before is seen by the check.
                        CANDIDATE if check && slot.values.take_candidate(i) => passer.check(s, i),
                        _ => {}
                    }
                }
                passer.pass_on_lost();
            }
        }
        passer.finish();
        progress.advance(looked_at);
    });
}

/// One task's working space for passing values on, in batches: each step (ranking, finding
/// the slot, reading it) is done for a whole batch before the next, so that the random reads of
/// the classes and values overlap instead of each waiting for the one before.
struct Passer<'a> {
    board: &'a Board,
    slots: &'a [Slot],
    /// For each slot, where the positions passed on or checked are found (mostly in index
    /// order, so mostly a few successor steps from the one before).
    walks: Vec<SlotWalk<'a>>,
    predecessors: Vec<Position>,
    forms: Vec<(Bitboard, Bitboard)>,
    /// Predecessors waiting to be passed a child's value.
    waiting: Vec<Waiting>,
    /// Their positions in their slots.
    indexes: Vec<u64>,
    /// Candidates taken off the frontier, to be checked: (slot, index, canonical form).
    candidates: Vec<(usize, u64, (Bitboard, Bitboard))>,
    /// Candidates found lost, their values not yet passed on.
    lost: Vec<(usize, u64)>,
    /// The children of the candidates: the slot they are in, their ranks and then their indexes,
    /// and where each candidate's end.
    children: Vec<Position>,
    /// Which candidates' children are read next: (candidate, range of its children).
    looks: Vec<(usize, Range<usize>)>,
    child_ranks: Vec<(usize, u64, u64)>,
    child_indexes: Vec<u64>,
    child_ends: Vec<usize>,
}

/// A predecessor that a position passes its value to.
#[derive(Clone, Copy)]
struct Waiting {
    slot: usize,
    mover_rank: u64,
    waiting_rank: u64,
    /// The code of the position that passes it on.
    child_code: u64,
}

/// How many predecessors, or candidates, a batch gathers.
const PASSES_PER_BATCH: usize = 256;

impl<'a> Passer<'a> {
    fn new(board: &'a Board, slots: &'a [Slot]) -> Self {
        Passer {
            board,
            slots,
            walks: slots
                .iter()
                .map(|slot| SlotWalk::new(&slot.index))
                .collect(),
            predecessors: Vec::new(),
            forms: Vec::new(),
            waiting: Vec::with_capacity(PASSES_PER_BATCH + 64),
            indexes: Vec::new(),
            candidates: Vec::with_capacity(PASSES_PER_BATCH + 64),
            lost: Vec::new(),
            children: Vec::new(),
            looks: Vec::new(),
            child_ranks: Vec::new(),
            child_indexes: Vec::new(),
            child_ends: Vec::new(),
        }
    }

    /// Pass the value of position `i` of slot `s` to the canonical form of each of its
    /// predecessors (later, with the rest of its batch). A form that two predecessors share
    /// is passed the value twice, which decides nothing more: cheaper than finding them.
    fn pass_on(&mut self, s: usize, i: u64) {
        let slot = &self.slots[s];
        let child_code = slot.values.code(i);
        let (mover, waiting) = self.walks[s].position(i);
        predecessor_forms(
            self.board,
            &slot.index,
            &Position {
                mover,
                waiting,
                side: Color::White,
            },
            &mut self.predecessors,
            &mut self.forms,
        );
        // Every predecessor has the material with the sides swapped.
        let t = slot_of(self.slots, waiting, mover);
        let index = &self.slots[t].index;
        for &(mover, waiting) in &self.forms {
            let (mover_rank, waiting_rank) = index.ranks_of_canonical(mover, waiting);
            index.prefetch_class(mover_rank);
            self.waiting.push(Waiting {
                slot: t,
                mover_rank,
                waiting_rank,
                child_code,
            });
        }
        if self.waiting.len() >= PASSES_PER_BATCH {
            self.pass_batch();
        }
    }

    /// Check position `i` of slot `s`, a candidate just taken back to undecided (later, with
    /// the rest of its batch).
    fn check(&mut self, s: usize, i: u64) {
        let form = self.walks[s].position(i);
        self.candidates.push((s, i, form));
        if self.candidates.len() >= PASSES_PER_BATCH {
            self.check_candidates();
        }
    }

    /// Pass on the values of the candidates found lost so far.
    fn pass_on_lost(&mut self) {
        while let Some((s, i)) = self.lost.pop() {
            self.pass_on(s, i);
        }
    }

    /// Everything gathered, passed on and checked.
    fn finish(&mut self) {
        loop {
            self.pass_batch();
            self.check_candidates();
            if self.lost.is_empty() {
                return;
            }
            self.pass_on_lost();
        }
    }

    /// Pass each waiting predecessor its child's value: a lost child decides it won (a
    /// candidate or not), a won one makes an undecided one a candidate, put on the frontier.
    fn pass_batch(&mut self) {
        self.indexes.clear();
        for w in &self.waiting {
            let slot = &self.slots[w.slot];
            let j = slot.index.index_of_ranks(w.mover_rank, w.waiting_rank);
            slot.values.prefetch(j);
            self.indexes.push(j);
        }
        for (w, &j) in self.waiting.iter().zip(&self.indexes) {
            let predecessor = &self.slots[w.slot];
            match predecessor.values.code(j) {
                WON | LOST => {}
                _ if w.child_code == LOST => {
                    predecessor.decide(j, WON);
                }
                UNDECIDED if predecessor.values.mark_candidate(j) => {
                    predecessor.frontier.add_candidate(j);
                }
                _ => {}
            }
        }
        self.waiting.clear();
    }

    /// Decide lost each candidate whose children (paika only: it has no capture) are all
    /// known won, to be passed on by [`Self::pass_on_lost`]. The first [`FIRST_LOOK`] children
    /// of every candidate are read first, and the rest only of those whose first ones are all
    /// won: most candidates have a child not yet won among their first ones, and ranking their
    /// other children would be wasted.
    fn check_candidates(&mut self) {
        self.children.clear();
        self.child_ends.clear();
        for &(_, _, (mover, waiting)) in &self.candidates {
            let position = Position {
                mover,
                waiting,
                side: Color::White,
            };
            paika_children(self.board, &position, &mut self.children);
            self.child_ends.push(self.children.len());
        }
        self.looks.clear();
        let mut start = 0;
        for (k, &end) in self.child_ends.iter().enumerate() {
            self.looks.push((k, start..end.min(start + FIRST_LOOK)));
            start = end;
        }
        self.keep_all_won_looks();
        let mut start = 0;
        let mut first_looks = std::mem::take(&mut self.looks).into_iter().peekable();
        for (k, &end) in self.child_ends.iter().enumerate() {
            if first_looks.next_if(|(open, _)| *open == k).is_some() {
                self.looks.push((k, (start + FIRST_LOOK).min(end)..end));
            }
            start = end;
        }
        self.keep_all_won_looks();
        for &(k, _) in &self.looks {
            let (t, j, _) = self.candidates[k];
            if self.slots[t].values.claim(j, LOST) {
                self.lost.push((t, j));
            }
        }
        self.candidates.clear();
    }

    /// Keep the looks (a candidate and a range of its children) whose children are all won.
    fn keep_all_won_looks(&mut self) {
        self.child_ranks.clear();
        for (k, children) in &self.looks {
            let (mover, waiting) = self.candidates[*k].2;
            let slot = slot_of(self.slots, waiting, mover);
            let index = &self.slots[slot].index;
            for child in &self.children[children.clone()] {
                let (mover_rank, waiting_rank) = index.canonical_ranks(child.mover, child.waiting);
                index.prefetch_class(mover_rank);
                self.child_ranks.push((slot, mover_rank, waiting_rank));
            }
        }
        self.child_indexes.clear();
        for &(slot, mover_rank, waiting_rank) in &self.child_ranks {
            let slot = &self.slots[slot];
            let j = slot.index.index_of_ranks(mover_rank, waiting_rank);
            slot.values.prefetch(j);
            self.child_indexes.push(j);
        }
        let mut read = 0;
        let (slots, ranks, indexes) = (self.slots, &self.child_ranks, &self.child_indexes);
        self.looks.retain(|(_, children)| {
            let (first, end) = (read, read + children.len());
            read = end;
            (first..end).all(|c| slots[ranks[c].0].values.code(indexes[c]) == WON)
        });
    }
}

/// How many of a candidate's children are read before any of the others.
const FIRST_LOOK: usize = 2;

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
    (0..slot.index.mover_classes())
        .into_par_iter()
        .filter(|&class| slot.index.is_symmetric_class(class))
        .for_each(|class| {
            for (redundant, canonical) in slot.index.redundant_slots(class) {
                let code = slot.values.code(canonical);
                debug_assert_ne!(code, CANDIDATE, "a candidate left after the sweeps");
                if code == WON || code == LOST {
                    slot.values.claim(redundant, code);
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::super::tests::assert_a_stopped_build_goes_on;
    use super::*;
    use crate::tables::Tables;

    /// The 3x5 system 1v3 + 3v1 over the tables up to 3 stones, values only, with a frontier
    /// bit per `frontier_block` positions.
    fn solve_3x5_1v3(
        frontier_block: u64,
        progress: &dyn Progress,
        checkpoints: Option<&Checkpoints>,
    ) -> Result<Vec<Value>, TableError> {
        let board = Board::new(3, 5).unwrap();
        let rules = Rules::default();
        let smaller = Tables::build(&board, rules, 3);
        let probe = |positions: &[Position], out: &mut Vec<Value>| {
            smaller
                .probe_values(positions, out)
                .expect("a smaller material")
        };
        let solved = solve_system_values(
            &board,
            &rules,
            Material::new(1, 3),
            frontier_block,
            &probe,
            progress,
            checkpoints,
        )?;
        Ok(solved.iter().flat_map(|table| table.values()).collect())
    }

    /// A build stopped in either phase saves its state and, run again, goes on from it to the
    /// same values; a damaged state is named and ignored.
    #[test]
    fn a_stopped_build_goes_on_from_its_saved_state() {
        for block in [1, 8] {
            let plain = solve_3x5_1v3(block, &crate::progress::NoProgress, None).unwrap();
            assert!(plain.contains(&Value::Win) && plain.contains(&Value::Loss));
            let board = Board::new(3, 5).unwrap();
            let slots = crate::tables::system_slots(&board, Material::new(1, 3));
            let state_bytes = solving_bytes(slots, block);
            assert_a_stopped_build_goes_on("(passing values on)", state_bytes, |progress, c| {
                solve_3x5_1v3(block, progress, c)
            });
        }
    }
}
