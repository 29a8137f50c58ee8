//! `fanorona perft`: count turns to a depth, the move generator's contract.

use crate::output::{print_json, CliError};
use crate::setup::PositionArgs;
use clap::Args;
use fanorona_engine::movegen::all_children;
use fanorona_engine::{
    children, format_position, format_turn, perft, perft_unique, turns, Board, Position,
};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;
use std::time::Instant;

/// Below this many plies a subtree is counted on one thread.
const SEQUENTIAL_DEPTH: u32 = 4;

/// Count the turns (every chain) and distinct child positions to a depth.
#[derive(Args)]
pub struct PerftArgs {
    /// Depth in plies (one turn, chains included, is one ply).
    depth: u32,
    #[command(flatten)]
    setup: PositionArgs,
    /// Also give the count below each first turn.
    #[arg(long)]
    divide: bool,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print one JSON document: {"depth":D,"turns":N,"unique":M}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct PerftReport {
    depth: u32,
    turns: u64,
    unique: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideLine>>,
}

#[derive(Serialize)]
struct DivideLine {
    notation: String,
    turns: u64,
}

/// Which perft: every turn, or distinct children per node.
#[derive(Clone, Copy)]
enum Count {
    Turns,
    Distinct,
}

impl PerftArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = self.setup.resolve()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| CliError::Input(format!("cannot start {} threads: {e}", self.threads)))?;
        let first_turns = if self.depth == 0 {
            Vec::new()
        } else {
            turns(&board, &position)
        };
        let progress = progress_bar(first_turns.len() as u64);
        let clock = Instant::now();
        let counts: Vec<u64> = pool.install(|| {
            first_turns
                .par_iter()
                .map(|turn| {
                    let count = parallel_perft(&board, &turn.result, self.depth - 1, Count::Turns);
                    progress.inc(1);
                    count
                })
                .collect()
        });
        let seconds = clock.elapsed().as_secs_f64();
        let total = if self.depth == 0 {
            1
        } else {
            counts.iter().sum()
        };
        progress.set_message("counted; now the distinct children");
        let unique =
            pool.install(|| parallel_perft(&board, &position, self.depth, Count::Distinct));
        progress.finish_and_clear();
        let divide = first_turns
            .iter()
            .zip(counts)
            .map(|(turn, turns)| DivideLine {
                notation: format_turn(&board, turn),
                turns,
            })
            .collect();
        let report = PerftReport {
            depth: self.depth,
            turns: total,
            unique,
            divide: self.divide.then_some(divide),
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(
                &report,
                &format_position(&board, &position),
                seconds,
                pool.current_num_threads(),
            );
        }
        Ok(())
    }
}

/// Perft with the subtrees more than [`SEQUENTIAL_DEPTH`] plies deep shared among threads.
fn parallel_perft(board: &Board, position: &Position, depth: u32, count: Count) -> u64 {
    if depth <= SEQUENTIAL_DEPTH {
        return match count {
            Count::Turns => perft(board, position, depth),
            Count::Distinct => perft_unique(board, position, depth),
        };
    }
    let mut next = Vec::new();
    match count {
        Count::Turns => all_children(board, position, &mut next),
        Count::Distinct => children(board, position, &mut next),
    }
    next.par_iter()
        .map(|child| parallel_perft(board, child, depth - 1, count))
        .sum()
}

fn progress_bar(length: u64) -> ProgressBar {
    let bar = ProgressBar::new(length);
    bar.set_style(
        ProgressStyle::with_template(
            "perft {bar:30} {pos}/{len} first turns {msg}, {elapsed} elapsed, {eta} left",
        )
        .expect("the template is valid"),
    );
    bar
}

fn print_human(report: &PerftReport, fen: &str, seconds: f64, threads: usize) {
    if let Some(divide) = &report.divide {
        for line in divide {
            println!("{:<24} {}", line.notation, line.turns);
        }
        println!();
    }
    println!("position  {fen}");
    println!("depth     {}", report.depth);
    println!("turns     {}", report.turns);
    println!("unique    {}", report.unique);
    let rate = report.turns as f64 / seconds.max(1e-9) / 1e6;
    println!("time      {seconds:.3} s to count the turns on {threads} thread(s) ({rate:.1} million turns/s)");
}
