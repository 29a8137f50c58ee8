//! An independent check of built tables: every entry re-derived from its successors.
//!
//! The builder works backwards (un-moves from decided positions); this works forwards: for each
//! position it generates the turns, probes the children, and recomputes the value and distance
//! with its own statement of best play. Checking every position this way checks the whole table:
//! a wrong win or loss breaks the equation somewhere along its (strictly shorter) line of play,
//! down to positions whose value the rules give directly.

mod state;

use crate::entry::Entry;
use crate::file::TableError;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use crate::run_lock::{lock_beside, RunLock};
use crate::tables::Tables;
use fanorona_engine::movegen::{children, most_capturing_first};
use fanorona_engine::{Blocked, Color, Position, Value};
use rayon::prelude::*;
pub use state::state_path;
use state::{MaterialState, VerifyState, UNIT_SLOTS};
use std::io;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// One entry (or value) that does not follow from its successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub material: Material,
    pub index: u64,
    pub position: Position,
    pub stored: Stored,
    pub derived: Stored,
}

/// What a slot holds: an entry, or in a table built for values alone, the value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    Entry(Entry),
    Value(Value),
}

impl std::fmt::Debug for Stored {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stored::Entry(entry) => entry.fmt(f),
            Stored::Value(value) => f.write_str(value.name()),
        }
    }
}

/// Where a verification keeps its state, and what stops it (see [`state`]).
#[derive(Default)]
pub struct VerifyControl<'a> {
    /// The state file ([`state_path`]): resumed from if it fits the tables, written after
    /// every unit of slots, removed at the end. None: nothing is saved or resumed.
    pub state: Option<PathBuf>,
    /// Once set (by Ctrl-C), the units under way finish, the state is saved and the
    /// verification stops with [`TableError::Stopped`] (only with a state file).
    pub stop: Option<&'a AtomicBool>,
}

/// Check every entry of every material of `tables`; returns the mismatches (at most `limit`).
pub fn verify(tables: &Tables, progress: &dyn Progress, limit: usize) -> Vec<Mismatch> {
    verify_materials(
        tables,
        &tables.held_materials(),
        progress,
        limit,
        &VerifyControl::default(),
    )
    .expect("a verification without a state file neither saves nor stops")
}

/// Check every entry of the given materials of `tables` (those it holds), saving and resuming
/// as `control` says; returns the mismatches (at most `limit`), in the order of `materials`
/// and of their slots.
pub fn verify_materials(
    tables: &Tables,
    materials: &[Material],
    progress: &dyn Progress,
    limit: usize,
    control: &VerifyControl,
) -> Result<Vec<Mismatch>, TableError> {
    let held: Vec<Material> = materials
        .iter()
        .copied()
        .filter(|&m| tables.stored_value(m, 0).is_some())
        .collect();
    let board = tables.board();
    let fresh = VerifyState::new(
        board,
        &tables.rules(),
        held.iter()
            .map(|&m| {
                let slots = MaterialIndex::new(board, m).size();
                MaterialState::new(m, tables.checksum(m).unwrap_or(0), slots)
            })
            .collect(),
    );
    // Tables built in memory have no files whose state could be saved.
    let saving = control
        .state
        .as_ref()
        .filter(|_| held.iter().all(|&m| tables.checksum(m).is_some()));
    // One verification at a time on a state file: two would write it over each other.
    let _lock = saving
        .map(|path| RunLock::take(&lock_beside(path)))
        .transpose()?;
    let state = match saving {
        Some(path) => resume(path, fresh, progress),
        None => fresh,
    };
    let run = Run {
        tables,
        limit,
        state: Mutex::new(state),
        saving,
        stop: control.stop.filter(|_| saving.is_some()),
        failure: Mutex::new(None),
    };
    for (number, &material) in held.iter().enumerate() {
        run.verify_material(number, material, progress)?;
    }
    let state = run.state.into_inner().expect("no worker panicked");
    let found = mismatches_found_again(tables, &held, &state);
    if let Some(path) = saving {
        crate::tables::remove_if_present(path)?;
    }
    Ok(found.into_iter().take(limit).collect())
}

