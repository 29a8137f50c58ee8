//! Holds found all at once: the attacker's failures that rest on play going round for ever.
//!
//! A draw is a disproof that leans on repetitions. df-pn stores only path-independent results,
//! so a hold that works by going round a cycle is found again, path by path, every time the
//! search comes back to it: on drawn positions above the endgame tables the search never ends.
//!
//! This closes them together. Take the positions the transposition table has seen but not
//! resolved (and those with a disproof kept aside for their path), and find the greatest set
//! `H` of them such that from each position of `H`:
//! - with the attacker to move, every turn leads into `H` or to a position the attacker cannot
//!   win (disproven in the table, or by the rules or the endgame tables);
//! - with the defender to move, some turn does.
//!
//! Then from any position of `H` the defender can keep play inside `H` until it reaches a
//! position the attacker cannot win, or for ever (a draw): the attacker cannot force a win
//! from any of them, whatever the path before, and each is disproven outright (kept in the
//! search's held set, which a saved search keeps after its table).
//! The set is found by elimination, as in retrograde analysis: first every position that fails
//! on its own (an attacker's turn to a position that may win, a defender without a holding
//! turn), then, each time one is dropped, its parents are looked at again.

use super::candidates::{CandidateList, Candidates};
use super::position_map::{Packed, PositionMap};
use super::transposition::{unresolved_with_work_in, Slot};
use super::{stones, FastMap, Numbers, ProbeBuffers, Search};
use fanorona_engine::movegen::children;
use fanorona_engine::{hash, Color, Position};
use rayon::prelude::*;
use std::time::Instant;

/// What a turn of a candidate leads to, for the closure.
#[derive(Clone, Copy)]
enum Target {
    /// A position the attacker cannot win: good for the defender whatever happens.
    Held,
    /// The same, known from a disproof in the transposition table, where a collision may
    /// later overwrite it: if a held set relies on it, it is kept with the set.
    DisprovenInTable,
    /// A position that is a candidate itself (its index).
    Candidate(u32),
    /// A position the attacker wins (proven).
    Open,
    /// A position neither resolved nor a candidate.
    Unknown,
}

/// Whether a turn to `target` settles the candidate it is a turn of, whatever the others lead
/// to: a turn to a win fails the attacker's position, a turn to a held position holds the
/// defender's for good. Its other turns are left unlooked at, which changes no candidate's
/// fate (see [`HoldGraph::record`]: such a candidate adds no positions, and its turns to other
/// candidates never decide whether it holds); only the table's disproofs a held defender's
/// position relies on are those before the settling turn, not all of its turns'.
fn settles(is_attacker: bool, target: Target) -> bool {
    match target {
        Target::Open => is_attacker,
        Target::Held => !is_attacker,
        Target::DisprovenInTable | Target::Candidate(_) | Target::Unknown => false,
    }
}

/// What the turns of a run of candidates lead to, one candidate after another: the k-th's are
/// `turns[starts[k]..starts[k + 1]]`. Kept from batch to batch (fresh buffers for every batch
/// cost the kernel's page zeroing).
#[derive(Default)]
struct LookedAt {
    starts: Vec<usize>,
    turns: Vec<(Position, Target)>,
    /// The turns left unlooked at, after one that settles its candidate (see [`settles`]).
    unlooked: usize,
}

impl LookedAt {
    /// How many candidates it holds.
    fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The turns of its k-th candidate.
    fn turns_of(&self, k: usize) -> &[(Position, Target)] {
        &self.turns[self.starts[k]..self.starts[k + 1]]
    }
}

/// The candidates a closure adds as it records their parents' turns. The index of candidates
/// is written to between batches only (the next batch is looked at against it while this one
/// is recorded), so the additions since are kept here: those of the batch recorded before
/// (which the batch being recorded was looked at too early to see) and those of this one.
struct Growth {
    added: FastMap<Position, u32>,
    added_before: FastMap<Position, u32>,
    /// This batch's additions in order, for the index.
    pending: Vec<(Position, u32)>,
    /// The number the next addition takes.
    next: usize,
    most: usize,
    max_stones: u32,
}

impl Growth {
    /// Room for `most` candidates in all, `listed` of them there already, of at most
    /// `max_stones` stones.
    fn new(listed: usize, most: usize, max_stones: u32) -> Growth {
        Growth {
            added: FastMap::default(),
            added_before: FastMap::default(),
            pending: Vec::new(),
            next: listed,
            most,
            max_stones,
        }
    }

    /// A turn to a position that was unknown when its batch was looked at: a candidate if it
    /// was added since (then every candidate added before the one being recorded is known,
    /// however many candidates a batch looks at).
    fn added_since(&self, child: Position, target: Target) -> Target {
        match target {
            Target::Unknown => match self.added.get(&child).or(self.added_before.get(&child)) {
                Some(&j) => Target::Candidate(j),
                None => Target::Unknown,
            },
            known => known,
        }
    }

    /// A turn to a position still unknown: a new candidate where there is room and it has few
    /// enough stones.
    fn add(&mut self, child: Position) -> Target {
        if self.next >= self.most || stones(&child) > self.max_stones {
            return Target::Unknown;
        }
        let j = self.next as u32;
        self.next += 1;
        self.added.insert(child, j);
        self.pending.push((child, j));
        Target::Candidate(j)
    }

    /// Write this batch's additions into `candidates`, once no batch is being looked at; they
    /// become the batch before's.
    fn write_into(&mut self, candidates: &mut Candidates) {
        for (k, (position, j)) in self.pending.iter().enumerate() {
            if let Some((ahead, _)) = self.pending.get(k + PREFETCH_AHEAD) {
                candidates.prefetch_hashed(hash(ahead));
            }
            let numbered = candidates.insert(position);
            assert_eq!(numbered, *j, "an addition that was a candidate already");
        }
        self.pending.clear();
        std::mem::swap(&mut self.added, &mut self.added_before);
        self.added.clear();
    }
}

/// What the last closure did, for the progress notes.
pub(super) struct Closure {
    pub candidates: usize,
    pub held: usize,
    /// The open positions the table and the path-dependent cache offered ...
    pub open: usize,
    /// ... and, where there were too many, the least work of those taken (most work first) ...
    pub least_work: Option<u64>,
    /// ... and those taken, by stones.
    pub taken_by_stones: [usize; RANKS],
    /// The turns from one candidate to another ...
    pub turns: usize,
    /// ... and those left unlooked at, after a turn that settles its candidate.
    pub turns_unlooked: usize,
    /// Seconds spent listing the candidates, looking at their turns, grouping the turns by
    /// where they lead, eliminating the candidates that fail, and keeping the held ones.
    pub seconds: [f64; 5],
}

/// Seconds from one lap to the next.
struct PhaseClock(Instant);

impl PhaseClock {
    fn start() -> PhaseClock {
        PhaseClock(Instant::now())
    }

    fn lap(&mut self) -> f64 {
        let now = Instant::now();
        let seconds = now.duration_since(self.0).as_secs_f64();
        self.0 = now;
        seconds
    }
}

/// The turns between candidates as a closure finds them: candidate `p`'s lead to the
/// candidates `to[start[p]..start[p + 1]]`. (Numbers of 32 bits: 4 bytes a candidate less than
/// a `usize`, 134 MB of a closure's peak for 2^25 candidates.)
struct Turns {
    to: Vec<u32>,
    start: Vec<u32>,
    /// How many turns of the candidates were left unlooked at (see [`settles`]).
    unlooked: usize,
}

