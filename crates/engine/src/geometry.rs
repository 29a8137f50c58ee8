//! The board as data: size, points, strong points and the lines through them.
//!
//! One [`Board`] value describes any odd board of R rows and C columns with at most 64 points;
//! the engine has no per-board code. Points are numbered densely, rank by rank from the bottom:
//!
//! ```text
//!   rank 5 | 36 37 38 39 40 41 42 43 44        5x9: point = rank_index * 9 + file_index
//!   rank 4 | 27 28 29 30 31 32 33 34 35
//!   rank 3 | 18 19 20 21 22 23 24 25 26        a1 = 0 (strong), i5 = 44, centre e3 = 22
//!   rank 2 |  9 10 11 12 13 14 15 16 17
//!   rank 1 |  0  1  2  3  4  5  6  7  8
//!            a  b  c  d  e  f  g  h  i
//! ```
//!
//! A step in direction `d` adds a fixed offset to the point number (`+1` east, `+C` north, …).
//! Shifts never wrap because a set is first masked by [`Board::line_start`], the points from which
//! a line leaves in that direction; a rotate then moves the bits (the offset taken modulo 64 makes
//! left and right shifts one branch-free instruction).

use crate::bitboard::{Bitboard, Point};
use std::fmt;

/// The largest number of points a board may have: one bit per point in a `u64`.
pub const MAX_POINTS: usize = 64;

/// A point number no board uses: boards are odd by odd, so they have at most 63 points (0–62).
pub const NO_POINT: Point = 63;

/// One of the eight directions of a line, numbered in the order of their point offsets
/// (south-west −C−1 first, north-east +C+1 last). So the neighbours of any point, listed by point
/// number, come in direction order, and `d.opposite()` is `7 − d`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Direction {
    SouthWest = 0,
    South = 1,
    SouthEast = 2,
    West = 3,
    East = 4,
    NorthWest = 5,
    North = 6,
    NorthEast = 7,
}

impl Direction {
    pub const ALL: [Direction; 8] = [
        Direction::SouthWest,
        Direction::South,
        Direction::SouthEast,
        Direction::West,
        Direction::East,
        Direction::NorthWest,
        Direction::North,
        Direction::NorthEast,
    ];

    #[inline(always)]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with [`Direction::index`] `index & 7` (a match rather than `ALL[..]`, so
    /// that it compiles to nothing instead of a table load).
    #[inline(always)]
    pub const fn from_index(index: usize) -> Direction {
        match index & 7 {
            0 => Direction::SouthWest,
            1 => Direction::South,
            2 => Direction::SouthEast,
            3 => Direction::West,
            4 => Direction::East,
            5 => Direction::NorthWest,
            6 => Direction::North,
            _ => Direction::NorthEast,
        }
    }

    #[inline(always)]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(7 - self as usize)
    }

    /// (file change, rank change) of one step.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::East => (1, 0),
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (-1, 1),
            Direction::West => (-1, 0),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (1, -1),
        }
    }

    pub const fn is_diagonal(self) -> bool {
        let (dx, dy) = self.delta();
        dx != 0 && dy != 0
    }

    /// The direction with this (file change, rank change), if it is one step.
    pub fn from_delta(delta: (i32, i32)) -> Option<Direction> {
        Direction::ALL.into_iter().find(|d| d.delta() == delta)
    }
}

/// Why a board size is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SizeError {
    Even { rows: usize, columns: usize },
    TooSmall { rows: usize, columns: usize },
    TooManyPoints { rows: usize, columns: usize },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SizeError::Even { rows, columns } => write!(
                f,
                "board {rows}x{columns} is not supported: rows and columns must both be odd"
            ),
            SizeError::TooSmall { rows, columns } => write!(
                f,
                "board {rows}x{columns} is not supported: the smallest board is 3x3"
            ),
            SizeError::TooManyPoints { rows, columns } => write!(
                f,
                "board {rows}x{columns} is not supported: it has {} points, at most {MAX_POINTS} are",
                rows * columns
            ),
        }
    }
}

impl std::error::Error for SizeError {}

