//! Split search: questions answered by searches of each turn apart, joined into certificates
//! that the checker confirms, and kept between runs.

use fanorona_engine::{parse_position, Board, Color, Position, Rules, Value};
use fanorona_solver::{
    check, solve, split, split::FIRST_MEMORY, split::FIRST_NODES, take_into_store, Found, Goal,
    Limits, NoProgress, Outcome, Progress, SolveSetup, Split, SplitSetup, Tables,
};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

fn solve_setup<'a>(board: &'a Board, tables: Option<&'a Tables>, nodes: u64) -> SolveSetup<'a> {
    let limits = Limits {
        nodes,
        memory: 1 << 20,
        ..Limits::default()
    };
    SolveSetup::new(board, tables, limits)
}

fn split_setup<'a>(
    solve: SolveSetup<'a>,
    side: Color,
    depth: usize,
    store: Option<&'a Path>,
) -> SplitSetup<'a> {
    SplitSetup {
        solve,
        side,
        depth,
        parallel: 2,
        store,
        recall_only: false,
    }
}

/// White's question on 3x7 over `tables`, 2,000 nodes a search, its answers kept in `store`.
fn stored_split<'a>(board: &'a Board, tables: &'a Tables, store: &'a Path) -> SplitSetup<'a> {
    let solve = solve_setup(board, Some(tables), 2_000);
    split_setup(solve, Color::White, 12, Some(store))
}

/// The files in `directory` whose names end in `.extension`.
fn files_in(directory: &Path, extension: &str) -> Vec<std::path::PathBuf> {
    let entries = std::fs::read_dir(directory).unwrap();
    let paths = entries.map(|entry| entry.unwrap().path());
    paths
        .filter(|path| path.extension().is_some_and(|e| e == extension))
        .collect()
}

/// The 3x7 board, its tables of up to 3 stones, and its start (a White win, SPEC.md §4).
fn three_by_seven() -> (Board, Tables, Position) {
    let board = Board::new(3, 7).unwrap();
    let tables = Tables::build(&board, Rules::default(), 3);
    let start = Position::standard_start(&board);
    (board, tables, start)
}

/// The split's answer, with its certificate checked where it settled: what the certificate
/// confirms must be what the split says.
fn checked(answer: &Split, tables: Option<&Tables>, side: Color, root: &Position) -> Outcome {
    if answer.outcome == Outcome::Unknown {
        assert!(answer.certificate.is_none());
        return Outcome::Unknown;
    }
    let certificate = answer.certificate.as_ref().expect("a certificate");
    let confirmed = check(certificate, tables).expect("the joined certificate holds");
    assert_eq!(confirmed.root, *root);
    let claim = &certificate.claims[0];
    match answer.outcome {
        Outcome::Proven => {
            assert_eq!((claim.strategist(), claim.goal), (side, Goal::Win));
            let value = if side == root.side {
                Value::Win
            } else {
                Value::Loss
            };
            assert_eq!(confirmed.value, Some(value));
        }
        _ => assert_eq!(
            (claim.strategist(), claim.goal),
            (side.other(), Goal::NotLose)
        ),
    }
    answer.outcome
}

#[test]
fn a_split_with_small_budgets_answers_what_one_search_does_with_a_checked_certificate() {
    let (board, tables, start) = three_by_seven();
    let whole = solve(&solve_setup(&board, Some(&tables), 50_000_000), &start).unwrap();
    assert_eq!(
        whole.value,
        Some(Value::Win),
        "SPEC.md §4: 3x7 is a White win"
    );
    for (side, expected) in [
        (Color::White, Outcome::Proven),
        (Color::Black, Outcome::Disproven),
    ] {
        // Budgets far below what the whole question takes: only splitting settles it.
        let setup = split_setup(solve_setup(&board, Some(&tables), 2_000), side, 12, None);
        let answer = split(&setup, &start).unwrap();
        assert_eq!(checked(&answer, Some(&tables), side, &start), expected);
        assert!(answer.positions.len() > 1, "{side:?}: split more than once");
        let root = answer.positions.last().unwrap();
        assert_eq!((root.line.len(), root.outcome), (0, expected));
        let settled_by_splitting = answer
            .positions
            .iter()
            .flat_map(|p| &p.turns)
            .any(|turn| turn.found == Found::Split && turn.outcome != Outcome::Unknown);
        assert!(
            settled_by_splitting,
            "{side:?}: some turn settled by a deeper split"
        );
    }
}

#[test]
fn a_split_too_shallow_for_its_budget_stays_open() {
    let (board, tables, start) = three_by_seven();
    let setup = split_setup(
        solve_setup(&board, Some(&tables), 200),
        Color::White,
        0,
        None,
    );
    let answer = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&answer, Some(&tables), Color::White, &start),
        Outcome::Unknown
    );
    assert_eq!(answer.positions.len(), 1);
    assert_eq!(answer.searches, answer.positions[0].turns.len());
}

