//! Helpers shared by the engine's integration tests: a seeded random source and board pictures.
#![allow(dead_code)]

use fanorona_engine::{children, parse_position, Bitboard, Board, Position};

/// SplitMix64: small, seeded, reproducible.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position drawn as rows of `W`, `B` and `.` (spaces ignored), top rank first.
pub fn picture(rows: &[&str], side: char) -> (Board, Position) {
    let ranks: Vec<String> = rows.iter().map(|row| row.replace(' ', "")).collect();
    let fen = format!("{} {side}", ranks.join("/"));
    parse_position(&fen).unwrap_or_else(|e| panic!("bad picture {fen}: {e}"))
}

/// `white` white and `black` black stones on random distinct points, random side to move.
pub fn random_placement(board: &Board, rng: &mut Rng, white: usize, black: usize) -> Position {
    let mut free: Vec<u8> = (0..board.points() as u8).collect();
    let mut take = |rng: &mut Rng, n: usize| -> Bitboard {
        (0..n)
            .map(|_| free.swap_remove(rng.below(free.len())))
            .collect()
    };
    let white_set = take(rng, white);
    let black_set = take(rng, black);
    let side = if rng.next() & 1 == 0 {
        fanorona_engine::Color::White
    } else {
        fanorona_engine::Color::Black
    };
    Position::from_colors(white_set, black_set, side)
}

/// Positions met in random games from `start`: up to `count`, games of at most `max_plies`.
pub fn random_game_positions(
    board: &Board,
    start: &Position,
    rng: &mut Rng,
    count: usize,
    max_plies: usize,
) -> Vec<Position> {
    let mut found = Vec::with_capacity(count);
    while found.len() < count {
        let mut position = *start;
        for _ in 0..max_plies {
            found.push(position);
            let mut next = Vec::new();
            children(board, &position, &mut next);
            if next.is_empty() || found.len() >= count {
                break;
            }
            position = next[rng.below(next.len())];
        }
    }
    found
}

/// A random position of a random kind: from play, few stones, or many stones.
pub fn random_position(board: &Board, rng: &mut Rng) -> Position {
    let points = board.points();
    match rng.below(3) {
        0 => {
            let start = Position::standard_start(board);
            let plies = rng.below(40);
            random_game_positions(board, &start, rng, plies + 1, plies + 1)
                .pop()
                .unwrap()
        }
        1 => {
            let (white, black) = (1 + rng.below(3), 1 + rng.below(3));
            random_placement(board, rng, white, black)
        }
        _ => {
            let white = rng.below(points / 2) + 1;
            let black = rng.below(points - white) + 1;
            random_placement(board, rng, white, black.min(points - white))
        }
    }
}

/// The boards of SPEC.md §1, and the extremes of what the engine supports.
pub const BOARDS: [(usize, usize); 15] = [
    (3, 3),
    (3, 5),
    (5, 3),
    (3, 7),
    (7, 3),
    (5, 5),
    (5, 7),
    (7, 5),
    (3, 9),
    (9, 3),
    (5, 9),
    (7, 9),
    (9, 7),
    (3, 21),
    (21, 3),
];
