//! The engine against a deliberately naive reference generator, turn for turn.
//!
//! The reference shares no code with the engine: a grid of characters, coordinates, recursion,
//! its own notation and its own position writer. It reads positions from the engine's notation
//! with its own parser. Both lists of (notation, resulting position) must be equal, and the
//! engine's turn counter (perft's own walk, which counts most turns without playing them) must
//! count as many.

mod common;

use common::{random_game_positions, random_placement, Rng, BOARDS};
use fanorona_engine::{count_turns, format_position, format_turn, turns, Board, Position};

/// The naive model of a position: `grid[rank][file]` holds 'W', 'B' or '.', rank 0 at the bottom.
#[derive(Clone)]
struct Grid {
    rows: i32,
    columns: i32,
    cells: Vec<Vec<char>>,
    to_move: char,
}

const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

impl Grid {
    fn parse(fen: &str) -> Grid {
        let (ranks, side) = fen.split_once(' ').unwrap();
        let mut cells: Vec<Vec<char>> = Vec::new();
        for rank in ranks.split('/') {
            let mut row = Vec::new();
            let mut run = 0;
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => run = run * 10 + n as usize,
                    None => {
                        row.extend(std::iter::repeat_n('.', run));
                        run = 0;
                        row.push(c);
                    }
                }
            }
            row.extend(std::iter::repeat_n('.', run));
            cells.push(row);
        }
        cells.reverse();
        let to_move = if side == "w" { 'W' } else { 'B' };
        Grid {
            rows: cells.len() as i32,
            columns: cells[0].len() as i32,
            cells,
            to_move,
        }
    }

    fn write(&self) -> String {
        let mut ranks = Vec::new();
        for row in self.cells.iter().rev() {
            let mut text = String::new();
            let mut run = 0;
            for &c in row {
                if c == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    text += &run.to_string();
                    run = 0;
                }
                text.push(c);
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        format!(
            "{} {}",
            ranks.join("/"),
            if self.to_move == 'W' { 'w' } else { 'b' }
        )
    }

    fn get(&self, file: i32, rank: i32) -> char {
        self.cells[rank as usize][file as usize]
    }

    fn set(&mut self, file: i32, rank: i32, c: char) {
        self.cells[rank as usize][file as usize] = c;
    }

    fn inside(&self, file: i32, rank: i32) -> bool {
        file >= 0 && rank >= 0 && file < self.columns && rank < self.rows
    }

    /// Is there a line from (file, rank) one step in direction (df, dr)?
    fn has_line(&self, file: i32, rank: i32, df: i32, dr: i32) -> bool {
        let diagonal = df != 0 && dr != 0;
        if diagonal && (file + rank) % 2 != 0 {
            return false;
        }
        self.inside(file + df, rank + dr)
    }

    fn opponent(&self) -> char {
        if self.to_move == 'W' {
            'B'
        } else {
            'W'
        }
    }

    /// Remove the run of enemy stones starting at (file, rank), going (df, dr).
    fn take_run(&mut self, mut file: i32, mut rank: i32, df: i32, dr: i32) {
        let enemy = self.opponent();
        loop {
            self.set(file, rank, '.');
            if !self.has_line(file, rank, df, dr) || self.get(file + df, rank + dr) != enemy {
                return;
            }
            file += df;
            rank += dr;
        }
    }
}

fn name(file: i32, rank: i32) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Every turn as (notation, resulting position), by the rules read literally.
fn reference_turns(grid: &Grid) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for rank in 0..grid.rows {
        for file in 0..grid.columns {
            if grid.get(file, rank) == grid.to_move {
                let visited = vec![(file, rank)];
                chain(
                    grid,
                    file,
                    rank,
                    None,
                    &visited,
                    &name(file, rank),
                    &mut found,
                );
            }
        }
    }
    if found.is_empty() {
        found = paika_turns(grid);
    }
    found
}

/// Capturing steps of the stone at (file, rank); each one is a turn, and may be continued.
fn chain(
    grid: &Grid,
    file: i32,
    rank: i32,
    last: Option<(i32, i32)>,
    visited: &[(i32, i32)],
    text: &str,
    found: &mut Vec<(String, String)>,
) {
    let enemy = grid.opponent();
    for (df, dr) in DIRECTIONS {
        if last == Some((df, dr)) || !grid.has_line(file, rank, df, dr) {
            continue;
        }
        let (to_file, to_rank) = (file + df, rank + dr);
        if grid.get(to_file, to_rank) != '.' || visited.contains(&(to_file, to_rank)) {
            continue;
        }
        let approach = grid.has_line(to_file, to_rank, df, dr)
            && grid.get(to_file + df, to_rank + dr) == enemy;
        let withdrawal =
            grid.has_line(file, rank, -df, -dr) && grid.get(file - df, rank - dr) == enemy;
        for (captures, letter) in [(approach, 'A'), (withdrawal, 'W')] {
            if !captures {
                continue;
            }
            let mut next = grid.clone();
            next.set(file, rank, '.');
            next.set(to_file, to_rank, grid.to_move);
            if letter == 'A' {
                next.take_run(to_file + df, to_rank + dr, df, dr);
            } else {
                next.take_run(file - df, rank - dr, -df, -dr);
            }
            let text = format!("{text}-{}{letter}", name(to_file, to_rank));
            let mut finished = next.clone();
            finished.to_move = enemy;
            found.push((text.clone(), finished.write()));
            let mut visited = visited.to_vec();
            visited.push((to_file, to_rank));
            chain(
                &next,
                to_file,
                to_rank,
                Some((df, dr)),
                &visited,
                &text,
                found,
            );
        }
    }
}

