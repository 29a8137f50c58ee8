//! A set of endgame tables for one board, rules and stone count, in memory, and probing.

use crate::entry::Entry;
use crate::index::Material;
use crate::retrograde::{solve_system, MaterialTable};
use fanorona_engine::{Board, Position, Rules};
use std::collections::HashMap;
use std::fmt;

/// Every material of up to `max_stones` stones on one board, solved.
pub struct Tables {
    board: Board,
    rules: Rules,
    max_stones: usize,
    tables: HashMap<Material, MaterialTable>,
}

/// A position the tables cannot answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// It has more stones than the tables cover.
    NotCovered { stones: usize, max_stones: usize },
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
        }
    }
}

impl std::error::Error for ProbeError {}

impl Tables {
    /// Solve every material with 2 to `max_stones` stones (each side at least one), smallest
    /// first, each system of (a, b) and (b, a) together.
    pub fn build(board: &Board, rules: Rules, max_stones: usize) -> Tables {
        let mut tables = Tables {
            board: board.clone(),
            rules,
            max_stones: 0,
            tables: HashMap::new(),
        };
        for stones in 2..=max_stones.min(board.points()) {
            for mover in (1..stones).filter(|&a| a <= stones - a) {
                let material = Material::new(mover, stones - mover);
                let solved = solve_system(board, &rules, material, &|position| {
                    tables
                        .probe(position)
                        .expect("smaller materials are solved first")
                });
                for table in solved {
                    tables.tables.insert(table.index.material(), table);
                }
            }
            tables.max_stones = stones;
        }
        tables
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn max_stones(&self) -> usize {
        self.max_stones
    }

    /// How many positions the tables hold.
    pub fn positions(&self) -> u64 {
        self.tables
            .values()
            .map(|table| table.entries.len() as u64)
            .sum()
    }

    /// The solved table of one material, if these tables have it.
    pub fn table(&self, material: Material) -> Option<&MaterialTable> {
        self.tables.get(&material)
    }

    /// The entry of `position` for its side to move.
    pub fn probe(&self, position: &Position) -> Result<Entry, ProbeError> {
        let material = Material::of(position.mover, position.waiting);
        if material.mover == 0 {
            return Ok(Entry::loss(0));
        }
        if material.waiting == 0 {
            // The side that just moved has no stones: it lost before this position.
            return Ok(Entry::win(0));
        }
        let table = self.tables.get(&material).ok_or(ProbeError::NotCovered {
            stones: material.stones(),
            max_stones: self.max_stones,
        })?;
        Ok(table.entries[table.index.index(position.mover, position.waiting) as usize])
    }
}