/// Whether the positions `split` left could still settle the question at `line` as
/// `wanted`: turns settled so count as they are, open turns not split count as `wanted` where
/// they are within `depth` (a further split may settle them) and as open beyond it.
fn could_settle(
    split: &Split,
    line: &[String],
    wanted: Outcome,
    side: Color,
    depth: usize,
) -> bool {
    let Some(position) = split.positions.iter().find(|p| p.line == line) else {
        return line.len() <= depth;
    };
    let can = |turn: &fanorona_solver::SplitTurn| match turn.outcome {
        Outcome::Unknown => {
            let mut below = line.to_vec();
            below.push(turn.notation[0].clone());
            could_settle(split, &below, wanted, side, depth)
        }
        outcome => outcome == wanted,
    };
    let one_turn_settles = (position.position.side == side) == (wanted == Outcome::Proven);
    match one_turn_settles {
        true => position.turns.iter().any(can),
        false => position.turns.iter().all(can),
    }
}

#[test]
fn a_split_stops_open_only_where_nothing_within_its_depth_could_settle_it() {
    // 5x5, "can Black force a win?" (no: 5x5 is a draw, SPEC.md §4), with searches far too
    // small: the split stops open, but only once no open turn within the depth could settle
    // the root either way, even through a turn that could settle its position only one way.
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let depth = 2;
    let setup = split_setup(
        solve_setup(&board, None, 100_000),
        Color::Black,
        depth,
        None,
    );
    let answer = split(&setup, &start).unwrap();
    assert_eq!(answer.outcome, Outcome::Unknown);
    for wanted in [Outcome::Proven, Outcome::Disproven] {
        assert!(
            !could_settle(&answer, &[], wanted, Color::Black, depth),
            "stopped while a split could still answer {wanted:?}"
        );
    }
}

