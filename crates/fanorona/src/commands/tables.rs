//! `fanorona tables build|verify|stats`: endgame tables on disk (`list`: `tables_list.rs`).

use crate::commands::available_memory;
use crate::commands::tables_list::ListArgs;
use crate::output::{print_json, CliError};
use crate::progress::Bar;
use crate::setup::{parse_material, TableArgs};
use crate::stop_signal::on_stop_signal;
use clap::{Args, Subcommand};
use fanorona_engine::{format_position, Board, Color, Position};
use fanorona_solver::retrograde::values_only::MAX_FRONTIER_BLOCK;
use fanorona_solver::{
    material_stats, materials, materials_probed, most_table_stones, state_path,
    system_can_be_numbered, system_of, verify_materials, BuildControl, BuildRequest, Material,
    MaterialIndex, Mismatch, SystemBuild, TableError, Tables, VerifyControl,
};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Build, verify or summarise endgame tables.
#[derive(Args)]
pub struct TablesArgs {
    #[command(subcommand)]
    command: TablesCommand,
}

#[derive(Subcommand)]
enum TablesCommand {
    /// Solve every material up to a stone count; skips files already built and whole. Each
    /// material gets an entry file (value and distance) and a value file (the value alone, for
    /// searches).
    Build(BuildArgs),
    /// Re-derive every entry of every file from its successors and report any mismatch; check
    /// each value file against its entry file. What is checked is saved as it goes (beside the
    /// tables, as `.fnverify`): a verification stopped with Ctrl-C (or SIGTERM, SIGHUP), or
    /// killed, goes on from there when run again. The tables it probes are copied into memory first, as far as the
    /// memory available allows.
    Verify(Scope),
    /// Positions, wins, draws, losses and the longest win, per material.
    Stats(Scope),
    /// Which table files a directory holds, from their sizes and headers (seconds, without
    /// reading them), and the builds and verifications stopped midway there.
    List(ListArgs),
}

/// `tables build`: which tables, and how often a system's state is saved.
#[derive(Args)]
struct BuildArgs {
    #[command(flatten)]
    scope: Scope,
    /// Minutes between saves of the state of the system being solved (beside its files, as
    /// `.fnpart`): a build stopped with Ctrl-C (or SIGTERM, SIGHUP: it saves first), or
    /// killed, goes on from the last save when run again. 0 saves after every step.
    #[arg(long, value_name = "MINUTES", default_value_t = 20.0)]
    checkpoint_minutes: f64,
    /// Solve the top stone count for values alone: value files only (what searches probe), no
    /// distances, 3 bits a position while solving instead of a byte, for systems whose bytes
    /// do not fit in memory (9 stones on 5x9). So too, with --only, the systems of a smaller
    /// stone count of which the top reaches only some (1v8 + 8v1 under 1v9 + 9v1).
    #[arg(long)]
    values_only: bool,
    /// With --values-only: one frontier bit ("decided, not yet passed on"; "a candidate to
    /// check") per this many positions, a power of two up to 64. 1 takes 3 bits a position;
    /// N > 1 takes 2 + 2/N (16: 2.125), for a system that does not fit otherwise, and passes
    /// on again the decided positions of a block whenever another of them is decided.
    #[arg(long, value_name = "POSITIONS", default_value_t = 1)]
    frontier_block: u64,
}

/// Which tables: board, stone count, directory and rules.
#[derive(Args)]
struct Scope {
    /// Board size, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    board: String,
    /// The largest number of stones on the board (both sides).
    #[arg(long)]
    stones: usize,
    /// Of the top stone count, only this material and its swap, e.g. `4v4` or `3v5` (stones
    /// to move v stones waiting), over the smaller materials its captures reach (each side
    /// keeps at most the stones it has: `1v9` needs 1v8 + 8v1 of the 9-stone layer, not the
    /// rest of it): a partial layer, which searches and queries use where it reaches.
    #[arg(long, value_name = "AvB", value_parser = parse_material)]
    only: Option<Material>,
    #[command(flatten)]
    tables: TableArgs,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

impl Scope {
    fn board(&self) -> Result<Board, CliError> {
        let board = Board::parse_size(&self.board).map_err(CliError::Input)?;
        if self.stones < 2 || self.stones > board.points() {
            return Err(CliError::Input(format!(
                "--stones must be between 2 and {} on {}",
                board.points(),
                board.size_name()
            )));
        }
        let most = most_table_stones(&board);
        match self.only {
            None if self.stones > most => {
                return Err(CliError::Input(format!(
                    "--stones {} is more than a whole layer of tables can hold on {} ({most}): \
                     {}v1 is too large to number; name one material with --only AvB",
                    self.stones,
                    board.size_name(),
                    self.stones - 1
                )))
            }
            Some(only) if !system_can_be_numbered(&board, only) => {
                return Err(CliError::Input(format!(
                    "--only {only} is too large to number on {}",
                    board.size_name()
                )))
            }
            _ => {}
        }
        if let Some(only) = self.only.filter(|m| m.stones() != self.stones) {
            return Err(CliError::Input(format!(
                "--only {only} has {} stones, not --stones {}",
                only.stones(),
                self.stones
            )));
        }
        Ok(board)
    }

