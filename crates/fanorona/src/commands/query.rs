//! `fanorona query`: a position's value and distance from the tables, and every turn's.

use crate::output::{notation_width, print_json, CliError};
use crate::setup::{play_turns, TableArgs};
use clap::Args;
use fanorona_engine::{format_position, format_turn, parse_position, turns, Position, Value};
use fanorona_solver::{
    most_table_stones, system_can_be_numbered, Entry, Material, TableError, Tables,
};
use serde::Serialize;

/// The value of a position and of each of its turns, from the endgame tables.
#[derive(Args)]
pub struct QueryArgs {
    /// The position, in notation.
    #[arg(long, value_name = "FEN")]
    position: String,
    /// Then play these turns from it, in notation and separated by spaces, and query the
    /// position they lead to.
    #[arg(long, value_name = "TURNS")]
    after: Option<String>,
    #[command(flatten)]
    tables: TableArgs,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct QueryReport {
    position: String,
    value: &'static str,
    plies: Option<u16>,
    turns: Vec<TurnLine>,
}

/// A turn's value is for the player who makes it; its plies count from the queried position.
#[derive(Serialize)]
struct TurnLine {
    notation: String,
    result: String,
    value: &'static str,
    plies: Option<u16>,
}

impl QueryArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = parse_position(&self.position)?;
        let position = match &self.after {
            Some(turns) => play_turns(&board, position, turns, "--after")?,
            None => position,
        };
        let stones = position.occupied().count() as usize;
        let own = Material::of(position.mover, position.waiting);
        if !system_can_be_numbered(&board, own) {
            return Err(CliError::Failure(format!(
                "no table can hold {}v{} on {}: it is too large to number \
                 (`fanorona solve --position FEN` searches it)",
                own.mover,
                own.waiting,
                board.size_name()
            )));
        }
        let build = match stones > most_table_stones(&board) {
            true => format!("--stones {stones} --only {}v{}", own.mover, own.waiting),
            false => format!("--stones {stones}"),
        };
        let build_hint = |error: TableError| {
            CliError::Failure(format!(
                "{error}; build the tables with: fanorona tables build --board {} {build} --tables {}",
                board.size_name(),
                self.tables.tables.display()
            ))
        };
        let tables =
            Tables::open_for_position(&board, self.tables.rules(), &position, &self.tables.tables)
                .map_err(build_hint)?;
        let turns = turns(&board, &position);
        let read: Vec<Position> = std::iter::once(position)
            .chain(turns.iter().map(|turn| turn.result))
            .collect();
        tables.check_probes(&read).map_err(build_hint)?;
        let probe = |p: &Position| {
            tables
                .probe(p)
                .map_err(|e| CliError::Failure(e.to_string()))
        };
        let entry = probe(&position)?;
        let mut lines = Vec::new();
        for turn in &turns {
            let after = probe(&turn.result)?.one_ply_earlier();
            lines.push(TurnLine {
                notation: format_turn(&board, turn),
                result: format_position(&board, &turn.result),
                value: after.value().name(),
                plies: after.distance(),
            });
        }
        let report = QueryReport {
            position: format_position(&board, &position),
            value: entry.value().name(),
            plies: entry.distance(),
            turns: lines,
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(&report, entry);
        }
        Ok(())
    }
}

fn print_human(report: &QueryReport, entry: Entry) {
    println!("position  {}", report.position);
    match entry.value() {
        Value::Draw => println!("value     draw"),
        value => println!(
            "value     {} in {} plies",
            value.name(),
            entry.distance().unwrap_or(0)
        ),
    }
    let width = notation_width(report.turns.iter().map(|t| t.notation.as_str()));
    for turn in &report.turns {
        let plies = turn.plies.map_or(String::new(), |p| format!(" in {p}"));
        println!("  {:<width$}  {}{plies}", turn.notation, turn.value);
    }
}
