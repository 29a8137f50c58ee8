//! `fanorona solve --status`: where the searches saved in `--state` stand, read back without
//! searching (for a search that runs for days: which replies hold it up, what closures hold).

use crate::output::{print_json, CliError};
use fanorona_engine::{format_position, format_turn, turns, Board, Color, Position, Rules};
use fanorona_solver::{saved_search, state_file, LineStep, Material, SavedSearch, MATERIAL_STONES};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Serialize)]
struct StatusReport {
    position: String,
    board: String,
    searches: Vec<SearchStatus>,
}

#[derive(Serialize)]
struct SearchStatus {
    /// "can this side force a win?"
    attacker: &'static str,
    /// The file the search is saved in, or would be: it may not exist yet.
    file: String,
    /// Whether a saved search was found (the rest is empty if not).
    saved: bool,
    nodes: u64,
    root: Option<Numbers>,
    /// The root's numbers combined from its turns' (a search saved before the path's numbers
    /// were recorded at each save stored an open root only when it came back up to it).
    root_from_turns: Option<Numbers>,
    held: usize,
    /// Positions closures held, and open positions of the saved table, by number of stones.
    held_by_stones: BTreeMap<usize, usize>,
    open_by_stones: BTreeMap<usize, usize>,
    /// The same by material ("4v4": stones to move v stones waiting), of at most
    /// [`MATERIAL_STONES`] stones: which tables would answer them.
    held_by_material: Vec<MaterialCount>,
    open_by_material: Vec<MaterialCount>,
    turns: Vec<TurnStatus>,
    /// The line the search works on, as far as asked (`--line`).
    line: Vec<LineStatus>,
}

#[derive(Serialize)]
struct LineStatus {
    notation: String,
    result: String,
    stones: u32,
    proof: u32,
    disproof: u32,
    /// Of the position the turn is made from: its distinct children, and how many are open.
    children: usize,
    open_children: usize,
}

/// The line as turns: each step's notation is that of the first turn from the position before
/// that leads to its position.
fn line_status(board: &Board, root: &Position, line: &[LineStep]) -> Vec<LineStatus> {
    let mut from = *root;
    line.iter()
        .map(|step| {
            let notation = turns(board, &from)
                .iter()
                .find(|turn| turn.result == step.position)
                .map(|turn| format_turn(board, turn))
                .expect("a step of the line is a child of the position before");
            from = step.position;
            LineStatus {
                notation,
                result: format_position(board, &step.position),
                stones: step.position.mover.count() + step.position.waiting.count(),
                proof: step.numbers.0,
                disproof: step.numbers.1,
                children: step.children,
                open_children: step.open_children,
            }
        })
        .collect()
}

#[derive(Serialize)]
struct MaterialCount {
    material: String,
    positions: usize,
}

fn material_counts(counts: &[(Material, usize)]) -> Vec<MaterialCount> {
    counts
        .iter()
        .map(|(m, positions)| MaterialCount {
            material: m.to_string(),
            positions: *positions,
        })
        .collect()
}

/// A position's proof and disproof numbers, as a search's table holds them.
#[derive(Serialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Numbers {
    pub(crate) proof: u32,
    pub(crate) disproof: u32,
}

impl Numbers {
    pub(crate) fn of(pair: Option<(u32, u32)>) -> Option<Numbers> {
        pair.map(|(proof, disproof)| Numbers { proof, disproof })
    }

    /// "proof number P, disproof number D", for a person.
    pub(crate) fn in_words(self) -> String {
        format!(
            "proof number {}, disproof number {}",
            self.proof, self.disproof
        )
    }
}

#[derive(Serialize)]
struct TurnStatus {
    notation: String,
    result: String,
    /// The numbers the saved table holds for the position the turn leads to (none if it does
    /// not hold it; a proof is 0 and 4294967295, a disproof the reverse).
    numbers: Option<Numbers>,
    /// "proven" (the attacker wins there), "disproven", "open", or "unknown" (not held).
    outcome: &'static str,
}

