//! `fanorona perft`: count turns to a depth, the move generator's contract.

use crate::output::{print_json, CliError};
use crate::setup::PositionArgs;
use clap::Args;
use fanorona_engine::{format_position, format_turn, perft, perft_unique, turns};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::time::Instant;

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

impl PerftArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = self.setup.resolve()?;
        let clock = Instant::now();
        let first_turns = if self.depth == 0 {
            Vec::new()
        } else {
            turns(&board, &position)
        };
        let progress = progress_bar(first_turns.len() as u64);
        let mut divide = Vec::new();
        for turn in &first_turns {
            let count = perft(&board, &turn.result, self.depth - 1);
            divide.push(DivideLine {
                notation: format_turn(&board, turn),
                turns: count,
            });
            progress.inc(1);
        }
        progress.finish_and_clear();
        let total = if self.depth == 0 {
            1
        } else {
            divide.iter().map(|line| line.turns).sum()
        };
        let seconds = clock.elapsed().as_secs_f64();
        let unique = perft_unique(&board, &position, self.depth);
        let report = PerftReport {
            depth: self.depth,
            turns: total,
            unique,
            divide: self.divide.then_some(divide),
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(&report, &format_position(&board, &position), seconds);
        }
        Ok(())
    }
}

fn progress_bar(length: u64) -> ProgressBar {
    let bar = ProgressBar::new(length);
    bar.set_style(
        ProgressStyle::with_template(
            "perft {bar:30} {pos}/{len} first turns, {elapsed} elapsed, {eta} left",
        )
        .expect("the template is valid"),
    );
    bar
}

fn print_human(report: &PerftReport, fen: &str, seconds: f64) {
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
    println!("time      {seconds:.3} s to count the turns ({rate:.1} million turns/s)");
}