/// The positions a closure looks at and the turns between them.
struct HoldGraph {
    candidates: CandidateList,
    /// Per candidate: not (yet) shown to fail.
    alive: Vec<bool>,
    /// Per candidate: how many of its turns hold (what a defender's position needs one of).
    holding_turns: Vec<u32>,
    /// Every turn from one candidate to another, by the candidate it leads to: the parents of
    /// candidate `c` are `parents[parent_start[c]..parent_start[c + 1]]`.
    parent_start: Vec<u32>,
    parents: Vec<u32>,
    /// Candidates shown to fail whose parents are still to be looked at again.
    failed: Vec<u32>,
    /// (candidate, position): the table's disproofs a candidate's turns lead to.
    relied: Vec<(u32, Position)>,
}

impl Search<'_> {
    /// Store as disproven every position of the greatest held set among the unresolved
    /// positions of at most `max_stones` stones (see the module's documentation). `None`, with
    /// nothing changed, when the search is asked to stop before the closure is done.
    pub(super) fn close_holds(&mut self, max_stones: u32) -> Option<Closure> {
        let mut clock = PhaseClock::start();
        let (candidates, open, least_work) =
            self.hold_candidates(max_stones, self.most_candidates() / 2);
        let taken_by_stones = count_by_stones(candidates.iter().copied());
        let listing = clock.lap();
        if self.stop_requested() {
            return None;
        }
        let (mut graph, turns) = self.hold_graph(candidates, max_stones, LOOKED_AT_ONCE)?;
        let looking = clock.lap();
        graph.group_parents(&turns, rayon::current_num_threads());
        let (turns_unlooked, turns) = (turns.unlooked, turns.to.len());
        let grouping = clock.lap();
        graph.eliminate(self.attacker);
        let (newly_held, held) = newly_held(&graph);
        let candidates = graph.candidates.len();
        drop(graph);
        let eliminating = clock.lap();
        // Room first, so that the set never grows past its bound (then the bound again, in
        // case this closure alone held more than that).
        self.limit_held(self.most_held().saturating_sub(newly_held.len()));
        for position in &newly_held {
            self.mark_held(position);
        }
        self.limit_held(self.most_held());
        self.met.clear();
        Some(Closure {
            candidates,
            held,
            open,
            least_work,
            taken_by_stones,
            turns,
            turns_unlooked,
            seconds: [listing, looking, grouping, eliminating, clock.lap()],
        })
    }

    /// The candidates, each looked at once: which turns hold, which lead to other candidates,
    /// and which fail outright. Positions the search never reached are added as candidates too,
    /// up to a limit: a hold needs every turn of the attacker answered, and df-pn only looks
    /// at the most promising.
    ///
    /// Looked at `batch` candidates at a time, in parallel (the graph is the same for any);
    /// the turns between candidates come apart, to be grouped by where they lead. `None` when
    /// the search is asked to stop first (looking at the turns is most of a closure's time).
    fn hold_graph(
        &self,
        listed: Vec<Position>,
        max_stones: u32,
        batch: usize,
    ) -> Option<(HoldGraph, Turns)> {
        let most = (2 * listed.len() + EXPLORE_AT_LEAST).min(self.most_candidates());
        // Room for all of them at once: growing by doubling wrote every array it outgrew,
        // and fresh memory is slow to fault in (an eighth of a long search's closure went on
        // the kernel zeroing pages for the index alone).
        let mut candidates = Candidates::with_room(most.max(listed.len()));
        for (i, position) in listed.iter().enumerate() {
            // Tens of millions of candidates take seconds to index.
            if i % INDEXED_BETWEEN_STOP_CHECKS == 0 && self.stop_requested() {
                return None;
            }
            candidates.insert(position);
        }
        drop(listed);
        // The list goes into the graph once every candidate is recorded: till then the
        // batches are looked at against it while the graph is written to.
        let mut graph = HoldGraph {
            alive: Vec::with_capacity(most),
            holding_turns: Vec::with_capacity(most),
            candidates: CandidateList::with_room(0),
            parent_start: Vec::new(),
            parents: Vec::new(),
            failed: Vec::new(),
            relied: Vec::new(),
        };
        // The turns between candidates: candidate i's go to `turns[turn_start[i]..]`, up to the
        // next candidate's start.
        let (mut turns, mut turn_start) = (Vec::new(), Vec::with_capacity(most + 1));
        let mut growth = Growth::new(candidates.len(), most, max_stones);
        // Each batch is looked at in parallel (all but the candidates added since the index
        // was last written to, which only the turns in order can tell, so that the graph is
        // the same, turn for turn, as when candidates are looked at one after another) while
        // the batch before is recorded: recording is sequential, and alone it left a core
        // idle for two fifths of a long search's closure.
        let (mut looked, mut looking) = (Vec::new(), Vec::new());
        let (mut looked_range, mut tasks) = (0..0, 0);
        let mut next_batch: Vec<Position> = Vec::new();
        let (mut i, attacker, mut unlooked) = (0, self.attacker, 0);
        while i < candidates.len() {
            if self.stop_requested() {
                return None;
            }
            if looked_range.is_empty() {
                // Nothing looked at yet, or the looking caught up with the candidates while
                // the last batch's recording added more: those are looked at now, alone.
                looked_range = i..candidates.len().min(i + batch);
                unpack_into(&mut next_batch, &candidates.list()[looked_range.clone()]);
                tasks = self.look_at_batch(&next_batch, &candidates, &mut looked);
            }
            let next_range = looked_range.end..candidates.len().min(looked_range.end + batch);
            unpack_into(&mut next_batch, &candidates.list()[next_range.clone()]);
            let (next_tasks, ()) = rayon::join(
                || self.look_at_batch(&next_batch, &candidates, &mut looking),
                || {
                    for part in &looked[..tasks] {
                        unlooked += part.unlooked;
                        for k in 0..part.len() {
                            turn_start.push(turn_count(&turns));
                            let is_attacker = candidates.list()[i].side() == attacker;
                            let looked = part.turns_of(k);
                            graph.record(i as u32, is_attacker, looked, &mut growth, &mut turns);
                            i += 1;
                        }
                    }
                },
            );
            growth.write_into(&mut candidates);
            std::mem::swap(&mut looked, &mut looking);
            (tasks, looked_range) = (next_tasks, next_range);
        }
        // Every candidate recorded: one left out would count as holding for its parents.
        assert_eq!(
            graph.alive.len(),
            candidates.len(),
            "a candidate not recorded"
        );
        graph.candidates = candidates.into_list();
        turn_start.push(turn_count(&turns));
        Some((
            graph,
            Turns {
                to: turns,
                start: turn_start,
                unlooked,
            },
        ))
    }

    /// Look at `batch` in parallel, a part per task into `looked` (grown as needed); how many
    /// parts it took.
    fn look_at_batch(
        &self,
        batch: &[Position],
        index: &Candidates,
        looked: &mut Vec<LookedAt>,
    ) -> usize {
        let tasks = batch.len().div_ceil(LOOKED_AT_PER_TASK);
        if looked.len() < tasks {
            looked.resize_with(tasks, LookedAt::default);
        }
        let mut look = || {
            looked[..tasks]
                .par_iter_mut()
                .zip(batch.par_chunks(LOOKED_AT_PER_TASK))
                .for_each(|(looked, part)| self.look_at_candidates(part, index, looked));
        };
        let on_disk = self
            .tables
            .is_some_and(|tables| tables.has_files_probed_in_place());
        match on_disk.then(looking_pool).flatten() {
            Some(pool) => pool.install(look),
            None => look(),
        }
        tasks
    }

    /// Where the turns of each of `candidates` lead, as far as can be told without the
    /// candidates added since `index` was last written to (those show as unknown), into `looked`.
    ///
    /// Several candidates are in flight at once, each a step further on (see [`Lookup`]): what
    /// a candidate's turns read is asked for [`ASKED_AHEAD`] candidates before it is read, and
    /// what those reads name [`ENTRIES_AHEAD`] before. (Asked for just before it was read, the
    /// list entry that confirms a turn to another candidate was half of a long 5x9 search's
    /// closure, waiting on memory: seventy-first session.)
    fn look_at_candidates(
        &self,
        candidates: &[Position],
        index: &Candidates,
        looked: &mut LookedAt,
    ) {
        looked.starts.clear();
        looked.turns.clear();
        looked.starts.push(0);
        looked.unlooked = 0;
        const IN_FLIGHT: usize = ASKED_AHEAD + 1;
        let mut lookups: [Lookup; IN_FLIGHT] = std::array::from_fn(|_| Lookup::default());
        let count = candidates.len();
        for step in 0..count + ASKED_AHEAD {
            if step < count {
                self.ask_for_lookups(&candidates[step], index, &mut lookups[step % IN_FLIGHT]);
            }
            let entries_of = step.checked_sub(ASKED_AHEAD - ENTRIES_AHEAD);
            if let Some(k) = entries_of.filter(|&k| k < count) {
                self.probe_and_ask_for_entries(index, &mut lookups[k % IN_FLIGHT]);
            }
            if let Some(k) = step.checked_sub(ASKED_AHEAD).filter(|&k| k < count) {
                self.read_lookups(&candidates[k], index, &lookups[k % IN_FLIGHT], looked);
            }
        }
    }

    /// First step of looking at `position`: its turns, and asking for their filter words and
    /// index slots.
    fn ask_for_lookups(&self, position: &Position, index: &Candidates, lookup: &mut Lookup) {
        lookup.next.clear();
        children(self.board, position, &mut lookup.next);
        let probe = &mut lookup.probe;
        probe.hashes.clear();
        probe.hashes.extend(lookup.next.iter().map(hash));
        for (child, &hash) in lookup.next.iter().zip(&probe.hashes) {
            if !self.within_tables(child) {
                self.prefetch_filters_and_pinned(hash);
                index.prefetch_hashed(hash);
            }
        }
    }

    /// Second step: the turns within the endgame tables probed together, and asking for what
    /// the first step's reads name: the held set's slots, and the list entry of a turn the
    /// index may know, else its bucket in the transposition table (a candidate's is never
    /// read: see [`Search::hold_target`]).
    fn probe_and_ask_for_entries(&self, index: &Candidates, lookup: &mut Lookup) {
        lookup.probed = self.probe_within_tables(&lookup.next, &mut lookup.probe);
        let hashes = &lookup.probe.hashes;
        self.prefetch_held_slots(&lookup.next, hashes);
        for (child, &hash) in lookup.next.iter().zip(hashes) {
            if !self.within_tables(child) && !index.prefetch_entry(hash) {
                self.table.prefetch_hashed(hash);
            }
        }
    }

    /// Last step: where each turn of `position` leads, into `looked`, up to one that settles it.
    fn read_lookups(
        &self,
        position: &Position,
        index: &Candidates,
        lookup: &Lookup,
        looked: &mut LookedAt,
    ) {
        let probe = &lookup.probe;
        let mut from_tables = probe.positions.iter().zip(&probe.values).peekable();
        let is_attacker = position.side == self.attacker;
        for (k, (child, &hash)) in lookup.next.iter().zip(&probe.hashes).enumerate() {
            let target = match from_tables.peek() {
                Some((&in_tables, &value)) if lookup.probed && in_tables == *child => {
                    from_tables.next();
                    leaf_target(self.numbers_of_value(child, value))
                }
                _ => self.hold_target(child, hash, index),
            };
            looked.turns.push((*child, target));
            if settles(is_attacker, target) {
                looked.unlooked += lookup.next.len() - (k + 1);
                break;
            }
        }
        looked.starts.push(looked.turns.len());
    }

    /// The most positions a closure looks at (see [`MOST_CANDIDATES`]).
    pub(super) fn most_candidates(&self) -> usize {
        (self.table.bytes() / TABLE_BYTES_PER_CANDIDATE).max(MOST_CANDIDATES)
    }

    /// The most positions the held set keeps: its memory ([`crate::Limits::held_bytes`], by
    /// default an eighth of the transposition table's) at 16 bytes a slot, half of the slots
    /// used (twice that while it grows), and at least 2^20. Saved with the search, it would
    /// otherwise grow from run to run without end. (An 8 GiB search on a 24 GiB machine peaks
    /// near 20 GB during a closure already.)
    pub fn most_held(&self) -> usize {
        self.most_held
    }

    /// Keep at most `most` held positions: first those the search met since the last closure,
    /// then those with the fewest stones (where play goes round and where the search comes
    /// back most); never those within the endgame tables (which answer first). Those dropped
    /// are only forgotten: a later closure may find them again.
    ///
    /// By stones alone, a set full of 9-stone holds dropped every 10- and 11-stone hold a
    /// closure found, while the search worked on 11-stone endgames (and kept 1.4 M 8-stone
    /// holds that the 8-stone tables had made useless).
    pub(super) fn limit_held(&mut self, most: usize) {
        if self.held.len() <= most {
            return;
        }
        // In a scattered order: of the rank where the room runs out, those kept are the first
        // ones listed, and listed in the map's order they were those of its first slots.
        let mut kept: Vec<Position> = self
            .held
            .positions_scattered()
            .filter(|p| !self.within_tables(p))
            .collect();
        if kept.len() > most {
            let rank = |p: &Position| {
                if self.met.is_marked(p) {
                    0
                } else {
                    stones(p) as usize
                }
            };
            keep_lowest_ranks(&mut kept, most, rank);
        }
        self.held = PositionMap::new();
        self.filters.clear_held();
        self.held.reserve(kept.len());
        for position in &kept {
            self.mark_held(position);
        }
    }

    pub(super) fn mark_held(&mut self, position: &Position) {
        self.filters.mark_held(self.filters.place(position));
        self.held.insert(position, ());
    }

    /// The unresolved positions of the table and the path-dependent disproofs, of at most
    /// `max_stones` stones, each once, at most `most` of them; never a leaf. Also how many there
    /// were, and where too many, the least work of those kept.
    ///
    /// Too many to close: first the path-dependent disproofs (where play went round), then
    /// the positions the search spent the most nodes on (where it keeps coming back). Fewest
    /// stones first, as before, filled a long 5x9 search's closures with 9-stone positions
    /// while its line worked on 11-stone endgames, which no closure then looked at.
    fn hold_candidates(&self, max_stones: u32, most: usize) -> (Vec<Position>, usize, Option<u64>) {
        let eligible =
            |p: &Position| stones(p) <= max_stones && self.leaf(p).is_none() && !self.is_held(p);
        // The table holds a position at most once; a path-dependent disproof may be of a
        // position the table also holds: unresolved, it is taken from the table; resolved,
        // the table's answer stands, and it is no candidate (no candidate is resolved in the
        // table, so a turn's lookup may stop at the index: see `hold_target`).
        let path_dependent: Vec<Position> = self
            .path_dependent
            .positions()
            .filter(|p| self.table.get(p).is_none() && eligible(p))
            .collect();
        // Counted first and listed after: a long search's table holds hundreds of millions of
        // them (196 M in the 8 GiB one after d2-e3A), more than fit in memory as a list. Both
        // passes run over the table's parts in parallel, and keep what one pass in order would.
        let parts: Vec<&[Slot]> = self.table.parts().collect();
        let open_in = |slots| {
            unresolved_with_work_in(slots)
                .filter(|(p, _)| eligible(p))
                .map(|(p, work)| (p, work_rank(work)))
        };
        let counts: Vec<[usize; RANKS]> = parts
            .par_iter()
            .map(|slots| count_by_rank(open_in(slots).map(|(_, rank)| rank)))
            .collect();
        let mut count = [0; RANKS];
        count[PATH_DEPENDENT_RANK] = path_dependent.len();
        for part in &counts {
            for (total, here) in count.iter_mut().zip(part) {
                *total += here;
            }
        }
        let open = count.iter().sum();
        let mut lowest = LowestRanks::new(&count, most);
        // Each part gets its share of the room left for positions of the threshold's rank.
        let shares: Vec<LowestRanks> = counts
            .iter()
            .map(|part| lowest.share(part[lowest.threshold.min(RANKS - 1)]))
            .collect();
        let found_in_parts: Vec<ByRank> = parts
            .par_iter()
            .zip(shares)
            .map(|(slots, mut share)| {
                ByRank::of(open_in(slots).filter(|&(_, rank)| share.keeps(rank)))
            })
            .collect();
        // In order of rank (the path-dependent ones first, then the most work), so that where
        // the room for unreached positions runs out, it went to those the search works on.
        let path_dependent: Vec<Position> = path_dependent
            .into_iter()
            .filter(|_| lowest.keeps(PATH_DEPENDENT_RANK))
            .collect();
        let mut found = Vec::with_capacity(
            path_dependent.len()
                + found_in_parts
                    .iter()
                    .map(|p| p.positions.len())
                    .sum::<usize>(),
        );
        found.extend(path_dependent);
        for rank in 0..RANKS {
            for part in &found_in_parts {
                found.extend_from_slice(part.of_rank(rank));
            }
        }
        // The least work taken: of the highest rank any part kept (the threshold's, unless its
        // room ran out before it).
        let highest_kept = (0..RANKS).rev().find(|&rank| {
            found_in_parts
                .iter()
                .any(|part| !part.of_rank(rank).is_empty())
        });
        let least_work = (open > found.len())
            .then(|| least_work_of_rank(highest_kept.unwrap_or(PATH_DEPENDENT_RANK)));
        (found, open, least_work)
    }

    /// What a turn to `child` (whose [`hash`] is `hash`) leads to. A candidate is never
    /// resolved in the transposition table (those listed are open there or not in it, and
    /// those added since were not in it resolved: see `hold_candidates` and [`Growth::add`]),
    /// so where the index knows the child the table is not read: a random read fewer for each
    /// turn between candidates, most of a closure's turns.
    fn hold_target(&self, child: &Position, hash: u64, index: &Candidates) -> Target {
        if let Some(numbers) = self.leaf(child) {
            return leaf_target(numbers);
        }
        if self.is_held_hashed(child, hash) {
            return Target::Held;
        }
        if self.pinned_height(child, hash).is_some() {
            return Target::Open;
        }
        if let Some(j) = index.number_of(child, hash) {
            return Target::Candidate(j);
        }
        match self.table.get_hashed(child, hash) {
            Some(slot) if slot.disproof == 0 => Target::DisprovenInTable,
            Some(slot) if slot.proof == 0 => Target::Open,
            _ => Target::Unknown,
        }
    }
}

