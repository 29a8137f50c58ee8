//! Packed certificates: the strategist's choices alone, walked out again by the rules.

use fanorona_engine::notation::format_position;
use fanorona_engine::{parse_turn, Board, Position, Rules, Start, Value};
use fanorona_solver::packed::{pack, unpack, PackedCertificate};
use fanorona_solver::{check, solve, Certificate, Limits, Node, SolveSetup, Tables};

fn board_3x5() -> Board {
    Board::new(3, 5).unwrap()
}

/// The 3x5 start solved over its 4-stone tables: a White win with table leaves.
fn solved_3x5(tables: &Tables) -> Certificate {
    let board = board_3x5();
    let setup = SolveSetup::new(&board, Some(tables), Limits::default());
    let solution = solve(&setup, &Position::standard_start(&board)).unwrap();
    assert_eq!(solution.value, Some(Value::Win));
    solution.certificate.expect("a certificate")
}

/// In the walk of `certificate`'s first claim, a choice `(k, index)` that swaps the k-th
/// choice, one that leads to a leaf, for another leaf that White has not won: the choices
/// still fit the walk, but the strategy no longer wins.
fn a_losing_choice(certificate: &Certificate, tables: &Tables) -> Option<(usize, u32)> {
    let board = board_3x5();
    // The value of a leaf for its side to move: by the rules, or by the tables.
    let leaf_value = |node: &Node| {
        let position = node.position();
        let rules = Rules::default().outcome(&board, &position);
        let in_tables = position.mover.count() + position.waiting.count() <= 4;
        rules.or_else(|| in_tables.then(|| tables.probe(&position).unwrap().value()))
    };
    let walked = unpack(&pack(certificate).unwrap()).unwrap();
    let choices = walked.claims[0]
        .strategy
        .iter()
        .filter_map(|(node, choice)| Some((*node, (*choice)?)));
    // The k-th choice written is at the k-th of those positions with more than one child.
    let mut k = 0;
    for (node, chosen) in choices {
        let mut children: Vec<Node> = fanorona_engine::turns(&board, &node.position())
            .iter()
            .map(|turn| Node::of(&turn.result))
            .collect();
        children.sort_unstable();
        children.dedup();
        if children.len() == 1 {
            continue;
        }
        k += 1;
        if leaf_value(&chosen).is_none() {
            continue;
        }
        // Black moves at the leaf: anything but its loss is no win of White's.
        let lost = children
            .iter()
            .position(|child| leaf_value(child).is_some_and(|value| value != Value::Loss));
        if let Some(index) = lost {
            return Some((k - 1, index as u32));
        }
    }
    None
}

/// Why `packed`, edited by `edit`, cannot be unpacked.
fn unpack_error(packed: &PackedCertificate, edit: impl Fn(&mut Vec<u32>)) -> String {
    let mut edited = packed.clone();
    edit(&mut edited.claims[0].choices);
    let bytes = edited.to_bytes().unwrap();
    unpack(&bytes).unwrap_err().to_string()
}

#[test]
fn a_packed_certificate_is_small_and_proves_the_same() {
    let tables = Tables::build(&board_3x5(), Rules::default(), 4);
    let certificate = solved_3x5(&tables);
    let packed = pack(&certificate).unwrap();
    let full = bincode::encode_to_vec(&certificate, bincode::config::standard()).unwrap();
    assert!(
        packed.len() * 4 < full.len(),
        "{} vs {}",
        packed.len(),
        full.len()
    );
    let unpacked = Certificate::from_bytes(&packed).unwrap();
    assert_eq!(unpacked.table_stones, 4);
    let confirmed = check(&unpacked, Some(&tables)).unwrap();
    assert_eq!(confirmed.value, Some(Value::Win));
    assert!(confirmed.table_leaves > 0);
    assert_eq!(confirmed, check(&certificate, Some(&tables)).unwrap());
    // Packing what was unpacked gives the same bytes: the walk is fixed by the rules.
    assert_eq!(pack(&unpacked).unwrap(), packed);
}

