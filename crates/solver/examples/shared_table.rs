//! Whether searches of a position's turns gain from sharing one transposition table:
//! `cargo run --release -p fanorona-solver --example shared_table -- FEN SIDE --tables DIR
//! [--stones 7] [--nodes N] [--memory MIB] [--shared [--root-first]]`. Searches SIDE's question ("can SIDE
//! force a win?") after each distinct turn of FEN, one after another, each with up to N nodes:
//! each in a fresh table (as `solve --split` does), or with `--shared` all in one table, each
//! search going on from what the ones before it left there. Prints each answer, its nodes and
//! seconds, and the totals. With `--root-first` the shared table first searches FEN itself
//! with N nodes, as a split's leaf is searched before it is split.

use fanorona_engine::{children, format_position, parse_position, Color, Rules};
use fanorona_solver::{Limits, NoProgress, Outcome, Search, Tables};
use std::path::PathBuf;
use std::time::Instant;

/// What the command line asks for.
struct Options {
    fen: String,
    side: Color,
    tables: PathBuf,
    stones: usize,
    nodes: u64,
    memory: usize,
    shared: bool,
    root_first: bool,
}

fn options() -> Options {
    let mut args = std::env::args().skip(1);
    let fen = args.next().expect("FEN");
    let side = match args.next().as_deref() {
        Some("white") => Color::White,
        Some("black") => Color::Black,
        other => panic!("SIDE is white or black, not {other:?}"),
    };
    let mut options = Options {
        fen,
        side,
        tables: PathBuf::new(),
        stones: 7,
        nodes: 20_000_000,
        memory: 1024,
        shared: false,
        root_first: false,
    };
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{arg} needs a value"));
        match arg.as_str() {
            "--tables" => options.tables = PathBuf::from(value()),
            "--stones" => options.stones = value().parse().expect("--stones N"),
            "--nodes" => options.nodes = value().parse().expect("--nodes N"),
            "--memory" => options.memory = value().parse().expect("--memory MIB"),
            "--shared" => options.shared = true,
            "--root-first" => options.root_first = true,
            other => panic!("unknown argument {other}"),
        }
    }
    options
}

fn main() {
    let options = options();
    let (board, root) = parse_position(&options.fen).expect("a position");
    let rules = Rules::default();
    let tables = Tables::open(&board, rules, options.stones, None, &options.tables)
        .unwrap_or_else(|e| panic!("the tables in {}: {e}", options.tables.display()));
    let limits = Limits {
        nodes: options.nodes,
        memory: options.memory << 20,
        ..Limits::default()
    };
    let new_search = || {
        Search::new(
            &board,
            rules,
            Some(&tables),
            options.side,
            limits,
            &NoProgress,
        )
    };
    let mut next = Vec::new();
    children(&board, &root, &mut next);
    next.sort_unstable_by_key(fanorona_engine::hash);
    next.dedup();
    let mut shared = options.shared.then(new_search);
    if let Some(search) = shared.as_mut().filter(|_| options.root_first) {
        let start = Instant::now();
        let outcome = search.solve(&root);
        println!(
            "the root first: {outcome:?}, {} nodes, {:.1} s",
            search.nodes(),
            start.elapsed().as_secs_f64()
        );
    }
    let (mut total_nodes, clock) = (0, Instant::now());
    let (mut proven, mut disproven, mut open) = (0, 0, 0);
    for child in &next {
        let start = Instant::now();
        let mut fresh;
        let search = match shared.as_mut() {
            Some(search) => search,
            None => {
                fresh = new_search();
                &mut fresh
            }
        };
        let before = search.nodes();
        search.extend_limit(options.nodes);
        let outcome = search.solve(child);
        let nodes = search.nodes() - before;
        total_nodes += nodes;
        match outcome {
            Outcome::Proven => proven += 1,
            Outcome::Disproven => disproven += 1,
            Outcome::Unknown => open += 1,
        }
        println!(
            "{}: {outcome:?}, {nodes} nodes, {:.1} s",
            format_position(&board, child),
            start.elapsed().as_secs_f64()
        );
    }
    println!(
        "{} turns ({}): {proven} proven, {disproven} disproven, {open} open; {total_nodes} nodes, \
         {:.1} s",
        next.len(),
        if options.shared {
            "one shared table"
        } else {
            "a table each"
        },
        clock.elapsed().as_secs_f64()
    );
}