/// One candidate's turns on their way through [`Search::look_at_candidates`]: the turns with
/// their hashes, then the values of those within the endgame tables.
#[derive(Default)]
struct Lookup {
    next: Vec<Position>,
    probe: ProbeBuffers,
    /// Whether `probe` holds the tables' values (see [`Search::probe_within_tables`]).
    probed: bool,
}

/// What a turn to a leaf (a position the rules or the tables settle) leads to.
fn leaf_target(numbers: Numbers) -> Target {
    if numbers.is_disproven() {
        Target::Held
    } else {
        Target::Open
    }
}

/// How many turns between candidates there are so far, as the 32-bit number they start at.
fn turn_count(turns: &[u32]) -> u32 {
    // 2^32 turns would take 16 GB on their own: a closure's room is a small fraction of that.
    u32::try_from(turns.len()).expect("a closure of more than 2^32 turns between candidates")
}

/// `batch`, emptied first, then filled with the positions of `candidates`.
fn unpack_into(batch: &mut Vec<Position>, candidates: &[Packed]) {
    batch.clear();
    batch.extend(candidates.iter().map(|candidate| candidate.position()));
}

/// The candidates still alive, to be kept as disproven outright, with the table's disproofs
/// they rely on (in the held set only, not in the table: a put there always takes a slot from
/// something, and millions of them pushed out numbers the search still needed); and how many
/// are candidates.
fn newly_held(graph: &HoldGraph) -> (Vec<Position>, usize) {
    let mut held: Vec<Position> = graph
        .candidates
        .iter()
        .zip(&graph.alive)
        .filter(|(_, &alive)| alive)
        .map(|(packed, _)| packed.position())
        .collect();
    let candidates = held.len();
    held.extend(
        graph
            .relied
            .iter()
            .filter(|(i, _)| graph.alive[*i as usize])
            .map(|(_, position)| *position),
    );
    (held, candidates)
}

