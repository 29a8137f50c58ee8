//! Proof-number search with table probes at every node: nodes per second on one core (the
//! figure the README gives). 5x9 positions of 5 stones, each searched for the side to move over
//! the tables of up to 4 stones. And a split search against one search of the same question.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fanorona_engine::Color;
use fanorona_engine::{Board, Position, Rules};
use fanorona_solver::{solve, split, Limits, NoProgress, Search, SolveSetup, SplitSetup, Tables};

/// Random positions of 3 against 2 stones, from a fixed seed.
fn positions(board: &Board, count: usize) -> Vec<Position> {
    let mut seed = 0x5eed_u64;
    (0..count)
        .map(|_| Position::random_placement(board, 3, 2, &mut seed))
        .collect()
}

/// Search every position once (a fresh transposition table each); the nodes expanded.
fn search_all(board: &Board, tables: &Tables, positions: &[Position]) -> u64 {
    positions
        .iter()
        .map(|position| {
            let limits = Limits {
                nodes: 20_000,
                memory: 4 << 20,
                ..Limits::default()
            };
            let mut search = Search::new(
                board,
                Rules::default(),
                Some(tables),
                position.side,
                limits,
                &NoProgress,
            );
            search.solve(position);
            search.nodes()
        })
        .sum()
}

fn searching(c: &mut Criterion) {
    let board = Board::standard();
    let tables = Tables::build(&board, Rules::default(), 4);
    let positions = positions(&board, 200);
    let nodes = search_all(&board, &tables, &positions);
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("df-pn/5x9-5-stones-over-4-stone-tables", |b| {
        b.iter(|| search_all(&board, &tables, &positions))
    });
    group.finish();
}

/// The 3x7 start (a White win) answered by one search, and by a split into searches of at most
/// 2,000 nodes each (`solve --split --max-nodes 2000`): what splitting costs where one search
/// would do.
fn splitting(c: &mut Criterion) {
    let board = Board::new(3, 7).unwrap();
    let start = Position::standard_start(&board);
    let setup = |nodes| {
        let limits = Limits {
            nodes,
            memory: 1 << 20,
            ..Limits::default()
        };
        SolveSetup {
            only: Some(Color::White),
            ..SolveSetup::new(&board, None, limits)
        }
    };
    let mut group = c.benchmark_group("split");
    group.sample_size(10);
    group.bench_function("one-search/3x7-start", |b| {
        b.iter(|| solve(&setup(100_000_000), &start).unwrap())
    });
    let split_setup = SplitSetup {
        solve: setup(2_000),
        side: Color::White,
        depth: 12,
        parallel: 1,
        store: None,
        recall_only: false,
    };
    group.bench_function("split-2000-node-searches/3x7-start", |b| {
        b.iter(|| split(&split_setup, &start).unwrap())
    });
    group.finish();
}

criterion_group!(benches, searching, splitting);
criterion_main!(benches);
