//! Perft against the reference figures of SPEC.md §4.

use fanorona_engine::{perft, perft_unique, Board, Position, Start};

/// (depth, turns, distinct children per node), 5x9 standard start, SPEC.md §4.
const STANDARD: [(u32, u64, u64); 6] = [
    (1, 5, 5),
    (2, 39, 39),
    (3, 724, 724),
    (4, 18_026, 18_026),
    (5, 431_852, 431_830),
    (6, 9_205_774, 9_204_447),
];

/// Left-right start, turns, depths 1–5, SPEC.md §4.
const LEFT_RIGHT: [u64; 5] = [5, 21, 313, 10_893, 154_483];

fn standard_start() -> (Board, Position) {
    let board = Board::standard();
    let start = Position::standard_start(&board);
    (board, start)
}

#[test]
fn standard_start_to_depth_5() {
    let (board, start) = standard_start();
    for &(depth, turns, unique) in &STANDARD[..5] {
        assert_eq!(
            perft(&board, &start, depth),
            turns,
            "turns at depth {depth}"
        );
        assert_eq!(
            perft_unique(&board, &start, depth),
            unique,
            "distinct children at depth {depth}"
        );
    }
}

#[test]
#[ignore = "about a second in release, longer in debug: cargo test --release -- --ignored"]
fn standard_start_depth_6() {
    let (board, start) = standard_start();
    let (depth, turns, unique) = STANDARD[5];
    assert_eq!(perft(&board, &start, depth), turns);
    assert_eq!(perft_unique(&board, &start, depth), unique);
}

#[test]
fn left_right_start_to_depth_5() {
    let board = Board::standard();
    let start = Start::LeftRight.position(&board).unwrap();
    for (depth, &turns) in (1..).zip(LEFT_RIGHT.iter()) {
        assert_eq!(
            perft(&board, &start, depth),
            turns,
            "turns at depth {depth}"
        );
    }
}

/// The per-board table of `data/perft.md`: (board, start, turns by depth), blanks skipped.
fn recorded_perft() -> Vec<(String, Vec<Option<u64>>)> {
    let table = include_str!("../../../data/perft.md");
    let section = table
        .split("## Standard start on every board")
        .nth(1)
        .expect("the per-board section");
    section
        .lines()
        .filter(|line| line.starts_with("| ") && line.as_bytes()[2].is_ascii_digit())
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let counts = cells[1..]
                .iter()
                .map(|cell| cell.replace(',', "").parse().ok())
                .collect();
            (cells[0].to_string(), counts)
        })
        .collect()
}

#[test]
fn recorded_per_board_figures_still_hold() {
    let rows = recorded_perft();
    assert_eq!(rows.len(), 12, "data/perft.md has lost rows");
    for (name, counts) in rows {
        let board = Board::parse_size(name.split(' ').next().unwrap()).unwrap();
        let start = if name.ends_with("left-right") {
            Start::LeftRight
        } else {
            Start::Standard
        };
        let position = start.position(&board).unwrap();
        for (depth, expected) in (1..).zip(counts) {
            match expected {
                Some(turns) if turns <= 3_000_000 => {
                    assert_eq!(
                        perft(&board, &position, depth),
                        turns,
                        "{name} depth {depth}"
                    )
                }
                _ => {}
            }
        }
    }
}
