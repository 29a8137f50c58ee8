//! Proof-number search with table probes at every node: nodes per second on one core (the
//! figure the README gives). 5x9 positions of 5 stones, each searched for the side to move over
//! the tables of up to 4 stones.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fanorona_engine::{Board, Position, Rules};
use fanorona_solver::{Limits, NoProgress, Search, Tables};

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

criterion_group!(benches, searching);
criterion_main!(benches);
