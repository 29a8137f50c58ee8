//! `fanorona solve`: a position's game value by proof-number search over the endgame tables,
//! with a certificate on request.

use crate::commands::available_memory;
use crate::commands::solve_harvest::{run_harvest, take_files, taken_certificates, HarvestWanted};
use crate::commands::solve_split::{run_split, SplitRequest};
use crate::commands::solve_status::{print_status, Numbers, StatusTarget, StatusWanted};
use crate::commands::solve_top::{run_write_top, TopWanted};
use crate::output::{print_json, CliError};
use crate::progress::Bar;
use crate::setup::{parse_material, PositionArgs, TableArgs};
use crate::stop_signal::on_stop_signal;
use clap::{Args, ValueEnum};
use fanorona_engine::{
    format_position, format_turn, parse_position, turns, Board, Color, Position, Rules,
};
use fanorona_solver::{
    check_with_progress, remove_saved_searches, solve, take_into_store, Certificate, Content,
    Counting, DeriveError, Limits, Material, OpenError, Outcome, Progress, Solution, SolveError,
    SolveSetup, Tables,
};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Set by Ctrl-C, SIGTERM or SIGHUP.
static STOP: AtomicBool = AtomicBool::new(false);

/// How many times its --memory a search may take at its peak, while it closes holds (its
/// table, then the closure's lists of the table's open positions and the turns between them,
/// about 3.5 a position). Measured (`data/results.md`, forty-first session): two "can Black
/// force a win?" searches of 6v4 endgames at --memory 1024, closing at the same time (115 M
/// turns each), took 9.7 GB beside the table copies, 4.85 times each; with 3 assumed, such a
/// run was killed for memory.
const SEARCH_MEMORY_FACTOR: u64 = 6;

/// The game value of a position for the side to move: two searches ("can the side to move
/// force a win?", "can the other side?") run in parallel.
#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// Use the tables of at most this many stones (default: every complete set in --tables,
    /// and whatever materials of more stones are there).
    #[arg(long, value_name = "N", default_value_t = 64)]
    stones: usize,
    /// Leave these tables out, as if their files were missing (comma-separated materials,
    /// e.g. `4v5,5v4`): for tables too large to keep in memory beside the searches, which
    /// would otherwise be probed in their mapped files, from the disk.
    #[arg(long, value_name = "AvB,…", value_delimiter = ',', value_parser = parse_material)]
    leave_out: Vec<Material>,
    /// Answer these tables one ply on instead of from their files (comma-separated materials,
    /// e.g. `4v5`): a position's turns are generated and its value is the best its children's
    /// tables give. The other half of each system must be used (a paika leads there): half a
    /// system's memory, where both halves do not fit beside the searches and one left in its
    /// mapped file would read the disk. Their files are not opened (a certificate's leaves
    /// there are still checked against them).
    #[arg(long, value_name = "AvB,…", value_delimiter = ',', value_parser = parse_material)]
    derive: Vec<Material>,
    /// Write the certificate (bincode) to this file; it is checked before it is written. A
    /// name ending in .fnpack writes it packed (see `pack-proof`).
    #[arg(long, value_name = "FILE")]
    certificate: Option<PathBuf>,
    /// Give up after this many nodes per search.
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    max_nodes: u64,
    /// Transposition table size per search, in MiB, rounded down to a power of two (1536 gives
    /// 1024; a note says so). A search can take up to six times this while it closes holds,
    /// and more while a certificate is read off its proof.
    #[arg(long, value_name = "MiB", default_value_t = 1024)]
    memory: usize,
    /// Memory per search, in MiB, for the positions its closures prove held (default: an eighth
    /// of the table, --memory rounded down; about 32 bytes a position). A long search whose
    /// closures each hold about as many as it keeps forgets holds it needs and finds them
    /// again: give it more.
    #[arg(long, value_name = "MiB")]
    held_memory: Option<usize>,
    /// How the numbers that add up over a node's children are counted: "sum" (standard proof
    /// numbers) or "weak" (the largest plus one per other unsettled child, which does not count
    /// a position reached by several paths more than once). Changes the order of the search,
    /// never its answers; a saved search may go on with either.
    #[arg(long, value_name = "HOW", default_value = "sum")]
    counting: CountingArg,
    /// Keep the searches here between runs: a search stopped by Ctrl-C (or SIGTERM, SIGHUP) or
    /// by --max-nodes is saved, and a later run with the same directory and position goes on
    /// from it (--memory may differ between runs: the saved table is moved into one of the new
    /// size).
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
    /// Solve instead the position after each turn of the side to move (the value of each
    /// first move), with the value for the player who makes it; --certificate is then a
    /// directory (one TURN.proof each).
    #[arg(long)]
    each_turn: bool,
    /// With --each-turn: only these turns (comma-separated, in notation), e.g. the first moves
    /// whose values are still open.
    #[arg(
        long,
        value_name = "TURNS",
        value_delimiter = ',',
        requires = "each_turn"
    )]
    turns: Vec<String>,
    /// With --each-turn or --positions: how many of those positions to solve at once, each
    /// with its own searches and --memory tables, all sharing one copy of the endgame tables.
    #[arg(long, value_name = "N", default_value_t = 1)]
    parallel: usize,
    /// Solve every position listed in FILE instead (one per line in notation, all of one
    /// board; blank lines and lines starting with # are skipped), --parallel at a time, all
    /// sharing one copy of the endgame tables: several long questions over large tables in
    /// the memory of one. --certificate is then a directory (one line-N.proof each, N the
    /// line of the file), and --state keeps each position's searches as it would alone.
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with_all = ["each_turn", "split", "position", "after"]
    )]
    positions: Option<PathBuf>,
    /// Answer by splitting: search the position after each turn apart (--max-nodes and
    /// --memory each, --parallel at once), split again the open position the question is
    /// nearest to settling through (best first, by the searches' numbers), up to --split-depth
    /// turns deep, and join their certificates. For questions one search cannot settle while
    /// most positions a few turns deeper settle in millions of nodes. Where a position has
    /// fewer open turns than --parallel, the idle threads search ahead the turns of the
    /// positions best first splits next. With --state DIR every answer (and certificate) is
    /// kept there: a later run goes on, and searches again what was left open only with a
    /// larger --max-nodes. A later run over more tables reads what was settled over fewer
    /// (each certificate checked against them on the way). With --only, one side's question;
    /// else both, the side to move's first. With --status, the split as the store has it,
    /// searching nothing.
    #[arg(long, conflicts_with = "each_turn")]
    split: bool,
    /// Take these certificates in (files, or directories of them such as --harvest writes),
    /// each checked against the tables first: their positions count as leaves of the searches,
    /// settled as they say, and the strategies a certificate read off reaches join it. One of
    /// tables not here is left out with a note. With --split (and --state): taken into the
    /// store instead, as the settled answers of the questions they answer at their positions.
    #[arg(long, value_name = "FILE|DIR", num_args = 1..)]
    take: Vec<PathBuf>,
    /// Search nothing: write into DIR the certificate of each position the search saved in
    /// --state (of --only's side) settled at a cost of at least --harvest-work nodes, the
    /// costliest first, skipping those inside a strategy written (now or before), each
    /// checked: what a later search takes in with --take DIR instead of searching it again,
    /// should the saved search be lost. --memory as the search had it; --max-nodes bounds the
    /// re-searches of reading off one certificate.
    #[arg(
        long,
        value_name = "DIR",
        requires_all = ["state", "only"],
        conflicts_with_all = ["split", "status", "each_turn", "positions"]
    )]
    harvest: Option<PathBuf>,
    /// Search nothing: write into DIR the top of each search saved in --state (of --only's
    /// side, or both): its --top-slots costliest positions, a saved search of kilobytes where
    /// the whole is gigabytes, under the same name, to keep with the code; a run whose --state
    /// has lost its saved search starts from it with --from-top DIR.
    #[arg(
        long,
        value_name = "DIR",
        requires = "state",
        conflicts_with_all = ["split", "status", "harvest"]
    )]
    write_top: Option<PathBuf>,
    /// With --write-top: how many positions a top keeps (the costliest by the nodes spent on
    /// them; 128 bytes each in its file, a table four times their number: 8 MiB by default).
    #[arg(
        long,
        value_name = "N",
        default_value_t = 65536,
        requires = "write_top"
    )]
    top_slots: usize,
    /// Where --state holds no saved search of a position (a machine that lost it, or none
    /// given), start from its top in DIR (written by --write-top) if there is one.
    #[arg(long, value_name = "DIR", conflicts_with = "split")]
    from_top: Option<PathBuf>,
    /// Where --state (and --from-top) hold no saved search of a position, start from the
    /// search saved in FILE, whatever position it searched (the --only side's): a search
    /// split by hand into its open children goes on in each from the work above them.
    #[arg(long, value_name = "FILE", conflicts_with = "split", requires = "only")]
    from_search: Option<PathBuf>,
    /// With --harvest: the least nodes a settled position must have cost.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 10_000_000,
        requires = "harvest"
    )]
    harvest_work: u64,
    /// With --split: how many levels of turns below the position may be split.
    #[arg(long, value_name = "LEVELS", default_value_t = 12, requires = "split")]
    split_depth: usize,
    /// Search nothing: print where the searches saved in --state stand (root and per-turn
    /// numbers, held positions, open positions by stones). Takes as much memory as the files.
    /// With --split: every position split and every answer kept there, the open ones listed,
    /// at whatever depth the runs split them (--split-depth does not cut a status short).
    #[arg(long, requires = "state")]
    status: bool,
    /// With --status: how many plies of the line each search works on to print (from the
    /// root, the attacker's turn of least proof number, the defender's of least disproof).
    #[arg(long, value_name = "PLIES", default_value_t = 12, requires = "status")]
    line: usize,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize, Clone)]
