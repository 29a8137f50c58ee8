//! Depth-first proof-number search (df-pn) with a transposition table and endgame-table leaves.
//!
//! The question is always "can `attacker` force a win from this position?". At the attacker's
//! turns (OR nodes) one good turn is enough; at the defender's (AND nodes) every turn must fail.
//! A node's proof number is how many more leaves must be proven to prove it, its disproof number
//! how many to disprove it; df-pn expands the most-proving node depth first, under thresholds,
//! and keeps what it learnt in the transposition table (Nagai 2002).
//!
//! Leaves: a position the rules decide (no stones, or a blocked side to move), one within
//! the endgame tables, which give its exact value at once, or one settled by a checked
//! certificate taken in ([`Search::take_as_leaf`]).
//!
//! Repetition: a turn back to a position already on the current path is a failure for the
//! attacker (infinite play is a draw). Such a disproof depends on the path, so each result
//! carries the depth of the shallowest path position it relied on; a disproof is stored in the
//! table only if it relies on nothing above its own node, so no path-dependent result poisons
//! the table. A disproof that does rely on the path is kept aside with a hash of the stretch of
//! path it relied on (from the shallowest position it used down to its parent), and reused
//! only when the same position is reached with that same stretch above it: then every position
//! it relied on is on the path again.
//! Proofs never rely on repetition (it only ever helps the defender).
//!
//! Holds that work by going round a cycle would still be found again path by path, for ever on
//! some drawn positions; from time to time the open positions of the table are closed together
//! instead ([`holds`]): the greatest set the defender can keep play inside is disproven outright.
//!
//! Each stored proof records its height: leaves 0, an OR node 1 + the least height of its
//! proven children, an AND node 1 + the greatest. Following children of smaller height always
//! ends, so the certificate of a proof never loops (see [`crate::certificate`]).

mod candidates;
mod closure_turns;
mod filters;
mod holds;
mod numbers;
mod path_dependent;
mod position_map;
mod saved_state;
pub use saved_state::saved_attacker;
mod transposition;

use crate::index::Material;
use crate::progress::Progress;
use crate::tables::Tables;
use closure_turns::{Turn, CLOSURE_TURNS};
use fanorona_engine::hash::mix;
use fanorona_engine::movegen::{children, count_turns};
use fanorona_engine::{hash, Board, Color, Position, Rules, Value};
use filters::{Filters, MetMarks};
use numbers::{combine, live_numbers, select, settling_child, Child, Frame, Numbers};
pub use numbers::{Counting, Number, INFINITE};
use path_dependent::PathDependent;
use position_map::{PositionMap, PositionSet};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
pub use transposition::{table_bytes, KEPT_FOR_GOOD};
use transposition::{Stored, TranspositionTable};

/// Hash maps keyed by positions, with a fast multiplicative hasher (the default SipHash cost a
/// third of the search's time; keys here are not chosen by an adversary).
type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<WordHasher>>;
type FastSet<K> = HashSet<K, BuildHasherDefault<WordHasher>>;

/// Folds the words of a key with a multiply and finishes with the SplitMix64 finaliser.
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u64(byte as u64);
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    fn write_u8(&mut self, byte: u8) {
        self.write_u64(byte as u64);
    }

    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }

    fn finish(&self) -> u64 {
        mix(self.0)
    }
}

/// What one stone of lead adds to an unsearched position's numbers (see
/// `Search::initial_numbers`). Measured on the 5x7, 7x5, 9x3 and 5x5 starts: 2 needs 19 to 50%
/// fewer nodes than no weight; 8 and more, or weights growing exponentially with the lead, make
/// some searches dive into long drawn lines where the side ahead never wins.
const LEAD_WEIGHT: i64 = 2;

/// The stones on the board.
fn stones(position: &Position) -> u32 {
    position.mover.count() + position.waiting.count()
}

/// The slots of [`Search::path_counts`]: a path is at most a few hundred positions deep.
const PATH_SLOTS: usize = 1 << 12;

/// A position's slot in [`Search::path_counts`], from the top bits of its [`hash`] (the
/// table's bucket comes from the bottom ones).
fn path_slot(hash: u64) -> usize {
    (hash >> 52) as usize % PATH_SLOTS
}

/// No path position relied upon.
const NO_DEPTH: u32 = u32::MAX;

/// What a search found out about its question.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// The attacker can force a win.
    Proven,
    /// The attacker cannot force a win.
    Disproven,
    /// The node limit was reached or the search was interrupted first.
    Unknown,
}

/// From now on, the searches of this process close their held sets one at a time (see
/// `search/closure_turns.rs`): for a process that runs several large searches side by side.
pub fn closures_one_at_a_time() {
    CLOSURE_TURNS.take_turns();
}

/// How far a search may go.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most nodes (expansions) before giving up.
    pub nodes: u64,
    /// The transposition table's size in bytes.
    pub memory: usize,
    /// How the numbers that add up over children are counted.
    pub counting: Counting,
    /// The bytes the set of positions closures hold may take (`None`: an eighth of `memory`);
    /// see [`Search::most_held`].
    pub held_memory: Option<usize>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            nodes: 100_000_000,
            memory: 256 << 20,
            counting: Counting::Sum,
            held_memory: None,
        }
    }
}

impl Limits {
    /// The bytes the held set may take: `held_memory`, or an eighth of the table's `memory`.
    pub fn held_bytes(&self, table_bytes: usize) -> usize {
        self.held_memory.unwrap_or(table_bytes / 8)
    }
}

/// A df-pn search for one attacker on one board, with optional endgame tables.
pub struct Search<'a> {
    board: &'a Board,
    rules: Rules,
    tables: Option<&'a Tables>,
    attacker: Color,
    table: TranspositionTable,
    /// Positions on the current path, with their depth ...
    path: FastMap<Position, u32>,
    /// ... and how many of them there are per [`path_slot`] of their hash: a child whose slot
    /// counts none is not on the path, without a lookup in the map (which hashed the child
    /// again, for every child).
    path_counts: Vec<u16>,
    /// Rolling hashes of the current path: entry d covers the positions at depths 0..=d.
    path_prefix: Vec<u64>,
    /// Powers of the rolling hash's base.
    powers: Vec<u64>,
    /// Disproofs that rely on the path: per position, (length, hash) of the stretch of path
    /// above it that they relied on.
    path_dependent: PathDependent,
    /// How many children a kept path-dependent disproof answered since the last note of the
    /// root's numbers, and how often the full store was emptied this run (what a larger
    /// store might be worth: for the progress notes).
    path_dependent_met: AtomicU64,
    path_dependent_emptied: u64,
    /// Bit filters in front of `path_dependent` and `held` (see [`filters`]).
    filters: Filters,
    /// Positions that count as failures for the attacker like repetitions (at depth 0), for
    /// re-searches while a hold's certificate is read off.
    covered: FastSet<Position>,
    /// Positions that count as proven, with their heights, whatever the table holds: the
    /// proofs a certificate's reading off has founded on leaves, kept while the root is
    /// searched again (see `solve::real_heights`), so that no overwrite loses them.
    pinned: PositionMap<u32>,
    /// Whether the table's proofs count only where pinned (and every new proof is pinned).
    pinned_proofs_only: bool,
    /// Positions settled by certificates taken in (checked, kept apart: see
    /// [`Search::take_as_leaf`]): leaves like the tables', whose strategies join the
    /// certificate read off at the end.
    taken: FastMap<Position, Outcome>,
    /// The child that settled the root of the last search, where one child does (a proof at
    /// an OR root, a disproof at an AND root).
    root_choice: Option<Position>,
    /// The depth of the root of the current search (the positions given above it come first).
    root_depth: u32,
    /// The root of the current search (or the last) ...
    root: Option<Position>,
    /// ... and the root and its turns, kept for good in the table (see [`Search::record`]),
    /// with the work each has cost: given that back when a search from another root begins.
    kept_root_turns: Vec<(Position, u64)>,
    nodes: u64,
    node_limit: u64,
    counting: Counting,
    stop: Option<&'a AtomicBool>,
    progress: &'a dyn Progress,
    reported: u64,
    /// The root's numbers as last combined, for the periodic report of a long search ...
    root_numbers: (Number, Number),
    /// ... and what each node on the path above the one being expanded chose, from the root
    /// down: the root's combined numbers only change when a child returns, which on a long
    /// search's first plies can take billions of nodes; these give the numbers as they
    /// stand now.
    frames: Vec<Frame>,
    /// Held sets are closed (see [`holds`]) among positions of at most this many stones ...
    hold_stones: u32,
    /// ... when the node count reaches this; the interval doubles with the nodes of this run.
    next_closure: u64,
    /// The node count when this run started (a resumed search starts with its old count), and
    /// the time.
    run_start: u64,
    run_clock: Instant,
    /// The time spent in closures in this run, and the last one's.
    closure_seconds: f64,
    last_closure: Option<LastClosure>,
    /// How many closures have run: a node expanded across one looks its result up again.
    closures: u64,
    /// The positions closures found held (disproven outright), kept apart from the table so
    /// that no collision there loses them.
    held: PositionSet,
    /// The most positions `held` keeps (see [`Search::most_held`]).
    most_held: usize,
    /// How many times a child was found held since the last note of the root's numbers, by
    /// its stones (what the held set is worth, where: for the progress notes).
    held_met: [AtomicU64; 65],
    /// Which held positions it met since the last closure (kept first where the set is full).
    met: MetMarks,
    /// Where and how often to save while searching, if at all.
    checkpoint: Option<Checkpoint>,
    /// Lists of children to reuse (see [`Search::expand`]), and the buffers of
    /// [`Search::look_at_children`]'s table probes.
    spare_children: Vec<Vec<Position>>,
    spare_kids: Vec<Vec<Child>>,
    probe_buffers: ProbeBuffers,
}

