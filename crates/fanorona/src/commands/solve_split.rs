//! `fanorona solve --split`: a position's value by searches of its turns apart, split again
//! where they stay open, with the certificates joined (see `fanorona_solver::split`).

use crate::commands::solve::outcome_name;
use crate::output::{print_json, CliError};
use fanorona_engine::{format_position, Board, Color, Position, Value};
use fanorona_solver::{split, Certificate, Outcome, SolveSetup, Split, SplitPosition, SplitSetup};
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// What `solve --split` was asked.
pub struct SplitRequest<'a> {
    /// The searches' setup (the split sets their `only`, `state` and `save_every`).
    pub setup: SolveSetup<'a>,
    pub position: Position,
    /// The sides whose question to ask, in order (the side to move first).
    pub sides: Vec<Color>,
    pub depth: usize,
    pub parallel: usize,
    pub store: Option<&'a Path>,
    /// Search nothing: the split as the store has it (`--split --status`).
    pub status: bool,
    pub certificate: Option<&'a Path>,
    pub json: bool,
}

#[derive(Serialize)]
struct SplitReport {
    position: String,
    board: String,
    /// For the side to move: "win", "draw", "loss", or "unknown".
    value: &'static str,
    /// Where the value is unknown but a question was answered "no": "draw or better" or
    /// "draw or worse" for the side to move.
    bound: Option<&'static str>,
    questions: Vec<QuestionReport>,
    nodes: u64,
    seconds: f64,
    certificate: Option<String>,
    certificate_positions: Option<usize>,
}

#[derive(Serialize)]
struct QuestionReport {
    /// "can SIDE force a win?"
    side: &'static str,
    answer: &'static str,
    nodes: u64,
    searches: usize,
    /// Of `searches`, those run ahead by threads a batch left idle.
    searched_ahead: usize,
    recalled: usize,
    seconds: f64,
    /// Every position split, in the order they were, the root last.
    split_positions: Vec<PositionReport>,
    /// Where an open question hangs (see [`narrow_line`]); `None` once it is answered.
    hangs_on: Option<HangsOn>,
    /// The open positions nearest to answering "yes" and "no" (see [`nearest`]), at most
    /// [`NEAREST`] each, nearest first; empty once the question is answered.
    nearest_yes: Vec<Nearest>,
    nearest_no: Vec<Nearest>,
}

/// An open split position that needs only its open turns answered one way to be answered
/// that way: where the side that chooses against that answer is to move (the other side
/// for a "yes", the asking side for a "no"), so every turn must go that way.
#[derive(Serialize, Debug, PartialEq)]
struct Nearest {
    /// The turns from the root that lead here (one per ply).
    line: Vec<String>,
    stones: u32,
    /// The side to move there.
    side: &'static str,
    /// "yes" or "no": the answer its open turns must all get.
    towards: &'static str,
    turns: usize,
    /// Of `turns`, those answered `towards` already; the others are open.
    answered: usize,
    open: Vec<String>,
}

/// The line from the root along which an open question has one open turn a position (each
/// position's answer is then its open turn's), and where that line ends.
#[derive(Serialize, Debug, PartialEq)]
struct HangsOn {
    /// The turns from the root, one per ply (empty where the root has several open turns).
    line: Vec<String>,
    /// The position the line ends at and its stones.
    position: String,
    stones: u32,
    /// Its open turns: the question's answer is that of one of them (of all of them, where
    /// the other side chooses); none where the position was searched but not split.
    open: Vec<String>,
}

#[derive(Serialize)]
struct PositionReport {
    /// The turns from the root that lead here (one per ply).
    line: Vec<String>,
    position: String,
    /// The side to move there.
    side: &'static str,
    /// Stones on the board: how far the position is from the tables.
    stones: u32,
    answer: &'static str,
    turns: Vec<TurnReport>,
    /// A position above it on its line is settled: its answer no longer bears on the question.
    moot: bool,
}

#[derive(Serialize)]
struct TurnReport {
    /// Every turn that leads to `position`.
    turns: Vec<String>,
    position: String,
    answer: &'static str,
    nodes: u64,
    /// "search", "split" or "recalled".
    found: &'static str,
}

