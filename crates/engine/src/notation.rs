//! Notation of SPEC.md §2, both ways: positions (`BBBBBBBBB/…/WWWWWWWWW w`) and turns
//! (`d3-e3A`, `c3-d4W-e4A`, `e2-e3`).
//!
//! Parsers return a [`NotationError`] that names what is wrong; they never panic.

use crate::bitboard::{Bitboard, Point};
use crate::geometry::{Board, SizeError, MAX_POINTS};
use crate::movegen::{turns, Capture, Step, Turn};
use crate::position::{Color, Position};
use std::fmt;

/// What is wrong with a position or turn written in notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is empty.
    Empty,
    /// No side to move after the ranks.
    MissingSide,
    /// The side to move is not `w` or `b`.
    BadSide(String),
    /// More than ranks and side to move.
    TrailingText(String),
    /// A character that is not `W`, `B`, a digit or `.`, in the given rank (counted from the top).
    BadCharacter { rank: usize, character: char },
    /// An empty-run count of zero, in the given rank.
    ZeroRun { rank: usize },
    /// A rank of another width than the first one.
    RaggedRank {
        rank: usize,
        width: usize,
        expected: usize,
    },
    /// A board size the engine does not support.
    Size(SizeError),
    /// A turn that is not written as origin, then `-point` steps with `A`/`W`.
    BadTurnSyntax(String),
    /// A point name that is not on this board.
    BadPoint(String),
    /// A well-formed turn that the rules do not allow here.
    IllegalTurn(String),
    /// A board without a stone: play never leaves one (the last capture leaves the capturer's
    /// stones), so it has no value to give.
    NoStones,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotationError::*;
        match self {
            Empty => write!(f, "the position is empty"),
            MissingSide => write!(f, "the position has no side to move: add ' w' or ' b' after the ranks"),
            BadSide(side) => write!(f, "the side to move is '{side}', it must be 'w' or 'b'"),
            TrailingText(text) => write!(f, "unexpected text '{text}' after the side to move"),
            BadCharacter { rank, character } => write!(
                f,
                "rank {rank} (from the top) has the character {character:?}; only W, B, digits and . are allowed"
            ),
            ZeroRun { rank } => write!(f, "rank {rank} (from the top) has an empty run of length 0"),
            RaggedRank { rank, width, expected } => write!(
                f,
                "rank {rank} (from the top) has {width} points but the first rank has {expected}"
            ),
            Size(error) => write!(f, "{error}"),
            BadTurnSyntax(text) => write!(
                f,
                "'{text}' is not a turn: write the origin, then '-' and the destination of each step, with A (approach) or W (withdrawal) after a capture, e.g. d3-e3A"
            ),
            BadPoint(name) => write!(f, "'{name}' is not a point of this board"),
            IllegalTurn(text) => write!(f, "'{text}' is not a legal turn in this position"),
            NoStones => write!(f, "the position has no stones: play always leaves one side some"),
        }
    }
}

impl std::error::Error for NotationError {}

/// Parse a position; the board size follows from the text.
pub fn parse_position(text: &str) -> Result<(Board, Position), NotationError> {
    let mut fields = text.split_whitespace();
    let ranks_text = fields.next().ok_or(NotationError::Empty)?;
    let side = match fields.next() {
        None => return Err(NotationError::MissingSide),
        Some("w") => Color::White,
        Some("b") => Color::Black,
        Some(other) => return Err(NotationError::BadSide(other.to_string())),
    };
    if let Some(extra) = fields.next() {
        return Err(NotationError::TrailingText(extra.to_string()));
    }
    let ranks = ranks_text
        .split('/')
        .enumerate()
        .map(|(i, rank)| parse_rank(i + 1, rank))
        .collect::<Result<Vec<_>, _>>()?;
    let columns = ranks[0].len();
    if let Some((i, rank)) = ranks
        .iter()
        .enumerate()
        .find(|(_, rank)| rank.len() != columns)
    {
        return Err(NotationError::RaggedRank {
            rank: i + 1,
            width: rank.len(),
            expected: columns,
        });
    }
    let board = Board::new(ranks.len(), columns).map_err(NotationError::Size)?;
    let (white, black) = place_stones(&board, &ranks);
    if white.is_empty() && black.is_empty() {
        return Err(NotationError::NoStones);
    }
    Ok((board, Position::from_colors(white, black, side)))
}