/// The geometry of one board size. Cheap to copy around by reference; build it once.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    rows: usize,
    columns: usize,
    all: Bitboard,
    strong: Bitboard,
    /// Per direction: the points from which a line leads one step that way.
    line_start: [Bitboard; 8],
    /// Per direction: the point offset of one step, as a left-rotation amount (mod 64).
    rotation: [u32; 8],
    /// Per point: the points one and two steps away (see [`Surroundings`]).
    surroundings: [Surroundings; MAX_POINTS],
    /// Per point and direction: the surroundings of the neighbour that way, so that a chain's
    /// next landing point is looked at with one table read instead of two dependent ones.
    surroundings_after_step: [[Surroundings; 8]; MAX_POINTS],
    /// Per point and direction: the neighbour, or [`NO_POINT`] where no line goes that way.
    neighbour_point: [[Point; 8]; MAX_POINTS],
    /// Per point and direction: every point further along the line that way (the point itself
    /// excluded), for finding a run of stones without walking it.
    ray: [[Bitboard; 8]; MAX_POINTS],
}

impl Board {
    /// The board of `rows` x `columns` points (the paper's R×C; 5x9 is the full game).
    pub fn new(rows: usize, columns: usize) -> Result<Board, SizeError> {
        if rows % 2 == 0 || columns % 2 == 0 {
            return Err(SizeError::Even { rows, columns });
        }
        if rows < 3 || columns < 3 {
            return Err(SizeError::TooSmall { rows, columns });
        }
        if rows * columns > MAX_POINTS {
            return Err(SizeError::TooManyPoints { rows, columns });
        }
        let mut board = Board {
            rows,
            columns,
            all: Bitboard::EMPTY,
            strong: Bitboard::EMPTY,
            line_start: [Bitboard::EMPTY; 8],
            rotation: [0; 8],
            surroundings: [Surroundings::NONE; MAX_POINTS],
            surroundings_after_step: [[Surroundings::NONE; 8]; MAX_POINTS],
            neighbour_point: [[NO_POINT; 8]; MAX_POINTS],
            ray: [[Bitboard::EMPTY; 8]; MAX_POINTS],
        };
        board.fill_tables();
        Ok(board)
    }

    /// The full 5x9 board.
    pub fn standard() -> Board {
        Board::new(5, 9).expect("5x9 is a valid board")
    }

    fn fill_tables(&mut self) {
        for point in 0..self.points() as Point {
            self.all = self.all.with(point);
            if self.is_strong(point) {
                self.strong = self.strong.with(point);
            }
            for dir in Direction::ALL {
                if let Some(next) = self.neighbour(point, dir) {
                    self.line_start[dir.index()] = self.line_start[dir.index()].with(point);
                    self.neighbour_point[point as usize][dir.index()] = next;
                    self.ray[point as usize][dir.index()] = self.ray_points(next, dir);
                    let beyond = self.neighbour(next, dir);
                    let around = &mut self.surroundings[point as usize];
                    around.ring = around.ring.with(next);
                    around.ring_directions |= 1 << dir.index();
                    if let Some(beyond) = beyond {
                        around.outer_ring = around.outer_ring.with(beyond);
                        around.outer_directions |= 1 << dir.index();
                    }
                }
            }
        }
        for point in 0..self.points() {
            for dir in Direction::ALL {
                let next = self.neighbour_point[point][dir.index()];
                if next != NO_POINT {
                    self.surroundings_after_step[point][dir.index()] =
                        self.surroundings[next as usize];
                }
            }
        }
        for dir in Direction::ALL {
            let (dx, dy) = dir.delta();
            let offset = dx + dy * self.columns as i32;
            self.rotation[dir.index()] = offset.rem_euclid(64) as u32;
        }
    }

    /// `first` and every point after it on the line in direction `dir`.
    fn ray_points(&self, first: Point, dir: Direction) -> Bitboard {
        let mut ray = Bitboard::from_point(first);
        let mut point = first;
        while let Some(next) = self.neighbour(point, dir) {
            ray = ray.with(next);
            point = next;
        }
        ray
    }

    pub const fn rows(&self) -> usize {
        self.rows
    }

    pub const fn columns(&self) -> usize {
        self.columns
    }

    pub const fn points(&self) -> usize {
        self.rows * self.columns
    }

    /// Every point of the board.
    #[inline(always)]
    pub const fn all(&self) -> Bitboard {
        self.all
    }

    /// The points where diagonal lines cross: file + rank even.
    pub const fn strong(&self) -> Bitboard {
        self.strong
    }

    pub const fn point(&self, file: usize, rank: usize) -> Point {
        (rank * self.columns + file) as Point
    }

