//! Table statistics recorded in a Markdown file such as `data/tables-5x9.md`: every table row
//! whose first cell is a material, in the columns `tables stats` prints (material, positions,
//! wins, draws, losses, longest win, longest loss, checksum). Other rows and text are passed
//! over, so that the record can sit in prose beside tables of builds and timings.
//!
//! A file's checksum is kept in its trailer and matched against its contents before any job
//! trusts it, so a table file whose trailer gives the recorded checksum is the recorded file,
//! byte for byte: one read of its last bytes says that a table built here is the one verified
//! elsewhere.

use crate::file::Content;
use crate::index::Material;

/// One recorded row: a material's counts and the checksum of one of its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedTable {
    pub material: Material,
    pub positions: u64,
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// The longest win and loss in plies; `None` (`-` in the row) for a table of values alone.
    pub longest: Option<(u16, u16)>,
    pub checksum: u64,
}

impl RecordedTable {
    /// The file whose checksum the row records: the entry file where it records distances,
    /// the value file where it records none (a table built for values alone has no other).
    pub fn content(&self) -> Content {
        match self.longest {
            Some(_) => Content::Entries,
            None => Content::Values,
        }
    }
}

/// A row that names a material but cannot be read, or a material recorded twice unalike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based.
    pub line: usize,
    pub why: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for RecordError {}

/// The recorded rows of `text`, in their order. A material may appear twice only in the same
/// row (a record repeated), never with other figures.
pub fn recorded_tables(text: &str) -> Result<Vec<RecordedTable>, RecordError> {
    let mut rows: Vec<RecordedTable> = Vec::new();
    for (number, line) in text.lines().enumerate().map(|(i, line)| (i + 1, line)) {
        let cells = cells_of(line);
        if cells.first().is_none_or(|cell| material_of(cell).is_none()) {
            continue;
        }
        let row = row_of(&cells).map_err(|why| RecordError { line: number, why })?;
        match rows.iter().find(|seen| seen.material == row.material) {
            Some(seen) if *seen != row => {
                return Err(RecordError {
                    line: number,
                    why: format!("{} is recorded twice, with other figures", row.material),
                })
            }
            Some(_) => {}
            None => rows.push(row),
        }
    }
    Ok(rows)
}

/// The cells of a Markdown table row (`| a | b |`); none for any other line.
fn cells_of(line: &str) -> Vec<&str> {
    let line = line.trim();
    if !line.starts_with('|') || !line.ends_with('|') || line.len() < 2 {
        return Vec::new();
    }
    line[1..line.len() - 1].split('|').map(str::trim).collect()
}

/// `3v6` as a material; `None` for any other word (a header, `--only 4v4`, a number).
fn material_of(cell: &str) -> Option<Material> {
    let (mover, waiting) = cell.split_once('v')?;
    let count = |side: &str| -> Option<usize> {
        match !side.is_empty() && side.bytes().all(|b| b.is_ascii_digit()) {
            true => side.parse().ok(),
            false => None,
        }
    };
    Some(Material::new(count(mover)?, count(waiting)?))
}