/// The slots `state` found wrong, derived again for the report (one that the smaller tables,
/// if changed since a stop, now account for is no longer reported), in the order of `held`
/// (the materials verified) and of their slots.
fn mismatches_found_again(
    tables: &Tables,
    held: &[Material],
    state: &VerifyState,
) -> Vec<Mismatch> {
    let mut found: Vec<(usize, Mismatch)> = state
        .mismatches
        .iter()
        .filter_map(|&(number, slot)| {
            let index = MaterialIndex::new(tables.board(), held[number as usize]);
            let again = verify_slots(tables, &index, slot..slot + 1, 1);
            Some((number as usize, again.into_iter().next()?))
        })
        .collect();
    found.sort_by_key(|(number, m)| (*number, m.index));
    found.into_iter().map(|(_, m)| m).collect()
}

/// The saved state in `path` if it is of these tables, else `fresh` (saying why).
fn resume(path: &Path, fresh: VerifyState, progress: &dyn Progress) -> VerifyState {
    match VerifyState::load(path) {
        Ok(Some(saved)) if fresh.same_files(&saved) => {
            progress.note(&format!("going on from {}", path.display()));
            saved
        }
        Ok(Some(_)) => {
            progress.note(&format!(
                "{} is the state of other tables: not used",
                path.display()
            ));
            fresh
        }
        Ok(None) => fresh,
        Err(why) => {
            progress.note(&format!("{}: {why}: not used", path.display()));
            fresh
        }
    }
}

/// One verification under way: its state, shared by the workers.
struct Run<'a> {
    tables: &'a Tables,
    limit: usize,
    state: Mutex<VerifyState>,
    saving: Option<&'a PathBuf>,
    stop: Option<&'a AtomicBool>,
    /// The first failure to save the state.
    failure: Mutex<Option<io::Error>>,
}

impl Run<'_> {
    /// Check the units of material `number` not done yet, each on whichever core is free.
    fn verify_material(
        &self,
        number: usize,
        material: Material,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let index = MaterialIndex::new(self.tables.board(), material);
        let size = index.size();
        let units = |state: &VerifyState| state.materials[number].units();
        let unit_slots = |unit: u64| unit * UNIT_SLOTS..((unit + 1) * UNIT_SLOTS).min(size);
        let (units, done_before) = {
            let state = self.state.lock().expect("no worker panicked");
            let done: u64 = (0..units(&state))
                .filter(|&u| state.materials[number].is_done(u))
                .map(|u| unit_slots(u).end - unit_slots(u).start)
                .sum();
            (units(&state), done)
        };
        progress.phase(&format!("verify {material}"), size - done_before);
        progress.resumed(done_before);
        let stopped = AtomicBool::new(false);
        (0..units).into_par_iter().for_each(|unit| {
            if self.state.lock().expect("no worker panicked").materials[number].is_done(unit) {
                return;
            }
            if self.stop.is_some_and(|stop| stop.load(Ordering::Relaxed)) {
                stopped.store(true, Ordering::Relaxed);
                return;
            }
            let found = self.verify_unit(&index, unit_slots(unit), progress);
            self.record(number, unit, &found);
        });
        if let Some(error) = self.failure.lock().expect("no worker panicked").take() {
            let path = self.saving.expect("only a run that saves fails to").clone();
            return Err(TableError::Io { path, error });
        }
        match (stopped.into_inner(), self.saving) {
            (true, Some(path)) => Err(TableError::Stopped { path: path.clone() }),
            _ => Ok(()),
        }
    }

    /// The mismatches among one unit's `slots`, on every core (a material may be one unit).
    fn verify_unit(
        &self,
        index: &MaterialIndex,
        slots: Range<u64>,
        progress: &dyn Progress,
    ) -> Vec<Mismatch> {
        const PIECE: u64 = 1 << 16;
        let pieces = (slots.end - slots.start).div_ceil(PIECE);
        let mut found: Vec<Mismatch> = (0..pieces)
            .into_par_iter()
            .flat_map_iter(|piece| {
                let start = slots.start + piece * PIECE;
                let end = (start + PIECE).min(slots.end);
                let found = verify_slots(self.tables, index, start..end, self.limit);
                progress.advance(end - start);
                found
            })
            .collect();
        found.sort_by_key(|m| m.index);
        found
    }

    /// Mark a unit done with what it found, and save the state.
    fn record(&self, number: usize, unit: u64, found: &[Mismatch]) {
        let mut state = self.state.lock().expect("no worker panicked");
        state.materials[number].mark_done(unit);
        let room = self.limit.saturating_sub(state.mismatches.len());
        state
            .mismatches
            .extend(found.iter().take(room).map(|m| (number as u32, m.index)));
        if let Some(path) = self.saving {
            if let Err(error) = state.save(path) {
                self.failure
                    .lock()
                    .expect("no worker panicked")
                    .get_or_insert(error);
            }
        }
    }
}