/// One rank's points from file a: `Some(colour)` or `None` for empty.
fn parse_rank(rank: usize, text: &str) -> Result<Vec<Option<Color>>, NotationError> {
    let mut points = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(character) = chars.next() {
        match character {
            'W' => points.push(Some(Color::White)),
            'B' => points.push(Some(Color::Black)),
            '.' => points.push(None),
            '0'..='9' => {
                let mut run = character.to_digit(10).unwrap_or(0) as usize;
                while let Some(digit) = chars.peek().and_then(|c| c.to_digit(10)) {
                    // Capped: anything wider than the widest board is refused by the size check.
                    run = (run * 10 + digit as usize).min(MAX_POINTS + 1);
                    chars.next();
                }
                if run == 0 {
                    return Err(NotationError::ZeroRun { rank });
                }
                points.resize(points.len() + run, None);
            }
            _ => return Err(NotationError::BadCharacter { rank, character }),
        }
    }
    Ok(points)
}

/// The stones of each colour, from ranks listed top first.
fn place_stones(board: &Board, ranks: &[Vec<Option<Color>>]) -> (Bitboard, Bitboard) {
    let mut white = Bitboard::EMPTY;
    let mut black = Bitboard::EMPTY;
    for (from_top, rank) in ranks.iter().enumerate() {
        for (file, stone) in rank.iter().enumerate() {
            let point = board.point(file, board.rows() - 1 - from_top);
            match stone {
                Some(Color::White) => white = white.with(point),
                Some(Color::Black) => black = black.with(point),
                None => {}
            }
        }
    }
    (white, black)
}

/// Write a position: ranks from the top, digits for empty runs, then the side to move.
pub fn format_position(board: &Board, position: &Position) -> String {
    let mut text = String::new();
    for rank in (0..board.rows()).rev() {
        let mut empty_run = 0;
        for file in 0..board.columns() {
            let point = board.point(file, rank);
            match stone_at(position, point) {
                None => empty_run += 1,
                Some(color) => {
                    push_run(&mut text, &mut empty_run);
                    text.push(color.stone());
                }
            }
        }
        push_run(&mut text, &mut empty_run);
        if rank > 0 {
            text.push('/');
        }
    }
    text.push(' ');
    text.push(position.side.letter());
    text
}

fn push_run(text: &mut String, run: &mut usize) {
    if *run > 0 {
        text.push_str(&run.to_string());
        *run = 0;
    }
}

/// The colour of the stone on `point`, if any.
pub fn stone_at(position: &Position, point: Point) -> Option<Color> {
    if position.white().contains(point) {
        Some(Color::White)
    } else if position.black().contains(point) {
        Some(Color::Black)
    } else {
        None
    }
}

/// Write a turn: origin, then `-destination` per step with `A` or `W` on a capture.
pub fn format_turn(board: &Board, turn: &Turn) -> String {
    let mut text = board.point_name(turn.origin);
    for step in &turn.steps {
        text.push('-');
        text.push_str(&board.point_name(step.to));
        match step.capture {
            Capture::Approach => text.push('A'),
            Capture::Withdrawal => text.push('W'),
            Capture::None => {}
        }
    }
    text
}

/// Read a turn and find it among the legal turns of `position`.
pub fn parse_turn(board: &Board, position: &Position, text: &str) -> Result<Turn, NotationError> {
    let (origin, steps) = parse_turn_syntax(board, text.trim())?;
    turns(board, position)
        .into_iter()
        .find(|turn| turn.origin == origin && turn.steps == steps)
        .ok_or_else(|| NotationError::IllegalTurn(text.trim().to_string()))
}

/// The origin and steps written in `text`, without checking the rules.
fn parse_turn_syntax(board: &Board, text: &str) -> Result<(Point, Vec<Step>), NotationError> {
    let syntax_error = || NotationError::BadTurnSyntax(text.to_string());
    let mut parts = text.split('-');
    let origin = parse_turn_point(board, parts.next().ok_or_else(syntax_error)?)?;
    let mut steps = Vec::new();
    for part in parts {
        let (name, capture) = match part.as_bytes().last() {
            Some(b'A') => (&part[..part.len() - 1], Capture::Approach),
            Some(b'W') => (&part[..part.len() - 1], Capture::Withdrawal),
            Some(_) => (part, Capture::None),
            None => return Err(syntax_error()),
        };
        steps.push(Step {
            to: parse_turn_point(board, name)?,
            capture,
        });
    }
    if steps.is_empty() {
        return Err(syntax_error());
    }
    Ok((origin, steps))
}

