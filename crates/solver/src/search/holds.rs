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
//! from any of them, whatever the path before, and each is stored as disproven outright.
//! The set is found by elimination, as in retrograde analysis: first every position that fails
//! on its own (an attacker's turn to a position that may win, a defender without a holding
//! turn), then, each time one is dropped, its parents are looked at again.

use super::{filter_bit, FastMap, Numbers, Search, FILTER_WORDS, NO_DEPTH};
use fanorona_engine::movegen::children;
use fanorona_engine::{Color, Position};

/// What a turn of a candidate leads to, for the closure.
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

/// What the last closure did, for the progress notes.
pub(super) struct Closure {
    pub candidates: usize,
    pub held: usize,
}

impl Search<'_> {
    /// Store as disproven every position of the greatest held set among the unresolved
    /// positions of at most `max_stones` stones (see the module's documentation).
    pub(super) fn close_holds(&mut self, max_stones: u32) -> Closure {
        let mut candidates = self.hold_candidates(max_stones);
        let mut index: FastMap<Position, u32> = candidates
            .iter()
            .enumerate()
            .map(|(i, &position)| (position, i as u32))
            .collect();
        // Positions the search never reached may be added, up to this many in all: a hold
        // needs every turn of the attacker answered, and df-pn looks at the most promising.
        let most = (2 * candidates.len() + EXPLORE_AT_LEAST).min(MOST_CANDIDATES);
        // For every candidate: alive until shown to fail; for the defender's, the number of
        // turns that hold. `parents` lists (child, parent) for every turn between candidates.
        let mut alive = Vec::with_capacity(candidates.len());
        let mut holding_turns = Vec::with_capacity(candidates.len());
        let mut parents: Vec<(u32, u32)> = Vec::new();
        let mut failed: Vec<u32> = Vec::new();
        // For each candidate, the table's disproofs it relies on: (candidate, position).
        let mut relied: Vec<(u32, Position)> = Vec::new();
        let mut next = Vec::with_capacity(64);
        let mut i = 0;
        while i < candidates.len() {
            let position = candidates[i];
            next.clear();
            children(self.board, &position, &mut next);
            let mut holding = 0;
            let mut open = false;
            for child in &next {
                let mut target = self.hold_target(child, &index);
                if matches!(target, Target::Unknown) && candidates.len() < most {
                    let stones = child.mover.count() + child.waiting.count();
                    if stones <= max_stones {
                        target = Target::Candidate(candidates.len() as u32);
                        index.insert(*child, candidates.len() as u32);
                        candidates.push(*child);
                    }
                }
                match target {
                    Target::Held => holding += 1,
                    Target::DisprovenInTable => {
                        holding += 1;
                        relied.push((i as u32, *child));
                    }
                    Target::Candidate(j) => {
                        holding += 1;
                        parents.push((j, i as u32));
                    }
                    Target::Open | Target::Unknown => open = true,
                }
            }
            let fails = if position.side == self.attacker {
                open || next.is_empty()
            } else {
                holding == 0
            };
            alive.push(!fails);
            holding_turns.push(holding);
            if fails {
                failed.push(i as u32);
            }
            i += 1;
        }
        parents.sort_unstable();
        while let Some(dropped) = failed.pop() {
            let from = parents.partition_point(|&(child, _)| child < dropped);
            for &(_, parent) in parents[from..].iter().take_while(|&&(c, _)| c == dropped) {
                let p = parent as usize;
                if !alive[p] {
                    continue;
                }
                holding_turns[p] -= 1;
                if candidates[p].side == self.attacker || holding_turns[p] == 0 {
                    alive[p] = false;
                    failed.push(parent);
                }
            }
        }
        if self.held_filter.is_empty() && alive.iter().any(|&a| a) {
            self.held_filter = vec![0; FILTER_WORDS];
        }
        let mut held = 0;
        for (position, _) in candidates.iter().zip(&alive).filter(|(_, &a)| a) {
            let numbers = Numbers {
                extra: NO_DEPTH,
                ..Numbers::DISPROVEN
            };
            self.table.put(position, numbers, HELD_WORK);
            let (word, bit) = filter_bit(position);
            self.held_filter[word] |= bit;
            self.held.insert(*position);
            held += 1;
        }
        for (_, position) in relied.iter().filter(|(i, _)| alive[*i as usize]) {
            let (word, bit) = filter_bit(position);
            self.held_filter[word] |= bit;
            self.held.insert(*position);
        }
        Closure {
            candidates: candidates.len(),
            held,
        }
    }

    /// The unresolved positions of the table and the path-dependent disproofs, of at most
    /// `max_stones` stones, each once; never a leaf.
    fn hold_candidates(&self, max_stones: u32) -> Vec<Position> {
        let mut found: Vec<Position> = self
            .table
            .unresolved()
            .chain(self.path_dependent.keys().copied())
            .filter(|p| p.mover.count() + p.waiting.count() <= max_stones)
            .filter(|p| self.leaf(p).is_none() && !self.is_held(p))
            .collect();
        found.sort_unstable_by_key(|p| (p.mover.0, p.waiting.0, p.side == Color::Black));
        found.dedup();
        if found.len() > MOST_CANDIDATES / 2 {
            // Too many to close in memory: the fewest stones first (where play goes round).
            found.sort_by_key(|p| p.mover.count() + p.waiting.count());
            found.truncate(MOST_CANDIDATES / 2);
        }
        found
    }

    fn hold_target(&self, child: &Position, index: &FastMap<Position, u32>) -> Target {
        if let Some(numbers) = self.leaf(child) {
            return if numbers.is_disproven() {
                Target::Held
            } else {
                Target::Open
            };
        }
        if self.is_held(child) {
            return Target::Held;
        }
        match self.table.get(child) {
            Some(slot) if slot.disproof == 0 => Target::DisprovenInTable,
            Some(slot) if slot.proof == 0 => Target::Open,
            _ => match index.get(child) {
                Some(&j) => Target::Candidate(j),
                None => Target::Unknown,
            },
        }
    }
}

/// The most positions one closure looks at (about 100 bytes each while it runs), half of them
/// from the table at most.
const MOST_CANDIDATES: usize = 1 << 25;

/// A closure may add this many positions the search has not reached, and more where it starts
/// from more (twice as many as it starts from).
const EXPLORE_AT_LEAST: usize = 1 << 16;

/// The work a held position is stored with: what decides which of two positions keeps a slot
/// of the table. A closure is worth keeping, though no nodes were counted for it.
const HELD_WORK: u64 = 1 << 20;
