//! `fanorona solve`: a position's game value by proof-number search over the endgame tables,
//! with a certificate on request.

use crate::commands::solve_status::print_status;
use crate::output::{print_json, CliError};
use crate::progress::Bar;
use crate::setup::{PositionArgs, TableArgs};
use clap::{Args, ValueEnum};
use fanorona_engine::{format_position, Color};
use fanorona_solver::{check_with_progress, solve, Limits, Outcome, SolveSetup, Tables};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

/// Set by Ctrl-C.
static STOP: AtomicBool = AtomicBool::new(false);
use std::time::{Duration, Instant};

/// The game value of a position for the side to move: two searches ("can the side to move
/// force a win?", "can the other side?") run in parallel.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// Use the tables of at most this many stones (default: every complete set in --tables).
    #[arg(long, value_name = "N", default_value_t = 64)]
    stones: usize,
    /// Write the certificate (bincode) to this file; it is checked before it is written.
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Give up after this many nodes per search.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    max_nodes: u64,
    /// Transposition table size per search, in MiB.
    #[arg(long, value_name = "MiB", default_value_t = 1024)]
    memory: usize,
    /// Keep the searches here between runs: a search stopped by Ctrl-C or by --max-nodes is
    /// saved, and a later run with the same directory and position goes on from it (--memory
    /// may differ between runs: the saved table is moved into one of the new size).
    #[arg(long, value_name = "DIR")]
    state: Option<PathBuf>,
    /// With --state: also save the searches there every this many minutes while they run, so
    /// that a run killed without warning (out of memory, power cut) loses at most that much;
    /// 0: only when they stop.
    #[arg(long, value_name = "MINUTES", default_value_t = 30.0)]
    save_every: f64,
    /// Run only the search "can this side force a win?" (the other is reported unknown; its
    /// saved state is kept until the value is settled): one core and half the memory, for a
    /// long question.
    #[arg(long, value_name = "SIDE")]
    only: Option<Side>,
    /// Search nothing: print where the searches saved in --state stand (root and per-turn
    /// numbers, held positions, open positions by stones). Takes as much memory as the files.
    #[arg(long, requires = "state")]
    status: bool,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SolveReport {
    position: String,
    board: String,
    /// "win", "draw" or "loss" for the side to move; "unknown" if a search gave up.
    value: &'static str,
    mover_can_force_a_win: &'static str,
    waiting_can_force_a_win: &'static str,
    nodes: u64,
    seconds: f64,
    table_stones: usize,
    certificate: Option<String>,
    certificate_positions: Option<usize>,
}

/// A side, on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum Side {
    White,
    Black,
}

