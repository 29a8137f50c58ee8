//! Endgame tables: building a small set, and random probes of memory-mapped files (the figure the
//! README gives as probes per second per core).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fanorona_engine::{Bitboard, Board, Color, Position, Rules, Value};
use fanorona_solver::file::Content;
use fanorona_solver::retrograde::values_only::solve_system_values;
use fanorona_solver::{BuildControl, Material, MaterialIndex, NoProgress, Tables};
use std::hint::black_box;

/// Random positions of the 4-stone materials, from a fixed seed.
fn random_positions(board: &Board, count: usize) -> Vec<Position> {
    let materials = [
        Material::new(1, 3),
        Material::new(2, 2),
        Material::new(3, 1),
    ];
    random_positions_of(board, &materials, count)
}

/// Random positions of `materials` in turn, from a fixed seed.
fn random_positions_of(board: &Board, materials: &[Material], count: usize) -> Vec<Position> {
    let mut seed = 0x2007_u64;
    let mut next = move || {
        seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^ (z >> 31)
    };
    (0..count)
        .map(|i| {
            let index = MaterialIndex::new(board, materials[i % materials.len()]);
            let (mover, waiting) = index.position(next() % index.size());
            Position {
                mover,
                waiting,
                side: Color::White,
            }
        })
        .collect()
}

/// Probe `positions` 32 at a time, as the search probes the children of a node together; the
/// sum of the values, so that nothing is optimised away.
fn probe_32_at_a_time(tables: &Tables, positions: &[Position], out: &mut Vec<Value>) -> u64 {
    let mut sum = 0u64;
    for chunk in positions.chunks(32) {
        tables.probe_values(black_box(chunk), out).unwrap();
        sum += out.iter().map(|&v| v as u64).sum::<u64>();
    }
    sum
}

fn probing(c: &mut Criterion) {
    let board = Board::standard();
    let directory = std::env::temp_dir().join("fanorona-bench-tables");
    let tables = Tables::build_files(
        &board,
        Rules::default(),
        4,
        None,
        &directory,
        &BuildControl::default(),
        &NoProgress,
    )
    .unwrap();
    let positions = random_positions(&board, 1 << 16);
    let mut group = c.benchmark_group("tables");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("probe/5x9-4-stones-random", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| tables.probe(black_box(p)).unwrap().0 as u64)
                .sum::<u64>()
        })
    });
    // The 7-stone files do not fit in cache: set FANORONA_TABLES to a directory holding the
    // 5x9 tables up to 7 stones (`fanorona tables build --stones 7`) to measure those probes.
    if let Some(directory) = std::env::var_os("FANORONA_TABLES") {
        let mut tables = Tables::open(&board, Rules::default(), 7, None, directory.as_ref())
            .expect("FANORONA_TABLES holds the 5x9 tables up to 7 stones");
        let materials: Vec<Material> = (1..7).map(|a| Material::new(a, 7 - a)).collect();
        let positions = random_positions_of(&board, &materials, 1 << 20);
        group.throughput(Throughput::Elements(positions.len() as u64));
        let mut probe_all = |name: &str, tables: &Tables| {
            group.bench_function(name, |b| {
                b.iter(|| {
                    positions
                        .iter()
                        .map(|p| tables.probe(black_box(p)).unwrap().0 as u64)
                        .sum::<u64>()
                })
            });
        };
        probe_all("probe/5x9-7-stones-random-mapped-files", &tables);
        tables.load_into_memory().expect("room for the tables");
        probe_all("probe/5x9-7-stones-random-in-memory", &tables);
        // As the search probes: the children of a position together, 32 at a time.
        group.bench_function("probe/5x9-7-stones-random-in-memory-32-at-a-time", |b| {
            let mut out = Vec::new();
            b.iter(|| probe_32_at_a_time(&tables, &positions, &mut out))
        });
        // What a search probes: the value files, copied into memory (five values a byte).
        let open_values = || {
            Tables::open_available(
                &board,
                Rules::default(),
                7,
                Content::Values,
                directory.as_ref(),
            )
            .expect("FANORONA_TABLES holds the 5x9 value files up to 7 stones")
        };
        let mut values = open_values();
        values.load_into_memory().expect("room for the tables");
        group.bench_function(
            "probe/5x9-7-stones-random-value-files-in-memory-32-at-a-time",
            |b| {
                let mut out = Vec::new();
                b.iter(|| probe_32_at_a_time(&values, &positions, &mut out))
            },
        );
        drop(values);
        // The same copies packed the smallest (lopsided tables as their most common value and
        // its exceptions), as they are where they do not all fit five values a byte: a budget
        // a byte short of that.
        let five_a_byte: u64 = (1..=7)
            .flat_map(|stones| (1..stones).map(move |a| Material::new(a, stones - a)))
            .map(|material| MaterialIndex::size_of(&board, material).div_ceil(5))
            .sum();
        let mut smallest = open_values();
        let left = smallest.load_into_memory_within(five_a_byte - 1);
        assert_eq!(
            left.expect("room for the tables"),
            0,
            "all packed the smallest"
        );
        group.bench_function(
            "probe/5x9-7-stones-random-value-files-packed-smallest-32-at-a-time",
            |b| {
                let mut out = Vec::new();
                b.iter(|| probe_32_at_a_time(&smallest, &positions, &mut out))
            },
        );
    }
    group.finish();
}

