//! `fanorona moves`: every legal turn of a position, with the position it leads to.

use crate::output::{notation_width, print_json, CliError};
use crate::setup::PositionArgs;
use clap::Args;
use fanorona_engine::{format_position, format_turn, turns, Rules};
use serde::Serialize;

/// List every legal turn of a position.
#[derive(Args)]
pub struct MovesArgs {
    #[command(flatten)]
    setup: PositionArgs,
    /// Print one JSON document: {"position":FEN,"turns":[{"notation","result"},…]}.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct MovesReport {
    position: String,
    turns: Vec<TurnLine>,
}

#[derive(Serialize)]
struct TurnLine {
    notation: String,
    result: String,
}

impl MovesArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = self.setup.resolve()?;
        let report = MovesReport {
            position: format_position(&board, &position),
            turns: turns(&board, &position)
                .iter()
                .map(|turn| TurnLine {
                    notation: format_turn(&board, turn),
                    result: format_position(&board, &turn.result),
                })
                .collect(),
        };
        if self.json {
            print_json(&report);
            return Ok(());
        }
        let width = notation_width(report.turns.iter().map(|t| t.notation.as_str()));
        for turn in &report.turns {
            println!("{:<width$}  {}", turn.notation, turn.result);
        }
        let count = report.turns.len();
        println!("{count} turn{}", if count == 1 { "" } else { "s" });
        if let Some(value) = Rules::default().outcome(&board, &position) {
            println!("game over: {} for the side to move", value.name());
        }
        Ok(())
    }
}
