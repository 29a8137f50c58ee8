//! The automorphisms of a board (4 on a non-square board, 8 on a square one) acting on points,
//! sets, positions and turns, and the canonical form of a position.
//!
//! Every symmetry maps strong points to strong points (a mirror of an odd board keeps the parity
//! of file + rank), so lines go to lines and the rules commute with it.

use crate::bitboard::{Bitboard, Point};
use crate::geometry::Board;
use crate::movegen::{Step, Turn};
use crate::position::Position;

/// One symmetry of a board, as a permutation of its points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    name: &'static str,
    image: Vec<Point>,
}

impl Symmetry {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn point(&self, point: Point) -> Point {
        self.image[point as usize]
    }

    pub fn set(&self, set: Bitboard) -> Bitboard {
        set.points().map(|point| self.point(point)).collect()
    }

    pub fn position(&self, position: &Position) -> Position {
        Position {
            mover: self.set(position.mover),
            waiting: self.set(position.waiting),
            side: position.side,
        }
    }

    pub fn turn(&self, turn: &Turn) -> Turn {
        Turn {
            origin: self.point(turn.origin),
            steps: turn
                .steps
                .iter()
                .map(|step| Step {
                    to: self.point(step.to),
                    capture: step.capture,
                })
                .collect(),
            result: self.position(&turn.result),
        }
    }
}

/// A coordinate map: (file, rank, last file, last rank) to (file, rank).
type CoordinateMap = fn(usize, usize, usize, usize) -> (usize, usize);

const RECTANGLE_MAPS: [(&str, CoordinateMap); 4] = [
    ("identity", |f, r, _, _| (f, r)),
    ("mirror files", |f, r, w, _| (w - f, r)),
    ("mirror ranks", |f, r, _, h| (f, h - r)),
    ("half turn", |f, r, w, h| (w - f, h - r)),
];

/// Only on square boards, where the last file equals the last rank.
const SQUARE_MAPS: [(&str, CoordinateMap); 4] = [
    ("transpose", |f, r, _, _| (r, f)),
    ("anti-transpose", |f, r, w, h| (h - r, w - f)),
    ("quarter turn", |f, r, _, h| (h - r, f)),
    ("three-quarter turn", |f, r, w, _| (r, w - f)),
];

/// All symmetries of `board`, the identity first.
pub fn symmetries(board: &Board) -> Vec<Symmetry> {
    let square = board.rows() == board.columns();
    let maps = RECTANGLE_MAPS
        .iter()
        .chain(SQUARE_MAPS.iter().filter(|_| square));
    maps.map(|&(name, map)| Symmetry {
        name,
        image: permutation(board, map),
    })
    .collect()
}

fn permutation(board: &Board, map: CoordinateMap) -> Vec<Point> {
    let (last_file, last_rank) = (board.columns() - 1, board.rows() - 1);
    (0..board.points() as Point)
        .map(|point| {
            let (file, rank) = map(board.file(point), board.rank(point), last_file, last_rank);
            board.point(file, rank)
        })
        .collect()
}

/// The canonical form of `position`: its smallest image under `symmetries`, and which one gave it.
pub fn canonical(symmetries: &[Symmetry], position: &Position) -> (Position, usize) {
    symmetries
        .iter()
        .enumerate()
        .map(|(index, symmetry)| (symmetry.position(position), index))
        .min()
        .expect("every board has the identity")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_permutations() {
        for (rows, columns, count) in [(5, 9, 4), (3, 3, 8), (5, 5, 8), (7, 3, 4)] {
            let board = Board::new(rows, columns).unwrap();
            let all = symmetries(&board);
            assert_eq!(all.len(), count);
            for symmetry in &all {
                let mut image = symmetry.image.clone();
                image.sort_unstable();
                assert_eq!(
                    image,
                    (0..board.points() as Point).collect::<Vec<_>>(),
                    "{}",
                    symmetry.name
                );
                assert_eq!(
                    symmetry.set(board.strong()),
                    board.strong(),
                    "{}",
                    symmetry.name
                );
            }
        }
    }

    #[test]
    fn half_turn_is_an_involution() {
        let board = Board::standard();
        let start = Position::standard_start(&board);
        let sym = &symmetries(&board)[3];
        let turned = sym.position(&start);
        assert_eq!(turned.mover.count(), 22);
        assert_ne!(turned, start);
        assert_eq!(sym.position(&turned), start);
    }
}
