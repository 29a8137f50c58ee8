//! The tables against a brute-force solution of the explicit game graph.
//!
//! Written separately from the solver, sharing only the move generator: every position of up
//! to N stones is a node, its distinct children are its edges, and values are found ply by ply:
//! won in k if some child is lost in k − 1, lost in k if every child is won in at most k − 1
//! (and one in exactly k − 1). Blocked positions (no children) are lost in 0 or drawn, by rule;
//! a side without stones has lost. What is never decided is a draw.

use fanorona_engine::{children, Bitboard, Blocked, Board, Color, Position, Rules, Value};
use fanorona_solver::Tables;
use std::collections::HashMap;

type Node = (u64, u64); // (stones of the side to move, stones of the side waiting)

/// Value and distance (None for a draw) of every node with 1..=max stones a side, ≤ max total.
fn brute_force(
    board: &Board,
    blocked: Blocked,
    max_stones: usize,
) -> HashMap<Node, (Value, Option<u32>)> {
    let nodes = all_nodes(board.points(), max_stones);
    let edges: HashMap<Node, Vec<Node>> = nodes
        .iter()
        .map(|&(mover, waiting)| {
            let position = Position {
                mover: Bitboard(mover),
                waiting: Bitboard(waiting),
                side: Color::White,
            };
            let mut next = Vec::new();
            children(board, &position, &mut next);
            (
                (mover, waiting),
                next.iter()
                    .map(|child| (child.mover.0, child.waiting.0))
                    .collect(),
            )
        })
        .collect();
    let mut known: HashMap<Node, (Value, Option<u32>)> = HashMap::new();
    for (&node, next) in &edges {
        if next.is_empty() {
            let value = if blocked == Blocked::Loss {
                (Value::Loss, Some(0))
            } else {
                (Value::Draw, None)
            };
            known.insert(node, value);
        }
    }
    // A child whose side to move has no stones is lost in 0 (it is not a node).
    let value_of = |known: &HashMap<Node, (Value, Option<u32>)>,
                    child: &Node|
     -> Option<(Value, Option<u32>)> {
        if child.0 == 0 {
            Some((Value::Loss, Some(0)))
        } else {
            known.get(child).copied()
        }
    };
    for k in 1.. {
        let mut decided = Vec::new();
        for (&node, next) in &edges {
            if known.contains_key(&node) {
                continue;
            }
            let values: Vec<_> = next.iter().map(|child| value_of(&known, child)).collect();
            let wins_now = values
                .iter()
                .any(|v| *v == Some((Value::Loss, Some(k - 1))));
            let all_won_by_now = values
                .iter()
                .all(|v| matches!(v, Some((Value::Win, Some(d))) if *d < k));
            if wins_now {
                decided.push((node, (Value::Win, Some(k))));
            } else if all_won_by_now {
                decided.push((node, (Value::Loss, Some(k))));
            }
        }
        if decided.is_empty() {
            break;
        }
        known.extend(decided);
    }
    nodes
        .into_iter()
        .map(|node| {
            (
                node,
                known.get(&node).copied().unwrap_or((Value::Draw, None)),
            )
        })
        .collect()
}

/// Every (mover, waiting) with at least one stone each and at most `max` stones in all.
fn all_nodes(points: usize, max: usize) -> Vec<Node> {
    let mut nodes = Vec::new();
    fn place(
        point: usize,
        points: usize,
        max: usize,
        mover: u64,
        waiting: u64,
        nodes: &mut Vec<Node>,
    ) {
        let stones = (mover | waiting).count_ones() as usize;
        if point == points {
            if mover != 0 && waiting != 0 {
                nodes.push((mover, waiting));
            }
            return;
        }
        place(point + 1, points, max, mover, waiting, nodes);
        if stones < max {
            place(point + 1, points, max, mover | 1 << point, waiting, nodes);
            place(point + 1, points, max, mover, waiting | 1 << point, nodes);
        }
    }
    place(0, points, max, 0, 0, &mut nodes);
    nodes
}

fn assert_tables_match(rows: usize, columns: usize, max_stones: usize, blocked: Blocked) {
    let board = Board::new(rows, columns).unwrap();
    let tables = Tables::build(&board, Rules { blocked }, max_stones);
    let expected = brute_force(&board, blocked, max_stones);
    assert!(!expected.is_empty());
    for (&(mover, waiting), &(value, distance)) in &expected {
        let position = Position {
            mover: Bitboard(mover),
            waiting: Bitboard(waiting),
            side: Color::White,
        };
        let entry = tables.probe(&position).unwrap();
        assert_eq!(
            (entry.value(), entry.distance().map(u32::from)),
            (value, distance),
            "{rows}x{columns} {}",
            fanorona_engine::format_position(&board, &position)
        );
    }
}

#[test]
fn every_3x3_position_by_both_blocked_rules() {
    assert_tables_match(3, 3, 9, Blocked::Loss);
    assert_tables_match(3, 3, 9, Blocked::Draw);
}

#[test]
fn small_3x5_and_5x3_positions() {
    assert_tables_match(3, 5, 4, Blocked::Loss);
    assert_tables_match(5, 3, 4, Blocked::Loss);
}

#[test]
fn smallest_5x9_materials() {
    assert_tables_match(5, 9, 3, Blocked::Loss);
}

/// The largest boards (63 of the 64 points a bitboard holds): indexing, symmetries and the
/// edges of long files and ranks.
#[test]
fn smallest_materials_on_the_largest_boards() {
    assert_tables_match(3, 21, 3, Blocked::Loss);
    assert_tables_match(21, 3, 3, Blocked::Loss);
    assert_tables_match(7, 9, 3, Blocked::Loss);
}
