//! `fanorona check-proof`: confirm or refute a certificate with the rules and the tables alone.

use crate::output::{print_json, CliError};
use crate::progress::Bar;
use crate::setup::{play_turns, TableArgs};
use clap::Args;
use fanorona_engine::{format_position, format_turn, parse_position, turns, Position};
use fanorona_engine::{Board, Color, Rules};
use fanorona_solver::{check_with_progress, Certificate, Claim, Goal, Node, Tables};
use serde::Serialize;
use std::collections::HashSet;
use std::path::PathBuf;

/// Check a certificate written by `fanorona solve --certificate`. Exit 0 only if it holds.
/// Several certificates of the same position are checked together: a hold for each side (two
/// bounds) is a draw.
#[derive(Args)]
pub struct CheckProofArgs {
    /// The certificate file(s).
    #[arg(required = true, num_args = 1..)]
    files: Vec<PathBuf>,
    /// Check the claims at this position instead of the certificates' root. Once a strategy
    /// checks, every position in it has what its claim says (a win, or not losing), so the
    /// certificate of the 5x9 start also proves, for instance, Black's hold after each first
    /// move of White (they are positions of Black's strategy). Certificates of the positions
    /// after each turn from FEN (`solve --position FEN --each-turn`) are joined there: the
    /// waiting side's strategies together prove what they all do (a win if each is one, else
    /// not losing), provided every turn from FEN is answered. Instead of a position, the turns
    /// that lead there from the first certificate's root, in notation and separated by spaces
    /// (`--at d2-e3A`, `--at "e2-e3A f4-e5W-e4A"`).
    #[arg(long, value_name = "FEN|TURNS")]
    at: Option<String>,
    /// Once the certificates hold, write them as one certificate to this file: its root the
    /// --at position, with the strategies joined there. Joined certificates of one level of
    /// turns can so be joined again at the position before. A name ending in .fnpack writes
    /// it packed (see `pack-proof`).
    #[arg(long, value_name = "FILE")]
    write: Option<PathBuf>,
    #[command(flatten)]
    tables: TableArgs,
    /// Print one JSON document.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct CheckReport {
    file: String,
    holds: bool,
    position: Option<String>,
    value: Option<&'static str>,
    positions: Option<usize>,
    table_leaves: Option<usize>,
    rule_leaves: Option<usize>,
    /// Per claim of a certificate that holds: whose strategy, for what, and its turn at the
    /// root when that side moves first (what the proof says to play).
    claims: Vec<ClaimReport>,
    reason: Option<String>,
    /// The file the checked certificate was written to (--write).
    written: Option<String>,
}

#[derive(Serialize)]
struct ClaimReport {
    strategist: &'static str,
    #[serde(skip)]
    other_side: &'static str,
    goal: &'static str,
    first_turn: Option<String>,
}

/// What each claim of a confirmed certificate is, and its turn at the root.
fn claim_reports(board: &Board, certificate: &Certificate, root: &Position) -> Vec<ClaimReport> {
    let root_turns = turns(board, root);
    certificate
        .claims
        .iter()
        .map(|claim| {
            let choice = claim
                .strategy
                .iter()
                .find(|(node, _)| *node == certificate.root)
                .and_then(|(_, choice)| *choice);
            let first_turn = choice.and_then(|choice| {
                let after = choice.position();
                root_turns
                    .iter()
                    .find(|turn| {
                        turn.result.mover == after.mover && turn.result.waiting == after.waiting
                    })
                    .map(|turn| format_turn(board, turn))
            });
            ClaimReport {
                strategist: claim.strategist().name(),
                other_side: claim.strategist().other().name(),
                goal: goal_name(claim.goal),
                first_turn,
            }
        })
        .collect()
}