fn paika_turns(grid: &Grid) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for rank in 0..grid.rows {
        for file in 0..grid.columns {
            if grid.get(file, rank) != grid.to_move {
                continue;
            }
            for (df, dr) in DIRECTIONS {
                if grid.has_line(file, rank, df, dr) && grid.get(file + df, rank + dr) == '.' {
                    let mut next = grid.clone();
                    next.set(file, rank, '.');
                    next.set(file + df, rank + dr, grid.to_move);
                    next.to_move = grid.opponent();
                    found.push((
                        format!("{}-{}", name(file, rank), name(file + df, rank + dr)),
                        next.write(),
                    ));
                }
            }
        }
    }
    found
}

fn engine_turns(board: &Board, position: &Position) -> Vec<(String, String)> {
    turns(board, position)
        .iter()
        .map(|t| (format_turn(board, t), format_position(board, &t.result)))
        .collect()
}

fn assert_same_turns(board: &Board, position: &Position) {
    let fen = format_position(board, position);
    let mut expected = reference_turns(&Grid::parse(&fen));
    let mut actual = engine_turns(board, position);
    expected.sort();
    actual.sort();
    assert_eq!(actual, expected, "turns of {fen}");
    let counted = count_turns(board, position);
    assert_eq!(counted, expected.len() as u64, "turns counted in {fen}");
}

/// 10,000 positions per board: a third from random games, a third with few stones (the endgame
/// tables' ground), a third crowded (long chains).
#[test]
fn engine_matches_reference_on_every_board() {
    let mut rng = Rng(2007);
    for (rows, columns) in BOARDS {
        let board = Board::new(rows, columns).unwrap();
        let start = Position::standard_start(&board);
        let mut positions = random_game_positions(&board, &start, &mut rng, 3_400, 60);
        for _ in 0..3_300 {
            let white = 1 + rng.below(4);
            let black = 1 + rng.below(4);
            positions.push(random_placement(&board, &mut rng, white, black));
        }
        let points = board.points();
        for _ in 0..3_300 {
            let white = points / 4 + rng.below(points / 4 + 1);
            let black = rng.below(points - white).max(1);
            positions.push(random_placement(&board, &mut rng, white, black));
        }
        assert!(positions.len() >= 10_000);
        for position in &positions {
            assert_same_turns(&board, position);
        }
    }
}

#[test]
fn engine_matches_reference_from_the_other_starts() {
    let mut rng = Rng(44);
    for fen in [
        fanorona_engine::LEFT_RIGHT_FEN,
        "BBBBB/BBBBB/BW1WB/WWWWW/WWWWW w",
    ] {
        let (board, start) = fanorona_engine::parse_position(fen).unwrap();
        for position in random_game_positions(&board, &start, &mut rng, 3_000, 80) {
            assert_same_turns(&board, &position);
        }
    }
}

/// Perft by the reference alone: its turns, followed by re-reading its own positions.
fn reference_perft(grid: &Grid, depth: u32) -> u64 {
    let turns = reference_turns(grid);
    if depth == 1 {
        return turns.len() as u64;
    }
    turns
        .iter()
        .map(|(_, fen)| reference_perft(&Grid::parse(fen), depth - 1))
        .sum()
}

#[test]
fn reference_reproduces_the_start_perft() {
    // The reference is itself checked against SPEC.md §4.
    let start = Grid::parse("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w");
    assert_eq!(reference_perft(&start, 3), 724);
    let left_right = Grid::parse(fanorona_engine::LEFT_RIGHT_FEN);
    assert_eq!(reference_perft(&left_right, 3), 313);
}

#[test]
fn engine_perft_matches_reference_perft_on_every_board() {
    for (rows, columns) in BOARDS {
        let board = Board::new(rows, columns).unwrap();
        let start = Position::standard_start(&board);
        let depth = if board.points() <= 15 { 5 } else { 3 };
        let expected = reference_perft(&Grid::parse(&format_position(&board, &start)), depth);
        assert_eq!(
            fanorona_engine::perft(&board, &start, depth),
            expected,
            "{rows}x{columns}"
        );
    }
}