/// Whether Ctrl-C was pressed (or SIGTERM, SIGHUP came).
fn interrupted(request: &SplitRequest) -> bool {
    (request.setup.stop).is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed))
}

/// The questions asked and answered: each side's split, in order. Once the side to move is
/// shown to win, the other question is not asked.
fn ask(request: &SplitRequest) -> Result<Vec<(Color, Split, f64)>, CliError> {
    let mut answered = Vec::new();
    for &side in &request.sides {
        let setup = SplitSetup {
            solve: request.setup,
            side,
            depth: request.depth,
            parallel: request.parallel,
            store: request.store,
            recall_only: request.status,
        };
        let clock = Instant::now();
        let found =
            split(&setup, &request.position).map_err(|e| CliError::Failure(e.to_string()))?;
        let seconds = clock.elapsed().as_secs_f64();
        let mover_wins = side == request.position.side && found.outcome == Outcome::Proven;
        answered.push((side, found, seconds));
        let stopped = interrupted(request);
        if mover_wins || stopped {
            break;
        }
    }
    Ok(answered)
}

/// The value for the side to move that the answers give, and the bound where they give none.
fn value_of(
    position: &Position,
    answered: &[(Color, Split, f64)],
) -> (Option<Value>, Option<&'static str>) {
    let answer = |side: Color| {
        answered
            .iter()
            .find(|(s, _, _)| *s == side)
            .map_or(Outcome::Unknown, |(_, split, _)| split.outcome)
    };
    let (mover, waiting) = (answer(position.side), answer(position.side.other()));
    match (mover, waiting) {
        (Outcome::Proven, _) => (Some(Value::Win), None),
        (_, Outcome::Proven) => (Some(Value::Loss), None),
        (Outcome::Disproven, Outcome::Disproven) => (Some(Value::Draw), None),
        (Outcome::Disproven, _) => (None, Some("draw or worse")),
        (_, Outcome::Disproven) => (None, Some("draw or better")),
        _ => (None, None),
    }
}

/// The certificate of what the answers prove: the winner's strategy, both holds of a draw,
/// or the one hold of a bound.
fn certificate_of(
    value: Option<Value>,
    answered: &mut [(Color, Split, f64)],
) -> Option<Certificate> {
    let wanted: Vec<Certificate> = answered
        .iter_mut()
        .filter(|(_, split, _)| match value {
            Some(Value::Win) | Some(Value::Loss) => split.outcome == Outcome::Proven,
            _ => split.outcome == Outcome::Disproven,
        })
        .filter_map(|(_, split, _)| split.certificate.take())
        .collect();
    Certificate::combine(wanted).ok()
}

pub fn run_split(request: &SplitRequest, tables_stones: usize) -> Result<(), CliError> {
    let board = request.setup.board;
    let clock = Instant::now();
    let mut answered = ask(request)?;
    let seconds = clock.elapsed().as_secs_f64();
    let (value, bound) = value_of(&request.position, &answered);
    let certificate = certificate_of(value, &mut answered);
    let written = match (request.certificate, &certificate) {
        (Some(path), Some(certificate)) => {
            super::solve::check_and_write(certificate, request.setup.tables, path)?;
            Some((path.display().to_string(), certificate.size()))
        }
        _ => None,
    };
    let report = SplitReport {
        position: format_position(board, &request.position),
        board: board.size_name(),
        value: value.map_or("unknown", |v| v.name()),
        bound,
        nodes: answered.iter().map(|(_, split, _)| split.nodes).sum(),
        seconds,
        questions: answered
            .iter()
            .map(|(side, split, seconds)| question_report(board, *side, split, *seconds))
            .collect(),
        certificate: written.as_ref().map(|(path, _)| path.clone()),
        certificate_positions: written.as_ref().map(|(_, size)| *size),
    };
    if request.json {
        print_json(&report);
    } else {
        print_human(&report, tables_stones, request);
    }
    // A status reports; it does not try to settle anything.
    let asked_answered = report.questions.iter().all(|q| q.answer != "unknown");
    if request.status || value.is_some() || (request.sides.len() == 1 && asked_answered) {
        return Ok(());
    }
    let stopped = interrupted(request);
    let why = match stopped {
        true => "interrupted".to_string(),
        false => format!(
            "not settled within {} nodes per search and {} levels of splitting",
            request.setup.limits.nodes, request.depth
        ),
    };
    let next = match request.store {
        Some(dir) => format!(
            "answers kept in {}: run again with the same --state (and a larger --max-nodes or \
             --split-depth) to go on",
            dir.display()
        ),
        None => "raise --max-nodes or --split-depth, or use --state DIR to go on later".into(),
    };
    Err(CliError::Failure(format!("{why}; {next}")))
}

