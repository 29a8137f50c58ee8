//! Proof-number search against the endgame tables, and certificates against the checker.

use fanorona_engine::notation::format_position;
use fanorona_engine::{parse_position, Board, Color, Position, Rules, Value};
use fanorona_solver::{
    check, packed, solve, BuildControl, Certificate, Content, Goal, Limits, NoProgress, Outcome,
    Solution, SolveSetup, Tables,
};

/// Node limit per search: enough for the positions below, small enough that a draw the search
/// cannot settle quickly (a long paika dance of 2 against 2) gives up in a fraction of a second.
const NODES: u64 = 300_000;

fn setup<'a>(board: &'a Board, tables: Option<&'a Tables>) -> SolveSetup<'a> {
    let limits = Limits {
        nodes: NODES,
        memory: 16 << 20,
        ..Limits::default()
    };
    SolveSetup::new(board, tables, limits)
}

/// Solve, check the certificate, and return the value.
fn solved_and_checked(board: &Board, tables: Option<&Tables>, position: &Position) -> Value {
    settled_and_checked(board, tables, position).expect("solved within the node limit")
}

/// Solve, and if the searches settle the value within the node limit, check the certificate.
fn settled_and_checked(
    board: &Board,
    tables: Option<&Tables>,
    position: &Position,
) -> Option<Value> {
    let solution: Solution = solve(&setup(board, tables), position).unwrap();
    let value = solution.value?;
    let certificate = solution.certificate.expect("a certificate");
    let confirmed = check(&certificate, tables).unwrap();
    assert_eq!(confirmed.value, Some(value));
    // The file form reads back to the same certificate.
    let bytes = bincode::encode_to_vec(&certificate, bincode::config::standard()).unwrap();
    assert_eq!(Certificate::from_bytes(&bytes).unwrap(), certificate);
    // Packed, it reads back to the strategies it reaches, which prove the same.
    let unpacked = Certificate::from_bytes(&packed::pack(&certificate).unwrap()).unwrap();
    assert_eq!(check(&unpacked, tables).unwrap().value, Some(value));
    for (claim, unpacked) in certificate.claims.iter().zip(&unpacked.claims) {
        let listed: std::collections::HashSet<_> = claim.strategy.iter().collect();
        assert!(unpacked.strategy.iter().all(|entry| listed.contains(entry)));
    }
    Some(value)
}

#[test]
fn small_board_starts_match_the_published_values_and_the_tables() {
    // SPEC.md §4: White wins 3x3, 3x5 and 5x3. The 3x3 game fits the tables whole.
    let board = Board::new(3, 3).unwrap();
    let start = Position::standard_start(&board);
    let value = solved_and_checked(&board, None, &start);
    assert_eq!(value, Value::Win);
    let tables = Tables::build(&board, Rules::default(), 8);
    assert_eq!(tables.probe(&start).unwrap().value(), value);
    for (rows, columns) in [(3, 5), (5, 3)] {
        let board = Board::new(rows, columns).unwrap();
        let start = Position::standard_start(&board);
        assert_eq!(solved_and_checked(&board, None, &start), Value::Win);
        let tables = Tables::build(&board, Rules::default(), 4);
        assert_eq!(
            solved_and_checked(&board, Some(&tables), &start),
            Value::Win
        );
    }
}

/// Past nine files: the 3x11 start (computed here, not published) is a White win, over tables
/// of 4 stones, with a certificate the checker confirms.
#[test]
fn a_board_past_nine_files_is_solved_with_a_checked_certificate() {
    let board = Board::new(3, 11).unwrap();
    let tables = Tables::build(&board, Rules::default(), 4);
    let mut setup = setup(&board, Some(&tables));
    setup.limits = Limits {
        nodes: 5_000_000,
        memory: 64 << 20,
        ..Limits::default()
    };
    let solution = solve(&setup, &Position::standard_start(&board)).unwrap();
    assert_eq!(solution.value, Some(Value::Win));
    let certificate = solution.certificate.expect("a certificate");
    assert_eq!(
        check(&certificate, Some(&tables)).unwrap().value,
        Some(Value::Win)
    );
}

#[test]
fn searches_inside_the_tables_agree_with_them() {
    // 5x9 positions of 4 stones, searched over the tables of up to 3 stones, against the
    // 4-stone tables: wins, losses and draws (draws need repetition handled right).
    let board = Board::standard();
    let small = Tables::build(&board, Rules::default(), 3);
    let full = Tables::build(&board, Rules::default(), 4);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut seen = [0; 3];
    for _ in 0..40 {
        let position = Position::random_placement(&board, 2, 2, &mut seed);
        // A search may give up (long draws), but what it settles must be right.
        if let Some(value) = settled_and_checked(&board, Some(&small), &position) {
            assert_eq!(
                value,
                full.probe(&position).unwrap().value(),
                "{position:?}"
            );
            seen[value as usize] += 1;
        }
    }
    assert!(
        seen.iter().all(|&n| n > 0),
        "losses, draws and wins: {seen:?}"
    );
    assert!(seen.iter().sum::<usize>() >= 25, "settled: {seen:?}");
}