/// The mismatches among `slots` of one material (at most `limit`). Every slot is checked,
/// redundant ones included: the entry stored in it must follow from the children of the
/// position it names.
fn verify_slots(
    tables: &Tables,
    index: &MaterialIndex,
    slots: Range<u64>,
    limit: usize,
) -> Vec<Mismatch> {
    let block = index.waiting_sets();
    let mut batch = Batch::new(tables, index.material(), limit);
    let mut slot = slots.start;
    while slot < slots.end {
        let class = slot / block;
        let first = class * block;
        let (from, to) = (slot - first, (slots.end - first).min(block));
        let mover = index.mover_set(class);
        let waiting_sets = index
            .waiting_sets_from(mover, from)
            .take((to - from) as usize);
        for (offset, waiting) in (from as usize..).zip(waiting_sets) {
            let position = Position {
                mover,
                waiting,
                side: Color::White,
            };
            batch.add(first + offset as u64, position);
        }
        slot = first + to;
    }
    batch.check();
    batch.found
}

/// Slots waiting to be checked, in batches: the children of a whole batch are probed at once,
/// so that the reads of their entries, scattered over the tables, overlap.
struct Batch<'a> {
    tables: &'a Tables,
    material: Material,
    /// Values are checked, not entries (see [`checked_by_values`]).
    values_only: bool,
    limit: usize,
    /// The slots and their positions ...
    slots: Vec<(u64, Position)>,
    /// ... their children, one position's after another's, and where each position's end.
    children: Vec<Position>,
    ends: Vec<usize>,
    entries: Vec<Entry>,
    /// The children probed for values at once, and their values.
    looked: Vec<Position>,
    values: Vec<Value>,
    found: Vec<Mismatch>,
}

/// The materials whose tables a verification of `checked` probes: those materials (their
/// stored entries, and their swaps' for the children of a paika), then the materials their
/// children are in after a capture (stones of the side that waited fewer, the sides swapped),
/// largest first.
pub fn materials_probed(checked: &[Material]) -> Vec<Material> {
    let paika = checked.iter().flat_map(|&m| [m, m.swapped()]);
    let mut captures: Vec<Material> = checked
        .iter()
        .flat_map(|m| (1..m.waiting).map(move |left| Material::new(left, m.mover)))
        .collect();
    captures.sort_by_key(|m| std::cmp::Reverse(m.stones()));
    let mut probed = Vec::new();
    for material in paika.chain(captures) {
        if !probed.contains(&material) {
            probed.push(material);
        }
    }
    probed
}

/// Whether `material` is checked by its values alone, one ply deep: when its table has no
/// distances, or a table its children may be in (its own system's, or one of fewer stones)
/// has none, so that its distances cannot be derived.
fn checked_by_values(tables: &Tables, material: Material) -> bool {
    let children_may_be_in =
        |m: &Material| m.stones() < material.stones() || *m == material.swapped();
    std::iter::once(material)
        .chain(
            tables
                .held_materials()
                .into_iter()
                .filter(children_may_be_in),
        )
        .any(|m| tables.stored(m, 0).is_none())
}

/// How many children a [`Batch`] gathers before they are probed.
const CHILDREN_PER_BATCH: usize = 512;

