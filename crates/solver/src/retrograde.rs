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
//! the time those levels took). Threads share the work by blocks of one mover class (all its
//! waiting sets); the slots are atomics. Claiming a predecessor as won,
//! or taking its count to zero, is one atomic step, so each position is decided once. A task
//! passes values on in batches of predecessors, prefetching their slots first ([`Updates`]):
//! the random reads of the slots were half of a large system's time.
//!
//! A build saves its state between steps ([`checkpoint`]) when asked to, and goes on from it.

mod cells;
mod checkpoint;
pub mod values_only;

use crate::entry::Entry;
use crate::file::TableError;
use crate::index::{materials_name, system_materials, Material, MaterialIndex};
use crate::progress::Progress;
use cells::Cells;
pub use checkpoint::temporary_path;
use checkpoint::{Levels, Saved, Stage};
use fanorona_engine::movegen::{children, count_turns, has_capture, paika_predecessors};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

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

/// Where and how often a system's build saves its state, so that an interrupted build goes on
/// from its last save instead of from the start.
pub struct Checkpoints<'a> {
    /// The state file (one per system; removed by the caller once the tables are written).
    pub path: PathBuf,
    /// The least time between two saves.
    pub every: Duration,
    /// When set (on Ctrl-C), the build saves at the next step and stops.
    pub stop: Option<&'a AtomicBool>,
}

/// What the builder reads the smaller tables with: the entries of `positions` (all of a
/// smaller material) into `out`, all asked for before any is read (see
/// [`crate::Tables::probe_entries`]).
pub type Probe<'a> = dyn Fn(&[Position], &mut Vec<Entry>) + Sync + 'a;

/// Mover classes per step of the first phase when saving: the most work a stop can lose.
const CLASS_BLOCKS_PER_SLOT: u64 = 64;

/// Solve the system of `material` and its swap (one material if they are equal). `probe` gives
/// the entries of positions of smaller materials. With `checkpoints`, the state is saved
/// from time to time, a saved state is taken up, and a stop request ends the build with
/// [`TableError::Stopped`].
pub fn solve_system(
    board: &Board,
    rules: &Rules,
    material: Material,
    probe: &Probe,
    progress: &dyn Progress,
    checkpoints: Option<&Checkpoints>,
) -> Result<Vec<SolvedTable>, TableError> {
    let system = System {
        board,
        rules,
        material,
        max_count: &|m| {
            u8::try_from(MAX_LINES_PER_POINT * m.mover)
                .expect("materials of fewer than 32 stones a side")
        },
    };
    system.solve(probe, progress, checkpoints)
}

/// Bytes of the state a build of `material`'s system saves, less its header and the few
/// distances too deep for a byte: a byte per position and the levels' bits per mover class.
pub fn saved_state_bytes(board: &Board, material: Material) -> u64 {
    let level_bytes = (LEVEL_WORDS * std::mem::size_of::<u64>()) as u64;
    system_materials(material)
        .map(|m| MaterialIndex::new(board, m))
        .map(|index| index.size() + index.mover_classes() * level_bytes)
        .sum()
}

/// How many of a slot's `classes` mover classes one step of the captures phase decides, for
/// about `steps` steps on `threads` threads. Each task is one mover class, and a step ends
/// when its last class does: a step of fewer classes than threads, or of a number that is not
/// a multiple of them, leaves threads idle at its end. The classes of a lopsided system are
/// few and large (1v9 has one per place of its lone stone, 7 × 10^8 positions each; 2v7's
/// hold 3 × 10^7): 2v7's 274 in 64 steps, 5 a step, left one of 2 threads idle a third of
/// the time.
pub(super) fn captures_step(classes: u64, steps: u64, threads: u64) -> u64 {
    classes.div_ceil(steps).next_multiple_of(threads.max(1))
}

/// One system to solve, with the largest count its slots must hold per material (the rest of
/// a slot's codes hold distances; deeper ones go to a map beside).
struct System<'a> {
    board: &'a Board,
    rules: &'a Rules,
    material: Material,
    max_count: &'a dyn Fn(Material) -> u8,
}

