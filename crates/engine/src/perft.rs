//! Perft: the number of turns to a given depth, the move generator's contract (SPEC.md §4).

use crate::bitboard::{Bitboard, Point};
use crate::geometry::Board;
use crate::movegen::{children, count_turns_of_sides, turns, visit_turns, Step, TurnVisitor};
use crate::notation::format_turn;
use crate::position::Position;

/// The number of turn sequences of `depth` plies from `position`, every chain counted.
/// The last ply is counted without being played.
pub fn perft(board: &Board, position: &Position, depth: u32) -> u64 {
    perft_sides(board, position.mover, position.waiting, depth)
}

/// Perft on the bare sides: colours do not change the count.
fn perft_sides(board: &Board, mover: Bitboard, waiting: Bitboard, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_turns_of_sides(board, mover, waiting),
        _ => {
            let mut below = PerftBelow {
                board,
                depth: depth - 1,
                total: 0,
            };
            visit_turns(board, mover, waiting, &mut below);
            below.total
        }
    }
}

/// Counts the perft of each child as the walker finds it: no list of children is built, and
/// the child is never turned into a [`Position`] (the sides just swap roles).
struct PerftBelow<'a> {
    board: &'a Board,
    depth: u32,
    total: u64,
}

impl TurnVisitor for PerftBelow<'_> {
    #[inline(always)]
    fn turn(&mut self, _: Point, _: &[Step], mover: Bitboard, waiting: Bitboard) {
        self.total += perft_sides(self.board, waiting, mover, self.depth);
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