impl Side {
    fn color(self) -> Color {
        match self {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Proven => "yes",
        Outcome::Disproven => "no",
        Outcome::Unknown => "unknown",
    }
}

impl SolveArgs {
    /// --save-every as a duration; none for 0.
    fn save_interval(&self) -> Result<Option<Duration>, CliError> {
        let minutes = self.save_every;
        if !(0.0..=1e6).contains(&minutes) {
            return Err(CliError::Input(format!(
                "--save-every: {minutes} is not a number of minutes from 0 to 1000000"
            )));
        }
        Ok((minutes > 0.0).then(|| Duration::from_secs_f64(minutes * 60.0)))
    }

    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = self.position.resolve()?;
        if let (true, Some(directory)) = (self.status, &self.state) {
            let sides = match self.only {
                Some(side) => vec![side.color()],
                None => vec![position.side, position.side.other()],
            };
            let rules = self.tables.rules();
            return print_status(&board, rules, &position, directory, &sides, self.json);
        }
        // Checked before the tables are loaded (that can take minutes).
        let save_every = self.save_interval()?;
        if let Some(directory) = &self.state {
            std::fs::create_dir_all(directory)
                .map_err(|e| CliError::Failure(format!("{}: {e}", directory.display())))?;
        }
        // Ctrl-C stops the searches cleanly (and saves them with --state).
        let _ = ctrlc::set_handler(|| STOP.store(true, Ordering::Relaxed));
        let rules = self.tables.rules();
        let mut tables = Tables::open_available(&board, rules, self.stones, &self.tables.tables)?;
        // Searches probe at random: tables in memory (huge pages) answer several times faster.
        if let Err(error) = tables.load_into_memory() {
            eprintln!("note: probing the mapped files ({error})");
        }
        let clock = Instant::now();
        let bar = Bar::new();
        let only = self.only.map(Side::color);
        let (phase, searches) = match only {
            Some(Color::White) => ("searching (can White force a win?)", 1),
            Some(Color::Black) => ("searching (can Black force a win?)", 1),
            None => ("searching (both sides)", 2),
        };
        bar.phase_of(phase, searches * self.max_nodes);
        let setup = SolveSetup {
            board: &board,
            rules,
            tables: (tables.max_stones() > 0).then_some(&tables),
            limits: Limits {
                nodes: self.max_nodes,
                memory: self.memory << 20,
            },
            certificate: self.certificate.is_some(),
            stop: Some(&STOP),
            progress: &bar,
            state: self.state.as_deref(),
            save_every,
            only,
        };
        let solution = solve(&setup, &position);
        bar.finish();
        let solution = solution.map_err(|e| CliError::Failure(e.to_string()))?;
        let mut written = None;
        if let (Some(path), Some(certificate)) = (&self.certificate, &solution.certificate) {
            let check_bar = Bar::new();
            let checked = check_with_progress(certificate, setup.tables, &check_bar);
            check_bar.finish();
            checked.map_err(|why| {
                CliError::Failure(format!(
                    "the certificate does not check ({why}); not written"
                ))
            })?;
            certificate
                .write(path)
                .map_err(|e| CliError::Failure(e.to_string()))?;
            written = Some(certificate.size());
        }
        let report = SolveReport {
            position: format_position(&board, &position),
            board: board.size_name(),
            value: solution.value.map_or("unknown", |v| v.name()),
            mover_can_force_a_win: outcome_name(solution.mover_wins),
            waiting_can_force_a_win: outcome_name(solution.waiting_wins),
            nodes: solution.nodes,
            seconds: clock.elapsed().as_secs_f64(),
            table_stones: tables.max_stones(),
            certificate: written
                .and(self.certificate.as_ref())
                .map(|p| p.display().to_string()),
            certificate_positions: written,
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(&report);
        }
        if let Some(side) = only.filter(|_| solution.value.is_none()) {
            let answered = if side == position.side {
                solution.mover_wins
            } else {
                solution.waiting_wins
            };
            if answered != Outcome::Unknown {
                // The question asked is answered: not a failure, though the value waits for
                // the other side's search.
                eprintln!(
                    "note: can {side:?} force a win? {}; the value needs the other search too",
                    outcome_name(answered)
                );
                return Ok(());
            }
        }
        if solution.value.is_none() {
            let why = if STOP.load(Ordering::Relaxed) {
                "interrupted".to_string()
            } else {
                format!("not solved within {} nodes per search", self.max_nodes)
            };
            let next = match &self.state {
                Some(dir) => format!(
                    "searches saved in {}: run again with the same --state to go on",
                    dir.display()
                ),
                None => "raise --max-nodes, or use --state DIR to go on later".into(),
            };
            return Err(CliError::Failure(format!("{why}; {next}")));
        }
        Ok(())
    }
}

fn print_human(report: &SolveReport) {
    println!("position  {} ({})", report.position, report.board);
    println!("value     {} for the side to move", report.value);
    println!(
        "searches  side to move forces a win: {}; other side: {}",
        report.mover_can_force_a_win, report.waiting_can_force_a_win
    );
    println!(
        "nodes     {} in {:.2} s ({:.0} nodes/s), tables up to {} stones",
        report.nodes,
        report.seconds,
        report.nodes as f64 / report.seconds.max(1e-9),
        report.table_stones
    );
    if let (Some(path), Some(size)) = (&report.certificate, report.certificate_positions) {
        println!("proof     {path}: {size} strategy positions, checked");
    }
}