struct SolveReport {
    position: String,
    board: String,
    /// "win", "draw" or "loss" for the side to move; "unknown" if a search gave up.
    value: &'static str,
    mover_can_force_a_win: &'static str,
    waiting_can_force_a_win: &'static str,
    /// Where a search stopped unsettled, the numbers its root stood at: how far it is from a
    /// proof (proof number) and from a refutation (disproof number). Null otherwise.
    mover_numbers: Option<Numbers>,
    waiting_numbers: Option<Numbers>,
    nodes: u64,
    seconds: f64,
    table_stones: usize,
    /// Materials above `table_stones` the tables also answer for (a partial layer), e.g. "4v4".
    table_materials: Vec<String>,
    /// Materials answered one ply on (--derive), e.g. "4v5".
    derived_materials: Vec<String>,
    certificate: Option<String>,
    certificate_positions: Option<usize>,
}

/// --counting, on the command line.
#[derive(Clone, Copy, ValueEnum)]
enum CountingArg {
    Sum,
    Weak,
}

impl CountingArg {
    fn counting(self) -> Counting {
        match self {
            CountingArg::Sum => Counting::Sum,
            CountingArg::Weak => Counting::Weak,
        }
    }
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

/// What the searches of a position bound its value to where they did not settle it, for
/// the side to move there (`for_the_mover`) or for the player who made the turn that led
/// there: a side that cannot force a win has "draw or worse", its opponent "draw or better".
fn value_bound(solution: &Solution, for_the_mover: bool) -> Option<&'static str> {
    if solution.value.is_some() {
        return None;
    }
    let mover_cannot_win = match (solution.mover_wins, solution.waiting_wins) {
        (Outcome::Disproven, _) => true,
        (_, Outcome::Disproven) => false,
        _ => return None,
    };
    Some(if mover_cannot_win == for_the_mover {
        "draw or worse"
    } else {
        "draw or better"
    })
}

/// "yes", "no" or "unknown": a search's or a split's answer to its question.
pub(crate) fn outcome_name(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Proven => "yes",
        Outcome::Disproven => "no",
        Outcome::Unknown => "unknown",
    }
}