impl System<'_> {
    fn new_slots(&self) -> Vec<Slot> {
        system_materials(self.material)
            .map(|m| Slot::new(self.board, m, (self.max_count)(m)))
            .collect()
    }

    fn solve(
        &self,
        probe: &Probe,
        progress: &dyn Progress,
        checkpoints: Option<&Checkpoints>,
    ) -> Result<Vec<SolvedTable>, TableError> {
        let (mut slots, mut saved) = self.resume(checkpoints, progress);
        let mut saver = Saver::new(checkpoints, progress);
        let name = materials_name(slots.iter().map(|s| s.index.material()));
        let positions: u64 = slots.iter().map(|s| s.index.size()).sum();
        // The bar counts the positions done before a stop as done, on top of its total.
        let resumed = captures_resumed(&slots, |s, classes| saved.stage.classes_done(s, classes));
        progress.phase(
            &format!("{name}: captures and blocked positions"),
            positions - resumed,
        );
        self.decide_captures(&mut slots, &mut saved, &mut saver, probe, progress)?;
        progress.phase(&format!("{name}: paika, distance by distance"), positions);
        self.pass_levels(&mut slots, &mut saved, &mut saver, progress)?;
        for slot in &slots {
            fill_redundant(slot);
        }
        Ok(slots
            .into_iter()
            .map(|slot| SolvedTable {
                index: slot.index,
                cells: slot.cells,
            })
            .collect())
    }

    /// The first phase: captures decided from the smaller tables, blocked positions by the
    /// rules, the rest's paika counted; by blocks of mover classes when saving.
    fn decide_captures(
        &self,
        slots: &mut [Slot],
        saved: &mut Saved,
        saver: &mut Saver,
        probe: &Probe,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let blocks = if saver.checkpoints.is_some() {
            CLASS_BLOCKS_PER_SLOT
        } else {
            1
        };
        for s in 0..slots.len() {
            let classes = slots[s].index.mover_classes();
            let first = saved.stage.classes_done(s, classes);
            progress.resumed(first * slots[s].index.waiting_sets());
            let step = captures_step(classes, blocks, rayon::current_num_threads() as u64);
            for start in (first..classes).step_by(step as usize) {
                let end = (start + step).min(classes);
                let deepest = decide_at_once(self, &slots[s], start..end, probe, progress);
                saved.deepest = saved.deepest.max(deepest);
                saved.stage = Stage::Captures {
                    slot: s,
                    classes_done: end,
                };
                saver.step(&saved.stage, |path| {
                    checkpoint::save(path, self.board, self.rules, slots, saved)
                })?;
            }
        }
        Ok(())
    }

    /// The second phase: each level's values passed back to its predecessors, distance by
    /// distance, until nothing more can be decided.
    fn pass_levels(
        &self,
        slots: &mut [Slot],
        saved: &mut Saved,
        saver: &mut Saver,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let mut distance = match saved.stage {
            Stage::Later(Levels { next_distance }) => next_distance,
            Stage::Captures { .. } => 0,
        };
        // Each level's positions can only decide positions one ply further, so once a level is
        // empty and no capture position lies deeper, nothing more can be decided.
        loop {
            let found: u64 = (0..slots.len())
                .map(|s| propagate_level(self.board, slots, s, distance))
                .sum();
            progress.advance(found);
            if found == 0 && distance >= saved.deepest {
                return Ok(());
            }
            distance += 1;
            saved.stage = Stage::Later(Levels {
                next_distance: distance,
            });
            saver.step(&saved.stage, |path| {
                checkpoint::save(path, self.board, self.rules, slots, saved)
            })?;
        }
    }

    /// New slots, or those of the saved state if there is a usable one.
    fn resume(
        &self,
        checkpoints: Option<&Checkpoints>,
        progress: &dyn Progress,
    ) -> (Vec<Slot>, Saved) {
        let mut slots = self.new_slots();
        let start = Saved {
            stage: Stage::Captures {
                slot: 0,
                classes_done: 0,
            },
            deepest: 0,
        };
        let Some(checkpoints) = checkpoints else {
            return (slots, start);
        };
        let path = &checkpoints.path;
        match checkpoint::load(path, self.board, self.rules, &mut slots) {
            Ok(None) => (slots, start),
            Ok(Some(saved)) => {
                progress.note(&format!(
                    "going on from {} ({})",
                    path.display(),
                    saved.stage
                ));
                (slots, saved)
            }
            Err(why) => {
                progress.note(&format!(
                    "ignoring {}: {why}; starting the system afresh",
                    path.display()
                ));
                (self.new_slots(), start)
            }
        }
    }
}

