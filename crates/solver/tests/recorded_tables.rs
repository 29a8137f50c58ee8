//! A rebuild of the small 5x9 tables against the statistics and checksums recorded in
//! `data/tables-5x9.md`: the same files, byte for byte (by checksum), and the same counts.

use fanorona_engine::{Board, Rules};
use fanorona_solver::{material_stats, BuildControl, Material, NoProgress, Tables};

/// (material, positions, wins, draws, losses, checksum) rows of the recorded table.
fn recorded() -> Vec<(Material, [u64; 4], u64)> {
    let text = include_str!("../../../data/tables-5x9.md");
    text.lines()
        .filter(|line| line.starts_with("| ") && line.as_bytes()[2].is_ascii_digit())
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            let (mover, waiting) = cells[0].split_once('v').expect("a material like 3v2");
            let material = Material::new(mover.parse().unwrap(), waiting.parse().unwrap());
            let counts = [1, 2, 3, 4].map(|i| cells[i].parse::<u64>().unwrap());
            (material, counts, u64::from_str_radix(cells[7], 16).unwrap())
        })
        .collect()
}

#[test]
fn rebuilt_small_5x9_tables_match_the_record() {
    const STONES: usize = 4;
    let directory = tempfile::tempdir().unwrap();
    let tables = Tables::build_files(
        &Board::standard(),
        Rules::default(),
        STONES,
        None,
        directory.path(),
        &BuildControl::default(),
        &NoProgress,
    )
    .unwrap();
    let rows: Vec<_> = recorded()
        .into_iter()
        .filter(|(m, _, _)| m.stones() <= STONES)
        .collect();
    assert_eq!(rows.len(), 6, "data/tables-5x9.md has lost rows");
    for (material, [positions, wins, draws, losses], checksum) in rows {
        let stats = material_stats(&tables, material).unwrap();
        assert_eq!(
            [stats.positions, stats.wins, stats.draws, stats.losses],
            [positions, wins, draws, losses],
            "{material:?}"
        );
        assert_eq!(tables.checksum(material), Some(checksum), "{material:?}");
    }
}