impl CheckProofArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let certificate = self.read_certificates()?;
        let board = Board::new(certificate.rows as usize, certificate.columns as usize)
            .map_err(|e| CliError::Failure(format!("certificate board: {e}")))?;
        let tables = self.open_leaf_tables(&board, &certificate)?;
        let bar = Bar::new();
        let checked = check_with_progress(&certificate, tables.as_ref(), &bar);
        bar.finish();
        let written = match (&checked, &self.write) {
            (Ok(_), Some(path)) => {
                certificate
                    .write(path)
                    .map_err(|e| CliError::Failure(e.to_string()))?;
                Some(path.display().to_string())
            }
            _ => None,
        };
        let file = self
            .files
            .iter()
            .map(|file| file.display().to_string())
            .collect::<Vec<_>>()
            .join(" + ");
        let report = match checked {
            Ok(confirmed) => CheckReport {
                file,
                holds: true,
                position: Some(format_position(&confirmed.board, &confirmed.root)),
                value: confirmed.value.map(|value| value.name()),
                positions: Some(confirmed.positions),
                table_leaves: Some(confirmed.table_leaves),
                rule_leaves: Some(confirmed.rule_leaves),
                claims: claim_reports(&confirmed.board, &certificate, &confirmed.root),
                reason: None,
                written,
            },
            Err(why) => CheckReport {
                file,
                holds: false,
                position: None,
                value: None,
                positions: None,
                table_leaves: None,
                rule_leaves: None,
                claims: Vec::new(),
                reason: Some(why.0),
                written: None,
            },
        };
        if self.json {
            print_json(&report);
        } else if report.holds {
            print_holds(&report);
        }
        match report.reason {
            None => Ok(()),
            Some(reason) => Err(CliError::Failure(format!(
                "{}: refuted: {reason}",
                report.file
            ))),
        }
    }

    /// The certificates of the command line, moved to --at where it is given, combined into
    /// one.
    fn read_certificates(&self) -> Result<Certificate, CliError> {
        let certificates = self
            .files
            .iter()
            .map(|file| Certificate::read(file))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CliError::Failure(e.to_string()))?;
        let certificates = match &self.at {
            Some(at) => {
                let fen = at_position(at, &certificates)?;
                rerooted(certificates, &fen)?
            }
            None => certificates,
        };
        Certificate::combine(certificates).map_err(|e| CliError::Failure(e.to_string()))
    }

    /// The files of the leaves' materials, checked block by block as leaves are read; none
    /// where the certificate has no table leaves, or rules that are unknown (the checker then
    /// refutes it without them).
    fn open_leaf_tables(
        &self,
        board: &Board,
        certificate: &Certificate,
    ) -> Result<Option<Tables>, CliError> {
        let stones = certificate.table_stones as usize;
        let partial = certificate.partial_layer();
        Ok(
            match (certificate.rules(), stones > 0 || !partial.is_empty()) {
                (Ok(rules), true) => Some(Tables::open_for_leaves(
                    board,
                    rules,
                    stones,
                    &partial,
                    self.tables.directory(),
                )?),
                _ => None,
            },
        )
    }
}

/// A certificate that holds, for a person: what it proves and each claim's first turn.
fn print_holds(report: &CheckReport) {
    let what = match (report.value, report.claims.first()) {
        (Some(value), _) => format!(" is a {value} for the side to move"),
        (None, Some(hold)) => format!(
            ": {} cannot lose, so {} cannot force a win (a bound, not the value)",
            hold.strategist, hold.other_side
        ),
        (None, None) => String::new(),
    };
    println!(
        "{}: holds: {}{what} ({} strategy positions, {} table leaves, {} rule leaves)",
        report.file,
        report.position.as_deref().unwrap_or(""),
        report.positions.unwrap_or(0),
        report.table_leaves.unwrap_or(0),
        report.rule_leaves.unwrap_or(0)
    );
    for claim in &report.claims {
        let turn = claim
            .first_turn
            .as_deref()
            .unwrap_or("(the other side moves first)");
        println!("  {} to {}: {turn}", claim.strategist, claim.goal);
    }
    if let Some(path) = &report.written {
        println!("  written to {path}");
    }
}

