//! Property tests: symmetries commute with turn generation, notation round-trips, the three
//! visitors of the walker agree, and the parsers never panic.

mod common;

use common::{random_placement, random_position, Rng, BOARDS};
use fanorona_engine::{
    canonical, children, count_turns, format_position, format_turn, hash,
    movegen::{has_capture, most_capturing_first, paika_children, paika_predecessors},
    parse_position, parse_turn, symmetries, turns, Board, Direction, Position,
};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A board of SPEC.md §1 (or an extreme one) and a random position on it, from a seed.
fn board_and_position() -> impl Strategy<Value = (Board, Position)> {
    (0..BOARDS.len(), any::<u64>()).prop_map(|(board_index, seed)| {
        let (rows, columns) = BOARDS[board_index];
        let board = Board::new(rows, columns).unwrap();
        let position = random_position(&board, &mut Rng(seed));
        (board, position)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn symmetries_commute_with_turn_generation((board, position) in board_and_position()) {
        let original: Vec<_> = turns(&board, &position);
        for symmetry in symmetries(&board) {
            let mapped: BTreeSet<_> = original.iter().map(|turn| symmetry.turn(turn)).collect();
            let of_image: BTreeSet<_> = turns(&board, &symmetry.position(&position)).into_iter().collect();
            prop_assert_eq!(mapped, of_image, "symmetry {}", symmetry.name());
        }
    }

    #[test]
    fn canonical_form_is_shared_by_all_images((board, position) in board_and_position()) {
        let all = symmetries(&board);
        let (form, _) = canonical(&all, &position);
        for symmetry in &all {
            let (image_form, _) = canonical(&all, &symmetry.position(&position));
            prop_assert_eq!(image_form, form);
            prop_assert_eq!(hash(&image_form), hash(&form));
        }
    }

    #[test]
    fn notation_round_trips((board, position) in board_and_position()) {
        let fen = format_position(&board, &position);
        prop_assert_eq!(parse_position(&fen), Ok((board.clone(), position)));
        for turn in turns(&board, &position) {
            let text = format_turn(&board, &turn);
            prop_assert_eq!(parse_turn(&board, &position, &text), Ok(turn));
        }
    }

    #[test]
    fn counting_listing_and_children_agree((board, position) in board_and_position()) {
        let listed = turns(&board, &position);
        prop_assert_eq!(count_turns(&board, &position), listed.len() as u64);
        let distinct: BTreeSet<Position> = listed.iter().map(|turn| turn.result).collect();
        let mut generated = Vec::new();
        children(&board, &position, &mut generated);
        prop_assert_eq!(generated.len(), distinct.len());
        prop_assert_eq!(generated.into_iter().collect::<BTreeSet<_>>(), distinct);
    }

    #[test]
    fn paika_children_are_the_children_of_a_position_with_no_capture((board, position) in board_and_position()) {
        let mut all = Vec::new();
        children(&board, &position, &mut all);
        if !has_capture(&board, position.mover, position.waiting) {
            let mut paika = Vec::new();
            paika_children(&board, &position, &mut paika);
            prop_assert_eq!(paika, all);
        }
    }

    #[test]
    fn paika_un_moves_invert_paika_moves((board, position) in board_and_position()) {
        let mut predecessors = Vec::new();
        paika_predecessors(&board, &position, &mut predecessors);
        for before in &predecessors {
            let mut next = Vec::new();
            children(&board, before, &mut next);
            prop_assert!(next.contains(&position), "un-move not undone by a move");
            prop_assert!(turns(&board, before).iter().all(|turn| !turn.is_capture()));
        }
        let listed = turns(&board, &position);
        if listed.first().is_some_and(|turn| !turn.is_capture()) {
            for turn in &listed {
                let mut back = Vec::new();
                paika_predecessors(&board, &turn.result, &mut back);
                prop_assert!(back.contains(&position), "move not undone by an un-move");
            }
        }
    }

    #[test]
    fn the_child_that_captures_the_most_comes_first((board, position) in board_and_position()) {
        let mut kids = Vec::new();
        children(&board, &position, &mut kids);
        let mut ordered = kids.clone();
        most_capturing_first(&mut ordered);
        if let Some(first) = ordered.first() {
            let fewest = kids.iter().map(|kid| kid.mover.count()).min().unwrap();
            prop_assert_eq!(first.mover.count(), fewest);
        }
        if !has_capture(&board, position.mover, position.waiting) {
            prop_assert_eq!(&ordered, &kids, "paika children reordered");
        }
        let sorted = |mut list: Vec<Position>| {
            list.sort_by_key(|p| (p.mover.0, p.waiting.0));
            list
        };
        prop_assert_eq!(sorted(ordered), sorted(kids));
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,80}") {
        let _ = parse_position(&text);
    }

    #[test]
    fn position_parser_never_panics_on_near_misses(text in "[WB.0-9/ wbx]{0,70}") {
        if let Ok((board, position)) = parse_position(&text) {
            // What it accepts, it writes back to something it reads the same.
            prop_assert_eq!(parse_position(&format_position(&board, &position)), Ok((board, position)));
        }
    }

    #[test]
    fn turn_parser_never_panics(text in "[a-z0-9AW\\-]{0,20}|\\PC{0,20}") {
        let board = Board::standard();
        let _ = parse_turn(&board, &Position::standard_start(&board), &text);
    }
}

/// The un-moves of `position` by their definition: each stone of the side that just moved,
/// taken back one step to an empty point, where its side then had no capture.
fn predecessors_by_definition(board: &Board, position: &Position) -> Vec<Position> {
    let (mover, waiting) = (position.mover, position.waiting);
    let empty = board.all() & !(mover | waiting);
    let mut found = Vec::new();
    for dir in Direction::ALL {
        for to in (waiting & board.shift(empty, dir)).points() {
            let to = fanorona_engine::Bitboard::from_point(to);
            let before = waiting ^ to ^ board.pull(to, dir);
            if !has_capture(board, before, mover) {
                found.push(Position {
                    mover: before,
                    waiting: mover,
                    side: position.side.other(),
                });
            }
        }
    }
    found
}

/// Un-moves worked out for all stones at once (from where the stones could capture now) are
/// those of the definition, in the same order: on every board, from sparse to crowded.
#[test]
fn paika_predecessors_are_those_of_the_definition() {
    let mut rng = Rng(0x005e_ed0f_7ede);
    for &(rows, columns) in &BOARDS {
        let board = Board::new(rows, columns).unwrap();
        for _ in 0..4000 {
            let stones = 2 + rng.below(board.points() - 1);
            let white = 1 + rng.below(stones - 1);
            let position = random_placement(&board, &mut rng, white, stones - white);
            let mut fast = Vec::new();
            paika_predecessors(&board, &position, &mut fast);
            assert_eq!(
                fast,
                predecessors_by_definition(&board, &position),
                "{position:?}"
            );
        }
    }
}

/// On the 5x9 start the first child generated is not one that captures the most, so the
/// ordering above has something to do there.
#[test]
fn the_start_has_a_better_first_capture_than_the_first_generated() {
    let board = Board::standard();
    let start = Position::standard_start(&board);
    let mut kids = Vec::new();
    children(&board, &start, &mut kids);
    let fewest = kids.iter().map(|kid| kid.mover.count()).min().unwrap();
    assert!(kids[0].mover.count() > fewest);
    most_capturing_first(&mut kids);
    assert_eq!(kids[0].mover.count(), fewest);
}
