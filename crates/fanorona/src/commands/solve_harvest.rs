//! `fanorona solve --take` (without `--split`) and `--harvest`: certificates of settled
//! subtrees written off a saved search, and taken back in by a later one (see
//! `fanorona_solver::harvest` and `fanorona_solver::taken`).

use crate::output::{print_json, CliError};
use fanorona_engine::{format_position, Board, Color, Position};
use fanorona_solver::harvest::{certificates_in, harvest, HarvestRequest, Harvested};
use fanorona_solver::taken::{checked_with_these_tables, out_of_reach, over_these_tables};
use fanorona_solver::{Certificate, Outcome, SolveSetup};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// The files of --take: each file named, and the certificates in each directory named.
pub fn take_files(named: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for path in named {
        if path.is_dir() {
            let inside = certificates_in(path)
                .map_err(|e| CliError::Failure(format!("--take {}: {e}", path.display())))?;
            files.extend(inside);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            // As a certificate that cannot be read: exit 1, like check-proof's.
            return Err(CliError::Failure(format!(
                "--take {}: no such file or directory",
                path.display()
            )));
        }
    }
    Ok(files)
}

/// The certificates of `files`, each checked against `setup`'s tables, to be taken in as
/// leaves. One made over tables `setup` lacks (a harvest over more tables than are built yet)
/// is taken where it holds with these tables all the same, and left out with a note where it
/// does not; one of these tables that does not hold, or a file that cannot be read, ends the
/// run.
pub fn taken_certificates(
    setup: &SolveSetup,
    files: &[PathBuf],
) -> Result<Vec<Certificate>, CliError> {
    let mut taken = Vec::new();
    let mut left_out = Vec::new();
    for file in files {
        let named = |e: &dyn std::fmt::Display| {
            CliError::Failure(format!("--take {}: {e}", file.display()))
        };
        let certificate = Certificate::read(file).map_err(|e| named(&e))?;
        if out_of_reach(setup, &certificate).is_some() {
            match checked_with_these_tables(setup, &certificate) {
                Ok(certificate) => taken.push(certificate),
                Err(why) => left_out.push(format!("{}: {why}", file.display())),
            }
            continue;
        }
        taken.push(over_these_tables(setup, &certificate).map_err(|e| named(&e))?);
    }
    if !files.is_empty() {
        let positions: usize = taken.iter().map(Certificate::size).sum();
        eprintln!(
            "took {} certificates, each checked ({positions} strategy positions); their \
             positions are leaves of the searches",
            taken.len()
        );
    }
    if !left_out.is_empty() {
        eprintln!(
            "note: {} certificates of --take left out: made over tables not here, they do not \
             hold without them (the first: {})",
            left_out.len(),
            left_out[0]
        );
    }
    Ok(taken)
}

/// What `--harvest` asks for, besides the setup.
pub struct HarvestWanted<'a> {
    pub root: Position,
    pub attacker: Color,
    pub state: &'a Path,
    pub min_work: u64,
    pub directory: &'a Path,
    pub json: bool,
}

#[derive(Serialize)]
struct HarvestReport {
    position: String,
    attacker: String,
    search_nodes: u64,
    min_work: u64,
    candidates: usize,
    written: Vec<WrittenReport>,
    /// The work of the positions written (the root's turns not counted): nodes a search that
    /// takes them in need not spend.
    written_work: u64,
    written_bytes: u64,
    inside: usize,
    failed: Vec<FailedReport>,
    kept_before: usize,
    directory: String,
}

#[derive(Serialize)]
struct WrittenReport {
    position: String,
    answer: &'static str,
    /// None for a turn of the root (kept in the table for good: its work is not saved).
    work: Option<u64>,
    positions: usize,
    bytes: u64,
    file: String,
}

#[derive(Serialize)]
struct FailedReport {
    position: String,
    why: String,
}

/// `--harvest DIR`: write the certificates of the settled subtrees of the saved search.
pub fn run_harvest(setup: SolveSetup, wanted: &HarvestWanted) -> Result<(), CliError> {
    let board = setup.board;
    let request = HarvestRequest {
        setup,
        root: wanted.root,
        attacker: wanted.attacker,
        state: wanted.state,
        min_work: wanted.min_work,
        directory: wanted.directory,
    };
    let json = wanted.json;
    let mut on_written = |written: &Harvested| {
        if !json {
            eprintln!("{}", written_line(board, written));
        }
    };
    let harvest =
        harvest(&request, &mut on_written).map_err(|e| CliError::Failure(e.to_string()))?;
    let report = HarvestReport {
        position: format_position(board, &wanted.root),
        attacker: wanted.attacker.name().to_string(),
        search_nodes: harvest.search_nodes,
        min_work: wanted.min_work,
        candidates: harvest.candidates,
        written_work: harvest.written.iter().filter_map(|w| w.work).sum(),
        written_bytes: harvest.written.iter().map(|w| w.bytes).sum(),
        written: harvest
            .written
            .iter()
            .map(|w| WrittenReport {
                position: format_position(board, &w.position),
                answer: answer(w.outcome),
                work: w.work,
                positions: w.positions,
                bytes: w.bytes,
                file: w.file.display().to_string(),
            })
            .collect(),
        inside: harvest.inside,
        failed: harvest
            .failed
            .iter()
            .map(|(position, why)| FailedReport {
                position: format_position(board, position),
                why: why.clone(),
            })
            .collect(),
        kept_before: harvest.kept_before,
        directory: wanted.directory.display().to_string(),
    };
    if json {
        print_json(&report);
    } else {
        print_harvest(&report);
    }
    Ok(())
}

fn answer(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Proven => "yes",
        _ => "no",
    }
}

/// One certificate written, for a person.
fn written_line(board: &Board, written: &Harvested) -> String {
    let work = match written.work {
        Some(work) => format!("{work} nodes of work"),
        None => "a turn of the root".to_string(),
    };
    format!(
        "harvested {} ({work}, {} strategy positions, {} B): {}",
        format_position(board, &written.position),
        written.positions,
        written.bytes,
        written.file.display()
    )
}

fn print_harvest(report: &HarvestReport) {
    println!(
        "position  {} (can {} force a win? saved search of {} nodes)",
        report.position, report.attacker, report.search_nodes
    );
    println!(
        "settled   {} positions of at least {} nodes: {} written ({} nodes of work besides the \
         root's turns, {} B), \
         {} inside a strategy written, {} failed",
        report.candidates,
        report.min_work,
        report.written.len(),
        report.written_work,
        report.written_bytes,
        report.inside,
        report.failed.len()
    );
    for failed in &report.failed {
        println!("failed    {}: {}", failed.position, failed.why);
    }
    println!(
        "directory {} ({} certificates before this harvest)",
        report.directory, report.kept_before
    );
}
