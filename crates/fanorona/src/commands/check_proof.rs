//! `fanorona check-proof`: confirm or refute a certificate with the rules and the tables alone.

use crate::output::{print_json, CliError};
use crate::setup::TableArgs;
use clap::Args;
use fanorona_engine::format_position;
use fanorona_engine::{Blocked, Board, Rules};
use fanorona_solver::{check, Certificate, Tables};
use serde::Serialize;
use std::path::PathBuf;

/// Check a certificate written by `fanorona solve --certificate`. Exit 0 only if it holds.
#[derive(Args)]
pub struct CheckProofArgs {
    /// The certificate file.
    file: PathBuf,
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
    reason: Option<String>,
}

impl CheckProofArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let certificate =
            Certificate::read(&self.file).map_err(|e| CliError::Failure(e.to_string()))?;
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
        let tables = if stones > 0 {
            Some(Tables::open(&board, rules, stones, &self.tables.tables)?)
        } else {
            None
        };
        let file = self.file.display().to_string();
        let report = match check(&certificate, tables.as_ref()) {
            Ok(confirmed) => CheckReport {
                file,
                holds: true,
                position: Some(format_position(&confirmed.board, &confirmed.root)),
                value: Some(confirmed.value.name()),
                positions: Some(confirmed.positions),
                table_leaves: Some(confirmed.table_leaves),
                rule_leaves: Some(confirmed.rule_leaves),
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
                reason: Some(why.0),
            },
        };
        if self.json {
            print_json(&report);
        } else if report.holds {
            println!(
                "{}: holds: {} is a {} for the side to move ({} strategy positions, {} table leaves, {} rule leaves)",
                report.file,
                report.position.as_deref().unwrap_or(""),
                report.value.unwrap_or(""),
                report.positions.unwrap_or(0),
                report.table_leaves.unwrap_or(0),
                report.rule_leaves.unwrap_or(0)
            );
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
