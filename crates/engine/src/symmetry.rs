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
///
/// Sets are mapped a byte at a time: `by_byte[k][b]` is the image of the points `8k..8k+8`
/// selected by the bits of `b`, so a whole set costs at most eight lookups and ORs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    name: &'static str,
    image: Vec<Point>,
    by_byte: Box<[[u64; 256]; 8]>,
}

impl Symmetry {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn point(&self, point: Point) -> Point {
        self.image[point as usize]
    }

    #[inline]
    pub fn set(&self, set: Bitboard) -> Bitboard {
        let mut image = 0;
        let mut rest = set.0;
        let mut byte = 0;
        while rest != 0 {
            image |= self.by_byte[byte][(rest & 0xff) as usize];
            rest >>= 8;
            byte += 1;
        }
        Bitboard(image)
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        self.image.iter().enumerate().all(|(p, &q)| p == q as usize)
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
    maps.map(|&(name, map)| {
        let image = permutation(board, map);
        let by_byte = byte_tables(&image);
        Symmetry {
            name,
            image,
            by_byte,
        }
    })
    .collect()
}

/// The image of every byte-sized group of points (see [`Symmetry`]).
fn byte_tables(image: &[Point]) -> Box<[[u64; 256]; 8]> {
    let mut tables = Box::new([[0u64; 256]; 8]);
    for (byte, table) in tables.iter_mut().enumerate() {
        for (bits, entry) in table.iter_mut().enumerate() {
            for bit in 0..8 {
                let point = byte * 8 + bit;
                if bits >> bit & 1 != 0 && point < image.len() {
                    *entry |= 1 << image[point];
                }
            }
        }
    }
    tables
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
    fn sets_map_point_by_point() {
        for (rows, columns) in [(5, 9), (3, 3), (7, 9), (3, 21)] {
            let board = Board::new(rows, columns).unwrap();
            let mut seed = 0x1234_5678_9abc_def0u64;
            for symmetry in symmetries(&board) {
                for _ in 0..200 {
                    seed = crate::hash::mix(seed);
                    let set = Bitboard(seed & board.all().0);
                    let pointwise: Bitboard = set.points().map(|p| symmetry.point(p)).collect();
                    assert_eq!(symmetry.set(set), pointwise, "{}", symmetry.name);
                }
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