/// The slots whose captures were decided before a build was stopped, of `slots` (each an
/// index and some state), given how many classes of slot `s` of `classes` are done.
pub(crate) fn captures_resumed<S: AsRef<MaterialIndex>>(
    slots: &[S],
    classes_done: impl Fn(usize, u64) -> u64,
) -> u64 {
    slots
        .iter()
        .enumerate()
        .map(|(s, slot)| {
            let index = slot.as_ref();
            classes_done(s, index.mover_classes()) * index.waiting_sets()
        })
        .sum()
}

/// Saves a build's state when it is time, or when asked to stop.
pub(crate) struct Saver<'a> {
    pub(crate) checkpoints: Option<&'a Checkpoints<'a>>,
    progress: &'a dyn Progress,
    last: Instant,
}

impl<'a> Saver<'a> {
    pub(crate) fn new(
        checkpoints: Option<&'a Checkpoints<'a>>,
        progress: &'a dyn Progress,
    ) -> Self {
        Saver {
            checkpoints,
            progress,
            last: Instant::now(),
        }
    }

    /// A step is done, which leaves the build at `stage`: save with `save` (given the path) if
    /// it is time or a stop is asked for; a stop ends the build.
    pub(crate) fn step(
        &mut self,
        stage: &dyn std::fmt::Display,
        save: impl FnOnce(&std::path::Path) -> std::io::Result<()>,
    ) -> Result<(), TableError> {
        let Some(checkpoints) = self.checkpoints else {
            return Ok(());
        };
        let stop = checkpoints.stop.is_some_and(|flag| flag.load(Relaxed));
        if !stop && self.last.elapsed() < checkpoints.every {
            return Ok(());
        }
        let path = &checkpoints.path;
        let clock = Instant::now();
        save(path).map_err(|error| TableError::Io {
            path: path.clone(),
            error,
        })?;
        self.progress.note(&format!(
            "saved the state in {} ({stage}, {:.1} s)",
            path.display(),
            clock.elapsed().as_secs_f64()
        ));
        self.last = Instant::now();
        if stop {
            return Err(TableError::Stopped { path: path.clone() });
        }
        Ok(())
    }
}

