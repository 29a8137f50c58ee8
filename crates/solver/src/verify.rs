//! An independent check of built tables: every entry re-derived from its successors.
//!
//! The builder works backwards (un-moves from decided positions); this works forwards: for each
//! position it generates the turns, probes the children, and recomputes the value and distance
//! with its own statement of best play. Checking every position this way checks the whole table:
//! a wrong win or loss breaks the equation somewhere along its (strictly shorter) line of play,
//! down to positions whose value the rules give directly.

use crate::entry::Entry;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use crate::tables::Tables;
use fanorona_engine::movegen::children;
use fanorona_engine::{Blocked, Color, Position, Value};
use rayon::prelude::*;

/// One entry that does not follow from its successors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    pub material: Material,
    pub index: u64,
    pub position: Position,
    pub stored: Entry,
    pub derived: Entry,
}

/// Check every entry of every material of `tables`; returns the mismatches (at most `limit`).
pub fn verify(tables: &Tables, progress: &dyn Progress, limit: usize) -> Vec<Mismatch> {
    verify_materials(tables, &tables.held_materials(), progress, limit)
}

/// Check every entry of the given materials of `tables` (those it holds).
pub fn verify_materials(
    tables: &Tables,
    materials: &[Material],
    progress: &dyn Progress,
    limit: usize,
) -> Vec<Mismatch> {
    let mut mismatches = Vec::new();
    for &material in materials {
        verify_material(tables, material, progress, limit, &mut mismatches);
    }
    mismatches
}

fn verify_material(
    tables: &Tables,
    material: Material,
    progress: &dyn Progress,
    limit: usize,
    mismatches: &mut Vec<Mismatch>,
) {
    let index = MaterialIndex::new(tables.board(), material);
    if tables.entries(material).is_none() {
        return;
    }
    progress.phase(
        &format!("verify {}v{}", material.mover, material.waiting),
        index.size(),
    );
    let block = index.waiting_sets();
    let mut found: Vec<Mismatch> = (0..index.mover_classes())
        .into_par_iter()
        .flat_map_iter(|class| {
            let found = verify_block(tables, &index, class, limit);
            progress.advance(block);
            found
        })
        .collect();
    found.sort_by_key(|m| m.index);
    mismatches.extend(
        found
            .into_iter()
            .take(limit.saturating_sub(mismatches.len())),
    );
}

/// The mismatches among the slots of one mover class. Every slot is checked, redundant ones
/// included: the entry stored in it must follow from the children of the position it names.
fn verify_block(tables: &Tables, index: &MaterialIndex, class: u64, limit: usize) -> Vec<Mismatch> {
    let material = index.material();
    let first = class * index.waiting_sets();
    let mover = index.mover_set(class);
    let mut found = Vec::new();
    let mut next = Vec::new();
    for (offset, waiting) in index.waiting_sets_of(mover).enumerate() {
        let position = Position {
            mover,
            waiting,
            side: Color::White,
        };
        let stored = tables
            .stored(material, first + offset as u64)
            .expect("the material is in the tables");
        next.clear();
        children(tables.board(), &position, &mut next);
        let derived = derive(tables, &next);
        if derived != stored && found.len() < limit {
            found.push(Mismatch {
                material,
                index: first + offset as u64,
                position,
                stored,
                derived,
            });
        }
    }
    found
}

/// The entry that best play gives a position whose turns lead to `next`.
fn derive(tables: &Tables, next: &[Position]) -> Entry {
    if next.is_empty() {
        return match tables.rules().blocked {
            Blocked::Loss => Entry::loss(0),
            Blocked::Draw => Entry::DRAW,
        };
    }
    let values: Vec<(Value, Option<u16>)> = next
        .iter()
        .map(|child| {
            let entry = tables
                .probe(child)
                .expect("children have no more stones than their parent");
            (entry.value(), entry.distance())
        })
        .collect();
    // Win as fast as possible if some turn leaves the opponent lost.
    let quickest_win = values
        .iter()
        .filter(|(v, _)| *v == Value::Loss)
        .filter_map(|(_, d)| *d)
        .min();
    if let Some(d) = quickest_win {
        return Entry::win(d + 1);
    }
    // Lose as slowly as possible if every turn leaves the opponent won.
    if values.iter().all(|(v, _)| *v == Value::Win) {
        let slowest = values.iter().filter_map(|(_, d)| *d).max().unwrap_or(0);
        return Entry::loss(slowest + 1);
    }
    Entry::DRAW
}

/// Per-material counts: positions, wins, draws, losses, the longest win and loss.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct MaterialStats {
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub longest_win: u16,
    pub longest_loss: u16,
}

/// Count the values of one material of `tables`, over all its positions: each slot counts as
/// many positions as it stands for (its orbit under the symmetries; redundant slots none).
pub fn material_stats(tables: &Tables, material: Material) -> Option<MaterialStats> {
    let index = MaterialIndex::new(tables.board(), material);
    let block = index.waiting_sets();
    tables.stored(material, 0)?;
    let per_class = (0..index.mover_classes()).into_par_iter().map(|class| {
        let mut stats = MaterialStats::default();
        let mover = index.mover_set(class);
        for (offset, waiting) in index.waiting_sets_of(mover).enumerate() {
            let weight = index.weight(class, waiting);
            let entry = tables
                .stored(material, class * block + offset as u64)
                .expect("the material is in the tables");
            stats.add(entry, weight);
        }
        stats
    });
    Some(per_class.reduce(MaterialStats::default, MaterialStats::merge))
}

impl MaterialStats {
    fn add(&mut self, entry: Entry, weight: u64) {
        if weight == 0 {
            return;
        }
        self.positions += weight;
        match (entry.value(), entry.distance()) {
            (Value::Win, Some(d)) => {
                self.wins += weight;
                self.longest_win = self.longest_win.max(d);
            }
            (Value::Loss, Some(d)) => {
                self.losses += weight;
                self.longest_loss = self.longest_loss.max(d);
            }
            _ => self.draws += weight,
        }
    }

    fn merge(self, other: MaterialStats) -> MaterialStats {
        MaterialStats {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            draws: self.draws + other.draws,
            losses: self.losses + other.losses,
            longest_win: self.longest_win.max(other.longest_win),
            longest_loss: self.longest_loss.max(other.longest_loss),
        }
    }
}