#[test]
fn draws_held_by_going_round_settle_with_certificates() {
    // Drawn 5x9 positions of 2 against 2 above the 3-stone tables, where the defender holds by
    // going round for ever: df-pn alone did not settle them in 5 M nodes per search; with the
    // held sets closed together (after 2^20 nodes) they settle, and the holds check.
    let board = Board::standard();
    let small = Tables::build(&board, Rules::default(), 3);
    let full = Tables::build(&board, Rules::default(), 4);
    for fen in GOING_ROUND_DRAWS {
        let position = parse_position(fen).unwrap().1;
        assert_eq!(full.probe(&position).unwrap().value(), Value::Draw, "{fen}");
    }
    settle_going_round_draws(&board, &small);
}

/// Drawn 5x9 positions of 2 against 2 where the defender holds by going round for ever.
const GOING_ROUND_DRAWS: [&str; 2] = ["9/W8/9/5B3/2W3B2 w", "4W4/W8/8B/5B3/9 w"];

/// Each of [`GOING_ROUND_DRAWS`] settles as a draw over the 3-stone `tables` (closures
/// needed), with a certificate the checker confirms.
fn settle_going_round_draws(board: &Board, tables: &Tables) {
    for fen in GOING_ROUND_DRAWS {
        let position = parse_position(fen).unwrap().1;
        let setup = SolveSetup {
            limits: Limits {
                nodes: 3_000_000,
                memory: 64 << 20,
                ..Limits::default()
            },
            ..setup(board, Some(tables))
        };
        let solution = solve(&setup, &position).unwrap();
        assert_eq!(solution.value, Some(Value::Draw), "{fen}");
        let certificate = solution.certificate.expect("a certificate");
        assert_eq!(
            check(&certificate, Some(tables)).unwrap().value,
            Some(Value::Draw)
        );
    }
}

#[test]
fn draws_held_by_going_round_settle_over_tables_probed_in_their_files() {
    // The same draws over the 3-stone tables as files, every one left mapped and probed in
    // place: closures then look at turns on a pool of their own (more threads than cores,
    // for the disk), and must find the same holds.
    let board = Board::standard();
    let directory = tempfile::tempdir().unwrap();
    let (rules, control) = (Rules::default(), BuildControl::default());
    Tables::build_files(
        &board,
        rules,
        3,
        None,
        directory.path(),
        &control,
        &NoProgress,
    )
    .unwrap();
    let mut small =
        Tables::open_available(&board, rules, 3, Content::Values, directory.path()).unwrap();
    assert!(small.load_into_memory_within(0).unwrap() > 0);
    assert!(small.has_files_probed_in_place());
    settle_going_round_draws(&board, &small);
}

#[test]
fn a_search_that_settles_alone_gives_the_certificate_of_a_bound() {
    // A drawn 2v2 position where "can White force a win?" is disproven in a few hundred nodes
    // and Black's search does not settle within the test's node limit: the value is unknown,
    // and the certificate holds Black's hold alone ("White cannot force a win" is "Black does
    // not lose"), which the checker confirms as a bound, not as a value.
    let board = Board::standard();
    let small = Tables::build(&board, Rules::default(), 3);
    let position = parse_position("9/3B2B2/8W/9/5W3 w").unwrap().1;
    let solution = solve(&setup(&board, Some(&small)), &position).unwrap();
    assert_eq!(solution.value, None);
    assert_eq!(solution.mover_wins, Outcome::Disproven);
    let certificate = solution.certificate.expect("the certificate of the bound");
    assert_eq!(certificate.claims.len(), 1);
    assert_eq!(certificate.claims[0].strategist(), Color::Black);
    assert_eq!(certificate.claims[0].goal, Goal::NotLose);
    let confirmed = check(&certificate, Some(&small)).unwrap();
    assert_eq!(confirmed.value, None);
    // Without its strategy it proves nothing.
    let mut emptied = certificate.clone();
    emptied.claims[0].strategy.clear();
    assert!(check(&emptied, Some(&small)).is_err());
    let mut no_claims = certificate;
    no_claims.claims.clear();
    assert!(check(&no_claims, Some(&small)).is_err());
}