    pub const fn file(&self, point: Point) -> usize {
        point as usize % self.columns
    }

    pub const fn rank(&self, point: Point) -> usize {
        point as usize / self.columns
    }

    pub const fn is_strong(&self, point: Point) -> bool {
        (self.file(point) + self.rank(point)) % 2 == 0
    }

    /// The point one step from `point` along a line in direction `dir`, if that line exists.
    /// This is the slow, obvious definition; [`Board::shift`] is the fast one built from it.
    pub fn neighbour(&self, point: Point, dir: Direction) -> Option<Point> {
        let (dx, dy) = dir.delta();
        if dir.is_diagonal() && !self.is_strong(point) {
            return None;
        }
        let file = self.file(point) as i32 + dx;
        let rank = self.rank(point) as i32 + dy;
        let inside =
            (0..self.columns as i32).contains(&file) && (0..self.rows as i32).contains(&rank);
        inside.then(|| self.point(file as usize, rank as usize))
    }

    /// The points from which a line leads one step in direction `dir`.
    #[inline(always)]
    pub fn line_start(&self, dir: Direction) -> Bitboard {
        self.line_start[dir.index()]
    }

    /// The neighbour of `point` in direction `dir`, or [`NO_POINT`] where no line goes that way
    /// (the fast form of [`Board::neighbour`]).
    #[inline(always)]
    pub fn neighbour_point(&self, point: Point, dir: Direction) -> Point {
        self.neighbour_point[point as usize % MAX_POINTS][dir.index()]
    }

    /// The directions (bit per [`Direction::index`]) in which a point of `set` lies one step
    /// from `point`.
    #[inline(always)]
    pub fn neighbours_in(&self, point: Point, set: Bitboard) -> u8 {
        self.surroundings[point as usize % MAX_POINTS].neighbours_in(set)
    }

    /// The directions in which a point of `set` lies two steps from `point` on a straight line.
    #[inline(always)]
    pub fn jumps_in(&self, point: Point, set: Bitboard) -> u8 {
        self.surroundings[point as usize % MAX_POINTS].jumps_in(set)
    }

    /// The surroundings of the point one step from `point` in direction `dir` (empty where no
    /// line goes that way).
    #[inline(always)]
    pub fn surroundings_after_step(&self, point: Point, dir: Direction) -> &Surroundings {
        &self.surroundings_after_step[point as usize % MAX_POINTS][dir.index()]
    }

    /// The unbroken run of points of `set` that starts next to `point` in direction `dir` and
    /// goes on that way (empty if the neighbour is not in `set`): the stones a capture takes.
    ///
    /// Point numbers grow along the last four directions and shrink along the first four, so
    /// the run ends at the lowest (or highest) point of the ray outside `set`.
    #[inline(always)]
    pub fn run_from(&self, point: Point, dir: Direction, set: Bitboard) -> Bitboard {
        let ray = self.ray[point as usize % MAX_POINTS][dir.index()].0;
        let gaps = ray & !set.0;
        let below_first_gap = (gaps & gaps.wrapping_neg()).wrapping_sub(1);
        // A board has at most 63 points, so the highest gap is below bit 63 and the shift < 64.
        let above_last_gap = u64::MAX.wrapping_shl(64 - gaps.leading_zeros());
        let keep = if dir.index() >= 4 {
            below_first_gap
        } else {
            above_last_gap
        };
        Bitboard(ray & keep)
    }

    /// Every point of `set` moved one step in direction `dir`; points without such a line drop out.
    #[inline(always)]
    pub fn shift(&self, set: Bitboard, dir: Direction) -> Bitboard {
        self.shift_by_index(set, dir.index())
    }

    /// [`Board::shift`] in the direction of index `dir` (below 8).
    #[inline(always)]
    fn shift_by_index(&self, set: Bitboard, dir: usize) -> Bitboard {
        let movable = set.0 & self.line_start[dir].0;
        Bitboard(movable.rotate_left(self.rotation[dir]))
    }

    /// The points one step in direction `dir` leads into `set`: `shift(set, dir.opposite())`.
    /// (Indexed by `7 - dir` rather than through [`Direction::opposite`]: in a loop over the
    /// directions that the compiler does not unroll, as in counting a position's turns, the
    /// `match` of `from_index` became an indirect jump per direction, and the sets the loop
    /// stored one by one were read back as a vector before the stores had landed. Measured in
    /// `data/results.md`, "Sixty-ninth session".)
    #[inline(always)]
    pub fn pull(&self, set: Bitboard, dir: Direction) -> Bitboard {
        self.shift_by_index(set, 7 - dir.index())
    }

