//! Perft: the number of turns to a given depth, the move generator's contract (SPEC.md §4).

use crate::geometry::Board;
use crate::movegen::{all_children, children, count_turns, turns};
use crate::notation::format_turn;
use crate::position::Position;

/// The number of turn sequences of `depth` plies from `position`, every chain counted.
/// The last ply is counted without being played.
pub fn perft(board: &Board, position: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_turns(board, position),
        _ => {
            let mut next = Vec::with_capacity(64);
            all_children(board, position, &mut next);
            next.iter()
                .map(|child| perft(board, child, depth - 1))
                .sum()
        }
    }
}

/// Perft over distinct child positions: at every node only the distinct positions its turns lead
/// to are counted and followed (the "unique" column of SPEC.md §4).
pub fn perft_unique(board: &Board, position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut next = Vec::with_capacity(64);
    children(board, position, &mut next);
    if depth == 1 {
        return next.len() as u64;
    }
    next.iter()
        .map(|child| perft_unique(board, child, depth - 1))
        .sum()
}

/// Perft split by first turn: each root turn's notation and the turn count below it.
pub fn divide(board: &Board, position: &Position, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    turns(board, position)
        .iter()
        .map(|turn| {
            (
                format_turn(board, turn),
                perft(board, &turn.result, depth - 1),
            )
        })
        .collect()
}
