//! Solve 3x3, 3x5 and 5x3 strongly (every material up to the start's stones) and print the
//! standard start's value, its distance, the positions solved and the time, as a Markdown table.
//!
//! cargo run --release -p fanorona-solver --example small_boards

use fanorona_engine::{Board, Position, Rules};
use fanorona_solver::Tables;
use std::time::Instant;

fn main() {
    println!(
        "| board | stones | positions | start value (White to move) | plies to the end | seconds |"
    );
    println!("|---|---|---|---|---|---|");
    for (rows, columns) in [(3, 3), (3, 5), (5, 3)] {
        let board = Board::new(rows, columns).unwrap();
        let start = Position::standard_start(&board);
        let stones = start.occupied().count() as usize;
        let clock = Instant::now();
        let tables = Tables::build(&board, Rules::default(), stones);
        let seconds = clock.elapsed().as_secs_f64();
        let entry = tables.probe(&start).unwrap();
        let distance = entry.distance().map_or("-".to_string(), |d| d.to_string());
        println!(
            "| {} | {stones} | {} | {} | {distance} | {seconds:.1} |",
            board.size_name(),
            tables.positions(),
            entry.value().name()
        );
    }
}
