//! Harvesting the settled subtrees of a saved search as certificates, and taking them back in.

use fanorona_engine::{Board, Color, Position};
use fanorona_solver::harvest::{certificates_in, harvest, Harvest, HarvestRequest};
use fanorona_solver::taken::{
    checked_with_these_tables, out_of_reach, over_these_tables, taken_leaves,
};
use fanorona_solver::{check, solve, Certificate, Goal, Limits, Node, Outcome, SolveSetup, Tables};
use std::path::Path;

/// A search of "can White force a win?" from `board`'s start, with `nodes` and a 64 MiB table,
/// saving into `state` where given.
fn white_search<'a>(board: &'a Board, nodes: u64, state: Option<&'a Path>) -> SolveSetup<'a> {
    let limits = Limits {
        nodes,
        memory: 64 << 20,
        ..Limits::default()
    };
    SolveSetup {
        only: Some(Color::White),
        state,
        ..SolveSetup::new(board, None, limits)
    }
}

/// Stop White's search from `board`'s start after `nodes`, saved in `state`, and harvest the
/// positions it settled at a cost of at least `min_work` into `directory`.
fn stopped_and_harvested(
    board: &Board,
    nodes: u64,
    min_work: u64,
    state: &Path,
    directory: &Path,
) -> Harvest {
    let start = Position::standard_start(board);
    std::fs::create_dir_all(state).unwrap();
    let stopped = solve(&white_search(board, nodes, Some(state)), &start).unwrap();
    assert_eq!(stopped.mover_wins, Outcome::Unknown, "stopped unsettled");
    harvested_again(board, min_work, state, directory)
}

/// Harvest (again) White's search from `board`'s start saved in `state` into `directory`.
fn harvested_again(board: &Board, min_work: u64, state: &Path, directory: &Path) -> Harvest {
    let request = HarvestRequest {
        setup: white_search(board, 1_000_000, None),
        root: Position::standard_start(board),
        attacker: Color::White,
        state,
        min_work,
        directory,
    };
    harvest(&request, &mut |_| {}).unwrap()
}

/// The certificates in `directory`, read and checked as a search over `tables` takes them.
fn taken_from(directory: &Path, setup: &SolveSetup) -> Vec<Certificate> {
    let files = certificates_in(directory).unwrap();
    let certificates = files.iter().map(|file| Certificate::read(file).unwrap());
    certificates
        .map(|certificate| over_these_tables(setup, &certificate).unwrap())
        .collect()
}

/// 5x5 (a draw: White's search is disproven) and 3x7 (a White win: proven): each stopped
/// midway and harvested, then searched again from nothing with the harvest taken in. The
/// answer is the same, and the certificate read off, joined with the taken strategies it
/// reaches, holds.
#[test]
fn a_harvest_taken_back_gives_the_same_answer_with_a_certificate_that_holds() {
    for (rows, columns, nodes, min_work, wanted) in [
        (5, 5, 150_000, 2_000, Outcome::Disproven),
        (3, 7, 9_000, 20, Outcome::Proven),
    ] {
        let board = Board::new(rows, columns).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let (state, harvested) = (dir.path().join("state"), dir.path().join("harvest"));
        let harvest = stopped_and_harvested(&board, nodes, min_work, &state, &harvested);
        assert!(
            !harvest.written.is_empty(),
            "{rows}x{columns}: something settled"
        );
        assert!(harvest.failed.is_empty(), "{:?}", harvest.failed);
        assert_eq!(harvest.written.len() + harvest.inside, harvest.candidates);
        // Each file holds alone.
        for written in &harvest.written {
            let certificate = Certificate::read(&written.file).unwrap();
            assert_eq!(certificate.root, Node::of(&written.position));
            assert!(check(&certificate, None).is_ok());
        }
        let start = Position::standard_start(&board);
        let plain = white_search(&board, 5_000_000, None);
        let taken = taken_from(&harvested, &plain);
        let with_taken = SolveSetup {
            taken: &taken,
            ..plain
        };
        let solution = solve(&with_taken, &start).unwrap();
        assert_eq!(solution.mover_wins, wanted, "{rows}x{columns}");
        let certificate = solution.certificate.expect("a certificate");
        check(&certificate, None).expect("the joined certificate holds");
        // A second harvest of the same search writes nothing new: everything it would write
        // is there, or inside what is.
        let again = harvested_again(&board, min_work, &state, &harvested);
        assert!(again.written.is_empty());
        assert_eq!(again.kept_before, harvest.written.len());
    }
}

#[test]
fn a_certificate_that_does_not_hold_is_not_taken() {
    let board = Board::new(3, 7).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (state, harvested) = (dir.path().join("state"), dir.path().join("harvest"));
    let harvest = stopped_and_harvested(&board, 9_000, 20, &state, &harvested);
    let mut certificate = Certificate::read(&harvest.written[0].file).unwrap();
    // White's win claimed for Black instead.
    certificate.claims[0].strategist_is_white = false;
    let setup = white_search(&board, 1_000, None);
    let refused = over_these_tables(&setup, &certificate).unwrap_err();
    assert!(refused.to_string().contains("does not hold"), "{refused}");
    // One that says it was made over tables this search lacks is out of its reach, but taken
    // where it holds without them (this one never needed any).
    let mut over_tables = Certificate::read(&harvest.written[0].file).unwrap();
    over_tables.table_stones = 3;
    assert!(out_of_reach(&setup, &over_tables).is_some());
    assert!(over_these_tables(&setup, &over_tables).is_err());
    let taken = checked_with_these_tables(&setup, &over_tables).unwrap();
    assert_eq!(taken.table_stones, 0);
    // One of a larger board is refused for that.
    let other = Board::new(5, 5).unwrap();
    let refused = over_these_tables(&white_search(&other, 1_000, None), &certificate);
    assert!(refused.unwrap_err().to_string().contains("3x7"));
}

#[test]
fn a_taken_claim_settles_the_question_it_answers() {
    let board = Board::new(3, 3).unwrap();
    let start = Position::standard_start(&board);
    let tables: Option<&Tables> = None;
    let setup = SolveSetup::new(&board, tables, Limits::default());
    let claim = |white: bool, goal| fanorona_solver::Claim {
        strategist_is_white: white,
        goal,
        strategy: Vec::new(),
    };
    let mut certificate = Certificate::new(&board, setup.rules, 0, &[], &start);
    certificate.claims = vec![claim(true, Goal::Win)];
    let white_wins = [certificate.clone()];
    assert_eq!(
        taken_leaves(&white_wins, Color::White),
        vec![(start, Outcome::Proven)]
    );
    assert_eq!(
        taken_leaves(&white_wins, Color::Black),
        vec![(start, Outcome::Disproven)]
    );
    certificate.claims = vec![claim(true, Goal::NotLose)];
    let white_holds = [certificate];
    assert_eq!(taken_leaves(&white_holds, Color::White), vec![]);
    assert_eq!(
        taken_leaves(&white_holds, Color::Black),
        vec![(start, Outcome::Disproven)]
    );
}