impl SolveArgs {
    /// --from-search names a saved search of the --only side, checked before the tables are
    /// loaded (that can take minutes).
    fn check_from_search(&self) -> Result<(), CliError> {
        let (Some(file), Some(side)) = (&self.from_search, self.only) else {
            return Ok(());
        };
        let attacker = fanorona_solver::search::saved_attacker(file)
            .map_err(|e| CliError::Input(format!("--from-search {e}")))?;
        if attacker != side.color() {
            return Err(CliError::Input(format!(
                "--from-search {}: a search of whether {} can force a win, not {}",
                file.display(),
                attacker.name(),
                side.color().name()
            )));
        }
        Ok(())
    }

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
        let (board, position, roots) = self.board_position_and_roots()?;
        if let (true, false, Some(directory)) = (self.status, self.split, &self.state) {
            return self.print_saved_searches(&board, roots, directory);
        }
        if let (Some(directory), Some(state)) = (&self.write_top, &self.state) {
            let wanted = TopWanted {
                sides: sides_asked(self.only.map(Side::color), &roots[0].position),
                roots: roots.iter().map(|root| root.position).collect(),
                state,
                directory,
                slots: self.top_slots,
                json: self.json,
            };
            return run_write_top(&board, self.tables.rules(), &wanted);
        }
        // Checked before the tables are loaded (that can take minutes).
        let save_every = self.save_interval()?;
        if self.parallel == 0 {
            return Err(CliError::Input("--parallel must be at least 1".into()));
        }
        // A table of no bytes has no slot: the search would go round without end.
        if self.memory == 0 {
            return Err(CliError::Input("--memory must be at least 1 (MiB)".into()));
        }
        if let Some(note) = self.memory_rounding_note() {
            eprintln!("{note}");
        }
        self.check_from_search()?;
        self.make_directories()?;
        // Ctrl-C, SIGTERM and SIGHUP stop the searches cleanly (and save them with --state).
        on_stop_signal(|| STOP.store(true, Ordering::Relaxed));
        // Its searches side by side (both sides', --parallel, a split's) would each take
        // gigabytes for their closures at once, pushing the tables out of the page cache.
        fanorona_solver::search::closures_one_at_a_time();
        let rules = self.tables.rules();
        let tables = self.open_tables(&board, rules)?;
        let bar = Bar::new();
        let only = self.only.map(Side::color);
        let setup = SolveSetup {
            board: &board,
            rules,
            tables: (tables.top_stones() > 0).then_some(&tables),
            limits: Limits {
                nodes: self.max_nodes,
                memory: self.memory << 20,
                counting: self.counting.counting(),
                held_memory: self.held_memory.map(|mib| mib << 20),
            },
            certificate: self.certificate.is_some(),
            stop: Some(&STOP),
            progress: &bar,
            state: self.state.as_deref(),
            save_every,
            from_top: self.from_top.as_deref(),
            from_search: self.from_search.as_deref(),
            only,
            taken: &[],
        };
        if let Some(directory) = &self.harvest {
            let result = self.harvest_search(setup, position, directory);
            bar.finish();
            return result;
        }
        let taken = match self.split {
            true => Vec::new(),
            false => taken_certificates(&setup, &take_files(&self.take)?)?,
        };
        let setup = SolveSetup {
            taken: &taken,
            ..setup
        };
        if self.split {
            let result = self.split_search(setup, position, &tables);
            bar.finish();
            return result;
        }
        let (phase, searches) = match only {
            Some(Color::White) => ("searching (can White force a win?)", 1),
            Some(Color::Black) => ("searching (can Black force a win?)", 1),
            None => ("searching (both sides)", 2),
        };
        self.warn_of_too_little_room(searches * self.parallel.min(roots.len()) as u64);
        bar.phase_of(phase, roots.len() as u64 * searches * self.max_nodes);
        let certificate_of = |root: &Root| self.certificate_path(root);
        let solved = solve_each(&setup, &roots, self.parallel, &certificate_of);
        bar.finish();
        let searched = self.certify_and_report(&setup, &tables, &roots, solved)?;
        self.print_reports(&board, &position, &searched);
        if !searched.failed.is_empty() {
            return Err(CliError::Failure(searched.failed.join("; ")));
        }
        self.unsettled_error(only, &searched)
    }

    /// The board, the position given (with --positions, the file's first), and the
    /// positions to solve: that one, its children with --each-turn, or the file's.
    fn board_position_and_roots(&self) -> Result<(Board, Position, Vec<Root>), CliError> {
        match &self.positions {
            Some(file) => {
                let (board, roots) = read_positions(file)?;
                Ok((board, roots[0].position, roots))
            }
            None => {
                let (board, position) = self.position.resolve()?;
                let roots = self.roots(&board, &position)?;
                Ok((board, position, roots))
            }
        }
    }

    /// Print what the searches found: one report, or one a turn or a line of the file.
    fn print_reports(&self, board: &Board, position: &Position, searched: &Searched) {
        if self.each_turn {
            self.print_each_turn(board, position, &searched.reports);
        } else if self.positions.is_some() {
            self.print_positions(board, &searched.reports);
        } else if self.json {
            print_json(&searched.reports[0].2);
        } else {
            print_human(&searched.reports[0].2);
        }
    }

    /// `--status` without `--split`: where the searches saved in `directory` stand.
    fn print_saved_searches(
        &self,
        board: &Board,
        roots: Vec<Root>,
        directory: &Path,
    ) -> Result<(), CliError> {
        let sides = sides_asked(self.only.map(Side::color), &roots[0].position);
        let targets: Vec<StatusTarget> = roots
            .into_iter()
            .map(|root| StatusTarget {
                turns: root.turns,
                position: root.position,
            })
            .collect();
        let wanted = StatusWanted {
            sides,
            line_plies: self.line,
            json: self.json,
        };
        print_status(board, self.tables.rules(), &targets, directory, &wanted)
    }

    /// The state directory, and the certificates' (--certificate with --each-turn, else the
    /// one holding the file): made now, so that a path that cannot be is refused before
    /// hours of search, not after.
    fn make_directories(&self) -> Result<(), CliError> {
        let certificates = self.certificate.as_deref().and_then(|path| {
            if self.each_turn || self.positions.is_some() {
                Some(path)
            } else {
                path.parent()
                    .filter(|parent| !parent.as_os_str().is_empty())
            }
        });
        if let (true, Some(directory)) = (self.status, &self.state) {
            if !directory.is_dir() {
                return Err(CliError::Input(format!(
                    "--state {}: no such directory",
                    directory.display()
                )));
            }
        }
        let state = self
            .state
            .as_deref()
            .map(|directory| ("--state", directory));
        let certificates = certificates.map(|directory| ("--certificate", directory));
        for (flag, directory) in state.into_iter().chain(certificates) {
            if directory.exists() && !directory.is_dir() {
                return Err(CliError::Failure(format!(
                    "{flag} {}: a file, not a directory",
                    directory.display()
                )));
            }
            std::fs::create_dir_all(directory)
                .map_err(|e| CliError::Failure(format!("{}: {e}", directory.display())))?;
        }
        Ok(())
    }

    /// The tables of --tables, as values (searches need values, not distances: an eighth of
    /// the size), in memory where they fit, unless this is a status that searches nothing.
    fn open_tables(&self, board: &Board, rules: Rules) -> Result<Tables, CliError> {
        let directory = self.tables.searched_directory().map_err(CliError::Input)?;
        let mut tables = Tables::open_available_deriving(
            board,
            rules,
            self.stones,
            Content::Values,
            directory,
            &self.derive,
        )
        .map_err(|error| match error {
            OpenError::Table(error) => CliError::from(error),
            OpenError::Derive(error) => CliError::Input(format!("--derive {error}")),
        })?;
        let wanted_tables = self.tables.is_named() && self.stones >= 2;
        if wanted_tables && tables.held_materials().is_empty() {
            eprintln!(
                "note: --tables {}: no tables of {} there; searching without tables",
                directory.display(),
                board.size_name()
            );
        }
        for &material in &self.leave_out {
            if !tables.leave_out(material) {
                let name = material.to_string();
                eprintln!("note: --leave-out {name}: no such table in the tables opened");
            }
        }
        // A table left out may be one that a derived material's turns lead into.
        for &material in &self.derive {
            if let Some(why) = tables.why_not_derivable(material) {
                let error = DeriveError { material, why };
                return Err(CliError::Input(format!("--derive {error}")));
            }
        }
        // Searches probe at random: tables in memory (huge pages) answer several times faster.
        // As many as leave room for the searches; the rest are probed in the mapped files.
        // (A harvest reads off certificates from a saved search: few probes, beside the search.)
        if !self.status && self.harvest.is_none() {
            match tables.load_into_memory_within(self.table_memory_budget()) {
                Ok(0) => {}
                Ok(mapped) => {
                    eprintln!(
                        "note: {:.1} GB of the largest tables left in their mapped files, to \
                         leave memory for the searches, and read into the page cache in the \
                         background as far as it holds them (probes there that miss the cache \
                         read the disk: --leave-out those tables if the searches slow down)",
                        mapped as f64 / 1e9
                    );
                    tables.warm_files_probed_in_place();
                }
                Err(error) => eprintln!("note: probing the mapped files ({error})"),
            }
        }
        Ok(tables)
    }

    /// The bytes the table copies may take: the memory available now, less what the searches
    /// may take ([`SolveArgs::search_memory`] each) and a gigabyte to spare; no limit
    /// where the system does not say what is available.
    fn table_memory_budget(&self) -> u64 {
        let searches = self.parallel as u64 * if self.only.is_some() { 1 } else { 2 };
        let searching = searches * self.search_memory();
        available_memory().map_or(u64::MAX, |available| {
            available.saturating_sub(searching + (1 << 30))
        })
    }

    /// The most bytes one search may take: `SEARCH_MEMORY_FACTOR` times its table, with more
    /// for a held set larger than the default (twice its bytes: it doubles as it grows).
    fn search_memory(&self) -> u64 {
        let table = self.table_bytes() as u64;
        let default_held = self.held_bytes_with(None);
        let more_held = self.held_bytes().saturating_sub(default_held);
        SEARCH_MEMORY_FACTOR * table + 2 * more_held
    }

    /// The bytes each search's transposition table takes: --memory rounded down to a power
    /// of two.
    fn table_bytes(&self) -> usize {
        fanorona_solver::search::table_bytes(self.memory << 20)
    }

    /// A note where --memory is not what the tables take, so that a user who asks for 1536
    /// MiB is not left believing the search has it.
    fn memory_rounding_note(&self) -> Option<String> {
        let taken = self.table_bytes() >> 20;
        (taken != self.memory).then(|| {
            format!(
                "note: --memory {}: each search's table takes {taken} MiB (the largest power \
                 of two that fits)",
                self.memory
            )
        })
    }

    /// The bytes of a search's held set (see [`Limits::held_bytes`]).
    fn held_bytes(&self) -> u64 {
        self.held_bytes_with(self.held_memory.map(|mib| mib << 20))
    }

    fn held_bytes_with(&self, held_memory: Option<usize>) -> u64 {
        let limits = Limits {
            held_memory,
            ..Limits::default()
        };
        limits.held_bytes(self.table_bytes()) as u64
    }

    /// `--harvest DIR`: the certificates of the settled subtrees of the saved search.
    fn harvest_search(
        &self,
        setup: SolveSetup,
        root: Position,
        directory: &Path,
    ) -> Result<(), CliError> {
        let (Some(state), Some(attacker)) = (self.state.as_deref(), setup.only) else {
            unreachable!("clap requires --state and --only with --harvest");
        };
        let wanted = HarvestWanted {
            root,
            attacker,
            state,
            min_work: self.harvest_work,
            directory,
            json: self.json,
        };
        run_harvest(setup, &wanted)
    }

    /// `--split`: take the certificates of --take into the store, then split.
    fn split_search(
        &self,
        setup: SolveSetup,
        position: Position,
        tables: &Tables,
    ) -> Result<(), CliError> {
        match self.state.as_deref() {
            Some(store) => take_certificates(&take_files(&self.take)?, store, &setup)?,
            None if !self.take.is_empty() => {
                return Err(CliError::Input(
                    "--take with --split needs --state: the store it takes them into".into(),
                ))
            }
            None => {}
        }
        let sides = sides_asked(setup.only, &position);
        let request = SplitRequest {
            setup,
            position,
            sides,
            depth: self.split_depth,
            parallel: self.parallel,
            store: self.state.as_deref(),
            status: self.status,
            certificate: self.certificate.as_deref(),
            json: self.json,
        };
        run_split(&request, tables.max_stones())
    }

    /// A warning on stderr where --state has no room for `at_once` saves at once.
    fn warn_of_too_little_room(&self, at_once: u64) {
        let Some(directory) = self.state.as_deref() else {
            return;
        };
        // A save is the table and the held set, 16 bytes a position: half its memory.
        let save_bytes = self.table_bytes() as u64 + self.held_bytes() / 2;
        if let Some(warning) = free_bytes(directory)
            .and_then(|free| space_warning(directory, free, at_once, save_bytes))
        {
            eprintln!("{warning}");
        }
    }

    /// Write each settled root's certificate (checked first) and report its search. With
    /// --each-turn, one root's failure or a Ctrl-C before a root started does not lose the
    /// others' results.
    fn certify_and_report<'r>(
        &self,
        setup: &SolveSetup,
        tables: &Tables,
        roots: &'r [Root],
        solved: Vec<Option<Solved>>,
    ) -> Result<Searched<'r>, CliError> {
        let mut searched = Searched {
            reports: Vec::new(),
            not_started: Vec::new(),
            failed: Vec::new(),
        };
        for (root, solved) in roots.iter().zip(solved) {
            let (solution, seconds, written) = match solved {
                None => {
                    searched.not_started.push(root);
                    continue;
                }
                Some(Solved {
                    solution: Err(error),
                    ..
                }) => {
                    let label = root.label().unwrap_or_default();
                    searched.failed.push(format!("{label}{error}"));
                    continue;
                }
                Some(Solved {
                    solution: Ok(solution),
                    seconds,
                    written,
                }) => (solution, seconds, written?),
            };
            let certificate = self.certificate_path(root);
            if let (Some(_), Some(directory)) = (solution.value, setup.state) {
                // Settled, and the certificate (if asked for) written: nothing to go on from.
                remove_saved_searches(directory, &root.position)
                    .map_err(|e| CliError::Failure(format!("{}: {e}", directory.display())))?;
            }
            let report = SolveReport {
                position: format_position(setup.board, &root.position),
                board: setup.board.size_name(),
                value: solution.value.map_or("unknown", |v| v.name()),
                mover_can_force_a_win: outcome_name(solution.mover_wins),
                waiting_can_force_a_win: outcome_name(solution.waiting_wins),
                mover_numbers: unsettled_numbers(solution.mover_wins, solution.root_numbers[0]),
                waiting_numbers: unsettled_numbers(solution.waiting_wins, solution.root_numbers[1]),
                nodes: solution.nodes,
                seconds,
                table_stones: tables.max_stones(),
                table_materials: names(&tables.partial_layer()),
                derived_materials: names(&tables.derived_materials()),
                certificate: written.and(certificate).map(|p| p.display().to_string()),
                certificate_positions: written,
            };
            searched.reports.push((root, solution, report));
        }
        if searched.reports.is_empty() {
            return Err(CliError::Failure(searched.failed.join("; ")));
        }
        Ok(searched)
    }

    /// Ok where every root is settled (or its one question answered), else the error that
    /// says why not and how to go on.
    fn unsettled_error(&self, only: Option<Color>, searched: &Searched) -> Result<(), CliError> {
        let mut unsettled: Vec<&Root> = searched
            .reports
            .iter()
            .filter(|(root, solution, _)| !settled_or_answered(only, &root.position, solution))
            .map(|(root, _, _)| *root)
            .collect();
        unsettled.extend(&searched.not_started);
        if unsettled.is_empty() {
            return Ok(());
        }
        let why = if STOP.load(Ordering::Relaxed) {
            "interrupted".to_string()
        } else {
            format!("not solved within {} nodes per search", self.max_nodes)
        };
        let which = if self.each_turn {
            let turns: Vec<&str> = unsettled.iter().map(|r| r.turns[0].as_str()).collect();
            format!(" (after {})", turns.join(", "))
        } else if self.positions.is_some() {
            let lines: Vec<String> = unsettled
                .iter()
                .filter_map(|r| r.line)
                .map(|l| l.to_string())
                .collect();
            let plural = if lines.len() == 1 { "" } else { "s" };
            format!(" (line{plural} {} of the file)", lines.join(", "))
        } else {
            String::new()
        };
        let next = match &self.state {
            Some(dir) => format!(
                "searches saved in {}: run again with the same --state to go on",
                dir.display()
            ),
            None => "raise --max-nodes, or use --state DIR to go on later".into(),
        };
        let hint = self.hold_not_written_hint(&searched.reports);
        Err(CliError::Failure(format!("{why}{which}; {next}{hint}")))
    }

    /// Where a run stopped by Ctrl-C had settled one side's search as "no", no certificate of
    /// that hold was written (its re-searches would stop at once): how to write it, for the
    /// error message. Empty where there is nothing to say.
    fn hold_not_written_hint(&self, reports: &[(&Root, Solution, SolveReport)]) -> String {
        let interrupted = STOP.load(Ordering::Relaxed);
        if !interrupted || self.certificate.is_none() || self.state.is_none() {
            return String::new();
        }
        let settled_side = reports
            .iter()
            .filter(|(_, solution, report)| {
                solution.value.is_none() && report.certificate_positions.is_none()
            })
            .flat_map(|(root, solution, _)| {
                let mover = root.position.side;
                [
                    (mover, solution.mover_wins),
                    (mover.other(), solution.waiting_wins),
                ]
            })
            .find(|&(_, outcome)| outcome == Outcome::Disproven);
        match settled_side {
            Some((side, _)) => format!(
                " (a search settled as \"no\": run again with --only {} and the same \
                 --state to write the certificate of the other side's hold)",
                side.name()
            ),
            None => String::new(),
        }
    }

    /// The positions to solve: the one given, or with --each-turn the distinct positions its
    /// turns lead to, each with the turns that lead there.
    fn roots(&self, board: &Board, position: &Position) -> Result<Vec<Root>, CliError> {
        if !self.each_turn {
            return Ok(vec![Root {
                turns: Vec::new(),
                line: None,
                position: *position,
            }]);
        }
        let mut roots: Vec<Root> = Vec::new();
        for turn in turns(board, position) {
            let notation = format_turn(board, &turn);
            match roots.iter_mut().find(|root| root.position == turn.result) {
                Some(root) => root.turns.push(notation),
                None => roots.push(Root {
                    turns: vec![notation],
                    line: None,
                    position: turn.result,
                }),
            }
        }
        if roots.is_empty() {
            return Err(CliError::Input(
                "--each-turn: the side to move has no turn".into(),
            ));
        }
        if self.turns.is_empty() {
            return Ok(roots);
        }
        let legal = |wanted: &String| roots.iter().any(|root| root.turns.contains(wanted));
        if let Some(unknown) = self.turns.iter().find(|wanted| !legal(wanted)) {
            return Err(CliError::Input(format!(
                "--turns: '{unknown}' is not a turn of this position (fanorona moves lists them)"
            )));
        }
        roots.retain(|root| root.turns.iter().any(|turn| self.turns.contains(turn)));
        Ok(roots)
    }

    /// Where a root's certificate goes: --certificate, or with --each-turn a file named after
    /// the turn in that directory.
    fn certificate_path(&self, root: &Root) -> Option<PathBuf> {
        let given = self.certificate.as_ref()?;
        Some(match (root.turns.first(), root.line) {
            (Some(turn), _) if self.each_turn => given.join(format!("{turn}.proof")),
            (_, Some(line)) => given.join(format!("line-{line}.proof")),
            _ => given.clone(),
        })
    }

    /// The reports of --positions, one a line of the file.
    fn print_positions(&self, board: &Board, reports: &[(&Root, Solution, SolveReport)]) {
        let rows: Vec<LineReport> = reports
            .iter()
            .map(|(root, solution, report)| LineReport {
                line: root.line.unwrap_or(0),
                bound: value_bound(solution, true),
                search: report,
            })
            .collect();
        if self.json {
            print_json(&PositionsReport {
                board: board.size_name(),
                positions: rows,
            });
            return;
        }
        println!(
            "{:>5}  {:<14} {:>16} {:>10}  position",
            "line", "for the mover", "nodes", "seconds"
        );
        for row in &rows {
            let report = row.search;
            println!(
                "{:>5}  {:<14} {:>16} {:>10.1}  {}{}",
                row.line,
                row.bound.unwrap_or(report.value),
                report.nodes,
                report.seconds,
                report.position,
                report
                    .certificate
                    .as_deref()
                    .map(|c| format!("  (certificate {c})"))
                    .unwrap_or_default()
            );
        }
    }

    fn print_each_turn(
        &self,
        board: &Board,
        position: &Position,
        reports: &[(&Root, Solution, SolveReport)],
    ) {
        let mover = position.side;
        let rows: Vec<TurnReport> = reports
            .iter()
            .flat_map(|(root, solution, report)| {
                root.turns.iter().map(move |notation| TurnReport {
                    notation: notation.clone(),
                    value: solution.value.map_or("unknown", |v| v.flip().name()),
                    bound: value_bound(solution, false),
                    search: report.clone(),
                })
            })
            .collect();
        if self.json {
            print_json(&EachTurnReport {
                position: format_position(board, position),
                board: board.size_name(),
                turns: rows,
            });
            return;
        }
        println!(
            "position  {} ({})",
            format_position(board, position),
            board.size_name()
        );
        println!(
            "{:<20} {:<14} {:>16} {:>10}  certificate",
            "turn",
            format!("for {}", mover.name()),
            "nodes",
            "seconds"
        );
        for row in &rows {
            println!(
                "{:<20} {:<14} {:>16} {:>10.1}  {}",
                row.notation,
                row.bound.unwrap_or(row.value),
                row.search.nodes,
                row.search.seconds,
                row.search.certificate.as_deref().unwrap_or("-")
            );
        }
    }
}