/// A long search's periodic save (see [`Search::save_every`]).
struct Checkpoint {
    file: PathBuf,
    every: Duration,
    last: Instant,
}

/// The children a node sends to the endgame tables, and what the tables answer.
#[derive(Default)]
struct ProbeBuffers {
    positions: Vec<Position>,
    values: Vec<Value>,
    /// Each child's hash, computed once for its several lookups (hashing the child again for
    /// each lookup made a long 5x9 search take 180 s instead of 143.8 s for the same nodes).
    hashes: Vec<u64>,
}

/// What the last closure of a run cost: when (the run's nodes), how long, how many candidates.
#[derive(Clone, Copy)]
struct LastClosure {
    run_nodes: u64,
    seconds: f64,
    candidates: usize,
}

impl LastClosure {
    /// Whether a closure now, `run_nodes` into a run of `elapsed` seconds that has spent
    /// `spent` of them in closures, keeps them within [`CLOSURE_TIME_SHARE`], counted at its
    /// expected cost: this one's, grown with the nodes since, up to `most_candidates`.
    fn affords_another(
        &self,
        spent: f64,
        elapsed: f64,
        run_nodes: u64,
        most_candidates: usize,
    ) -> bool {
        let by_nodes = run_nodes as f64 / self.run_nodes.max(1) as f64;
        let by_candidates = most_candidates as f64 / self.candidates.max(1) as f64;
        let expected = self.seconds * by_nodes.min(by_candidates).max(1.0);
        spent + expected <= CLOSURE_TIME_SHARE * (elapsed + expected)
    }
}

/// Why a search stopped before resolving its root.
#[derive(Debug)]
struct Stopped;

/// How many nodes between two progress reports.
const REPORT_EVERY: u64 = 1 << 16;

/// How many nodes between two notes of the root's numbers (a few minutes of a long search).
const NOTE_EVERY: u64 = 1 << 28;

/// When to close held sets (see [`holds`]): first after this many nodes of a run, then each
/// time the run's nodes double, and at least every [`MAX_CLOSURE_INTERVAL`] nodes ...
const FIRST_CLOSURE: u64 = 1 << 20;
const MAX_CLOSURE_INTERVAL: u64 = 1 << 28;
/// ... as long as closures take at most this share of the run's time in all, the one due
/// counted at its expected cost: the last one's, grown with the run's nodes since (its
/// candidates grow with the table), up to the most candidates a closure takes. One due but
/// not afforded waits a sixteenth of the run's nodes more. (Twenty-third session: searches
/// of 5x9 positions of some 30 stones over the 7-stone tables, where closures find little and
/// cost much, took 1.5 to 2.2 times as long with only a limit per closure, four times its time
/// searching before the next; the few-stone draws of the `search_draws` example, where
/// closures decide, are unchanged.)
const CLOSURE_TIME_SHARE: f64 = 0.2;

/// Held sets are looked for among positions of at most this many stones more than the endgame
/// tables hold (cycles of play matter where few stones are left; the closure's cost grows with
/// the positions it looks at).
const HOLD_STONES_ABOVE: u32 = 5;

