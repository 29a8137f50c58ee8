//! Positions: the stones of the side to move and of the side waiting, and which colour moves.
//!
//! The engine thinks in "mover" and "waiting" sets, which is what turn generation and endgame
//! tables need; the colour is kept for display and notation.

use crate::bitboard::Bitboard;
use crate::geometry::Board;

/// A player's colour. White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `white` or `black`, as in JSON output and file names.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// `w` or `b`, as in position notation.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// `W` or `B`, as a stone in position notation.
    pub const fn stone(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

/// A position on some [`Board`] (the board is not stored: positions are two words and a flag).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Position {
    /// Stones of the side to move.
    pub mover: Bitboard,
    /// Stones of the side waiting.
    pub waiting: Bitboard,
    /// The colour of the side to move.
    pub side: Color,
}

impl Position {
    /// A reproducible pseudo-random placement of `white` and `black` stones, White to move, for
    /// tests, benchmarks and examples: the same `seed` gives the same positions on every machine
    /// (a 64-bit linear congruential generator, advanced in place).
    pub fn random_placement(board: &Board, white: u32, black: u32, seed: &mut u64) -> Position {
        let mut point = || {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (*seed >> 33) as usize % board.points()
        };
        let mut take = |count: u32, taken: u64| {
            let mut set = 0u64;
            while set.count_ones() < count {
                let p = point();
                if (taken | set) >> p & 1 == 0 {
                    set |= 1 << p;
                }
            }
            set
        };
        let white = take(white, 0);
        let black = take(black, white);
        Position::from_colors(Bitboard(white), Bitboard(black), Color::White)
    }

    /// A position from the stones of each colour.
    pub fn from_colors(white: Bitboard, black: Bitboard, side: Color) -> Position {
        match side {
            Color::White => Position {
                mover: white,
                waiting: black,
                side,
            },
            Color::Black => Position {
                mover: black,
                waiting: white,
                side,
            },
        }
    }

    pub fn stones(&self, color: Color) -> Bitboard {
        if color == self.side {
            self.mover
        } else {
            self.waiting
        }
    }

    pub fn white(&self) -> Bitboard {
        self.stones(Color::White)
    }

    pub fn black(&self) -> Bitboard {
        self.stones(Color::Black)
    }

    pub fn occupied(&self) -> Bitboard {
        self.mover | self.waiting
    }

    /// The position after a turn that left the mover with `mover` and the opponent with `waiting`:
    /// the sides swap.
    #[inline(always)]
    pub fn after(&self, mover: Bitboard, waiting: Bitboard) -> Position {
        Position {
            mover: waiting,
            waiting: mover,
            side: self.side.other(),
        }
    }

    /// The traditional start of any board: Black above the middle rank, White below; the middle
    /// rank alternates Black and White from file a up to the empty centre, and its right half is
    /// the left half turned 180° with colours swapped (5x9: `BWBW.BWBW`). White to move.
    pub fn standard_start(board: &Board) -> Position {
        let middle = board.rows() / 2;
        let centre = board.columns() / 2;
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        for rank in 0..board.rows() {
            for file in 0..board.columns() {
                let point = board.point(file, rank);
                match standard_stone(rank, file, middle, centre) {
                    Some(Color::White) => white = white.with(point),
                    Some(Color::Black) => black = black.with(point),
                    None => {}
                }
            }
        }
        Position::from_colors(white, black, Color::White)
    }
}

fn standard_stone(rank: usize, file: usize, middle: usize, centre: usize) -> Option<Color> {
    use std::cmp::Ordering::*;
    match (rank.cmp(&middle), file.cmp(&centre)) {
        (Greater, _) => Some(Color::Black),
        (Less, _) => Some(Color::White),
        (Equal, Equal) => None,
        (Equal, Less) => Some(if file % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }),
        // Mirror through the centre and swap colours.
        (Equal, Greater) => {
            standard_stone(rank, 2 * centre - file, middle, centre).map(Color::other)
        }
    }
}

/// The named start positions of SPEC.md §3.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Start {
    /// The traditional start, on every board.
    Standard,
    /// White on files a–d, Black on f–i, file e split B, W, empty, B, W from the top (5x9 only).
    LeftRight,
}

/// The left-right start of SPEC.md §3, the open problem.
pub const LEFT_RIGHT_FEN: &str = "WWWWBBBBB/WWWWWBBBB/WWWW1BBBB/WWWWBBBBB/WWWWWBBBB w";

impl Start {
    /// The start position on `board`, or a message if this start does not exist there.
    pub fn position(self, board: &Board) -> Result<Position, String> {
        match self {
            Start::Standard => Ok(Position::standard_start(board)),
            Start::LeftRight => {
                let (lr_board, position) = crate::notation::parse_position(LEFT_RIGHT_FEN)
                    .expect("the left-right start parses");
                if *board != lr_board {
                    return Err(format!(
                        "the left-right start is defined on 5x9 only, not on {}",
                        board.size_name()
                    ));
                }
                Ok(position)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::format_position;

    #[test]
    fn standard_starts_match_the_contract() {
        let cases = [
            (
                (5, 9),
                "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
            ),
            ((3, 3), "BBB/B1W/WWW w"),
            ((5, 5), "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w"),
            ((3, 7), "BBBBBBB/BWB1WBW/WWWWWWW w"),
            ((7, 3), "BBB/BBB/BBB/B1W/WWW/WWW/WWW w"),
            ((3, 11), "BBBBBBBBBBB/BWBWB1WBWBW/WWWWWWWWWWW w"),
            (
                (3, 21),
                "BBBBBBBBBBBBBBBBBBBBB/BWBWBWBWBW1BWBWBWBWBW/WWWWWWWWWWWWWWWWWWWWW w",
            ),
            ((11, 3), "BBB/BBB/BBB/BBB/BBB/B1W/WWW/WWW/WWW/WWW/WWW w"),
            (
                (7, 9),
                "BBBBBBBBB/BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW/WWWWWWWWW w",
            ),
        ];
        for ((rows, columns), fen) in cases {
            let board = Board::new(rows, columns).unwrap();
            assert_eq!(
                format_position(&board, &Position::standard_start(&board)),
                fen
            );
        }
    }

    #[test]
    fn left_right_only_on_5x9() {
        assert!(Start::LeftRight.position(&Board::standard()).is_ok());
        assert!(Start::LeftRight
            .position(&Board::new(5, 5).unwrap())
            .is_err());
    }
}