/// What the searches of `run` came to: each root's solution and report, the roots not
/// started (Ctrl-C) and the searches that failed.
struct Searched<'r> {
    reports: Vec<(&'r Root, Solution, SolveReport)>,
    not_started: Vec<&'r Root>,
    failed: Vec<String>,
}

/// A position to solve and the turns (of --each-turn) that lead to it, or its line in the
/// file of --positions.
struct Root {
    turns: Vec<String>,
    line: Option<usize>,
    position: Position,
}

impl Root {
    /// What notes and errors about this root start with, where there are several.
    fn label(&self) -> Option<String> {
        match (self.turns.first(), self.line) {
            (Some(turn), _) => Some(format!("after {turn}: ")),
            (None, Some(line)) => Some(format!("line {line}: ")),
            (None, None) => None,
        }
    }
}

/// The positions of a --positions file, each with its line number, and their board.
fn read_positions(file: &Path) -> Result<(Board, Vec<Root>), CliError> {
    let named =
        |message: String| CliError::Input(format!("--positions {}: {message}", file.display()));
    let text = std::fs::read_to_string(file).map_err(|e| named(e.to_string()))?;
    let mut board_and_roots: Option<(Board, Vec<Root>)> = None;
    for (index, line) in text.lines().enumerate() {
        let line_number = index + 1;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let (board, position) =
            parse_position(text).map_err(|e| named(format!("line {line_number}: {e}")))?;
        let root = Root {
            turns: Vec::new(),
            line: Some(line_number),
            position,
        };
        match &mut board_and_roots {
            None => board_and_roots = Some((board, vec![root])),
            Some((first, _)) if first.size_name() != board.size_name() => {
                return Err(named(format!(
                    "line {line_number}: a {} position, where the first is {} (the positions of a file share one board)",
                    board.size_name(),
                    first.size_name()
                )));
            }
            Some((_, roots)) => roots.push(root),
        }
    }
    board_and_roots.ok_or_else(|| named("no position in it".into()))
}