impl<'a> Search<'a> {
    /// A search for `attacker`. The tables, if any, must be of the same board and rules.
    pub fn new(
        board: &'a Board,
        rules: Rules,
        tables: Option<&'a Tables>,
        attacker: Color,
        limits: Limits,
        progress: &'a dyn Progress,
    ) -> Search<'a> {
        if let Some(tables) = tables {
            assert_eq!(tables.rules(), rules, "tables of other rules");
            assert_eq!(tables.board(), board, "tables of another board");
        }
        let table = TranspositionTable::new(limits.memory);
        let most_held = holds::held_bound(limits.held_bytes(table.bytes()));
        Search {
            board,
            rules,
            tables,
            attacker,
            // A certificate's reading off extends the search by its limit once more.
            filters: Filters::new(most_held, limits.nodes.saturating_mul(2)),
            table,
            path: FastMap::default(),
            path_counts: vec![0; PATH_SLOTS],
            path_prefix: Vec::new(),
            powers: vec![1],
            path_dependent: PathDependent::new(),
            path_dependent_met: AtomicU64::new(0),
            path_dependent_emptied: 0,
            covered: FastSet::default(),
            pinned: PositionMap::new(),
            pinned_proofs_only: false,
            taken: FastMap::default(),
            root_choice: None,
            root_depth: 0,
            root: None,
            kept_root_turns: Vec::new(),
            nodes: 0,
            node_limit: limits.nodes,
            counting: limits.counting,
            stop: None,
            progress,
            reported: 0,
            root_numbers: (1, 1),
            frames: Vec::new(),
            hold_stones: tables.map_or(u32::MAX, |t| t.max_stones() as u32 + HOLD_STONES_ABOVE),
            next_closure: FIRST_CLOSURE,
            run_start: 0,
            run_clock: Instant::now(),
            closure_seconds: 0.0,
            last_closure: None,
            closures: 0,
            held: PositionSet::new(),
            most_held,
            held_met: std::array::from_fn(|_| AtomicU64::new(0)),
            met: MetMarks::new(most_held),
            checkpoint: None,
            spare_children: Vec::new(),
            spare_kids: Vec::new(),
            probe_buffers: ProbeBuffers::default(),
        }
    }

    /// Stop as soon as `flag` is set (an interrupt); the table keeps what was learnt.
    pub fn stop_on(&mut self, flag: &'a AtomicBool) {
        self.stop = Some(flag);
    }

    /// Save the search to `file` (as [`Search::save`]) every `every` while it runs, so that a
    /// run that is killed (out of memory, power cut) loses at most that much. A save that
    /// fails is reported and the search goes on.
    pub fn save_every(&mut self, file: PathBuf, every: Duration) {
        self.checkpoint = Some(Checkpoint {
            file,
            every,
            last: Instant::now(),
        });
    }

    /// The nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn attacker(&self) -> Color {
        self.attacker
    }

    pub fn board(&self) -> &'a Board {
        self.board
    }

    /// Count `position` as a leaf settled with `outcome` (proven or disproven) from now on, as
    /// a table leaf is: for the root of a checked certificate of this question (a subtree that
    /// a search before settled, kept apart as a certificate: see `crate::harvest`).
    pub fn take_as_leaf(&mut self, position: Position, outcome: Outcome) {
        assert_ne!(
            outcome,
            Outcome::Unknown,
            "only settled positions are leaves"
        );
        self.taken.insert(position, outcome);
    }

    /// Whether the rules, the endgame tables or a certificate taken in decide `position`.
    pub fn is_leaf(&self, position: &Position) -> bool {
        self.leaf(position).is_some()
    }

    /// Count `position` as proven, `height` turns above its leaves, from now on, whatever the
    /// table holds or loses: for positions whose win a certificate's reading off has founded
    /// on leaves (see `solve::real_heights`). Only ever for positions the attacker wins.
    pub fn pin_proven(&mut self, position: &Position, height: u32) {
        self.pinned.insert(position, height);
    }

    /// From now on, count a proof of the table only where it is pinned (take the others as
    /// never searched), and pin every new proof as it is made: each proof then rests on
    /// pinned proofs and leaves alone, none on a proof that a collision has cut off from its
    /// leaves since (see `solve::real_heights`).
    pub fn trust_only_pinned_proofs(&mut self) {
        self.pinned_proofs_only = true;
    }

    /// The table's slot of `position` (whose [`hash`] is `hash`), without a proof that is
    /// not to be trusted (see [`Self::trust_only_pinned_proofs`]).
    fn stored(&self, position: &Position, hash: u64) -> Option<Stored> {
        let slot = self.table.get_hashed(position, hash)?;
        let distrusted = self.pinned_proofs_only && slot.proof == 0;
        (!distrusted).then_some(slot)
    }

    /// How many positions are pinned as proven (see [`Self::pin_proven`]).
    pub fn pinned_count(&self) -> usize {
        self.pinned.len()
    }

    /// The height of `position` (whose [`hash`] is `hash`)'s pinned proof, if it has one
    /// (see [`Self::pin_proven`]).
    fn pinned_height(&self, position: &Position, hash: u64) -> Option<u32> {
        self.pinned.get_hashed(position, hash)
    }

    /// Treat `more` positions as failures for the attacker too, relying on the root of the
    /// path (so no result that uses them is stored as path-independent). If any is new, the
    /// path-dependent cache is emptied, since what it holds was found without them.
    pub fn cover_also(&mut self, more: impl IntoIterator<Item = Position>) {
        let before = self.covered.len();
        self.covered.extend(more);
        if self.covered.len() != before {
            self.forget_path_dependent();
        }
    }

    /// Undo what reading off one certificate set up (positions covered as repetitions, proofs
    /// trusted only where pinned), before reading off another from another root. The pinned
    /// proofs stay: they are founded on leaves.
    pub fn end_reading_off(&mut self) {
        self.covered.clear();
        self.forget_path_dependent();
        self.pinned_proofs_only = false;
    }

    /// Allow `more` nodes beyond those already spent, to continue a search that gave up.
    pub fn extend_limit(&mut self, more: u64) {
        self.node_limit = self.nodes.saturating_add(more);
    }

    /// Can the attacker force a win from `root`? The positions put on the path with
    /// [`Search::enter_above`] come before `root` (repeating one of them is a failure for the
    /// attacker); usually there are none.
    pub fn solve(&mut self, root: &Position) -> Outcome {
        self.root_choice = None;
        self.begin_at(root);
        let numbers = match self.leaf(root) {
            Some(numbers) => numbers,
            None => {
                let depth = self.path_prefix.len() as u32;
                self.root_depth = depth;
                // `expand` takes off the path what it puts on, stopped or not.
                match self.expand(root, INFINITE, INFINITE, depth) {
                    Ok(numbers) => numbers,
                    Err(Stopped) => return Outcome::Unknown,
                }
            }
        };
        if numbers.is_proven() {
            Outcome::Proven
        } else if numbers.is_disproven() {
            Outcome::Disproven
        } else {
            Outcome::Unknown
        }
    }

    /// Make `root` the root of the search: the turns kept for another root go back to the
    /// work they had cost, so that a run of searches from many roots (a certificate's
    /// reading off) does not fill the table with slots kept for good.
    fn begin_at(&mut self, root: &Position) {
        if self.root != Some(*root) {
            for (position, work) in self.kept_root_turns.drain(..) {
                self.table.set_work(&position, work);
            }
            self.root = Some(*root);
        }
    }

    /// Put `position` on the path above the roots of the next searches. Reading off a
    /// certificate walks down its strategy this way, one position at a time: handing each
    /// re-search the whole path cost time in proportion to the path's length.
    pub fn enter_above(&mut self, position: &Position) {
        let depth = self.path_prefix.len() as u32;
        self.path_enter(position, depth);
        self.push_path_hash(position);
    }

    /// Take `position`, the last one entered with [`Search::enter_above`], off the path.
    pub fn leave_above(&mut self, position: &Position) {
        debug_assert_eq!(
            self.path.get(position).map(|&depth| depth as usize + 1),
            Some(self.path_prefix.len())
        );
        self.path_leave(position);
        self.path_prefix.pop();
    }

    fn path_enter(&mut self, position: &Position, depth: u32) {
        self.path.insert(*position, depth);
        let slot = path_slot(hash(position));
        self.path_counts[slot] = self.path_counts[slot].wrapping_add(1);
    }

    fn path_leave(&mut self, position: &Position) {
        self.path.remove(position);
        let slot = path_slot(hash(position));
        self.path_counts[slot] = self.path_counts[slot].wrapping_sub(1);
    }

    /// The depth of `position` (whose [`hash`] is `hash`) if it is on the path.
    fn path_depth(&self, position: &Position, hash: u64) -> Option<u32> {
        if self.path_counts[path_slot(hash)] == 0 {
            return None;
        }
        self.path.get(position).copied()
    }

    /// The child that settled the root of the last search: the attacker's winning turn, or the
    /// defender's turn that holds, if the root was resolved by one turn.
    pub fn root_choice(&self) -> Option<Position> {
        self.root_choice
    }

    /// The proof and disproof numbers the table holds for `position` (0 and [`INFINITE`] for
    /// a proof, the reverse for a disproof), if it holds any: where a long search stands.
    pub fn stored_numbers(&self, position: &Position) -> Option<(Number, Number)> {
        if self.is_held(position) {
            return Some((INFINITE, 0));
        }
        self.table
            .get(position)
            .map(|slot| (slot.proof, slot.disproof))
    }

    /// The numbers of `position` combined from those of its children, as the search would
    /// see them on expanding it (stored, held, or the first look at one never searched); none
    /// where it has no turns. For a root never stored: a search stopped midway records the
    /// root only when it settles, but keeps every turn of it in the table.
    pub fn numbers_from_children(&mut self, position: &Position) -> Option<(Number, Number)> {
        let mut next = Vec::new();
        children(self.board, position, &mut next);
        if next.is_empty() {
            return None;
        }
        let mut kids = Vec::new();
        self.look_at_children(&next, &mut kids);
        let or_node = position.side == self.attacker;
        let numbers = combine(or_node, self.counting, &kids);
        Some((numbers.proof, numbers.disproof))
    }

    /// For a look at a long search: per number of stones, how many open (neither proven nor
    /// disproven) positions the table holds.
    pub fn open_by_stones(&self) -> Vec<usize> {
        holds::count_by_stones(self.table.unresolved()).to_vec()
    }

    /// The positions closures have held, by number of stones.
    pub fn held_by_stones(&self) -> Vec<usize> {
        holds::count_by_stones(self.held.positions()).to_vec()
    }

    /// The positions closures have held, by material (stones to move, stones waiting), for
    /// the materials of at most `most_stones` stones (which tables would answer them?).
    pub fn held_by_material(&self, most_stones: u32) -> Vec<(Material, usize)> {
        count_by_material(self.held.positions(), most_stones)
    }

    /// The open positions of the table by material, as [`Search::held_by_material`].
    pub fn open_by_material(&self, most_stones: u32) -> Vec<(Material, usize)> {
        count_by_material(self.table.unresolved(), most_stones)
    }

    /// What the table knows about `position`: proven, disproven (path-independent) or nothing.
    pub fn known(&self, position: &Position) -> Option<(Outcome, u32)> {
        if let Some(numbers) = self.leaf(position) {
            let outcome = if numbers.is_proven() {
                Outcome::Proven
            } else {
                Outcome::Disproven
            };
            return Some((outcome, 0));
        }
        if self.is_held(position) {
            return Some((Outcome::Disproven, 0));
        }
        let hash = hash(position);
        if let Some(height) = self.pinned_height(position, hash) {
            return Some((Outcome::Proven, height));
        }
        let slot = self.stored(position, hash)?;
        if slot.proof == 0 {
            Some((Outcome::Proven, slot.height))
        } else if slot.disproof == 0 {
            Some((Outcome::Disproven, 0))
        } else {
            None
        }
    }

    /// Whether the attacker wins at `position` by the rules, the endgame tables or a
    /// certificate taken in ([`Search::take_as_leaf`]) alone.
    fn leaf(&self, position: &Position) -> Option<Numbers> {
        let value = self
            .table_value(position)
            .or_else(|| self.rules.outcome(self.board, position));
        match value {
            Some(value) => Some(self.numbers_of_value(position, value)),
            None => self.taken_numbers(position),
        }
    }

    /// The numbers of `position` if a certificate taken in settles it.
    fn taken_numbers(&self, position: &Position) -> Option<Numbers> {
        if self.taken.is_empty() {
            return None;
        }
        match self.taken.get(position)? {
            Outcome::Proven => Some(Numbers::PROVEN),
            _ => Some(Numbers::DISPROVEN),
        }
    }

    /// Every settled position of the table (proven or disproven, path-independent) whose
    /// subtree cost at least `min_work` nodes, the costliest first, with its work: what a
    /// long search would lose with its table (see `crate::harvest`).
    pub fn settled_by_work(&self, min_work: u64) -> Vec<(Position, Outcome, u64)> {
        let mut settled: Vec<(Position, Outcome, u64)> = self
            .table
            .settled_with_work()
            .filter(|&(_, _, work)| work >= min_work)
            .collect();
        settled.sort_by_key(|&(position, _, work)| (std::cmp::Reverse(work), position));
        settled
    }

    fn table_value(&self, position: &Position) -> Option<Value> {
        let tables = self.tables.filter(|_| self.within_tables(position))?;
        tables.probe_value(position).ok()
    }

    /// Whether the endgame tables hold `position` (few enough stones, or a material of their
    /// partial layer; false without tables).
    fn within_tables(&self, position: &Position) -> bool {
        self.tables
            .is_some_and(|tables| tables.covers(Material::of(position.mover, position.waiting)))
    }

    fn push_path_hash(&mut self, position: &Position) {
        const BASE: u64 = 0x9e37_79b9_7f4a_7c15;
        let before = self.path_prefix.last().copied().unwrap_or(0);
        self.path_prefix
            .push(before.wrapping_mul(BASE).wrapping_add(mix(hash(position))));
        while self.powers.len() <= self.path_prefix.len() {
            let last = *self.powers.last().expect("starts with 1");
            self.powers.push(last.wrapping_mul(BASE));
        }
    }

    /// The hash of the positions at depths `from..` of the current path.
    fn stretch_hash(&self, from: usize) -> u64 {
        let end = self.path_prefix.len();
        let before = if from == 0 {
            0
        } else {
            self.path_prefix[from - 1]
        };
        self.path_prefix[end - 1].wrapping_sub(before.wrapping_mul(self.powers[end - from]))
    }

    /// A path-dependent disproof of `position` as the next node of the path, if one was found
    /// with the same stretch of path above it: the depth it relies on.
    fn path_dependent_disproof(&self, position: &Position, hash: u64) -> Option<u32> {
        if !self
            .filters
            .may_be_path_dependent(self.filters.place_hashed(hash))
        {
            return None;
        }
        let depth = self.path_prefix.len();
        self.path_dependent
            .stretches_of(position, hash)
            .filter(|&(length, _)| length as usize <= depth && length > 0)
            .find(|&(length, hash)| self.stretch_hash(depth - length as usize) == hash)
            .map(|(length, _)| (depth - length as usize) as u32)
    }

    /// The children of a node with their numbers before expansion, into `kids` (emptied
    /// first). Those within the endgame tables are probed together (see
    /// [`Tables::probe_values`]).
    fn look_at_children(&mut self, next: &[Position], kids: &mut Vec<Child>) {
        // The endgame tables are read while the buckets and filter words asked for come in,
        // and only then the filters (read first, the filters made the tables' reads a second
        // round of waiting).
        let mut probe = std::mem::take(&mut self.probe_buffers);
        probe.hashes.clear();
        probe.hashes.extend(next.iter().map(hash));
        self.prefetch_buckets_and_filters(next, &probe.hashes);
        let probed = self.probe_within_tables(next, &mut probe);
        self.prefetch_held_slots(next, &probe.hashes);
        let mut from_tables = probe.positions.iter().zip(&probe.values).peekable();
        kids.clear();
        kids.extend(next.iter().zip(&probe.hashes).map(|(&child, &hash)| {
            let numbers = match from_tables.peek() {
                Some((&position, &value)) if probed && position == child => {
                    let numbers = self.numbers_of_value(&child, value);
                    from_tables.next();
                    numbers
                }
                _ => self.first_look(&child, hash),
            };
            Child {
                position: child,
                numbers,
            }
        }));
        self.probe_buffers = probe;
    }

    /// Probe the endgame tables for those of `next` within them, all at once (see
    /// [`Tables::probe_values`]): their positions in order into `probe.positions`, their values
    /// into `probe.values`. False where none is within the tables or the probe failed (then
    /// each is looked at on its own, as a probe that fails is: not a leaf).
    fn probe_within_tables(&self, next: &[Position], probe: &mut ProbeBuffers) -> bool {
        probe.positions.clear();
        probe
            .positions
            .extend(next.iter().filter(|child| self.within_tables(child)));
        match self.tables {
            Some(tables) if !probe.positions.is_empty() => tables
                .probe_values(&probe.positions, &mut probe.values)
                .is_ok(),
            _ => false,
        }
    }

    /// Ask for what looking at `next` will read of each child above the endgame tables: its
    /// table bucket and filter words (then, once those have come, [`Search::prefetch_held_slots`]).
    /// Asked for all at once, the cache misses overlap instead of each waiting for the one
    /// before (the filters alone were half of a long 5x9 search's time, waiting).
    /// `hashes` are those of `next`, in order.
    fn prefetch_buckets_and_filters(&self, next: &[Position], hashes: &[u64]) {
        for (child, &hash) in next.iter().zip(hashes) {
            if !self.within_tables(child) {
                self.table.prefetch_hashed(hash);
                self.prefetch_filters_and_pinned(hash);
            }
        }
    }

    /// Ask for the filter word and the pinned proofs' slot of the position whose [`hash`] is
    /// `hash` (the search's and the closures' first lookups of a child above the tables).
    fn prefetch_filters_and_pinned(&self, hash: u64) {
        self.filters.prefetch(self.filters.place_hashed(hash));
        // Empty but while a certificate is read off (then asked of every child).
        self.pinned.prefetch_hashed(hash);
    }

    /// The held set's slots of the children the filter says may be held (this waits for the
    /// filter words [`Search::prefetch_buckets_and_filters`] asked for).
    fn prefetch_held_slots(&self, next: &[Position], hashes: &[u64]) {
        if self.held.is_empty() {
            return;
        }
        for (child, &hash) in next.iter().zip(hashes) {
            // Only those a closure could have held (as `is_held` asks): waiting for the filter
            // word of any other would be for nothing.
            let may_be_held = !self.within_tables(child) && stones(child) <= self.hold_stones;
            if may_be_held && self.filters.may_be_held(self.filters.place_hashed(hash)) {
                self.held.prefetch_hashed(hash);
            }
        }
    }

    /// The numbers of a leaf whose value for its side to move is `value`.
    fn numbers_of_value(&self, position: &Position, value: Value) -> Numbers {
        let attacker_wins = (value == Value::Win) == (position.side == self.attacker);
        if attacker_wins && value != Value::Draw {
            Numbers::PROVEN
        } else {
            Numbers::DISPROVEN
        }
    }

    /// The numbers of a child before it is expanded.
    /// (`hash` is the position's [`hash`].)
    fn first_look(&self, position: &Position, hash: u64) -> Numbers {
        if self.is_held_hashed(position, hash) {
            self.held_met[stones(position) as usize].fetch_add(1, Ordering::Relaxed);
            self.met.mark(hash);
            return Numbers {
                extra: NO_DEPTH,
                ..Numbers::DISPROVEN
            };
        }
        if let Some(depth) = self.path_depth(position, hash) {
            return Numbers {
                extra: depth,
                ..Numbers::DISPROVEN
            };
        }
        if self.covered.contains(position) {
            return Numbers {
                extra: 0,
                ..Numbers::DISPROVEN
            };
        }
        if let Some(numbers) = self.leaf(position) {
            return numbers;
        }
        if let Some(height) = self.pinned_height(position, hash) {
            return Numbers {
                extra: height,
                ..Numbers::PROVEN
            };
        }
        let stored = self.stored(position, hash);
        if stored.is_none_or(|slot| slot.proof != 0 && slot.disproof != 0) {
            if let Some(depth) = self.path_dependent_disproof(position, hash) {
                self.path_dependent_met.fetch_add(1, Ordering::Relaxed);
                return Numbers {
                    extra: depth,
                    ..Numbers::DISPROVEN
                };
            }
        }
        match stored {
            Some(slot) => Numbers {
                proof: slot.proof,
                disproof: slot.disproof,
                extra: if slot.proof == 0 {
                    slot.height
                } else {
                    NO_DEPTH
                },
            },
            None => self.initial_numbers(position),
        }
    }

    /// The numbers of a position never searched: its [`Search::lead_numbers`], and each
    /// turn of the side to move past the first adds one to the number that must answer every
    /// one of its turns: the disproof number where the attacker moves, the proof number where
    /// the defender does (the usual mobility start of proof-number searches: a position is as
    /// far from settling as the turns to be answered). Heuristics that only order the search
    /// (never decide anything). Measured in `data/results.md`, "Twenty-fifth session": 43%
    /// fewer nodes on twelve 5x9 positions of the first-move splits, 44% on the 5x9 start's
    /// two searches, fewer on every small board.
    fn initial_numbers(&self, position: &Position) -> Numbers {
        let Numbers {
            mut proof,
            mut disproof,
            ..
        } = self.lead_numbers(position);
        let answered = count_turns(self.board, position).saturating_sub(1);
        let answered = answered.min(Number::MAX as u64 / 4) as Number;
        if position.side == self.attacker {
            disproof += answered;
        } else {
            proof += answered;
        }
        Numbers {
            proof,
            disproof,
            extra: 0,
        }
    }

    /// What material says of a position never searched: each stone the attacker is ahead
    /// adds [`LEAD_WEIGHT`] to the disproof number, each stone behind to the proof number.
    fn lead_numbers(&self, position: &Position) -> Numbers {
        let (attacker, defender) = if position.side == self.attacker {
            (position.mover.count(), position.waiting.count())
        } else {
            (position.waiting.count(), position.mover.count())
        };
        let lead = attacker as i64 - defender as i64;
        Numbers {
            proof: (1 + (-lead).max(0) * LEAD_WEIGHT) as Number,
            disproof: (1 + lead.max(0) * LEAD_WEIGHT) as Number,
            extra: 0,
        }
    }

    /// Expand `position` (not a leaf, at `depth` on the path) until its numbers reach the
    /// thresholds or it is resolved.
    fn expand(
        &mut self,
        position: &Position,
        proof_limit: Number,
        disproof_limit: Number,
        depth: u32,
    ) -> Result<Numbers, Stopped> {
        // The lists of children come from a pool, one pair per depth of the path, instead of
        // two allocations per node.
        let mut next = self.spare_children.pop().unwrap_or_default();
        let mut kids = self.spare_kids.pop().unwrap_or_default();
        let limits = (proof_limit, disproof_limit);
        let result = self.expand_with(position, limits, depth, &mut next, &mut kids);
        self.spare_children.push(next);
        self.spare_kids.push(kids);
        result
    }

    /// [`Search::expand`] with `next` and `kids` to hold the node's children.
    fn expand_with(
        &mut self,
        position: &Position,
        (proof_limit, disproof_limit): (Number, Number),
        depth: u32,
        next: &mut Vec<Position>,
        kids: &mut Vec<Child>,
    ) -> Result<Numbers, Stopped> {
        self.count_node()?;
        let start = self.nodes;
        let closures_before = self.closures;
        self.close_holds_when_due()?;
        // After a closure, a parent may still hold numbers from before it for a child now held.
        // (The root goes on, to find the turn that settles it.)
        if depth != self.root_depth && self.is_held(position) {
            return Ok(Numbers {
                extra: NO_DEPTH,
                ..Numbers::DISPROVEN
            });
        }
        let or_node = position.side == self.attacker;
        // On the path before the children are looked at: what they find about the path must
        // be what it will be when they are expanded.
        self.push_path_hash(position);
        self.path_enter(position, depth);
        next.clear();
        children(self.board, position, next);
        self.look_at_children(next, kids);
        let result = loop {
            let numbers = combine(or_node, self.counting, kids);
            if depth == self.root_depth {
                self.root_numbers = (numbers.proof, numbers.disproof);
            }
            if numbers.proof >= proof_limit
                || numbers.disproof >= disproof_limit
                || numbers.is_proven()
                || numbers.is_disproven()
            {
                break Ok(numbers);
            }
            let (best, child_proof_limit, child_disproof_limit) = select(
                or_node,
                self.counting,
                kids,
                numbers,
                proof_limit,
                disproof_limit,
            );
            self.frames.truncate((depth - self.root_depth) as usize);
            self.frames
                .push(Frame::of(or_node, self.counting, kids, best));
            let child = kids[best].position;
            match self.expand(&child, child_proof_limit, child_disproof_limit, depth + 1) {
                Ok(numbers) => kids[best].numbers = numbers,
                Err(stopped) => break Err(stopped),
            }
        };
        self.path_leave(position);
        self.path_prefix.pop();
        let mut numbers = result?;
        if self.closures != closures_before
            && !numbers.is_proven()
            && !numbers.is_disproven()
            && self.is_held(position)
        {
            // A closure found this position held while it was being searched: its children's
            // numbers from before the closure are out of date.
            numbers = Numbers {
                extra: NO_DEPTH,
                ..Numbers::DISPROVEN
            };
            if depth == self.root_depth {
                self.look_at_children(next, kids);
                self.root_choice = settling_child(or_node, kids, numbers);
            }
            return Ok(numbers);
        }
        if depth == self.root_depth {
            self.root_choice = settling_child(or_node, kids, numbers);
        }
        self.record(position, numbers, depth, self.nodes - start);
        Ok(numbers)
    }

    /// Close the held sets where the node count has reached the next closure and one is
    /// affordable now (else put the next one further off). Stopped where an interrupt cut
    /// the closure short.
    #[inline]
    fn close_holds_when_due(&mut self) -> Result<(), Stopped> {
        if self.nodes < self.next_closure {
            return Ok(());
        }
        if !self.closure_affordable() {
            self.put_off_closure();
            return Ok(());
        }
        let Turn::Now(_turn) = CLOSURE_TURNS.turn() else {
            self.put_off_closure();
            return Ok(());
        };
        self.close_holds_now();
        // What it freed goes back to the system, not into the allocator's arenas, whose
        // growth would leave the next closure less room beside the tables' pages.
        crate::freed_memory::give_back();
        // Its arrays took gigabytes for a while, pushing table pages out of the cache.
        if let Some(tables) = self.tables {
            tables.warm_files_probed_in_place();
        }
        // A closure takes minutes on a large table; one cut short by an interrupt stops the
        // search at once rather than at the next periodic check.
        if self.stop_requested() {
            return Err(self.stopped());
        }
        Ok(())
    }

    /// A closure due but not run now: tried again when the run has a sixteenth more nodes.
    fn put_off_closure(&mut self) {
        let run_nodes = self.nodes - self.run_start;
        self.next_closure = self.nodes + (run_nodes / 16).max(FIRST_CLOSURE);
    }

    /// Keep what the expansion of `position` at `depth` found, after `work` nodes below it: a
    /// disproof that relies on the path above in the path-dependent store, anything else in
    /// the table (and a proof pinned too while only pinned proofs are trusted). The root and
    /// its turns are kept while it is the root: a turn settled at little cost was pushed out by
    /// busier positions in a long 5x9 search, searched again after each restart, and missing
    /// from the search's status.
    #[inline]
    fn record(&mut self, position: &Position, numbers: Numbers, depth: u32, work: u64) {
        if numbers.is_disproven() && numbers.extra < depth {
            self.remember_path_dependent(position, numbers.extra);
        } else {
            let work = if depth <= self.root_depth + 1 {
                self.keep_root_turn(position, work);
                transposition::KEPT_FOR_GOOD
            } else {
                work
            };
            self.table.put(position, numbers, work);
            if self.pinned_proofs_only && numbers.is_proven() {
                self.pin_proven(position, numbers.extra);
            }
        }
    }

    /// Count `work` more for `position`, a turn of the root (or the root) kept in the table.
    fn keep_root_turn(&mut self, position: &Position, work: u64) {
        match self.kept_root_turns.iter_mut().find(|(p, _)| p == position) {
            Some((_, spent)) => *spent += work,
            None => self.kept_root_turns.push((*position, work)),
        }
    }

    /// Keep a disproof of `position` (the next node of the path) that relies on the path from
    /// depth `relied` on. The store is a cache: it is emptied when it reaches its size limit.
    fn remember_path_dependent(&mut self, position: &Position, relied: u32) {
        if self.path_dependent.len() >= filters::PATH_DEPENDENT_ENTRIES {
            self.forget_path_dependent();
            self.path_dependent_emptied += 1;
        }
        self.filters
            .mark_path_dependent(self.filters.place(position));
        let from = relied as usize;
        let length = (self.path_prefix.len() - from) as u32;
        let hash = self.stretch_hash(from);
        self.path_dependent.remember(position, length, hash);
    }

    /// Whether a closure found `position` held. (Asked for every child looked at: free until
    /// a closure has found something.)
    fn is_held(&self, position: &Position) -> bool {
        self.is_held_hashed(position, hash(position))
    }

    /// [`Self::is_held`] of `position`, whose [`hash`] is `hash`.
    fn is_held_hashed(&self, position: &Position, hash: u64) -> bool {
        if self.held.is_empty() || stones(position) > self.hold_stones {
            return false; // closures only look at positions of at most `hold_stones`
        }
        self.filters.may_be_held(self.filters.place_hashed(hash))
            && self.held.contains_hashed(position, hash)
    }

    /// Whether a closure now keeps closures within [`CLOSURE_TIME_SHARE`] of the run's time,
    /// counted at its expected cost.
    fn closure_affordable(&self) -> bool {
        self.last_closure.is_none_or(|last| {
            last.affords_another(
                self.closure_seconds,
                self.run_clock.elapsed().as_secs_f64(),
                self.nodes - self.run_start,
                self.most_candidates(),
            )
        })
    }

    /// Close the held sets now (see [`holds`]) and schedule the next closure.
    fn close_holds_now(&mut self) {
        let clock = Instant::now();
        let Some(closure) = self.close_holds(self.hold_stones) else {
            self.progress.note(&format!(
                "can {:?} force a win? {} nodes; closure cut short by the interrupt after \
                 {:.1} s (nothing of it kept)",
                self.attacker,
                self.nodes,
                clock.elapsed().as_secs_f64()
            ));
            return;
        };
        self.closures += 1;
        let seconds = clock.elapsed().as_secs_f64();
        // The next one when the run's nodes have doubled, if affordable then.
        let run_nodes = self.nodes - self.run_start;
        self.closure_seconds += seconds;
        self.last_closure = Some(LastClosure {
            run_nodes,
            seconds,
            candidates: closure.candidates,
        });
        self.next_closure = self.nodes + run_nodes.clamp(FIRST_CLOSURE, MAX_CLOSURE_INTERVAL);
        if closure.held > 0 || seconds >= 1.0 {
            let by_stones: Vec<String> = (0..closure.taken_by_stones.len())
                .filter(|&stones| closure.taken_by_stones[stones] > 0)
                .map(|stones| format!("{stones}: {}", closure.taken_by_stones[stones]))
                .collect();
            let looked_at = match closure.least_work {
                Some(work) => format!("those searched for at least {work} nodes"),
                None => "all".into(),
            };
            let looked_at = format!("{looked_at} looked at, by stones {}", by_stones.join(", "));
            // Without endgame tables, closures look at positions of any number of stones.
            let within = match self.hold_stones {
                u32::MAX => String::new(),
                stones => format!(" of at most {stones} stones"),
            };
            self.progress.note(&format!(
                "can {:?} force a win? {} nodes; {} of {} positions{within} held together \
                 ({} open in the table, {looked_at}; {} turns between them, {} left unlooked at \
                 after one that settles its position; \
                 {seconds:.1} s: listed {:.1}, turns looked at {:.1}, grouped {:.1}, \
                 eliminated {:.1}, kept {:.1})",
                self.attacker,
                self.nodes,
                closure.held,
                closure.candidates,
                closure.open,
                closure.turns,
                closure.turns_unlooked,
                closure.seconds[0],
                closure.seconds[1],
                closure.seconds[2],
                closure.seconds[3],
                closure.seconds[4]
            ));
        }
    }

    fn forget_path_dependent(&mut self) {
        // Nothing stored, no filter bit set: reading off a certificate asks this for every
        // position it covers, and clearing 16 MB of filters each time was a third of it.
        if self.path_dependent.is_empty() {
            return;
        }
        // A few stored: their filter words alone are cleared. Reading off a certificate stores
        // a few after a re-search and forgets them at the next; zeroing all the filters each
        // time was 40% of its time.
        self.filters.clear_path_dependent(
            self.path_dependent.positions_count(),
            self.path_dependent.positions(),
        );
        self.path_dependent.clear();
    }

    /// A checkpoint (see [`Search::save_every`]) if one is due.
    fn save_if_due(&mut self) {
        let Some(checkpoint) = &self.checkpoint else {
            return;
        };
        if checkpoint.last.elapsed() < checkpoint.every {
            return;
        }
        let clock = Instant::now();
        let file = checkpoint.file.clone();
        self.record_live_path();
        let message = match self.save(&file) {
            Ok(()) => format!(
                "can {:?} force a win? {} nodes; saved in {} ({:.1} s)",
                self.attacker,
                self.nodes,
                file.display(),
                clock.elapsed().as_secs_f64()
            ),
            Err(e) => format!(
                "can {:?} force a win? could not save in {} ({e}); going on",
                self.attacker,
                file.display()
            ),
        };
        self.progress.note(&message);
        if let Some(checkpoint) = &mut self.checkpoint {
            checkpoint.last = Instant::now();
        }
    }

    /// The held positions met since the last call, by stones, for a note ("" if none).
    fn take_held_met(&self) -> String {
        let met: Vec<String> = (0..self.held_met.len())
            .filter_map(|stones| {
                let count = self.held_met[stones].swap(0, Ordering::Relaxed);
                (count > 0).then(|| format!("{stones}: {count}"))
            })
            .collect();
        if met.is_empty() {
            String::new()
        } else {
            format!(
                "; held positions met as children since the last note, by stones: {}",
                met.join(", ")
            )
        }
    }

    /// The path-dependent store's size, how often it was emptied and how many children it
    /// answered since the last call, for a note.
    fn take_path_dependent_note(&self) -> String {
        format!(
            "path-dependent disproofs kept: {} for {} positions (emptied at {}, {} times this \
             run), children they answered since the last note: {}",
            self.path_dependent.len(),
            self.path_dependent.positions_count(),
            filters::PATH_DEPENDENT_ENTRIES,
            self.path_dependent_emptied,
            self.path_dependent_met.swap(0, Ordering::Relaxed)
        )
    }

    /// Whether the search was asked to stop (an interrupt).
    fn stop_requested(&self) -> bool {
        self.stop.is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn count_node(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.nodes - self.reported >= REPORT_EVERY {
            self.progress.advance(self.nodes - self.reported);
            self.reported = self.nodes;
            if self.nodes % NOTE_EVERY < REPORT_EVERY {
                let live = live_numbers(&self.frames);
                let (proof, disproof) = live.first().copied().unwrap_or(self.root_numbers);
                let plies: Vec<String> = live
                    .iter()
                    .skip(1)
                    .take(NOTED_PLIES)
                    .map(|(proof, disproof)| format!("{proof}/{disproof}"))
                    .collect();
                self.progress.note(&format!(
                    "can {:?} force a win? {} nodes; at the root, proof number {proof}, \
                     disproof number {disproof} (on the path below it: {}){}; {}",
                    self.attacker,
                    self.nodes,
                    plies.join(", "),
                    self.take_held_met(),
                    self.take_path_dependent_note()
                ));
            }
            if self.stop_requested() {
                return Err(self.stopped());
            }
            self.save_if_due();
        }
        if self.nodes > self.node_limit {
            return Err(self.stopped());
        }
        Ok(())
    }

    /// Stop the search here (at the start of a node's expansion), with the numbers its path
    /// stands at in the table: the search unwinds without recording them.
    fn stopped(&mut self) -> Stopped {
        self.record_live_path();
        Stopped
    }

    /// Put into the table the numbers each position on the path stands at now (see
    /// [`live_numbers`]; the root's and its turns' kept for good as ever), called between two
    /// expansions: before a save and when the search stops. A node records its numbers only
    /// when its expansion ends, and on a long search's first plies that takes billions of
    /// nodes, so that a save or a stop left them as they were then: a status read the line
    /// worked on as it was hours before, and a search that went on from a save found its
    /// path's numbers out of date. The table is not read for a position while it is on the
    /// path, so the search goes on as it would (but that a position new to the table takes its
    /// slot now rather than when its expansion ends); no work is counted (a node counts its
    /// work when its expansion ends), and a position a closure held or the table holds settled
    /// is left out.
    fn record_live_path(&mut self) {
        let mut on_path: Vec<(u32, Position)> = self
            .path
            .iter()
            .filter(|&(_, &depth)| depth >= self.root_depth)
            .map(|(position, &depth)| (depth, *position))
            .collect();
        on_path.sort_unstable_by_key(|&(depth, _)| depth);
        // Each node on the path pushed its frame when it chose the child below it.
        debug_assert!(on_path.len() <= self.frames.len());
        let frames = &self.frames[..on_path.len().min(self.frames.len())];
        for (&(depth, position), (proof, disproof)) in on_path.iter().zip(live_numbers(frames)) {
            let numbers = Numbers {
                proof,
                disproof,
                extra: 0,
            };
            if numbers.is_proven() || numbers.is_disproven() || self.is_held(&position) {
                continue;
            }
            // A result stays: a re-search that trusts only pinned proofs expands positions
            // the table holds proven.
            let settled = |slot: Stored| slot.proof == 0 || slot.disproof == 0;
            if self.stored(&position, hash(&position)).is_some_and(settled) {
                continue;
            }
            if depth == self.root_depth {
                self.root_numbers = (proof, disproof);
            }
            self.record(&position, numbers, depth, 0);
        }
    }
}