fn question_report(board: &Board, side: Color, split: &Split, seconds: f64) -> QuestionReport {
    let split_positions: Vec<PositionReport> = split
        .positions
        .iter()
        .map(|position| position_report(board, position))
        .collect();
    let open = split.outcome == Outcome::Unknown;
    let hangs_on = open.then(|| narrow_line(&split_positions)).flatten();
    let near = |towards| match open {
        true => nearest(&split_positions, side.name(), towards),
        false => Vec::new(),
    };
    let (nearest_yes, nearest_no) = (near("yes"), near("no"));
    QuestionReport {
        side: side.name(),
        answer: outcome_name(split.outcome),
        nodes: split.nodes,
        searches: split.searches,
        searched_ahead: split.searched_ahead,
        recalled: split.recalled,
        seconds,
        split_positions,
        hangs_on,
        nearest_yes,
        nearest_no,
    }
}

/// How many positions nearest to each answer a report names.
const NEAREST: usize = 3;

/// The open positions (not moot, more than one turn) where every turn must be answered
/// `towards` for the position to be, and at least one is: those with the fewest turns left
/// open first, then those with the most answered. A "yes" to "can `asking` force a win?" at
/// a position where the other side is to move needs every turn to be a "yes"; a "no" where
/// `asking` is to move, every turn a "no". Where the other answer needs a single turn, any
/// open turn could give it, so no count says how near it is.
fn nearest(positions: &[PositionReport], asking: &str, towards: &'static str) -> Vec<Nearest> {
    let every_turn_decides = |p: &PositionReport| (p.side == asking) == (towards == "no");
    let mut near: Vec<Nearest> = positions
        .iter()
        .filter(|p| p.answer == "unknown" && !p.moot && p.turns.len() > 1)
        .filter(|p| every_turn_decides(p))
        .map(|p| Nearest {
            line: p.line.clone(),
            stones: p.stones,
            side: p.side,
            towards,
            turns: p.turns.len(),
            answered: p.turns.iter().filter(|t| t.answer == towards).count(),
            open: open_turns(p).map(|t| t.turns[0].clone()).collect(),
        })
        .filter(|n| n.answered > 0)
        .collect();
    near.sort_by_key(|n| (n.open.len(), std::cmp::Reverse(n.answered), n.line.len()));
    near.truncate(NEAREST);
    near
}

/// The stones of a position in notation (its ranks' `W`s and `B`s).
fn stones_in(position: &str) -> u32 {
    position.chars().filter(|c| matches!(c, 'W' | 'B')).count() as u32
}

/// The turns of `position` still open.
fn open_turns(position: &PositionReport) -> impl Iterator<Item = &TurnReport> {
    position.turns.iter().filter(|t| t.answer == "unknown")
}