#[test]
fn a_second_run_with_the_same_store_recalls_what_the_first_settled() {
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let solve = solve_setup(&board, Some(&tables), 2_000);
    let setup = split_setup(solve, Color::White, 12, Some(store.path()));
    let first = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&first, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert!(first.searches > 0);
    // The store keeps its certificates packed.
    let proofs: Vec<Vec<u8>> = std::fs::read_dir(store.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "proof"))
        .map(|path| std::fs::read(path).unwrap())
        .collect();
    assert!(!proofs.is_empty());
    assert!(proofs.iter().all(|bytes| bytes.starts_with(b"FANOPAK\0")));
    let again = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&again, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert_eq!((again.searches, again.nodes, again.recalled), (0, 0, 1));

    // Open answers are searched again only with a larger budget than they had.
    let store = tempfile::tempdir().unwrap();
    let shallow = split_setup(solve, Color::White, 0, Some(store.path()));
    let open = split(&shallow, &start).unwrap();
    assert_eq!(open.outcome, Outcome::Unknown);
    let same = split(&shallow, &start).unwrap();
    assert_eq!((same.searches, same.recalled), (0, open.searches));
    // A budget and table above the small first search's (`FIRST_NODES`), which settles it.
    let mut solve = solve_setup(&board, Some(&tables), 50_000_000);
    solve.limits.memory = 2 * FIRST_MEMORY;
    let larger = SplitSetup { solve, ..shallow };
    let settled = split(&larger, &start).unwrap();
    assert_eq!(
        checked(&settled, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert!(settled.searches > 0);
}

#[test]
fn a_split_rooted_deeper_shares_the_store_both_ways() {
    // `open-split` with SPLIT_AT: a split rooted at a position a turn leads to, with the
    // store of the split above it. The 3x7 start with no level to split is left open; the
    // split at one of its open turns settles that turn into the same store, and the split at
    // the start then reads it back settled instead of searching it.
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let deeper = stored_split(&board, &tables, store.path());
    let shallow = SplitSetup { depth: 0, ..deeper };
    let open = split(&shallow, &start).unwrap();
    assert_eq!(open.outcome, Outcome::Unknown);
    let root = open.positions.last().unwrap();
    let turn = (root.turns.iter())
        .find(|turn| turn.outcome == Outcome::Unknown)
        .expect("an open turn");

    let at_turn = split(&deeper, &turn.position).unwrap();
    let settled = checked(&at_turn, Some(&tables), Color::White, &turn.position);
    assert_ne!(settled, Outcome::Unknown, "split deeper, the turn settles");

    let again = split(&shallow, &start).unwrap();
    assert_eq!(
        again.searches, 0,
        "nothing searched again at the same budget"
    );
    let root = again.positions.last().unwrap();
    let read_back = (root.turns.iter())
        .find(|t| t.position == turn.position)
        .unwrap();
    assert_eq!(
        (read_back.outcome, read_back.found),
        (settled, Found::Recalled)
    );
}

#[test]
fn an_open_answer_is_searched_again_once_more_tables_are_there() {
    // White's question on 3x7, no level to split and 2,000 nodes a search: open over the
    // tables of up to 2 stones, and again over those of up to 3. An answer of the store is
    // searched again over more tables than its search had, not over the same; and one that
    // names no tables (kept before answers named them) counts as over fewer.
    let board = Board::new(3, 7).unwrap();
    let fewer = Tables::build(&board, Rules::default(), 2);
    let more = Tables::build(&board, Rules::default(), 3);
    let start = Position::standard_start(&board);
    let store = tempfile::tempdir().unwrap();
    let run = |tables: &Tables| {
        let setup = split_setup(
            solve_setup(&board, Some(tables), 2_000),
            Color::White,
            0,
            Some(store.path()),
        );
        split(&setup, &start).unwrap()
    };
    let first = run(&fewer);
    assert_eq!(first.outcome, Outcome::Unknown);
    assert!(first.searches > 0);
    assert_eq!(run(&fewer).searches, 0, "the same tables: read back");
    let over_more = run(&more);
    assert_eq!(over_more.outcome, Outcome::Unknown);
    assert!(over_more.searches > 0, "more tables: searched again");
    assert_eq!(run(&more).searches, 0, "read back over these tables");

    let answers = files_in(store.path(), "answer");
    for path in &answers {
        let text = std::fs::read_to_string(path).unwrap();
        assert!(text.contains(" tables=3+0"), "{text}");
        let unnamed = text.split(" tables=").next().unwrap().to_string();
        std::fs::write(path, unnamed + "\n").unwrap();
    }
    assert!(run(&more).searches > 0, "tables unnamed: searched again");
}

#[test]
fn a_certificate_found_apart_is_checked_taken_into_the_store_and_read_back_unsearched() {
    // Split with no level to split and 2,000 nodes a search, the 3x7 start stays open. One
    // search of the whole question settles it apart; once its certificate is taken into the
    // store, the split reads that answer back, searches nothing, and ends with it.
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let small = solve_setup(&board, Some(&tables), 2_000);
    let shallow = split_setup(small, Color::White, 0, Some(store.path()));
    assert_eq!(split(&shallow, &start).unwrap().outcome, Outcome::Unknown);
    let mut whole = solve_setup(&board, Some(&tables), 50_000_000);
    whole.limits.memory = 64 << 20;
    whole.only = Some(Color::White);
    let found = solve(&whole, &start).unwrap();
    let certificate = found
        .certificate
        .expect("White's win, with its certificate");

    // Refused: a claim the checker does not confirm, and a certificate of other tables.
    let mut wrong = certificate.clone();
    wrong.claims[0].strategist_is_white = false;
    let error = take_into_store(store.path(), &small, &wrong).unwrap_err();
    assert!(error.to_string().contains("does not hold"), "{error}");
    let no_tables = solve_setup(&board, None, 2_000);
    let error = take_into_store(store.path(), &no_tables, &certificate).unwrap_err();
    assert!(error.to_string().contains("tables of 3 stones"), "{error}");
    let still = split(&shallow, &start).unwrap();
    assert_eq!((still.outcome, still.searches), (Outcome::Unknown, 0));

    let taken = take_into_store(store.path(), &small, &certificate).unwrap();
    assert_eq!(taken, (start, vec![(Color::White, Outcome::Proven)]));
    let recalled = split(&shallow, &start).unwrap();
    assert_eq!(
        checked(&recalled, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert_eq!(
        (recalled.searches, recalled.nodes, recalled.recalled),
        (0, 0, 1)
    );

    // A certificate of fewer tables (none here) answers for a split over more: taken, checked
    // against the split's tables, and read back as one of its own.
    let mut bare = solve_setup(&board, None, 50_000_000);
    bare.limits.memory = 64 << 20;
    bare.only = Some(Color::White);
    let without_tables = solve(&bare, &start).unwrap().certificate.unwrap();
    assert_eq!(without_tables.table_stones, 0);
    let other_store = tempfile::tempdir().unwrap();
    let taken = take_into_store(other_store.path(), &small, &without_tables).unwrap();
    assert_eq!(taken, (start, vec![(Color::White, Outcome::Proven)]));
    let over_tables = split_setup(small, Color::White, 0, Some(other_store.path()));
    let recalled = split(&over_tables, &start).unwrap();
    assert_eq!(
        checked(&recalled, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert_eq!((recalled.searches, recalled.recalled), (0, 1));
}

#[test]
fn threads_a_small_batch_leaves_idle_search_ahead_and_the_answer_is_the_same() {
    // 3x7 with searches of 2,000 nodes, 4 at once: most positions split have fewer open turns
    // than that, and the idle threads search the turns of the leaves best first splits next.
    // The answer and its checked certificate are those of one search at a time, and a second
    // run over the store searches nothing.
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let solve = solve_setup(&board, Some(&tables), 2_000);
    let mut alone = split_setup(solve, Color::White, 12, None);
    alone.parallel = 1;
    let one_at_a_time = split(&alone, &start).unwrap();
    assert_eq!(one_at_a_time.searched_ahead, 0);
    let mut four = split_setup(solve, Color::White, 12, Some(store.path()));
    four.parallel = 4;
    let ahead = split(&four, &start).unwrap();
    assert_eq!(
        checked(&ahead, Some(&tables), Color::White, &start),
        checked(&one_at_a_time, Some(&tables), Color::White, &start)
    );
    assert_eq!(ahead.outcome, Outcome::Proven);
    assert!(ahead.searched_ahead > 0, "{}", ahead.searched_ahead);
    assert!(ahead.searched_ahead <= ahead.searches);
    let again = split(&four, &start).unwrap();
    assert_eq!(again.outcome, Outcome::Proven);
    assert_eq!((again.searches, again.searched_ahead), (0, 0));
}

#[test]
fn a_store_kept_over_fewer_tables_answers_a_split_over_more_and_not_the_other_way() {
    // A store filled over the 2-stone tables, then read by a split over the 3-stone tables:
    // every settled answer is recalled (its certificate checked against the 3-stone tables and
    // kept again as theirs), nothing is searched, and the joined certificate holds. Read back
    // over the 2-stone tables again, the root's certificate, now of 3 stones, cannot be
    // checked there: it is not recalled, and the root is split again from its turns' answers,
    // still of 2 stones.
    let (board, three_stones, start) = three_by_seven();
    let two_stones = Tables::build(&board, Rules::default(), 2);
    let store = tempfile::tempdir().unwrap();
    let over = |tables| stored_split(&board, tables, store.path());
    let over_two = over(&two_stones);
    let first = split(&over_two, &start).unwrap();
    assert_eq!(
        checked(&first, Some(&two_stones), Color::White, &start),
        Outcome::Proven
    );
    assert!(first.searches > 0);

    let more = split(&over(&three_stones), &start).unwrap();
    assert_eq!(
        checked(&more, Some(&three_stones), Color::White, &start),
        Outcome::Proven
    );
    assert_eq!((more.searches, more.nodes, more.recalled), (0, 0, 1));
    assert_eq!(more.certificate.as_ref().unwrap().table_stones, 3);

    let fewer = split(&over_two, &start).unwrap();
    assert_eq!(
        checked(&fewer, Some(&two_stones), Color::White, &start),
        Outcome::Proven
    );
    assert_eq!(fewer.certificate.as_ref().unwrap().table_stones, 2);
    assert!(fewer.recalled > 1, "{}", fewer.recalled);
}

#[test]
fn a_store_that_cannot_keep_a_certificate_over_more_tables_says_so() {
    // A store filled over the 2-stone tables, read over the 3-stone tables where no
    // certificate can be written again (a folder stands where each is written first): the
    // split stops with an error that says so and names the file, rather than searching the
    // question again unseen (whose answer could not be kept either).
    let (board, three_stones, start) = three_by_seven();
    let two_stones = Tables::build(&board, Rules::default(), 2);
    let store = tempfile::tempdir().unwrap();
    let over = |tables| stored_split(&board, tables, store.path());
    split(&over(&two_stones), &start).unwrap();
    let proofs = files_in(store.path(), "proof");
    assert!(!proofs.is_empty());
    for proof in &proofs {
        std::fs::create_dir(proof.with_extension("proof.part")).unwrap();
    }
    let Err(error) = split(&over(&three_stones), &start) else {
        panic!("a certificate that could not be kept again went unnoticed");
    };
    let error = error.to_string();
    let named = error.contains("keeping a stored certificate over more tables");
    assert!(named && error.contains(".proof.part"), "{error}");
}

#[test]
fn a_damaged_store_is_named_or_searched_again_never_trusted() {
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let setup = stored_split(&board, &tables, store.path());
    split(&setup, &start).unwrap();
    let files = |extension| files_in(store.path(), extension);
    // Every certificate cut short: each is searched again, and the answer still checks.
    for proof in files("proof") {
        let bytes = std::fs::read(&proof).unwrap();
        std::fs::write(&proof, &bytes[..bytes.len() / 2]).unwrap();
    }
    let again = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&again, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    assert!(again.searches > 0);
    // Answer files that are not ones: an error that names the first read.
    let answers = files("answer");
    for answer in &answers {
        std::fs::write(answer, "answer=perhaps\n").unwrap();
    }
    let Err(error) = split(&setup, &start) else {
        panic!("a damaged store was trusted");
    };
    let error = error.to_string();
    let named = answers
        .iter()
        .any(|a| error.contains(&a.display().to_string()));
    assert!(named && error.contains("not a split answer"), "{error}");
}

/// `setup` with no Ctrl-C to come and no progress to watch.
fn uninterrupted(setup: SplitSetup) -> SplitSetup {
    SplitSetup {
        solve: SolveSetup {
            stop: None,
            progress: &NoProgress,
            ..setup.solve
        },
        ..setup
    }
}

/// Progress that stands for a Ctrl-C: it raises the stop flag at the first nodes reported
/// (a search reports every 65,536 nodes).
struct CtrlCAtFirstNodes<'a>(&'a AtomicBool);

impl Progress for CtrlCAtFirstNodes<'_> {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {
        self.0.store(true, Ordering::Relaxed);
    }
    fn note(&self, _: &str) {}
}

#[test]
fn answers_found_before_a_ctrl_c_are_kept_and_the_cut_search_is_not() {
    // 5x5 after b2-c3A c5-d4A c3-b2W, Black to move, "can Black force a win?": in the order
    // of the turns, the first searches settle as "no" in under 65,536 nodes, and the fifth
    // runs past that, where the Ctrl-C comes.
    let (board, position) = parse_position("BB1B1/BBB1B/BW1B1/WWWWW/WWWWW b").unwrap();
    let store = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let progress = CtrlCAtFirstNodes(&stop);
    let mut solve = solve_setup(&board, None, 100_000);
    solve.stop = Some(&stop);
    solve.progress = &progress;
    let mut setup = split_setup(solve, Color::Black, 0, Some(store.path()));
    setup.parallel = 1;
    let cut = split(&setup, &position).unwrap();
    assert!(
        stop.load(Ordering::Relaxed),
        "a search ran past 65,536 nodes"
    );
    assert_eq!(cut.outcome, Outcome::Unknown);
    let turns = &cut.positions[0].turns;
    let settled = turns
        .iter()
        .filter(|t| t.outcome != Outcome::Unknown)
        .count();
    assert!(settled > 0, "{turns:?}");
    let cut_short = turns.iter().filter(|t| t.found == Found::Searched);
    assert_eq!(
        cut_short.count(),
        settled + 1,
        "the settled ones and the one cut short"
    );
    // Each settled answer is in the store, the one cut short not.
    let stored: Vec<String> = std::fs::read_dir(store.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "answer"))
        .map(|path| std::fs::read_to_string(path).unwrap())
        .collect();
    assert_eq!(stored.len(), settled);
    assert!(stored.iter().all(|answer| answer.starts_with("answer=no")));
    // The next run recalls them and searches the others.
    let whole = uninterrupted(setup);
    let again = split(&whole, &position).unwrap();
    assert_eq!(again.recalled, settled);
    assert_eq!(again.searches, turns.len() - settled);
}

/// The lines of the positions `answer` split whose answer is open, each with the answers of
/// its turns.
fn open_positions(answer: &Split) -> Vec<(Vec<String>, Vec<Outcome>)> {
    let mut open: Vec<(Vec<String>, Vec<Outcome>)> = answer
        .positions
        .iter()
        .filter(|p| p.outcome == Outcome::Unknown)
        .map(|p| (p.line.clone(), p.turns.iter().map(|t| t.outcome).collect()))
        .collect();
    open.sort_by(|a, b| a.0.cmp(&b.0));
    open
}

#[test]
fn a_larger_budget_splits_again_what_was_split_and_a_status_searches_nothing() {
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let small = split_setup(
        solve_setup(&board, Some(&tables), 100),
        Color::White,
        1,
        Some(store.path()),
    );
    let first = split(&small, &start).unwrap();
    assert_eq!(first.outcome, Outcome::Unknown);
    let split_lines: Vec<&Vec<String>> = first
        .positions
        .iter()
        .map(|p| &p.line)
        .filter(|line| !line.is_empty())
        .collect();
    assert!(
        !split_lines.is_empty(),
        "the first run split below the root"
    );
    let files_before = std::fs::read_dir(store.path()).unwrap().count();

    // The status: the same open positions with the same answers, nothing searched or written,
    // even with a smaller depth than the run had (a status shows the whole store).
    let status = SplitSetup {
        recall_only: true,
        depth: 0,
        ..small
    };
    let seen = split(&status, &start).unwrap();
    assert_eq!((seen.searches, seen.nodes), (0, 0));
    assert_eq!(seen.outcome, Outcome::Unknown);
    assert_eq!(open_positions(&seen), open_positions(&first));
    assert_eq!(
        std::fs::read_dir(store.path()).unwrap().count(),
        files_before
    );

    // A larger budget: the positions split before are split again, not searched again.
    let larger = SplitSetup {
        solve: solve_setup(&board, Some(&tables), 2_000),
        ..small
    };
    let second = split(&larger, &start).unwrap();
    let root = second.positions.last().unwrap();
    for turn in &root.turns {
        let line = vec![turn.notation[0].clone()];
        if split_lines.contains(&&line) {
            assert_ne!(turn.found, Found::Searched, "{line:?} searched again");
        }
    }
    assert!(
        second.searches > 0,
        "the open turns not split were searched"
    );
    assert_ne!(
        checked(&second, Some(&tables), Color::White, &start),
        Outcome::Disproven,
        "SPEC.md §4: 3x7 is a White win"
    );
}

#[test]
fn a_search_cut_at_its_budget_gives_the_split_its_root_numbers() {
    // The split ranks its open leaves by the numbers their searches stopped at. A root is
    // stored only when its expansion ends, which an unsettled search's never does: until the
    // path's numbers were recorded when a search stops, every open leaf counted (1, 1).
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let mut setup = solve_setup(&board, None, 20_000);
    setup.only = Some(Color::Black);
    let solution = solve(&setup, &start).unwrap();
    assert_eq!(solution.waiting_wins, Outcome::Unknown);
    assert_eq!(
        solution.root_numbers[0], None,
        "White's question was not asked"
    );
    let (proof, disproof) = solution.root_numbers[1].expect("Black's search's root numbers");
    assert!(proof > 1 && disproof > 1, "{proof} / {disproof}");
}

/// Progress that stands for a Ctrl-C in the second batch of searches (the first below the
/// root): it raises the stop flag at the report of nodes in that batch that follows as many as
/// a search which runs out of its budget makes (one every 65,536 nodes), so in the batch's
/// second search at the earliest, later where searches before it settled sooner.
struct CtrlCInSecondBatch<'a> {
    stop: &'a AtomicBool,
    batches: AtomicUsize,
    reports: AtomicUsize,
    reports_of_a_full_search: usize,
}

