//! Leaf turns per second of perft from the 5x9 start on one core, best of several runs:
//! `cargo run --release -p fanorona-engine --example perft_rate -- [DEPTH] [RUNS]`.
//! A quick figure for trying a change; the criterion bench is the one the README quotes.

use fanorona_engine::{perft, Board, Position};
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().map_or(6, |a| a.parse().expect("depth"));
    let runs: u32 = args.next().map_or(5, |a| a.parse().expect("runs"));
    let board = Board::standard();
    let start = Position::standard_start(&board);
    let mut best = f64::INFINITY;
    let mut turns = 0;
    for _ in 0..runs {
        let clock = Instant::now();
        turns = perft(&board, std::hint::black_box(&start), depth);
        best = best.min(clock.elapsed().as_secs_f64());
    }
    println!(
        "perft {depth}: {turns} turns, best of {runs} {:.1} ms, {:.1} M leaf turns/s",
        best * 1e3,
        turns as f64 / best / 1e6
    );
}