/// From the root of a split, follow each position's one open turn while there is one and
/// the position it leads to was split too. An unsettled position with one open turn has
/// that turn's answer (every other turn went the chooser's wrong way, or the position would
/// be settled), so the question hangs on where the line ends. `None` without a root.
fn narrow_line(positions: &[PositionReport]) -> Option<HangsOn> {
    let mut at = positions.iter().find(|p| p.line.is_empty())?;
    loop {
        let mut open = open_turns(at);
        let (Some(turn), None) = (open.next(), open.next()) else {
            break;
        };
        let below = positions.iter().find(|p| {
            p.position == turn.position
                && p.line.len() == at.line.len() + 1
                && p.line.starts_with(&at.line)
        });
        match below {
            Some(next) => at = next,
            None => {
                let mut line = at.line.clone();
                line.push(turn.turns[0].clone());
                return Some(HangsOn {
                    line,
                    position: turn.position.clone(),
                    stones: stones_in(&turn.position),
                    open: Vec::new(),
                });
            }
        }
    }
    Some(HangsOn {
        line: at.line.clone(),
        position: at.position.clone(),
        stones: at.stones,
        open: open_turns(at).map(|t| t.turns[0].clone()).collect(),
    })
}

fn position_report(board: &Board, position: &SplitPosition) -> PositionReport {
    PositionReport {
        line: position.line.clone(),
        position: format_position(board, &position.position),
        side: position.position.side.name(),
        stones: position.position.mover.count() + position.position.waiting.count(),
        answer: outcome_name(position.outcome),
        turns: position
            .turns
            .iter()
            .map(|turn| TurnReport {
                turns: turn.notation.clone(),
                position: format_position(board, &turn.position),
                answer: outcome_name(turn.outcome),
                nodes: turn.nodes,
                found: turn.found.name(),
            })
            .collect(),
        moot: position.moot,
    }
}

fn print_human(report: &SplitReport, table_stones: usize, request: &SplitRequest) {
    if let (true, Some(store)) = (request.status, request.store) {
        println!(
            "status    of the split kept in {} (nothing searched)",
            store.display()
        );
    }
    println!("position  {} ({})", report.position, report.board);
    let value = match report.bound {
        Some(bound) => format!("unknown ({bound})"),
        None => report.value.to_string(),
    };
    println!("value     {value} for the side to move");
    for question in &report.questions {
        let open = |moot: bool| {
            let positions = question.split_positions.iter();
            positions
                .filter(|p| p.answer == "unknown" && p.moot == moot)
                .count()
        };
        // Once the question is settled, every position split is below it.
        let open_note = match (question.answer, open(false), open(true)) {
            ("unknown", open, 0) => format!(", {open} of them left open"),
            ("unknown", open, moot) => {
                format!(", {open} of them left open and {moot} more below a settled one")
            }
            _ => String::new(),
        };
        let ahead_note = match question.searched_ahead {
            0 => String::new(),
            ahead => format!(", {ahead} of them ahead"),
        };
        println!(
            "can {} force a win? {} ({} searches{ahead_note}, {} nodes, {} answers recalled; {} \
             positions split{open_note}; {:.1} s)",
            question.side,
            question.answer,
            question.searches,
            question.nodes,
            question.recalled,
            question.split_positions.len(),
            question.seconds
        );
        if question.answer == "unknown" {
            // A status lists every open position; a run, the deepest few.
            let lines = if request.status {
                usize::MAX
            } else {
                OPEN_LINES
            };
            print_open_lines(question, lines);
        }
    }
    println!(
        "nodes     {} in {:.2} s, tables up to {table_stones} stones",
        report.nodes, report.seconds
    );
    if let (Some(path), Some(size)) = (&report.certificate, report.certificate_positions) {
        println!("proof     {path}: {size} strategy positions, checked");
    }
}

/// How many of the deepest open lines to print.
const OPEN_LINES: usize = 5;