impl Progress for CtrlCInSecondBatch<'_> {
    fn phase(&self, _: &str, _: u64) {
        self.batches.fetch_add(1, Ordering::Relaxed);
    }
    fn advance(&self, _: u64) {
        if self.batches.load(Ordering::Relaxed) == 2
            && self.reports.fetch_add(1, Ordering::Relaxed) == self.reports_of_a_full_search
        {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
    fn note(&self, _: &str) {}
}

#[test]
fn turns_a_ctrl_c_left_unanswered_below_the_root_are_open_until_searched() {
    // 5x5, "can Black force a win?", with searches far too small to settle it: Ctrl-C comes
    // while the first position below the root is split, after some of its turns answered.
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let depth = 2;
    // Large enough that some turns of the position split first below the root settle (as
    // searches change, which position that is changes too).
    const BUDGET: u64 = 600_000;
    let store = tempfile::tempdir().unwrap();
    let stop = AtomicBool::new(false);
    let progress = CtrlCInSecondBatch {
        stop: &stop,
        batches: 0.into(),
        reports: 0.into(),
        reports_of_a_full_search: (BUDGET / 65_536) as usize,
    };
    let mut solve = solve_setup(&board, None, BUDGET);
    solve.stop = Some(&stop);
    solve.progress = &progress;
    let mut setup = split_setup(solve, Color::Black, depth, Some(store.path()));
    setup.parallel = 1;
    let cut = split(&setup, &start).unwrap();
    assert!(stop.load(Ordering::Relaxed), "Ctrl-C came");
    let line = &cut.positions[0].line;
    let turns_of = |split: &Split| -> Vec<(String, Found, Outcome)> {
        let position = split.positions.iter().find(|p| &p.line == line);
        let turns = &position.expect("the cut position is split").turns;
        (turns.iter())
            .map(|t| (t.notation[0].clone(), t.found, t.outcome))
            .collect()
    };
    let cut_turns = turns_of(&cut);
    let answered: Vec<&String> = (cut_turns.iter())
        .filter(|(_, found, outcome)| *found == Found::Searched && *outcome != Outcome::Unknown)
        .map(|(notation, _, _)| notation)
        .collect();
    let unanswered = cut_turns.iter().filter(|t| t.1 == Found::NotSearched);
    assert_eq!(line.len(), 1, "cut below the root");
    assert!(
        unanswered.count() > 0 && !answered.is_empty(),
        "{cut_turns:?}"
    );

    // The status rebuilds the cut position as split, its unanswered turns open.
    let whole = uninterrupted(setup);
    let status = split(
        &SplitSetup {
            recall_only: true,
            ..whole
        },
        &start,
    )
    .unwrap();
    assert_eq!(status.searches, 0);
    for (notation, found, outcome) in turns_of(&status) {
        let before = cut_turns.iter().find(|t| t.0 == notation).unwrap();
        match before.1 == Found::Searched && before.2 != Outcome::Unknown {
            true => assert_eq!((found, outcome), (Found::Recalled, before.2)),
            false => assert_eq!(outcome, Outcome::Unknown, "{notation}"),
        }
    }

    // The next run searches no answered turn again, and stops open only where nothing
    // within its depth could settle the root: the unanswered turns were searched.
    let again = split(&whole, &start).unwrap();
    for (notation, found, _) in turns_of(&again) {
        if answered.contains(&&notation) {
            assert_eq!(found, Found::Recalled, "{notation} searched again");
        }
    }
    assert_eq!(again.outcome, Outcome::Unknown);
    for wanted in [Outcome::Proven, Outcome::Disproven] {
        assert!(
            !could_settle(&again, &[], wanted, Color::Black, depth),
            "stopped while a split could still answer {wanted:?}"
        );
    }
}

/// Progress that records the phases, each a pass of searches ("split: N searches of up to B
/// nodes").
#[derive(Default)]
struct Passes(std::sync::Mutex<Vec<String>>);

impl Progress for Passes {
    fn phase(&self, name: &str, _: u64) {
        self.0.lock().unwrap().push(name.to_string());
    }
    fn advance(&self, _: u64) {}
    fn note(&self, _: &str) {}
}

#[test]
fn every_turn_is_searched_small_before_any_gets_the_whole_budget() {
    // 5x5, "can Black force a win?" (no: 5x5 is a draw, SPEC.md §4), split at the root only,
    // with a budget above the small first one: the five turns are searched small first, and
    // only those left open get the whole budget, until one settles the root.
    let board = Board::new(5, 5).unwrap();
    let start = Position::standard_start(&board);
    let passes = Passes::default();
    let mut solve = solve_setup(&board, None, 4 * FIRST_NODES);
    solve.limits.memory = 2 * FIRST_MEMORY;
    solve.progress = &passes;
    let mut setup = split_setup(solve, Color::Black, 0, None);
    setup.parallel = 1;
    let answer = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&answer, None, Color::Black, &start),
        Outcome::Disproven
    );
    let passes = passes.0.lock().unwrap().clone();
    let small = format!("split: 5 searches of up to {FIRST_NODES} nodes");
    assert_eq!(passes.first(), Some(&small), "{passes:?}");
    let root = answer.positions.last().unwrap();
    let settled_small = (root.turns.iter())
        .filter(|t| t.outcome != Outcome::Unknown && t.nodes <= FIRST_NODES)
        .count();
    let whole = |n: usize| format!("split: {n} searches of up to {} nodes", 4 * FIRST_NODES);
    assert!(
        (1..=5 - settled_small).any(|n| passes.get(1) == Some(&whole(n))),
        "only the turns left open by the small searches get the whole budget: {passes:?}"
    );
    assert_eq!(passes.len(), 2, "{passes:?}");
}

