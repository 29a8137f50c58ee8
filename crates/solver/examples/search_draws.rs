//! How many nodes proof-number search needs on random 5x9 positions, searched over the tables
//! of one stone fewer: `cargo run --release -p fanorona-solver --example search_draws [COUNT]
//! [--no-certificate] [--tables DIR --material WvB] [--nodes N] [--memory MIB] [--counting weak]`.
//! Each certificate is checked, and each value compared with the tables of the positions' own
//! stones; only the draws are printed (wins and losses settle in a few nodes), then a summary.
//! `--memory` (64 MiB by default) with a small size measures the search in a crowded table. By
//! default the positions are of two stones against two, and the tables of up to three and four
//! stones are built in memory; with `--tables DIR` they are opened there (built with `fanorona
//! tables build`), for positions of `--material` (White's stones v Black's, e.g. 3v3).

use fanorona_engine::{format_position, Board, Position, Rules, Value};
use fanorona_solver::{check, solve, Counting, Limits, SolveSetup, Tables};
use std::path::PathBuf;
use std::time::Instant;

/// What the command line asks for.
struct Options {
    count: usize,
    certificate: bool,
    tables: Option<PathBuf>,
    white: u32,
    black: u32,
    nodes: u64,
    memory: usize,
    counting: Counting,
}

fn options() -> Options {
    let mut options = Options {
        count: 20,
        certificate: true,
        tables: None,
        white: 2,
        black: 2,
        nodes: 5_000_000,
        memory: 64 << 20,
        counting: Counting::Sum,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--no-certificate" => options.certificate = false,
            "--tables" => options.tables = Some(PathBuf::from(value())),
            "--nodes" => options.nodes = value().parse().expect("--nodes N"),
            "--memory" => options.memory = value().parse::<usize>().expect("--memory MIB") << 20,
            "--counting" => {
                options.counting = match value().as_str() {
                    "sum" => Counting::Sum,
                    "weak" => Counting::Weak,
                    other => panic!("--counting sum|weak, not {other}"),
                }
            }
            "--material" => {
                let material = value();
                let (white, black) = material.split_once('v').expect("--material WvB");
                options.white = white.parse().expect("--material WvB");
                options.black = black.parse().expect("--material WvB");
            }
            count => options.count = count.parse().expect("COUNT, a number"),
        }
    }
    options
}

fn main() {
    let board = Board::standard();
    let Options {
        count,
        certificate,
        tables,
        white,
        black,
        nodes: node_limit,
        memory,
        counting,
    } = options();
    let stones = (white + black) as usize;
    let (small, full) = match &tables {
        None => (
            Tables::build(&board, Rules::default(), stones - 1),
            Tables::build(&board, Rules::default(), stones),
        ),
        Some(directory) => {
            let open = |stones| {
                Tables::open(&board, Rules::default(), stones, None, directory)
                    .unwrap_or_else(|e| panic!("the tables in {}: {e}", directory.display()))
            };
            (open(stones - 1), open(stones))
        }
    };
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let (mut draws, mut settled, mut wrong, mut nodes) = (0, 0, 0, 0);
    let mut all_nodes = 0;
    let clock = Instant::now();
    for _ in 0..count {
        let position = Position::random_placement(&board, white, black, &mut seed);
        let limits = Limits {
            nodes: node_limit,
            memory,
            counting,
            ..Limits::default()
        };
        let setup = SolveSetup {
            certificate,
            ..SolveSetup::new(&board, Some(&small), limits)
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
        all_nodes += solution.nodes;
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
         {wrong} wrong, {:.1} s ({all_nodes} nodes for all {count})",
        clock.elapsed().as_secs_f64()
    );
}
