//! The end of the game, and the one rule that varies: what a blocked side to move gets.

use crate::geometry::Board;
use crate::movegen::has_turn;
use crate::position::Position;

/// A game value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Value {
    Loss,
    Draw,
    Win,
}

impl Value {
    /// The value for the other side.
    pub const fn flip(self) -> Value {
        match self {
            Value::Loss => Value::Win,
            Value::Draw => Value::Draw,
            Value::Win => Value::Loss,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Value::Loss => "loss",
            Value::Draw => "draw",
            Value::Win => "win",
        }
    }
}

/// What a side to move with stones but no legal turn gets (SPEC.md §1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Blocked {
    /// It has lost (the default).
    #[default]
    Loss,
    /// The game is drawn, so the effect of the rule can be measured.
    Draw,
}

/// The rule options of a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Rules {
    pub blocked: Blocked,
}

impl Rules {
    /// The value for the side to move if the game is over in `position`, else `None`.
    /// A side without stones has lost; a side to move without a legal turn is blocked.
    pub fn outcome(&self, board: &Board, position: &Position) -> Option<Value> {
        if position.mover.is_empty() {
            return Some(Value::Loss);
        }
        if position.waiting.is_empty() {
            return Some(Value::Win);
        }
        if !has_turn(board, position.mover, position.waiting) {
            return Some(match self.blocked {
                Blocked::Loss => Value::Loss,
                Blocked::Draw => Value::Draw,
            });
        }
        None
    }
}