#[test]
fn a_forced_turn_takes_the_answer_of_the_open_position_before_it_unsearched() {
    // On 3x7 with 2,000 nodes a search, Black's only turn after c1-d2A is a forced capture.
    let (board, tables, start) = three_by_seven();
    let store = tempfile::tempdir().unwrap();
    let setup = stored_split(&board, &tables, store.path());
    let answer = split(&setup, &start).unwrap();
    assert_eq!(
        checked(&answer, Some(&tables), Color::White, &start),
        Outcome::Proven
    );
    let found_of = |position: &Position| {
        let turns = answer.positions.iter().flat_map(|p| &p.turns);
        let turn = turns.into_iter().find(|t| t.position == *position);
        turn.map(|t| t.found)
    };
    let forced: Vec<_> = (answer.positions.iter())
        .filter(|p| p.turns.len() == 1 && p.turns[0].found == Found::Forced)
        .collect();
    assert!(!forced.is_empty(), "a forced turn met");
    for position in &forced {
        // Its position was split after a search left it open (or settled by the split), and
        // the one position it leads to cost no search.
        let before = found_of(&position.position);
        assert!(
            matches!(before, Some(Found::Searched | Found::Split)),
            "{before:?}"
        );
        assert_eq!(position.turns[0].nodes, 0);
    }
    // Each split position with one turn is forced, unless the store or a search settled it.
    for position in answer.positions.iter().filter(|p| p.turns.len() == 1) {
        let turn = &position.turns[0];
        assert!(turn.found == Found::Forced || turn.outcome != Outcome::Unknown);
    }
    // Kept in the store: a second run recalls the answer, searching nothing.
    let again = split(&setup, &start).unwrap();
    assert_eq!((again.searches, again.outcome), (0, Outcome::Proven));
}

