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
/// Sets are mapped without tables (see [`SetMap`]): a few delta swaps and, for the symmetries
/// that contain the half turn, a bit reversal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symmetry {
    name: &'static str,
    image: Vec<Point>,
    set_map: SetMap,
}

/// How a symmetry maps a set of points: its delta swaps in order (each exchanges the points
/// of `mask` with those `delta` above them), then, if `reverse`, the half turn. Points are
/// numbered rank by rank, so the half turn (point p to N − 1 − p) is a reversal of the N
/// bits; it commutes with every symmetry, so it can always come last.
#[derive(Clone, Debug, PartialEq, Eq)]
struct SetMap {
    swaps: [(u32, u64); MAX_SWAPS],
    count: usize,
    reverse: bool,
    /// 64 − N: how far a reversed set is shifted down.
    shift: u32,
}

/// The most delta swaps a symmetry takes: a transpose of a 7x7 board (6) and a mirror (3).
const MAX_SWAPS: usize = 10;

impl Symmetry {
    pub fn name(&self) -> &'static str {
        self.name
    }

    pub fn point(&self, point: Point) -> Point {
        self.image[point as usize]
    }

    #[inline]
    pub fn set(&self, set: Bitboard) -> Bitboard {
        Bitboard(self.set_map.apply(set.0))
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

/// The symmetries that the others are composed of, as set maps (see [`SetMap::of`]).
#[derive(Clone, Copy)]
enum Generator {
    MirrorFiles,
    MirrorRanks,
    HalfTurn,
    Transpose,
}

use Generator::*;

/// A symmetry: its name, its map of coordinates, and the generators that compose it (the
/// first applied first).
type Definition = (&'static str, CoordinateMap, &'static [Generator]);

const RECTANGLE_MAPS: [Definition; 4] = [
    ("identity", |f, r, _, _| (f, r), &[]),
    ("mirror files", |f, r, w, _| (w - f, r), &[MirrorFiles]),
    ("mirror ranks", |f, r, _, h| (f, h - r), &[MirrorRanks]),
    ("half turn", |f, r, w, h| (w - f, h - r), &[HalfTurn]),
];

/// Only on square boards, where the last file equals the last rank.
const SQUARE_MAPS: [Definition; 4] = [
    ("transpose", |f, r, _, _| (r, f), &[Transpose]),
    (
        "anti-transpose",
        |f, r, w, h| (h - r, w - f),
        &[Transpose, HalfTurn],
    ),
    (
        "quarter turn",
        |f, r, _, h| (h - r, f),
        &[Transpose, MirrorFiles],
    ),
    (
        "three-quarter turn",
        |f, r, w, _| (r, w - f),
        &[Transpose, MirrorRanks],
    ),
];

/// All symmetries of `board`, the identity first.
pub fn symmetries(board: &Board) -> Vec<Symmetry> {
    let square = board.rows() == board.columns();
    let maps = RECTANGLE_MAPS
        .iter()
        .chain(SQUARE_MAPS.iter().filter(|_| square));
    maps.map(|&(name, map, generators)| {
        let image = permutation(board, map);
        let set_map = SetMap::of(board, generators);
        // Delta swaps and a reversal move single points, so agreeing with the permutation on
        // every point is agreeing on every set.
        for (point, &to) in image.iter().enumerate() {
            assert_eq!(
                set_map.apply(1 << point),
                1 << to,
                "{name} of point {point}"
            );
        }
        Symmetry {
            name,
            image,
            set_map,
        }
    })
    .collect()
}

impl SetMap {
    /// The map of the composition of `generators` on `board`.
    fn of(board: &Board, generators: &[Generator]) -> SetMap {
        let mut map = SetMap {
            swaps: [(0, 0); MAX_SWAPS],
            count: 0,
            reverse: false,
            shift: 64 - board.points() as u32,
        };
        for generator in generators {
            // Either mirror is also the other one and the half turn: the fewer swaps win.
            let (files, ranks) = (mirror_files(board), mirror_ranks(board));
            let (swaps, reverse) = match generator {
                MirrorFiles if ranks.len() < files.len() => (ranks, true),
                MirrorFiles => (files, false),
                MirrorRanks if files.len() < ranks.len() => (files, true),
                MirrorRanks => (ranks, false),
                HalfTurn => (Vec::new(), true),
                Transpose => (transpose(board), false),
            };
            for swap in swaps {
                map.swaps[map.count] = swap;
                map.count += 1;
            }
            map.reverse ^= reverse;
        }
        map
    }

    #[inline]
    fn apply(&self, mut set: u64) -> u64 {
        for &(delta, mask) in &self.swaps[..self.count] {
            let differ = ((set >> delta) ^ set) & mask;
            set ^= differ ^ (differ << delta);
        }
        if self.reverse {
            set = set.reverse_bits() >> self.shift;
        }
        set
    }
}

/// The three symmetries other than the identity of a board that is not square, mapping a set
/// to its three images at once. The two mirrors and the half turn are each the other two
/// composed, and the half turn is a reversal of the bits, so all three images take one mirror
/// (the one of fewer delta swaps) and two reversals: on 5x9, 2 swaps and 2 reversals, where
/// mapping them one by one takes 4 swaps and 2 reversals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RectangleImages {
    /// The mirror of fewer swaps, without a reversal.
    mirror: SetMap,
    /// Whether that mirror is the one of files.
    files: bool,
}