impl<'a> Batch<'a> {
    fn new(tables: &'a Tables, material: Material, limit: usize) -> Self {
        Batch {
            tables,
            material,
            values_only: checked_by_values(tables, material),
            limit,
            slots: Vec::new(),
            children: Vec::with_capacity(CHILDREN_PER_BATCH + 64),
            ends: Vec::new(),
            entries: Vec::new(),
            looked: Vec::new(),
            values: Vec::new(),
            found: Vec::new(),
        }
    }

    /// Check slot `slot`, which names `position` (later, with its batch).
    fn add(&mut self, slot: u64, position: Position) {
        // `children` appends.
        let start = self.children.len();
        children(self.tables.board(), &position, &mut self.children);
        // A won position's first look stops at a lost child (see `derive_values`); entries
        // are derived from all the children, in any order.
        if self.values_only {
            most_capturing_first(&mut self.children[start..]);
        }
        self.slots.push((slot, position));
        self.ends.push(self.children.len());
        if self.children.len() >= CHILDREN_PER_BATCH {
            self.check();
        }
    }

    /// Compare each slot of the batch with the entry (or value) its children give.
    fn check(&mut self) {
        let stored: Vec<Stored> = self
            .slots
            .iter()
            .map(|&(slot, _)| match self.values_only {
                false => self.tables.stored(self.material, slot).map(Stored::Entry),
                true => self
                    .tables
                    .stored_value(self.material, slot)
                    .map(Stored::Value),
            })
            .collect::<Option<_>>()
            .expect("the material is in the tables");
        let derived = match self.values_only {
            false => self.derive_entries(),
            true => self.derive_values(&stored),
        };
        for ((&(slot, position), derived), stored) in self.slots.iter().zip(derived).zip(stored) {
            if derived != stored && self.found.len() < self.limit {
                self.found.push(Mismatch {
                    material: self.material,
                    index: slot,
                    position,
                    stored,
                    derived,
                });
            }
        }
        self.slots.clear();
        self.children.clear();
        self.ends.clear();
    }

    /// What each slot of the batch should hold, from its children's entries.
    fn derive_entries(&mut self) -> Vec<Stored> {
        let blocked = self.tables.rules().blocked;
        self.tables
            .probe_entries(&self.children, &mut self.entries)
            .expect(CHILDREN_IN_TABLES);
        let mut start = 0;
        let mut next = |end: usize| std::mem::replace(&mut start, end)..end;
        let entries = &self.entries;
        let derived = |&end: &usize| Stored::Entry(derive(blocked, &entries[next(end)]));
        self.ends.iter().map(derived).collect()
    }

    /// What each slot of the batch should hold, from its children's values (a table built
    /// for values alone). A slot stored won is won by any lost child, so the first
    /// [`FIRST_LOOK`] children of those are probed first, and the others only where those
    /// show no lost one: the value derived is the same as from all of them.
    fn derive_values(&mut self, stored: &[Stored]) -> Vec<Stored> {
        let children: Vec<Range<usize>> = std::iter::once(0)
            .chain(self.ends.iter().copied())
            .zip(&self.ends)
            .map(|(start, &end)| start..end)
            .collect();
        let mut seen = vec![Seen::NOTHING; children.len()];
        // The children of each slot not probed yet.
        let mut left = children.clone();
        let looks: Vec<usize> = (0..children.len())
            .filter(|&k| stored[k] == Stored::Value(Value::Win))
            .collect();
        self.probe_children(looks.iter().map(|&k| first_look(&children[k])));
        let mut values = self.values.iter().copied();
        for &k in &looks {
            let first = first_look(&children[k]);
            seen[k] = seen[k].and(values.by_ref().take(first.len()));
            left[k].start = if seen[k].lost { left[k].end } else { first.end };
        }
        self.probe_children(left.iter().cloned());
        let mut values = self.values.iter().copied();
        let blocked = self.tables.rules().blocked;
        seen.iter()
            .zip(&left)
            .map(|(seen, left)| {
                let seen = seen.and(values.by_ref().take(left.len()));
                Stored::Value(seen.value(blocked))
            })
            .collect()
    }

    /// Probe the values of these ranges of the batch's children, one after another, into
    /// `values`.
    fn probe_children(&mut self, ranges: impl Iterator<Item = Range<usize>>) {
        self.looked.clear();
        for range in ranges {
            self.looked.extend_from_slice(&self.children[range]);
        }
        self.tables
            .probe_values(&self.looked, &mut self.values)
            .expect(CHILDREN_IN_TABLES);
    }
}

