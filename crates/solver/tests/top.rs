//! A search's top: its costliest slots, saved small, and a search that starts from it; a
//! search that starts from another position's saved search.

use fanorona_engine::{Board, Color, Position, Rules};
use fanorona_solver::{saved_search, solve, write_top, Limits, Outcome, SolveSetup};
use std::path::Path;

/// "Can White force a win?" from the 5x5 start, saving into `state`, starting from the top in
/// `from_top` where `state` holds nothing.
fn white_search<'a>(
    board: &'a Board,
    nodes: u64,
    state: &'a Path,
    from_top: Option<&'a Path>,
) -> SolveSetup<'a> {
    let limits = Limits {
        nodes,
        memory: 16 << 20,
        ..Limits::default()
    };
    SolveSetup {
        only: Some(Color::White),
        state: Some(state),
        from_top,
        certificate: true,
        ..SolveSetup::new(board, None, limits)
    }
}

#[test]
fn a_search_goes_on_from_its_top_where_its_saved_state_is_lost() {
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let dir = tempfile::tempdir().unwrap();
    let (state, top, lost) = (
        dir.path().join("s"),
        dir.path().join("t"),
        dir.path().join("l"),
    );
    for directory in [&state, &lost] {
        std::fs::create_dir_all(directory).unwrap();
    }
    let stopped = solve(&white_search(&board, 100_000, &state, None), &start).unwrap();
    assert_eq!(stopped.mover_wins, Outcome::Unknown);
    let rules = Rules::default();
    let (file, kept, nodes) = write_top(&board, rules, &start, Color::White, &state, &top, 500)
        .unwrap()
        .expect("a saved search");
    assert_eq!(nodes, 100_001);
    assert!(
        (480..=500).contains(&kept),
        "{kept}: few find their bucket full"
    );
    // 2048 slots (the power of two above four times 500) of 32 bytes after a 25-byte header,
    // no held set.
    assert_eq!(std::fs::metadata(&file).unwrap().len(), 25 + 32 * 2048);
    // The root's turns are kept for good, so the top has them as the whole table had them.
    let whole = saved_search(&board, rules, &start, &state, Color::White, 0).unwrap();
    let small = saved_search(&board, rules, &start, &top, Color::White, 0).unwrap();
    assert_eq!(small.unwrap().children, whole.unwrap().children);
    // A run whose state is lost (empty) starts from the top: its node count goes on from it,
    // and it gives the same answer, with a certificate.
    let resumed = solve(&white_search(&board, 5_000_000, &lost, Some(&top)), &start).unwrap();
    assert_eq!(resumed.mover_wins, Outcome::Disproven);
    assert!(resumed.nodes > 100_001);
    let certificate = resumed.certificate.expect("a certificate");
    assert!(fanorona_solver::check(&certificate, None).is_ok());
    // A state that holds the search wins over the top.
    let from_state = solve(&white_search(&board, 5_000_000, &state, Some(&top)), &start).unwrap();
    assert_eq!(from_state.mover_wins, Outcome::Disproven);
    // No saved search: no top.
    let none = write_top(&board, rules, &start, Color::Black, &state, &top, 500).unwrap();
    assert!(none.is_none());
}

/// The one file a search saved in `directory`.
fn the_saved_file(directory: &Path) -> std::path::PathBuf {
    let files: Vec<_> = std::fs::read_dir(directory)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "dfpn"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files[0].clone()
}

#[test]
fn a_search_below_a_saved_one_starts_from_it_and_settles_as_from_nothing() {
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let dir = tempfile::tempdir().unwrap();
    let [above, fresh, below] = ["above", "fresh", "below"].map(|name| dir.path().join(name));
    for directory in [&above, &fresh, &below] {
        std::fs::create_dir_all(directory).unwrap();
    }
    let stopped = solve(&white_search(&board, 100_000, &above, None), &start).unwrap();
    assert_eq!(stopped.mover_wins, Outcome::Unknown);
    let saved = the_saved_file(&above);
    assert_eq!(
        fanorona_solver::search::saved_attacker(&saved).unwrap(),
        Color::White
    );
    let mut children = Vec::new();
    fanorona_engine::movegen::children(&board, &start, &mut children);
    for child in children.iter().take(3) {
        let from_nothing = solve(&white_search(&board, 5_000_000, &fresh, None), child).unwrap();
        let from_above = SolveSetup {
            from_search: Some(&saved),
            ..white_search(&board, 5_000_000, &below, None)
        };
        let resumed = solve(&from_above, child).unwrap();
        // The child's question is "can the side waiting (White) force a win?".
        assert_ne!(from_nothing.waiting_wins, Outcome::Unknown);
        assert_eq!(resumed.waiting_wins, from_nothing.waiting_wins);
        assert!(resumed.nodes > 100_001, "{}", resumed.nodes);
        let certificate = resumed.certificate.expect("a certificate");
        assert!(fanorona_solver::check(&certificate, None).is_ok());
    }
    // A file that is not a saved search is named.
    let junk = dir.path().join("junk.dfpn");
    std::fs::write(&junk, b"not a search").unwrap();
    let error = fanorona_solver::search::saved_attacker(&junk).unwrap_err();
    assert!(error.to_string().contains("junk.dfpn"), "{error}");
}