#[test]
fn positions_no_strategy_reaches_are_dropped() {
    let tables = Tables::build(&board_3x5(), Rules::default(), 4);
    let certificate = solved_3x5(&tables);
    let claim = &certificate.claims[0];
    let root_choice = claim
        .strategy
        .iter()
        .find(|(node, _)| *node == certificate.root)
        .and_then(|(_, choice)| *choice)
        .expect("White chooses at the start");
    // Another first turn of White, and the position it leads to: never reached.
    let board = board_3x5();
    let start = Position::standard_start(&board);
    let other = fanorona_engine::turns(&board, &start)
        .into_iter()
        .map(|turn| fanorona_solver::Node::of(&turn.result))
        .find(|node| *node != root_choice && !claim.strategy.iter().any(|(n, _)| n == node))
        .expect("the 3x5 start has another turn");
    let mut padded = certificate.clone();
    padded.claims[0].strategy.push((other, None));
    let unpacked = unpack(&pack(&padded).unwrap()).unwrap();
    assert_eq!(unpacked.size(), certificate.size());
    assert!(!unpacked.claims[0].strategy.iter().any(|(n, _)| *n == other));
}

#[test]
fn a_strategy_without_a_choice_it_needs_cannot_be_packed() {
    let tables = Tables::build(&board_3x5(), Rules::default(), 4);
    let certificate = solved_3x5(&tables);
    let mut missing = certificate.clone();
    let at = missing.claims[0]
        .strategy
        .iter()
        .position(|(node, choice)| choice.is_some() && *node != certificate.root)
        .expect("a position where White moves after the start");
    missing.claims[0].strategy.remove(at);
    let why = pack(&missing).unwrap_err().to_string();
    assert!(why.contains("neither a leaf nor in the strategy"), "{why}");
}

#[test]
fn choices_that_do_not_fit_the_walk_are_refused() {
    let tables = Tables::build(&board_3x5(), Rules::default(), 4);
    let certificate = solved_3x5(&tables);
    let packed = PackedCertificate::of(&certificate).unwrap();
    let why = unpack_error(&packed, |choices| choices[0] = 200);
    assert!(why.contains("choice 200 at BBBBB/BW1BW/WWWWW w"), "{why}");
    let why = unpack_error(&packed, |choices| {
        choices.pop();
    });
    assert!(
        why.contains("its choices end before its strategy does"),
        "{why}"
    );
    let why = unpack_error(&packed, |choices| choices.push(0));
    assert!(why.contains("1 choices left over"), "{why}");
    // A changed choice that fits the walk is a strategy again: the checker judges it.
    let bad = a_losing_choice(&certificate, &tables).expect("a choice into a lost table leaf");
    let mut edited = packed.clone();
    edited.claims[0].choices[bad.0] = bad.1;
    let changed = edited.unpacked().unwrap();
    let why = check(&changed, Some(&tables)).unwrap_err().to_string();
    assert!(why.contains("bad for the strategist"), "{why}");
    // Bytes cut short or left over are named.
    let bytes = pack(&certificate).unwrap();
    let why = unpack(&bytes[..bytes.len() - 1]).unwrap_err().to_string();
    assert!(why.contains("cannot be decoded"), "{why}");
    let mut longer = bytes.clone();
    longer.push(0);
    let why = unpack(&longer).unwrap_err().to_string();
    assert!(why.contains("1 bytes after the end"), "{why}");
}

/// Where the kept certificates are.
const PROOFS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/proofs");

/// The README of `data/proofs`: the listing of its files.
fn listing() -> String {
    std::fs::read_to_string(format!("{PROOFS}/README.md")).unwrap()
}

/// A cell of the listing, without its spaces and backquotes.
fn cell(text: &str) -> String {
    text.trim().trim_matches('`').to_string()
}

/// The rows of `data/proofs/README.md`: file, position, value, tables.
fn recorded() -> Vec<(String, String, String, String)> {
    listing()
        .lines()
        .filter(|line| line.starts_with("| `"))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').collect();
            let file = format!("{PROOFS}/{}", cell(cells[1]));
            (file, cell(cells[2]), cell(cells[3]), cell(cells[4]))
        })
        .collect()
}

