//! A set of endgame tables for one board, rules and stone count, and probing.
//!
//! Entries live in memory (built in place, for tests and small boards) or in table files,
//! memory-mapped after their header and checksum were checked (see [`crate::file`]).

use crate::disk_room::{self, Room, SystemFiles};
use crate::entry::Entry;
use crate::file::{write_table, write_values, Content, Packing, TableError, TableFile, TableId};
use crate::index::{materials_name, system_materials, Material, MaterialIndex};
use crate::progress::{NoProgress, Progress};
use crate::retrograde::values_only::{self, solve_system_values};
use crate::retrograde::{self, solve_system, temporary_path, Checkpoints, SolvedTable};
use crate::run_lock::RunLock;
use fanorona_engine::movegen::children;
use fanorona_engine::{Blocked, Board, Position, Rules, Value};
use rayon::prelude::*;
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Every material of up to `max_stones` stones on one board, solved, and possibly some
/// materials of more stones (a *partial layer*: the systems built so far, e.g. 4v4 alone of
/// the 8-stone tables, or 1v8 + 8v1 and 1v9 + 9v1 above a whole 8-stone layer).
pub struct Tables {
    board: Board,
    rules: Rules,
    max_stones: usize,
    /// The largest stone count of any material held: `max_stones`, or more with a partial
    /// layer.
    top_stones: usize,
    tables: ByMaterial<(MaterialIndex, Entries)>,
    /// Materials answered one ply into the other tables instead of from a table of their own
    /// (see [`Tables::derive`]).
    derived: ByMaterial<()>,
    /// The files left mapped by a load into memory, probed in place, smallest first (see
    /// [`Tables::warm_files_probed_in_place`]).
    probed_in_place: Vec<(u64, std::path::PathBuf)>,
}

/// A map from material to `T`, by direct indexing (probing looks a material up every time).
struct ByMaterial<T> {
    slots: Vec<Option<(Material, T)>>,
}

impl<T> ByMaterial<T> {
    fn new() -> ByMaterial<T> {
        ByMaterial { slots: Vec::new() }
    }

    fn slot(material: &Material) -> usize {
        material.mover * 65 + material.waiting
    }

    #[inline]
    fn get(&self, material: &Material) -> Option<&T> {
        match self.slots.get(Self::slot(material)) {
            Some(Some((_, value))) => Some(value),
            _ => None,
        }
    }

    fn insert(&mut self, material: Material, value: T) {
        let slot = Self::slot(&material);
        if self.slots.len() <= slot {
            self.slots.resize_with(slot + 1, || None);
        }
        self.slots[slot] = Some((material, value));
    }

    fn remove(&mut self, material: &Material) -> Option<T> {
        let slot = self.slots.get_mut(Self::slot(material))?;
        slot.take().map(|(_, value)| value)
    }

    fn extend(&mut self, other: ByMaterial<T>) {
        for (material, value) in other.slots.into_iter().flatten() {
            self.insert(material, value);
        }
    }

    fn get_mut(&mut self, material: &Material) -> Option<&mut T> {
        match self.slots.get_mut(Self::slot(material)) {
            Some(Some((_, value))) => Some(value),
            _ => None,
        }
    }

    fn values(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten().map(|(_, v)| v)
    }

    fn keys(&self) -> impl Iterator<Item = Material> + '_ {
        self.slots.iter().flatten().map(|(m, _)| *m)
    }
}

/// Where a table's entries are.
enum Entries {
    Memory(Vec<Entry>),
    File(TableFile),
}

impl Entries {
    /// The entry of a slot; `None` from a value file.
    #[inline]
    fn get(&self, index: u64) -> Option<Entry> {
        match self {
            Entries::Memory(entries) => Some(entries[index as usize]),
            Entries::File(file) => file.get(index),
        }
    }

    #[inline]
    fn value(&self, index: u64) -> Value {
        match self {
            Entries::Memory(entries) => entries[index as usize].value(),
            Entries::File(file) => file.value(index),
        }
    }

    /// Start loading slot `index` (see [`crate::prefetch`]).
    #[inline]
    fn prefetch(&self, index: u64) {
        match self {
            Entries::Memory(entries) => crate::prefetch::prefetch(&entries[index as usize]),
            Entries::File(file) => file.prefetch(index),
        }
    }

    /// Start loading the second place a read of slot `index` reads, if any (see
    /// [`TableFile::prefetch_second`]), after [`Entries::prefetch`].
    fn prefetch_second(&self, index: u64) {
        if let Entries::File(file) = self {
            file.prefetch_second(index);
        }
    }

    fn has_distances(&self) -> bool {
        match self {
            Entries::Memory(_) => true,
            Entries::File(file) => file.content() == Content::Entries,
        }
    }
}

/// Where [`Tables::probe_values`] finds a position's value, in its first pass: the game is
/// over, the ranks of its slot in a table, or one ply on.
enum Rank<'a> {
    Over,
    Stored(&'a MaterialIndex, &'a Entries, u64, u64),
    Derived,
}

/// The same in its second pass, with the slot itself.
enum Slot<'a> {
    Over,
    Stored(&'a Entries, u64),
    Derived,
}

/// A position the tables cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// It has more stones than the tables cover.
    NotCovered { stones: usize, max_stones: usize },
    /// Its table was opened from a value file, which holds no distances.
    NoDistances { material: Material },
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::NotCovered { stones, max_stones } => {
                write!(
                    f,
                    "the position has {stones} stones; the tables cover at most {max_stones}"
                )
            }
            ProbeError::NoDistances { material } => write!(
                f,
                "the {material} table was opened from its value file, which has no distances"
            ),
        }
    }
}

impl std::error::Error for ProbeError {}

/// A material that [`Tables::derive`] refuses to answer one ply on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeriveError {
    pub material: Material,
    pub why: WhyNotDerived,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WhyNotDerived {
    /// Its table is not among those opened.
    NotHeld,
    /// Its sides have as many stones each: a paika leads back into the material itself.
    OwnSwap,
    /// A turn leads into this material, derived itself (a probe would go two plies on).
    LeadsToDerived(Material),
    /// A turn leads into this material, which the tables do not hold.
    LeadsToMissing(Material),
}

impl fmt::Display for DeriveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let material = self.material;
        match self.why {
            WhyNotDerived::NotHeld => write!(f, "{material}: no such table in the tables opened"),
            WhyNotDerived::OwnSwap => write!(
                f,
                "{material}: a paika leads back into {material} itself, so it cannot be \
                 answered one ply on"
            ),
            WhyNotDerived::LeadsToDerived(child) => write!(
                f,
                "{material}: its turns lead into {child}, which is derived too (only one \
                 half of a system can be)"
            ),
            WhyNotDerived::LeadsToMissing(child) => write!(
                f,
                "{material}: its turns lead into {child}, which the tables do not hold"
            ),
        }
    }
}

impl std::error::Error for DeriveError {}

/// Why [`Tables::open_available_deriving`] gave no tables: a file, or a material that cannot
/// be answered one ply on.
#[derive(Debug)]
pub enum OpenError {
    Table(TableError),
    Derive(DeriveError),
}