/// The positions of `answer` with a position settled above them on their line (found from the
/// lines, apart from the split's own tree).
fn under_settled(answer: &Split) -> Vec<bool> {
    let settled: Vec<&Vec<String>> = answer
        .positions
        .iter()
        .filter(|p| p.outcome != Outcome::Unknown)
        .map(|p| &p.line)
        .collect();
    answer
        .positions
        .iter()
        .map(|p| {
            settled
                .iter()
                .any(|line| line.len() < p.line.len() && p.line.starts_with(line))
        })
        .collect()
}

#[test]
fn positions_split_below_a_settled_one_are_marked_moot() {
    // 200 nodes a search, five levels, one search at a time: the 3x7 start stays open, and
    // some positions split early end below one that a later search settled (28 of 499, open).
    // Exactly the positions below a settled one are moot.
    let (board, tables, start) = three_by_seven();
    let setup = SplitSetup {
        parallel: 1,
        ..split_setup(
            solve_setup(&board, Some(&tables), 200),
            Color::White,
            5,
            None,
        )
    };
    let answer = split(&setup, &start).unwrap();
    assert_eq!(answer.outcome, Outcome::Unknown);
    let moot: Vec<bool> = answer.positions.iter().map(|p| p.moot).collect();
    assert_eq!(moot, under_settled(&answer));
    let open_and_moot = answer
        .positions
        .iter()
        .filter(|p| p.moot && p.outcome == Outcome::Unknown)
        .count();
    assert!(open_and_moot > 0, "no open position below a settled one");
    let root = answer.positions.last().unwrap();
    assert!(root.line.is_empty() && !root.moot);
}