#[test]
fn recorded_certificates_hold() {
    let rows = recorded();
    assert!(rows.len() >= 7, "{rows:?}");
    let files = std::fs::read_dir(PROOFS).unwrap().count();
    assert_eq!(
        files,
        rows.len() + 1,
        "every file in data/proofs is listed in its README"
    );
    for (file, position, value, tables) in rows {
        let bytes = std::fs::read(&file).unwrap();
        let packed = PackedCertificate::from_bytes(&bytes).unwrap();
        let board = Board::new(packed.rows as usize, packed.columns as usize).unwrap();
        let root = format_position(&board, &packed.root.position());
        assert_eq!(root, position, "{file}");
        if tables != "none" {
            // Checked over its tables by `scripts/reproduce.sh recorded`; here, that the
            // listing names them (as "5x7 up to 7 stones", or "5x9 up to 7 stones and
            // 4v4" with a partial layer).
            let mut named = format!("{} up to {} stones", board.size_name(), packed.table_stones);
            let partial: Vec<String> = (packed.table_materials.iter())
                .map(|(mover, waiting)| format!("{mover}v{waiting}"))
                .collect();
            if !partial.is_empty() {
                named += &format!(" and {}", partial.join(", "));
            }
            assert_eq!(tables, named, "{file}");
            continue;
        }
        let confirmed = check(&unpack(&bytes).unwrap(), None).unwrap();
        assert_eq!(
            confirmed.value.map(|v| v.name()),
            Some(value.as_str()),
            "{file}"
        );
    }
}

/// The README's joined rows, `| A.fnpack + B.fnpack | `POSITION` | VALUE |`: the pairs that
/// `scripts/reproduce.sh recorded` checks together over their tables.
fn joined() -> Vec<(String, String, String, String)> {
    listing()
        .lines()
        .filter(|line| line.starts_with("| ") && line.contains(".fnpack + "))
        .map(|line| {
            let cells: Vec<&str> = line.split('|').collect();
            let (first, second) = cells[1].split_once(" + ").unwrap();
            let file = |name: &str| format!("{PROOFS}/{}", cell(name));
            (file(first), file(second), cell(cells[2]), cell(cells[3]))
        })
        .collect()
}

#[test]
fn joined_rows_name_listed_files_one_of_them_rooted_where_they_are_joined() {
    let rows = joined();
    assert!(rows.len() >= 2, "{rows:?}");
    let listed: Vec<String> = recorded().into_iter().map(|row| row.0).collect();
    for (first, second, at, value) in rows {
        assert!(["win", "draw", "loss"].contains(&value.as_str()), "{value}");
        let mut roots = Vec::new();
        for file in [&first, &second] {
            assert!(listed.contains(file), "{file} is not listed");
            let packed = PackedCertificate::from_bytes(&std::fs::read(file).unwrap()).unwrap();
            let board = Board::new(packed.rows as usize, packed.columns as usize).unwrap();
            roots.push(format_position(&board, &packed.root.position()));
        }
        assert!(roots.contains(&at), "{at} is the root of neither {roots:?}");
    }
}

/// The line of each row whose command plays one (`--after "TURNS"` or `--after TURN`), with
/// whether it starts from the left-right start: (position listed, start, line).
fn made_by_lines() -> Vec<(String, Start, String)> {
    let mut lines = Vec::new();
    for row in listing().lines().filter(|line| line.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').collect();
        let made_by = cells[5];
        let Some((_, rest)) = made_by.split_once("--after ") else {
            continue;
        };
        let line = match rest.strip_prefix('"') {
            Some(quoted) => quoted.split('"').next().unwrap(),
            None => rest.split([' ', '`']).next().unwrap(),
        };
        let start = match made_by.contains("--start left-right") {
            true => Start::LeftRight,
            false => Start::Standard,
        };
        lines.push((cell(cells[2]), start, line.to_string()));
    }
    lines
}

#[test]
fn made_by_lines_lead_to_the_positions_listed() {
    let lines = made_by_lines();
    assert!(lines.len() >= 7, "{lines:?}");
    let board = Board::new(5, 9).unwrap();
    for (listed, start, line) in lines {
        let mut position = start.position(&board).unwrap();
        for text in line.split_whitespace() {
            position = parse_turn(&board, &position, text)
                .unwrap_or_else(|e| panic!("{line}: {e}"))
                .result;
        }
        assert_eq!(format_position(&board, &position), listed, "{line}");
    }
}