impl From<TableError> for OpenError {
    fn from(error: TableError) -> OpenError {
        OpenError::Table(error)
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Table(error) => write!(f, "{error}"),
            OpenError::Derive(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for OpenError {}

/// The materials of `stones` stones, one of each system (a ≤ b), each side at least one stone.
fn systems(stones: usize) -> impl Iterator<Item = Material> {
    (1..stones)
        .filter(move |&a| a <= stones - a)
        .map(move |a| Material::new(a, stones - a))
}

/// The systems of one stone count to solve together, as ranges of `sizes` (their slots, in
/// the order they are built): as many consecutive systems as fit in half the memory
/// `available` at [`SOLVING_BYTES_PER_SLOT`]; one at a time where it is not known.
fn side_by_side(sizes: &[u64], available: Option<u64>) -> Vec<Range<usize>> {
    let budget = available.map_or(0, |bytes| bytes / 2);
    let mut batches: Vec<Range<usize>> = Vec::new();
    let mut bytes = 0;
    for (k, &size) in sizes.iter().enumerate() {
        let needs = size.saturating_mul(SOLVING_BYTES_PER_SLOT);
        match batches.last_mut() {
            Some(batch) if bytes + needs <= budget => {
                batch.end = k + 1;
                bytes += needs;
            }
            _ => {
                batches.push(k..k + 1);
                bytes = needs;
            }
        }
    }
    batches
}

/// What a system takes per slot while it is solved and written, counted generously: the
/// solver's byte per slot, and the pages of the entry and value files written (2 bytes and
/// a quarter) while the kernel has not yet flushed them.
const SOLVING_BYTES_PER_SLOT: u64 = 3;

/// The progress of systems solved side by side, shown as one phase: each system's own phases
/// are left out (they would replace one another), their work counts toward the one phase.
struct CombinedProgress<'a>(&'a dyn Progress);

impl Progress for CombinedProgress<'_> {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, units: u64) {
        self.0.advance(units);
    }
    fn resumed(&self, units: u64) {
        self.0.resumed(units);
    }
    fn note(&self, message: &str) {
        self.0.note(message);
    }
}

/// The slots of the tables of `material`'s system on `board`.
pub(crate) fn system_slots(board: &Board, material: Material) -> u64 {
    system_materials(material)
        .map(|m| MaterialIndex::size_of(board, m))
        .sum()
}

/// The system of a material: the material and its swap, solved together, smaller mover first.
pub fn system_of(material: Material) -> Material {
    if material.mover <= material.waiting {
        material
    } else {
        material.swapped()
    }
}

/// Which table files a build makes: every material of `board` up to `max_stones` (with
/// `only`, of the top stone count just that material's system), in `directory`.
#[derive(Clone, Copy)]
pub struct BuildRequest<'a> {
    pub board: &'a Board,
    pub rules: Rules,
    pub max_stones: usize,
    pub only: Option<Material>,
    pub directory: &'a Path,
}

/// What a build did with one system (a material and its swap).
#[derive(Clone, Debug)]
pub struct SystemBuild {
    /// The system's material with the smaller mover first, e.g. 3v5 for 3v5 + 5v3.
    pub system: Material,
    /// Its slots, both materials.
    pub slots: u64,
    /// True if it was solved now, false if its files were there and whole.
    pub built: bool,
    /// How long it took (opening and checking its files when it was not built).
    pub seconds: f64,
}

/// How a build of table files is made, saves its state and stops.
pub struct BuildControl<'a> {
    /// The least time between two saves of a system's state.
    pub checkpoint_every: Duration,
    /// When set (on Ctrl-C), the build saves the state of the system it is solving and stops
    /// with [`TableError::Stopped`].
    pub stop: Option<&'a AtomicBool>,
    /// The top stone count solved for values alone ([`crate::retrograde::values_only`]): value
    /// files and no entry files, 3 bits a position while solving instead of a byte.
    pub values_only: bool,
    /// For values alone: the positions a frontier bit stands for (1, or a power of two up to
    /// [`crate::retrograde::values_only::MAX_FRONTIER_BLOCK`], to save memory).
    pub frontier_block: u64,
    /// The memory the build may use, in bytes (what the machine has available when it
    /// starts). Half of it bounds the systems of one stone count solved side by side; and
    /// for values alone, beyond what the system takes to solve and 2 GiB, the smaller tables
    /// its captures lead to are copied into memory, so that their random reads miss the TLB
    /// less. `None`: one system at a time, and the smaller tables left in their mapped files.
    pub available_memory: Option<u64>,
}

impl Default for BuildControl<'_> {
    /// A save every 20 minutes (40 s for the largest system built, 3v5 + 5v3: 6.1 GB); no
    /// stop.
    fn default() -> Self {
        BuildControl {
            checkpoint_every: Duration::from_secs(1200),
            stop: None,
            values_only: false,
            frontier_block: 1,
            available_memory: None,
        }
    }
}

/// The state file of a system's build, named after its first material: `5x9-loss-3v5.fnpart`.
pub fn checkpoint_name(board: &Board, rules: &Rules, material: Material) -> PathBuf {
    Path::new(&TableId::new(board, rules, material).file_name()).with_extension("fnpart")
}

/// The state file of a system's values-only build: `5x9-loss-3v6.values.fnpart`.
pub fn values_checkpoint_name(board: &Board, rules: &Rules, material: Material) -> PathBuf {
    checkpoint_name(board, rules, material).with_extension("values.fnpart")
}

/// The lock a build of the system of `material` holds while it solves and writes it (the
/// same for a build for values alone): `5x9-loss-4v5.lock`.
fn build_lock_path(tables: &Tables, material: Material, directory: &Path) -> PathBuf {
    let state = checkpoint_name(&tables.board, &tables.rules, material);
    crate::run_lock::lock_beside(&directory.join(state))
}

/// Refuse a build that the disk of `directory` has no room for (see [`disk_room`]), before it
/// starts rather than hours in, at a save.
fn check_room(directory: &Path, room: Room) -> Result<(), TableError> {
    match room.shortfall(disk_room::free_bytes(directory)) {
        Some(why) => Err(TableError::NoRoom {
            directory: directory.to_path_buf(),
            why,
        }),
        None => Ok(()),
    }
}

/// Bytes of the state saved in `path`, 0 if there is none.
fn saved_bytes(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |saved| saved.len())
}

/// Remove a system's state file, and the temporary one a save killed midway leaves.
fn remove_checkpoint(path: &Path) -> Result<(), TableError> {
    remove_if_present(path)?;
    remove_if_present(&temporary_path(path))
}

/// Remove the file `path`; one that is not there is no error.
pub(crate) fn remove_if_present(path: &Path) -> Result<(), TableError> {
    match std::fs::remove_file(path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(TableError::Io {
            path: path.to_path_buf(),
            error,
        }),
        _ => Ok(()),
    }
}

/// Every material of 2 to `max_stones` stones (each side at least one), smallest first.
pub fn materials(max_stones: usize) -> impl Iterator<Item = Material> {
    (2..=max_stones).flat_map(|n| (1..n).map(move |a| Material::new(a, n - a)))
}

/// The materials of fewer stones than `system`'s that its positions can come to by captures,
/// smallest first: each side keeps at most the stones it has (4v5 + 5v4 comes to 3v5 and
/// 4v4, never to 2v6). What a build of the system probes, one capture or more on; a build
/// with `--only` makes these first, and a check of the system opens them.
pub fn reached_by_captures(system: Material) -> impl Iterator<Item = Material> {
    let (a, b) = (system.mover, system.waiting);
    materials(system.stones() - 1)
        .filter(move |m| (m.mover <= a && m.waiting <= b) || (m.mover <= b && m.waiting <= a))
}

/// The most stones a table of `board` can hold: the largest count whose every material the
/// index can number (11 on 5x9, where ten stones to move are the most it numbers; every
/// point on the small boards). Far more than any machine can build; the limit is the format's.
pub fn most_table_stones(board: &Board) -> usize {
    (2..=board.points())
        .take_while(|&n| (1..n).all(|a| MaterialIndex::can_number(board, Material::new(a, n - a))))
        .last()
        .unwrap_or(0)
}

/// Whether both materials of `material`'s system (each side to move) can be numbered: what
/// a table of it, and a query of its positions, need.
pub fn system_can_be_numbered(board: &Board, material: Material) -> bool {
    [material, material.swapped()]
        .into_iter()
        .all(|m| MaterialIndex::can_number(board, m))
}

