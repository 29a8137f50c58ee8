//! Move generation: perft from the 5x9 start (leaf turns per second is the figure in the README),
//! distinct-children generation over positions from a fixed game tree, and un-moves of random
//! endgame positions.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use fanorona_engine::movegen::{all_children, count_turns, paika_predecessors};
use fanorona_engine::{
    children, perft, perft_unique, Bitboard, Board, Color, Point, Position, Start,
};
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
    // What a proof-number search asks of every new child (its mobility, for its first
    // numbers): over the positions one ply further, the children of the sample.
    let mut next = Vec::new();
    for position in &positions {
        children(&board, position, &mut next);
    }
    group.throughput(Throughput::Elements(next.len() as u64));
    group.bench_function("count-turns/5x9-depth-5-positions", |b| {
        b.iter(|| {
            next.iter()
                .map(|position| count_turns(&board, black_box(position)))
                .sum::<u64>()
        })
    });
    group.finish();
}

/// Random endgame positions, `mover` stones against `waiting`, from a fixed seed.
fn random_endgame_positions(board: &Board, mover: usize, waiting: usize) -> Vec<Position> {
    let mut seed = 0x2007_u64;
    let mut random_set = |stones: usize, taken: Bitboard| {
        let mut set = Bitboard::EMPTY;
        while set.count() < stones as u32 {
            seed = fanorona_engine::hash::mix(seed);
            let point = Bitboard::from_point((seed % board.points() as u64) as Point);
            if !(point & (set | taken)).any() {
                set |= point;
            }
        }
        set
    };
    (0..4096)
        .map(|_| {
            let mover = random_set(mover, Bitboard::EMPTY);
            let waiting = random_set(waiting, mover);
            Position {
                mover,
                waiting,
                side: Color::White,
            }
        })
        .collect()
}

/// Un-moves (what retrograde analysis walks) of random 9-stone positions.
fn predecessor_generation(c: &mut Criterion) {
    let board = Board::standard();
    let positions = random_endgame_positions(&board, 6, 3);
    let mut group = c.benchmark_group("predecessors");
    group.throughput(Throughput::Elements(positions.len() as u64));
    let mut out = Vec::with_capacity(256);
    group.bench_function("paika/5x9-6v3-random", |b| {
        b.iter(|| {
            let mut total = 0;
            for position in &positions {
                out.clear();
                paika_predecessors(&board, black_box(position), &mut out);
                total += out.len();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    perft_standard,
    child_generation,
    predecessor_generation
);
criterion_main!(benches);