/// Where a question's split stands at its root (how many turns are answered each way, and
/// the open ones), then the deepest positions it left open that still bear on it (`lines` of
/// them), each with the turns that lead there, its stones and its open turns: where the
/// question is held up.
fn print_open_lines(question: &QuestionReport, lines: usize) {
    let open_turns = |position: &PositionReport| -> String {
        let names: Vec<&str> = open_turns(position).map(|t| t.turns[0].as_str()).collect();
        names.join(", ")
    };
    if let Some(root) = question.split_positions.iter().find(|p| p.line.is_empty()) {
        let count = |answer: &str| root.turns.iter().filter(|t| t.answer == answer).count();
        println!(
            "  at the root: {} turns, {} wins after {}, cannot after {}; open: {}",
            root.turns.len(),
            question.side,
            count("yes"),
            count("no"),
            open_turns(root)
        );
    }
    if let Some(hangs_on) = question.hangs_on.as_ref().filter(|h| !h.line.is_empty()) {
        let then = match hangs_on.open.len() {
            0 => " (searched, not split)".to_string(),
            _ => format!(", then on: {}", hangs_on.open.join(", ")),
        };
        println!(
            "  hangs on one line: {} ({} stones){then}",
            hangs_on.line.join(" "),
            hangs_on.stones
        );
    }
    for near in question.nearest_yes.iter().chain(&question.nearest_no) {
        println!("  {}", nearest_line(question.side, near));
    }
    let mut open: Vec<&PositionReport> = question
        .split_positions
        .iter()
        .filter(|p| p.answer == "unknown" && !p.moot && !p.line.is_empty())
        .collect();
    open.sort_by_key(|p| std::cmp::Reverse(p.line.len()));
    for position in open.iter().take(lines) {
        println!(
            "  open after {} ({} stones): {}",
            position.line.join(" "),
            position.stones,
            open_turns(position)
        );
    }
}

