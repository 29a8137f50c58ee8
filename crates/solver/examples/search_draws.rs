//! How many nodes proof-number search needs on random 5x9 positions of four stones, searched
//! over the tables of up to three: `cargo run --release -p fanorona-solver --example search_draws`.

use fanorona_engine::{format_position, Board, Position, Rules};
use fanorona_solver::{solve, Limits, NoProgress, SolveSetup, Tables};
use std::time::Instant;

fn main() {
    let board = Board::standard();
    let small = Tables::build(&board, Rules::default(), 3);
    let full = Tables::build(&board, Rules::default(), 4);
    let count: usize = std::env::args().nth(1).map_or(20, |a| a.parse().unwrap());
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..count {
        let position = Position::random_placement(&board, 2, 2, &mut seed);
        let setup = SolveSetup {
            board: &board,
            rules: Rules::default(),
            tables: Some(&small),
            limits: Limits {
                nodes: 5_000_000,
                memory: 64 << 20,
            },
            certificate: std::env::args().nth(2).is_none(),
            stop: None,
            progress: &NoProgress,
            state: None,
        };
        let clock = Instant::now();
        let solution = solve(&setup, &position);
        let expected = full.probe(&position).unwrap().value();
        match solution {
            Ok(s) => println!(
                "{} table {:?} search {:?} ({:?}/{:?}) nodes {} cert {:?} {:.2}s",
                format_position(&board, &position),
                expected,
                s.value,
                s.mover_wins,
                s.waiting_wins,
                s.nodes,
                s.certificate.map(|c| c.size()),
                clock.elapsed().as_secs_f64()
            ),
            Err(e) => println!(
                "{} table {:?}: {e}",
                format_position(&board, &position),
                expected
            ),
        }
    }
}