impl HoldGraph {
    /// Candidate `i`'s turns, `looked` (what each leads to, unknown ones resolved by `growth`):
    /// those to other candidates into `turns`, and whether it fails outright.
    fn record(
        &mut self,
        i: u32,
        is_attacker: bool,
        looked: &[(Position, Target)],
        growth: &mut Growth,
        turns: &mut Vec<u32>,
    ) {
        // Positions the search never reached are added only where they can decide something:
        // not for an attacker's position that a turn to a win already sinks, nor for a
        // defender's that has a holding turn already (each adds a score of positions of its
        // own, and the room for them ran out on the defender's spare turns).
        let decided =
            looked
                .iter()
                .any(|&(child, target)| match growth.added_since(child, target) {
                    Target::Open => is_attacker,
                    Target::Held | Target::DisprovenInTable | Target::Candidate(_) => !is_attacker,
                    Target::Unknown => false,
                });
        let (mut holding, mut open) = (0, false);
        for &(child, target) in looked {
            let target = match growth.added_since(child, target) {
                Target::Unknown if !decided => growth.add(child),
                known => known,
            };
            match target {
                Target::Held => holding += 1,
                Target::DisprovenInTable => {
                    holding += 1;
                    self.relied.push((i, child));
                }
                Target::Candidate(j) => {
                    holding += 1;
                    turns.push(j);
                }
                Target::Open | Target::Unknown => open = true,
            }
        }
        let fails = if is_attacker {
            open || looked.is_empty()
        } else {
            holding == 0
        };
        self.alive.push(!fails);
        self.holding_turns.push(holding);
        if fails {
            self.failed.push(i);
        }
    }

