//! The board drawn for a person: stones on the points, the lines between them, coordinates.
//!
//! ```text
//! 5  B---B---B---B---B---B---B---B---B
//!    | \ | / | \ | / | \ | / | \ | / |
//! 4  B---B---B---B---B---B---B---B---B
//! ```

use crate::geometry::Board;
use crate::notation::stone_at;
use crate::position::{Color, Position};

/// The board with its lines and stones, rank 1 at the bottom, then the side to move.
pub fn draw(board: &Board, position: &Position) -> String {
    let label_width = board.rows().to_string().len();
    let mut lines = Vec::new();
    for rank in (0..board.rows()).rev() {
        lines.push(format!(
            "{:>label_width$}  {}",
            rank + 1,
            point_row(board, position, rank)
        ));
        if rank > 0 {
            lines.push(format!(
                "{:>label_width$}  {}",
                "",
                link_row(board, rank - 1)
            ));
        }
    }
    let files: Vec<String> = (0..board.columns())
        .map(|file| ((b'a' + file as u8) as char).to_string())
        .collect();
    lines.push(format!("{:>label_width$}  {}", "", files.join("   ")));
    let side = match position.side {
        Color::White => "White",
        Color::Black => "Black",
    };
    lines.push(format!("{side} to move"));
    lines.join("\n") + "\n"
}

/// The stones of one rank joined by horizontal lines: `B---W---.`.
fn point_row(board: &Board, position: &Position, rank: usize) -> String {
    let symbols: Vec<String> = (0..board.columns())
        .map(|file| match stone_at(position, board.point(file, rank)) {
            Some(color) => color.stone().to_string(),
            None => ".".to_string(),
        })
        .collect();
    symbols.join("---")
}

/// The vertical and diagonal lines between rank `below` and the rank above it: `| \ | / |`.
/// A diagonal leaves each strong point, so a cell whose lower-left corner is strong holds `/`.
fn link_row(board: &Board, below: usize) -> String {
    let mut row = String::from("|");
    for file in 0..board.columns() - 1 {
        row.push_str(if board.is_strong(board.point(file, below)) {
            " / |"
        } else {
            " \\ |"
        });
    }
    row
}