impl Tables {
    fn empty(board: &Board, rules: Rules) -> Tables {
        Tables {
            board: board.clone(),
            rules,
            max_stones: 0,
            top_stones: 0,
            tables: ByMaterial::new(),
            derived: ByMaterial::new(),
            probed_in_place: Vec::new(),
        }
    }

    /// Solve every material with 2 to `max_stones` stones in memory, smallest first, each
    /// system of (a, b) and (b, a) together, and the systems of one stone count side by side
    /// (they probe only smaller ones).
    pub fn build(board: &Board, rules: Rules, max_stones: usize) -> Tables {
        let mut tables = Tables::empty(board, rules);
        for stones in 2..=max_stones.min(board.points()) {
            let level: Vec<Material> = systems(stones).collect();
            let solved: Vec<_> = level
                .par_iter()
                .map(|&material| tables.solve(material, &NoProgress, None))
                .collect();
            for solved in solved {
                for solved in solved.expect("a build in memory neither saves nor stops") {
                    let entries = Entries::Memory(solved.entries().collect());
                    tables
                        .tables
                        .insert(solved.index.material(), (solved.index, entries));
                }
            }
            tables.set_complete(stones);
        }
        tables
    }

    /// Every stone count up to `stones` is complete.
    fn set_complete(&mut self, stones: usize) {
        self.max_stones = stones;
        self.top_stones = self.top_stones.max(stones);
    }

    /// Set the complete stone counts and the top from the materials held (or derived): every
    /// material of up to `max_stones` stones, and some of more up to `top_stones`.
    fn set_reach_from_held(&mut self) {
        let held = |m: Material| self.tables.get(&m).is_some() || self.is_derived(m);
        let top = materials(self.board.points())
            .filter(|&m| held(m))
            .map(|m| m.stones())
            .max()
            .unwrap_or(0);
        let whole = |n: usize| (1..n).all(|a| held(Material::new(a, n - a)));
        self.max_stones = (2..=top).take_while(|&n| whole(n)).last().unwrap_or(0);
        self.top_stones = top;
    }