#[derive(Serialize)]
struct PositionsReport<'a> {
    board: String,
    positions: Vec<LineReport<'a>>,
}

#[derive(Serialize)]
struct LineReport<'a> {
    /// The line of the --positions file.
    line: usize,
    /// Where the value is unknown but one search answered "no": "draw or better" or "draw or
    /// worse", for the side to move.
    bound: Option<&'static str>,
    #[serde(flatten)]
    search: &'a SolveReport,
}

#[derive(Serialize)]
struct EachTurnReport {
    position: String,
    board: String,
    turns: Vec<TurnReport>,
}

#[derive(Serialize)]
struct TurnReport {
    notation: String,
    /// For the player who makes the turn.
    value: &'static str,
    /// Where the value is unknown but one search answered "no" (`--only`): "draw or better"
    /// or "draw or worse", for the player who makes the turn.
    bound: Option<&'static str>,
    /// The solve of the position it leads to (values there for the other player, to move).
    search: SolveReport,
}

/// The sides whose question "can it force a win?" is asked at `position`: the one of --only,
/// else both, the side to move's first.
fn sides_asked(only: Option<Color>, position: &Position) -> Vec<Color> {
    match only {
        Some(side) => vec![side],
        None => vec![position.side, position.side.other()],
    }
}

/// A root's solution, the seconds it took, and the strategy positions of its certificate
/// written (checked first), or why it could not be.
struct Solved {
    solution: Result<Solution, SolveError>,
    seconds: f64,
    written: Result<Option<usize>, CliError>,
}

