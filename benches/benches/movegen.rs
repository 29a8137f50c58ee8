//! Move generation: perft from the 5x9 start (leaf turns per second is the figure in the README)
//! and distinct-children generation over positions from a fixed game tree.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fanorona_engine::movegen::all_children;
use fanorona_engine::{children, perft, perft_unique, Board, Position, Start};
use std::hint::black_box;

fn perft_standard(c: &mut Criterion) {
    let board = Board::standard();
    let start = Position::standard_start(&board);
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for depth in [5, 6] {
        let leaves = perft(&board, &start, depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_with_input(BenchmarkId::new("turns/5x9", depth), &depth, |b, &depth| {
            b.iter(|| perft(&board, black_box(&start), depth))
        });
    }
    let lr = Start::LeftRight.position(&board).unwrap();
    group.throughput(Throughput::Elements(perft(&board, &lr, 5)));
    group.bench_function("turns/5x9-left-right/5", |b| {
        b.iter(|| perft(&board, black_box(&lr), 5))
    });
    group.throughput(Throughput::Elements(perft_unique(&board, &start, 5)));
    group.bench_function("unique/5x9/5", |b| {
        b.iter(|| perft_unique(&board, black_box(&start), 5))
    });
    group.finish();
}

/// The positions 4 plies from the start: a fixed, varied set of middle-game positions.
fn sample_positions(board: &Board) -> Vec<Position> {
    let mut frontier = vec![Position::standard_start(board)];
    for _ in 0..4 {
        let mut next = Vec::new();
        for position in &frontier {
            children(board, position, &mut next);
        }
        frontier = next;
    }
    frontier
}

fn child_generation(c: &mut Criterion) {
    let board = Board::standard();
    let positions = sample_positions(&board);
    let mut group = c.benchmark_group("children");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut out = Vec::with_capacity(256);
    group.bench_function("distinct/5x9-depth-4-positions", |b| {
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                out.clear();
                children(&board, black_box(position), &mut out);
                total += out.len();
            }
            total
        })
    });
    group.bench_function("all-turns/5x9-depth-4-positions", |b| {
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                out.clear();
                all_children(&board, black_box(position), &mut out);
                total += out.len();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, perft_standard, child_generation);
criterion_main!(benches);