    /// Group the turns between candidates by the candidate they lead to (a counting sort:
    /// there can be a billion), each group's parents in the order of `turns`. In `parts`
    /// ranges of the candidates led to, in parallel: each reads every turn and writes those to
    /// its own range (the result is the same for any number of parts).
    fn group_parents(&mut self, turns: &Turns, parts: usize) {
        let candidates = self.candidates.len();
        let per_part = candidates.div_ceil(parts.max(1)).max(1);
        // How many turns lead to each candidate, at `start[c + 1]` ...
        let mut start = vec![0u32; candidates + 1];
        start[1..]
            .par_chunks_mut(per_part)
            .enumerate()
            .for_each(|(k, counts)| {
                let first = k * per_part;
                for &child in &turns.to {
                    if let Some(count) = (child as usize)
                        .checked_sub(first)
                        .and_then(|c| counts.get_mut(c))
                    {
                        *count += 1;
                    }
                }
            });
        // ... then where each candidate's parents start.
        for c in 0..candidates {
            start[c + 1] += start[c];
        }
        let mut parents = vec![0u32; turns.to.len()];
        let mut rest: &mut [u32] = &mut parents;
        let mut ranges = Vec::new();
        for first in (0..candidates).step_by(per_part) {
            let end = (first + per_part).min(candidates);
            let (here, after) = rest.split_at_mut((start[end] - start[first]) as usize);
            ranges.push((first..end, here));
            rest = after;
        }
        ranges.into_par_iter().for_each(|(range, parents)| {
            let base = start[range.start];
            let mut next: Vec<usize> = start[range.clone()]
                .iter()
                .map(|s| (s - base) as usize)
                .collect();
            for (parent, turn_range) in turns.start.windows(2).enumerate() {
                for &child in &turns.to[turn_range[0] as usize..turn_range[1] as usize] {
                    if let Some(slot) = (child as usize)
                        .checked_sub(range.start)
                        .and_then(|c| next.get_mut(c))
                    {
                        parents[*slot] = parent as u32;
                        *slot += 1;
                    }
                }
            }
        });
        self.parents = parents;
        self.parent_start = start;
    }

    /// Drop every candidate that fails, then each parent that fails for want of it (an
    /// attacker's position as soon as one of its turns fails, a defender's when its last
    /// holding turn does), until nothing changes: what is left is the greatest held set.
    fn eliminate(&mut self, attacker: Color) {
        while let Some(dropped) = self.failed.pop() {
            let (from, to) = (
                self.parent_start[dropped as usize] as usize,
                self.parent_start[dropped as usize + 1] as usize,
            );
            for k in from..to {
                let parent = self.parents[k] as usize;
                if !self.alive[parent] {
                    continue;
                }
                self.holding_turns[parent] -= 1;
                if self.candidates[parent].side() == attacker || self.holding_turns[parent] == 0 {
                    self.alive[parent] = false;
                    self.failed.push(parent as u32);
                }
            }
        }
    }
}

/// How many positions there are of each number of stones.
pub(super) fn count_by_stones(positions: impl Iterator<Item = Position>) -> [usize; RANKS] {
    count_by_rank(positions.map(|position| stones(&position) as usize))
}

/// How many there are of each rank.
fn count_by_rank(ranks: impl Iterator<Item = usize>) -> [usize; RANKS] {
    let mut count = [0usize; RANKS];
    for rank in ranks {
        count[rank] += 1;
    }
    count
}

/// The ranks a list is kept by (lowest first): a number of stones, or a class of work.
const RANKS: usize = 65;

/// A closure's candidates by rank: the path-dependent disproofs first, then by the nodes the
/// search spent on them (the leading zeros of that count: twice the work, one rank lower).
const PATH_DEPENDENT_RANK: usize = 0;

fn work_rank(work: u64) -> usize {
    (work.leading_zeros() as usize).max(PATH_DEPENDENT_RANK + 1)
}

/// The least work of a rank (see [`work_rank`]); of the path-dependent rank, that of the next
/// (a cut there would need more of them than their cache ever holds).
fn least_work_of_rank(rank: usize) -> u64 {
    match rank {
        64.. => 0,
        rank => 1 << (63 - rank.max(1)),
    }
}

/// Keeps at most `most` items of a list, those of the lowest ranks, given how many there are
/// of each rank (`count`): every one of a rank below a threshold, and the first of those of
/// that rank, as long as there is room, in the list's order.
struct LowestRanks {
    threshold: usize,
    room: usize,
}

impl LowestRanks {
    fn new(count: &[usize; RANKS], most: usize) -> LowestRanks {
        let (mut threshold, mut room) = (0, most);
        while threshold < count.len() && count[threshold] <= room {
            room -= count[threshold];
            threshold += 1;
        }
        LowestRanks { threshold, room }
    }

    /// The part of this one's room that a stretch of the list with `at_threshold` items of
    /// the threshold's rank takes, for that stretch alone; this one keeps the rest.
    fn share(&mut self, at_threshold: usize) -> LowestRanks {
        let room = self.room.min(at_threshold);
        self.room -= room;
        LowestRanks {
            threshold: self.threshold,
            room,
        }
    }

    /// Whether to keep the next item of the list, of rank `rank` (asked once per item, in
    /// order).
    fn keeps(&mut self, rank: usize) -> bool {
        if rank == self.threshold && self.room > 0 {
            self.room -= 1;
            return true;
        }
        rank < self.threshold
    }
}

/// A list of positions sorted by rank (stably: in their order within a rank).
struct ByRank {
    positions: Vec<Position>,
    /// Where each rank's positions start, and their end.
    starts: [usize; RANKS + 1],
}

impl ByRank {
    /// A counting sort of `ranked` by rank.
    fn of(ranked: impl Iterator<Item = (Position, usize)>) -> ByRank {
        let ranked: Vec<(Position, usize)> = ranked.collect();
        let count = count_by_rank(ranked.iter().map(|&(_, rank)| rank));
        let mut starts = [0; RANKS + 1];
        for rank in 0..RANKS {
            starts[rank + 1] = starts[rank] + count[rank];
        }
        let mut next = starts;
        // Every slot is written below: the copy in the list's order only sizes it.
        let mut positions: Vec<Position> = ranked.iter().map(|&(position, _)| position).collect();
        for (position, rank) in ranked {
            positions[next[rank]] = position;
            next[rank] += 1;
        }
        ByRank { positions, starts }
    }

    fn of_rank(&self, rank: usize) -> &[Position] {
        &self.positions[self.starts[rank]..self.starts[rank + 1]]
    }
}

/// The most positions a held set of `held_bytes` keeps (see [`Search::most_held`]).
pub(super) fn held_bound(held_bytes: usize) -> usize {
    (held_bytes / 32).max(1 << 20)
}

/// Keep `most` of `positions` (more than that many), those of the lowest `rank`, in their
/// order; returns the highest rank kept. By counting, not sorting: there are tens of millions
/// of them.
fn keep_lowest_ranks(
    positions: &mut Vec<Position>,
    most: usize,
    rank: impl Fn(&Position) -> usize,
) -> usize {
    let mut lowest = LowestRanks::new(&count_by_rank(positions.iter().map(&rank)), most);
    positions.retain(|position| lowest.keeps(rank(position)));
    positions.iter().map(rank).max().unwrap_or(0)
}

/// The most positions a closure looks at: at least this many (about 60 bytes each while it
/// runs), half of them from the table at most ...
const MOST_CANDIDATES: usize = 1 << 25;
/// ... and one for every this many bytes of the transposition table where that is more. A
/// table can only hold so many open positions, so the bound only binds for large tables, and
/// there it matters: `search_draws` (64 MiB tables) with at most 2^18 settles 47 of its 56
/// draws instead of all 56. (The 8 GiB table of a long 5x9 search offered 196 M.)
const TABLE_BYTES_PER_CANDIDATE: usize = 128;