/// Solve each root, `parallel` at a time (sharing the tables), in order, and write each one's
/// certificate to `certificate_of(root)` as soon as its searches end (with several roots, one
/// that settles early is kept even if a long one beside it is then stopped without warning;
/// the certificate's memory is given back then too). Once Ctrl-C is pressed, roots not yet
/// started are not started (`None`; the first root always is).
fn solve_each(
    setup: &SolveSetup,
    roots: &[Root],
    parallel: usize,
    certificate_of: &(dyn Fn(&Root) -> Option<PathBuf> + Sync),
) -> Vec<Option<Solved>> {
    let next = AtomicUsize::new(0);
    let results: Vec<Mutex<Option<Solved>>> = roots.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..parallel.min(roots.len()) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= roots.len() {
                    break;
                }
                let clock = Instant::now();
                // With several roots, each one's notes say which it is.
                let labelled = Labelled {
                    inner: setup.progress,
                    label: roots[i].label(),
                };
                let setup = SolveSetup {
                    progress: &labelled,
                    ..*setup
                };
                if STOP.load(Ordering::Relaxed) && i > 0 {
                    continue;
                }
                let mut solution = solve(&setup, &roots[i].position);
                let seconds = clock.elapsed().as_secs_f64();
                let written = match &mut solution {
                    Ok(solution) => {
                        let path = certificate_of(&roots[i]);
                        let written = certify(solution, setup.tables, path.as_deref());
                        solution.certificate = None;
                        written
                    }
                    Err(_) => Ok(None),
                };
                *results[i].lock().expect("a solve panicked") = Some(Solved {
                    solution,
                    seconds,
                    written,
                });
            });
        }
    });
    results
        .into_iter()
        .map(|slot| slot.into_inner().expect("a solve panicked"))
        .collect()
}

