//! Each rule of SPEC.md §1 shown on a drawn 5x5 board (top rank first, files a–e left to right).

mod common;

use common::picture;
use fanorona_engine::{
    count_turns, format_position, format_turn, turns, Blocked, Board, Position, Rules, Value,
};

fn turn_names(board: &Board, position: &Position) -> Vec<String> {
    turns(board, position)
        .iter()
        .map(|t| format_turn(board, t))
        .collect()
}

fn result_of(board: &Board, position: &Position, notation: &str) -> String {
    let turn = turns(board, position)
        .into_iter()
        .find(|t| format_turn(board, t) == notation);
    format_position(
        board,
        &turn
            .unwrap_or_else(|| panic!("{notation} is not legal"))
            .result,
    )
}

#[test]
fn approach_takes_the_unbroken_run_ahead() {
    let (board, position) = picture(
        &[
            ". . W . .", //
            ". . B . .",
            ". . B . .",
            ". . . . .",
            ". . W . .",
        ],
        'w',
    );
    assert_eq!(turn_names(&board, &position), ["c1-c2A"]);
    // c3 and c4 go; the run stops at White's own stone on c5.
    assert_eq!(result_of(&board, &position, "c1-c2A"), "2W2/5/5/2W2/5 b");
}

#[test]
fn withdrawal_takes_the_unbroken_run_behind() {
    let (board, position) = picture(
        &[
            ". . . . .", //
            ". . . . .",
            ". . B . .",
            ". . W . .",
            ". . W . .",
        ],
        'b',
    );
    // Black on c3 steps away from c2 and takes c2 and c1.
    assert_eq!(turn_names(&board, &position), ["c3-c4W"]);
    assert_eq!(result_of(&board, &position, "c3-c4W"), "5/2B2/5/5/5 w");
}

#[test]
fn a_step_that_approaches_and_withdraws_is_two_turns() {
    let (board, position) = picture(
        &[
            ". . B . .", //
            ". . . . .",
            ". . W . .",
            ". . B . .",
            ". . B . .",
        ],
        'w',
    );
    assert_eq!(turn_names(&board, &position), ["c3-c4A", "c3-c4W"]);
    assert_eq!(result_of(&board, &position, "c3-c4A"), "5/2W2/5/2B2/2B2 b");
    assert_eq!(result_of(&board, &position, "c3-c4W"), "2B2/2W2/5/5/5 b");
}

#[test]
fn a_four_step_chain_may_stop_after_any_step() {
    let (board, position) = picture(
        &[
            ". . . . .", //
            ". B . . .",
            "B . . B .",
            ". . B . .",
            "W . . . .",
        ],
        'w',
    );
    let names = turn_names(&board, &position);
    for chain in [
        "a1-a2A",
        "a1-a2A-b2A",
        "a1-a2A-b2A-b3A",
        "a1-a2A-b2A-b3A-c3A",
    ] {
        assert!(
            names.contains(&chain.to_string()),
            "{chain} missing from {names:?}"
        );
    }
    assert_eq!(
        result_of(&board, &position, "a1-a2A-b2A-b3A-c3A"),
        "5/5/2W2/5/5 b"
    );
}

#[test]
fn a_chain_never_lands_where_it_has_been() {
    let (board, position) = picture(
        &[
            ". . . . .", //
            ". . . . .",
            ". B B . .",
            ". . . . .",
            "W . B . .",
        ],
        'w',
    );
    let names = turn_names(&board, &position);
    assert!(names.contains(&"a1-b2A-b1W".to_string()));
    // From b1, withdrawing from c1 would land on a1, where the turn started.
    assert!(
        !names.iter().any(|name| name.starts_with("a1-b2A-b1W-")),
        "{names:?}"
    );
    // The same step is legal for a stone that starts on b1.
    let (board, position) = picture(
        &[
            ". . . . .",
            ". . . . .",
            ". . . . .",
            ". . . . .",
            ". W B . .",
        ],
        'w',
    );
    assert!(turn_names(&board, &position).contains(&"b1-a1W".to_string()));
}

#[test]
fn a_chain_never_repeats_its_last_direction() {
    let (board, position) = picture(
        &[
            ". . . . .", //
            ". . . . .",
            ". . . . .",
            ". . . . .",
            "B W . . B",
        ],
        'w',
    );
    // After b1-c1W, c1-d1 would approach e1, but it is a second step east.
    assert_eq!(turn_names(&board, &position), ["b1-c1W"]);
}

#[test]
fn a_capture_forbids_every_paika() {
    let (board, position) = picture(
        &[
            "W . . . .", //
            ". . . . .",
            ". . B . .",
            ". . . . .",
            ". . W . .",
        ],
        'w',
    );
    assert_eq!(turn_names(&board, &position), ["c1-c2A", "a5-b4A"]);
    // Without a capture, paika are the turns.
    let (board, position) = picture(
        &[
            ". . . . B",
            ". . . . .",
            ". . . . .",
            ". . . . .",
            "W . . . .",
        ],
        'w',
    );
    assert_eq!(turn_names(&board, &position), ["a1-b1", "a1-a2", "a1-b2"]);
}

#[test]
fn a_blocked_side_to_move_loses_or_draws_by_rule() {
    let (board, position) = picture(
        &[
            ". . . . .",
            ". . . . .",
            ". . . . .",
            "B B . . .",
            "W B . . .",
        ],
        'w',
    );
    assert_eq!(count_turns(&board, &position), 0);
    assert_eq!(
        Rules::default().outcome(&board, &position),
        Some(Value::Loss)
    );
    assert_eq!(
        Rules {
            blocked: Blocked::Draw
        }
        .outcome(&board, &position),
        Some(Value::Draw)
    );
}

#[test]
fn a_side_without_stones_has_lost() {
    let (board, position) = picture(
        &[
            ". . . . .",
            ". . . . .",
            ". . B . .",
            ". . . . .",
            ". . . . .",
        ],
        'w',
    );
    assert_eq!(
        Rules::default().outcome(&board, &position),
        Some(Value::Loss)
    );
    // The same stones with Black to move: Black's opponent has none.
    let black_to_move = position.after(position.mover, position.waiting);
    assert_eq!(
        Rules::default().outcome(&board, &black_to_move),
        Some(Value::Win)
    );
    let start = Position::standard_start(&board);
    assert_eq!(Rules::default().outcome(&board, &start), None);
}
