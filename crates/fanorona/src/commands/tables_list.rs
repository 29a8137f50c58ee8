//! `fanorona tables list`: which table files a directory holds, from their sizes and headers,
//! without reading them; and the builds and verifications under way there.

use crate::output::{print_json, CliError};
use crate::setup::TableArgs;
use clap::Args;
use fanorona_engine::Board;
use fanorona_solver::{run_lock, Content, FileState, Material, MaterialIndex, TableFile, TableId};
use serde::Serialize;
use std::path::Path;

/// Which table files are in a directory, stone count by stone count (sizes and headers only:
/// seconds for tens of gigabytes), and the builds and verifications saved there to go on.
#[derive(Args)]
pub struct ListArgs {
    /// Board size, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    board: String,
    #[command(flatten)]
    tables: TableArgs,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct Listing {
    board: String,
    directory: String,
    /// Every material of this many stones or fewer has both files, of the right shape.
    complete_stones: usize,
    materials: Vec<MaterialLine>,
    /// State files of builds and verifications stopped midway (the same command goes on), or
    /// of those running now.
    in_progress: Vec<String>,
    /// The locks held now: the builds and verifications running in this directory
    /// (`5x9-loss-4v5.lock`: its state is `5x9-loss-4v5.values.fnpart` or `.fnpart`).
    running: Vec<String>,
}

#[derive(Serialize)]
struct MaterialLine {
    material: String,
    stones: usize,
    slots: u64,
    entries: FileLine,
    values: FileLine,
}

#[derive(Serialize)]
struct FileLine {
    /// "present", "missing" or "damaged".
    state: &'static str,
    bytes: Option<u64>,
    /// Its block checksums are beside it (written once its whole contents matched its
    /// checksum; queries and certificate checks then read it block by block).
    block_checksums: bool,
    error: Option<String>,
}

impl FileLine {
    fn of(state: FileState) -> FileLine {
        match state {
            FileState::Missing => FileLine {
                state: "missing",
                bytes: None,
                block_checksums: false,
                error: None,
            },
            FileState::Present {
                bytes,
                block_checksums,
            } => FileLine {
                state: "present",
                bytes: Some(bytes),
                block_checksums,
                error: None,
            },
            FileState::Damaged(error) => FileLine {
                state: "damaged",
                bytes: None,
                block_checksums: false,
                error: Some(error.to_string()),
            },
        }
    }