/// A job's progress with its notes prefixed by a label (which of several positions).
struct Labelled<'a> {
    inner: &'a dyn Progress,
    label: Option<String>,
}

impl Progress for Labelled<'_> {
    fn phase(&self, name: &str, total: u64) {
        self.inner.phase(name, total);
    }
    fn advance(&self, units: u64) {
        self.inner.advance(units);
    }
    fn resumed(&self, units: u64) {
        self.inner.resumed(units);
    }
    fn note(&self, message: &str) {
        match &self.label {
            Some(label) => self.inner.note(&format!("{label}{message}")),
            None => self.inner.note(message),
        }
    }
}

/// The bytes free to a user on the file system of `path`, where the system says.
#[cfg(unix)]
fn free_bytes(path: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let path = std::ffi::CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: a NUL-terminated path, and a plain struct for the call to fill.
    let mut stats: libc::statvfs = unsafe { std::mem::zeroed() };
    let result = unsafe { libc::statvfs(path.as_ptr(), &mut stats) };
    (result == 0).then(|| stats.f_bavail as u64 * stats.f_frsize as u64)
}

#[cfg(not(unix))]
fn free_bytes(_: &Path) -> Option<u64> {
    None
}

/// A warning where `free` bytes in `directory` cannot take `saves` saves of a search of
/// `save_bytes` at once: each save is written beside the last before it replaces
/// it, so it needs its whole size free. (A full disk lost the searches of two first moves
/// once: see `data/results.md`, fifteenth session.)
fn space_warning(directory: &Path, free: u64, saves: u64, save_bytes: u64) -> Option<String> {
    let needed = saves * save_bytes;
    let gb = |bytes: u64| bytes as f64 / 1e9;
    (free < needed).then(|| {
        format!(
            "note: {} has {:.1} GB free, and saving {saves} search{} of {:.1} GB there at \
             once takes {:.1} GB: a save may fail, and a run stopped then loses what it did \
             since its last save (make room, or a smaller --memory or --held-memory)",
            directory.display(),
            gb(free),
            if saves == 1 { "" } else { "es" },
            gb(save_bytes),
            gb(needed)
        )
    })
}

/// Check the certificate of `solution`, if it has one and `path` asks for it, and write it
/// there: how many strategy positions it holds.
fn certify(
    solution: &Solution,
    tables: Option<&Tables>,
    path: Option<&Path>,
) -> Result<Option<usize>, CliError> {
    let (Some(path), Some(certificate)) = (path, &solution.certificate) else {
        return Ok(None);
    };
    check_and_write(certificate, tables, path)?;
    Ok(Some(certificate.size()))
}

/// Take each certificate of `files` into the split store `store` (`--take`), saying what
/// it answers.
fn take_certificates(files: &[PathBuf], store: &Path, setup: &SolveSetup) -> Result<(), CliError> {
    for file in files {
        let named =
            |e: &dyn std::fmt::Display| CliError::Failure(format!("{}: {e}", file.display()));
        let certificate = Certificate::read(file).map_err(|e| named(&e))?;
        let (root, answered) =
            take_into_store(store, setup, &certificate).map_err(|e| named(&e))?;
        for (side, outcome) in answered {
            eprintln!(
                "took {}: at {}, can {side:?} force a win? {}",
                file.display(),
                format_position(setup.board, &root),
                outcome_name(outcome)
            );
        }
    }
    Ok(())
}

/// Check `certificate` and, if it holds, write it to `path`.
pub fn check_and_write(
    certificate: &Certificate,
    tables: Option<&Tables>,
    path: &Path,
) -> Result<(), CliError> {
    let check_bar = Bar::new();
    let checked = check_with_progress(certificate, tables, &check_bar);
    check_bar.finish();
    checked.map_err(|why| {
        CliError::Failure(format!(
            "the certificate does not check ({why}); not written"
        ))
    })?;
    certificate
        .write(path)
        .map_err(|e| CliError::Failure(e.to_string()))
}

