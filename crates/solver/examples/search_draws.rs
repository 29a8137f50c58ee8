//! How many nodes proof-number search needs on random 5x9 positions of four stones, searched
//! over the tables of up to three: `cargo run --release -p fanorona-solver --example search_draws
//! [COUNT] [--no-certificate]`. Each certificate is checked, and each value compared with the
//! 4-stone tables; only the draws are printed (wins and losses settle in a few nodes), then a
//! summary.

use fanorona_engine::{format_position, Board, Position, Rules, Value};
use fanorona_solver::{check, solve, Limits, NoProgress, SolveSetup, Tables};
use std::time::Instant;

fn main() {
    let board = Board::standard();
    let small = Tables::build(&board, Rules::default(), 3);
    let full = Tables::build(&board, Rules::default(), 4);
    let count: usize = std::env::args().nth(1).map_or(20, |a| a.parse().unwrap());
    let certificate = std::env::args().nth(2).is_none();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut draws, mut settled, mut wrong, mut nodes) = (0, 0, 0, 0);
    let clock = Instant::now();
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
            certificate,
            stop: None,
            progress: &NoProgress,
            state: None,
            save_every: None,
            only: None,
        };
        let expected = full.probe(&position).unwrap().value();
        let fen = format_position(&board, &position);
        let solution = match solve(&setup, &position) {
            Ok(solution) => solution,
            Err(e) => {
                println!("{fen}: table {expected:?}, search failed: {e}");
                wrong += 1;
                continue;
            }
        };
        if solution.value.is_some_and(|value| value != expected) {
            println!("{fen}: table {expected:?}, search {:?}", solution.value);
            wrong += 1;
        }
        let checked = match &solution.certificate {
            Some(c) => match check(c, Some(&small)) {
                Ok(_) => format!("certificate of {} positions checked", c.size()),
                Err(why) => {
                    wrong += 1;
                    format!("certificate REFUTED: {why}")
                }
            },
            None => "no certificate".to_string(),
        };
        if expected == Value::Draw {
            draws += 1;
            nodes += solution.nodes;
            settled += usize::from(solution.value.is_some());
            println!(
                "{fen}: draw; search {:?} ({:?}/{:?}), {} nodes, {checked}",
                solution.value, solution.mover_wins, solution.waiting_wins, solution.nodes
            );
        }
    }
    println!(
        "{draws} draws among {count} positions: {settled} settled, {nodes} nodes in all, \
         {wrong} wrong, {:.1} s",
        clock.elapsed().as_secs_f64()
    );
}