    fn is_present(&self) -> bool {
        self.state == "present"
    }
}

impl ListArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let board = Board::parse_size(&self.board).map_err(CliError::Input)?;
        let directory = self.tables.directory();
        if !directory.is_dir() {
            return Err(CliError::Failure(format!(
                "{} is not a directory of tables",
                directory.display()
            )));
        }
        let (materials, complete_stones) = self.list_materials(&board, directory);
        let listing = Listing {
            board: board.size_name(),
            directory: directory.display().to_string(),
            complete_stones,
            materials,
            in_progress: self.states_in(&board, directory)?,
            running: self.held_locks_in(&board, directory)?,
        };
        if self.json {
            print_json(&listing);
        } else {
            print_human(&listing);
        }
        Ok(())
    }

    /// The materials whose files are there (either of them), stone count by stone count up to
    /// the first stone count with none; and the largest complete stone count.
    fn list_materials(&self, board: &Board, directory: &Path) -> (Vec<MaterialLine>, usize) {
        let rules = self.tables.rules();
        let mut lines = Vec::new();
        let (mut complete_stones, mut complete_so_far) = (0, true);
        for stones in 2..=board.points() {
            let mut layer = Vec::new();
            for material in (1..stones).map(|a| Material::new(a, stones - a)) {
                let id = TableId::new(board, &rules, material);
                let there = |content: Content| directory.join(id.with(content).file_name());
                if !there(Content::Entries).exists() && !there(Content::Values).exists() {
                    layer.push(None);
                    continue;
                }
                let slots = MaterialIndex::new(board, material).size();
                let inspect =
                    |content| FileLine::of(TableFile::inspect(directory, &id.with(content), slots));
                layer.push(Some(MaterialLine {
                    material: material.to_string(),
                    stones,
                    slots,
                    entries: inspect(Content::Entries),
                    values: inspect(Content::Values),
                }));
            }
            let whole = layer.iter().all(|line| {
                line.as_ref()
                    .is_some_and(|l| l.entries.is_present() && l.values.is_present())
            });
            complete_so_far &= whole;
            if complete_so_far {
                complete_stones = stones;
            }
            let found: Vec<MaterialLine> = layer.into_iter().flatten().collect();
            if found.is_empty() {
                break;
            }
            lines.extend(found);
        }
        (lines, complete_stones)
    }

    /// The state files of this board and rules in `directory`: builds (`.fnpart`) and
    /// verifications (`.fnverify`) stopped midway or running.
    fn states_in(&self, board: &Board, directory: &Path) -> Result<Vec<String>, CliError> {
        self.files_in(board, directory, |name| {
            name.ends_with(".fnpart") || name.ends_with(".fnverify")
        })
    }

    /// The lock files of this board and rules in `directory` that a run holds now.
    fn held_locks_in(&self, board: &Board, directory: &Path) -> Result<Vec<String>, CliError> {
        let mut locks = self.files_in(board, directory, |name| name.ends_with(".lock"))?;
        locks.retain(|name| run_lock::is_held(&directory.join(name)));
        Ok(locks)
    }

    /// The names of the files of this board and rules in `directory` that `wanted` picks,
    /// sorted.
    fn files_in(
        &self,
        board: &Board,
        directory: &Path,
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, CliError> {
        let rules = self.tables.rules();
        let prefix = TableId::new(board, &rules, Material::new(1, 1)).file_name();
        let prefix = &prefix[..prefix.len() - "1v1.fntb".len()];
        let entries = std::fs::read_dir(directory)
            .map_err(|e| CliError::Failure(format!("{}: {e}", directory.display())))?;
        let mut names: Vec<String> = entries
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .filter(|name| name.starts_with(prefix) && wanted(name))
            .collect();
        names.sort();
        Ok(names)
    }
}

fn print_human(listing: &Listing) {
    println!(
        "{} tables in {}: complete up to {} stones",
        listing.board, listing.directory, listing.complete_stones
    );
    println!(
        "{:>6}  {:<8}  {:>14}  {:<28}  value file",
        "stones", "material", "slots", "entry file"
    );
    for line in &listing.materials {
        println!(
            "{:>6}  {:<8}  {:>14}  {:<28}  {}",
            line.stones,
            line.material,
            line.slots,
            describe(&line.entries),
            describe(&line.values)
        );
    }
    for line in &listing.materials {
        for file in [&line.entries, &line.values] {
            if let Some(error) = &file.error {
                println!("damaged: {error}");
            }
        }
    }
    for state in &listing.in_progress {
        let what = match state.ends_with(".fnpart") {
            true => "a build",
            false => "a verification",
        };
        let lock = run_lock::lock_beside(Path::new(state));
        match listing.running.iter().any(|held| Path::new(held) == lock) {
            true => println!("in progress: {state} ({what} running now)"),
            false => {
                println!("in progress: {state} ({what} stopped midway: the same command goes on)")
            }
        }
    }
    for held in &listing.running {
        let running_state =
            |state: &String| run_lock::lock_beside(Path::new(state)) == Path::new(held);
        if !listing.in_progress.iter().any(running_state) {
            println!("running now: the run that holds {held} (no state saved yet)");
        }
    }
}

/// `7.6 GB, block sums`, `missing`, `damaged`.
fn describe(file: &FileLine) -> String {
    match file.bytes {
        Some(bytes) => format!(
            "{}{}",
            human_bytes(bytes),
            if file.block_checksums {
                ", block sums"
            } else {
                ""
            }
        ),
        None => file.state.to_string(),
    }
}

fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{:.1} kB", b as f64 / 1e3),
    }
}