/// Progress that keeps the notes.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl Progress for Notes {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

#[test]
fn a_search_whose_certificate_cannot_be_read_off_is_split_not_fatal() {
    // With a transposition table of two slots, the search of 3x7 after White's d1-d2A
    // settles, but reading its strategy off searches positions again, and one of those
    // stops at the node limit. That answer has no certificate to join: the split leaves it
    // open and splits it, where before the whole run stopped with "no certificate".
    let (board, tables, start) = three_by_seven();
    let notes = Notes::default();
    let mut solve = solve_setup(&board, Some(&tables), 50_000);
    solve.limits.memory = 64;
    solve.progress = &notes;
    let mut setup = split_setup(solve, Color::White, 12, None);
    setup.parallel = 1;
    let answer = split(&setup, &start).expect("no certificate is no reason to stop");
    let notes = notes.0.lock().unwrap().clone();
    let left_open: Vec<&String> = notes
        .iter()
        .filter(|note| {
            note.contains("but no certificate:") && note.ends_with("left open, to be split")
        })
        .collect();
    assert!(!left_open.is_empty(), "{notes:#?}");
    assert_eq!(
        checked(&answer, Some(&tables), Color::White, &start),
        Outcome::Proven,
        "the 3x7 start is a White win (SPEC.md §4)"
    );
}

