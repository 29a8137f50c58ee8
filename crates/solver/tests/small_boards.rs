//! Small boards solved strongly by the tables: the standard starts must come out as published
//! (SPEC.md §4: 3x3, 3x5 and 5x3 are White wins).

use fanorona_engine::{Board, Position, Rules, Value};
use fanorona_solver::Tables;

fn start_value(rows: usize, columns: usize) -> (Value, Option<u16>) {
    let board = Board::new(rows, columns).unwrap();
    let start = Position::standard_start(&board);
    let stones = start.occupied().count() as usize;
    let tables = Tables::build(&board, Rules::default(), stones);
    let entry = tables.probe(&start).unwrap();
    (entry.value(), entry.distance())
}

#[test]
fn the_3x3_start_is_a_white_win() {
    assert_eq!(start_value(3, 3).0, Value::Win);
}

#[test]
#[ignore = "14 stones on 15 points, about 14 million positions: cargo test --release -- --ignored"]
fn the_3x5_start_is_a_white_win() {
    assert_eq!(start_value(3, 5).0, Value::Win);
}

#[test]
#[ignore = "14 stones on 15 points, about 14 million positions: cargo test --release -- --ignored"]
fn the_5x3_start_is_a_white_win() {
    assert_eq!(start_value(5, 3).0, Value::Win);
}