    fn open(&self) -> Result<Tables, CliError> {
        Ok(Tables::open(
            &self.board()?,
            self.tables.rules(),
            self.stones,
            self.only,
            self.tables.directory(),
        )?)
    }

    /// `8`, or `8-2v6` with `--only 2v6`: which tables, in a file name.
    fn label(&self) -> String {
        match self.only {
            Some(only) => format!("{}-{only}", self.stones),
            None => self.stones.to_string(),
        }
    }

    /// The materials a command reports on: all, or the `--only` system's.
    fn materials(&self) -> Vec<Material> {
        match self.only.map(system_of) {
            Some(system) if system == system.swapped() => vec![system],
            Some(system) => vec![system, system.swapped()],
            None => materials(self.stones).collect(),
        }
    }
}

impl TablesArgs {
    pub fn run(&self) -> Result<(), CliError> {
        match &self.command {
            TablesCommand::Build(args) => on_threads(&args.scope, || build(args)),
            TablesCommand::Verify(scope) => on_threads(scope, || check(scope)),
            TablesCommand::Stats(scope) => on_threads(scope, || stats(scope)),
            TablesCommand::List(args) => args.run(),
        }
    }
}

/// Run `job` on `scope.threads` worker threads.
fn on_threads(
    scope: &Scope,
    job: impl FnOnce() -> Result<(), CliError> + Send,
) -> Result<(), CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(scope.threads)
        .build()
        .map_err(|e| CliError::Input(format!("cannot start {} threads: {e}", scope.threads)))?;
    pool.install(job)
}

#[derive(Serialize)]
struct BuildReport {
    board: String,
    stones: usize,
    materials: usize,
    positions: u64,
    slots: u64,
    seconds: f64,
    directory: String,
    /// Every system the build went through, smaller stone counts first.
    systems: Vec<SystemLine>,
}

/// One system of a build: `built` false when its files were found whole.
#[derive(Serialize)]
struct SystemLine {
    /// The material with the smaller mover first, e.g. "3v5" for 3v5 + 5v3.
    system: String,
    slots: u64,
    built: bool,
    seconds: f64,
}

impl SystemLine {
    fn of(build: &SystemBuild) -> SystemLine {
        SystemLine {
            system: build.system.to_string(),
            slots: build.slots,
            built: build.built,
            seconds: build.seconds,
        }
    }
}

/// Set by Ctrl-C, SIGTERM or SIGHUP: a build saves the system it is solving and stops; a
/// verification, what it has checked.
static STOP: AtomicBool = AtomicBool::new(false);

/// Make the first stop signal set [`STOP`] (saying so) and a second one quit at once. SIGTERM
/// and SIGHUP (`kill`, a shutdown, a closed terminal) stop as Ctrl-C does, so that the
/// hours since the last save are not lost with the process.
fn stop_on_signal() {
    on_stop_signal(|| {
        if STOP.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
        eprintln!(
            "\nstopping: the state is saved at the end of the step under way (a second Ctrl-C \
             quits at once, losing the work since the last save)"
        );
    });
}

fn build(args: &BuildArgs) -> Result<(), CliError> {
    let scope = &args.scope;
    let board = scope.board()?;
    let minutes = args.checkpoint_minutes;
    if !(minutes.is_finite() && minutes >= 0.0) {
        return Err(CliError::Input(format!(
            "--checkpoint-minutes must be a number of minutes, 0 or more, not {minutes}"
        )));
    }
    let block = args.frontier_block;
    if !(block.is_power_of_two() && block <= MAX_FRONTIER_BLOCK) {
        return Err(CliError::Input(format!(
            "--frontier-block must be a power of two from 1 to {MAX_FRONTIER_BLOCK}, not {block}"
        )));
    }
    let control = BuildControl {
        checkpoint_every: Duration::from_secs_f64(minutes * 60.0),
        stop: Some(&STOP),
        values_only: args.values_only,
        frontier_block: args.frontier_block,
        available_memory: available_memory(),
    };
    stop_on_signal();
    let clock = Instant::now();
    let bar = Bar::new();
    let request = BuildRequest {
        board: &board,
        rules: scope.tables.rules(),
        max_stones: scope.stones,
        only: scope.only,
        directory: scope.tables.directory(),
    };
    let built = Tables::build_files_reporting(&request, &control, &bar);
    bar.finish();
    let (tables, systems) = built?;
    let report = BuildReport {
        board: board.size_name(),
        stones: scope.stones,
        materials: tables.held_materials().len(),
        positions: tables.positions(),
        slots: tables.slots(),
        seconds: clock.elapsed().as_secs_f64(),
        directory: scope.tables.directory().display().to_string(),
        systems: systems.iter().map(SystemLine::of).collect(),
    };
    if scope.json {
        print_json(&report);
    } else {
        print_build(&report);
    }
    Ok(())
}

