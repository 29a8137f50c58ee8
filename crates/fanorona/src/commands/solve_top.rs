//! `fanorona solve --write-top DIR`: the top of each saved search (its costliest slots, a
//! small saved search of the same layout, see `fanorona_solver::write_top`), for a later run
//! to start from with `--from-top DIR` where its saved searches are lost.

use crate::output::{print_json, CliError};
use fanorona_engine::{format_position, Board, Color, Position, Rules};
use fanorona_solver::write_top;
use serde::Serialize;
use std::path::Path;

/// What `--write-top` asks for.
pub struct TopWanted<'a> {
    pub roots: Vec<Position>,
    pub sides: Vec<Color>,
    pub state: &'a Path,
    pub directory: &'a Path,
    pub slots: usize,
    pub json: bool,
}

#[derive(Serialize)]
struct TopReport {
    position: String,
    attacker: &'static str,
    /// None where --state holds no saved search of it.
    file: Option<String>,
    slots: usize,
    nodes: u64,
    bytes: u64,
}

/// Write the top of every saved search of `wanted` into its directory.
pub fn run_write_top(board: &Board, rules: Rules, wanted: &TopWanted) -> Result<(), CliError> {
    let mut reports = Vec::new();
    for root in &wanted.roots {
        for &side in &wanted.sides {
            let written = write_top(
                board,
                rules,
                root,
                side,
                wanted.state,
                wanted.directory,
                wanted.slots,
            )
            .map_err(|e| CliError::Failure(e.to_string()))?;
            let (file, slots, nodes) = match written {
                Some((file, slots, nodes)) => (Some(file), slots, nodes),
                None => (None, 0, 0),
            };
            let bytes = file
                .as_ref()
                .and_then(|file| std::fs::metadata(file).ok())
                .map_or(0, |metadata| metadata.len());
            reports.push(TopReport {
                position: format_position(board, root),
                attacker: side.name(),
                file: file.map(|file| file.display().to_string()),
                slots,
                nodes,
                bytes,
            });
        }
    }
    if wanted.json {
        print_json(&reports);
        return Ok(());
    }
    for report in &reports {
        match &report.file {
            Some(file) => println!(
                "{} (can {} force a win?): the top {} slots of {} nodes, {} B: {file}",
                report.position, report.attacker, report.slots, report.nodes, report.bytes
            ),
            None => println!(
                "{} (can {} force a win?): no saved search in {}",
                report.position,
                report.attacker,
                wanted.state.display()
            ),
        }
    }
    Ok(())
}
