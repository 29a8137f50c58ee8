//! `fanorona show`: the board drawn with its lines and stones.

use crate::output::{print_json, CliError};
use crate::setup::PositionArgs;
use clap::Args;
use fanorona_engine::{draw, format_position, Board, Color, Position};
use serde::Serialize;

/// Draw a position for a person.
#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    setup: PositionArgs,
    /// Print one JSON document with the position, its stones and the drawing.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct ShowReport {
    position: String,
    board: String,
    side_to_move: &'static str,
    white: Vec<String>,
    black: Vec<String>,
    drawing: String,
}

impl ShowArgs {
    pub fn run(&self) -> Result<(), CliError> {
        let (board, position) = self.setup.resolve()?;
        let drawing = draw(&board, &position);
        if !self.json {
            print!("{drawing}");
            return Ok(());
        }
        print_json(&ShowReport {
            position: format_position(&board, &position),
            board: board.size_name(),
            side_to_move: position.side.name(),
            white: point_names(&board, &position, Color::White),
            black: point_names(&board, &position, Color::Black),
            drawing,
        });
        Ok(())
    }
}

fn point_names(board: &Board, position: &Position, color: Color) -> Vec<String> {
    position
        .stones(color)
        .points()
        .map(|point| board.point_name(point))
        .collect()
}