/// A closure asked to stop notices it within this many candidates put in its index.
const INDEXED_BETWEEN_STOP_CHECKS: usize = 1 << 16;
/// A closure looks at this many candidates at a time in parallel, in tasks of this many.
const LOOKED_AT_ONCE: usize = 1 << 13;
const LOOKED_AT_PER_TASK: usize = 1 << 9;
/// How many candidates ahead of reading a candidate's lookups [`Search::look_at_candidates`]
/// asks for the first of them (index slots, filter words), and how many ahead it asks for
/// what those name (list entries, or table buckets for turns the index does not know; held
/// slots) and probes the endgame tables.
const ASKED_AHEAD: usize = 4;
const ENTRIES_AHEAD: usize = 2;
/// While a batch's additions are written into the index, the slot of the one this many ahead
/// is asked for.
const PREFETCH_AHEAD: usize = 16;

/// Threads that look at candidates' turns where tables are probed in their mapped files:
/// there most of a closure's time is spent waiting on the disk for those probes' pages, and a
/// disk answers more reads at once than one at a time (this machine's, 4 KiB at random from a
/// table file: 867 reads a second one at a time, 1,904 four at a time, 3,632 sixteen at a time;
/// `O_DIRECT`, sixtieth session). One task of a batch each.
const LOOKING_THREADS: usize = LOOKED_AT_ONCE / LOOKED_AT_PER_TASK;

