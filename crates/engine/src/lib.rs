//! The Fanorona engine: board geometry for every odd board, positions, turn generation with the
//! exact rules, notation, perft, symmetries and hashing.
//!
//! ```
//! use fanorona_engine::{parse_position, turns, format_turn};
//!
//! let (board, start) = parse_position("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w").unwrap();
//! let names: Vec<String> = turns(&board, &start).iter().map(|t| format_turn(&board, t)).collect();
//! // d3 both approaches f3 and withdraws from c3: two turns.
//! assert_eq!(names, ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"]);
//! ```
//!
//! Modules, each owning one thing:
//! - [`bitboard`]: sets of points as `u64` bits;
//! - [`geometry`]: a board size as data (points, strong points, lines, shifts);
//! - [`position`]: positions and the start positions;
//! - [`movegen`]: turns, counts and distinct children from one chain walker;
//! - [`notation`]: positions and turns as text, both ways;
//! - [`rules`]: game end and the blocked-side rule option;
//! - [`perft`], [`symmetry`], [`hash`], [`display`].

pub mod bitboard;
pub mod display;
pub mod geometry;
pub mod hash;
pub mod movegen;
pub mod notation;
pub mod perft;
pub mod position;
pub mod rules;
pub mod symmetry;

pub use bitboard::{Bitboard, Point};
pub use display::draw;
pub use geometry::{Board, Direction, SizeError};
pub use hash::hash;
pub use movegen::{children, count_turns, turns, Capture, Step, Turn};
pub use notation::{format_position, format_turn, parse_position, parse_turn, NotationError};
pub use perft::{divide, perft, perft_unique};
pub use position::{Color, Position, Start, LEFT_RIGHT_FEN};
pub use rules::{Blocked, Rules, Value};
pub use symmetry::{canonical, symmetries, RectangleImages, Symmetry};