/// A row whose first cell is a material, read whole.
fn row_of(cells: &[&str]) -> Result<RecordedTable, String> {
    let material = material_of(cells[0]).expect("a row of a material");
    if cells.len() != 8 {
        return Err(format!(
            "the row of {material} has {} cells, not the 8 of `tables stats` (material, \
             positions, wins, draws, losses, longest win, longest loss, checksum)",
            cells.len()
        ));
    }
    let count = |at: usize, what: &str| -> Result<u64, String> {
        cells[at]
            .parse()
            .map_err(|_| format!("{material}: {what} '{}' is not a count", cells[at]))
    };
    let plies = |at: usize, what: &str| -> Result<Option<u16>, String> {
        match cells[at] {
            "-" => Ok(None),
            cell => cell.parse().map(Some).map_err(|_| {
                format!("{material}: {what} '{cell}' is neither a number of plies nor -")
            }),
        }
    };
    let longest = match (plies(5, "longest win")?, plies(6, "longest loss")?) {
        (Some(win), Some(loss)) => Some((win, loss)),
        (None, None) => None,
        _ => {
            return Err(format!(
                "{material}: one longest distance recorded without the other"
            ))
        }
    };
    let checksum = u64::from_str_radix(cells[7], 16)
        .ok()
        .filter(|_| cells[7].len() == 16)
        .ok_or_else(|| format!("{material}: checksum '{}' is not 16 hex digits", cells[7]))?;
    Ok(RecordedTable {
        material,
        positions: count(1, "positions")?,
        wins: count(2, "wins")?,
        draws: count(3, "draws")?,
        losses: count(4, "losses")?,
        longest,
        checksum,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "| material | positions | wins | draws | losses | longest win | \
                          longest loss | checksum |\n|---|---|---|---|---|---|---|---|\n";

    #[test]
    fn rows_of_materials_are_read_and_other_rows_passed_over() {
        let text = format!(
            "Some prose.\n\n{HEADER}| 1v2 | 10 | 4 | 5 | 1 | 9 | 30 | 00000000000000ff |\n\
             | 5v4 | 20 | 10 | 6 | 4 | - | - | 6006675a882cbdf6 |\n\n\
             | build | seconds |\n|---|---|\n| 4v4 | 1486 |\n| 2020 runs | 3 |\n"
        );
        // `| 4v4 | 1486 |` is a material's row of another table: it must be refused, not
        // taken for a record.
        let error = recorded_tables(&text).unwrap_err();
        assert_eq!(error.line, 10);
        assert!(error.why.contains("has 2 cells"), "{error}");
        let text = text.replace("| 4v4 | 1486 |", "| --only 4v4 | 1486 |");
        let rows = recorded_tables(&text).unwrap();
        assert_eq!(
            rows,
            [
                RecordedTable {
                    material: Material::new(1, 2),
                    positions: 10,
                    wins: 4,
                    draws: 5,
                    losses: 1,
                    longest: Some((9, 30)),
                    checksum: 0xff,
                },
                RecordedTable {
                    material: Material::new(5, 4),
                    positions: 20,
                    wins: 10,
                    draws: 6,
                    losses: 4,
                    longest: None,
                    checksum: 0x6006675a882cbdf6,
                },
            ]
        );
        assert_eq!(rows[0].content(), Content::Entries);
        assert_eq!(rows[1].content(), Content::Values);
    }

    #[test]
    fn a_row_that_cannot_be_read_is_named_by_its_line() {
        let good = "| 2v1 | 10 | 4 | 5 | 1 | 9 | 30 | 00000000000000ff |";
        let bad = [
            (
                "| 2v1 | 10 | 4 | five | 1 | 9 | 30 | 00000000000000ff |",
                "draws 'five'",
            ),
            (
                "| 2v1 | 10 | 4 | 5 | 1 | 9 | - | 00000000000000ff |",
                "without the other",
            ),
            ("| 2v1 | 10 | 4 | 5 | 1 | 9 | 30 | ff |", "16 hex digits"),
            (
                "| 2v1 | 10 | 4 | 5 | 1 | 9 | 30 | 00000000000000fg |",
                "16 hex digits",
            ),
            (
                "| 2v1 | 10 | 4 | 5 | 1 | 9 | 3o | 00000000000000ff |",
                "longest loss '3o'",
            ),
        ];
        for (row, why) in bad {
            let error = recorded_tables(&format!("{HEADER}{good}\n{row}\n")).unwrap_err();
            assert_eq!(error.line, 4, "{row}");
            assert!(error.to_string().contains(why), "{row}: {error}");
        }
    }

    #[test]
    fn a_material_recorded_twice_must_be_recorded_alike() {
        let row = "| 2v1 | 10 | 4 | 5 | 1 | 9 | 30 | 00000000000000ff |";
        let twice = recorded_tables(&format!("{HEADER}{row}\n{row}\n")).unwrap();
        assert_eq!(twice.len(), 1);
        let other = row.replace("ff |", "fe |");
        let error = recorded_tables(&format!("{HEADER}{row}\n{other}\n")).unwrap_err();
        assert_eq!(
            (error.line, error.why.contains("recorded twice")),
            (4, true)
        );
    }
}
