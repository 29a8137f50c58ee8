//! `fanorona check-proof`: confirm or refute a certificate with the rules and the tables alone.

use crate::output::{print_json, CliError};
use crate::progress::Bar;
use crate::setup::TableArgs;
use clap::Args;
use fanorona_engine::{format_position, format_turn, parse_position, turns, Position};
use fanorona_engine::{Blocked, Board, Rules};
use fanorona_solver::{check_with_progress, Certificate, Goal, Material, Node, Tables};
use serde::Serialize;
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
    /// move of White (they are positions of Black's strategy).
    #[arg(long, value_name = "FEN")]
    at: Option<String>,
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
                goal: match claim.goal {
                    Goal::Win => "win",
                    Goal::NotLose => "not lose",
                },
                first_turn,
            }
        })
        .collect()
}

impl CheckProofArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let certificates = self
            .files
            .iter()
            .map(|file| Certificate::read(file))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| CliError::Failure(e.to_string()))?;
        let certificates = match &self.at {
            Some(fen) => rerooted(certificates, fen)?,
            None => certificates,
        };
        let certificate =
            Certificate::combine(certificates).map_err(|e| CliError::Failure(e.to_string()))?;
        let board = Board::new(certificate.rows as usize, certificate.columns as usize)
            .map_err(|e| CliError::Failure(format!("certificate board: {e}")))?;
        let rules = Rules {
            blocked: if certificate.blocked == 1 {
                Blocked::Draw
            } else {
                Blocked::Loss
            },
        };
        let stones = certificate.table_stones as usize;
        let partial: Vec<Material> = certificate
            .table_materials
            .iter()
            .map(|&(mover, waiting)| Material::new(mover as usize, waiting as usize))
            .collect();
        // The files of the leaves' materials, checked block by block as leaves are read.
        let tables = match stones > 0 || !partial.is_empty() {
            true => Some(Tables::open_for_leaves(
                &board,
                rules,
                stones,
                &partial,
                &self.tables.tables,
            )?),
            false => None,
        };
        let file = self
            .files
            .iter()
            .map(|file| file.display().to_string())
            .collect::<Vec<_>>()
            .join(" + ");
        let bar = Bar::new();
        let checked = check_with_progress(&certificate, tables.as_ref(), &bar);
        bar.finish();
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
            },
        };
        if self.json {
            print_json(&report);
        } else if report.holds {
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
        }
        match report.reason {
            None => Ok(()),
            Some(reason) => Err(CliError::Failure(format!(
                "{}: refuted: {reason}",
                report.file
            ))),
        }
    }
}

/// The certificates with their root moved to the position `fen` (of their board), keeping the
/// claims whose strategy holds it (a certificate of a draw holds both sides' strategies, and
/// the position after a first move may be in one of them only); those left out are named on
/// stderr.
fn rerooted(mut certificates: Vec<Certificate>, fen: &str) -> Result<Vec<Certificate>, CliError> {
    let (board, position) = parse_position(fen)?;
    let root = Node::of(&position);
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
        certificate.claims.retain(|claim| {
            let holds = claim.strategy.iter().any(|(node, _)| *node == root);
            if !holds {
                eprintln!(
                    "note: {}'s strategy (to {}) does not hold {fen}: left out",
                    claim.strategist().name(),
                    match claim.goal {
                        Goal::Win => "win",
                        Goal::NotLose => "not lose",
                    }
                );
            }
            holds
        });
    }
    Ok(certificates)
}