/// Probes of a material answered from its table and one ply on (`Tables::derive`): what a
/// search pays for keeping half a system in memory. 3x5 tables up to 8 stones, in memory;
/// random 3v5 positions, 32 at a time as the search asks for a node's children.
fn probing_derived(c: &mut Criterion) {
    let board = Board::new(3, 5).unwrap();
    let material = Material::new(3, 5);
    let stored = Tables::build(&board, Rules::default(), 8);
    let mut derived = Tables::build(&board, Rules::default(), 8);
    derived.derive(material).unwrap();
    let positions = random_positions_of(&board, &[material], 1 << 14);
    let mut group = c.benchmark_group("tables");
    group.throughput(Throughput::Elements(positions.len() as u64));
    for (name, tables) in [("stored", &stored), ("derived", &derived)] {
        let id = format!("probe/3x5-3v5-random-32-at-a-time-{name}");
        group.bench_function(id, |b| {
            let mut out = Vec::new();
            b.iter(|| probe_32_at_a_time(tables, &positions, &mut out))
        });
    }
    group.finish();
}

fn building(c: &mut Criterion) {
    let board = Board::new(3, 5).unwrap();
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    let positions = Tables::build(&board, Rules::default(), 8).positions();
    group.throughput(Throughput::Elements(positions));
    group.bench_function("build/3x5-8-stones-in-memory", |b| {
        b.iter(|| Tables::build(&board, Rules::default(), 8))
    });
    group.finish();
}

/// The 8-stone layer of 3x5 solved again for values alone over the 7-stone tables, with a
/// frontier bit per position and per block of 8 (`tables build --values-only`).
fn building_values_only(c: &mut Criterion) {
    let board = Board::new(3, 5).unwrap();
    let rules = Rules::default();
    let smaller = Tables::build(&board, rules, 7);
    let probe = |positions: &[Position], out: &mut Vec<Value>| {
        smaller
            .probe_values(positions, out)
            .expect("smaller materials are in the tables")
    };
    let systems: Vec<Material> = (1..=4)
        .map(|mover| Material::new(mover, 8 - mover))
        .collect();
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    let mut materials: Vec<Material> = systems.iter().flat_map(|&m| [m, m.swapped()]).collect();
    materials.dedup();
    let slots: u64 = materials
        .iter()
        .map(|&m| MaterialIndex::new(&board, m).size())
        .sum();
    group.throughput(Throughput::Elements(slots));
    for frontier_block in [1, 8] {
        let name = format!("build-values-only/3x5-8-stones-frontier-block-{frontier_block}");
        group.bench_function(name, |b| {
            b.iter(|| {
                for &material in &systems {
                    solve_system_values(
                        &board,
                        &rules,
                        material,
                        frontier_block,
                        &probe,
                        &NoProgress,
                        None,
                    )
                    .expect("a build in memory neither saves nor stops");
                }
            })
        });
    }
    group.finish();
}

/// Slot to position and back, for random slots of a 9-stone material (what the retrograde
/// sweeps do for every position they pass on and every predecessor).
fn indexing(c: &mut Criterion) {
    let board = Board::standard();
    let index = MaterialIndex::new(&board, Material::new(3, 6));
    let mut seed = 0x2007_u64;
    let slots: Vec<u64> = (0..4096)
        .map(|_| {
            seed = fanorona_engine::hash::mix(seed);
            seed % index.size()
        })
        .collect();
    let positions: Vec<(_, _)> = slots.iter().map(|&i| index.position(i)).collect();
    let mut group = c.benchmark_group("index");
    group.throughput(Throughput::Elements(slots.len() as u64));
    group.bench_function("position-of-slot/5x9-3v6-random", |b| {
        b.iter(|| {
            slots
                .iter()
                .map(|&i| index.position(black_box(i)).1 .0)
                .fold(0, |a, w| a ^ w)
        })
    });
    let slots_of = |positions: &[(Bitboard, Bitboard)]| {
        positions
            .iter()
            .map(|&(mover, waiting)| index.index(black_box(mover), black_box(waiting)))
            .fold(0, |a, i| a ^ i)
    };
    group.bench_function("slot-of-position/5x9-3v6-random", |b| {
        b.iter(|| slots_of(&positions))
    });
    // The same positions under the board's symmetries in turn: most are not canonical, so
    // the index must find their canonical images first (what every probe of a child does).
    let symmetries = fanorona_engine::symmetries(&board);
    let images: Vec<(_, _)> = positions
        .iter()
        .enumerate()
        .map(|(k, &(mover, waiting))| {
            let symmetry = &symmetries[k % symmetries.len()];
            (symmetry.set(mover), symmetry.set(waiting))
        })
        .collect();
    group.bench_function("slot-of-position/5x9-3v6-random-images", |b| {
        b.iter(|| slots_of(&images))
    });
    // A mover of 7 stones: 45 M sets, whose class table (11 MB; 180 MB as a class a rank)
    // outgrows the caches, as the 7- and 8-stone movers' do in every 9-stone search.
    let large = MaterialIndex::new(&board, Material::new(7, 2));
    let large_images: Vec<(_, _)> = slots
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let (mover, waiting) = large.position(i % large.size());
            let symmetry = &symmetries[k % symmetries.len()];
            (symmetry.set(mover), symmetry.set(waiting))
        })
        .collect();
    group.bench_function("slot-of-position/5x9-7v2-random-images", |b| {
        b.iter(|| {
            large_images
                .iter()
                .map(|&(mover, waiting)| large.index(black_box(mover), black_box(waiting)))
                .fold(0, |a, i| a ^ i)
        })
    });
    group.bench_function("canonical/5x9-3v6-random-images", |b| {
        b.iter(|| {
            images
                .iter()
                .map(|&(mover, waiting)| {
                    let (m, w) = index
                        .symmetries()
                        .canonical(black_box(mover), black_box(waiting));
                    m.0 ^ w.0
                })
                .fold(0, |a, x| a ^ x)
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    probing,
    probing_derived,
    building,
    building_values_only,
    indexing
);
criterion_main!(benches);