/// The build's summary, then one line for each system solved now (those found whole are
/// counted).
fn print_build(report: &BuildReport) {
    println!(
        "{} tables of {} up to {} stones: {} positions in {} slots, {:.1} s, in {}",
        report.materials,
        report.board,
        report.stones,
        report.positions,
        report.slots,
        report.seconds,
        report.directory
    );
    let found = report.systems.iter().filter(|s| !s.built).count();
    if found > 0 {
        println!("  {found} system(s) found whole, not built again");
    }
    for system in report.systems.iter().filter(|s| s.built) {
        println!(
            "  built {:<5} {:>14} slots {:>9.1} s",
            system.system, system.slots, system.seconds
        );
    }
}

/// Copy the tables that verifying `checked` probes into memory (huge pages where available),
/// most probed first, as far as the memory available allows less 2 GiB: the children's
/// entries are read at random, and mapped files miss the TLB at nearly every read. The
/// rest stay in their mapped files, with a note.
fn copy_probed_tables(tables: &mut Tables, checked: &[Material]) {
    let budget = available_memory().map_or(u64::MAX, |m| m.saturating_sub(2 << 30));
    let start = Instant::now();
    let copied = tables.load_materials_into_memory(&materials_probed(checked), budget);
    if start.elapsed() > Duration::from_secs(1) {
        let seconds = start.elapsed().as_secs_f64();
        eprintln!("note: the tables probed copied into memory in {seconds:.1} s");
    }
    match copied {
        Ok(0) => {}
        Ok(mapped) => eprintln!(
            "note: {:.1} GB of the tables probed left in their mapped files (not enough memory \
             to copy them)",
            mapped as f64 / 1e9
        ),
        Err(error) => eprintln!("note: probing the mapped files ({error})"),
    }
}

#[derive(Serialize)]
struct VerifyReport {
    board: String,
    stones: usize,
    positions: u64,
    slots: u64,
    mismatches: Vec<MismatchLine>,
    /// Each value file checked against its entry file: slots whose values differ.
    value_files: Vec<ValueFileLine>,
}

#[derive(Serialize)]
struct ValueFileLine {
    material: String,
    mismatches: u64,
}

#[derive(Serialize)]
struct MismatchLine {
    material: String,
    index: u64,
    position: String,
    stored: String,
    derived: String,
}

fn check(scope: &Scope) -> Result<(), CliError> {
    let mut tables = scope.open()?;
    copy_probed_tables(&mut tables, &scope.materials());
    let mismatches = verify_with_bar(scope, &tables)?;
    let value_files = check_value_files(scope, &tables)?;
    let report = VerifyReport::new(scope, &tables, &mismatches, value_files);
    if scope.json {
        print_json(&report);
    } else {
        report.print();
    }
    report.outcome()
}

/// Verify every entry of the scope's materials from its successors, with a progress bar;
/// the run saves its state beside the tables, so that a stopped one goes on from there.
fn verify_with_bar(scope: &Scope, tables: &Tables) -> Result<Vec<Mismatch>, CliError> {
    let control = VerifyControl {
        state: Some(state_path(
            scope.tables.directory(),
            tables.board(),
            &tables.rules(),
            &scope.label(),
        )),
        stop: Some(&STOP),
    };
    stop_on_signal();
    let bar = Bar::new();
    let mismatches = verify_materials(tables, &scope.materials(), &bar, 100, &control);
    bar.finish();
    Ok(mismatches?)
}

impl VerifyReport {
    fn new(
        scope: &Scope,
        tables: &Tables,
        mismatches: &[Mismatch],
        value_files: Vec<ValueFileLine>,
    ) -> VerifyReport {
        let checked: Vec<MaterialIndex> = scope
            .materials()
            .into_iter()
            .map(|material| MaterialIndex::new(tables.board(), material))
            .collect();
        VerifyReport {
            board: tables.board().size_name(),
            stones: scope.stones,
            positions: checked.iter().map(|i| i.positions_before_symmetry()).sum(),
            slots: checked.iter().map(|i| i.size()).sum(),
            mismatches: mismatches
                .iter()
                .map(|m| MismatchLine {
                    material: m.material.to_string(),
                    index: m.index,
                    position: format_position(tables.board(), &m.position),
                    stored: format!("{:?}", m.stored),
                    derived: format!("{:?}", m.derived),
                })
                .collect(),
            value_files,
        }
    }

