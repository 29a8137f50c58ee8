//! The values-only builder against the byte builder: the same value in every slot.
//!
//! The byte builder's tables are checked against a brute-force solution (`brute_force.rs`) and
//! by `tables verify`; the values-only builder solves each system again over them (the smaller
//! materials probed for their values, as it does over value files) and must agree everywhere,
//! redundant slots included.

use fanorona_engine::{Blocked, Board, Rules};
use fanorona_solver::retrograde::values_only::solve_system_values;
use fanorona_solver::{Material, NoProgress, Tables};

/// Every system of 2 to `max_stones` stones on a rows x columns board, by both builders, the
/// values-only one with a frontier bit per position and per block of 8.
fn assert_builders_agree(rows: usize, columns: usize, max_stones: usize, blocked: Blocked) {
    for frontier_block in [1, 8] {
        assert_builders_agree_with(rows, columns, max_stones, blocked, frontier_block);
    }
}

fn assert_builders_agree_with(
    rows: usize,
    columns: usize,
    max_stones: usize,
    blocked: Blocked,
    frontier_block: u64,
) {
    let board = Board::new(rows, columns).unwrap();
    let rules = Rules { blocked };
    let tables = Tables::build(&board, rules, max_stones);
    let probe = |positions: &[_], out: &mut Vec<_>| {
        tables
            .probe_values(positions, out)
            .expect("smaller materials are in the tables")
    };
    let mut decided = 0;
    for stones in 2..=max_stones.min(board.points()) {
        for mover in (1..stones).filter(|&a| a <= stones - a) {
            let material = Material::new(mover, stones - mover);
            let solved = solve_system_values(
                &board,
                &rules,
                material,
                frontier_block,
                &probe,
                &NoProgress,
                None,
            );
            for solved in solved.expect("a build in memory neither saves nor stops") {
                let material = solved.index.material();
                let entries = tables.entries(material).expect("built in memory");
                for (i, (value, entry)) in solved.values().zip(entries).enumerate() {
                    assert_eq!(
                        value,
                        entry.value(),
                        "{rows}x{columns} {blocked:?} {}v{} slot {i}, frontier block {frontier_block}",
                        material.mover,
                        material.waiting
                    );
                    decided += u64::from(entry.distance().is_some());
                }
            }
        }
    }
    assert!(decided > 0, "{rows}x{columns}: nothing decided to compare");
}

#[test]
fn every_3x3_system_by_both_blocked_rules() {
    assert_builders_agree(3, 3, 9, Blocked::Loss);
    assert_builders_agree(3, 3, 9, Blocked::Draw);
}

#[test]
fn systems_of_3x5_and_5x3() {
    assert_builders_agree(3, 5, 6, Blocked::Loss);
    assert_builders_agree(5, 3, 5, Blocked::Draw);
}

#[test]
fn systems_of_5x5() {
    assert_builders_agree(5, 5, 5, Blocked::Loss);
}

/// The board of the game: four symmetries, redundant slots in the symmetric classes.
#[test]
fn smallest_5x9_systems() {
    assert_builders_agree(5, 9, 5, Blocked::Loss);
    assert_builders_agree_with(5, 9, 5, Blocked::Loss, 64);
}