/// Why a child's probe cannot fail: its material is its parent's, swapped, or has fewer stones.
const CHILDREN_IN_TABLES: &str = "children have no more stones than their parent";

/// How many children of a slot stored won are probed before the others.
const FIRST_LOOK: usize = 2;

/// The first children of `children` that [`Batch::derive_values`] probes first.
fn first_look(children: &Range<usize>) -> Range<usize> {
    children.start..children.end.min(children.start + FIRST_LOOK)
}

/// What the values of some of a position's children show.
#[derive(Clone, Copy)]
struct Seen {
    any: bool,
    lost: bool,
    all_won: bool,
}

impl Seen {
    const NOTHING: Seen = Seen {
        any: false,
        lost: false,
        all_won: true,
    };

    /// What these and more children show.
    fn and(self, values: impl Iterator<Item = Value>) -> Seen {
        values.fold(self, |seen, value| Seen {
            any: true,
            lost: seen.lost || value == Value::Loss,
            all_won: seen.all_won && value == Value::Win,
        })
    }

    /// The value of a position whose children are all seen (none: the side to move is
    /// blocked, and `blocked` says what that gives): a win needs a lost child, a loss every
    /// child won, a draw neither. Unlike distances, one ply cannot rule out a closed set of
    /// positions all wrongly won and lost through one another (each a child of the next).
    fn value(self, blocked: Blocked) -> Value {
        match self {
            Seen { any: false, .. } => match blocked {
                Blocked::Loss => Value::Loss,
                Blocked::Draw => Value::Draw,
            },
            Seen { lost: true, .. } => Value::Win,
            Seen { all_won: true, .. } => Value::Loss,
            _ => Value::Draw,
        }
    }
}

/// The entry that best play gives a position whose turns lead to positions of `entries` (none:
/// the side to move is blocked, and `blocked` says what that gives).
fn derive(blocked: Blocked, entries: &[Entry]) -> Entry {
    if entries.is_empty() {
        return match blocked {
            Blocked::Loss => Entry::loss(0),
            Blocked::Draw => Entry::DRAW,
        };
    }
    let values = || {
        entries
            .iter()
            .map(|entry| (entry.value(), entry.distance()))
    };
    // Win as fast as possible if some turn leaves the opponent lost.
    let quickest_win = values()
        .filter(|(v, _)| *v == Value::Loss)
        .filter_map(|(_, d)| d)
        .min();
    if let Some(d) = quickest_win {
        return Entry::win(d + 1);
    }
    // Lose as slowly as possible if every turn leaves the opponent won.
    if values().all(|(v, _)| v == Value::Win) {
        let slowest = values().filter_map(|(_, d)| d).max().unwrap_or(0);
        return Entry::loss(slowest + 1);
    }
    Entry::DRAW
}

/// Per-material counts: positions, wins, draws, losses, the longest win and loss, and where
/// they are.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MaterialStats {
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub longest_win: u16,
    pub longest_loss: u16,
    /// The first slot (lowest index) holding a win of `longest_win` plies, if any wins.
    pub longest_win_slot: Option<u64>,
    /// The first slot holding a loss of `longest_loss` plies, if any losses.
    pub longest_loss_slot: Option<u64>,
    /// False for a table built for values alone: the longest win and loss are unknown (0).
    pub distances: bool,
}

/// Count the values of one material of `tables`, over all its positions: each slot counts as
/// many positions as it stands for (its orbit under the symmetries; redundant slots none).
pub fn material_stats(tables: &Tables, material: Material) -> Option<MaterialStats> {
    let index = MaterialIndex::new(tables.board(), material);
    let block = index.waiting_sets();
    tables.stored_value(material, 0)?;
    let distances = tables.stored(material, 0).is_some();
    let per_class = (0..index.mover_classes()).into_par_iter().map(|class| {
        let mut stats = MaterialStats::default();
        let mover = index.mover_set(class);
        for (offset, waiting) in index.waiting_sets_of(mover).enumerate() {
            let weight = index.weight(class, waiting);
            let slot = class * block + offset as u64;
            let expect = "the material is in the tables";
            match distances {
                true => stats.add(tables.stored(material, slot).expect(expect), weight, slot),
                false => {
                    stats.add_value(tables.stored_value(material, slot).expect(expect), weight)
                }
            }
        }
        stats
    });
    let stats = per_class.reduce(MaterialStats::default, MaterialStats::merge);
    Some(MaterialStats { distances, ..stats })
}