/// How many plies below the root the periodic notes give the numbers of.
const NOTED_PLIES: usize = 4;

/// How many of `positions` there are of each material of at most `most_stones` stones, in
/// order of stones, then stones to move.
fn count_by_material(
    positions: impl Iterator<Item = Position>,
    most_stones: u32,
) -> Vec<(Material, usize)> {
    let mut counts: HashMap<Material, usize> = HashMap::new();
    for position in positions.filter(|p| stones(p) <= most_stones) {
        *counts
            .entry(Material::of(position.mover, position.waiting))
            .or_default() += 1;
    }
    let mut counts: Vec<(Material, usize)> = counts.into_iter().collect();
    counts.sort_by_key(|(m, _)| (m.stones(), m.mover));
    counts
}

#[cfg(test)]
mod tests {
    use super::saved_state::HELD_MAGIC;
    use super::transposition::{slot_position, USED};
    use super::*;
    use crate::progress::NoProgress;

    /// A search without tables, under the default rules.
    fn search_on(board: &Board, attacker: Color, limits: Limits) -> Search<'_> {
        Search::new(board, Rules::default(), None, attacker, limits, &NoProgress)
    }

    /// A search for White that is only asked the numbers of unsearched positions.
    fn unsearched_numbers_of(board: &Board) -> Search<'_> {
        let limits = Limits {
            nodes: 10,
            memory: 1 << 16,
            ..Limits::default()
        };
        search_on(board, Color::White, limits)
    }

    /// A search for White that searches nothing: for what its notes count.
    fn unsearching(board: &Board) -> Search<'_> {
        let limits = Limits {
            nodes: 0,
            memory: 1 << 20,
            ..Limits::default()
        };
        search_on(board, Color::White, limits)
    }

    #[test]
    fn children_a_path_dependent_disproof_answers_are_counted_until_noted() {
        let board = Board::standard();
        let mut search = unsearching(&board);
        let mut seed = 5;
        let above = Position::random_placement(&board, 8, 8, &mut seed);
        let child = Position::random_placement(&board, 8, 7, &mut seed);
        // Disproven below `above` as the path: a repetition of `above` relied on.
        search.push_path_hash(&above);
        search.remember_path_dependent(&child, 0);
        assert!(search.first_look(&child, hash(&child)).is_disproven());
        assert!(search.first_look(&child, hash(&child)).is_disproven());
        let note = search.take_path_dependent_note();
        assert!(
            note.ends_with(
                "(emptied at 4194304, 0 times this run), children they answered \
                            since the last note: 2"
            ),
            "{note}"
        );
        assert!(
            search
                .take_path_dependent_note()
                .ends_with("since the last note: 0"),
            "counted afresh after each note"
        );
    }

    #[test]
    fn held_children_met_are_counted_by_stones_until_noted() {
        let board = Board::standard();
        let mut search = unsearching(&board);
        let mut seed = 3;
        let held = Position::random_placement(&board, 4, 5, &mut seed);
        let other = Position::random_placement(&board, 3, 3, &mut seed);
        search.mark_held(&held);
        assert!(search.first_look(&held, hash(&held)).is_disproven());
        assert!(search.first_look(&held, hash(&held)).is_disproven());
        search.first_look(&other, hash(&other));
        let note = search.take_held_met();
        assert!(note.ends_with("by stones: 9: 2"), "{note}");
        assert_eq!(search.take_held_met(), "", "counted afresh after each note");
    }

    #[test]
    fn the_roots_turns_stay_in_a_crowded_table_until_another_root_is_searched() {
        let board = Board::standard();
        // Three buckets used of four, two slots each.
        let limits = Limits {
            nodes: 0,
            memory: 8 * std::mem::size_of::<transposition::Slot>(),
            ..Limits::default()
        };
        let mut search = search_on(&board, Color::White, limits);
        let mut seed = 11;
        let root = Position::random_placement(&board, 4, 5, &mut seed);
        search.begin_at(&root);
        // Per bucket: a turn of the root, a deeper position with the same numbers, and four
        // busier open ones.
        let mut in_bucket = [Vec::new(), Vec::new(), Vec::new()];
        while in_bucket.iter().any(|positions| positions.len() < 6) {
            let position = Position::random_placement(&board, 4, 5, &mut seed);
            let Some(positions) = in_bucket.get_mut(search.table.bucket(&position) / 2) else {
                continue;
            };
            if position != root && !positions.contains(&position) && positions.len() < 6 {
                positions.push(position);
            }
        }
        let root_turn_depth = search.root_depth + 1;
        let proven = Numbers {
            extra: 3,
            ..Numbers::PROVEN
        };
        let open = Numbers {
            proof: 5,
            disproof: 7,
            extra: 0,
        };
        for (positions, numbers) in in_bucket.iter().zip([proven, Numbers::DISPROVEN, open]) {
            // Each after a single node, the busier ones after a thousand.
            search.record(&positions[0], numbers, root_turn_depth, 1);
            search.record(&positions[1], numbers, root_turn_depth + 1, 1);
            for position in &positions[2..] {
                search.record(position, open, root_turn_depth + 2, 1000);
            }
        }
        let [with_proof, with_disproof, with_open] = &in_bucket;
        assert_eq!(search.known(&with_proof[0]), Some((Outcome::Proven, 3)));
        assert_eq!(
            search.known(&with_disproof[0]),
            Some((Outcome::Disproven, 0))
        );
        assert_eq!(search.stored_numbers(&with_open[0]), Some((5, 7)));
        for deeper in [&with_proof[1], &with_disproof[1], &with_open[1]] {
            assert_eq!(search.stored_numbers(deeper), None, "pushed out");
        }

        // From another root, they are ordinary slots again, pushed out by busier ones.
        search.begin_at(&with_proof[1]);
        for positions in &in_bucket {
            for position in &positions[2..] {
                search.record(position, open, root_turn_depth + 2, 1000);
            }
        }
        for positions in &in_bucket {
            assert_eq!(search.stored_numbers(&positions[0]), None);
        }
    }

    #[test]
    fn trusting_only_pinned_proofs_searches_the_others_again_and_pins_what_it_proves() {
        let board = Board::new(3, 5).unwrap();
        let start = Position::standard_start(&board);
        let limits = Limits {
            nodes: 1_000_000,
            memory: 1 << 20,
            ..Limits::default()
        };
        let mut search = search_on(&board, Color::White, limits);
        assert_eq!(search.solve(&start), Outcome::Proven);
        assert!(matches!(search.known(&start), Some((Outcome::Proven, _))));
        assert_eq!(search.pinned_count(), 0, "nothing is pinned unasked");
        search.trust_only_pinned_proofs();
        assert_eq!(
            search.known(&start),
            None,
            "the table's proof is not trusted"
        );
        let nodes = search.nodes();
        assert_eq!(search.solve(&start), Outcome::Proven);
        assert!(search.nodes() > nodes + 1, "searched again below the root");
        assert!(matches!(search.known(&start), Some((Outcome::Proven, _))));
        // Every pinned position is one the rules or the pins prove: a winning turn for White
        // to move, every turn for Black.
        let pinned: Vec<Position> = search.pinned.positions().collect();
        assert_eq!(pinned.len(), search.pinned_count());
        assert!(pinned.contains(&start));
        let won = |p: &Position| matches!(search.known(p), Some((Outcome::Proven, _)));
        for position in &pinned {
            let mut next = Vec::new();
            children(&board, position, &mut next);
            if position.side == Color::White {
                assert!(next.iter().any(won), "{position:?}");
            } else {
                assert!(next.iter().all(won), "{position:?}");
            }
        }
    }

    #[test]
    fn a_saved_search_goes_on_in_a_table_of_another_size() {
        let board = Board::new(3, 5).unwrap();
        let start = Position::standard_start(&board);
        let limits = |memory| Limits {
            nodes: 1_000_000,
            memory,
            ..Limits::default()
        };
        let mut search = search_on(&board, Color::White, limits(1 << 20));
        assert_eq!(search.solve(&start), Outcome::Proven);
        let file = std::env::temp_dir().join(format!("fanorona-resize-{}", std::process::id()));
        search.save(&file).unwrap();
        let settled: Vec<Position> = search
            .table
            .slots
            .iter()
            .filter(|slot| slot[1] & USED != 0)
            .map(slot_position)
            .filter(|p| search.known(p).is_some())
            .collect();
        for memory in [1 << 19, 1 << 22] {
            let mut resumed = search_on(&board, Color::White, limits(memory));
            resumed.resume(&file).unwrap();
            assert_eq!(resumed.nodes(), search.nodes());
            assert_eq!(resumed.known(&start), search.known(&start));
            let kept = settled
                .iter()
                .filter(|p| resumed.known(p) == search.known(p))
                .count();
            if memory > 1 << 20 {
                assert_eq!(kept, settled.len(), "a larger table keeps every entry");
            } else {
                assert!(
                    kept * 2 >= settled.len(),
                    "kept {kept} of {}",
                    settled.len()
                );
            }
        }
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn a_stopped_search_records_the_numbers_its_path_stood_at() {
        let board = Board::new(5, 5).unwrap();
        let start = Position::standard_start(&board);
        let limits = Limits {
            nodes: 20_000,
            memory: 1 << 22,
            ..Limits::default()
        };
        let mut search = search_on(&board, Color::White, limits);
        assert_eq!(search.solve(&start), Outcome::Unknown);
        // The frames still describe the path the search stopped on, from the root down.
        let live = live_numbers(&search.frames);
        assert!(live.len() > 2, "{live:?}");
        assert_eq!(search.stored_numbers(&start), Some(live[0]));
        assert_eq!(search.root_numbers, live[0]);
        let mut turns = Vec::new();
        children(&board, &start, &mut turns);
        assert!(
            turns
                .iter()
                .any(|turn| search.stored_numbers(turn) == Some(live[1])),
            "no turn of the root stands at {:?}",
            live[1]
        );
        // Going on from there settles the root as a search never stopped does.
        let mut whole = search_on(
            &board,
            Color::White,
            Limits {
                nodes: 50_000_000,
                ..limits
            },
        );
        let settled = whole.solve(&start);
        assert_ne!(settled, Outcome::Unknown);
        search.extend_limit(50_000_000);
        assert_eq!(search.solve(&start), settled);
    }

    #[test]
    fn a_periodic_save_holds_the_numbers_the_path_stands_at() {
        let board = Board::new(5, 5).unwrap();
        let start = Position::standard_start(&board);
        let limits = Limits {
            nodes: 200_000,
            memory: 1 << 22,
            ..Limits::default()
        };
        let file = std::env::temp_dir().join(format!("fanorona-live-{}", std::process::id()));
        let mut search = search_on(&board, Color::White, limits);
        search.save_every(file.clone(), Duration::ZERO);
        assert_eq!(search.solve(&start), Outcome::Unknown);
        let mut resumed = search_on(&board, Color::White, limits);
        resumed.resume(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        // Saved at the last progress report, in the middle of the root's expansion.
        assert!(resumed.nodes() < search.nodes());
        let (proof, disproof) = resumed.stored_numbers(&start).expect("the root's numbers");
        assert!(proof != 0 && disproof != 0, "{proof} / {disproof}");
    }

    #[test]
    fn a_save_that_fails_leaves_nothing_half_written_and_names_its_file() {
        let board = Board::new(3, 3).unwrap();
        let limits = Limits {
            nodes: 1000,
            memory: 1 << 16,
            ..Limits::default()
        };
        let search = search_on(&board, Color::White, limits);
        // A directory where the file should go: the state is written beside it, and the
        // rename over it fails.
        let dir = std::env::temp_dir().join(format!("fanorona-save-{}", std::process::id()));
        let path = dir.join("search.dfpn");
        std::fs::create_dir_all(path.join("in-the-way")).unwrap();
        let error = search.save(&path).unwrap_err().to_string();
        assert!(
            error.contains("saving the search to") && error.contains("search.dfpn"),
            "{error}"
        );
        assert!(
            !path.with_extension("tmp").exists(),
            "the half-done save is removed"
        );
        let mut other = search_on(&board, Color::White, limits);
        let missing = dir.join("absent.dfpn");
        let error = other.resume(&missing).unwrap_err().to_string();
        assert!(error.contains("absent.dfpn"), "{error}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_saved_search_keeps_its_held_set_and_refuses_a_damaged_one() {
        // The 5x5 start is a draw: Black's search finds holds in its first closure (after
        // FIRST_CLOSURE nodes).
        let board = Board::new(5, 5).unwrap();
        let start = Position::standard_start(&board);
        let limits = Limits {
            nodes: FIRST_CLOSURE + 1000,
            memory: 1 << 22,
            ..Limits::default()
        };
        let new_search = || search_on(&board, Color::Black, limits);
        let mut search = new_search();
        search.solve(&start);
        assert!(!search.held.is_empty(), "closures held positions");
        let file = std::env::temp_dir().join(format!("fanorona-held-{}", std::process::id()));
        search.save(&file).unwrap();
        let mut resumed = new_search();
        resumed.resume(&file).unwrap();
        assert_eq!(resumed.held.len(), search.held.len());
        assert!(search.held.positions().all(|p| resumed.is_held(&p)));

        let bytes = std::fs::read(&file).unwrap();
        let held_at = bytes.len() - 16 * search.held.len() - 16;
        assert_eq!(&bytes[held_at..held_at + 8], HELD_MAGIC);
        let damaged: [(&str, Vec<u8>); 3] = [
            ("cut short", bytes[..bytes.len() - 5].to_vec()),
            ("longer than", [&bytes[..], &[0u8; 3]].concat()),
            ("does not fit", {
                let mut off_board = bytes.clone();
                off_board[held_at + 16 + 7] |= 0x40; // a mover's stone on point 62
                off_board
            }),
        ];
        for (why, contents) in damaged {
            std::fs::write(&file, contents).unwrap();
            let error = new_search().resume(&file).unwrap_err().to_string();
            assert!(error.contains(why), "{why}: {error}");
        }
        std::fs::remove_file(&file).unwrap();
    }

    #[test]
    fn the_side_ahead_in_stones_starts_closer_to_winning() {
        let board = Board::standard();
        let search = unsearched_numbers_of(&board);
        // White (the attacker) three stones against one, either side to move.
        for side in [Color::White, Color::Black] {
            let position = Position::from_colors(
                fanorona_engine::Bitboard(0b111),
                fanorona_engine::Bitboard(1 << 40),
                side,
            );
            let numbers = search.lead_numbers(&position);
            assert_eq!(
                (numbers.proof, numbers.disproof),
                (1, 1 + 2 * LEAD_WEIGHT as Number)
            );
        }
        // Level material: no preference.
        let level = Position::from_colors(
            fanorona_engine::Bitboard(1),
            fanorona_engine::Bitboard(1 << 40),
            Color::Black,
        );
        let numbers = search.lead_numbers(&level);
        assert_eq!((numbers.proof, numbers.disproof), (1, 1));
    }

    #[test]
    fn each_turn_past_the_first_adds_one_to_the_number_the_mover_answers_every_turn_of() {
        let board = Board::standard();
        let search = unsearched_numbers_of(&board);
        // One stone a side, far apart (no capture): the stone on e3, the centre, has its
        // eight steps; the one on a1, a corner, its three.
        let centre = fanorona_engine::Bitboard(1 << (2 * 9 + 4));
        let corner = fanorona_engine::Bitboard(1);
        let white_centre = Position::from_colors(centre, corner, Color::White);
        let white_corner = Position::from_colors(corner, centre, Color::White);
        let black_centre = Position::from_colors(corner, centre, Color::Black);
        let numbers = |position: &Position| {
            let numbers = search.initial_numbers(position);
            (numbers.proof, numbers.disproof)
        };
        // White, the attacker, to move: White must find one turn that wins, and a disproof
        // must answer each of them.
        assert_eq!(numbers(&white_centre), (1, 8));
        assert_eq!(numbers(&white_corner), (1, 3));
        // Black, the defender, to move: a proof must answer each of Black's turns.
        assert_eq!(numbers(&black_centre), (8, 1));
    }

    #[test]
    fn closures_keep_to_a_fifth_of_the_time_counted_at_their_expected_cost() {
        // The 5x9 start's first closure: 2^20 nodes in, 1.3 s for 469,536 candidates, at
        // about a million nodes a second; a 4 GiB table takes 2^25 candidates.
        let first = LastClosure {
            run_nodes: 1 << 20,
            seconds: 1.3,
            candidates: 469_536,
        };
        let most = 1 << 25;
        let at = |nodes: u64| {
            let elapsed = 1.3 + nodes as f64 / 1e6;
            first.affords_another(1.3, elapsed, nodes, most)
        };
        // While the table fills, the next closure would cost as much as the searching since:
        // none is afforded ...
        assert!(!at(2 << 20) && !at(32 << 20));
        // ... until its cost stops growing at the most candidates, 71 times the first's
        // (93 s), and the run has searched four times that since.
        assert!(!at(300_000_000));
        assert!(at(400_000_000));
        // Once a closure takes the most candidates, the next costs the same: it comes when the
        // run has searched four times as long as it took.
        let cheap = LastClosure {
            candidates: most,
            ..first
        };
        assert!(cheap.affords_another(1.3, 13.0, 2 << 20, most));
        assert!(!cheap.affords_another(1.3, 2.6, 2 << 20, most));
    }
}
