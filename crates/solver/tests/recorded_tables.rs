//! A rebuild of the small 5x9 tables against the statistics and checksums recorded in
//! `data/tables-5x9.md`: the same files, byte for byte (by checksum), and the same counts.

use fanorona_engine::{Board, Rules};
use fanorona_solver::{material_stats, BuildControl, Material, NoProgress, Tables};

/// Whether `cell` names a material, like `3v2` (other tables of the file start with other
/// words: builds, systems, timings).
fn is_material(cell: &str) -> bool {
    cell.split_once('v').is_some_and(|(mover, waiting)| {
        [mover, waiting]
            .iter()
            .all(|side| !side.is_empty() && side.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// (material, positions, wins, draws, losses, checksum) rows of the recorded tables: every row
/// whose first cell is a material.
fn recorded() -> Vec<(Material, [u64; 4], u64)> {
    let text = include_str!("../../../data/tables-5x9.md");
    text.lines()
        .filter(|line| line.starts_with("| "))
        .map(|line| -> Vec<&str> { line.trim_matches('|').split('|').map(str::trim).collect() })
        .filter(|cells| is_material(cells[0]))
        .map(|cells| {
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