/// Whether the value is settled, or with --only the one question asked answered (the value
/// then waits for the other side's search, which is said on stderr).
fn settled_or_answered(only: Option<Color>, position: &Position, solution: &Solution) -> bool {
    if solution.value.is_some() {
        return true;
    }
    let Some(side) = only else {
        return false;
    };
    let answered = if side == position.side {
        solution.mover_wins
    } else {
        solution.waiting_wins
    };
    if answered != Outcome::Unknown {
        eprintln!(
            "note: can {side:?} force a win? {}; the value needs the other search too",
            outcome_name(answered)
        );
    }
    answered != Outcome::Unknown
}

/// The root's numbers of a search that stopped without settling its question.
fn unsettled_numbers(outcome: Outcome, numbers: Option<(u32, u32)>) -> Option<Numbers> {
    Numbers::of(numbers).filter(|_| outcome == Outcome::Unknown)
}

/// Materials as the reports name them ("4v5").
fn names(materials: &[Material]) -> Vec<String> {
    materials.iter().map(Material::to_string).collect()
}

/// " (proof number P, disproof number D)" where a search stopped unsettled, else "".
fn stood_at(numbers: Option<Numbers>) -> String {
    numbers.map_or(String::new(), |n| format!(" ({})", n.in_words()))
}

fn print_human(report: &SolveReport) {
    println!("position  {} ({})", report.position, report.board);
    println!("value     {} for the side to move", report.value);
    println!(
        "searches  side to move forces a win: {}{}; other side: {}{}",
        report.mover_can_force_a_win,
        stood_at(report.mover_numbers),
        report.waiting_can_force_a_win,
        stood_at(report.waiting_numbers)
    );
    let partial = match report.table_materials.as_slice() {
        [] => String::new(),
        materials => format!(" and {}", materials.join(", ")),
    };
    let derived = match report.derived_materials.as_slice() {
        [] => String::new(),
        materials => format!(" ({} one ply on)", materials.join(", ")),
    };
    println!(
        "nodes     {} in {:.2} s ({:.0} nodes/s), tables up to {} stones{partial}{derived}",
        report.nodes,
        report.seconds,
        report.nodes as f64 / report.seconds.max(1e-9),
        report.table_stones
    );
    if let (Some(path), Some(size)) = (&report.certificate, report.certificate_positions) {
        println!("proof     {path}: {size} strategy positions, checked");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `solve`'s arguments as the command line `args` gives them.
    fn solve_args(args: &[&str]) -> SolveArgs {
        #[derive(clap::Parser)]
        struct Line {
            #[command(flatten)]
            solve: SolveArgs,
        }
        let line = [&["solve"], args].concat();
        <Line as clap::Parser>::try_parse_from(line).unwrap().solve
    }

    #[test]
    fn a_search_is_budgeted_six_times_its_table_and_twice_a_larger_held_set() {
        let mib = 1u64 << 20;
        assert_eq!(
            solve_args(&["--memory", "1024"]).search_memory(),
            6 * 1024 * mib
        );
        // An eighth of the table is the default held set: asking for it changes nothing.
        let default_held = solve_args(&["--memory", "1024", "--held-memory", "128"]);
        assert_eq!(default_held.search_memory(), 6 * 1024 * mib);
        let larger = solve_args(&["--memory", "1024", "--held-memory", "2048"]);
        assert_eq!(larger.search_memory(), (6 * 1024 + 2 * (2048 - 128)) * mib);
    }

    #[test]
    fn a_memory_not_a_power_of_two_is_noted_and_budgeted_as_taken() {
        let mib = 1u64 << 20;
        assert_eq!(
            solve_args(&["--memory", "2048"]).memory_rounding_note(),
            None
        );
        let odd = solve_args(&["--memory", "1536"]);
        let note = odd
            .memory_rounding_note()
            .expect("1536 MiB is not a power of two");
        assert!(
            note.contains("--memory 1536") && note.contains("1024 MiB"),
            "{note}"
        );
        assert_eq!(odd.search_memory(), 6 * 1024 * mib);
    }

    #[test]
    fn a_state_directory_without_room_for_the_saves_is_warned_of() {
        let dir = Path::new("/saved");
        let gib = 1u64 << 30;
        assert_eq!(space_warning(dir, 20 * gib, 2, 4 * gib), None);
        let warning = space_warning(dir, 7 * gib, 2, 4 * gib).expect("8 GiB wanted, 7 free");
        assert!(
            warning.contains("/saved has 7.5 GB free") && warning.contains("2 searches of 4.3 GB"),
            "{warning}"
        );
        let one = space_warning(dir, gib, 1, 4 * gib).unwrap();
        assert!(one.contains("1 search of"), "{one}");
    }

    #[test]
    fn each_root_has_its_certificate_written_when_it_ends_and_then_let_go() {
        // Two 3x3 positions that settle at once, solved two at a time.
        let board = Board::new(3, 3).unwrap();
        let roots: Vec<Root> = ["BBB/B1W/WWW w", "BBB/W1B/WWW w"]
            .iter()
            .enumerate()
            .map(|(i, text)| Root {
                turns: Vec::new(),
                line: Some(i + 1),
                position: parse_position(text).unwrap().1,
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("fanorona-solve-each-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let limits = Limits {
            memory: 1 << 20,
            ..Limits::default()
        };
        let setup = SolveSetup::new(&board, None, limits);
        let path_of = |root: &Root| Some(dir.join(format!("line-{}.proof", root.line.unwrap())));
        let solved = solve_each(&setup, &roots, 2, &path_of);
        for (root, solved) in roots.iter().zip(solved) {
            let solved = solved.expect("started");
            let solution = solved.solution.unwrap();
            assert!(solution.value.is_some());
            assert!(solution.certificate.is_none(), "kept after it was written");
            let written = solved.written.unwrap().expect("a certificate was written");
            let read = Certificate::read(&path_of(root).unwrap()).unwrap();
            assert_eq!(
                (read.size(), read.root.position()),
                (written, root.position)
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn the_free_space_of_a_directory_is_read() {
        let free = free_bytes(&std::env::temp_dir()).expect("statvfs answers");
        assert!(free > 0);
        assert_eq!(free_bytes(Path::new("/no/such/directory")), None);
    }
}
