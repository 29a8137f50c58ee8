//! `fanorona query`: a position's value and distance from the tables, and every turn's.

use crate::output::{notation_width, print_json, CliError};
use crate::setup::{play_turns, TableArgs};
use clap::Args;
use fanorona_engine::{format_position, format_turn, parse_position, turns, Position, Value};
use fanorona_solver::{
    most_table_stones, system_can_be_numbered, Material, ProbeError, TableError, Tables,
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
    /// False where a table read was built for values alone: a won or lost position's plies
    /// are then null.
    distances: bool,
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
        let (value, plies) = value_and_plies(&tables, &position)?;
        let mut distances = value == Value::Draw || plies.is_some();
        let mut lines = Vec::new();
        for turn in &turns {
            let (value, plies) = value_and_plies(&tables, &turn.result)?;
            distances &= value == Value::Draw || plies.is_some();
            lines.push(TurnLine {
                notation: format_turn(&board, turn),
                result: format_position(&board, &turn.result),
                value: value.flip().name(),
                plies: plies.map(|p| p + 1),
            });
        }
        let report = QueryReport {
            position: format_position(&board, &position),
            value: value.name(),
            plies,
            distances,
            turns: lines,
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(&report);
        }
        Ok(())
    }
}

/// The value of `position` for its side to move and its distance in plies (`None` for a draw,
/// and where its table was built for values alone).
fn value_and_plies(tables: &Tables, position: &Position) -> Result<(Value, Option<u16>), CliError> {
    let failure = |e: ProbeError| CliError::Failure(e.to_string());
    match tables.probe(position) {
        Ok(entry) => Ok((entry.value(), entry.distance())),
        Err(ProbeError::NoDistances { .. }) => {
            Ok((tables.probe_value(position).map_err(failure)?, None))
        }
        Err(error) => Err(failure(error)),
    }
}

fn print_human(report: &QueryReport) {
    println!("position  {}", report.position);
    match report.plies {
        Some(plies) => println!("value     {} in {plies} plies", report.value),
        None if report.value == Value::Draw.name() => println!("value     draw"),
        None => println!("value     {}", report.value),
    }
    if !report.distances {
        println!("          (a table built for values alone: no distances)");
    }
    let width = notation_width(report.turns.iter().map(|t| t.notation.as_str()));
    for turn in &report.turns {
        let plies = turn.plies.map_or(String::new(), |p| format!(" in {p}"));
        println!("  {:<width$}  {}{plies}", turn.notation, turn.value);
    }
}
