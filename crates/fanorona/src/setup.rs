//! Choosing the position a command works on (`--board`, `--start` or `--position`), and the
//! tables (`--tables`, `--blocked`, materials).

use crate::output::CliError;
use clap::{Args, ValueEnum};
use fanorona_engine::{
    format_position, parse_position, parse_turn, Blocked, Board, Position, Rules, Start,
};
use fanorona_solver::Material;
use std::path::{Path, PathBuf};

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
    /// Then play these turns, in notation and separated by spaces: the command works on the
    /// position they lead to, e.g. `--after "e2-e3A f4-e5W"` from the 5x9 start.
    #[arg(long, value_name = "TURNS")]
    after: Option<String>,
}

impl PositionArgs {
    pub fn resolve(&self) -> Result<(Board, Position), CliError> {
        let (board, position) = self.resolve_start()?;
        let position = match &self.after {
            Some(turns) => play_turns(&board, position, turns, "--after")?,
            None => position,
        };
        Ok((board, position))
    }

    /// The position before `--after`'s turns.
    fn resolve_start(&self) -> Result<(Board, Position), CliError> {
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

/// The position that `turns` (in notation, separated by spaces) lead to from `position`. A
/// turn that is not legal where it is played is refused, named with the turns before it and
/// the position it was tried in; so is a text without any turn. `option` names the
/// command-line option in the message.
pub fn play_turns(
    board: &Board,
    mut position: Position,
    turns: &str,
    option: &str,
) -> Result<Position, CliError> {
    let mut played = Vec::new();
    for text in turns.split_whitespace() {
        let turn = parse_turn(board, &position, text).map_err(|e| {
            let at = format_position(board, &position);
            let before = match played.is_empty() {
                true => String::new(),
                false => format!("after {}, ", played.join(" ")),
            };
            CliError::Input(format!("{option}: {e} ({before}at {at})"))
        })?;
        played.push(text);
        position = turn.result;
    }
    if played.is_empty() {
        return Err(CliError::Input(format!("{option}: no turns")));
    }
    Ok(position)
}

#[derive(Clone, Copy, ValueEnum)]
pub enum BlockedRule {
    /// A side to move with stones but no legal turn has lost.
    Loss,
    /// ... or the game is drawn.
    Draw,
}

/// The table directory where `--tables` names none.
const DEFAULT_TABLES: &str = "tables";

/// Where the tables are and which rules they are for.
#[derive(Args)]
pub struct TableArgs {
    /// Directory of the table files [default: tables].
    #[arg(long = "tables", value_name = "DIR")]
    named: Option<PathBuf>,
    /// What a blocked side to move gets (SPEC.md §1).
    #[arg(long, value_enum, default_value = "loss")]
    blocked: BlockedRule,
}

impl TableArgs {
    /// The directory of the table files: the one named with --tables, else `tables`.
    pub fn directory(&self) -> &Path {
        self.named.as_deref().unwrap_or(Path::new(DEFAULT_TABLES))
    }

    /// Whether --tables named the directory.
    pub fn is_named(&self) -> bool {
        self.named.is_some()
    }

    /// The directory to search with the tables found there: one named with --tables must
    /// exist (a mistyped path is refused, not searched without tables); the default one may
    /// be missing, for a search without tables.
    pub fn searched_directory(&self) -> Result<&Path, String> {
        match &self.named {
            Some(named) if !named.is_dir() => {
                Err(format!("--tables {}: no such directory", named.display()))
            }
            _ => Ok(self.directory()),
        }
    }

    pub fn rules(&self) -> Rules {
        let blocked = match self.blocked {
            BlockedRule::Loss => Blocked::Loss,
            BlockedRule::Draw => Blocked::Draw,
        };
        Rules { blocked }
    }
}

/// `4v4`: stones to move, `v`, stones waiting, each at least one.
pub fn parse_material(text: &str) -> Result<Material, String> {
    let counts = text
        .split_once('v')
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .filter(|&(a, b)| a >= 1 && b >= 1);
    match counts {
        Some((a, b)) => Ok(Material::new(a, b)),
        None => Err(format!(
            "{text:?} is not a material: write stones to move, v, stones waiting, e.g. 4v4"
        )),
    }
}