/// The certificates with their root moved to the position `fen` (of their board). A side's
/// claims whose strategies hold `fen` are kept as they are (a certificate of a draw holds both
/// sides' strategies, and the position after a first move may be in one of them only). Where
/// none of them is a win, the side's other claims may still prove more: if it waits at `fen`,
/// they are joined there when together they answer every turn (certificates solved apart, one
/// per reply with `solve --position FEN --each-turn`, then prove together what holds at `fen`:
/// see [`At::join`]); if it moves, it takes the turn of its best claim that holds a child (see
/// [`At::choose`]). Claims left out are named on stderr.
fn rerooted(mut certificates: Vec<Certificate>, fen: &str) -> Result<Vec<Certificate>, CliError> {
    let (board, position) = parse_position(fen)?;
    let root = Node::of(&position);
    let mut claims = Vec::new();
    for certificate in &mut certificates {
        if (certificate.rows as usize, certificate.columns as usize)
            != (board.rows(), board.columns())
        {
            return Err(CliError::Input(format!(
                "--at: a {} position for a certificate of a {}x{} board",
                board.size_name(),
                certificate.rows,
                certificate.columns
            )));
        }
        certificate.root = root;
        claims.append(&mut certificate.claims);
    }
    let at = At::new(&board, &position, &certificates, fen);
    let holds_root = |claim: &Claim| claim.strategy.iter().any(|(node, _)| *node == root);
    let mut kept = Vec::new();
    for side in [Color::White, Color::Black] {
        let (of_side, others): (Vec<Claim>, Vec<Claim>) = claims
            .into_iter()
            .partition(|claim| claim.strategist() == side);
        claims = others;
        let (holding, apart): (Vec<Claim>, Vec<Claim>) = of_side.into_iter().partition(holds_root);
        if holding.iter().any(|claim| claim.goal == Goal::Win) {
            apart.iter().for_each(|claim| at.left_out(claim));
        } else if side == position.side {
            kept.extend(at.choose(apart));
        } else {
            kept.extend(at.join(apart));
        }
        kept.extend(holding);
    }
    if kept.is_empty() {
        return Err(CliError::Failure(format!(
            "refuted: no claim of these certificates holds {fen} (the notes above say why)"
        )));
    }
    certificates[0].claims = kept;
    Ok(certificates)
}

/// The position `--at` names: `text` itself where it is a position (it has ranks separated by
/// `/`), else the position the turns of `text` lead to from the first certificate's root.
fn at_position(text: &str, certificates: &[Certificate]) -> Result<String, CliError> {
    if text.contains('/') {
        return Ok(text.to_string());
    }
    let first = &certificates[0];
    let board = Board::new(first.rows as usize, first.columns as usize)
        .map_err(|e| CliError::Failure(format!("certificate board: {e}")))?;
    let position = play_turns(&board, first.root.position(), text, "--at")?;
    Ok(format_position(&board, &position))
}

/// The position given with `--at`, and what its turns lead to.
struct At<'a> {
    position: Position,
    fen: &'a str,
    children: HashSet<Node>,
    /// The children that neither the rules nor the certificates' tables could decide: a side
    /// that waits must hold each of them in a strategy.
    to_answer: HashSet<Node>,
}

