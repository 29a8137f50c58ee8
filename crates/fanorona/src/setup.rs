//! Choosing the position a command works on: `--board`, `--start` or `--position`.

use crate::output::CliError;
use clap::{Args, ValueEnum};
use fanorona_engine::{parse_position, Blocked, Board, Position, Rules, Start};
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum)]
pub enum StartName {
    /// The traditional start, on every board.
    Standard,
    /// The 5x9 left-right start (the open problem).
    LeftRight,
}

/// Where a command starts: a named start on a board, or any position.
#[derive(Args)]
pub struct PositionArgs {
    /// Board size, rows x columns (odd, at least 3x3, at most 64 points).
    #[arg(
        long,
        value_name = "RxC",
        default_value = "5x9",
        conflicts_with = "position"
    )]
    board: String,
    /// Named start position on that board.
    #[arg(
        long,
        value_enum,
        default_value = "standard",
        conflicts_with = "position"
    )]
    start: StartName,
    /// Any position in notation, e.g. "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w" (its size is the board's).
    #[arg(long, value_name = "FEN")]
    position: Option<String>,
}

impl PositionArgs {
    pub fn resolve(&self) -> Result<(Board, Position), CliError> {
        if let Some(text) = &self.position {
            return Ok(parse_position(text)?);
        }
        let board = Board::parse_size(&self.board).map_err(CliError::Input)?;
        let start = match self.start {
            StartName::Standard => Start::Standard,
            StartName::LeftRight => Start::LeftRight,
        };
        let position = start.position(&board).map_err(CliError::Input)?;
        Ok((board, position))
    }
}

#[derive(Clone, Copy, ValueEnum)]
pub enum BlockedRule {
    /// A side to move with stones but no legal turn has lost.
    Loss,
    /// ... or the game is drawn.
    Draw,
}

/// Where the tables are and which rules they are for.
#[derive(Args)]
pub struct TableArgs {
    /// Directory of the table files.
    #[arg(long, value_name = "DIR", default_value = "tables")]
    pub tables: PathBuf,
    /// What a blocked side to move gets (SPEC.md §1).
    #[arg(long, value_enum, default_value = "loss")]
    blocked: BlockedRule,
}

impl TableArgs {
    pub fn rules(&self) -> Rules {
        let blocked = match self.blocked {
            BlockedRule::Loss => Blocked::Loss,
            BlockedRule::Draw => Blocked::Draw,
        };
        Rules { blocked }
    }
}