impl AsRef<MaterialIndex> for Slot {
    fn as_ref(&self) -> &MaterialIndex {
        &self.index
    }
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
/// the rest, in the mover classes `classes`, one class per task. Returns the largest distance
/// decided.
fn decide_at_once(
    system: &System,
    slot: &Slot,
    classes: Range<u64>,
    probe: &Probe,
    progress: &dyn Progress,
) -> u16 {
    let (board, rules) = (system.board, system.rules);
    let block = slot.index.waiting_sets();
    classes
        .into_par_iter()
        .map(|class| {
            let mut captures = CaptureBatch::new(probe);
            let mut deepest = 0;
            let mut settle = |i, children: &[Entry]| {
                let entry = Entry::from_children(children.iter().copied());
                decide(slot, i, entry);
                deepest = deepest.max(entry.distance().unwrap_or(0));
            };
            let mut scratch = Vec::new();
            for (i, mover, waiting) in slot.index.canonical_slots(class) {
                let position = Position {
                    mover,
                    waiting,
                    side: Color::White,
                };
                if has_capture(board, mover, waiting) {
                    if captures.add(board, i, &position) {
                        captures.settle(&mut settle);
                    }
                } else if let Some(value) = rules.outcome(board, &position) {
                    // A blocked side to move that draws under this rule needs nothing noted.
                    if value == Value::Loss {
                        decide(slot, i, Entry::loss(0));
                    }
                } else {
                    let count =
                        canonical_paika_children(board, &slot.index, &position, &mut scratch);
                    slot.cells.set_count(i, count);
                }
            }
            captures.settle(&mut settle);
            progress.advance(block);
            deepest
        })
        .max()
        .unwrap_or(0)
}

/// Decide slot `i` of `slot` as `entry`, unless it is a draw (slots start as draws).
fn decide(slot: &Slot, i: u64, entry: Entry) {
    if entry.distance().is_some() {
        slot.cells.set_decided(i, entry);
        slot.note_level(i, entry);
    }
}

/// Positions with a capture that a task has found, decided in batches: the children of a whole
/// batch are probed at once, so that the reads of the smaller tables overlap (one position's few
/// children at a time left the task waiting for memory at each). `T` is what the probe gives
/// for a child: an [`Entry`] here, a [`Value`] for the values-only builder.
pub(crate) struct CaptureBatch<'a, T> {
    probe: &'a (dyn Fn(&[Position], &mut Vec<T>) + Sync + 'a),
    /// The children of the batch's positions, one after another ...
    children: Vec<Position>,
    /// ... and for each position, its slot and where its children end.
    ends: Vec<(u64, usize)>,
    probed: Vec<T>,
}

/// How many children a [`CaptureBatch`] gathers before they are probed.
const CHILDREN_PER_BATCH: usize = 512;