impl RectangleImages {
    /// None on a square board (which has four more symmetries).
    pub fn of(board: &Board) -> Option<RectangleImages> {
        if board.rows() == board.columns() {
            return None;
        }
        // The mirror of fewer swaps is composed of its own swaps, without the reversal.
        let files = mirror_files(board).len() <= mirror_ranks(board).len();
        let mirror = SetMap::of(board, &[if files { MirrorFiles } else { MirrorRanks }]);
        debug_assert!(!mirror.reverse);
        Some(RectangleImages { mirror, files })
    }

    /// The images of `set` in the order of [`symmetries`]: mirror files, mirror ranks, half
    /// turn.
    #[inline]
    pub fn images(&self, set: u64) -> [u64; 3] {
        let mirrored = self.mirror.apply(set);
        let reverse = |set: u64| set.reverse_bits() >> self.mirror.shift;
        let (other, half_turn) = (reverse(mirrored), reverse(set));
        match self.files {
            true => [mirrored, other, half_turn],
            false => [other, mirrored, half_turn],
        }
    }
}

/// The points of `board` whose (file, rank) satisfy `keep`, as a mask.
fn points_where(board: &Board, keep: impl Fn(usize, usize) -> bool) -> u64 {
    (0..board.points() as Point)
        .filter(|&p| keep(board.file(p), board.rank(p)))
        .fold(0, |mask, p| mask | 1 << p)
}

/// File f exchanged with file w − f, for each file f left of the middle.
fn mirror_files(board: &Board) -> Vec<(u32, u64)> {
    let w = board.columns() - 1;
    (0..board.columns() / 2)
        .map(|f| ((w - 2 * f) as u32, points_where(board, |file, _| file == f)))
        .collect()
}

/// Rank r exchanged with rank h − r, for each rank r below the middle.
fn mirror_ranks(board: &Board) -> Vec<(u32, u64)> {
    let (h, width) = (board.rows() - 1, board.columns());
    (0..board.rows() / 2)
        .map(|r| {
            let delta = ((h - 2 * r) * width) as u32;
            (delta, points_where(board, |_, rank| rank == r))
        })
        .collect()
}

/// On a square board of side n, (f, r) exchanged with (r, f): a point d files right of the
/// diagonal is d(n − 1) points below its image.
fn transpose(board: &Board) -> Vec<(u32, u64)> {
    let n = board.columns();
    (1..n)
        .map(|d| {
            let delta = (d * (n - 1)) as u32;
            (delta, points_where(board, |file, rank| file == rank + d))
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
    fn sets_map_point_by_point() {
        for (rows, columns) in [(5, 9), (3, 3), (5, 5), (7, 7), (7, 9), (3, 21), (21, 3)] {
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
    fn a_rectangle_maps_a_set_to_its_three_images_at_once() {
        for (rows, columns) in [(5, 9), (9, 5), (3, 5), (7, 3), (3, 21), (21, 3)] {
            let board = Board::new(rows, columns).unwrap();
            let images = RectangleImages::of(&board).unwrap();
            let all = symmetries(&board);
            let mut seed = 0x0fed_cba9_8765_4321u64;
            for _ in 0..500 {
                seed = crate::hash::mix(seed);
                let set = seed & board.all().0;
                let one_by_one = [1, 2, 3].map(|k| all[k].set(Bitboard(set)).0);
                assert_eq!(images.images(set), one_by_one, "{rows}x{columns}");
            }
        }
        for side in [3, 5, 7] {
            assert!(RectangleImages::of(&Board::new(side, side).unwrap()).is_none());
        }
    }

    #[test]
    fn every_board_maps_sets_as_its_points() {
        // `symmetries` checks each set map against its permutation, point by point.
        let boards = (3..64).step_by(2).flat_map(|rows| {
            (3..64)
                .step_by(2)
                .filter_map(move |columns| Board::new(rows, columns).ok())
        });
        let mut count = 0;
        for board in boards {
            let square = board.rows() == board.columns();
            assert_eq!(symmetries(&board).len(), if square { 8 } else { 4 });
            count += 1;
        }
        assert_eq!(
            count, 29,
            "the odd boards of at least 3 and at most 64 points"
        );
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
