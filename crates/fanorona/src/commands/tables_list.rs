//! `fanorona tables list`: which table files a directory holds, from their sizes and headers,
//! without reading them; and the builds and verifications under way there.

use crate::output::{print_json, CliError};
use crate::setup::TableArgs;
use clap::Args;
use fanorona_engine::Board;
use fanorona_solver::{
    recorded_tables, run_lock, Content, FileState, Material, MaterialIndex, TableFile, TableId,
};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// Which table files are in a directory, stone count by stone count (sizes and headers only:
/// seconds for tens of gigabytes), and the builds and verifications saved there to go on.
#[derive(Args)]
pub struct ListArgs {
    /// Board size, rows x columns.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    board: String,
    #[command(flatten)]
    tables: TableArgs,
    /// Compare each file whose checksum FILE records with that checksum (FILE: rows as `tables
    /// stats` prints them, e.g. data/tables-5x9.md): the same checksum in its trailer is the
    /// same file, byte for byte, as the one recorded, read with nothing but its last bytes.
    /// Fails if a file differs from its record, or if FILE records none of the files here.
    #[arg(long, value_name = "FILE")]
    expect: Option<PathBuf>,
    /// With --expect: fail also if a file that FILE records, of at most STONES stones, is not
    /// here, so that success says that every such table is here and is the recorded file (a
    /// script skips its builds then).
    #[arg(long, value_name = "STONES", requires = "expect")]
    all_recorded_up_to: Option<usize>,
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
    /// With --expect: how the files here compare with the record.
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<Expected>,
}

/// The files here against a record of checksums.
#[derive(Serialize)]
struct Expected {
    record: String,
    /// The materials whose recorded file is here with the recorded checksum.
    same: Vec<String>,
    /// Those whose recorded file is here with another checksum.
    different: Vec<String>,
    /// Those here that the record does not have.
    not_recorded: Vec<String>,
    /// Those recorded whose recorded file (entry file or value file) is not here whole.
    recorded_not_here: Vec<String>,
    /// Every recorded material whose recorded file is not here (neither the same nor
    /// different): those above, and those of stone counts with no file here at all; each with
    /// its stone count, written as the names alone.
    #[serde(serialize_with = "names_only")]
    recorded_missing: Vec<(String, usize)>,
}