#[test]
fn tampered_certificates_are_refuted() {
    let board = Board::new(3, 3).unwrap();
    let start = Position::standard_start(&board);
    let solution = solve(&setup(&board, None), &start).unwrap();
    let certificate = solution.certificate.unwrap();
    assert!(check(&certificate, None).is_ok());
    let claim = &certificate.claims[0];
    assert_eq!(claim.goal, Goal::Win);

    // A missing reply: drop a position where the opponent moves.
    let mut missing = certificate.clone();
    let at = missing.claims[0]
        .strategy
        .iter()
        .position(|(node, choice)| choice.is_none() && *node != certificate.root)
        .expect("the opponent moves somewhere");
    missing.claims[0].strategy.remove(at);
    let why = check(&missing, None).unwrap_err();
    assert!(why.0.contains("missing") || why.0.contains("root"), "{why}");
    assert!(
        !why.0.contains("Position {"),
        "positions named in notation: {why}"
    );

    // A wrong value: claim the win for the other side with the same strategy.
    let mut wrong = certificate.clone();
    wrong.claims[0].strategist_is_white = !wrong.claims[0].strategist_is_white;
    assert!(check(&wrong, None).is_err());

    // An illegal turn: the strategist's choice replaced by a position that is no child.
    let mut illegal = certificate.clone();
    let at = illegal.claims[0]
        .strategy
        .iter()
        .position(|(_, choice)| choice.is_some())
        .unwrap();
    illegal.claims[0].strategy[at].1 = Some(certificate.root);
    let why = check(&illegal, None).unwrap_err();
    let (at_position, _) = illegal.claims[0].strategy[at];
    let named = format_position(&board, &at_position.position());
    assert_eq!(why.0, format!("{named}: the chosen turn is not legal"));

    // A table leaf the checker cannot see.
    let mut needs_tables = certificate.clone();
    needs_tables.table_stones = 4;
    assert!(check(&needs_tables, None).unwrap_err().0.contains("tables"));

    // A hold claimed as a win, where the position is a draw in the tables: a 2v2 draw.
    let board = Board::standard();
    let tables = Tables::build(&board, Rules::default(), 3);
    let full = Tables::build(&board, Rules::default(), 4);
    let mut seed = 7;
    let solution = loop {
        let position = Position::random_placement(&board, 2, 2, &mut seed);
        if full.probe(&position).unwrap().value() == Value::Draw {
            let solution = solve(&setup(&board, Some(&tables)), &position).unwrap();
            if solution.value.is_some() {
                break solution;
            }
        }
    };
    assert_eq!(solution.value, Some(Value::Draw));
    let mut as_win = solution.certificate.unwrap();
    assert!(check(&as_win, Some(&tables)).is_ok());
    as_win.claims[0].goal = Goal::Win;
    as_win.claims.truncate(1);
    assert!(check(&as_win, Some(&tables)).is_err());
}

#[test]
fn parsed_positions_solve_too() {
    // A 5x5 position with 3 stones each side: the search over 4-stone tables agrees with a
    // search that has no tables at all.
    let (board, position) = parse_position("B3B/1W3/2B2/3W1/W4 w").unwrap();
    let tables = Tables::build(&board, Rules::default(), 4);
    let with = solved_and_checked(&board, Some(&tables), &position);
    let without = solved_and_checked(&board, None, &position);
    assert_eq!(with, without);
}

#[test]
fn a_partial_layer_of_tables_gives_leaves_that_the_checker_needs() {
    // 3x5 positions of 3 against 4 stones, searched over the tables of up to 5 stones and
    // of 3v3 alone (a partial layer of 6), against the complete 7-stone tables.
    let board = Board::new(3, 5).unwrap();
    let directory = tempfile::tempdir().unwrap();
    let three_three = fanorona_solver::Material::new(3, 3);
    let rules = Rules::default();
    let build = |stones, only| {
        let control = BuildControl::default();
        Tables::build_files(
            &board,
            rules,
            stones,
            only,
            directory.path(),
            &control,
            &NoProgress,
        )
    };
    // The whole layers first: `--only 3v3` alone builds only what 3v3 reaches (not 1v4).
    build(5, None).unwrap();
    build(6, Some(three_three)).unwrap();
    let partial =
        Tables::open_available(&board, rules, 6, Content::Values, directory.path()).unwrap();
    let below = Tables::open(&board, rules, 5, None, directory.path()).unwrap();
    let full = Tables::build(&board, rules, 7);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let (mut settled, mut with_partial_leaves) = (0, 0);
    for _ in 0..30 {
        let position = Position::random_placement(&board, 3, 4, &mut seed);
        let solution = solve(&setup(&board, Some(&partial)), &position).unwrap();
        let Some(value) = solution.value else {
            continue;
        };
        settled += 1;
        assert_eq!(
            value,
            full.probe(&position).unwrap().value(),
            "{position:?}"
        );
        let certificate = solution.certificate.expect("a certificate");
        assert_eq!(certificate.table_materials, vec![(3, 3)]);
        let confirmed = check(&certificate, Some(&partial)).unwrap();
        assert_eq!(confirmed.value, Some(value));
        // Without the 3v3 table its leaves cannot be judged: the checker says what it needs.
        let refuted = check(&certificate, Some(&below)).unwrap_err();
        assert!(refuted.0.contains("and of 3v3"), "{}", refuted.0);
        // Unlisted, 3v3 positions are no leaves: a strategy that stops at one is refuted.
        let mut unlisted = certificate.clone();
        unlisted.table_materials.clear();
        if check(&unlisted, Some(&partial)).is_err() {
            with_partial_leaves += 1;
        }
    }
    assert!(settled >= 20, "settled {settled} of 30");
    assert!(
        with_partial_leaves >= 5,
        "{with_partial_leaves} used 3v3 leaves"
    );
}