/// The pool of [`LOOKING_THREADS`], made the first time it is asked for; `None` where it
/// cannot be made (the closure then looks on the global pool).
fn looking_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(LOOKING_THREADS)
            .thread_name(|i| format!("closure-look-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// A closure may add this many positions the search has not reached, and more where it starts
/// from more (twice as many as it starts from).
const EXPLORE_AT_LEAST: usize = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::Bitboard;

    /// A position of `mover` + 1 stones, told apart by its one waiting stone at `tag`.
    fn with_stones(mover: u32, tag: u32) -> Position {
        Position {
            mover: Bitboard((1 << mover) - 1),
            waiting: Bitboard(1 << (32 + tag)),
            side: Color::White,
        }
    }

    /// A search of White's with a small table, for the tests of its held set and candidates.
    fn small_search<'a>(
        board: &'a fanorona_engine::Board,
        tables: Option<&'a crate::Tables>,
        progress: &'a crate::progress::NoProgress,
    ) -> Search<'a> {
        let limits = crate::Limits {
            nodes: 0,
            memory: 1 << 20,
            ..crate::Limits::default()
        };
        let rules = fanorona_engine::Rules::default();
        Search::new(board, rules, tables, Color::White, limits, progress)
    }

    #[test]
    fn a_full_held_set_trimmed_again_and_again_stays_spread_over_its_map() {
        // A long search's held set is full: each closure adds positions and the set is trimmed
        // back to its bound, those of the highest rank kept being the first ones listed. Listed
        // in the map's slot order, those were the ones of its first slots, round after round,
        // until one stretch of the map was crowded (e5-d4A's, sixty-third session).
        let board = fanorona_engine::Board::standard();
        let progress = crate::progress::NoProgress;
        let mut search = small_search(&board, None, &progress);
        let most = 3 << 13;
        let mut seed = 99;
        let mut add = |search: &mut Search, count: usize| {
            for _ in 0..count {
                search.mark_held(&Position::random_placement(&board, 4, 4, &mut seed));
            }
        };
        add(&mut search, most);
        for _ in 0..40 {
            add(&mut search, most / 4);
            search.limit_held(most);
        }
        assert_eq!(search.held.len(), most);
        let read = super::super::position_map::mean_absent_probe(&search.held, 1 << 16);
        // Spread at random at this load (3/8), a lookup reads about 1.8 slots.
        assert!(
            read < 2.5,
            "a lookup of an absent position read {read} slots"
        );
    }

    #[test]
    fn a_held_set_over_its_limit_keeps_the_fewest_stones() {
        let board = fanorona_engine::Board::standard();
        let progress = crate::progress::NoProgress;
        let mut search = small_search(&board, None, &progress);
        // 3,000 random positions of 2 to 16 stones.
        let mut seed = 12345;
        let positions: Vec<Position> = (0..3_000)
            .map(|i| Position::random_placement(&board, 1 + i % 8, 1 + i / 8 % 8, &mut seed))
            .collect();
        for position in &positions {
            search.mark_held(position);
        }
        let distinct = search.held.len();
        search.limit_held(distinct);
        assert_eq!(search.held.len(), distinct, "within the limit: unchanged");
        search.limit_held(1_000);
        assert_eq!(search.held.len(), 1_000);
        let most_kept = search.held.positions().map(|p| stones(&p)).max().unwrap();
        for position in &positions {
            let held = search.is_held(position);
            if stones(position) < most_kept {
                assert!(held, "fewer stones than the most kept: kept");
            } else if stones(position) > most_kept {
                assert!(!held, "more stones: dropped");
            }
        }
    }

    #[test]
    fn the_held_set_keeps_what_its_own_memory_allows_and_a_resumed_search_keeps_that_many() {
        let board = fanorona_engine::Board::standard();
        let rules = fanorona_engine::Rules::default();
        let progress = crate::progress::NoProgress;
        let with_held_memory = |held_memory| crate::Limits {
            nodes: 0,
            memory: 1 << 20,
            held_memory,
            ..crate::Limits::default()
        };
        let search_of = |held_memory| {
            let limits = with_held_memory(held_memory);
            Search::new(&board, rules, None, Color::White, limits, &progress)
        };
        // By default an eighth of the table's memory, and never fewer than 2^20 positions.
        assert_eq!(search_of(None).most_held(), 1 << 20);
        assert_eq!(search_of(Some(64 << 20)).most_held(), 2 << 20);
        // More holds than the default keeps, saved by a search that keeps them all.
        let mut saved = search_of(Some(64 << 20));
        let mut seed = 777;
        while saved.held.len() < (1 << 20) + 50_000 {
            let stones = 1 + saved.held.len() as u32 % 6;
            saved.mark_held(&Position::random_placement(
                &board,
                stones,
                7 - stones,
                &mut seed,
            ));
        }
        let all = saved.held.len();
        let dir = std::env::temp_dir().join(format!("fanorona-held-memory-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("search.dfpn");
        saved.save(&file).unwrap();
        let mut roomy = search_of(Some(64 << 20));
        roomy.resume(&file).unwrap();
        assert_eq!(roomy.held.len(), all, "room for all: every hold read back");
        assert!(saved.held.positions().all(|p| roomy.is_held(&p)));
        let mut default = search_of(None);
        default.resume(&file).unwrap();
        assert_eq!(
            default.held.len(),
            1 << 20,
            "the default bound: the rest dropped"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_held_set_over_its_limit_keeps_the_holds_met_first_and_none_within_the_tables() {
        let board = fanorona_engine::Board::standard();
        let rules = fanorona_engine::Rules::default();
        let tables = crate::Tables::build(&board, rules, 3);
        let progress = crate::progress::NoProgress;
        let mut search = small_search(&board, Some(&tables), &progress);
        // 2 to 8 stones (at most 5 more than the tables, as closures hold): those of at most 3
        // lie within the tables.
        let mut seed = 777;
        let mut positions: Vec<Position> = (0..4_000)
            .map(|i| Position::random_placement(&board, 1 + i % 4, 1 + i / 4 % 4, &mut seed))
            .collect();
        positions.sort_unstable_by_key(|p| (p.mover.0, p.waiting.0, p.side == Color::Black));
        positions.dedup();
        for position in &positions {
            search.mark_held(position);
        }
        // A hundred of the most stones met by the search.
        let most_stones = positions.iter().map(stones).max().unwrap();
        let met: Vec<Position> = positions
            .iter()
            .filter(|p| stones(p) == most_stones)
            .take(100)
            .copied()
            .collect();
        assert_eq!(met.len(), 100);
        for position in &met {
            assert!(search.is_held(position));
            search.first_look(position, hash(position));
        }
        let outside = positions
            .iter()
            .filter(|p| !search.within_tables(p))
            .count();
        search.limit_held(outside);
        assert_eq!(
            search.held.len(),
            outside,
            "only those within the tables dropped"
        );
        assert!(positions
            .iter()
            .all(|p| search.is_held(p) != search.within_tables(p)));
        search.limit_held(1_000);
        assert_eq!(search.held.len(), 1_000);
        assert!(met.iter().all(|p| search.is_held(p)), "the met ones kept");
        // The rest of the room to the fewest stones.
        let most_kept = search
            .held
            .positions()
            .filter(|p| !search.met.is_marked(p))
            .map(|p| stones(&p))
            .max()
            .unwrap();
        assert!(most_kept < most_stones);
        for position in positions.iter().filter(|p| !search.met.is_marked(p)) {
            if stones(position) < most_kept && !search.within_tables(position) {
                assert!(
                    search.is_held(position),
                    "fewer stones than the most kept: kept"
                );
            } else if stones(position) > most_kept {
                assert!(!search.is_held(position), "more stones, not met: dropped");
            }
        }
        search.met.clear();
        assert!(!met.iter().any(|p| search.met.is_marked(p)));
    }

    #[test]
    fn a_closure_with_too_many_open_positions_takes_those_searched_longest() {
        let board = fanorona_engine::Board::standard();
        let progress = crate::progress::NoProgress;
        let mut search = small_search(&board, None, &progress);
        // 200 open positions in the table, searched for 1 to 2^19 nodes.
        let mut seed = 99;
        let open = super::super::Numbers {
            proof: 5,
            disproof: 7,
            extra: 0,
        };
        let mut by_work = Vec::new();
        for i in 0..200u64 {
            let position = Position::random_placement(&board, 3, 4, &mut seed);
            let work = (1 << (i % 20)) + i / 20;
            search.table.put(&position, open, work);
            by_work.push((work, position));
        }
        by_work.sort_unstable_by_key(|&(work, _)| std::cmp::Reverse(work));
        let (all, count, cut) = search.hold_candidates(64, usize::MAX);
        assert_eq!((all.len(), count, cut), (200, 200, None));
        // Room for 35: the 30 searched for 2^17 nodes or more, and 5 of 2^16 to 2^17 - 1.
        let (taken, count, cut) = search.hold_candidates(64, 35);
        assert_eq!((taken.len(), count, cut), (35, 200, Some(1 << 16)));
        let work_of = |p: &Position| by_work.iter().find(|(_, q)| q == p).unwrap().0;
        assert!(
            taken
                .windows(2)
                .all(|w| work_rank(work_of(&w[0])) <= work_rank(work_of(&w[1]))),
            "the most work first"
        );
        for (work, position) in &by_work {
            let is_taken = taken.contains(position);
            if *work >= 1 << 17 {
                assert!(is_taken, "searched for {work} nodes: taken");
            } else if *work < 1 << 16 {
                assert!(!is_taken, "searched for {work} nodes: left");
            }
        }
    }

    #[test]
    fn unreached_positions_are_added_only_where_they_can_decide() {
        let attacker = Color::White;
        let mut defending = with_stones(5, 0);
        defending.side = Color::Black;
        let attacking = with_stones(5, 1);
        let (a, b) = (with_stones(4, 2), with_stones(4, 3));
        // Each case: whose position, what its turns to a and b were found to lead to, and how
        // many of the two are added as candidates.
        let cases = [
            (
                attacking,
                [Target::Open, Target::Unknown],
                0,
                "a win already sinks it",
            ),
            (
                attacking,
                [Target::Held, Target::Unknown],
                1,
                "b must be answered too",
            ),
            (
                defending,
                [Target::Held, Target::Unknown],
                0,
                "a holds already",
            ),
            (
                defending,
                [Target::Candidate(0), Target::Unknown],
                0,
                "a may hold",
            ),
            (
                defending,
                [Target::Open, Target::Unknown],
                1,
                "b is its only hope",
            ),
            (
                defending,
                [Target::Unknown, Target::Unknown],
                2,
                "either may hold",
            ),
        ];
        for (position, targets, added, why) in cases {
            let mut graph = HoldGraph {
                candidates: {
                    let mut list = CandidateList::with_room(1);
                    list.push(Packed::of(&position));
                    list
                },
                alive: Vec::new(),
                holding_turns: Vec::new(),
                parent_start: Vec::new(),
                parents: Vec::new(),
                failed: Vec::new(),
                relied: Vec::new(),
            };
            let mut growth = Growth::new(1, 100, 64);
            let looked = [(a, targets[0]), (b, targets[1])];
            let is_attacker = position.side == attacker;
            graph.record(0, is_attacker, &looked, &mut growth, &mut Vec::new());
            assert_eq!(growth.pending.len(), added, "{why}");
            assert_eq!(
                growth.next,
                1 + added,
                "{why}: numbered after the one listed"
            );
        }
    }

    #[test]
    fn the_fewest_stones_are_kept_in_their_order() {
        // 9, 7, 8, 9, 7, 8, ... stones of the mover (plus one waiting), each position once.
        let positions: Vec<Position> = (0..30)
            .map(|i| with_stones([9, 7, 8][i % 3], i as u32))
            .collect();
        let mut kept = positions.clone();
        let by_stones = |p: &Position| stones(p) as usize;
        assert_eq!(
            keep_lowest_ranks(&mut kept, 14, by_stones),
            9,
            "the most stones kept"
        );
        // All ten of 8 stones, then the first four of 9 (tags 2, 5, 8, 11), in the list's order.
        let expected: Vec<Position> = positions
            .iter()
            .filter(|p| {
                stones(p) == 8 || (stones(p) == 9 && p.waiting.0.trailing_zeros() < 32 + 12)
            })
            .copied()
            .collect();
        assert_eq!(expected.len(), 14);
        assert_eq!(kept, expected);
    }

    #[test]
    fn stretches_of_a_list_with_their_shares_keep_what_one_pass_keeps() {
        // 6 of 8 stones, 6 of 9 and 18 of 10: 16 keeps all of 8 and 9 and four of 10.
        let positions: Vec<Position> = (0..30)
            .map(|i| with_stones([9, 7, 8, 9, 9][i % 5], i as u32))
            .collect();
        let count = count_by_stones(positions.iter().copied());
        let mut one_pass = positions.clone();
        let by_stones = |p: &Position| stones(p) as usize;
        assert_eq!(keep_lowest_ranks(&mut one_pass, 16, by_stones), 10);
        for stretch in [1, 7, 13, 30] {
            let mut whole = LowestRanks::new(&count, 16);
            let mut kept: Vec<Position> = Vec::new();
            for part in positions.chunks(stretch) {
                let here = count_by_stones(part.iter().copied());
                let mut share = whole.share(here[whole.threshold]);
                kept.extend(part.iter().filter(|p| share.keeps(stones(p) as usize)));
            }
            assert_eq!(kept, one_pass, "stretches of {stretch}");
        }
    }

    /// The graph as a closure finds it looking at its candidates one after another, each
    /// against an index that holds every candidate before it (no batches, nothing recorded
    /// while anything is looked at): what [`Search::hold_graph`] must give.
    /// With `every_turn`, each candidate's turns are all looked at, none left after one that
    /// settles it.
    fn hold_graph_one_by_one(
        search: &Search,
        listed: Vec<Position>,
        max_stones: u32,
        every_turn: bool,
    ) -> (HoldGraph, Turns) {
        let most = (2 * listed.len() + EXPLORE_AT_LEAST).min(search.most_candidates());
        let mut index = Candidates::with_room(most.max(listed.len()));
        for position in &listed {
            index.insert(position);
        }
        let mut graph = HoldGraph {
            alive: Vec::new(),
            holding_turns: Vec::new(),
            candidates: CandidateList::with_room(0),
            parent_start: Vec::new(),
            parents: Vec::new(),
            failed: Vec::new(),
            relied: Vec::new(),
        };
        let mut growth = Growth::new(index.len(), most, max_stones);
        let (mut turns, mut start, mut looked) = (Vec::new(), Vec::new(), LookedAt::default());
        let (mut i, mut unlooked) = (0, 0);
        while i < index.len() {
            let candidate = index.list()[i].position();
            search.look_at_candidates(&[candidate], &index, &mut looked);
            unlooked += looked.unlooked;
            if every_turn {
                let mut next = Vec::new();
                children(search.board, &candidate, &mut next);
                looked.turns = next
                    .iter()
                    .map(|child| (*child, search.hold_target(child, hash(child), &index)))
                    .collect();
                looked.starts = vec![0, looked.turns.len()];
            }
            start.push(turn_count(&turns));
            let is_attacker = candidate.side == search.attacker;
            graph.record(
                i as u32,
                is_attacker,
                looked.turns_of(0),
                &mut growth,
                &mut turns,
            );
            growth.write_into(&mut index);
            i += 1;
        }
        graph.candidates = index.into_list();
        start.push(turn_count(&turns));
        (
            graph,
            Turns {
                to: turns,
                start,
                unlooked,
            },
        )
    }

    /// A search of two against two, a draw the search needs millions of nodes for
    /// (`search_draws`), stopped unsettled after 200,000 nodes.
    fn unsettled_two_against_two<'a>(
        board: &'a fanorona_engine::Board,
        tables: &'a crate::Tables,
        progress: &'a crate::progress::NoProgress,
    ) -> Search<'a> {
        let limits = crate::Limits {
            nodes: 200_000,
            memory: 16 << 20,
            ..crate::Limits::default()
        };
        let root = fanorona_engine::parse_position("9/2B3W2/9/B8/7W1 w")
            .unwrap()
            .1;
        let rules = fanorona_engine::Rules::default();
        let mut search = Search::new(board, rules, Some(tables), Color::White, limits, progress);
        assert_eq!(search.solve(&root), crate::Outcome::Unknown);
        search
    }

    #[test]
    fn a_closure_sees_the_same_graph_however_many_candidates_or_parts_it_works_on_at_once() {
        let board = fanorona_engine::Board::standard();
        let tables = crate::Tables::build(&board, fanorona_engine::Rules::default(), 3);
        let progress = crate::progress::NoProgress;
        let search = unsettled_two_against_two(&board, &tables, &progress);
        let (candidates, _, _) = search.hold_candidates(search.hold_stones, usize::MAX);
        let (mut one_at_a_time, turns) =
            hold_graph_one_by_one(&search, candidates.clone(), search.hold_stones, false);
        one_at_a_time.group_parents(&turns, 1);
        let one_by_one_unlooked = turns.unlooked;
        assert!(candidates.len() > 1_000, "{} candidates", candidates.len());
        assert!(
            one_at_a_time.candidates.len() > candidates.len(),
            "unreached ones added"
        );
        // A batch larger than the candidates: the unreached positions its recording adds are
        // looked at only after it.
        let all_at_once = 2 * one_at_a_time.candidates.len();
        for (batch, parts) in [(1, 1), (7, 2), (LOOKED_AT_ONCE, 3), (all_at_once, 2)] {
            let (mut graph, turns) = search
                .hold_graph(candidates.clone(), search.hold_stones, batch)
                .expect("not asked to stop");
            graph.group_parents(&turns, parts);
            assert_eq!(
                graph.alive.len(),
                graph.candidates.len(),
                "batches of {batch}"
            );
            assert_eq!(graph.candidates, one_at_a_time.candidates);
            assert_eq!(graph.alive, one_at_a_time.alive);
            assert_eq!(graph.holding_turns, one_at_a_time.holding_turns);
            assert_eq!(graph.parent_start, one_at_a_time.parent_start);
            assert_eq!(graph.parents, one_at_a_time.parents);
            assert_eq!(graph.failed, one_at_a_time.failed);
            assert_eq!(graph.relied, one_at_a_time.relied);
            assert_eq!(turns.unlooked, one_by_one_unlooked);
        }
    }

    #[test]
    fn turns_left_unlooked_after_one_that_settles_change_no_candidate_s_fate() {
        let board = fanorona_engine::Board::standard();
        let tables = crate::Tables::build(&board, fanorona_engine::Rules::default(), 3);
        let progress = crate::progress::NoProgress;
        let search = unsettled_two_against_two(&board, &tables, &progress);
        let (candidates, _, _) = search.hold_candidates(search.hold_stones, usize::MAX);
        let (mut settled_early, early_turns) =
            hold_graph_one_by_one(&search, candidates.clone(), search.hold_stones, false);
        let (mut every_turn, all_turns) =
            hold_graph_one_by_one(&search, candidates, search.hold_stones, true);
        assert!(early_turns.unlooked > 0, "no turn left unlooked at");
        assert!(early_turns.to.len() < all_turns.to.len());
        settled_early.group_parents(&early_turns, 2);
        every_turn.group_parents(&all_turns, 2);
        assert_eq!(settled_early.candidates, every_turn.candidates);
        settled_early.eliminate(search.attacker);
        every_turn.eliminate(search.attacker);
        assert!(settled_early.alive.iter().any(|&alive| alive), "none held");
        assert!(
            settled_early.alive.iter().any(|&alive| !alive),
            "none failed"
        );
        assert_eq!(settled_early.alive, every_turn.alive);
        // The disproofs relied on: those before a settling turn, of all those there are.
        let every_relied: std::collections::HashSet<_> = every_turn.relied.iter().collect();
        assert!(settled_early
            .relied
            .iter()
            .all(|r| every_relied.contains(r)));
    }

    #[test]
    fn a_closure_asked_to_stop_gives_up_and_changes_nothing() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let board = fanorona_engine::Board::standard();
        let tables = crate::Tables::build(&board, fanorona_engine::Rules::default(), 3);
        let progress = crate::progress::NoProgress;
        let interrupt = AtomicBool::new(true);
        let mut search = unsettled_two_against_two(&board, &tables, &progress);
        search.stop_on(&interrupt);
        let held_before: Vec<Position> = search.held.positions().collect();
        assert!(search.close_holds(search.hold_stones).is_none());
        let held_after: Vec<Position> = search.held.positions().collect();
        assert_eq!(held_after, held_before, "nothing held or forgotten");
        // The same closure, not interrupted, looks at every candidate and holds some.
        interrupt.store(false, Ordering::Relaxed);
        let closure = search
            .close_holds(search.hold_stones)
            .expect("not asked to stop");
        assert!(closure.candidates > 1_000, "{}", closure.candidates);
        assert!(closure.held > 0, "a closure that holds something");
        assert!(search.held.len() > held_before.len());
    }
}
