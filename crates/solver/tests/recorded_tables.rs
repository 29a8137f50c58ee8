//! A rebuild of the small 5x9 tables against the statistics and checksums recorded in
//! `data/tables-5x9.md`: the same files, byte for byte (by checksum), and the same counts.

use fanorona_engine::{Board, Rules};
use fanorona_solver::{
    material_stats, recorded_tables, BuildControl, Material, NoProgress, RecordedTable, Tables,
};

/// The rows of the recorded tables, read as `tables list --expect` reads them.
fn recorded() -> Vec<RecordedTable> {
    recorded_tables(include_str!("../../../data/tables-5x9.md")).expect("data/tables-5x9.md reads")
}

#[test]
fn the_record_holds_every_5x9_table_up_to_nine_stones() {
    let rows = recorded();
    for stones in 2..=9 {
        for material in (1..stones).map(|a| Material::new(a, stones - a)) {
            let row = rows.iter().find(|row| row.material == material);
            let row = row.unwrap_or_else(|| panic!("{material} is not recorded"));
            // Up to 8 stones the entry files (with distances), at 9 the value files.
            assert_eq!(row.longest.is_some(), stones <= 8, "{material}");
        }
    }
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
    let rows: Vec<RecordedTable> = recorded()
        .into_iter()
        .filter(|row| row.material.stones() <= STONES)
        .collect();
    assert_eq!(rows.len(), 6, "data/tables-5x9.md has lost rows");
    for row in rows {
        let material = row.material;
        let stats = material_stats(&tables, material).unwrap();
        assert_eq!(
            [stats.positions, stats.wins, stats.draws, stats.losses],
            [row.positions, row.wins, row.draws, row.losses],
            "{material}"
        );
        let longest = Some((stats.longest_win, stats.longest_loss));
        assert_eq!(longest, row.longest, "{material}");
        assert_eq!(tables.checksum(material), Some(row.checksum), "{material}");
    }
}