    /// Slots of the value files whose values differ from their entry files'.
    fn wrong_values(&self) -> u64 {
        self.value_files.iter().map(|v| v.mismatches).sum()
    }

    fn print(&self) {
        for line in &self.mismatches {
            println!(
                "mismatch {} #{} {}: stored {}, derived {}",
                line.material, line.index, line.position, line.stored, line.derived
            );
        }
        println!(
            "{} slots checked (standing for {} positions), {} mismatches",
            self.slots,
            self.positions,
            self.mismatches.len()
        );
        println!(
            "{} value files checked against their entry files, {} values differ",
            self.value_files.len(),
            self.wrong_values()
        );
    }

    /// A failure when an entry or a value is wrong.
    fn outcome(&self) -> Result<(), CliError> {
        if !self.mismatches.is_empty() {
            return Err(CliError::Failure(format!(
                "{} entries do not follow from their successors",
                self.mismatches.len()
            )));
        }
        let wrong_values = self.wrong_values();
        if wrong_values > 0 {
            return Err(CliError::Failure(format!(
                "{wrong_values} values of the value files differ from their entry files"
            )));
        }
        Ok(())
    }
}

/// Every value file of the scope's materials that is there, against its entry file (a value
/// file that is there but damaged is an error).
fn check_value_files(scope: &Scope, tables: &Tables) -> Result<Vec<ValueFileLine>, CliError> {
    let mut lines = Vec::new();
    // A material built for values alone has no entry file to check its value file against.
    let with_entries = |material: &Material| tables.stored(*material, 0).is_some();
    for material in scope.materials().into_iter().filter(with_entries) {
        match tables.check_value_file(material, scope.tables.directory()) {
            Ok(mismatches) => lines.push(ValueFileLine {
                material: material.to_string(),
                mismatches,
            }),
            Err(TableError::Missing { .. }) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(lines)
}

#[derive(Serialize)]
struct StatsLine {
    material: String,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    /// Null for a table built for values alone (so are the positions below).
    longest_win: Option<u16>,
    longest_loss: Option<u16>,
    checksum: String,
    /// A position of the longest win (the first in the table's order), White to move.
    longest_win_position: Option<String>,
    /// A position of the longest loss, White to move.
    longest_loss_position: Option<String>,
}

fn stats(scope: &Scope) -> Result<(), CliError> {
    let tables = scope.open()?;
    let lines: Vec<StatsLine> = scope
        .materials()
        .into_iter()
        .filter_map(|material| {
            let stats = material_stats(&tables, material)?;
            let index = MaterialIndex::new(tables.board(), material);
            debug_assert_eq!(stats.positions, index.positions_before_symmetry());
            let position_at = |slot: Option<u64>| {
                slot.map(|slot| {
                    let (mover, waiting) = index.position(slot);
                    let position = Position {
                        mover,
                        waiting,
                        side: Color::White,
                    };
                    format_position(tables.board(), &position)
                })
            };
            Some(StatsLine {
                material: material.to_string(),
                positions: stats.positions,
                wins: stats.wins,
                draws: stats.draws,
                losses: stats.losses,
                longest_win: stats.distances.then_some(stats.longest_win),
                longest_loss: stats.distances.then_some(stats.longest_loss),
                checksum: format!("{:016x}", tables.checksum(material).unwrap_or(0)),
                longest_win_position: position_at(stats.longest_win_slot),
                longest_loss_position: position_at(stats.longest_loss_slot),
            })
        })
        .collect();
    if scope.json {
        print_json(&lines);
        return Ok(());
    }
    println!(
        "| material | positions | wins | draws | losses | longest win | longest loss | checksum |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for l in &lines {
        println!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            l.material,
            l.positions,
            l.wins,
            l.draws,
            l.losses,
            plies_or_dash(l.longest_win),
            plies_or_dash(l.longest_loss),
            l.checksum
        );
    }
    println!();
    for l in &lines {
        let plies = [l.longest_win, l.longest_loss];
        let positions = [&l.longest_win_position, &l.longest_loss_position];
        for ((what, plies), position) in ["win", "loss"].iter().zip(plies).zip(positions) {
            if let (Some(position), Some(plies)) = (position, plies) {
                println!("{}: longest {what}, {plies} plies: {position}", l.material);
            }
        }
    }
    Ok(())
}

/// A distance in a table of statistics, or `-` where the table has none.
fn plies_or_dash(plies: Option<u16>) -> String {
    plies.map_or("-".to_string(), |p| p.to_string())
}