fn parse_turn_point(board: &Board, name: &str) -> Result<Point, NotationError> {
    board
        .parse_point(name)
        .ok_or_else(|| NotationError::BadPoint(name.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let fen = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
        let (board, position) = parse_position(fen).unwrap();
        assert_eq!((board.rows(), board.columns()), (5, 9));
        assert_eq!(position.white().count(), 22);
        assert_eq!(position.black().count(), 22);
        assert_eq!(format_position(&board, &position), fen);
    }

    #[test]
    fn dots_and_digits_mean_the_same() {
        let (_, dotted) = parse_position("B.W/.../W.B b").unwrap();
        let (_, counted) = parse_position("B1W/3/W1B b").unwrap();
        assert_eq!(dotted, counted);
    }

    #[test]
    fn bad_positions_are_named() {
        use NotationError::*;
        assert_eq!(parse_position(""), Err(Empty));
        assert_eq!(parse_position("BBB/B1W/WWW"), Err(MissingSide));
        assert_eq!(parse_position("BBB/B1W/WWW x"), Err(BadSide("x".into())));
        assert_eq!(
            parse_position("BBB/B1W/WWW w 3"),
            Err(TrailingText("3".into()))
        );
        assert_eq!(
            parse_position("BBB/BxW/WWW w"),
            Err(BadCharacter {
                rank: 2,
                character: 'x'
            })
        );
        assert_eq!(parse_position("BBB/B0W/WWW w"), Err(ZeroRun { rank: 2 }));
        assert_eq!(parse_position("3/3/3 w"), Err(NoStones));
        assert_eq!(parse_position("9/9/9/9/9 b"), Err(NoStones));
        // One side without stones is the end of a game: read as written.
        assert!(parse_position("3/1W1/3 b").is_ok());
        assert_eq!(
            parse_position("BBB/BW/WWW w"),
            Err(RaggedRank {
                rank: 2,
                width: 2,
                expected: 3
            })
        );
        assert!(matches!(
            parse_position("BBBB/BBBB/WWWW w"),
            Err(Size(SizeError::Even { .. }))
        ));
        assert!(matches!(
            parse_position("BBB w"),
            Err(Size(SizeError::TooSmall { .. }))
        ));
    }

    /// Boards past nine files or ranks: files beyond `i`, two-digit ranks, and runs of ten or
    /// more empty points written as one number.
    #[test]
    fn long_boards_round_trip_with_wide_files_long_runs_and_two_digit_ranks() {
        let (wide, position) = parse_position("W12/13/12B w").unwrap();
        assert_eq!((wide.rows(), wide.columns()), (3, 13));
        assert_eq!(format_position(&wide, &position), "W12/13/12B w");
        assert_eq!(wide.parse_point("m1"), Some(12));
        assert_eq!(wide.point_name(12), "m1");
        assert_eq!(stone_at(&position, 12), Some(Color::Black));
        assert_eq!(wide.parse_point("n1"), None);

        let tall_fen = "3/1B1/3/3/3/3/3/3/3/1W1/3 b";
        let (tall, position) = parse_position(tall_fen).unwrap();
        assert_eq!((tall.rows(), tall.columns()), (11, 3));
        assert_eq!(format_position(&tall, &position), tall_fen);
        let names: Vec<String> = turns(&tall, &position)
            .iter()
            .map(|turn| format_turn(&tall, turn))
            .collect();
        for expected in ["b10-b11", "b10-a11", "b10-b9", "b10-c9"] {
            assert!(
                names.iter().any(|name| name == expected),
                "{expected} in {names:?}"
            );
        }
        for (turn, name) in turns(&tall, &position).iter().zip(&names) {
            assert_eq!(parse_turn(&tall, &position, name).as_ref(), Ok(turn));
        }
        assert_eq!(tall.parse_point("c12"), None);
    }

    #[test]
    fn turns_round_trip_and_illegal_ones_are_refused() {
        let (board, start) =
            parse_position("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w").unwrap();
        for turn in turns(&board, &start) {
            let text = format_turn(&board, &turn);
            assert_eq!(parse_turn(&board, &start, &text).unwrap(), turn);
        }
        assert_eq!(
            parse_turn(&board, &start, "e2-e3"),
            Err(NotationError::IllegalTurn("e2-e3".into()))
        );
        assert_eq!(
            parse_turn(&board, &start, "z9-e3A"),
            Err(NotationError::BadPoint("z9".into()))
        );
        assert_eq!(
            parse_turn(&board, &start, "d3"),
            Err(NotationError::BadTurnSyntax("d3".into()))
        );
        assert_eq!(
            parse_turn(&board, &start, "d3-"),
            Err(NotationError::BadTurnSyntax("d3-".into()))
        );
    }
}