/// Materials with their stone counts, written as their names.
fn names_only<S: serde::Serializer>(
    materials: &[(String, usize)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(materials.iter().map(|(name, _)| name))
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
    /// The checksum in its trailer, 16 hex digits.
    checksum: Option<String>,
    error: Option<String>,
    /// With --expect, for the file whose checksum the record holds: "same" or "different".
    #[serde(skip_serializing_if = "Option::is_none")]
    record: Option<&'static str>,
}

impl FileLine {
    fn of(state: FileState) -> FileLine {
        match state {
            FileState::Missing => FileLine {
                state: "missing",
                bytes: None,
                block_checksums: false,
                checksum: None,
                error: None,
                record: None,
            },
            FileState::Present {
                bytes,
                block_checksums,
                checksum,
            } => FileLine {
                state: "present",
                bytes: Some(bytes),
                block_checksums,
                checksum: Some(format!("{checksum:016x}")),
                error: None,
                record: None,
            },
            FileState::Damaged(error) => FileLine {
                state: "damaged",
                bytes: None,
                block_checksums: false,
                checksum: None,
                error: Some(error.to_string()),
                record: None,
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
        let (mut materials, complete_stones) = self.list_materials(&board, directory);
        let expected = match &self.expect {
            Some(record) => Some(compare_with_record(record, &mut materials)?),
            None => None,
        };
        let listing = Listing {
            board: board.size_name(),
            directory: directory.display().to_string(),
            complete_stones,
            materials,
            in_progress: self.states_in(&board, directory)?,
            running: self.held_locks_in(&board, directory)?,
            expected,
        };
        if self.json {
            print_json(&listing);
        } else {
            print_human(&listing);
        }
        match &listing.expected {
            Some(expected) => expected.verdict(self.all_recorded_up_to),
            None => Ok(()),
        }
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
                let slots = MaterialIndex::size_of(board, material);
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

/// Mark each file of `materials` whose checksum the record in `path` holds as the same or
/// different, and sum up how the materials compare.
fn compare_with_record(path: &Path, materials: &mut [MaterialLine]) -> Result<Expected, CliError> {
    let refuse = |why: String| CliError::Input(format!("--expect {}: {why}", path.display()));
    let text = std::fs::read_to_string(path).map_err(|error| refuse(error.to_string()))?;
    let rows = recorded_tables(&text).map_err(|error| refuse(error.to_string()))?;
    if rows.is_empty() {
        return Err(refuse(
            "no recorded tables in it (Markdown rows that start with a material, in the \
             columns `tables stats` prints)"
                .to_string(),
        ));
    }
    let mut expected = Expected {
        record: path.display().to_string(),
        same: Vec::new(),
        different: Vec::new(),
        not_recorded: Vec::new(),
        recorded_not_here: Vec::new(),
        recorded_missing: Vec::new(),
    };
    for line in materials {
        let name = line.material.clone();
        let Some(row) = rows.iter().find(|row| row.material.to_string() == name) else {
            expected.not_recorded.push(name);
            continue;
        };
        let file = match row.content() {
            Content::Entries => &mut line.entries,
            Content::Values => &mut line.values,
        };
        let Some(checksum) = &file.checksum else {
            expected.recorded_not_here.push(name);
            continue;
        };
        if *checksum == format!("{:016x}", row.checksum) {
            file.record = Some("same");
            expected.same.push(name);
        } else {
            file.record = Some("different");
            expected.different.push(name);
        }
    }
    let compared =
        |name: &String| expected.same.contains(name) || expected.different.contains(name);
    for row in &rows {
        let missing = (row.material.to_string(), row.material.stones());
        if !compared(&missing.0) && !expected.recorded_missing.contains(&missing) {
            expected.recorded_missing.push(missing);
        }
    }
    Ok(expected)
}

impl Expected {
    /// An error if a file differs from its record, or if nothing here was recorded; with
    /// `all_recorded_up_to`, also if a recorded file of at most that many stones is not here.
    fn verdict(&self, all_recorded_up_to: Option<usize>) -> Result<(), CliError> {
        if !self.different.is_empty() {
            return Err(CliError::Failure(format!(
                "{} differ from the files recorded in {}: {}",
                self.different.len(),
                self.record,
                self.different.join(", ")
            )));
        }
        if self.same.is_empty() {
            return Err(CliError::Failure(format!(
                "{} records none of the files here",
                self.record
            )));
        }
        if let Some(most) = all_recorded_up_to {
            let missing: Vec<&str> = self
                .recorded_missing
                .iter()
                .filter(|(_, stones)| *stones <= most)
                .map(|(name, _)| name.as_str())
                .collect();
            if !missing.is_empty() {
                return Err(CliError::Failure(format!(
                    "{} of the files of at most {most} stones recorded in {} are not here: {}",
                    missing.len(),
                    self.record,
                    missing.join(", ")
                )));
            }
        }
        Ok(())
    }
}

fn print_human(listing: &Listing) {
    println!(
        "{} tables in {}: complete up to {} stones",
        listing.board, listing.directory, listing.complete_stones
    );
    println!(
        "{:>6}  {:<8}  {:>14}  {:<40}  value file",
        "stones", "material", "slots", "entry file"
    );
    for line in &listing.materials {
        println!(
            "{:>6}  {:<8}  {:>14}  {:<40}  {}",
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
    if let Some(expected) = &listing.expected {
        print_expected(expected);
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

/// How the files compare with the record, a line for each kind of answer there is.
fn print_expected(expected: &Expected) {
    println!(
        "against {}: {} files as recorded, byte for byte (by their checksums)",
        expected.record,
        expected.same.len()
    );
    let kinds = [
        ("DIFFERENT from the record", &expected.different),
        ("not recorded there", &expected.not_recorded),
        (
            "recorded there, the file not here whole",
            &expected.recorded_not_here,
        ),
    ];
    for (what, materials) in kinds {
        if !materials.is_empty() {
            println!("  {what}: {}", materials.join(", "));
        }
    }
}

/// `7.6 GB, block sums`, `missing`, `damaged`; with --expect, whether it is the recorded file.
fn describe(file: &FileLine) -> String {
    let Some(bytes) = file.bytes else {
        return file.state.to_string();
    };
    let sums = match file.block_checksums {
        true => ", block sums",
        false => "",
    };
    let record = match file.record {
        Some("same") => ", as recorded",
        Some(_) => ", NOT as recorded",
        None => "",
    };
    format!("{}{sums}{record}", human_bytes(bytes))
}

fn human_bytes(bytes: u64) -> String {
    match bytes {
        b if b >= 1_000_000_000 => format!("{:.1} GB", b as f64 / 1e9),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b => format!("{:.1} kB", b as f64 / 1e3),
    }
}