#[test]
fn a_position_one_of_whose_turns_another_split_answered_is_not_taken_for_split() {
    // 5x5 without tables, four stones far apart: the first turns capture nothing, so two
    // White steps a and b commute around a Black step x: R a x b and R b x a are one
    // position. Split P = R a x (its turns answered, P marked split); then Q = R b x has one
    // turn answered (a, to P's turn b) without having been split, and the status of R b
    // (whose turn x leads to Q) must not take Q for split.
    let (board, root) = parse_position("W3W/5/5/5/B3B w").unwrap();
    let after =
        |position: &Position, index: usize| fanorona_engine::turns(&board, position)[index].result;
    let white_steps = fanorona_engine::turns(&board, &root).len();
    let (p, rb) = (0..white_steps)
        .flat_map(|a| (0..white_steps).map(move |b| (a, b)))
        .filter(|(a, b)| a != b)
        .find_map(|(a, b)| {
            let (ra, rb) = (after(&root, a), after(&root, b));
            let black_steps = fanorona_engine::turns(&board, &ra).len();
            (0..black_steps).find_map(|x| {
                let (p, q) = (after(&ra, x), after(&rb, x));
                let p_turns = fanorona_engine::turns(&board, &p);
                let q_turns = fanorona_engine::turns(&board, &q);
                let shared = (q_turns.iter())
                    .filter(|t| p_turns.iter().any(|u| u.result == t.result))
                    .count();
                (shared > 0 && shared < q_turns.len()).then_some((p, rb))
            })
        })
        .expect("two steps that commute around a third");
    let store = tempfile::tempdir().unwrap();
    let setup = split_setup(
        solve_setup(&board, None, 1_000),
        Color::Black,
        0,
        Some(store.path()),
    );
    let setup = uninterrupted(setup);
    split(&setup, &p).unwrap();
    assert_eq!(files_in(store.path(), "split").len(), 1, "P marked split");

    // The status of R b: R b split (the root always is), none of its turns, though one of
    // them, x, leads to Q, whose turn a leads to a position the store answers.
    let status = SplitSetup {
        recall_only: true,
        ..setup
    };
    let seen = split(&status, &rb).unwrap();
    let lines: Vec<&Vec<String>> = seen.positions.iter().map(|p| &p.line).collect();
    assert_eq!(lines, [&Vec::<String>::new()], "only R b itself is split");
}

/// The distinct positions the turns of `position` lead to, in turn order.
fn distinct_children(board: &Board, position: &Position) -> Vec<Position> {
    let mut children: Vec<Position> = Vec::new();
    for turn in fanorona_engine::turns(board, position) {
        if !children.contains(&turn.result) {
            children.push(turn.result);
        }
    }
    children
}

/// A line of six turns from `root` through distinct positions whose end is also two turns
/// from `root` through a later first turn (stones taking the long way round, or stepping out
/// and back), and the index of that later turn among `root`'s distinct turns.
fn six_turns_to_a_two_turn_position(board: &Board, root: &Position) -> (Vec<Position>, usize) {
    let firsts = distinct_children(board, root);
    let two_turns: Vec<(usize, Position)> = (firsts.iter().enumerate())
        .flat_map(|(i, first)| {
            distinct_children(board, first)
                .into_iter()
                .map(move |p| (i, p))
        })
        .collect();
    let mut line = vec![*root];
    fn extend(
        board: &Board,
        line: &mut Vec<Position>,
        two_turns: &[(usize, Position)],
        firsts: &[Position],
    ) -> Option<(Vec<Position>, usize)> {
        if line.len() == 7 {
            let first = firsts.iter().position(|p| *p == line[1]).unwrap();
            let end = line[6];
            let later = two_turns.iter().find(|(i, p)| *i > first && *p == end)?;
            return Some((line.clone(), later.0));
        }
        for child in distinct_children(board, line.last().unwrap()) {
            if line.contains(&child) {
                continue;
            }
            line.push(child);
            let found = extend(board, line, two_turns, firsts);
            line.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    extend(board, &mut line, &two_turns, &firsts).expect("a six-turn line to a two-turn position")
}

#[test]
fn a_stored_split_is_rebuilt_at_the_shortest_line_to_each_position() {
    // 5x5 without tables, four stones far apart. The store has split the positions of a
    // six-turn line R p1 … p5 p6 from the root R, and the position R a (a a later turn of R
    // than p1's): p6 is also a turn from R a. The status of R must split p6 at its two-turn
    // line, the shortest, not at the six-turn one that a depth-first walk into p1 meets first.
    let (board, root) = parse_position("W3W/5/5/5/B3B w").unwrap();
    let (line, later_first) = six_turns_to_a_two_turn_position(&board, &root);
    let short_first = distinct_children(&board, &root)[later_first];
    let store = tempfile::tempdir().unwrap();
    let setup = uninterrupted(split_setup(
        solve_setup(&board, None, 10),
        Color::Black,
        0,
        Some(store.path()),
    ));
    for position in line[1..].iter().chain([&short_first]) {
        let answer = split(&setup, position).unwrap();
        assert_eq!(answer.outcome, Outcome::Unknown, "open at 10 nodes");
    }
    let status = SplitSetup {
        recall_only: true,
        ..setup
    };
    let seen = split(&status, &root).unwrap();
    let end = (seen.positions.iter())
        .find(|p| p.position == line[6])
        .expect("the six-turn line's end is split");
    assert_eq!(end.line.len(), 2, "split at {:?}", end.line);
    let chain = (seen.positions.iter()).filter(|p| line[1..6].contains(&p.position));
    assert_eq!(chain.count(), 5, "the line's other positions are split too");
}