impl MaterialStats {
    /// Count `entry`, read from `slot` (slots are added in increasing order within a
    /// part of the count, so the first of a distance is kept).
    fn add(&mut self, entry: Entry, weight: u64, slot: u64) {
        if weight == 0 {
            return;
        }
        self.positions += weight;
        match (entry.value(), entry.distance()) {
            (Value::Win, Some(d)) => {
                self.wins += weight;
                if self.longest_win_slot.is_none() || d > self.longest_win {
                    (self.longest_win, self.longest_win_slot) = (d, Some(slot));
                }
            }
            (Value::Loss, Some(d)) => {
                self.losses += weight;
                if self.longest_loss_slot.is_none() || d > self.longest_loss {
                    (self.longest_loss, self.longest_loss_slot) = (d, Some(slot));
                }
            }
            _ => self.draws += weight,
        }
    }

    /// Count `value`, read from a table built for values alone.
    fn add_value(&mut self, value: Value, weight: u64) {
        self.positions += weight;
        match value {
            Value::Win => self.wins += weight,
            Value::Loss => self.losses += weight,
            Value::Draw => self.draws += weight,
        }
    }

    fn merge(self, other: MaterialStats) -> MaterialStats {
        let (longest_win, longest_win_slot) = longer(
            (self.longest_win, self.longest_win_slot),
            (other.longest_win, other.longest_win_slot),
        );
        let (longest_loss, longest_loss_slot) = longer(
            (self.longest_loss, self.longest_loss_slot),
            (other.longest_loss, other.longest_loss_slot),
        );
        MaterialStats {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            longest_win,
            longest_loss,
            longest_win_slot,
            longest_loss_slot,
            distances: self.distances && other.distances,
        }
    }
}

/// Of two (distance, first slot) pairs, the longer distance, and of equal ones the lower
/// slot: the same answer whatever order the parts of a count are merged in.
fn longer(a: (u16, Option<u64>), b: (u16, Option<u64>)) -> (u16, Option<u64>) {
    match (a.1, b.1) {
        (None, _) => b,
        (_, None) => a,
        (Some(slot_a), Some(slot_b)) => match a.0.cmp(&b.0) {
            std::cmp::Ordering::Greater => a,
            std::cmp::Ordering::Less => b,
            std::cmp::Ordering::Equal if slot_a <= slot_b => a,
            std::cmp::Ordering::Equal => b,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::hash::mix;
    use fanorona_engine::Board;

    #[test]
    fn the_children_of_checked_positions_are_in_the_materials_probed() {
        let board = Board::new(5, 5).unwrap();
        for checked in [
            vec![Material::new(3, 2), Material::new(2, 3)],
            vec![Material::new(4, 4)],
            vec![Material::new(2, 4)],
        ] {
            let probed = materials_probed(&checked);
            assert_eq!(&probed[..checked.len()], &checked[..], "checked first");
            let mut seed = 7;
            let mut children_seen = 0;
            for &material in &checked {
                let index = MaterialIndex::new(&board, material);
                for _ in 0..2_000 {
                    seed = mix(seed);
                    let (mover, waiting) = index.position(seed % index.size());
                    let position = Position {
                        mover,
                        waiting,
                        side: Color::White,
                    };
                    let mut kids = Vec::new();
                    children(&board, &position, &mut kids);
                    for child in kids.iter().filter(|c| !c.mover.is_empty()) {
                        let of = Material::of(child.mover, child.waiting);
                        assert!(
                            probed.contains(&of),
                            "{of:?} of {material:?} not in {probed:?}"
                        );
                        children_seen += 1;
                    }
                }
            }
            assert!(children_seen > 2_000);
        }
    }
}
