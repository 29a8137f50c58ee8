//! Where a long search saved with `fanorona solve --state DIR` stands: for each turn of the
//! position, the proof and disproof numbers of "can ATTACKER force a win?" at the position it
//! leads to, as the saved table holds them; and how many open positions of each number of stones
//! the table holds, and how many positions closures held (which decides what a closure can look
//! at: see `search/holds.rs`).
//!
//! cargo run --release -p fanorona-solver --example inspect_state -- FILE.dfpn white|black "FEN"
//!
//! The attacker is the side the file was saved for (its name ends in -white or -black). Reading
//! the file takes as much memory as the table it holds.

use fanorona_engine::{format_turn, parse_position, turns, Color, Rules};
use fanorona_solver::{Limits, NoProgress, Search};
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, side, fen] = args.as_slice() else {
        eprintln!("usage: inspect_state FILE.dfpn white|black FEN");
        std::process::exit(2);
    };
    let attacker = match side.as_str() {
        "white" => Color::White,
        "black" => Color::Black,
        other => {
            eprintln!("not a side: {other}");
            std::process::exit(2);
        }
    };
    let (board, position) = parse_position(fen).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let bytes = std::fs::metadata(file).map(|m| m.len()).unwrap_or(0) as usize;
    let limits = Limits {
        nodes: 0,
        memory: bytes,
    };
    let mut search = Search::new(
        &board,
        Rules::default(),
        None,
        attacker,
        limits,
        &NoProgress,
    );
    if let Err(e) = search.resume(Path::new(file)) {
        eprintln!("{e}");
        std::process::exit(1);
    }
    println!(
        "can {attacker:?} force a win? {} nodes searched; at the root {:?}",
        search.nodes(),
        search.stored_numbers(&position)
    );
    let mut rows: Vec<(Option<(u32, u32)>, String)> = turns(&board, &position)
        .iter()
        .map(|turn| {
            (
                search.stored_numbers(&turn.result),
                format_turn(&board, turn),
            )
        })
        .collect();
    println!(
        "held by closures: {} positions; open in the table, by stones:",
        search.held_count()
    );
    for (stones, count) in search
        .open_by_stones()
        .iter()
        .enumerate()
        .filter(|(_, &count)| count > 0)
    {
        println!("{stones:>4} stones: {count:>12}");
    }
    rows.sort();
    for (numbers, turn) in rows {
        match numbers {
            Some((proof, disproof)) => {
                println!("{turn:>16}  proof {proof:>10}  disproof {disproof:>10}")
            }
            None => println!("{turn:>16}  not in the table"),
        }
    }
}