fn outcome(numbers: Option<Numbers>) -> &'static str {
    match numbers {
        None => "unknown",
        Some(n) if n.proof == 0 => "proven",
        Some(n) if n.disproof == 0 => "disproven",
        Some(_) => "open",
    }
}

/// The order turns are listed in: those the table does not hold, the open ones by proof
/// number, then the proven and the disproven ones.
fn listing_order(turn: &TurnStatus) -> (u8, Option<Numbers>, String) {
    let class = match turn.outcome {
        "unknown" => 0,
        "open" => 1,
        "proven" => 2,
        _ => 3,
    };
    (class, turn.numbers, turn.notation.clone())
}

/// A position whose saved searches to read, with the turns (of `--each-turn`) that lead there.
pub struct StatusTarget {
    pub turns: Vec<String>,
    pub position: Position,
}

#[derive(Serialize)]
struct EachTurnStatus {
    turns: Vec<TurnStatusReport>,
}

#[derive(Serialize)]
struct TurnStatusReport {
    notation: String,
    status: StatusReport,
}

/// What `--status` is asked for: the searches of which sides, how much of their lines, and
/// whether as JSON.
pub struct StatusWanted {
    pub sides: Vec<Color>,
    pub line_plies: usize,
    pub json: bool,
}

/// Print where the saved searches of each target stand (one at a time: each takes as much
/// memory as its files). With one target reached by no turn, the plain report.
pub fn print_status(
    board: &Board,
    rules: Rules,
    targets: &[StatusTarget],
    directory: &Path,
    wanted: &StatusWanted,
) -> Result<(), CliError> {
    let json = wanted.json;
    let mut reports = Vec::new();
    for target in targets {
        let mut searches = Vec::new();
        for &side in &wanted.sides {
            let saved = saved_search(
                board,
                rules,
                &target.position,
                directory,
                side,
                wanted.line_plies,
            )
            .map_err(|e| CliError::Failure(format!("{}: {e}", directory.display())))?;
            searches.push(search_status(
                board,
                &target.position,
                directory,
                side,
                saved,
            ));
        }
        let report = StatusReport {
            position: format_position(board, &target.position),
            board: board.size_name(),
            searches,
        };
        if !json {
            if let Some(turn) = target.turns.first() {
                println!("after {turn}:");
            }
            print_human(&report);
        }
        reports.push((target, report));
    }
    let any_saved = reports
        .iter()
        .any(|(_, report)| report.searches.iter().any(|search| search.saved));
    if json {
        match reports.as_slice() {
            [(target, report)] if target.turns.is_empty() => print_json(report),
            _ => print_json(&EachTurnStatus {
                turns: reports
                    .into_iter()
                    .map(|(target, status)| TurnStatusReport {
                        notation: target.turns.first().cloned().unwrap_or_default(),
                        status,
                    })
                    .collect(),
            }),
        }
    }
    if any_saved {
        Ok(())
    } else {
        Err(CliError::Failure(format!(
            "no saved search of this position in {}",
            directory.display()
        )))
    }
}

fn search_status(
    board: &Board,
    position: &Position,
    directory: &Path,
    side: Color,
    saved: Option<SavedSearch>,
) -> SearchStatus {
    let numbers = Numbers::of;
    let Some(saved) = saved else {
        return SearchStatus {
            attacker: side.name(),
            file: state_file(directory, position, side).display().to_string(),
            saved: false,
            nodes: 0,
            root: None,
            root_from_turns: None,
            held: 0,
            held_by_stones: BTreeMap::new(),
            open_by_stones: BTreeMap::new(),
            held_by_material: Vec::new(),
            open_by_material: Vec::new(),
            turns: Vec::new(),
            line: Vec::new(),
        };
    };
    let mut rows: Vec<TurnStatus> = turns(board, position)
        .iter()
        .map(|turn| {
            let held = numbers(
                saved
                    .children
                    .iter()
                    .find(|(child, _)| *child == turn.result)
                    .and_then(|(_, pair)| *pair),
            );
            TurnStatus {
                notation: format_turn(board, turn),
                result: format_position(board, &turn.result),
                numbers: held,
                outcome: outcome(held),
            }
        })
        .collect();
    rows.sort_by_key(listing_order);
    SearchStatus {
        attacker: side.name(),
        file: saved.file.display().to_string(),
        saved: true,
        nodes: saved.nodes,
        root: numbers(saved.root),
        root_from_turns: numbers(saved.root_from_children),
        held: saved.held_by_stones.iter().sum(),
        held_by_stones: by_stones(&saved.held_by_stones),
        open_by_stones: by_stones(&saved.open_by_stones),
        held_by_material: material_counts(&saved.held_by_material),
        open_by_material: material_counts(&saved.open_by_material),
        turns: rows,
        line: line_status(board, position, &saved.line),
    }
}

