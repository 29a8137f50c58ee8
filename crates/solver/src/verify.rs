//! An independent check of built tables: every entry re-derived from its successors.
//!
//! The builder works backwards (un-moves from decided positions); this works forwards: for each
//! position it generates the turns, probes the children, and recomputes the value and distance
//! with its own statement of best play. Checking every position this way checks the whole table:
//! a wrong win or loss breaks the equation somewhere along its (strictly shorter) line of play,
//! down to positions whose value the rules give directly.

use crate::entry::Entry;
use crate::index::{k_subsets, Material, MaterialIndex};
use crate::progress::Progress;
use crate::tables::Tables;
use fanorona_engine::movegen::children;
use fanorona_engine::{Bitboard, Blocked, Color, Position, Value};
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
    let mut mismatches = Vec::new();
    for material in crate::tables::materials(tables.max_stones()) {
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
    let mut found: Vec<Mismatch> = k_subsets(index.points(), material.mover)
        .enumerate()
        .par_bridge()
        .flat_map_iter(|(rank, mover)| {
            let found = verify_block(tables, &index, rank as u64 * block, Bitboard(mover), limit);
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

/// The mismatches among the positions of one mover set (its block starts at index `first`).
fn verify_block(
    tables: &Tables,
    index: &MaterialIndex,
    first: u64,
    mover: Bitboard,
    limit: usize,
) -> Vec<Mismatch> {
    let material = index.material();
    let all = index.all_points();
    let mut found = Vec::new();
    let mut next = Vec::new();
    for (offset, packed) in k_subsets(index.points() - material.mover, material.waiting).enumerate()
    {
        let waiting = Bitboard::deposit(packed, all & !mover);
        let position = Position {
            mover,
            waiting,
            side: Color::White,
        };
        let stored = tables
            .probe(&position)
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

/// Count the values of one material of `tables`.
pub fn material_stats(tables: &Tables, material: Material) -> Option<MaterialStats> {
    let mut stats = MaterialStats::default();
    for entry in tables.entries(material)? {
        stats.positions += 1;
        match (entry.value(), entry.distance()) {
            (Value::Win, Some(d)) => {
                stats.wins += 1;
                stats.longest_win = stats.longest_win.max(d);
            }
            (Value::Loss, Some(d)) => {
                stats.losses += 1;
                stats.longest_loss = stats.longest_loss.max(d);
            }
            _ => stats.draws += 1,
        }
    }
    Some(stats)
}