    /// The name of a point: file letter and rank number, `a1` … `i5`.
    pub fn point_name(&self, point: Point) -> String {
        let file = (b'a' + self.file(point) as u8) as char;
        format!("{file}{}", self.rank(point) + 1)
    }

    /// The point with this name, if it is on the board.
    pub fn parse_point(&self, name: &str) -> Option<Point> {
        let mut chars = name.chars();
        let file_char = chars.next()?;
        if !file_char.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || digits.starts_with('0')
        {
            return None;
        }
        let file = (file_char as u8 - b'a') as usize;
        let rank = digits.parse::<usize>().ok()?.checked_sub(1)?;
        (file < self.columns && rank < self.rows).then(|| self.point(file, rank))
    }

    /// "5x9": rows, then columns.
    pub fn size_name(&self) -> String {
        format!("{}x{}", self.rows, self.columns)
    }

    /// Parse "RxC" (rows x columns), e.g. "5x9".
    pub fn parse_size(text: &str) -> Result<Board, String> {
        let (rows, columns) = text
            .split_once(['x', 'X'])
            .ok_or_else(|| format!("board size '{text}' is not of the form RxC, e.g. 5x9"))?;
        let number = |part: &str| {
            part.trim()
                .parse::<usize>()
                .map_err(|_| format!("board size '{text}' is not of the form RxC, e.g. 5x9"))
        };
        Board::new(number(rows)?, number(columns)?).map_err(|e| e.to_string())
    }
}

/// What the capture rules look at around one point: the points one step away along a line, and
/// the points two steps away on a straight line, each with the directions (bit per
/// [`Direction::index`]) in which they lie.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Surroundings {
    ring: Bitboard,
    outer_ring: Bitboard,
    ring_directions: u8,
    outer_directions: u8,
}

impl Surroundings {
    const NONE: Surroundings = Surroundings {
        ring: Bitboard::EMPTY,
        outer_ring: Bitboard::EMPTY,
        ring_directions: 0,
        outer_directions: 0,
    };

    /// The directions in which a point of `set` lies one step away.
    #[inline(always)]
    pub fn neighbours_in(&self, set: Bitboard) -> u8 {
        gather_directions(set, self.ring, self.ring_directions)
    }

    /// The directions in which a point of `set` lies two steps away on a straight line.
    #[inline(always)]
    pub fn jumps_in(&self, set: Bitboard) -> u8 {
        gather_directions(set, self.outer_ring, self.outer_directions)
    }
}

/// Which of the points of `ring` (one per direction of `directions`) are in `set`, as directions.
///
/// The points of a ring listed by point number are in direction order, so `pext` packs the
/// members in that order and `pdep` spreads them onto their direction bits.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn gather_directions(set: Bitboard, ring: Bitboard, directions: u8) -> u8 {
    use std::arch::x86_64::{_pdep_u64, _pext_u64};
    // Safety: BMI2 is enabled for the whole build (this function exists only under that cfg).
    unsafe { _pdep_u64(_pext_u64(set.0, ring.0), directions as u64) as u8 }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn gather_directions(set: Bitboard, ring: Bitboard, directions: u8) -> u8 {
    portable_gather_directions(set, ring, directions)
}