/// The counts of positions by number of stones (indexed by stones) that are not zero.
fn by_stones(counts: &[usize]) -> BTreeMap<usize, usize> {
    counts
        .iter()
        .enumerate()
        .filter(|(_, &count)| count > 0)
        .map(|(stones, &count)| (stones, count))
        .collect()
}

/// Counts by number of stones, for a person: "8: 3, 9: 5".
fn stones_line(counts: &BTreeMap<usize, usize>) -> String {
    let parts: Vec<String> = counts
        .iter()
        .map(|(stones, count)| format!("{stones}: {count}"))
        .collect();
    parts.join(", ")
}

/// Counts by material, for a person: "4v4: 3, 3v5: 5".
fn material_line(counts: &[MaterialCount]) -> String {
    let parts: Vec<String> = counts
        .iter()
        .map(|c| format!("{}: {}", c.material, c.positions))
        .collect();
    parts.join(", ")
}

fn print_human(report: &StatusReport) {
    println!("position  {} ({})", report.position, report.board);
    for search in &report.searches {
        if !search.saved {
            println!(
                "can {} force a win? no saved search ({} not found)",
                search.attacker, search.file
            );
            continue;
        }
        // A search saved by an earlier build stored the root only when it last came back up
        // to it; its turns' numbers say where it stands all the same.
        let root = match (search.root, search.root_from_turns) {
            (Some(n), _) => n.in_words(),
            (None, Some(n)) => format!("from its turns, {}", n.in_words()),
            (None, None) => "not stored yet".into(),
        };
        println!(
            "can {} force a win? {} nodes saved in {}; at the root, {root}",
            search.attacker, search.nodes, search.file
        );
        println!(
            "  held by closures: {} positions; by stones: {}",
            search.held,
            stones_line(&search.held_by_stones)
        );
        println!(
            "  open in the table, by stones: {}",
            stones_line(&search.open_by_stones)
        );
        println!(
            "  held by material (to move v waiting), at most {MATERIAL_STONES} stones: {}",
            material_line(&search.held_by_material)
        );
        println!(
            "  open by material, at most {MATERIAL_STONES} stones: {}",
            material_line(&search.open_by_material)
        );
        for turn in &search.turns {
            match (turn.outcome, turn.numbers) {
                ("open", Some(n)) => println!(
                    "  {:>20}  proof {:>10}  disproof {:>10}",
                    turn.notation, n.proof, n.disproof
                ),
                ("unknown", _) => println!("  {:>20}  not in the table", turn.notation),
                (outcome, _) => println!("  {:>20}  {outcome}", turn.notation),
            }
        }
        print_line(&search.line);
    }
}

fn print_line(line: &[LineStatus]) {
    if line.is_empty() {
        return;
    }
    println!("  the line it works on (attacker: least proof number; defender: least disproof):");
    for (ply, step) in line.iter().enumerate() {
        println!(
            "  {:>4}. {:<20} {:>2} stones  proof {:>10}  disproof {:>10}  ({} of {} children open)",
            ply + 1,
            step.notation,
            step.stones,
            step.proof,
            step.disproof,
            step.open_children,
            step.children
        );
    }
}