/// "nearest to yes: after LINE (N stones): black wins after 22 of white's 23 turns; open: …"
fn nearest_line(asking: &str, near: &Nearest) -> String {
    // Towards "yes" the other side is to move there; towards "no", the asking side.
    let (answer, whose) = match near.towards {
        "yes" => (format!("{asking} wins"), format!("{}'s", near.side)),
        _ => (format!("{asking} cannot win"), "its".to_string()),
    };
    let at = match near.line.is_empty() {
        true => "at the root".to_string(),
        false => format!("after {}", near.line.join(" ")),
    };
    format!(
        "nearest to {}: {at} ({} stones): {answer} after {} of {whose} {} turns; open: {}",
        near.towards,
        near.stones,
        near.answered,
        near.turns,
        near.open.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(name: &str, position: &str, answer: &'static str) -> TurnReport {
        TurnReport {
            turns: vec![name.to_string()],
            position: position.to_string(),
            answer,
            nodes: 0,
            found: "search",
        }
    }

    fn split_at(line: &[&str], position: &str, turns: Vec<TurnReport>) -> PositionReport {
        PositionReport {
            line: line.iter().map(|t| t.to_string()).collect(),
            position: position.to_string(),
            side: if position.ends_with('w') {
                "white"
            } else {
                "black"
            },
            stones: 9,
            answer: "unknown",
            turns,
            moot: false,
        }
    }

    #[test]
    fn an_open_question_hangs_where_its_one_open_turn_a_position_ends() {
        // White to move at the root: a2-b2 loses, b1-b2 is open; below it, after Black's
        // c3-c2 (held), c3-b3 and a3-b3 are open.
        let root = split_at(
            &[],
            "BBB/1W1/WW1 w",
            vec![
                turn("a2-b2", "BBB/W2/1W1 b", "yes"),
                turn("b1-b2", "BBB/1W1/W2 b", "unknown"),
            ],
        );
        let below = split_at(
            &["b1-b2"],
            "BBB/1W1/W2 b",
            vec![
                turn("c3-c2", "BB1/1WB/W2 w", "no"),
                turn("c3-b3", "B1B/1W1/W2 w", "unknown"),
                turn("a3-b3", "1BB/1W1/W2 w", "unknown"),
            ],
        );
        let two_open = HangsOn {
            line: vec!["b1-b2".into()],
            position: "BBB/1W1/W2 b".into(),
            stones: 9,
            open: vec!["c3-b3".into(), "a3-b3".into()],
        };
        // Split positions are listed the root last, as a split lists them.
        assert_eq!(narrow_line(&[below, root]), Some(two_open));
        // Its one open turn searched but not split: the line ends there, nothing open below.
        let root = split_at(
            &[],
            "BBB/1W1/WW1 w",
            vec![turn("b1-b2", "BBB/1W1/W2 b", "unknown")],
        );
        let searched = narrow_line(&[root]).unwrap();
        assert_eq!(searched.line, vec!["b1-b2".to_string()]);
        assert_eq!((searched.stones, searched.open.len()), (5, 0));
        // Several open turns at the root: the line is empty.
        let root = split_at(
            &[],
            "BBB/1W1/WW1 w",
            vec![
                turn("b1-b2", "BBB/1W1/W2 b", "unknown"),
                turn("a1-b2", "BBB/1W1/1W1 b", "unknown"),
            ],
        );
        let at_root = narrow_line(&[root]).unwrap();
        assert!(at_root.line.is_empty());
        assert_eq!(at_root.open, vec!["b1-b2".to_string(), "a1-b2".to_string()]);
        assert_eq!(narrow_line(&[]), None, "no root");
    }

    #[test]
    fn the_nearest_positions_are_those_whose_every_turn_must_go_one_way_with_fewest_open() {
        // "Can White force a win?" White to move at the root: a "no" there needs every turn
        // a "no" (one is, two open). Below, Black to move: a "yes" needs every Black turn a
        // "yes".
        let root = split_at(
            &[],
            "BBB/1W1/WW1 w",
            vec![
                turn("a2-b2", "BBB/W2/1W1 b", "no"),
                turn("b1-b2", "BBB/1W1/W2 b", "unknown"),
                turn("a1-b2", "BBB/1W1/1W1 b", "unknown"),
            ],
        );
        let one_left = split_at(
            &["b1-b2"],
            "BBB/1W1/W2 b",
            vec![
                turn("c3-c2", "BB1/1WB/W2 w", "yes"),
                turn("c3-b3", "B1B/1W1/W2 w", "unknown"),
                turn("a3-b3", "1BB/1W1/W2 w", "yes"),
            ],
        );
        let two_left = split_at(
            &["a1-b2"],
            "BBB/1W1/1W1 b",
            vec![
                turn("c3-c2", "BB1/1WB/1W1 w", "yes"),
                turn("c3-b3", "B1B/1W1/1W1 w", "unknown"),
                turn("a3-b3", "1BB/1W1/1W1 w", "unknown"),
            ],
        );
        // Left out: nothing answered yet, a single turn, a moot position.
        let none_answered = split_at(
            &["a2-b2"],
            "BBB/W2/1W1 b",
            vec![
                turn("c3-c2", "BB1/WB1/1W1 w", "unknown"),
                turn("c3-b3", "B1B/W2/1W1 w", "unknown"),
            ],
        );
        let one_turn = split_at(
            &["b1-b2", "c3-b3"],
            "B1B/1W1/W2 w",
            vec![turn("b2-c3", "B1W/3/W2 b", "unknown")],
        );
        let mut moot = split_at(
            &["b1-b2", "c3-b3", "b2-c3"],
            "B1W/3/W2 b",
            vec![
                turn("a3-b3", "1BW/3/W2 w", "yes"),
                turn("a3-b2", "2W/1B1/W2 w", "unknown"),
            ],
        );
        moot.moot = true;
        let positions = [moot, one_turn, none_answered, two_left, one_left, root];
        let yes = nearest(&positions, "white", "yes");
        let lines: Vec<&[String]> = yes.iter().map(|n| n.line.as_slice()).collect();
        assert_eq!(lines, [["b1-b2".to_string()], ["a1-b2".to_string()]]);
        assert_eq!((yes[0].answered, yes[0].turns), (2, 3));
        assert_eq!(yes[0].open, ["c3-b3".to_string()]);
        assert_eq!(
            nearest_line("white", &yes[0]),
            "nearest to yes: after b1-b2 (9 stones): white wins after 2 of black's 3 turns; \
             open: c3-b3"
        );
        let no = nearest(&positions, "white", "no");
        assert_eq!(no.len(), 1, "the root, White to move: {no:?}");
        assert_eq!(
            (no[0].answered, no[0].open.len(), no[0].side),
            (1, 2, "white")
        );
        assert_eq!(
            nearest_line("white", &no[0]),
            "nearest to no: at the root (9 stones): white cannot win after 1 of its 3 turns; \
             open: b1-b2, a1-b2"
        );
    }
}
