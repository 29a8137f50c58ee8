//! `fanorona query`: a position's value and distance from the tables, and every turn's.

use crate::output::{notation_width, print_json, CliError};
use crate::setup::{play_turns, TableArgs};
use clap::Args;
use fanorona_engine::{
    format_position, format_turn, parse_position, turns, Board, Position, Turn, Value,
};
use fanorona_solver::{
    most_table_stones, system_can_be_numbered, Material, ProbeError, TableError, Tables,
};
use serde::Serialize;
use std::collections::{hash_map, HashMap, HashSet};

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
    /// Also play best play out from the position, turn by turn: a won game won as fast as
    /// possible against the longest defence, to its end; a drawn one along drawing turns
    /// (each side's first in turn order) until a position comes back.
    #[arg(long)]
    line: bool,
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
    /// With `--line`: best play from the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<BestLine>,
}

/// Best play from a position: each turn's value and plies are for the player who makes it,
/// counted from the position before it.
#[derive(Serialize)]
struct BestLine {
    turns: Vec<TurnLine>,
    /// Why the line stops: "game over" (the side to move has no stones or no turn),
    /// "repetition" (a drawn line came back to a position), "no distances" (a won or lost
    /// position in a table built for values alone, where the fastest win is unknown) or
    /// "ply limit".
    ends: &'static str,
}

/// The longest line `--line` plays: past every distance in the 5x9 tables up to 8 stones.
const MOST_LINE_PLIES: usize = 1000;

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
                "no table can hold {own} on {}: it is too large to number \
                 (`fanorona solve --position FEN` searches it)",
                board.size_name()
            )));
        }
        let build = match stones > most_table_stones(&board) {
            true => format!("--stones {stones} --only {own}"),
            false => format!("--stones {stones}"),
        };
        let build_hint = |error: TableError| {
            CliError::Failure(format!(
                "{error}; build the tables with: fanorona tables build --board {} {build} --tables {}",
                board.size_name(),
                self.tables.directory().display()
            ))
        };
        let tables = Tables::open_for_position(
            &board,
            self.tables.rules(),
            &position,
            self.tables.directory(),
        )
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
        let line = match self.line {
            true => Some(self.best_line(&board, position, tables, &build_hint)?),
            false => None,
        };
        let report = QueryReport {
            position: format_position(&board, &position),
            value: value.name(),
            plies,
            distances,
            turns: lines,
            line,
        };
        if self.json {
            print_json(&report);
        } else {
            print_human(&report);
        }
        Ok(())
    }

    /// Best play from `position`, whose tables are `tables`: the tables are opened again
    /// whenever a capture changes the material. `table_failure` says how to build what is
    /// missing.
    fn best_line(
        &self,
        board: &Board,
        mut position: Position,
        tables: Tables,
        table_failure: &dyn Fn(TableError) -> CliError,
    ) -> Result<BestLine, CliError> {
        let mut opened = HashMap::from([(Material::of(position.mover, position.waiting), tables)]);
        let mut seen = HashSet::new();
        let mut played = Vec::new();
        let ends = loop {
            if played.len() == MOST_LINE_PLIES {
                break "ply limit";
            }
            if !seen.insert(position) {
                break "repetition";
            }
            let material = Material::of(position.mover, position.waiting);
            let tables = match opened.entry(material) {
                hash_map::Entry::Occupied(held) => held.into_mut(),
                hash_map::Entry::Vacant(place) => place.insert(
                    Tables::open_for_position(
                        board,
                        self.tables.rules(),
                        &position,
                        self.tables.directory(),
                    )
                    .map_err(table_failure)?,
                ),
            };
            let turns = turns(board, &position);
            let read: Vec<Position> = std::iter::once(position)
                .chain(turns.iter().map(|turn| turn.result))
                .collect();
            tables.check_probes(&read).map_err(table_failure)?;
            match best_turn(tables, &position, &turns)? {
                Choice::Play(i, value, plies) => {
                    let turn = &turns[i];
                    played.push(TurnLine {
                        notation: format_turn(board, turn),
                        result: format_position(board, &turn.result),
                        value: value.name(),
                        plies,
                    });
                    position = turn.result;
                }
                Choice::Stop(why) => break why,
            }
        };
        Ok(BestLine {
            turns: played,
            ends,
        })
    }
}

/// What best play does at a position.
enum Choice {
    /// Play turn `i`, of this value and plies for its player.
    Play(usize, Value, Option<u16>),
    /// The line ends here, for this reason.
    Stop(&'static str),
}

/// The best of `turns`, the legal turns of `position`: the fastest win, else a draw (the
/// first), else the slowest loss (the first of equals each time).
fn best_turn(tables: &Tables, position: &Position, turns: &[Turn]) -> Result<Choice, CliError> {
    if turns.is_empty() {
        return Ok(Choice::Stop("game over"));
    }
    let (value, plies) = value_and_plies(tables, position)?;
    if value != Value::Draw && plies.is_none() {
        return Ok(Choice::Stop("no distances"));
    }
    let mut best: Option<(usize, Value, Option<u16>)> = None;
    for (i, turn) in turns.iter().enumerate() {
        let (child, child_plies) = value_and_plies(tables, &turn.result)?;
        let candidate = (i, child.flip(), child_plies.map(|p| p + 1));
        if best.is_none_or(|(_, value, plies)| {
            preference(candidate.1, candidate.2) > preference(value, plies)
        }) {
            best = Some(candidate);
        }
    }
    let (i, value, plies) = best.expect("a position with turns");
    Ok(Choice::Play(i, value, plies))
}

/// How much the player who makes a turn of `value` in `plies` prefers it: wins first, the
/// faster the better; then draws; then losses, the slower the better.
fn preference(value: Value, plies: Option<u16>) -> (u8, i32) {
    let plies = i32::from(plies.unwrap_or(0));
    match value {
        Value::Win => (2, -plies),
        Value::Draw => (1, 0),
        Value::Loss => (0, plies),
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
    if let Some(line) = &report.line {
        print_line(line);
    }
}

/// Best play, one numbered turn a line, each with its value for the player who makes it.
fn print_line(line: &BestLine) {
    println!(
        "best line ({} plies; ends: {})",
        line.turns.len(),
        line.ends
    );
    let width = notation_width(line.turns.iter().map(|t| t.notation.as_str()));
    let number_width = line.turns.len().to_string().len();
    for (ply, turn) in line.turns.iter().enumerate() {
        let plies = turn.plies.map_or(String::new(), |p| format!(" in {p}"));
        println!(
            "  {:>number_width$}. {:<width$}  {}{plies}",
            ply + 1,
            turn.notation,
            turn.value
        );
    }
}