    /// Build the table files of every material up to `max_stones` in `directory`, skipping
    /// those already there and whole; a damaged one is rebuilt. Returns the tables, mapped.
    /// With `only`, the top stone count gets just that material's system (a partial layer).
    /// Each system's state is saved beside its files as `control` says, and a build stopped
    /// or killed goes on from there when run again.
    pub fn build_files(
        board: &Board,
        rules: Rules,
        max_stones: usize,
        only: Option<Material>,
        directory: &Path,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Result<Tables, TableError> {
        let request = BuildRequest {
            board,
            rules,
            max_stones,
            only,
            directory,
        };
        Ok(Tables::build_files_reporting(&request, control, progress)?.0)
    }

    /// [`Tables::build_files`], also saying of each system it went through whether it was
    /// built now or found whole, and how long it took.
    pub fn build_files_reporting(
        request: &BuildRequest,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Result<(Tables, Vec<SystemBuild>), TableError> {
        let BuildRequest {
            board,
            rules,
            max_stones,
            only,
            directory,
        } = *request;
        let mut systems_built = Vec::new();
        std::fs::create_dir_all(directory).map_err(|error| TableError::NoDirectory {
            path: directory.to_path_buf(),
            error,
        })?;
        let mut tables = Tables::empty(board, rules);
        let top = max_stones.min(board.points());
        let only = only.map(system_of);
        for stones in 2..=top {
            let whole_level: Vec<Material> = systems(stones).collect();
            let level: Vec<Material> = match only {
                None => whole_level.clone(),
                Some(only) if stones == top => vec![only],
                Some(only) => reached_by_captures(only)
                    .filter(|&m| m.stones() == stones && m == system_of(m))
                    .collect(),
            };
            // The top, and a level of which the top reaches only some systems (1v8 + 8v1 of
            // the 9-stone level, under 1v9 + 9v1), are beyond the whole layers: values alone.
            let values_only = control.values_only && (stones == top || level != whole_level);
            systems_built.extend(tables.build_level(
                &level,
                values_only,
                directory,
                control,
                progress,
            )?);
        }
        tables.set_reach_from_held();
        Ok((tables, systems_built))
    }

    /// Build the systems `level` of one stone count: those already there and whole are
    /// opened, and the others solved, for values alone with `values_only`. Systems of one stone
    /// count probe only smaller ones, so they are solved side by side as far as the memory
    /// available allows (see [`side_by_side`]): on many cores, one system's short parallel
    /// passes leave threads idle that the others' work fills.
    fn build_level(
        &mut self,
        level: &[Material],
        values_only: bool,
        directory: &Path,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Result<Vec<SystemBuild>, TableError> {
        let mut reports = Vec::new();
        let mut to_solve = Vec::new();
        // Held until the systems solved are written.
        let mut locks = Vec::new();
        for &material in level {
            let clock = Instant::now();
            if values_only {
                let built = self.build_values_only(material, directory, control, progress)?;
                reports.push(self.report(material, built, clock));
            } else if self.open_built_system(material, directory, control, progress)? {
                reports.push(self.report(material, false, clock));
            } else {
                let lock = RunLock::take(&build_lock_path(self, material, directory))?;
                // Another run may have finished it between the look and the lock.
                if self.open_built_system(material, directory, control, progress)? {
                    reports.push(self.report(material, false, clock));
                } else {
                    locks.push(lock);
                    to_solve.push(material);
                }
            }
        }
        let sizes: Vec<u64> = to_solve
            .iter()
            .map(|&m| system_slots(&self.board, m))
            .collect();
        for batch in side_by_side(&sizes, control.available_memory) {
            let (batch, batch_sizes) = (&to_solve[batch.clone()], &sizes[batch]);
            check_room(directory, self.room_for_full_build(batch, directory))?;
            let slots_solved = batch_sizes.iter().sum();
            let solved = self.solve_side_by_side(batch, slots_solved, directory, control, progress);
            // Every system solved is written before any error is returned, so that a stop
            // loses none of them (the others saved their state).
            let mut first_error = None;
            for ((&material, &slots), (solved, seconds)) in
                batch.iter().zip(batch_sizes).zip(solved)
            {
                let clock = Instant::now();
                let written = solved
                    .and_then(|solved| self.write_solved(material, solved, directory, progress));
                let seconds = seconds + clock.elapsed().as_secs_f64();
                match written {
                    Ok(()) => reports.push(SystemBuild {
                        system: material,
                        slots,
                        built: true,
                        seconds,
                    }),
                    Err(error) => first_error = first_error.or(Some(error)),
                }
            }
            if let Some(error) = first_error {
                return Err(error);
            }
        }
        reports.sort_by_key(|report| level.iter().position(|&m| m == report.system));
        Ok(reports)
    }

    /// What a build of the system of `material` reports.
    fn report(&self, material: Material, built: bool, clock: Instant) -> SystemBuild {
        SystemBuild {
            system: material,
            slots: system_slots(&self.board, material),
            built,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }

    /// Open the system of `material` from its entry files (its value files for a build for
    /// values alone), writing value files that are missing. False when it must be solved.
    fn open_built_system(
        &mut self,
        material: Material,
        directory: &Path,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Result<bool, TableError> {
        // A values-only build probes the smaller tables for their values alone, so their
        // value files are enough (their entry files may have been deleted to make room).
        let needed = if control.values_only {
            Content::Values
        } else {
            Content::Entries
        };
        if self
            .open_system(material, needed, directory, progress)
            .is_err()
        {
            return Ok(false);
        }
        if needed == Content::Entries {
            for side in system_materials(material) {
                self.ensure_value_file(side, directory, progress)?;
            }
        }
        Ok(true)
    }

    /// Solve the systems `batch` (of `slots` in all) at once, each from its saved state if it
    /// has one, with the seconds each took; one system reports its own progress, several one
    /// bar for all.
    fn solve_side_by_side(
        &self,
        batch: &[Material],
        slots: u64,
        directory: &Path,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Vec<(Result<Vec<SolvedTable>, TableError>, f64)> {
        let checkpoints = |material| Checkpoints {
            path: directory.join(checkpoint_name(&self.board, &self.rules, material)),
            every: control.checkpoint_every,
            stop: control.stop,
        };
        let timed = |material, progress: &dyn Progress| {
            let clock = Instant::now();
            let solved = self.solve(material, progress, Some(&checkpoints(material)));
            (solved, clock.elapsed().as_secs_f64())
        };
        if let [material] = batch {
            return vec![timed(*material, progress)];
        }
        let names: Vec<String> = batch
            .iter()
            .map(|&m| materials_name(system_materials(m)))
            .collect();
        // Each position counts twice: once in the captures, once when the paika decide it
        // (the positions they never decide, draws, are not counted: the bar ends short).
        progress.phase(&format!("{}, side by side", names.join(", ")), 2 * slots);
        let combined = CombinedProgress(progress);
        batch
            .par_iter()
            .map(|&material| timed(material, &combined))
            .collect()
    }

    /// Write the solved tables of `material`'s system (entries and values), hold them mapped,
    /// and remove the system's saved state.
    fn write_solved(
        &mut self,
        material: Material,
        solved: Vec<SolvedTable>,
        directory: &Path,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        for solved in solved {
            let id = TableId::new(&self.board, &self.rules, solved.index.material());
            let path = write_table(directory, &id, solved.entries())?;
            progress.note(&format!("wrote {}", path.display()));
            let path = write_table(directory, &id.values(), solved.entries())?;
            progress.note(&format!("wrote {}", path.display()));
            let file = TableFile::open(directory, &id, solved.index.size())?;
            self.tables
                .insert(solved.index.material(), (solved.index, Entries::File(file)));
        }
        remove_checkpoint(&directory.join(checkpoint_name(&self.board, &self.rules, material)))
    }

    /// Solve the system of `material` for values alone and write its value files, unless
    /// they are there and whole. The smaller materials are probed in their value files.
    fn build_values_only(
        &mut self,
        material: Material,
        directory: &Path,
        control: &BuildControl,
        progress: &dyn Progress,
    ) -> Result<bool, TableError> {
        let built = |tables: &mut Tables| {
            tables
                .open_system(material, Content::Values, directory, progress)
                .is_ok()
        };
        if built(self) {
            return Ok(false);
        }
        let _lock = RunLock::take(&build_lock_path(self, material, directory))?;
        // Another run may have finished it between the look and the lock.
        if built(self) {
            return Ok(false);
        }
        let state = directory.join(values_checkpoint_name(&self.board, &self.rules, material));
        let slots = system_slots(&self.board, material);
        let files = SystemFiles {
            state: values_only::solving_bytes(slots, control.frontier_block),
            written: self.file_bytes(material, &[Content::Values]),
            saved: saved_bytes(&state),
        };
        check_room(directory, Room::of_systems([files]))?;
        // Only what its captures reach: above the whole layers, other systems of the same
        // stone counts (3v6 + 6v3 beside 1v8 + 8v1) are gigabytes it never probes.
        let mut smaller = Tables::empty(&self.board, self.rules);
        for smaller_material in reached_by_captures(system_of(material)) {
            smaller.open_table_of(smaller_material, Content::Values, directory)?;
        }
        smaller.set_reach_from_held();
        if let Some(available) = control.available_memory {
            let slots = system_slots(&self.board, material);
            let solving = values_only::solving_bytes(slots, control.frontier_block);
            let budget = available.saturating_sub(solving + (2 << 30));
            smaller.copy_probed_into_memory(material, budget, progress)?;
        }
        let probe = |positions: &[Position], out: &mut Vec<Value>| {
            smaller
                .probe_values(positions, out)
                .expect("smaller materials are solved first")
        };
        let checkpoints = Checkpoints {
            path: state,
            every: control.checkpoint_every,
            stop: control.stop,
        };
        let solved = solve_system_values(
            &self.board,
            &self.rules,
            material,
            control.frontier_block,
            &probe,
            progress,
            Some(&checkpoints),
        )?;
        for solved in solved {
            let id = TableId::new(&self.board, &self.rules, solved.index.material()).values();
            let path = write_values(directory, &id, solved.values())?;
            progress.note(&format!("wrote {}", path.display()));
            let file = TableFile::open(directory, &id, solved.index.size())?;
            self.tables
                .insert(solved.index.material(), (solved.index, Entries::File(file)));
        }
        remove_checkpoint(&checkpoints.path)?;
        Ok(true)
    }

    /// Bytes of the files of `contents` that a build of `material`'s system writes.
    fn file_bytes(&self, material: Material, contents: &[Content]) -> u64 {
        let sizes = system_materials(material).map(|m| MaterialIndex::size_of(&self.board, m));
        sizes
            .flat_map(|size| contents.iter().map(move |c| c.payload_bytes(size)))
            .sum()
    }

    /// What a full build of the systems of `batch`, solved side by side, needs on the disk
    /// of `directory`.
    fn room_for_full_build(&self, batch: &[Material], directory: &Path) -> Room {
        let both = [Content::Entries, Content::Values];
        Room::of_systems(batch.iter().map(|&material| {
            let state = directory.join(checkpoint_name(&self.board, &self.rules, material));
            SystemFiles {
                state: retrograde::saved_state_bytes(&self.board, material),
                written: self.file_bytes(material, &both),
                saved: saved_bytes(&state),
            }
        }))
    }

    /// Copy the tables that the captures of `material`'s system probe into memory, as far
    /// as `budget` bytes hold them, saying how long it took and how much
    /// was left in the mapped files.
    fn copy_probed_into_memory(
        &mut self,
        material: Material,
        budget: u64,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let materials = crate::verify::materials_probed(&[material, material.swapped()]);
        let clock = Instant::now();
        let mapped = self.load_materials_into_memory(&materials, budget)?;
        progress.note(&format!(
            "the smaller tables its captures probe copied into memory in {:.1} s",
            clock.elapsed().as_secs_f64()
        ));
        if mapped > 0 {
            progress.note(&format!(
                "{:.1} GB of the smaller tables left in their mapped files (not enough memory \
                 to copy them)",
                mapped as f64 / 1e9
            ));
        }
        Ok(())
    }

    /// Open the table files of every material up to `max_stones` in `directory`; with
    /// `only`, of the top stone count just that material's system, over the materials its
    /// captures reach ([`reached_by_captures`]): the entry files, else (built for values
    /// alone) the value files. Below a top with distances, the entry files only.
    pub fn open(
        board: &Board,
        rules: Rules,
        max_stones: usize,
        only: Option<Material>,
        directory: &Path,
    ) -> Result<Tables, TableError> {
        let mut tables = Tables::empty(board, rules);
        let top = max_stones.min(board.points());
        let partial = only.map(system_of);
        let top_layer = materials(top).filter(|m| m.stones() == top);
        for material in top_layer.filter(|&m| partial.is_none_or(|p| p == system_of(m))) {
            // The top layer may have been built for values alone.
            tables.open_entries_else_values(material, directory, false)?;
        }
        // Over a top with distances, the layers below need their entry files, whose
        // distances its check needs. Over a top built for values alone, checked one ply deep,
        // their values are enough: their value files are opened where their entry files are
        // missing (a build for values alone needs no more, so they may have been deleted).
        let values_only_top = !tables.tables.values().any(|(_, e)| e.has_distances());
        // Below one system, what its captures reach (all a check of it reads); below a
        // whole layer, every material.
        let below: Vec<Material> = match partial {
            Some(system) => reached_by_captures(system).collect(),
            None => materials(top - 1).collect(),
        };
        for material in below {
            match values_only_top {
                true => tables.open_entries_else_values(material, directory, false)?,
                false => tables.open_table_of(material, Content::Entries, directory)?,
            }
        }
        tables.set_reach_from_held();
        Ok(tables)
    }

    /// Open the tables that the value of `position` and of each of its turns are read from
    /// (its own material, the swap that its quiet turns lead to, and the materials its
    /// captures leave), from their entry files, else (a material built for values alone)
    /// their value files, checking each file's size and header now and its blocks as they are
    /// read: call [`Tables::check_probes`] before probing. A query then reads kilobytes of a
    /// file of gigabytes, not all of it (see [`crate::block_sums`]).
    pub fn open_for_position(
        board: &Board,
        rules: Rules,
        position: &Position,
        directory: &Path,
    ) -> Result<Tables, TableError> {
        let mut tables = Tables::empty(board, rules);
        let own = Material::of(position.mover, position.waiting);
        let captures = (1..own.waiting).map(|left| Material::new(left, own.mover));
        for material in [own, own.swapped()].into_iter().chain(captures) {
            if material.mover > 0 && material.waiting > 0 {
                tables.open_entries_else_values(material, directory, true)?;
            }
        }
        // Only the materials named are held: no stone count is complete.
        tables.top_stones = own.stones();
        Ok(tables)
    }

    /// Open the tables a certificate's leaves are read from: every material of up to
    /// `max_stones` stones and each of `more` (a partial layer), each file's size and header
    /// checked now and its blocks as they are read, as for [`Tables::open_for_position`]:
    /// a check reads the blocks its leaves fall in, not tens of gigabytes. A leaf needs only
    /// its value, so each material's value file is read where it is there (an eighth of the
    /// entry file, which `tables verify` checks it against), else its entry file: over the
    /// 8-stone layer of 5x9 the leaves of a large certificate fall in most of the blocks of
    /// its 28 GB of entry files, more than a machine keeps in its page cache, where the value
    /// files' 3.5 GB fit.
    pub fn open_for_leaves(
        board: &Board,
        rules: Rules,
        max_stones: usize,
        more: &[Material],
        directory: &Path,
    ) -> Result<Tables, TableError> {
        let mut tables = Tables::empty(board, rules);
        let max_stones = max_stones.min(board.points());
        for material in materials(max_stones).chain(more.iter().copied()) {
            tables.open_by_blocks(material, Content::Values, directory)?;
        }
        tables.set_complete(max_stones);
        let top = more.iter().map(|m| m.stones()).max().unwrap_or(0);
        tables.top_stones = tables.top_stones.max(top);
        Ok(tables)
    }

    /// Open `material`'s file with `content` by blocks, unless it is open already (a value
    /// file that is missing falls back to the entry file, as in [`Tables::open_table_of`]).
    fn open_by_blocks(
        &mut self,
        material: Material,
        content: Content,
        directory: &Path,
    ) -> Result<(), TableError> {
        if self.tables.get(&material).is_none() {
            self.open_file_with(material, content, directory, TableFile::open_by_blocks)?;
        }
        Ok(())
    }

    /// Open a material's entry file, else (a material built for values alone) its value file;
    /// whole, or `by_blocks` (see [`Tables::open_by_blocks`]). If neither is there, the entry
    /// file is named missing.
    fn open_entries_else_values(
        &mut self,
        material: Material,
        directory: &Path,
        by_blocks: bool,
    ) -> Result<(), TableError> {
        let mut open = |content| match by_blocks {
            true => self.open_by_blocks(material, content, directory),
            false => self.open_table_of(material, content, directory),
        };
        match open(Content::Entries) {
            Err(TableError::Missing { path }) => match open(Content::Values) {
                Err(TableError::Missing { .. }) => Err(TableError::Missing { path }),
                opened => opened,
            },
            opened => opened,
        }
    }

    /// Check the blocks of the table files that probing `positions` reads (for tables opened
    /// with [`Tables::open_for_position`] or [`Tables::open_for_leaves`]; others were checked
    /// whole when opened). Positions the tables do not hold are left to the probe to refuse.
    pub fn check_probes(&self, positions: &[Position]) -> Result<(), TableError> {
        for position in positions {
            let material = Material::of(position.mover, position.waiting);
            if let Some((index, Entries::File(file))) = self.tables.get(&material) {
                file.check_slot(index.index(position.mover, position.waiting))?;
            }
        }
        Ok(())
    }

    /// Open every complete stone count of tables in `directory`, up to `max_stones`: the
    /// largest n such that every material of n stones or fewer has its file; and of the stone
    /// counts above it (up to `max_stones`), whatever materials have their files (a partial
    /// layer). A file that is there but damaged is an error; a missing directory gives tables
    /// of no stones.
    /// With `content` [`Content::Values`] it opens the value files where they are (a search
    /// needs no distances, and they are an eighth of the size), else the entry files.
    pub fn open_available(
        board: &Board,
        rules: Rules,
        max_stones: usize,
        content: Content,
        directory: &Path,
    ) -> Result<Tables, TableError> {
        let mut tables = Tables::empty(board, rules);
        tables.open_layers(max_stones, content, directory)?;
        Ok(tables)
    }

    /// [`Tables::open_available`], with the materials of `derive` answered one ply on (see
    /// [`Tables::derive`]): their files are neither opened nor read (a 9-stone one is gigabytes
    /// read for its checksum), and a stone count they belong to is complete without them.
    /// Refused, naming the material, if one cannot be answered so with the tables there.
    pub fn open_available_deriving(
        board: &Board,
        rules: Rules,
        max_stones: usize,
        content: Content,
        directory: &Path,
        derive: &[Material],
    ) -> Result<Tables, OpenError> {
        let mut tables = Tables::empty(board, rules);
        for &material in derive {
            tables.derived.insert(material, ());
        }
        tables.open_layers(max_stones, content, directory)?;
        for &material in derive {
            if let Some(why) = tables.why_not_derivable(material) {
                return Err(OpenError::Derive(DeriveError { material, why }));
            }
        }
        Ok(tables)
    }

    /// Open the stone counts as [`Tables::open_available`] says, the derived materials
    /// passed over (counted as there).
    fn open_layers(
        &mut self,
        max_stones: usize,
        content: Content,
        directory: &Path,
    ) -> Result<(), TableError> {
        for stones in 2..=max_stones.min(self.board.points()) {
            let mut opened = Tables::empty(&self.board, self.rules);
            let complete = (1..stones)
                .map(|a| Material::new(a, stones - a))
                .filter(|&material| !self.is_derived(material))
                .try_for_each(|material| opened.open_table_of(material, content, directory));
            match complete {
                Ok(()) => {
                    self.tables.extend(opened.tables);
                    self.set_complete(stones);
                }
                Err(TableError::Missing { .. }) => {
                    // Above the whole layers, whatever systems are there, each built over the
                    // smaller ones its captures reach (1v9 + 9v1 over 1v8 + 8v1, without the
                    // rest of the 9-stone layer).
                    for stones in stones..=max_stones.min(self.board.points()) {
                        self.open_partial_layer(stones, content, directory)?;
                    }
                    break;
                }
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Open whichever materials of `stones` stones have their files.
    fn open_partial_layer(
        &mut self,
        stones: usize,
        content: Content,
        directory: &Path,
    ) -> Result<(), TableError> {
        let materials: Vec<Material> = (1..stones)
            .map(|a| Material::new(a, stones - a))
            .filter(|&material| !self.is_derived(material))
            .collect();
        for material in materials {
            match self.open_table_of(material, content, directory) {
                Ok(()) => self.top_stones = self.top_stones.max(stones),
                Err(TableError::Missing { .. }) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(())
    }

    /// Open both files of a system with `content` if they are there and whole (a value file
    /// falls back to the entry file); say why not otherwise.
    fn open_system(
        &mut self,
        material: Material,
        content: Content,
        directory: &Path,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let result = self
            .open_table_of(material, content, directory)
            .and_then(|_| self.open_table_of(material.swapped(), content, directory));
        match &result {
            Ok(()) => progress.note(&format!(
                "{}: already built and whole, skipped",
                materials_name(system_materials(material))
            )),
            Err(TableError::Missing { .. }) => {}
            Err(error) => progress.note(&format!("{error}: rebuilding it")),
        }
        result
    }

    /// Open a material's file with `content`; a search's value file that is missing falls
    /// back to the entry file.
    fn open_table_of(
        &mut self,
        material: Material,
        content: Content,
        directory: &Path,
    ) -> Result<(), TableError> {
        self.open_file_with(material, content, directory, TableFile::open)
    }

    /// Open the first present of `material`'s files with `content` (see
    /// [`Tables::candidates`]) by `open` (whole, or by blocks), and hold it.
    fn open_file_with(
        &mut self,
        material: Material,
        content: Content,
        directory: &Path,
        open: fn(&Path, &TableId, u64) -> Result<TableFile, TableError>,
    ) -> Result<(), TableError> {
        let candidates =
            Self::candidates(TableId::new(&self.board, &self.rules, material), content);
        let (id, index) = self.index_of_present(material, &candidates, directory)?;
        let file = open(directory, &id, index.size())?;
        self.tables.insert(material, (index, Entries::File(file)));
        Ok(())
    }

    /// The files to open for `content`, in order of preference: a value file falls back to
    /// the entry file of the same material (`entries`).
    fn candidates(entries: TableId, content: Content) -> Vec<TableId> {
        match content {
            Content::Entries => vec![entries],
            Content::Values => vec![entries.values(), entries],
        }
    }

    /// The first of `material`'s files `ids` (in order of preference) that is in `directory`,
    /// and the material's index. Numbering a material takes memory in proportion to its
    /// mover's sets (most of a gigabyte for eight stones a side on 5x9), and a large one cannot
    /// be numbered at all, so a material with no file is named missing before it is numbered.
    fn index_of_present(
        &self,
        material: Material,
        ids: &[TableId],
        directory: &Path,
    ) -> Result<(TableId, MaterialIndex), TableError> {
        let path_of = |id: &TableId| directory.join(id.file_name());
        let Some(&id) = ids.iter().find(|id| path_of(id).exists()) else {
            let last = ids.last().expect("a file to look for");
            return Err(TableError::Missing {
                path: path_of(last),
            });
        };
        if !MaterialIndex::can_number(&self.board, material) {
            return Err(TableError::TooLarge { path: path_of(&id) });
        }
        Ok((id, MaterialIndex::new(&self.board, material)))
    }

    /// Write a material's value file from its (opened) entry file if it is missing or damaged.
    fn ensure_value_file(
        &self,
        material: Material,
        directory: &Path,
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        let (index, entries) = self.tables.get(&material).expect("opened");
        let id = TableId::new(&self.board, &self.rules, material).values();
        match TableFile::open(directory, &id, index.size()) {
            Ok(_) => return Ok(()),
            Err(TableError::Missing { .. }) => {}
            Err(error) => progress.note(&format!("{error}: writing it again")),
        }
        let all = (0..index.size() as usize).map(|i| entries.get(i as u64).expect("an entry file"));
        let path = write_table(directory, &id, all)?;
        progress.note(&format!("wrote {}", path.display()));
        Ok(())
    }

    /// Whether the value file of a material held agrees with its entries: how many slots do
    /// not (none, if all is well), or the file's error.
    pub fn check_value_file(
        &self,
        material: Material,
        directory: &Path,
    ) -> Result<u64, TableError> {
        let (index, entries) = self.tables.get(&material).expect("a material held");
        let id = TableId::new(&self.board, &self.rules, material).values();
        let values = TableFile::open(directory, &id, index.size())?;
        Ok((0..index.size())
            .into_par_iter()
            .filter(|&i| entries.value(i) != values.value(i))
            .count() as u64)
    }

    /// Copy every table file into memory (huge pages where available), for faster random
    /// probes in long jobs; the files were checked when opened. If memory runs out, the tables
    /// not yet copied stay mapped, and the error says so.
    pub fn load_into_memory(&mut self) -> Result<(), TableError> {
        self.load_into_memory_within(u64::MAX).map(|_| ())
    }

    /// [`Tables::load_into_memory`], smallest stone counts first, as long as the copies take at
    /// most `budget` bytes in all; the files past it stay mapped (their pages are cached as
    /// memory allows). Returns the bytes of the files left mapped.
    pub fn load_into_memory_within(&mut self, budget: u64) -> Result<u64, TableError> {
        let mut order: Vec<(usize, u64, Material)> = self
            .tables
            .keys()
            .filter_map(|material| match self.tables.get(&material) {
                // By the file's size: a copy's is known only once the file is read.
                Some((_, Entries::File(file))) => {
                    Some((material.stones(), file.mapped_bytes(), material))
                }
                _ => None,
            })
            .collect();
        order.sort_unstable();
        let materials: Vec<Material> = order.iter().map(|&(_, _, material)| material).collect();
        self.load_materials_into_memory(&materials, budget)
    }

    /// Copy the files of `materials` into memory in that order, each that fits in what is
    /// left of `budget` bytes (see [`Tables::load_into_memory`]); materials not held, or
    /// already in memory, are passed over. Those left mapped are probed in place, at random
    /// (see [`TableFile::probe_at_random`]). Returns their bytes.
    pub fn load_materials_into_memory(
        &mut self,
        materials: &[Material],
        budget: u64,
    ) -> Result<u64, TableError> {
        let (mut copied, mut mapped) = (0u64, 0u64);
        let packing = self.packing_within(materials, budget);
        for &material in materials {
            let Some((file_bytes, copy_bytes)) = self.file_and_copy_bytes(material, packing) else {
                continue;
            };
            if copied + copy_bytes > budget {
                mapped += file_bytes;
                self.probe_in_place(material);
                continue;
            }
            copied += copy_bytes;
            self.load_one_into_memory(material, packing)?;
        }
        Ok(mapped)
    }

    /// Leave the file of `material` mapped, to be probed at random.
    fn probe_in_place(&mut self, material: Material) {
        if let Some((_, Entries::File(file))) = self.tables.get(&material) {
            file.probe_at_random();
            let file = (file.mapped_bytes(), file.path().to_path_buf());
            if !self.probed_in_place.contains(&file) {
                self.probed_in_place.push(file);
                self.probed_in_place.sort_unstable();
            }
        }
    }

    /// Read the files that a load into memory left mapped into the page cache, in the
    /// background, smallest first and as many as the cache can hold (see
    /// [`crate::page_cache::warm_in_background`]): at the start of a search, and after
    /// anything that pushed them out. Returns whether a reading was started.
    pub fn warm_files_probed_in_place(&self) -> bool {
        crate::page_cache::warm_in_background(self.files_probed_in_place())
    }

    /// Whether a load into memory left any file mapped, probed in place.
    pub fn has_files_probed_in_place(&self) -> bool {
        !self.probed_in_place.is_empty()
    }

    /// The files that a load into memory left mapped, smallest first.
    pub fn files_probed_in_place(&self) -> Vec<std::path::PathBuf> {
        let files = self.probed_in_place.iter().map(|(_, path)| path.clone());
        files.collect()
    }

    /// How to pack copies of the files of `materials` in `budget` bytes: the fastest to
    /// read if they all fit so, else the smallest (lopsided value files a half to a tenth
    /// of five values a byte, each read a few nanoseconds slower: data/results.md,
    /// "Sixty-seventh session").
    fn packing_within(&self, materials: &[Material], budget: u64) -> Packing {
        let fastest = materials.iter().filter_map(|&material| {
            self.file_and_copy_bytes(material, Packing::Fastest)
                .map(|(_, copy_bytes)| copy_bytes)
        });
        match fastest.sum::<u64>() <= budget {
            true => Packing::Fastest,
            false => Packing::Smallest,
        }
    }

    /// The bytes of the mapped file of `material` and those a copy in memory packed so
    /// takes ([`TableFile::copy_bytes`]); none if it is in memory or not held.
    fn file_and_copy_bytes(&self, material: Material, packing: Packing) -> Option<(u64, u64)> {
        match self.tables.get(&material) {
            Some((_, Entries::File(file))) => Some((file.mapped_bytes(), file.copy_bytes(packing))),
            _ => None,
        }
    }

    /// Copy the file of `material` into memory.
    fn load_one_into_memory(
        &mut self,
        material: Material,
        packing: Packing,
    ) -> Result<(), TableError> {
        let id = TableId::new(&self.board, &self.rules, material);
        let Some((_, Entries::File(file))) = self.tables.get_mut(&material) else {
            return Ok(());
        };
        let copy = file
            .resident_copy(packing)
            .map_err(|error| TableError::Io {
                path: id.with(file.content()).file_name().into(),
                error,
            })?;
        let path = copy.path().to_path_buf();
        *file = copy;
        // Unmapped now, and not read again: its cached pages would only scatter the free
        // memory (see `page_cache`). A file that cannot be opened keeps them.
        if let Ok(file) = std::fs::File::open(&path) {
            crate::page_cache::forget(&file);
        }
        Ok(())
    }

    /// Solve one system from the tables already present (saving its state as `checkpoints`
    /// say, if given).
    fn solve(
        &self,
        material: Material,
        progress: &dyn Progress,
        checkpoints: Option<&Checkpoints>,
    ) -> Result<Vec<SolvedTable>, TableError> {
        let probe = |positions: &[Position], out: &mut Vec<Entry>| {
            self.probe_entries(positions, out)
                .expect("smaller materials are solved first")
        };
        solve_system(
            &self.board,
            &self.rules,
            material,
            &probe,
            progress,
            checkpoints,
        )
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Every material of this many stones or fewer is held.
    pub fn max_stones(&self) -> usize {
        self.max_stones
    }

    /// The largest stone count of any material held (more than `max_stones` with a partial
    /// layer).
    pub fn top_stones(&self) -> usize {
        self.top_stones
    }

    /// Whether the tables answer for positions of this material.
    #[inline]
    pub fn covers(&self, material: Material) -> bool {
        let stones = material.stones();
        stones <= self.max_stones
            || (stones <= self.top_stones
                && (self.tables.get(&material).is_some() || self.is_derived(material)))
    }

    /// Whether positions of `material` are answered one ply into the other tables (see
    /// [`Tables::derive`]).
    #[inline]
    fn is_derived(&self, material: Material) -> bool {
        self.derived.get(&material).is_some()
    }

    /// Answer the positions of `material` one ply into the other tables instead of from its
    /// own table, which is let go: each position's turns are generated and the value is the
    /// best of what its children's tables say. The other half of its system (`material`
    /// swapped, where every paika leads) and every material a capture leads to must be held
    /// and not derived themselves, so that a probe is one ply deep, never more.
    ///
    /// For a system too large to keep both halves in memory beside a search: 5v4 in memory
    /// and 4v5 derived take half the memory of both in memory, where a half left in its
    /// mapped file reads the disk for every probe the page cache misses. The derived values
    /// are exact (the table's own, when the tables are right); a certificate whose leaves fall
    /// in a derived material is still checked against that material's file.
    pub fn derive(&mut self, material: Material) -> Result<(), DeriveError> {
        if self.tables.get(&material).is_none() {
            let why = WhyNotDerived::NotHeld;
            return Err(DeriveError { material, why });
        }
        if let Some(why) = self.why_not_derivable(material) {
            return Err(DeriveError { material, why });
        }
        self.tables.remove(&material);
        self.derived.insert(material, ());
        Ok(())
    }

    /// Why positions of `material` cannot be answered one ply on with the tables as they are,
    /// if they cannot.
    pub fn why_not_derivable(&self, material: Material) -> Option<WhyNotDerived> {
        if material.mover == material.waiting {
            return Some(WhyNotDerived::OwnSwap);
        }
        // The materials its turns lead to: the swapped one after a paika, and one stone of
        // the waiting side fewer per stone a capture takes (none left: the game is over).
        let paika = material.swapped();
        let captures = (1..material.waiting).map(|left| Material::new(left, material.mover));
        std::iter::once(paika).chain(captures).find_map(|child| {
            match (self.is_derived(child), self.covers(child)) {
                (true, _) => Some(WhyNotDerived::LeadsToDerived(child)),
                (false, false) => Some(WhyNotDerived::LeadsToMissing(child)),
                (false, true) => None,
            }
        })
    }

    /// The materials answered one ply into the others ([`Tables::derive`]), in order.
    pub fn derived_materials(&self) -> Vec<Material> {
        let mut derived: Vec<Material> = self.derived.keys().collect();
        derived.sort();
        derived
    }

    /// The values of `positions`, each of a derived material, from their children's values:
    /// the children of all of them probed together, so that their reads overlap.
    fn derived_values(&self, positions: &[Position]) -> Vec<Value> {
        let mut next = Vec::with_capacity(positions.len() * 16);
        let mut ends = Vec::with_capacity(positions.len());
        for position in positions {
            children(&self.board, position, &mut next);
            ends.push(next.len());
        }
        let mut values = Vec::with_capacity(next.len());
        self.probe_values(&next, &mut values)
            .expect("`derive` checked that every child is covered");
        let mut start = 0;
        ends.into_iter()
            .map(|end| {
                let value = self.value_from_children(&values[start..end]);
                start = end;
                value
            })
            .collect()
    }

    /// A position's value from its children's (each for its own side to move): the best of
    /// them for the side that picks one. None: blocked (a derived material has stones on
    /// both sides), as the rules say.
    fn value_from_children(&self, children: &[Value]) -> Value {
        match children.iter().map(|value| value.flip()).max() {
            Some(value) => value,
            None => match self.rules.blocked {
                Blocked::Loss => Value::Loss,
                Blocked::Draw => Value::Draw,
            },
        }
    }

    /// Stop using the table of `material` (if held): its positions are then not answered, as
    /// if its file were missing, so that the stone counts it completed are partial from then
    /// on. For a search that should not probe a table that does not fit in memory. A derived
    /// material whose turns lead into it is let go too. False if it was not held.
    pub fn leave_out(&mut self, material: Material) -> bool {
        let held =
            self.tables.remove(&material).is_some() | self.derived.remove(&material).is_some();
        if held {
            self.max_stones = self.max_stones.min(material.stones() - 1);
            // A derived material whose turns lead there is no longer answered either.
            let stranded: Vec<Material> = self
                .derived
                .keys()
                .filter(|&derived| self.why_not_derivable(derived).is_some())
                .collect();
            for derived in stranded {
                self.derived.remove(&derived);
            }
        }
        held
    }

    /// The materials above `max_stones` that are held (the partial layer), in order.
    pub fn partial_layer(&self) -> Vec<Material> {
        let mut held: Vec<Material> = self
            .tables
            .keys()
            .chain(self.derived.keys())
            .filter(|m| m.stones() > self.max_stones)
            .collect();
        held.sort();
        held
    }

    /// Every material held, in order of stones, then stones to move.
    pub fn held_materials(&self) -> Vec<Material> {
        let mut held: Vec<Material> = self.tables.keys().collect();
        held.sort_by_key(|m| (m.stones(), m.mover));
        held
    }

    /// How many positions the tables answer for (all symmetric images counted).
    pub fn positions(&self) -> u64 {
        self.tables
            .values()
            .map(|(index, _)| index.positions_before_symmetry())
            .sum()
    }

    /// How many slots the tables store (about a quarter of the positions on 5x9).
    pub fn slots(&self) -> u64 {
        self.tables.values().map(|(index, _)| index.size()).sum()
    }

    /// Every entry of one material in slot order, if these tables have it (with distances:
    /// not from a value file).
    pub fn entries(&self, material: Material) -> Option<impl Iterator<Item = Entry> + '_> {
        let (index, entries) = self.tables.get(&material)?;
        entries
            .has_distances()
            .then(|| (0..index.size()).map(move |i| entries.get(i).expect("distances")))
    }

    /// The value in slot `index` of a material, if these tables have the material (from an
    /// entry or a value file).
    pub fn stored_value(&self, material: Material, index: u64) -> Option<Value> {
        let (_, entries) = self.tables.get(&material)?;
        Some(entries.value(index))
    }

    /// The entry in slot `index` of a material, if these tables have it with distances.
    pub fn stored(&self, material: Material, index: u64) -> Option<Entry> {
        let (_, entries) = self.tables.get(&material)?;
        entries.get(index)
    }

    /// Whether every material held has its distances (no value files).
    pub fn has_distances(&self) -> bool {
        self.tables
            .values()
            .all(|(_, entries)| entries.has_distances())
    }

    /// The checksum of a material's file, if it is in a file.
    pub fn checksum(&self, material: Material) -> Option<u64> {
        match self.tables.get(&material)? {
            (_, Entries::File(file)) => Some(file.checksum()),
            _ => None,
        }
    }

    /// The index and entries of `material`, or why a position of it is not answered.
    fn table_of(&self, material: Material) -> Result<&(MaterialIndex, Entries), ProbeError> {
        if self.is_derived(material) {
            // Only a probe of values is answered one ply on (a distance would need the
            // children's distances, which value files do not have).
            return Err(ProbeError::NoDistances { material });
        }
        self.tables.get(&material).ok_or(ProbeError::NotCovered {
            stones: material.stones(),
            max_stones: self.max_stones,
        })
    }

    /// The values of many positions at once, into `out` (cleared first). The same answers as
    /// [`Tables::probe_value`] one by one, but each step is done for all positions before the
    /// next, so that the memory accesses of different positions overlap: several times faster
    /// on tables far larger than the caches.
    pub fn probe_values(
        &self,
        positions: &[Position],
        out: &mut Vec<Value>,
    ) -> Result<(), ProbeError> {
        out.clear();
        let mut ranks = Vec::with_capacity(positions.len());
        let mut any_derived = false;
        for position in positions {
            let material = Material::of(position.mover, position.waiting);
            ranks.push(if material.mover == 0 || material.waiting == 0 {
                Rank::Over
            } else if self.is_derived(material) {
                any_derived = true;
                Rank::Derived
            } else {
                let (index, entries) = self.table_of(material)?;
                let (mover, waiting) = index.canonical_ranks(position.mover, position.waiting);
                index.prefetch_class(mover);
                Rank::Stored(index, entries, mover, waiting)
            });
        }
        let slots: Vec<Slot> = ranks
            .into_iter()
            .map(|rank| match rank {
                Rank::Stored(index, entries, m, w) => {
                    let i = index.index_of_ranks(m, w);
                    entries.prefetch(i);
                    Slot::Stored(entries, i)
                }
                Rank::Over => Slot::Over,
                Rank::Derived => Slot::Derived,
            })
            .collect();
        // A lopsided copy's slot is read in two places; the second is known once the first is
        // loaded, which the pass above asked for.
        for slot in &slots {
            if let Slot::Stored(entries, i) = slot {
                entries.prefetch_second(*i);
            }
        }
        // Without derived positions (every probe of a search without --derive) no extra pass.
        let mut derived_values = match any_derived {
            false => Vec::new(),
            true => {
                let derived: Vec<Position> = slots
                    .iter()
                    .zip(positions)
                    .filter(|(slot, _)| matches!(slot, Slot::Derived))
                    .map(|(_, position)| *position)
                    .collect();
                self.derived_values(&derived)
            }
        }
        .into_iter();
        out.extend(
            slots
                .iter()
                .zip(positions)
                .map(|(slot, position)| match slot {
                    Slot::Stored(entries, i) => entries.value(*i),
                    Slot::Derived => derived_values.next().expect("a value per derived position"),
                    Slot::Over if position.mover.is_empty() => Value::Loss,
                    Slot::Over => Value::Win,
                }),
        );
        Ok(())
    }

    /// The value of `position` for its side to move (from an entry or a value file, or one
    /// ply on for a derived material).
    pub fn probe_value(&self, position: &Position) -> Result<Value, ProbeError> {
        let material = Material::of(position.mover, position.waiting);
        if material.mover == 0 {
            return Ok(Value::Loss);
        }
        if material.waiting == 0 {
            return Ok(Value::Win);
        }
        if self.is_derived(material) {
            return Ok(self.derived_values(std::slice::from_ref(position))[0]);
        }
        let (index, entries) = self.table_of(material)?;
        Ok(entries.value(index.index(position.mover, position.waiting)))
    }

    /// The entries of many positions at once, into `out` (cleared first): the same answers as
    /// [`Tables::probe`] one by one, but every slot is asked for before any is read, so that
    /// their cache and TLB misses overlap instead of each waiting for the one before (what
    /// `tables verify` spends most of its time on).
    pub fn probe_entries(
        &self,
        positions: &[Position],
        out: &mut Vec<Entry>,
    ) -> Result<(), ProbeError> {
        out.clear();
        let mut slots: Vec<Result<(&Entries, u64, Material), Entry>> =
            Vec::with_capacity(positions.len());
        for position in positions {
            let material = Material::of(position.mover, position.waiting);
            slots.push(if material.mover == 0 {
                Err(Entry::loss(0))
            } else if material.waiting == 0 {
                Err(Entry::win(0))
            } else {
                let (index, entries) = self.table_of(material)?;
                let slot = index.index(position.mover, position.waiting);
                entries.prefetch(slot);
                Ok((entries, slot, material))
            });
        }
        for slot in slots {
            out.push(match slot {
                Ok((entries, slot, material)) => entries
                    .get(slot)
                    .ok_or(ProbeError::NoDistances { material })?,
                Err(entry) => entry,
            });
        }
        Ok(())
    }

    /// The entry of `position` for its side to move; its table must have distances (not be
    /// opened from a value file).
    pub fn probe(&self, position: &Position) -> Result<Entry, ProbeError> {
        let material = Material::of(position.mover, position.waiting);
        if material.mover == 0 {
            return Ok(Entry::loss(0));
        }
        if material.waiting == 0 {
            // The side that just moved has no stones: it lost before this position.
            return Ok(Entry::win(0));
        }
        let (index, entries) = self.table_of(material)?;
        entries
            .get(index.index(position.mover, position.waiting))
            .ok_or(ProbeError::NoDistances { material })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn systems_go_side_by_side_while_half_the_memory_holds_them() {
        // 3 bytes a slot: 30, 30, 90 and 15 bytes.
        let sizes = [10, 10, 30, 5];
        assert_eq!(side_by_side(&sizes, Some(200)), vec![0..2, 2..3, 3..4]);
        assert_eq!(side_by_side(&sizes, Some(300)), vec![0..3, 3..4]);
        assert_eq!(side_by_side(&sizes, Some(1 << 20)), vec![0..4]);
        assert_eq!(side_by_side(&sizes, None), vec![0..1, 1..2, 2..3, 3..4]);
        assert!(side_by_side(&[], Some(1 << 20)).is_empty());
    }
}