/// [`gather_directions`] without BMI2: walk the ring's points and direction bits together.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "bmi2"), allow(dead_code))]
#[inline(always)]
fn portable_gather_directions(set: Bitboard, ring: Bitboard, mut directions: u8) -> u8 {
    let mut found = 0;
    for point in ring.points() {
        let direction_bit = directions & directions.wrapping_neg();
        directions ^= direction_bit;
        if set.contains(point) {
            found |= direction_bit;
        }
    }
    found
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.size_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_checked() {
        assert!(Board::new(5, 9).is_ok());
        assert!(Board::new(7, 9).is_ok()); // 63 points
        assert_eq!(
            Board::new(4, 9),
            Err(SizeError::Even {
                rows: 4,
                columns: 9
            })
        );
        assert_eq!(
            Board::new(1, 9),
            Err(SizeError::TooSmall {
                rows: 1,
                columns: 9
            })
        );
        assert_eq!(
            Board::new(9, 9),
            Err(SizeError::TooManyPoints {
                rows: 9,
                columns: 9
            })
        );
        assert!(Board::parse_size("5x").is_err());
        assert_eq!(Board::parse_size("3x5").unwrap().size_name(), "3x5");
    }

    #[test]
    fn run_from_agrees_with_walking_the_line() {
        let mut seed = 7u64;
        for (rows, columns) in [(3, 3), (5, 9), (7, 9), (3, 21), (21, 3)] {
            let board = Board::new(rows, columns).unwrap();
            for _ in 0..200 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let set = Bitboard(seed & board.all().0);
                for point in 0..board.points() as Point {
                    for dir in Direction::ALL {
                        let mut walked = Bitboard::EMPTY;
                        let mut at = point;
                        while let Some(next) = board.neighbour(at, dir) {
                            if (set & Bitboard::from_point(next)).is_empty() {
                                break;
                            }
                            walked = walked.with(next);
                            at = next;
                        }
                        assert_eq!(board.run_from(point, dir, set), walked, "{point} {dir:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn shift_agrees_with_neighbour_on_every_board() {
        for (rows, columns) in [(3, 3), (3, 5), (5, 3), (5, 9), (7, 9), (3, 21), (21, 3)] {
            let board = Board::new(rows, columns).unwrap();
            for point in 0..board.points() as Point {
                for dir in Direction::ALL {
                    let expected = board
                        .neighbour(point, dir)
                        .map(Bitboard::from_point)
                        .unwrap_or_default();
                    assert_eq!(
                        board.shift(Bitboard::from_point(point), dir),
                        expected,
                        "{point} {dir:?}"
                    );
                }
            }
        }
    }

    /// `pull` indexes its tables by `7 - dir` itself: the point it gives for `point` is the
    /// one from which a step in `dir` lands on `point`.
    #[test]
    fn pull_finds_the_point_a_step_comes_from_on_every_board() {
        for (rows, columns) in [(3, 3), (3, 5), (5, 3), (5, 9), (7, 9), (3, 21), (21, 3)] {
            let board = Board::new(rows, columns).unwrap();
            for point in 0..board.points() as Point {
                for dir in Direction::ALL {
                    let (dx, dy) = dir.delta();
                    assert_eq!(dir.opposite().delta(), (-dx, -dy));
                    let from = board.pull(Bitboard::from_point(point), dir);
                    let expected: Vec<Point> = (0..board.points() as Point)
                        .filter(|&p| board.neighbour(p, dir) == Some(point))
                        .collect();
                    assert_eq!(
                        from.points().collect::<Vec<_>>(),
                        expected,
                        "{point} {dir:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn direction_gathering_matches_the_neighbours() {
        let board = Board::new(5, 9).unwrap();
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let set = Bitboard(seed) & board.all();
            for point in 0..board.points() as Point {
                let expected: u8 = Direction::ALL
                    .into_iter()
                    .filter(|&d| board.neighbour(point, d).is_some_and(|n| set.contains(n)))
                    .map(|d| 1 << d.index())
                    .sum();
                assert_eq!(board.neighbours_in(point, set), expected);
                let around = board.surroundings[point as usize];
                assert_eq!(
                    portable_gather_directions(set, around.ring, around.ring_directions),
                    expected
                );
                let jumps: u8 = Direction::ALL
                    .into_iter()
                    .filter(|&d| {
                        let next = board.neighbour(point, d);
                        next.and_then(|n| board.neighbour(n, d))
                            .is_some_and(|j| set.contains(j))
                    })
                    .map(|d| 1 << d.index())
                    .sum();
                assert_eq!(board.jumps_in(point, set), jumps);
            }
        }
    }

    #[test]
    fn strong_points_carry_the_diagonals() {
        let board = Board::standard();
        let e3 = board.parse_point("e3").unwrap();
        let d3 = board.parse_point("d3").unwrap();
        assert!(board.is_strong(e3) && !board.is_strong(d3));
        assert_eq!(
            board.neighbour(e3, Direction::NorthEast),
            board.parse_point("f4")
        );
        assert_eq!(board.neighbour(d3, Direction::NorthEast), None);
        assert_eq!(board.strong().count(), 23);
        assert_eq!(board.point_name(44), "i5");
        assert_eq!(board.parse_point("j1"), None);
        assert_eq!(board.parse_point("a0"), None);
    }
}