impl<'a, T> CaptureBatch<'a, T> {
    pub(crate) fn new(probe: &'a (dyn Fn(&[Position], &mut Vec<T>) + Sync + 'a)) -> Self {
        CaptureBatch {
            probe,
            children: Vec::with_capacity(CHILDREN_PER_BATCH + 64),
            ends: Vec::new(),
            probed: Vec::new(),
        }
    }

    /// Slot `i` holds `position`, which has a capture: gather its children. True when the
    /// batch is full and should be settled.
    pub(crate) fn add(&mut self, board: &Board, i: u64, position: &Position) -> bool {
        // `children` appends.
        children(board, position, &mut self.children);
        self.ends.push((i, self.children.len()));
        self.children.len() >= CHILDREN_PER_BATCH
    }

    /// Probe the batch's children and hand each position's slot and its children's answers to
    /// `decide`; the batch is then empty.
    pub(crate) fn settle(&mut self, mut decide: impl FnMut(u64, &[T])) {
        (self.probe)(&self.children, &mut self.probed);
        let mut start = 0;
        for &(i, end) in &self.ends {
            decide(i, &self.probed[start..end]);
            start = end;
        }
        self.children.clear();
        self.ends.clear();
    }
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
    (0..slot.index.mover_classes())
        .into_par_iter()
        .filter(|&class| slot.index.is_symmetric_class(class))
        .for_each(|class| {
            for (redundant, canonical) in slot.index.redundant_slots(class) {
                slot.cells.copy(canonical, redundant);
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
        deep.par_chunks(DEEP_PER_TASK).for_each(|part| {
            let mut updates = Updates::new(slots, entry);
            for &i in part {
                updates.pass_to_predecessors(board, s, i);
            }
            updates.apply();
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
            let mut updates = Updates::new(slots, entry);
            let mut found = 0;
            for (offset, c) in codes.iter().enumerate() {
                if c.load(Relaxed) == code {
                    found += 1;
                    updates.pass_to_predecessors(board, s, class * block + offset as u64);
                }
            }
            updates.apply();
            found
        })
        .sum()
}

/// The deep positions of a level one task passes on.
const DEEP_PER_TASK: usize = 1 << 10;

/// The predecessors a task has found for one level's positions, passed the level's `entry` in
/// batches: a batch's slots are looked up, then its cells read, each step for all of them at
/// once, so that their memory accesses overlap. (A large system's cells lie far apart; passing
/// each value on as it was found waited for memory at every predecessor.) Within a level the
/// order of the passes does not matter: they all pass the same entry, and what they decide is
/// decided at the next level.
struct Updates<'a> {
    slots: &'a [Slot],
    entry: Entry,
    predecessors: Vec<Position>,
    forms: Vec<(Bitboard, Bitboard)>,
    /// (slot, mover rank, waiting rank) of each predecessor waiting for the entry.
    ranks: Vec<(usize, u64, u64)>,
    /// (slot, index) of the same.
    cells: Vec<(usize, u64)>,
}

/// How many predecessors wait at most before they are passed the entry.
const UPDATES_PER_BATCH: usize = 512;

impl<'a> Updates<'a> {
    fn new(slots: &'a [Slot], entry: Entry) -> Self {
        Updates {
            slots,
            entry,
            predecessors: Vec::new(),
            forms: Vec::new(),
            ranks: Vec::with_capacity(UPDATES_PER_BATCH + 64),
            cells: Vec::with_capacity(UPDATES_PER_BATCH + 64),
        }
    }

    /// Pass the entry of slot `i` of slot `s` to each distinct canonical form among its
    /// predecessors (later, with the rest of its batch).
    fn pass_to_predecessors(&mut self, board: &Board, s: usize, i: u64) {
        let index = &self.slots[s].index;
        let block = index.waiting_sets();
        let mover = index.mover_set(i / block);
        let position = Position {
            mover,
            waiting: index.waiting_set(mover, i % block),
            side: Color::White,
        };
        canonical_predecessors(
            board,
            index,
            &position,
            &mut self.predecessors,
            &mut self.forms,
        );
        for &(mover, waiting) in &self.forms {
            let s = slot_of(self.slots, mover, waiting);
            let index = &self.slots[s].index;
            let (mover_rank, waiting_rank) = index.ranks_of_canonical(mover, waiting);
            index.prefetch_class(mover_rank);
            self.ranks.push((s, mover_rank, waiting_rank));
        }
        if self.ranks.len() >= UPDATES_PER_BATCH {
            self.apply();
        }
    }

    /// Pass the entry to every predecessor waiting for it.
    fn apply(&mut self) {
        self.cells.clear();
        for &(s, mover_rank, waiting_rank) in &self.ranks {
            let slot = &self.slots[s];
            let i = slot.index.index_of_ranks(mover_rank, waiting_rank);
            slot.cells.prefetch(i);
            self.cells.push((s, i));
        }
        self.ranks.clear();
        for &(s, i) in &self.cells {
            update_predecessor(&self.slots[s], i, self.entry);
        }
    }
}

/// The distinct canonical forms among the paika predecessors of `position` (of `index`'s
/// material), into `forms`; `scratch` is working space.
pub(crate) fn canonical_predecessors(
    board: &Board,
    index: &MaterialIndex,
    position: &Position,
    scratch: &mut Vec<Position>,
    forms: &mut Vec<(Bitboard, Bitboard)>,
) {
    predecessor_forms(board, index, position, scratch, forms);
    forms.sort_unstable();
    forms.dedup();
}

/// The canonical forms of the paika predecessors of `position` (of `index`'s material), into
/// `forms`, one per predecessor: two predecessors that are images of each other give the same
/// form twice. `scratch` is working space.
pub(crate) fn predecessor_forms(
    board: &Board,
    index: &MaterialIndex,
    position: &Position,
    scratch: &mut Vec<Position>,
    forms: &mut Vec<(Bitboard, Bitboard)>,
) {
    scratch.clear();
    paika_predecessors(board, position, scratch);
    let symmetries = index.symmetries();
    forms.clear();
    forms.extend(
        scratch
            .iter()
            .map(|before| symmetries.canonical(before.mover, before.waiting)),
    );
}

/// The slot of the system that holds the material of (mover, waiting).
fn slot_of(slots: &[Slot], mover: Bitboard, waiting: Bitboard) -> usize {
    let material = Material::of(mover, waiting);
    slots
        .iter()
        .position(|slot| slot.index.material() == material)
        .expect("paika stay in the system")
}

/// A child of the canonical position in slot `i` of `slot` turned out to be `child`: decide
/// the position if that settles it.
fn update_predecessor(slot: &Slot, i: u64, child: Entry) {
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

    /// The 3x5 system 1v3 + 3v1 over the tables up to 3 stones, solved with slots that hold
    /// counts up to `max_count` (the builder's own choice if `None`).
    fn solve_3x5_1v3(
        max_count: Option<u8>,
        progress: &dyn Progress,
        checkpoints: Option<&Checkpoints>,
    ) -> Result<Vec<SolvedTable>, TableError> {
        let board = Board::new(3, 5).unwrap();
        let rules = Rules::default();
        let smaller = Tables::build(&board, rules, 3);
        let probe = |positions: &[Position], out: &mut Vec<Entry>| {
            smaller
                .probe_entries(positions, out)
                .expect("a smaller material")
        };
        let material = Material::new(1, 3);
        match max_count {
            None => solve_system(&board, &rules, material, &probe, progress, checkpoints),
            Some(count) => System {
                board: &board,
                rules: &rules,
                material,
                max_count: &|_| count,
            }
            .solve(&probe, progress, checkpoints),
        }
    }

    /// Slots whose codes hold only distances up to 3 keep every deeper one in the map beside:
    /// the tables come out the same.
    #[test]
    fn deep_distances_kept_beside_the_slots_give_the_same_tables() {
        let plain = solve_3x5_1v3(None, &NoProgress, None).unwrap();
        let deep = solve_3x5_1v3(Some(250), &NoProgress, None).unwrap();
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

    /// Reports nothing, but notes messages and sets `stop` when a phase named with `phase`
    /// begins (a Ctrl-C at that moment).
    pub(super) struct StopAt<'a> {
        pub(super) phase: &'static str,
        pub(super) stop: &'a AtomicBool,
        pub(super) notes: std::sync::Mutex<Vec<String>>,
        /// The first phase's total, and the units it was told were done before a stop.
        pub(super) first_phase: std::sync::Mutex<Option<u64>>,
        pub(super) resumed: AtomicU64,
    }

    impl<'a> StopAt<'a> {
        pub(super) fn new(phase: &'static str, stop: &'a AtomicBool) -> Self {
            StopAt {
                phase,
                stop,
                notes: Default::default(),
                first_phase: Default::default(),
                resumed: AtomicU64::new(0),
            }
        }

        /// What the first phase's bar counts in all: its total and what was done before.
        fn first_phase_units(&self) -> u64 {
            self.first_phase.lock().unwrap().expect("a phase") + self.resumed.load(Relaxed)
        }
    }

    impl Progress for StopAt<'_> {
        fn phase(&self, name: &str, total: u64) {
            self.first_phase.lock().unwrap().get_or_insert(total);
            if name.contains(self.phase) {
                self.stop.store(true, Relaxed);
            }
        }
        fn advance(&self, _: u64) {}
        fn resumed(&self, units: u64) {
            self.resumed.fetch_add(units, Relaxed);
        }
        fn note(&self, message: &str) {
            self.notes.lock().unwrap().push(message.to_string());
        }
    }

    #[test]
    fn a_step_of_the_captures_keeps_every_thread_busy_to_its_end() {
        // 2v7's mover classes in 64 steps on 2 threads: 6 a step, not 5.
        let board = Board::new(5, 9).unwrap();
        let classes = MaterialIndex::new(&board, Material::new(2, 7)).mover_classes();
        assert_eq!(classes, 274);
        assert_eq!(captures_step(classes, 64, 2), 6);
        for (classes, steps, threads) in [(274, 64, 2), (45, 64, 16), (10_000, 64, 3), (1, 1, 1)] {
            let step = captures_step(classes, steps, threads);
            assert_eq!(step % threads, 0, "{classes} classes on {threads} threads");
            assert!(
                step * steps >= classes,
                "{classes} classes in {steps} steps"
            );
        }
    }

    /// A build stopped in either phase saves its state and, run again, goes on from it to the
    /// same tables; a damaged state is named and ignored.
    #[test]
    fn a_stopped_build_goes_on_from_its_saved_state() {
        let entries = |tables: Vec<SolvedTable>| -> Vec<Entry> {
            tables.iter().flat_map(|table| table.entries()).collect()
        };
        let state_bytes = saved_state_bytes(&Board::new(3, 5).unwrap(), Material::new(1, 3));
        assert_a_stopped_build_goes_on(
            "(paika levels: next distance",
            state_bytes,
            |progress, checkpoints| solve_3x5_1v3(None, progress, checkpoints).map(entries),
        );
    }

    /// Stop a build (`solve`, with a progress and where to save) as its captures phase begins
    /// and as its paika phase begins, and once more with its saved state damaged; each time the
    /// build run again gives what a build without stops gives, notes where it went on from
    /// (`paika_note` names the second phase's stage) or that it ignored the damaged state, and
    /// its first bar counts as many positions in all as one without stops. Each saved state
    /// holds the `state_bytes` that the disk's room is reckoned with, and a header.
    pub(super) fn assert_a_stopped_build_goes_on<T: PartialEq>(
        paika_note: &str,
        state_bytes: u64,
        solve: impl Fn(&dyn Progress, Option<&Checkpoints>) -> Result<Vec<T>, TableError>,
    ) {
        let never = AtomicBool::new(false);
        let watching = StopAt::new("no phase", &never);
        let plain = solve(&watching, None).unwrap();
        let all_positions = watching.first_phase_units();
        let directory = tempfile::tempdir().unwrap();
        for (phase, damage) in [("captures", false), ("paika", false), ("paika", true)] {
            let stop = AtomicBool::new(false);
            let checkpoints = Checkpoints {
                path: directory.path().join("system.fnpart"),
                every: Duration::MAX,
                stop: Some(&stop),
            };
            let stopping = StopAt::new(phase, &stop);
            let stopped = solve(&stopping, Some(&checkpoints));
            assert!(
                matches!(stopped, Err(TableError::Stopped { .. })),
                "{phase}"
            );
            let saved = std::fs::metadata(&checkpoints.path).unwrap().len();
            assert!(
                (state_bytes..state_bytes + 512).contains(&saved),
                "{phase}: a state of {saved} bytes, reckoned at {state_bytes} and a header"
            );
            if damage {
                let mut bytes = std::fs::read(&checkpoints.path).unwrap();
                let middle = bytes.len() / 2;
                bytes[middle] ^= 4;
                std::fs::write(&checkpoints.path, bytes).unwrap();
            }
            stop.store(false, Relaxed);
            let going_on = StopAt::new("no phase", &stop);
            let resumed = solve(&going_on, Some(&checkpoints)).unwrap();
            assert_eq!(going_on.first_phase_units(), all_positions, "{phase}");
            let differ = plain.iter().zip(&resumed).filter(|(a, b)| a != b).count();
            assert!(
                plain.len() == resumed.len() && differ == 0,
                "{phase}, damaged {damage}: {differ} of {} slots differ",
                plain.len()
            );
            let notes = going_on.notes.into_inner().unwrap();
            // The note names where it goes on from in words.
            let expected: &[&str] = match (damage, phase) {
                (true, _) => &["is corrupt"],
                (false, "captures") => &["going on from", "(deciding captures: table 1"],
                (false, _) => &["going on from", paika_note],
            };
            assert!(
                notes.iter().any(|n| expected.iter().all(|e| n.contains(e))),
                "{notes:?}"
            );
            std::fs::remove_file(&checkpoints.path).unwrap();
        }
    }
}