impl<'a> At<'a> {
    fn new(
        board: &Board,
        position: &Position,
        certificates: &[Certificate],
        fen: &'a str,
    ) -> At<'a> {
        let table_stones = certificates.iter().map(|c| c.table_stones).max();
        let table_stones = table_stones.unwrap_or(0) as u32;
        let in_tables = |child: &Position| {
            let material = (child.mover.count() as u8, child.waiting.count() as u8);
            child.mover.count() + child.waiting.count() <= table_stones
                || certificates
                    .iter()
                    .any(|c| c.table_materials.contains(&material))
        };
        let rules = Rules::default();
        let results: Vec<Position> = turns(board, position).iter().map(|t| t.result).collect();
        At {
            position: *position,
            fen,
            children: results.iter().map(Node::of).collect(),
            to_answer: results
                .iter()
                .filter(|child| rules.outcome(board, child).is_none() && !in_tables(child))
                .map(Node::of)
                .collect(),
        }
    }

    /// A child of the position that `claim`'s strategy holds, if any.
    fn child_held(&self, claim: &Claim) -> Option<Node> {
        claim
            .strategy
            .iter()
            .map(|(node, _)| *node)
            .find(|node| self.children.contains(node))
    }

    /// One claim from `claims` (of the side that waits here, none holding the position),
    /// if their strategies together hold every child that must be answered: their strategies
    /// joined, with the position added as one where the opponent moves, so that the checker
    /// asks for every turn from it to be answered. The joined goal is a win if every claim is
    /// one, else "not lose" (a winning strategy also never loses); see [`Claim::joined`].
    fn join(&self, claims: Vec<Claim>) -> Option<Claim> {
        let (useful, useless): (Vec<Claim>, Vec<Claim>) = claims
            .into_iter()
            .partition(|claim| self.child_held(claim).is_some());
        useless.iter().for_each(|claim| self.left_out(claim));
        let held: HashSet<Node> = useful
            .iter()
            .flat_map(|claim| claim.strategy.iter().map(|(node, _)| *node))
            .filter(|node| self.to_answer.contains(node))
            .collect();
        if held.len() < self.to_answer.len() {
            if let Some(claim) = useful.first() {
                eprintln!(
                    "note: {}'s strategies ({} of them) left out: they answer {} of the {} turns \
                     from {} that need an answer",
                    claim.strategist().name(),
                    useful.len(),
                    held.len(),
                    self.to_answer.len(),
                    self.fen
                );
            }
            return None;
        }
        let strategist = useful.first()?.strategist();
        let goal = match useful.iter().all(|claim| claim.goal == Goal::Win) {
            true => Goal::Win,
            false => Goal::NotLose,
        };
        let joined = Claim::joined(strategist, goal, useful, &self.position, None);
        eprintln!(
            "note: {}'s strategies (to {}) joined at {}, where every turn must be answered",
            joined.strategist().name(),
            goal_name(joined.goal),
            self.fen
        );
        Some(joined)
    }

    /// Of `claims` (of the side to move here, none holding the position), the best whose
    /// strategy holds a child (a win before "not lose"), with the position added and the turn
    /// to that child chosen there.
    fn choose(&self, mut claims: Vec<Claim>) -> Option<Claim> {
        let best = claims
            .iter()
            .enumerate()
            .filter(|(_, claim)| self.child_held(claim).is_some())
            .min_by_key(|(_, claim)| claim.goal != Goal::Win)
            .map(|(i, _)| i);
        let Some(best) = best else {
            if let Some(claim) = claims.first() {
                eprintln!(
                    "note: {}'s strategies ({} of them) hold no position after a turn from {}: \
                     left out",
                    claim.strategist().name(),
                    claims.len(),
                    self.fen
                );
            }
            return None;
        };
        if claims.len() > 1 {
            eprintln!(
                "note: {} other strategies of {} left out (one turn from {} is enough)",
                claims.len() - 1,
                claims[best].strategist().name(),
                self.fen
            );
        }
        let chosen = claims.swap_remove(best);
        let child = self.child_held(&chosen)?;
        let (strategist, goal) = (chosen.strategist(), chosen.goal);
        let chosen = Claim::joined(strategist, goal, [chosen], &self.position, Some(child));
        eprintln!(
            "note: {}'s strategy (to {}) chosen at {} for the turn it holds",
            chosen.strategist().name(),
            goal_name(chosen.goal),
            self.fen
        );
        Some(chosen)
    }

    fn left_out(&self, claim: &Claim) {
        eprintln!(
            "note: {}'s strategy (to {}) does not hold {}: left out",
            claim.strategist().name(),
            goal_name(claim.goal),
            self.fen
        );
    }
}

fn goal_name(goal: Goal) -> &'static str {
    match goal {
        Goal::Win => "win",
        Goal::NotLose => "not lose",
    }
}