#[test]
fn certificates_of_format_version_1_are_still_read() {
    // Version 1 had no `table_materials`; its fields were otherwise the same, in order.
    let board = Board::new(3, 3).unwrap();
    let (_, root) = parse_position("BBB/B1W/WWW w").unwrap();
    let solution = solve(&setup(&board, None), &root).unwrap();
    let certificate = solution.certificate.unwrap();
    let old = (
        certificate.magic,
        1u32,
        certificate.rows,
        certificate.columns,
        certificate.blocked,
        certificate.table_stones,
        certificate.root,
        certificate.claims.clone(),
    );
    let bytes = bincode::encode_to_vec(&old, bincode::config::standard()).unwrap();
    let read = Certificate::from_bytes(&bytes).unwrap();
    assert_eq!(read.version, 1);
    assert_eq!(
        (read.claims, read.table_materials),
        (certificate.claims, vec![])
    );
    let mut future = bytes.clone();
    future[8] = 9;
    let error = Certificate::from_bytes(&future).unwrap_err().to_string();
    assert!(error.contains("format version 9"), "{error}");
}

#[test]
fn a_win_read_off_a_crowded_table_never_loops() {
    // With a transposition table far too small, proofs are overwritten and found again with
    // other heights; following the least height then went round a loop (the checker refused
    // the strategy, and the 9x3 start with 16 or 256 MiB got no certificate). The extraction
    // now works out the real heights over the proofs the table holds where the stored ones
    // loop.
    let board = Board::new(9, 3).unwrap();
    let tables = Tables::build(&board, Rules::default(), 6);
    let start = Position::standard_start(&board);
    for memory in [16 << 20, 256 << 20] {
        let setup = SolveSetup {
            limits: Limits {
                nodes: 2_000_000,
                memory,
                ..Limits::default()
            },
            ..setup(&board, Some(&tables))
        };
        let solution = solve(&setup, &start).unwrap();
        assert_eq!(solution.value, Some(Value::Win));
        let certificate = solution.certificate.expect("a certificate");
        assert_eq!(
            check(&certificate, Some(&tables)).unwrap().value,
            Some(Value::Win)
        );
    }
}

/// Keeps the notes of a job.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl fanorona_solver::Progress for Notes {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

#[test]
fn wins_whose_proofs_a_tiny_table_cut_off_from_their_leaves_still_give_certificates() {
    // With a table of a few hundred slots, proofs overwritten while the search went on leave
    // the table's other proofs going round. Reading the win off then pins what does reach
    // leaves and searches again on pinned proofs alone. (Before, 3x7 at 32 KiB went round the
    // same 7 positions for 64 searches and gave up.) 7x3 at 4 KiB: at 2 KiB, once the root's
    // turns were kept in the table, its proofs reached leaves at once.
    for (rows, columns, kib) in [(3, 7, 32), (7, 3, 4)] {
        let board = Board::new(rows, columns).unwrap();
        let notes = Notes::default();
        let setup = SolveSetup {
            limits: Limits {
                nodes: 5_000_000,
                memory: kib << 10,
                ..Limits::default()
            },
            progress: &notes,
            ..setup(&board, None)
        };
        let solution = solve(&setup, &Position::standard_start(&board)).unwrap();
        assert_eq!(solution.value, Some(Value::Win), "{rows}x{columns}");
        let searched_again = notes
            .0
            .lock()
            .unwrap()
            .iter()
            .any(|note| note.contains("searching again on those and the leaves alone"));
        assert!(
            searched_again,
            "{rows}x{columns}: the table's proofs reached leaves"
        );
        let certificate = solution.certificate.expect("a certificate");
        assert_eq!(check(&certificate, None).unwrap().value, Some(Value::Win));
    }
}
