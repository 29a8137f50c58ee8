//! The `fanorona` command as users and scripts see it (SPEC.md §5).

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn json(args: &[&str]) -> Value {
    let output = fanorona(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("stdout is one JSON document")
}

/// Run `args`, expecting a refusal: exit status `code`, no panic, and each of `says` in the
/// message on stderr, which is returned.
fn refused(args: &[&str], code: i32, says: &[&str]) -> String {
    let output = fanorona(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(code), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    for said in says {
        assert!(
            stderr.contains(said),
            "{args:?}: wanted {said:?} in {stderr}"
        );
    }
    stderr
}

#[test]
fn perft_json_matches_the_contract() {
    let report = json(&["perft", "4", "--json"]);
    assert_eq!(
        report,
        serde_json::json!({"depth": 4, "turns": 18026, "unique": 18026})
    );
    let left_right = json(&["perft", "3", "--start", "left-right", "--json"]);
    assert_eq!(left_right["turns"], 313);
}

#[test]
fn perft_threads_agree() {
    let one = json(&["perft", "6", "--board", "5x5", "--threads", "1", "--json"]);
    let two = json(&["perft", "6", "--board", "5x5", "--threads", "2", "--json"]);
    assert_eq!(one, two);
    assert_eq!(one["turns"], 306_837);
}

#[test]
fn perft_divide_sums_to_the_total() {
    let report = json(&["perft", "3", "--divide", "--json"]);
    let lines = report["divide"].as_array().unwrap();
    assert_eq!(lines.len(), 5);
    let sum: u64 = lines
        .iter()
        .map(|line| line["turns"].as_u64().unwrap())
        .sum();
    assert_eq!(sum, 724);
}

#[test]
fn perft_takes_a_board_or_a_position() {
    let small = json(&["perft", "1", "--board", "3x3", "--json"]);
    assert!(small["turns"].as_u64().unwrap() > 0);
    let same = json(&["perft", "1", "--position", "BBB/B1W/WWW w", "--json"]);
    assert_eq!(small, same);
}

#[test]
fn moves_lists_every_turn_with_its_result() {
    let report = json(&[
        "moves",
        "--position",
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
        "--json",
    ]);
    assert_eq!(
        report["position"],
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w"
    );
    let turns = report["turns"].as_array().unwrap();
    let names: Vec<&str> = turns
        .iter()
        .map(|t| t["notation"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"]);
    assert_eq!(
        turns[3]["result"],
        "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b"
    );
}

#[test]
fn after_plays_turns_from_the_start_or_a_position() {
    // Each turn's result is the position `--after` that turn names, from the start as from
    // the same position given by --position.
    let start = json(&["moves", "--json"]);
    let fen = start["position"].as_str().unwrap();
    for turn in start["turns"].as_array().unwrap() {
        let notation = turn["notation"].as_str().unwrap();
        let from_start = json(&["moves", "--after", notation, "--json"]);
        assert_eq!(from_start["position"], turn["result"], "{notation}");
        let from_fen = json(&["moves", "--position", fen, "--after", notation, "--json"]);
        assert_eq!(from_fen["position"], turn["result"], "{notation}");
    }
    // Two plies: Black's reply is played from the position after White's turn.
    let reply = json(&["moves", "--after", "d3-e3A", "--json"]);
    let first = &reply["turns"][0];
    let line = format!("d3-e3A {}", first["notation"].as_str().unwrap());
    assert_eq!(
        json(&["moves", "--after", &line, "--json"])["position"],
        first["result"]
    );
    // A turn not legal where it is played, or no turn at all, is bad input, named.
    refused(
        &["moves", "--after", "d3-e3A d3-e3A"],
        2,
        &["--after", "'d3-e3A'", "after d3-e3A, at "],
    );
    refused(&["perft", "1", "--after", "e2-e4"], 2, &["--after"]);
    refused(
        &["solve", "--board", "3x5", "--after", ""],
        2,
        &["no turns"],
    );
}

/// The files of `data/open`: where the open questions hang, each position after a line
/// `# line from START: TURNS` that plays it.
const OPEN_POINTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/open");

/// The (start, turns, position) of each position of an open-points file.
fn open_points(text: &str) -> Vec<(String, String, String)> {
    let mut points = Vec::new();
    let mut after = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(rest) = line.strip_prefix("# line from ") {
            let (start, turns) = rest.split_once(':').expect("# line from START: TURNS");
            after = Some((start.to_string(), turns.trim().to_string()));
        } else if !line.starts_with('#') {
            let (start, turns) = after
                .take()
                .unwrap_or_else(|| panic!("{line}: no # line from"));
            points.push((start, turns, line.to_string()));
        }
    }
    points
}

/// The positions `solve --positions FILE` reports on, in order, searched "can Black force a
/// win?" for 100 nodes each without tables (left unsettled, so the exit is not 0, but every
/// position is reported).
fn reported_positions(file: &str, no_tables: &Path) -> Vec<String> {
    let solved = fanorona(&[
        "solve",
        "--positions",
        file,
        "--only",
        "black",
        "--max-nodes",
        "100",
        "--memory",
        "1",
        "--tables",
        no_tables.to_str().unwrap(),
        "--json",
    ]);
    let report: Value = serde_json::from_slice(&solved.stdout).expect("one JSON document");
    report["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["position"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn the_open_points_kept_in_data_are_reached_by_their_lines_and_solve_reads_them() {
    // The .txt files, those of the split stores too: data/open/top holds the searches' tops
    // (binary), not positions.
    let mut files = text_files(Path::new(OPEN_POINTS));
    files.extend(text_files(&Path::new(OPEN_POINTS).join("split-store")));
    assert!(files.len() >= 3, "{files:?}");
    let no_tables = scratch("open-points-no-tables");
    std::fs::create_dir_all(&no_tables).unwrap();
    for file in &files {
        let points = open_points(&std::fs::read_to_string(file).unwrap());
        assert!(!points.is_empty(), "{}", file.display());
        for (start, turns, position) in &points {
            let reached = json(&["moves", "--start", start, "--after", turns, "--json"]);
            assert_eq!(reached["position"], position.as_str(), "{}", file.display());
        }
        // The file is what `solve --positions` reads: a report for each of its positions.
        let positions = reported_positions(file.to_str().unwrap(), &no_tables);
        let expected: Vec<&str> = points.iter().map(|(_, _, p)| p.as_str()).collect();
        assert_eq!(positions, expected, "{}", file.display());
    }
}

/// The `.txt` files of `dir`, sorted.
fn text_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "txt"))
        .collect();
    files.sort();
    files
}

/// The split stores kept in `data/open/split-store` (NAME.tar.gz, the answers and certificates
/// of `solve --split`, beside NAME.txt, its position) unpack as `reproduce.sh open-split` does
/// and read back as splits of that position: `--status` splits its root and recalls answers.
#[test]
fn the_split_stores_kept_in_data_read_back_as_splits_of_their_positions() {
    let stores = Path::new(OPEN_POINTS).join("split-store");
    let mut archives: Vec<_> = std::fs::read_dir(&stores)
        .expect("data/open/split-store is there")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_str().unwrap().ends_with(".tar.gz"))
        .collect();
    archives.sort();
    assert!(!archives.is_empty());
    let no_tables = scratch("split-stores-no-tables");
    std::fs::create_dir_all(&no_tables).unwrap();
    for archive in &archives {
        let name = archive.file_name().unwrap().to_str().unwrap();
        let name = name.trim_end_matches(".tar.gz");
        let text = std::fs::read_to_string(stores.join(format!("{name}.txt")))
            .unwrap_or_else(|error| panic!("{name}.tar.gz has no {name}.txt: {error}"));
        let points = open_points(&text);
        assert_eq!(points.len(), 1, "{name}.txt: one position");
        let position = &points[0].2;
        let store = scratch(&format!("split-store-{name}"));
        std::fs::create_dir_all(&store).unwrap();
        let unpacked = std::process::Command::new("tar")
            .arg("xzf")
            .arg(archive)
            .arg("-C")
            .arg(&store)
            .arg("--strip-components=1")
            .status()
            .expect("tar runs");
        assert!(unpacked.success(), "{name}");
        let status = json(&[
            "solve",
            "--position",
            position,
            "--split",
            "--only",
            "black",
            "--tables",
            no_tables.to_str().unwrap(),
            "--state",
            store.to_str().unwrap(),
            "--status",
            "--json",
        ]);
        assert_eq!(status["position"], position.as_str(), "{name}");
        let question = &status["questions"][0];
        assert_eq!(question["side"], "black", "{name}");
        assert!(question["recalled"].as_u64().unwrap() > 0, "{name}");
        let splits = question["split_positions"].as_array().unwrap();
        assert!(!splits.is_empty(), "{name}: its root is split");
    }
}

/// The tops kept in `data/open/top/NAME` (what a lost machine's searches go on from) read back
/// as saved searches of the positions of `data/open/NAME.txt`: every file there is one
/// position's search, with its nodes and an unsettled root.
#[test]
fn the_tops_kept_in_data_are_saved_searches_of_their_open_points() {
    let tops = std::path::Path::new(OPEN_POINTS).join("top");
    let mut names: Vec<_> = std::fs::read_dir(&tops)
        .expect("data/open/top is there")
        .map(|entry| entry.unwrap().path())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    for dir in &names {
        let name = dir.file_name().unwrap().to_str().unwrap();
        let positions = std::path::Path::new(OPEN_POINTS).join(format!("{name}.txt"));
        assert!(
            positions.is_file(),
            "{} has no {}",
            dir.display(),
            positions.display()
        );
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().path().to_str().unwrap().to_string())
            .collect();
        files.sort();
        let status = json(&[
            "solve",
            "--positions",
            positions.to_str().unwrap(),
            "--state",
            dir.to_str().unwrap(),
            "--status",
            "--json",
        ]);
        // A file of several positions reports each under "turns"; a file of one, that
        // position's status alone.
        let points: Vec<&Value> = match status["turns"].as_array() {
            Some(turns) => turns.iter().map(|point| &point["status"]).collect(),
            None => vec![&status],
        };
        let mut found: Vec<String> = Vec::new();
        for point in points {
            for search in point["searches"].as_array().unwrap() {
                if search["saved"] != true {
                    continue;
                }
                assert!(search["nodes"].as_u64().unwrap() > 0, "{search}");
                let root = &search["root"];
                assert!(root["proof"].as_u64().unwrap() > 0, "{search}");
                assert!(root["disproof"].as_u64().unwrap() > 0, "{search}");
                found.push(search["file"].as_str().unwrap().to_string());
            }
        }
        found.sort();
        assert_eq!(found, files, "{}", dir.display());
    }
}

/// The search benches of `data` (positions whose answers are known, for measuring changes to
/// the search): each is read whole by `solve --positions`, and each position is what the
/// file's header says it is.
#[test]
fn the_search_benches_kept_in_data_are_read_whole_by_solve() {
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data");
    let no_tables = scratch("benches-no-tables");
    std::fs::create_dir_all(&no_tables).unwrap();
    /// A bench: its file, how many positions it holds, and what each position must be.
    type Bench = (&'static str, usize, fn(&str) -> bool);
    /// White's and Black's stones.
    fn stones(position: &str) -> (usize, usize) {
        let board = position.split(' ').next().unwrap();
        (board.matches('W').count(), board.matches('B').count())
    }
    let benches: [Bench; 4] = [
        ("lopsided-2v5.txt", 11, |position| {
            stones(position) == (2, 5)
        }),
        ("split-black-wins-40.txt", 40, |position| {
            position.ends_with(" b")
        }),
        ("hunts-4v8-4v9.txt", 29, |position| {
            matches!(stones(position), (4, 8) | (4, 9))
        }),
        ("hunts-settled.txt", 12, |position| {
            let (white, black) = stones(position);
            (4..=5).contains(&white) && (8..=10).contains(&black)
        }),
    ];
    for (name, count, is_as_described) in benches {
        let path = format!("{data}/{name}");
        let text = std::fs::read_to_string(&path).unwrap();
        let expected: Vec<&str> = text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .collect();
        assert_eq!(expected.len(), count, "{name}");
        assert!(expected.iter().all(|p| is_as_described(p)), "{name}");
        assert_eq!(reported_positions(&path, &no_tables), expected, "{name}");
    }
}

#[test]
fn show_draws_lines_and_stones() {
    let output = fanorona(&["show", "--position", "BBB/B1W/WWW w"]);
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(text, "3  B---B---B\n   | \\ | / |\n2  B---.---W\n   | / | \\ |\n1  W---W---W\n   a   b   c\nWhite to move\n");
    let report = json(&["show", "--board", "5x5", "--json"]);
    assert_eq!(report["board"], "5x5");
    assert_eq!(report["white"].as_array().unwrap().len(), 12);
}

#[test]
fn bad_input_is_named_with_exit_code_2() {
    let cases: [(&[&str], &str); 7] = [
        (&["perft", "2", "--position", "BBBB/BBBB/WWWW w"], "odd"),
        (&["perft", "2", "--position", "BBB/BB/WWW w"], "rank 2"),
        (&["moves", "--position", "BBB/BxW/WWW w"], "'x'"),
        (&["moves", "--position", "BBB/B1W/WWW"], "side to move"),
        (&["show", "--board", "4x9"], "odd"),
        (
            &["perft", "1", "--board", "5x5", "--start", "left-right"],
            "5x9",
        ),
        (&["perft", "x"], "invalid value"),
    ];
    for (args, expected) in cases {
        refused(args, 2, &[expected]);
    }
}

/// A position or a build beyond what any table can number is refused with its reason, before
/// any work (numbering 21 stones to move would take gigabytes, then panic): the 5x9 start's
/// materials, a layer of 12 stones on 5x9 (11v1 among them) and a material named alone.
#[test]
fn tables_beyond_what_can_be_numbered_are_refused_not_attempted() {
    let dir = scratch("tables-too-large");
    let dir_arg = dir.to_str().unwrap();
    let start = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
    refused(
        &["query", "--position", start, "--tables", dir_arg],
        1,
        &["22v22", "too large to number"],
    );
    let build = ["tables", "build", "--board", "5x9", "--tables", dir_arg];
    refused(&[&build[..], &["--stones", "12"]].concat(), 2, &["11v1"]);
    refused(
        &[&build[..], &["--stones", "12", "--only", "11v1"]].concat(),
        2,
        &["11v1 is too large"],
    );
    assert!(!dir.exists(), "nothing was built");
    // A 6v6 table can be numbered: the query names its missing file and how to build it.
    refused(
        &[
            "query",
            "--position",
            "BBBBBB3/9/9/9/WWWWWW3 w",
            "--tables",
            dir_arg,
        ],
        1,
        &["5x9-loss-6v6.fntb is missing", "--stones 12 --only 6v6"],
    );
}

/// A fresh directory under the target directory (removed first).
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn tables_build_query_verify_stats() {
    let dir = scratch("tables-3x3");
    let dir_arg = dir.to_str().unwrap();
    let built = json(&[
        "tables", "build", "--board", "3x3", "--stones", "8", "--tables", dir_arg, "--json",
    ]);
    assert_eq!(built["materials"], 28);
    // One line a system (a material and its swap), all solved now, their slots the whole's;
    // built again, every one is found whole.
    let systems = |report: &Value| -> Vec<(String, bool, u64)> {
        report["systems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                let slots = s["slots"].as_u64().unwrap();
                (
                    s["system"].as_str().unwrap().into(),
                    s["built"] == true,
                    slots,
                )
            })
            .collect()
    };
    let first = systems(&built);
    assert_eq!(first.len(), 16);
    assert!(first.iter().all(|(_, built, _)| *built));
    let slots: u64 = first.iter().map(|(_, _, slots)| slots).sum();
    assert_eq!(Some(slots), built["slots"].as_u64());
    let again = json(&[
        "tables", "build", "--board", "3x3", "--stones", "8", "--tables", dir_arg, "--json",
    ]);
    let found_whole: Vec<_> = first
        .iter()
        .map(|(s, _, n)| (s.clone(), false, *n))
        .collect();
    assert_eq!(systems(&again), found_whole);
    // SPEC.md §4: the 3x3 start is a White win.
    let query = json(&[
        "query",
        "--position",
        "BBB/B1W/WWW w",
        "--tables",
        dir_arg,
        "--json",
    ]);
    assert_eq!(query["value"], "win");
    let turns = query["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 4);
    // The best turn wins as fast as the position promises.
    let best = turns
        .iter()
        .filter(|t| t["value"] == "win")
        .map(|t| t["plies"].as_u64().unwrap())
        .min();
    assert_eq!(best, query["plies"].as_u64());
    let verified = json(&[
        "tables", "verify", "--board", "3x3", "--stones", "8", "--tables", dir_arg, "--json",
    ]);
    assert_eq!(verified["mismatches"].as_array().unwrap().len(), 0);
    assert!(
        !dir.join("3x3-loss-verify-8.fnverify").exists(),
        "a finished verification leaves no state"
    );
    let stats = json(&[
        "tables", "stats", "--board", "3x3", "--stones", "3", "--tables", dir_arg, "--json",
    ]);
    let positions: u64 = stats
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["positions"].as_u64().unwrap())
        .sum();
    assert_eq!(positions, 72 + 252 + 252);
}

/// Flip a bit in every slot of a table file (between its 4 KiB header and 16-byte trailer).
fn damage_every_slot(table: &std::path::Path) {
    let mut bytes = std::fs::read(table).unwrap();
    let end = bytes.len() - 16;
    for byte in &mut bytes[4096..end] {
        *byte ^= 0x04;
    }
    std::fs::write(table, &bytes).unwrap();
}

#[test]
fn query_checks_the_blocks_it_reads_and_names_a_damaged_table() {
    let dir = scratch("tables-3x3-damaged");
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--board", "3x3", "--stones", "8", "--tables", dir_arg, "--json",
    ]);
    let table = dir.join("3x3-loss-4v4.fntb");
    let blocks = dir.join("3x3-loss-4v4.fntb.blocks");
    assert!(
        blocks.exists(),
        "a build leaves each file's block checksums"
    );
    let query = [
        "query",
        "--position",
        "BBB/B1W/WWW w",
        "--tables",
        dir_arg,
        "--json",
    ];
    let answer = json(&query);
    // --after a turn, the position that turn leads to, with the value the turn's line gave.
    let turn = &answer["turns"][0];
    let notation = turn["notation"].as_str().unwrap();
    let after = json(&[&query[..], &["--after", notation]].concat());
    assert_eq!(after["position"], turn["result"]);
    let opposite = |value: &str| {
        match value {
            "win" => "loss",
            "loss" => "win",
            other => other,
        }
        .to_string()
    };
    assert_eq!(
        after["value"].as_str().map(opposite),
        turn["value"].as_str().map(str::to_string)
    );
    // Without them, the query checks the whole file and writes them again.
    std::fs::remove_file(&blocks).unwrap();
    assert_eq!(json(&query), answer);
    assert!(blocks.exists());
    // Damage every slot of the position's table: the query reads one, and refuses it.
    damage_every_slot(&table);
    refused(&query, 1, &["3x3-loss-4v4.fntb is corrupt"]);
}

/// The 3x3 tables up to 5 stones built in the scratch directory `name`, and their `tables
/// stats` (which name each material's longest win and loss).
fn built_3x3_tables_and_stats(name: &str) -> (std::path::PathBuf, Value) {
    let dir = scratch(name);
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--board", "3x3", "--stones", "5", "--tables", dir_arg, "--json",
    ]);
    let stats = json(&[
        "tables", "stats", "--board", "3x3", "--stones", "5", "--tables", dir_arg, "--json",
    ]);
    (dir, stats)
}

#[test]
fn stats_name_positions_of_the_longest_win_and_loss_that_query_confirms() {
    let (dir, stats) = built_3x3_tables_and_stats("tables-longest");
    let dir_arg = dir.to_str().unwrap();
    let mut named = 0;
    for line in stats.as_array().unwrap() {
        for (value, plies, position) in [
            ("win", "longest_win", "longest_win_position"),
            ("loss", "longest_loss", "longest_loss_position"),
        ] {
            let Some(position) = line[position].as_str() else {
                assert_eq!(line[plies], 0, "{line}");
                continue;
            };
            let query = json(&[
                "query",
                "--position",
                position,
                "--tables",
                dir_arg,
                "--json",
            ]);
            assert_eq!(query["value"], value, "{line}");
            assert_eq!(query["plies"], line[plies], "{line}");
            named += 1;
        }
    }
    // 10 materials; every one but 3v1 and 4v1 (which never lose) has both.
    assert_eq!(named, 18);
}

#[test]
fn tables_list_shows_what_a_directory_holds() {
    let dir = scratch("tables-list");
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--board", "3x3", "--stones", "4", "--tables", dir_arg, "--json",
    ]);
    let list = [
        "tables", "list", "--board", "3x3", "--tables", dir_arg, "--json",
    ];
    let listed = json(&list);
    assert_eq!(listed["complete_stones"], 4);
    let materials = listed["materials"].as_array().unwrap();
    // 1v1; 1v2, 2v1; 1v3, 2v2, 3v1.
    assert_eq!(materials.len(), 6);
    for line in materials {
        assert_eq!(line["entries"]["state"], "present", "{line}");
        assert_eq!(line["values"]["state"], "present", "{line}");
        // A build checks the entry files it wrote whole, and leaves their block checksums.
        assert_eq!(line["entries"]["block_checksums"], true, "{line}");
    }
    assert_eq!(listed["in_progress"].as_array().unwrap().len(), 0);
    // A truncated file is named damaged, and its stone count is no longer complete; a state
    // file left by a stopped verification is listed.
    let table = dir.join("3x3-loss-2v2.fntb");
    let bytes = std::fs::read(&table).unwrap();
    std::fs::write(&table, &bytes[..bytes.len() - 1]).unwrap();
    std::fs::write(dir.join("3x3-loss-verify-4.fnverify"), b"state").unwrap();
    let listed = json(&list);
    assert_eq!(listed["complete_stones"], 3);
    let two_two = listed["materials"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["material"] == "2v2")
        .unwrap();
    assert_eq!(two_two["entries"]["state"], "damaged");
    assert!(two_two["entries"]["error"]
        .as_str()
        .unwrap()
        .contains("3x3-loss-2v2.fntb is truncated"));
    assert_eq!(listed["in_progress"][0], "3x3-loss-verify-4.fnverify");
    let absent = dir.join("absent");
    refused(
        &["tables", "list", "--tables", absent.to_str().unwrap()],
        1,
        &[],
    );
}

/// `data/tables-5x9.md`, the record of the 5x9 tables' statistics and checksums.
fn the_5x9_record() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/tables-5x9.md");
    std::fs::read_to_string(path).expect("data/tables-5x9.md")
}

#[test]
fn tables_list_expect_says_which_files_are_the_recorded_ones() {
    let dir = scratch("tables-expect");
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--stones", "4", "--tables", dir_arg, "--json",
    ]);
    let record = dir.join("record.md");
    let expect = |text: &str| {
        std::fs::write(&record, text).unwrap();
        let args = ["tables", "list", "--tables", dir_arg, "--expect"];
        fanorona(&[&args[..], &[record.to_str().unwrap(), "--json"]].concat())
    };
    let listed = |output: &Output| -> Value { serde_json::from_slice(&output.stdout).unwrap() };
    let names = |value: &Value| -> Vec<String> {
        let names = value.as_array().unwrap().iter();
        names
            .map(|name| name.as_str().unwrap().to_string())
            .collect()
    };
    // Built here, the six tables of at most 4 stones are the recorded files.
    let record_text = the_5x9_record();
    let output = expect(&record_text);
    assert!(output.status.success(), "{output:?}");
    let report = listed(&output);
    let expected = &report["expected"];
    assert_eq!(
        names(&expected["same"]),
        ["1v1", "1v2", "2v1", "1v3", "2v2", "3v1"]
    );
    for empty in ["different", "not_recorded", "recorded_not_here"] {
        assert_eq!(names(&expected[empty]), Vec::<String>::new(), "{empty}");
    }
    for line in report["materials"].as_array().unwrap() {
        assert_eq!(line["entries"]["record"], "same", "{line}");
        assert!(line["values"].get("record").is_none(), "{line}");
    }
    // The record's larger tables are not here: listed as missing, and a failure with
    // --all-recorded-up-to where they count (5 stones), not where they do not (4).
    let missing = names(&expected["recorded_missing"]);
    assert!(missing.contains(&"1v4".to_string()) && missing.contains(&"5v4".to_string()));
    assert!(!missing
        .iter()
        .any(|m| ["1v1", "2v2", "3v1"].contains(&m.as_str())));
    let all_recorded_up_to = |stones: &str| {
        std::fs::write(&record, &record_text).unwrap();
        let record_arg = record.to_str().unwrap();
        let args = [
            "tables", "list", "--tables", dir_arg, "--expect", record_arg,
        ];
        fanorona(&[&args[..], &["--all-recorded-up-to", stones]].concat())
    };
    let output = all_recorded_up_to("5");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("4 of the files of at most 5 stones recorded in")
            && stderr.contains("are not here: 1v4, 2v3, 3v2, 4v1"),
        "{stderr}"
    );
    let output = all_recorded_up_to("4");
    assert!(output.status.success(), "{output:?}");
    // One checksum changed in the record: that material differs, named, and the exit is 1.
    let two_two = report["materials"][4]["entries"]["checksum"]
        .as_str()
        .unwrap();
    let changed = format!("{:016x}", u64::from_str_radix(two_two, 16).unwrap() ^ 1);
    assert!(record_text.contains(two_two));
    let output = expect(&record_text.replace(two_two, &changed));
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(names(&listed(&output)["expected"]["different"]), ["2v2"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("differ from the files recorded in") && stderr.contains("2v2"));
    // Without 1v3's row, 1v3 is not recorded, and the rest still compare.
    let without: String = record_text
        .lines()
        .filter(|line| !line.starts_with("| 1v3 |"))
        .map(|line| format!("{line}\n"))
        .collect();
    let output = expect(&without);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(names(&listed(&output)["expected"]["not_recorded"]), ["1v3"]);
    // A file that records no tables, or a row that cannot be read, is refused with exit 2.
    let record_arg = record.to_str().unwrap();
    let list = [
        "tables", "list", "--tables", dir_arg, "--expect", record_arg,
    ];
    std::fs::write(&record, "# Nothing recorded\n").unwrap();
    refused(&list, 2, &["no recorded tables in it"]);
    let unreadable = record_text.replace(&format!("{two_two} |"), "checksum |");
    std::fs::write(&record, unreadable).unwrap();
    refused(&list, 2, &["2v2: checksum 'checksum' is not 16 hex digits"]);
    std::fs::remove_file(&record).unwrap();
    refused(&list, 2, &[record_arg]);
    // Where none of the files here is recorded, nothing was compared: a failure.
    let others = "| 7v2 | 1 | 1 | 0 | 0 | - | - | 0000000000000001 |\n";
    let output = expect(others);
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("records none of the files here"));
}

#[test]
fn a_missing_table_is_named_with_the_command_to_build_it() {
    let dir = scratch("tables-empty");
    refused(
        &[
            "query",
            "--position",
            "BBB/B1W/WWW w",
            "--tables",
            dir.to_str().unwrap(),
        ],
        1,
        &["is missing", "fanorona tables build --board 3x3 --stones 8"],
    );
}

/// The legal turns of `position` as (notation, result), from `moves`.
fn legal_turns(position: &str) -> Vec<(String, String)> {
    json(&["moves", "--position", position, "--json"])["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["notation"].as_str().unwrap().into(),
                t["result"].as_str().unwrap().into(),
            )
        })
        .collect()
}

/// Replay a `query --line` from `start`: every turn is legal where it is played and leads to
/// the result it names. Returns the positions the line passes through, `start` first.
fn replay_line(start: &str, line: &Value) -> Vec<String> {
    let mut positions = vec![start.to_string()];
    for turn in line["turns"].as_array().unwrap() {
        let here = positions.last().unwrap();
        let played = (
            turn["notation"].as_str().unwrap().to_string(),
            turn["result"].as_str().unwrap().to_string(),
        );
        assert!(legal_turns(here).contains(&played), "{played:?} in {here}");
        positions.push(played.1);
    }
    positions
}

/// `query --line` plays best play out: from the longest wins and losses that `stats` names, a
/// line of exactly the position's plies, each turn one ply nearer the end, the sides taking
/// turns at winning and losing, ending where the side to move has no turn; and from a drawn
/// position, drawing turns until a position comes back.
#[test]
fn query_line_plays_best_play_to_the_end_of_the_game() {
    let (dir, stats) = built_3x3_tables_and_stats("tables-line");
    let dir_arg = dir.to_str().unwrap();
    let query_line = |position: &str| {
        json(&[
            "query",
            "--position",
            position,
            "--tables",
            dir_arg,
            "--line",
            "--json",
        ])
    };
    let mut lines = 0;
    for material in stats.as_array().unwrap() {
        for named in ["longest_win_position", "longest_loss_position"] {
            let Some(start) = material[named].as_str() else {
                continue;
            };
            let report = query_line(start);
            let plies = report["plies"].as_u64().unwrap();
            let line = &report["line"];
            assert_eq!(line["ends"], "game over", "{start}");
            let turns = line["turns"].as_array().unwrap();
            assert_eq!(turns.len() as u64, plies, "{start}");
            let start_wins = report["value"] == "win";
            for (k, turn) in turns.iter().enumerate() {
                assert_eq!(turn["plies"].as_u64(), Some(plies - k as u64), "{start}");
                let mover_wins = start_wins == (k % 2 == 0);
                let expected = if mover_wins { "win" } else { "loss" };
                assert_eq!(turn["value"], expected, "{start}, ply {}", k + 1);
            }
            let end = replay_line(start, line).pop().unwrap();
            assert!(legal_turns(&end).is_empty(), "{start} ends at {end}");
            lines += 1;
        }
    }
    assert_eq!(lines, 18);

    let drawn = "3/1BB/W2 w";
    let report = query_line(drawn);
    assert_eq!(report["value"], "draw");
    let line = &report["line"];
    assert_eq!(line["ends"], "repetition");
    assert!(line["turns"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t["value"] == "draw" && t["plies"].is_null()));
    let mut passed = replay_line(drawn, line);
    let end = passed.pop().unwrap();
    assert!(passed.contains(&end), "{end} came back");
    // Without --line the report is the contract's, no more.
    let plain = json(&["query", "--position", drawn, "--tables", dir_arg, "--json"]);
    assert!(plain.get("line").is_none());
}

/// A top layer built for values alone (`tables build --values-only`): no entry files; a query
/// gives the values of the full build with no distances, and a search probes it and writes a
/// certificate that check-proof confirms over it.
#[test]
fn a_top_layer_built_for_values_alone_answers_queries_and_searches() {
    let full = scratch("tables-3x5-full");
    let values = scratch("tables-3x5-values");
    let build = |dir: &std::path::Path, extra: &[&str]| {
        let args = [
            &["tables", "build", "--board", "3x5", "--stones", "5"][..],
            &["--tables", dir.to_str().unwrap(), "--json"],
            extra,
        ];
        json(&args.concat())
    };
    build(&full, &[]);
    build(&values, &["--values-only", "--frontier-block", "8"]);
    let values_arg = values.to_str().unwrap();
    refused(
        &[
            "tables",
            "build",
            "--board",
            "3x5",
            "--stones",
            "5",
            "--tables",
            values_arg,
            "--values-only",
            "--frontier-block",
            "3",
        ],
        2,
        &["--frontier-block must be a power of two from 1 to 64, not 3"],
    );
    assert!(!values.join("3x5-loss-2v3.fntb").exists());
    assert!(values.join("3x5-loss-2v3.fnval").exists());
    assert!(
        values.join("3x5-loss-2v2.fntb").exists(),
        "lower layers whole"
    );
    let query = |dir: &std::path::Path| {
        json(&[
            "query",
            "--position",
            "2B2/BW3/1W2W w",
            "--tables",
            dir.to_str().unwrap(),
            "--json",
        ])
    };
    let (with, without) = (query(&full), query(&values));
    assert_eq!(with["distances"], true);
    assert_eq!(without["distances"], false);
    assert_eq!(with["value"], without["value"]);
    assert!(with["value"] != "draw" && without["plies"].is_null());
    // Best play needs distances: over values alone the line stops before its first turn.
    let line = json(&[
        "query",
        "--position",
        "2B2/BW3/1W2W w",
        "--tables",
        values_arg,
        "--line",
        "--json",
    ])["line"]
        .clone();
    assert_eq!(line["ends"], "no distances");
    assert_eq!(line["turns"].as_array().unwrap().len(), 0);
    let turns = |report: &serde_json::Value| -> Vec<(String, String)> {
        report["turns"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| (t["notation"].to_string(), t["value"].to_string()))
            .collect()
    };
    assert_eq!(turns(&with), turns(&without));
    assert!(turns(&with).len() > 1);
    // `tables verify` checks the values one ply deep; there is no entry file to check the
    // value files against.
    let verified = json(&[
        "tables",
        "verify",
        "--board",
        "3x5",
        "--stones",
        "5",
        "--tables",
        values.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(verified["mismatches"].as_array().unwrap().len(), 0);
    let checked: Vec<&str> = verified["value_files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|line| line["material"].as_str().unwrap())
        .collect();
    assert!(
        checked.contains(&"2v2") && !checked.contains(&"2v3"),
        "{checked:?}"
    );
    // `tables stats` counts its values as the full build's, with no longest win or loss.
    let stats = |dir: &std::path::Path| {
        let args = ["tables", "stats", "--board", "3x5", "--stones", "5"];
        let report = json(&[&args[..], &["--tables", dir.to_str().unwrap(), "--json"]].concat());
        report
            .as_array()
            .unwrap()
            .iter()
            .find(|line| line["material"] == "2v3")
            .unwrap()
            .clone()
    };
    let (with, without) = (stats(&full), stats(&values));
    for count in ["positions", "wins", "draws", "losses"] {
        assert_eq!(with[count], without[count], "{count}");
    }
    assert!(with["wins"].as_u64().unwrap() > 0 && with["longest_win"].as_u64().unwrap() > 0);
    assert!(without["longest_win"].is_null() && without["longest_win_position"].is_null());

    let certificate = values.join("3x5.proof");
    let solved = json(&[
        "solve",
        "--board",
        "3x5",
        "--tables",
        values.to_str().unwrap(),
        "--certificate",
        certificate.to_str().unwrap(),
        "--memory",
        "16",
        "--json",
    ]);
    assert_eq!(solved["value"], "win");
    assert_eq!(solved["table_stones"], 5);
    let checked = json(&[
        "check-proof",
        certificate.to_str().unwrap(),
        "--tables",
        values.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(checked["holds"], true);
}

#[test]
fn solve_writes_a_certificate_that_check_proof_confirms() {
    let dir = scratch("proof-3x5");
    std::fs::create_dir_all(&dir).unwrap();
    let certificate = dir.join("3x5.proof");
    let certificate_arg = certificate.to_str().unwrap();
    let tables_arg = dir.join("no-tables");
    std::fs::create_dir_all(&tables_arg).unwrap();
    // SPEC.md §4: White wins 3x5 (no tables here: the search goes to the end of the game).
    let solved = json(&[
        "solve",
        "--board",
        "3x5",
        "--tables",
        tables_arg.to_str().unwrap(),
        "--certificate",
        certificate_arg,
        "--memory",
        "16",
        "--json",
    ]);
    assert_eq!(solved["value"], "win");
    assert_eq!(solved["position"], "BBBBB/BW1BW/WWWWW w");
    assert!(solved["nodes"].as_u64().unwrap() > 0);
    let checked = json(&["check-proof", certificate_arg, "--json"]);
    assert_eq!(checked["holds"], true);
    assert_eq!(checked["value"], "win");
    assert_eq!(checked["position"], "BBBBB/BW1BW/WWWWW w");
    // The winner's claim, with its first turn: one of the start's legal turns.
    let claims = checked["claims"].as_array().unwrap();
    assert_eq!(claims.len(), 1);
    assert_eq!(claims[0]["strategist"], "white");
    assert_eq!(claims[0]["goal"], "win");
    let moves = json(&["moves", "--position", "BBBBB/BW1BW/WWWWW w", "--json"]);
    let legal: Vec<&str> = moves["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["notation"].as_str().unwrap())
        .collect();
    let first = claims[0]["first_turn"].as_str().unwrap();
    assert!(legal.contains(&first), "{first} not in {legal:?}");

    // A damaged file is refuted with exit code 1, never a panic.
    let mut bytes = std::fs::read(&certificate).unwrap();
    let damaged = dir.join("damaged.proof");
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&damaged, &bytes).unwrap();
    refused(
        &["check-proof", damaged.to_str().unwrap()],
        1,
        &["certificate"],
    );
    let absent = dir.join("absent.proof");
    refused(&["check-proof", absent.to_str().unwrap()], 1, &[]);
}

#[test]
fn two_holds_found_apart_check_together_as_a_draw() {
    let dir = scratch("proof-holds");
    std::fs::create_dir_all(&dir).unwrap();
    // One stone each on 3x5: neither side can force a win (a draw, found by the search).
    let position = "B4/5/4W w";
    let hold_of = |searched: &str| {
        let file = dir.join(format!("{searched}-searched.proof"));
        let solved = json(&[
            "solve",
            "--position",
            position,
            "--only",
            searched,
            "--certificate",
            file.to_str().unwrap(),
            "--memory",
            "16",
            "--json",
        ]);
        assert_eq!(solved["value"], "unknown", "one search alone is a bound");
        file
    };
    let (black_hold, white_hold) = (hold_of("white"), hold_of("black"));
    let (black_arg, white_arg) = (black_hold.to_str().unwrap(), white_hold.to_str().unwrap());
    let alone = json(&["check-proof", black_arg, "--json"]);
    assert_eq!(alone["holds"], true);
    assert_eq!(alone["value"], Value::Null, "a bound, not a value");
    let together = json(&["check-proof", black_arg, white_arg, "--json"]);
    assert_eq!(together["holds"], true);
    assert_eq!(together["value"], "draw");
    assert_eq!(together["position"], position);
    // After White's turn in its hold, both strategies hold the position: a draw there too.
    let white_turn = together["claims"][1]["first_turn"].as_str().unwrap();
    let moves = json(&["moves", "--position", position, "--json"]);
    let after = moves["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["notation"] == white_turn)
        .unwrap()["result"]
        .as_str()
        .unwrap();
    let moved = json(&["check-proof", black_arg, white_arg, "--at", after, "--json"]);
    assert_eq!(moved["value"], "draw");
    // A certificate of another position does not combine with them.
    let other = dir.join("other.proof");
    json(&[
        "solve",
        "--board",
        "3x3",
        "--certificate",
        other.to_str().unwrap(),
        "--json",
    ]);
    refused(
        &["check-proof", black_arg, other.to_str().unwrap()],
        1,
        &["cannot be combined"],
    );
}

#[test]
fn a_certificate_proves_every_position_of_its_strategy() {
    let dir = scratch("proof-at");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("3x5.proof");
    let solved = json(&[
        "solve",
        "--board",
        "3x5",
        "--memory",
        "16",
        "--certificate",
        file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(solved["value"], "win");
    let checked = json(&["check-proof", file.to_str().unwrap(), "--json"]);
    let first = checked["claims"][0]["first_turn"]
        .as_str()
        .unwrap()
        .to_string();
    let moves = json(&["moves", "--board", "3x5", "--json"]);
    let after = |notation: &str| {
        moves["turns"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["notation"] == notation)
            .unwrap()["result"]
            .as_str()
            .unwrap()
            .to_string()
    };
    // After White's winning first turn, Black to move: lost for Black, by the same strategy.
    let at = after(&first);
    let moved = json(&["check-proof", file.to_str().unwrap(), "--at", &at, "--json"]);
    assert_eq!(moved["holds"], true);
    assert_eq!(moved["value"], "loss");
    assert_eq!(moved["position"], at.as_str());
    // After another first turn the strategy says nothing: refuted, not a wrong value.
    let other = moves["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["notation"].as_str().unwrap())
        .find(|n| *n != first)
        .unwrap();
    let file_arg = file.to_str().unwrap();
    refused(
        &["check-proof", file_arg, "--at", &after(other)],
        1,
        &["no claim of these certificates holds"],
    );
    // A position of another board is bad input.
    refused(&["check-proof", file_arg, "--at", "BBB/B1W/WWW w"], 2, &[]);
    // The turns that lead there from the root name the same position.
    let by_turn = json(&["check-proof", file_arg, "--at", &first, "--json"]);
    assert_eq!(by_turn["position"], at.as_str());
    assert_eq!(by_turn["value"], "loss");
    refused(
        &["check-proof", file_arg, "--at", &format!("{first} a1-a2")],
        2,
        &["--at", "after ", &first],
    );
    refused(&["check-proof", file_arg, "--at", " "], 2, &["--at"]);
}

#[test]
fn certificates_of_every_turn_join_into_the_value_of_the_position_before() {
    let dir = scratch("proof-join");
    let moves = json(&["moves", "--board", "3x5", "--json"]);
    // After each of White's first turns on 3x5 (a loss, a win and a draw for Black among
    // them), Black's turns solved apart, then checked together at the position before them.
    let mut values = Vec::new();
    let mut levels = Vec::new();
    for (i, first) in moves["turns"].as_array().unwrap().iter().enumerate() {
        let at = first["result"].as_str().unwrap();
        let level = dir.join(format!("after-{i}.proof"));
        let value = join_each_turn_at(at, &dir.join(format!("after-{i}")), &level);
        values.push(value);
        levels.push(level.to_str().unwrap().to_string());
    }
    values.sort();
    assert_eq!(values, ["draw", "loss", "win"], "all three kinds joined");
    // The joined certificates, written, join again one level up: the value of the start.
    let start = json(&["solve", "--board", "3x5", "--memory", "16", "--json"]);
    let mut args = vec!["check-proof"];
    args.extend(levels.iter().map(String::as_str));
    args.extend(["--at", start["position"].as_str().unwrap(), "--json"]);
    let two_levels = json(&args);
    assert_eq!(two_levels["holds"], true);
    assert_eq!(two_levels["value"], start["value"]);
}

/// Solve every turn of `at` apart (certificates under `proofs`), join their certificates at
/// `at` into `level`, and check the joined value against one whole solve; returns the value.
fn join_each_turn_at(at: &str, proofs: &std::path::Path, level: &std::path::Path) -> String {
    let solved_apart = json(&[
        "solve",
        "--position",
        at,
        "--each-turn",
        "--memory",
        "16",
        "--certificate",
        proofs.to_str().unwrap(),
        "--json",
    ]);
    assert_black_alone_leaves_a_bound_where_no_win(at, &solved_apart);
    let files: Vec<String> = solved_apart["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|turn| turn["search"]["certificate"].as_str().unwrap().to_string())
        .collect();
    let mut args = vec!["check-proof"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--at", at, "--json"]);
    let level = level.to_str().unwrap();
    let joined = json(&[&args[..], &["--write", level]].concat());
    assert_eq!(joined["written"], level);
    assert_eq!(joined["holds"], true, "{at}");
    assert_eq!(joined["position"], at);
    let solved = json(&["solve", "--position", at, "--memory", "16", "--json"]);
    assert_eq!(joined["value"], solved["value"], "{at}");
    // With the certificate of White's search there too (Black's hold where White cannot
    // win, which holds the position itself), the value stays: a win read off a turn's
    // certificate goes before a hold.
    let white_search = proofs.join("white-search.proof");
    json(&[
        "solve",
        "--position",
        at,
        "--only",
        "white",
        "--memory",
        "16",
        "--certificate",
        white_search.to_str().unwrap(),
        "--json",
    ]);
    let mut with_hold = args.clone();
    with_hold.insert(1, white_search.to_str().unwrap());
    assert_eq!(json(&with_hold)["value"], solved["value"], "{at}");
    if solved["value"] == "draw" {
        assert_a_missing_answer_leaves_a_bound(at, &files, &solved_apart);
    }
    solved["value"].as_str().unwrap().to_string()
}

/// Black's search alone ("can Black force a win?") after each turn of `at`: a win where the
/// value (from `solved_apart`) is one, elsewhere the bound it leaves for Black.
fn assert_black_alone_leaves_a_bound_where_no_win(at: &str, solved_apart: &Value) {
    let black_only = json(&[
        "solve",
        "--position",
        at,
        "--each-turn",
        "--only",
        "black",
        "--memory",
        "16",
        "--json",
    ]);
    for (full, only) in solved_apart["turns"]
        .as_array()
        .unwrap()
        .iter()
        .zip(black_only["turns"].as_array().unwrap())
    {
        if full["value"] == "win" {
            assert_eq!(only["value"], "win");
            assert_eq!(only["bound"], Value::Null);
        } else {
            assert_eq!(only["value"], "unknown");
            assert_eq!(only["bound"], "draw or worse", "{}", full["notation"]);
        }
    }
}

/// At a drawn `at`, without the certificate of a turn that needs an answer White's hold is
/// left out: only Black's remains, a bound.
fn assert_a_missing_answer_leaves_a_bound(at: &str, files: &[String], solved_apart: &Value) {
    let unanswered = solved_apart["turns"]
        .as_array()
        .unwrap()
        .iter()
        .position(|turn| turn["value"] == "draw")
        .unwrap();
    let mut args = vec!["check-proof"];
    args.extend(
        files
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != unanswered)
            .map(|(_, file)| file.as_str()),
    );
    args.extend(["--at", at, "--json"]);
    let output = fanorona(&args);
    assert!(output.status.success());
    let partial: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(partial["value"], Value::Null, "a bound, not a value");
    assert!(String::from_utf8_lossy(&output.stderr).contains("left out"));
}

#[test]
fn weak_counting_changes_the_search_but_not_the_value_and_its_proof_checks() {
    let dir = scratch("proof-weak");
    std::fs::create_dir_all(&dir).unwrap();
    let certificate = dir.join("3x5-weak.proof");
    let certificate_arg = certificate.to_str().unwrap();
    let tables = dir.join("no-tables");
    std::fs::create_dir_all(&tables).unwrap();
    let solve = |counting: &str, certificate: &[&str]| {
        let args = [
            &["solve", "--board", "3x5", "--memory", "16", "--json"][..],
            &["--tables", tables.to_str().unwrap(), "--counting", counting],
            certificate,
        ];
        json(&args.concat())
    };
    let sum = solve("sum", &[]);
    let weak = solve("weak", &["--certificate", certificate_arg]);
    // SPEC.md §4: White wins 3x5, however the numbers are counted ...
    assert_eq!(sum["value"], "win");
    assert_eq!(weak["value"], "win");
    // ... but the search went another way.
    assert_ne!(sum["nodes"], weak["nodes"]);
    let checked = json(&["check-proof", certificate_arg, "--json"]);
    assert_eq!(checked["holds"], true);
    assert_eq!(checked["value"], "win");
    refused(
        &["solve", "--board", "3x3", "--counting", "strong"],
        2,
        &["--counting", "strong"],
    );
}

#[test]
fn solve_uses_the_tables_in_its_directory() {
    let dir = scratch("solve-with-tables");
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--board", "3x3", "--stones", "4", "--tables", dir_arg, "--json",
    ]);
    let solved = json(&[
        "solve", "--board", "3x3", "--tables", dir_arg, "--memory", "16", "--json",
    ]);
    assert_eq!(solved["value"], "win");
    assert_eq!(solved["table_stones"], 4);
}

#[test]
fn check_proof_reads_table_leaves_by_blocks_and_names_a_damaged_table() {
    let dir = scratch("proof-with-tables");
    let dir_arg = dir.to_str().unwrap();
    json(&[
        "tables", "build", "--board", "3x3", "--stones", "4", "--tables", dir_arg, "--json",
    ]);
    let certificate = dir.join("3x3.proof");
    let certificate_arg = certificate.to_str().unwrap();
    json(&[
        "solve",
        "--board",
        "3x3",
        "--tables",
        dir_arg,
        "--memory",
        "16",
        "--certificate",
        certificate_arg,
        "--json",
    ]);
    let check = [
        "check-proof",
        certificate_arg,
        "--tables",
        dir_arg,
        "--json",
    ];
    let checked = json(&check);
    assert_eq!(checked["holds"], true);
    assert_eq!(checked["value"], "win");
    assert!(checked["table_leaves"].as_u64().unwrap() > 0, "{checked}");
    // Without the tables the certificate cannot be checked.
    let elsewhere = dir.join("no-tables");
    refused(
        &[
            "check-proof",
            certificate_arg,
            "--tables",
            elsewhere.to_str().unwrap(),
        ],
        1,
        &["is missing"],
    );
    // The leaves are read from the value files: damage every slot of them and the leaves
    // read are refused, naming a file.
    let tables_with = |extension: &str| -> Vec<std::path::PathBuf> {
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|e| e == extension))
            .collect()
    };
    for path in tables_with("fnval") {
        damage_every_slot(&path);
    }
    refused(&check, 1, &[".fnval is corrupt"]);
    // Without value files it reads the entry files, and refuses those damaged the same way.
    for path in tables_with("fnval") {
        std::fs::remove_file(&path).unwrap();
    }
    assert_eq!(json(&check)["holds"], true);
    for path in tables_with("fntb") {
        damage_every_slot(&path);
    }
    refused(&check, 1, &[".fntb is corrupt"]);
}

#[test]
fn a_search_stopped_by_its_node_limit_goes_on_from_its_saved_state() {
    let dir = scratch("solve-state");
    let state = dir.join("state");
    let common = [
        "solve",
        "--board",
        "3x5",
        "--tables",
        dir.to_str().unwrap(),
        "--memory",
        "16",
        "--state",
        state.to_str().unwrap(),
        "--json",
    ];
    let first = fanorona(&[&common[..], &["--max-nodes", "200"]].concat());
    assert_eq!(first.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains("run again with the same --state"),
        "{stderr}"
    );
    let stopped: Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(stopped["value"], "unknown");
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        2,
        "one file per search"
    );
    let second = json(&[&common[..], &["--max-nodes", "100000"]].concat());
    assert_eq!(second["value"], "win");
    assert!(second["nodes"].as_u64() > stopped["nodes"].as_u64());
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        0,
        "finished searches are removed"
    );
}

#[test]
fn a_job_whose_state_another_run_holds_is_refused_and_listed_as_running() {
    let dir = scratch("tables-locked");
    let dir_arg = dir.to_str().unwrap();
    let build = |stones: &'static str| {
        [
            "tables", "build", "--board", "3x3", "--stones", stones, "--tables", dir_arg, "--json",
        ]
    };
    json(&build("3"));
    // Another run, building the system 1v3 + 3v1, holds its lock.
    let lock = dir.join("3x3-loss-1v3.lock");
    let other_run = fanorona_solver::RunLock::take(&lock).unwrap();
    let list = [
        "tables", "list", "--board", "3x3", "--tables", dir_arg, "--json",
    ];
    assert_eq!(json(&list)["running"][0], "3x3-loss-1v3.lock");
    refused(
        &build("4"),
        1,
        &[
            "another run is working on the same state",
            "3x3-loss-1v3.lock",
        ],
    );
    drop(other_run);
    assert_eq!(json(&list)["running"].as_array().unwrap().len(), 0);
    json(&build("4"));
    assert_eq!(json(&list)["complete_stones"], 4);

    // A search saved in a state directory: the same search is refused while one runs.
    let state = dir.join("state");
    let solve = [
        "solve",
        "--board",
        "3x5",
        "--memory",
        "16",
        "--max-nodes",
        "200",
        "--only",
        "white",
        "--state",
        state.to_str().unwrap(),
        "--json",
    ];
    assert_eq!(fanorona(&solve).status.code(), Some(1), "stopped unsettled");
    let saved = std::fs::read_dir(&state)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .find(|path| path.extension().is_some_and(|e| e == "dfpn"))
        .expect("the saved search");
    let other_run = fanorona_solver::RunLock::take(&saved.with_extension("lock")).unwrap();
    refused(&solve, 1, &["another run is working on the same state"]);
    drop(other_run);
    let again = fanorona(&solve);
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(!stderr.contains("another run"), "{stderr}");
    let went_on: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert!(
        went_on["nodes"].as_u64().unwrap() > 200,
        "from the saved search"
    );
}

#[test]
fn ctrl_c_during_each_turn_still_reports_the_turns_searched() {
    // The 5x5 start without tables: each turn's searches go on far longer than the second
    // this test waits, so Ctrl-C falls in the first turn's and the others never start.
    let child = spawned(
        &[
            "solve",
            "--board",
            "5x5",
            "--each-turn",
            "--memory",
            "16",
            "--max-nodes",
            "1000000000000",
            "--json",
        ],
        false,
    );
    std::thread::sleep(std::time::Duration::from_millis(1500));
    send(&child, "INT");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("interrupted (after "), "{stderr}");
    // The turns searched are reported (the one interrupted as unknown), not lost with the
    // ones never started.
    let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    let turns = report["turns"].as_array().unwrap();
    assert!(turns.iter().any(|turn| turn["value"] == "unknown"));
    let moves = json(&["moves", "--board", "5x5", "--json"]);
    let all_turns = moves["turns"].as_array().unwrap().len();
    assert!(turns.len() < all_turns, "later turns were not started");
}

/// The binary started with `args` (under `nohup` where `nohup` is true), its output piped.
fn spawned(args: &[&str], nohup: bool) -> std::process::Child {
    let binary = env!("CARGO_BIN_EXE_fanorona");
    let mut command = match nohup {
        true => Command::new("nohup"),
        false => Command::new(binary),
    };
    if nohup {
        command.arg(binary);
    }
    command
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs")
}

/// Send `signal` (as `kill` names it: "TERM", "HUP") to `child`.
fn send(child: &std::process::Child, signal: &str) {
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
}

/// The output of `child`, which was sent a signal that stops it: it must end within a minute
/// (else it is killed and the test fails, instead of hanging).
fn ended(mut child: std::process::Child) -> Output {
    for _ in 0..600 {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("still running a minute after the signal that should stop it");
}

/// The files in `dir` whose names end in `extension`.
fn files_ending(dir: &std::path::Path, extension: &str) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.to_string_lossy().ends_with(extension))
        .collect()
}

#[test]
fn a_termination_signal_stops_a_build_and_a_search_as_ctrl_c_does_saving_their_state() {
    // `kill`, a shutdown (SIGTERM) or a closed terminal (SIGHUP) must not lose the work since
    // the last save. The 5x9 tables up to 6 stones take far longer to build than the seconds
    // waited for, with saves every 20 minutes by default: only the stop saves a state here.
    let wait = std::time::Duration::from_millis(1500);
    let dir = scratch("stopped-by-sigterm");
    let tables = dir.join("tables");
    let build = [
        "tables",
        "build",
        "--board",
        "5x9",
        "--stones",
        "6",
        "--tables",
        tables.to_str().unwrap(),
        "--json",
    ];
    // Under nohup, SIGHUP stays ignored: a job left running goes on when its terminal closes.
    let mut child = spawned(&build, true);
    std::thread::sleep(wait);
    send(&child, "HUP");
    std::thread::sleep(wait);
    assert!(
        child.try_wait().unwrap().is_none(),
        "nohup's SIGHUP ignored"
    );
    send(&child, "TERM");
    let output = ended(child);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("interrupted; the state is saved in"),
        "{stderr}"
    );
    assert!(!files_ending(&tables, ".fnpart").is_empty(), "{stderr}");
    let listed = json(&[
        "tables",
        "list",
        "--board",
        "5x9",
        "--tables",
        tables.to_str().unwrap(),
        "--json",
    ]);
    assert!(!listed["in_progress"].as_array().unwrap().is_empty());

    // A search saved in --state, stopped by SIGTERM long before it settles (White's question
    // at the 5x9 start without tables: billions of nodes). Not SIGHUP: where the test itself
    // runs under nohup, its children inherit SIGHUP ignored and rightly keep ignoring it.
    let state = dir.join("state");
    let solve = [
        "solve",
        "--board",
        "5x9",
        "--only",
        "white",
        "--memory",
        "16",
        "--max-nodes",
        "1000000000000",
        "--save-every",
        "0",
        "--state",
        state.to_str().unwrap(),
        "--json",
    ];
    let child = spawned(&solve, false);
    std::thread::sleep(wait);
    send(&child, "TERM");
    let output = ended(child);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert_eq!(files_ending(&state, ".dfpn").len(), 1, "{stderr}");
}

#[test]
fn positions_from_a_file_are_solved_together_with_their_certificates() {
    let dir = scratch("solve-positions");
    std::fs::create_dir_all(&dir).unwrap();
    let start = "BBBBB/BW1BW/WWWWW w";
    let moves = json(&["moves", "--position", start, "--json"]);
    let after = moves["turns"][0]["result"].as_str().unwrap().to_string();
    let file = dir.join("positions.txt");
    std::fs::write(
        &file,
        format!("# two 3x5 positions\n{start}\n\n  {after}\n"),
    )
    .unwrap();
    let proofs = dir.join("proofs");
    let report = json(&[
        "solve",
        "--positions",
        file.to_str().unwrap(),
        "--parallel",
        "2",
        "--memory",
        "16",
        "--certificate",
        proofs.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(report["board"], "3x5");
    let solved = report["positions"].as_array().unwrap();
    let lines: Vec<u64> = solved.iter().map(|p| p["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [2, 4]);
    for (entry, fen) in solved.iter().zip([start, after.as_str()]) {
        assert_eq!(entry["position"], fen);
        // The same value as the position solved alone, and a certificate that says so.
        let alone = json(&["solve", "--position", fen, "--memory", "16", "--json"]);
        assert_eq!(entry["value"], alone["value"], "{fen}");
        let proof = proofs.join(format!("line-{}.proof", entry["line"]));
        assert_eq!(entry["certificate"], proof.to_str().unwrap());
        let checked = json(&["check-proof", proof.to_str().unwrap(), "--json"]);
        assert_eq!(checked["value"], entry["value"], "{fen}");
    }
    // A line that is no position is named; so is a second board, and a file with none.
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, format!("{start}\nBBBBB/BW1BX/WWWWW w\n")).unwrap();
    refused(
        &["solve", "--positions", bad.to_str().unwrap()],
        2,
        &["line 2"],
    );
    std::fs::write(&bad, format!("{start}\nBBB/B1W/WWW w\n")).unwrap();
    refused(
        &["solve", "--positions", bad.to_str().unwrap()],
        2,
        &["line 2", "3x3", "3x5"],
    );
    std::fs::write(&bad, "# nothing\n\n").unwrap();
    refused(
        &["solve", "--positions", bad.to_str().unwrap()],
        2,
        &["no position"],
    );
    let missing = dir.join("missing.txt");
    refused(
        &["solve", "--positions", missing.to_str().unwrap()],
        2,
        &["missing.txt"],
    );
    refused(
        &[
            "solve",
            "--positions",
            file.to_str().unwrap(),
            "--each-turn",
        ],
        2,
        &[],
    );
}

#[test]
fn each_turn_values_agree_with_the_start_and_their_certificates() {
    let dir = scratch("solve-each-turn");
    let proofs = dir.join("proofs");
    let report = json(&[
        "solve",
        "--board",
        "3x5",
        "--each-turn",
        "--parallel",
        "2",
        "--memory",
        "16",
        "--certificate",
        proofs.to_str().unwrap(),
        "--json",
    ]);
    let turns = report["turns"].as_array().unwrap();
    let moves = json(&["moves", "--board", "3x5", "--json"]);
    assert_eq!(turns.len(), moves["turns"].as_array().unwrap().len());
    // The start's value is the best of its turns' values for White (a win: SPEC.md §4).
    let start = json(&["solve", "--board", "3x5", "--memory", "16", "--json"]);
    let rank = |value: &str| {
        ["loss", "draw", "win"]
            .iter()
            .position(|v| *v == value)
            .unwrap()
    };
    let best = turns
        .iter()
        .map(|t| rank(t["value"].as_str().unwrap()))
        .max()
        .unwrap();
    assert_eq!(best, rank(start["value"].as_str().unwrap()));
    // Each turn's certificate is checked on its own: the value there is for Black, to move.
    for turn in turns {
        let notation = turn["notation"].as_str().unwrap();
        let file = proofs.join(format!("{notation}.proof"));
        assert_eq!(turn["search"]["certificate"], file.to_str().unwrap());
        let checked = json(&["check-proof", file.to_str().unwrap(), "--json"]);
        let for_white = turn["value"].as_str().unwrap();
        let for_black = ["win", "draw", "loss"][rank(for_white)];
        assert_eq!(checked["value"], for_black, "{notation}");
    }
    refused(
        &["solve", "--board", "3x3", "--each-turn", "--parallel", "0"],
        2,
        &[],
    );
    // --turns picks some of them; a turn that is not legal is refused, naming it.
    let some = json(&[
        "solve",
        "--board",
        "3x5",
        "--each-turn",
        "--turns",
        "b2-c2A,c1-c2A",
        "--json",
    ]);
    let picked: Vec<&str> = some["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["notation"].as_str().unwrap())
        .collect();
    assert_eq!(picked, ["c1-c2A", "b2-c2A"]);
    refused(
        &["solve", "--board", "3x5", "--each-turn", "--turns", "a1-a2"],
        2,
        &["a1-a2"],
    );
}

#[test]
fn status_reads_back_where_saved_searches_stand() {
    let dir = scratch("solve-status");
    let state = dir.join("state");
    let state_arg = state.to_str().unwrap();
    let stopped = fanorona(&[
        "solve",
        "--board",
        "5x5",
        "--memory",
        "16",
        "--max-nodes",
        "20000",
        "--state",
        state_arg,
        "--json",
    ]);
    assert_eq!(
        stopped.status.code(),
        Some(1),
        "not settled in 20,000 nodes"
    );
    let status = json(&[
        "solve", "--board", "5x5", "--state", state_arg, "--status", "--json",
    ]);
    let searches = status["searches"].as_array().unwrap();
    assert_eq!(searches.len(), 2, "both sides' searches");
    assert_eq!(searches[0]["attacker"], "white", "the side to move first");
    let moves = json(&["moves", "--board", "5x5", "--json"]);
    let root_turns = moves["turns"].as_array().unwrap().len();
    for search in searches {
        assert_saved_search_status(search, root_turns);
        assert_line_starts_at_the_least_number(search);
        assert_root_combines_its_turns(search);
    }
    let short = json(&[
        "solve", "--board", "5x5", "--state", state_arg, "--status", "--line", "2", "--json",
    ]);
    for search in short["searches"].as_array().unwrap() {
        assert!(search["line"].as_array().unwrap().len() <= 2);
    }
    // Nothing saved for another position: exit 1; --status needs --state: exit 2.
    refused(
        &["solve", "--board", "3x3", "--state", state_arg, "--status"],
        1,
        &[],
    );
    refused(&["solve", "--status"], 2, &[]);
}

/// The status of one saved, unsettled search of a root with `root_turns` turns: every turn
/// with an outcome, the held positions counted by stones, the open ones by stones and material.
fn assert_saved_search_status(search: &Value, root_turns: usize) {
    assert_eq!(search["saved"], true);
    assert!(search["nodes"].as_u64().unwrap() >= 20_000);
    let turns = search["turns"].as_array().unwrap();
    assert_eq!(turns.len(), root_turns);
    let outcomes = ["proven", "disproven", "open", "unknown"];
    assert!(turns
        .iter()
        .all(|t| outcomes.contains(&t["outcome"].as_str().unwrap())));
    assert!(turns.iter().any(|t| t["outcome"] != "unknown"), "{turns:?}");
    let held_by_stones = search["held_by_stones"].as_object().unwrap();
    let held: u64 = held_by_stones.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(search["held"].as_u64(), Some(held));
    assert!(!search["open_by_stones"].as_object().unwrap().is_empty());
    // By material, the positions of at most 10 stones: the same counts, split.
    let by_material: u64 = search["open_by_material"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["positions"].as_u64().unwrap())
        .sum();
    let open_by_stones = search["open_by_stones"].as_object().unwrap();
    let up_to_ten: u64 = open_by_stones
        .iter()
        .filter(|(stones, _)| stones.parse::<u32>().unwrap() <= 10)
        .map(|(_, n)| n.as_u64().unwrap())
        .sum();
    assert_eq!(by_material, up_to_ten);
    assert!(by_material > 0);
}

/// The root's numbers from its turns: where the attacker moves (White at the 5x5 start), the
/// least proof number and the summed disproof numbers of its distinct results; where the
/// defender moves, the other way round. Turns not in the table count as searched from scratch,
/// which can only lower the least and raise the sum.
fn assert_root_combines_its_turns(search: &Value) {
    // (the number minimised, the number summed) at the root.
    let attacker_moves = search["attacker"] == "white";
    let oriented = |numbers: &Value| {
        let (proof, disproof) = (
            numbers["proof"].as_u64().unwrap(),
            numbers["disproof"].as_u64().unwrap(),
        );
        if attacker_moves {
            (proof, disproof)
        } else {
            (disproof, proof)
        }
    };
    let mut by_result = std::collections::BTreeMap::new();
    let mut all_known = true;
    for turn in search["turns"].as_array().unwrap() {
        if turn["numbers"].is_null() {
            all_known = false;
        } else {
            by_result.insert(turn["result"].to_string(), oriented(&turn["numbers"]));
        }
    }
    let least = by_result.values().map(|n| n.0).min().unwrap();
    let summed: u64 = by_result.values().map(|n| n.1).sum();
    let (root_least, root_summed) = oriented(&search["root_from_turns"]);
    if all_known {
        assert_eq!((root_least, root_summed), (least, summed), "{search}");
    } else {
        assert!(root_least <= least && root_summed >= summed, "{search}");
    }
}

/// The line a saved search works on starts with the root's open turn of least proof number
/// (the attacker to move) or least disproof number (the defender to move).
fn assert_line_starts_at_the_least_number(search: &Value) {
    let turns = search["turns"].as_array().unwrap();
    let line = search["line"].as_array().unwrap();
    assert!(!line.is_empty() && line.len() <= 12, "{line:?}");
    let numbers = |t: &Value| {
        let n = &t["numbers"];
        (
            n["proof"].as_u64().unwrap(),
            n["disproof"].as_u64().unwrap(),
        )
    };
    let open: Vec<(u64, u64)> = turns
        .iter()
        .filter(|t| t["outcome"] == "open")
        .map(numbers)
        .collect();
    let first = (
        line[0]["proof"].as_u64().unwrap(),
        line[0]["disproof"].as_u64().unwrap(),
    );
    let attacker_moves = search["attacker"] == "white";
    let least = if attacker_moves {
        open.iter().map(|n| n.0).min()
    } else {
        open.iter().map(|n| n.1).min()
    };
    let chosen = if attacker_moves { first.0 } else { first.1 };
    assert_eq!(Some(chosen), least, "{line:?} against {open:?}");
    let first_turn = turns
        .iter()
        .find(|t| t["notation"] == line[0]["notation"])
        .expect("the line's first turn is a turn of the root");
    assert_eq!(first_turn["result"], line[0]["result"]);
    for step in line {
        assert!(step["open_children"].as_u64() <= step["children"].as_u64());
        assert!(step["proof"].as_u64() > Some(0) && step["disproof"].as_u64() > Some(0));
    }
}

/// With --each-turn, the status gives the saved searches of the positions after each turn
/// asked for.
#[test]
fn status_of_each_turn_reads_back_their_saved_searches() {
    let dir = scratch("solve-status-each-turn");
    let state = dir.join("state");
    let pair = [
        "solve",
        "--board",
        "5x5",
        "--each-turn",
        "--turns",
        "b2-c3A,c2-c3A",
        "--only",
        "black",
        "--state",
        state.to_str().unwrap(),
    ];
    let stopped = fanorona(&[&pair[..], &["--memory", "16", "--max-nodes", "5000"]].concat());
    assert_eq!(stopped.status.code(), Some(1));
    let each = json(&[&pair[..], &["--status", "--json"]].concat());
    let turns = each["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0]["notation"], "b2-c3A");
    let saved = &turns[0]["status"]["searches"][0];
    assert_eq!(saved["saved"], true);
    assert!(Path::new(saved["file"].as_str().unwrap()).is_file());
    // Without --only, White's search (never run) is named by the file it would be saved as.
    let without_only: Vec<&str> = pair
        .iter()
        .copied()
        .filter(|a| !["--only", "black"].contains(a))
        .collect();
    let both = json(&[&without_only[..], &["--status", "--json"]].concat());
    let searches = both["turns"][0]["status"]["searches"].as_array().unwrap();
    let white = searches.iter().find(|s| s["attacker"] == "white").unwrap();
    assert_eq!(white["saved"], false);
    let would_be = Path::new(white["file"].as_str().unwrap());
    assert!(!would_be.exists());
    assert_eq!(
        would_be.parent(),
        Path::new(saved["file"].as_str().unwrap()).parent()
    );
    assert!(
        would_be.to_str().unwrap().ends_with("-white.dfpn"),
        "{would_be:?}"
    );
}

#[test]
fn one_side_searched_alone_and_settled_is_an_answer() {
    // 3x5 is a White win, so Black cannot force one: the question asked is answered (exit 0)
    // though the value is not (White's search did not run).
    let output = fanorona(&[
        "solve", "--board", "3x5", "--only", "black", "--memory", "16", "--json",
    ]);
    assert!(output.status.success(), "{output:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["value"], "unknown");
    assert_eq!(report["mover_can_force_a_win"], "unknown");
    assert_eq!(report["waiting_can_force_a_win"], "no");
    // Neither search stopped unsettled: no numbers to give.
    assert_eq!(report["mover_numbers"], Value::Null);
    assert_eq!(report["waiting_numbers"], Value::Null);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs the other search"), "{stderr}");
}

#[test]
fn one_side_searched_alone_goes_on_with_another_table_size_and_held_set() {
    let dir = scratch("solve-only");
    let state = dir.join("state");
    let common = [
        "solve",
        "--board",
        "3x5",
        "--tables",
        dir.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
        "--only",
        "white",
        "--json",
    ];
    let first = fanorona(&[&common[..], &["--max-nodes", "200", "--memory", "16"]].concat());
    assert_eq!(first.status.code(), Some(1));
    let stopped: Value = serde_json::from_slice(&first.stdout).unwrap();
    assert_eq!(stopped["mover_can_force_a_win"], "unknown");
    assert_eq!(stopped["waiting_can_force_a_win"], "unknown");
    // White's search stopped at its budget gives the numbers its root stood at; Black's did
    // not run.
    let stood_at = &stopped["mover_numbers"];
    assert!(stood_at["proof"].as_u64().unwrap() > 0, "{stopped}");
    assert!(stood_at["disproof"].as_u64().unwrap() > 0, "{stopped}");
    assert_eq!(stopped["waiting_numbers"], Value::Null);
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        1,
        "only White's search is saved"
    );
    // Half the table, and a held set of its own size: the saved entries are moved into them.
    let resumed = [
        "--max-nodes",
        "100000",
        "--memory",
        "8",
        "--held-memory",
        "32",
    ];
    let second = json(&[&common[..], &resumed].concat());
    assert_eq!(second["value"], "win");
    assert_eq!(second["mover_can_force_a_win"], "yes");
    assert_eq!(second["waiting_can_force_a_win"], "unknown");
    assert!(second["nodes"].as_u64() > stopped["nodes"].as_u64());
    assert_eq!(std::fs::read_dir(&state).unwrap().count(), 0);
}

/// `solve` of the 3x5 start with its searches saved in `dir`/state, the certificate to
/// `certificate`. (Its flags differ from the other 3x5 runs' in --state, --memory and
/// --certificate, so they are not shared.)
fn solve_3x5_args(dir: &std::path::Path, certificate: &std::path::Path) -> Vec<String> {
    [
        "solve",
        "--board",
        "3x5",
        "--tables",
        dir.to_str().unwrap(),
        "--state",
        dir.join("state").to_str().unwrap(),
        "--memory",
        "16",
        "--certificate",
        certificate.to_str().unwrap(),
        "--json",
    ]
    .map(str::to_string)
    .to_vec()
}

#[test]
#[cfg(unix)]
fn a_certificate_that_cannot_be_written_leaves_the_settled_search_to_read_it_off_again() {
    // The saved searches were removed as soon as the value settled, before the certificate
    // was written: a full disk there threw the whole search away. (/dev/full: every write
    // fails as on a full disk.)
    let dir = scratch("solve-unwritable");
    let state = dir.join("state");
    let full = solve_3x5_args(&dir, std::path::Path::new("/dev/full"));
    refused(
        &full.iter().map(String::as_str).collect::<Vec<_>>(),
        1,
        &["/dev/full"],
    );
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        2,
        "both settled searches are kept"
    );
    let here = dir.join("start.proof");
    let again = solve_3x5_args(&dir, &here);
    let solved = json(&again.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(solved["value"], "win");
    assert_eq!(solved["certificate"], here.to_str().unwrap());
    assert_eq!(
        std::fs::read_dir(&state).unwrap().count(),
        0,
        "removed once written"
    );
    let checked = json(&["check-proof", here.to_str().unwrap(), "--json"]);
    assert_eq!(checked["value"], "win");
}

#[test]
fn a_certificate_path_that_cannot_be_made_is_refused_before_the_search() {
    let dir = scratch("solve-certificate-path");
    std::fs::create_dir_all(&dir).unwrap();
    // The certificate's directory is made when missing ...
    let nested = dir.join("proofs").join("start.proof");
    let args = solve_3x5_args(&dir, &nested);
    let solved = json(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(solved["certificate"], nested.to_str().unwrap());
    // ... and one under a file cannot be: refused before anything is searched or saved.
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let args = solve_3x5_args(&dir, &file.join("start.proof"));
    refused(
        &args.iter().map(String::as_str).collect::<Vec<_>>(),
        1,
        &["--certificate", "a-file", "not a directory"],
    );
    assert_eq!(std::fs::read_dir(dir.join("state")).unwrap().count(), 0);
}

#[test]
fn a_state_path_that_is_a_file_is_refused_naming_it() {
    let dir = scratch("solve-state-file");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let state = file.to_str().unwrap();
    refused(
        &["solve", "--board", "3x3", "--state", state],
        1,
        &["--state", "a-file", "not a directory"],
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"not a directory");
}

#[test]
fn a_table_of_no_memory_is_refused() {
    refused(
        &["solve", "--board", "3x3", "--memory", "0"],
        2,
        &["--memory", "at least 1"],
    );
}

#[test]
#[cfg(unix)]
fn a_reader_that_goes_away_is_no_panic() {
    // `fanorona perft 6 | head -0`: the reader is gone before the command writes anything.
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["perft", "6", "--threads", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_long_search_saves_itself_while_it_runs() {
    let dir = scratch("solve-checkpoint");
    let state = dir.join("state");
    let state_arg = state.to_str().unwrap();
    // Black's search from the 5x5 start runs long (the start is a draw); a checkpoint is due
    // at every progress report.
    let run = |save_every: &str| {
        fanorona(&[
            "solve",
            "--board",
            "5x5",
            "--only",
            "black",
            "--max-nodes",
            "300000",
            "--memory",
            "16",
            "--state",
            state_arg,
            "--save-every",
            save_every,
            "--json",
        ])
    };
    let output = run("0.00001");
    assert_eq!(
        output.status.code(),
        Some(1),
        "not settled in 300,000 nodes"
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("saved in"), "{stderr}");
    assert_eq!(std::fs::read_dir(&state).unwrap().count(), 1);
    for bad in ["-1", "nan", "soon"] {
        assert_eq!(run(bad).status.code(), Some(2), "--save-every {bad}");
    }
}

#[test]
fn a_lopsided_system_is_built_over_what_its_captures_reach_and_used_by_solve_and_query() {
    let dir = scratch("lopsided-system");
    let dir_arg = dir.to_str().unwrap();
    let scope = [
        "--board", "3x5", "--stones", "6", "--only", "1v5", "--tables", dir_arg,
    ];
    let built = json(
        &[
            &["tables", "build"],
            &scope[..],
            &["--values-only", "--json"],
        ]
        .concat(),
    );
    // One side keeps a single stone: 1v1; 1v2, 2v1; 1v3, 3v1; 1v4, 4v1; 1v5, 5v1.
    assert_eq!(built["materials"], 9);
    assert!(!dir.join("3x5-loss-2v2.fnval").exists());
    let verified = json(&[&["tables", "verify"], &scope[..], &["--json"]].concat());
    assert_eq!(verified["mismatches"].as_array().unwrap().len(), 0);
    let position = "BB3/1B1B1/W3B w";
    let queried = json(&[
        "query",
        "--position",
        position,
        "--tables",
        dir_arg,
        "--json",
    ]);
    let solved = json(&[
        "solve",
        "--position",
        position,
        "--tables",
        dir_arg,
        "--memory",
        "16",
        "--json",
    ]);
    assert_eq!(solved["value"], queried["value"]);
    assert_eq!(solved["table_stones"], 3);
    assert_eq!(
        solved["table_materials"],
        serde_json::json!(["1v3", "1v4", "1v5", "3v1", "4v1", "5v1"])
    );
}

#[test]
fn a_partial_layer_is_built_verified_and_used_by_solve_and_query() {
    let dir = scratch("partial-layer");
    let dir_arg = dir.to_str().unwrap();
    let build = |only: &str| {
        json(&[
            "tables", "build", "--board", "3x5", "--stones", "6", "--only", only, "--tables",
            dir_arg, "--json",
        ])
    };
    // Over the whole layers up to 5 stones: the 3v3 system and the 8 smaller materials its
    // captures reach (1v1; 1v2, 2v1; 1v3, 2v2, 3v1; 2v3, 3v2), not 1v4 and 4v1.
    json(&[
        "tables", "build", "--board", "3x5", "--stones", "5", "--tables", dir_arg, "--json",
    ]);
    assert_eq!(build("3v3")["materials"], 9);
    let verified = json(&[
        "tables", "verify", "--board", "3x5", "--stones", "6", "--only", "3v3", "--tables",
        dir_arg, "--json",
    ]);
    assert_eq!(verified["mismatches"].as_array().unwrap().len(), 0);
    assert_eq!(verified["value_files"][0]["material"], "3v3");
    assert_eq!(verified["value_files"][0]["mismatches"], 0);
    // A 3v3 position is answered, a 2v4 one is not.
    let position = "WW3/1B1B1/W2B1 w";
    assert_eq!(
        json(&[
            "query",
            "--position",
            position,
            "--tables",
            dir_arg,
            "--json"
        ])["position"],
        position
    );
    let missing = fanorona(&[
        "query",
        "--position",
        "WW3/1B1B1/3BB w",
        "--tables",
        dir_arg,
    ]);
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("3x5-loss-2v4.fntb"));
    // Searches take the partial layer, and say so.
    let solve = |more: &[&str]| {
        let position = "WWW2/1B1B1/W2BB w";
        let args = ["solve", "--position", position, "--tables", dir_arg];
        json(&[&args[..], &["--memory", "16", "--json"], more].concat())
    };
    let solved = solve(&[]);
    assert_eq!(solved["table_stones"], 5);
    assert_eq!(solved["table_materials"], serde_json::json!(["3v3"]));
    // Tables left out are not used: the partial layer, or a material of a complete layer,
    // which then becomes partial; the value stays.
    let solve_without = |materials: &str| solve(&["--leave-out", materials]);
    let without_3v3 = solve_without("3v3");
    assert_eq!(without_3v3["table_stones"], 5);
    assert_eq!(without_3v3["table_materials"], serde_json::json!([]));
    let without_2v3 = solve_without("2v3,3v3");
    assert_eq!(without_2v3["table_stones"], 4);
    assert_eq!(
        without_2v3["table_materials"],
        serde_json::json!(["1v4", "3v2", "4v1"])
    );
    for solved_without in [&without_3v3, &without_2v3] {
        assert_eq!(solved_without["value"], solved["value"]);
    }
    // A material answered one ply on (--derive): the same value, said so, and a certificate
    // that checks against the files.
    let certificate = dir.join("derived.proof");
    let certificate_arg = certificate.to_str().unwrap();
    let derived = solve(&["--derive", "2v3", "--certificate", certificate_arg]);
    assert_eq!(derived["value"], solved["value"]);
    assert_eq!(derived["derived_materials"], serde_json::json!(["2v3"]));
    assert_eq!(solved["derived_materials"], serde_json::json!([]));
    assert_eq!(derived["table_stones"], 5);
    let checked = fanorona(&["check-proof", certificate_arg, "--tables", dir_arg]);
    assert!(checked.status.success());
    refused(
        &[
            "solve", "--board", "3x5", "--derive", "3v3", "--tables", dir_arg,
        ],
        2,
        &["--derive 3v3: a paika leads back into 3v3"],
    );
    refused(
        &[
            "solve",
            "--board",
            "3x5",
            "--derive",
            "2v3",
            "--leave-out",
            "3v2",
            "--tables",
            dir_arg,
        ],
        2,
        &["--derive 2v3: its turns lead into 3v2, which the tables do not hold"],
    );
    refused(
        &[
            "solve",
            "--board",
            "3x5",
            "--leave-out",
            "3x3",
            "--tables",
            dir_arg,
        ],
        2,
        &["\"3x3\" is not a material"],
    );
    // A material of another stone count is refused.
    refused(
        &[
            "tables", "build", "--board", "3x5", "--stones", "6", "--only", "2v3", "--tables",
            dir_arg,
        ],
        2,
        &["has 5 stones"],
    );
}

/// A long job whose progress lines cannot be written (a log on a full disk) goes on: the lines
/// are lost, the job's work and result are not.
#[cfg(target_os = "linux")]
#[test]
fn a_job_goes_on_when_its_progress_cannot_be_written() {
    let dir = scratch("tables-3x3-full-stderr");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full on Linux");
    let output = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["tables", "build", "--board", "3x3", "--stones", "3"])
        .args(["--tables", dir.to_str().unwrap(), "--json"])
        .stderr(full)
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "exit {:?}", output.status);
    let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert!(report["materials"].as_u64().is_some_and(|m| m > 0));
}

#[test]
fn solve_split_settles_what_one_small_search_cannot_and_goes_on_from_its_state() {
    let dir = scratch("split");
    let (state, proof) = (dir.join("state"), dir.join("start.proof"));
    let (state, proof) = (state.to_str().unwrap(), proof.to_str().unwrap());
    // 3x7, a White win (SPEC.md §4), with searches of 2,000 nodes: one search of the start
    // needs more, so only the split settles it.
    let args = [
        "solve",
        "--board",
        "3x7",
        "--split",
        "--max-nodes",
        "2000",
        "--memory",
        "1",
        "--parallel",
        "2",
        "--state",
        state,
        "--certificate",
        proof,
        "--json",
    ];
    refused(
        &[
            "solve",
            "--board",
            "3x7",
            "--max-nodes",
            "2000",
            "--memory",
            "1",
        ],
        1,
        &["not solved within 2000 nodes"],
    );
    let first = json(&args);
    assert_eq!(first["value"], "win");
    let white = &first["questions"][0];
    assert_eq!(
        (&white["side"], &white["answer"]),
        (&"white".into(), &"yes".into())
    );
    assert!(white["searches"].as_u64().unwrap() > 1);
    assert_eq!(
        white["hangs_on"],
        Value::Null,
        "answered: it hangs on nothing"
    );
    let root = white["split_positions"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (root["line"].as_array().unwrap().len(), &root["answer"]),
        (0, &"yes".into())
    );
    // The 3x7 start holds 20 stones; with the root settled, every position below it is moot.
    assert_eq!(
        (&root["stones"], &root["moot"]),
        (&20.into(), &false.into())
    );
    let below = white["split_positions"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .skip(1);
    assert!(below.clone().count() > 0);
    for position in below {
        assert_eq!(position["moot"], true, "{position}");
        assert!(position["stones"].as_u64().unwrap() < 20, "{position}");
    }
    let checked = json(&["check-proof", proof, "--json"]);
    assert_eq!(
        (&checked["holds"], &checked["value"]),
        (&true.into(), &"win".into())
    );
    // A second run reads the answer back from --state.
    let again = json(&args);
    assert_eq!(again["value"], "win");
    assert_eq!(again["questions"][0]["searches"], 0);
    assert_eq!(again["questions"][0]["recalled"], 1);
    // --status: the same answer from the store, searching nothing; a store that is not there
    // is named.
    let mut status_args = args.to_vec();
    status_args.retain(|arg| *arg != "--certificate" && *arg != proof);
    status_args.push("--status");
    let status = json(&status_args);
    assert_eq!(status["value"], "win");
    assert_eq!(status["nodes"], 0);
    let missing = dir.join("no-such-store");
    let missing = missing.to_str().unwrap();
    refused(
        &[
            "solve", "--board", "3x7", "--split", "--status", "--state", missing,
        ],
        2,
        &[missing, "no such directory"],
    );
}

/// After each first turn of 3x5 (a loss, a win and a draw for Black), the split never
/// contradicts one whole solve: the same value, or where it stays open the bound it leaves
/// fits the value.
#[test]
fn solve_split_never_contradicts_a_whole_solve() {
    let moves = json(&["moves", "--board", "3x5", "--json"]);
    for first in moves["turns"].as_array().unwrap() {
        let at = first["result"].as_str().unwrap();
        let whole = json(&["solve", "--position", at, "--memory", "16", "--json"]);
        let output = fanorona(&[
            "solve",
            "--position",
            at,
            "--split",
            "--max-nodes",
            "500",
            "--memory",
            "1",
            "--split-depth",
            "8",
            "--json",
        ]);
        let split: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
        match split["value"].as_str().unwrap() {
            "unknown" => {
                assert!(!output.status.success());
                let fits = match split["bound"].as_str() {
                    Some("draw or worse") => whole["value"] != "win",
                    Some("draw or better") => whole["value"] != "loss",
                    _ => true,
                };
                assert!(fits, "{at}: {split} against {whole}");
                for question in split["questions"].as_array().unwrap() {
                    if question["answer"] == "unknown" {
                        assert_hangs_on_a_line_from(at, &question["hangs_on"]);
                    }
                }
            }
            value => assert_eq!(value, whole["value"], "{at}"),
        }
    }
}

#[test]
fn an_open_split_says_the_line_it_hangs_on() {
    // After 3x9's e1-e2A, Black has one turn, f2-e3W: both questions hang on what follows.
    let args = [
        "solve",
        "--board",
        "3x9",
        "--after",
        "e1-e2A",
        "--split",
        "--max-nodes",
        "300",
        "--memory",
        "1",
        "--split-depth",
        "2",
    ];
    let output = fanorona(&[&args[..], &["--json"]].concat());
    assert_eq!(output.status.code(), Some(1), "open: exit 1");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let at = report["position"].as_str().unwrap();
    for question in report["questions"].as_array().unwrap() {
        assert_eq!(question["answer"], "unknown");
        let hangs_on = &question["hangs_on"];
        assert_eq!(hangs_on["line"], serde_json::json!(["f2-e3W"]));
        assert!(hangs_on["open"].as_array().unwrap().len() > 1);
        assert_hangs_on_a_line_from(at, hangs_on);
    }
    let output = fanorona(&args);
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(
        text.contains("hangs on one line: f2-e3W (24 stones), then on: f1-f2A,"),
        "{text}"
    );
    // Its notes name each side's stones where it splits: e1-e2A took one black stone of 13,
    // and f2-e3W one white.
    let notes = String::from_utf8_lossy(&output.stderr);
    for said in [
        "split 1: the root (black to move, 13 white, 12 black stones): 1 turn,",
        "split 2: after f2-e3W (white to move, 12 white, 12 black stones):",
    ] {
        assert!(notes.contains(said), "wanted {said:?} in {notes}");
    }
}

/// An open question's `hangs_on`: its line, played from `at`, leads to its position, where
/// every turn it names as open is a legal turn.
fn assert_hangs_on_a_line_from(at: &str, hangs_on: &Value) {
    let line: Vec<&str> = hangs_on["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let reached = json(&[
        "moves",
        "--position",
        at,
        "--after",
        &line.join(" "),
        "--json",
    ]);
    assert_eq!(
        reached["position"], hangs_on["position"],
        "{at}: {hangs_on}"
    );
    let legal: Vec<&Value> = reached["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["notation"])
        .collect();
    for open in hangs_on["open"].as_array().unwrap() {
        assert!(legal.contains(&open), "{at}: {hangs_on}");
    }
}

#[test]
fn solve_split_refuses_each_turn() {
    refused(
        &["solve", "--board", "3x5", "--split", "--each-turn"],
        2,
        &["--each-turn"],
    );
}

#[test]
fn a_certificate_found_apart_is_taken_into_a_split_store() {
    let dir = scratch("split-take");
    std::fs::create_dir_all(&dir).unwrap();
    let tables = dir.to_str().unwrap();
    let proof = dir.join("white.proof");
    let proof = proof.to_str().unwrap();
    let store = dir.join("store");
    let store = store.to_str().unwrap();
    let apart = [
        "solve", "--board", "3x5", "--tables", tables, "--only", "white",
    ];
    let found = json(&[&apart[..], &["--certificate", proof, "--json"]].concat());
    assert_eq!(found["value"], "win");
    // Split with no level to split and ten nodes a search: only the answer taken settles it.
    let split = [
        "solve",
        "--board",
        "3x5",
        "--tables",
        tables,
        "--split",
        "--only",
        "white",
        "--split-depth",
        "0",
        "--max-nodes",
        "10",
        "--state",
        store,
        "--json",
    ];
    let output = fanorona(&[&split[..], &["--take", proof]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("can White force a win? yes"), "{stderr}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["value"], "win");
    assert_eq!(report["nodes"], 0);
    let missing = dir.join("missing.proof");
    let missing = missing.to_str().unwrap();
    refused(&[&split[..], &["--take", missing]].concat(), 1, &[missing]);
}

#[test]
fn pack_proof_keeps_the_choices_and_check_proof_reads_the_packed_file() {
    let dir = scratch("packed-proof");
    std::fs::create_dir_all(&dir).unwrap();
    let full = dir.join("5x5.proof");
    let packed = dir.join("5x5.fnpack");
    let (full_arg, packed_arg) = (full.to_str().unwrap(), packed.to_str().unwrap());
    let solved = json(&[
        "solve",
        "--board",
        "5x5",
        "--certificate",
        full_arg,
        "--json",
    ]);
    assert_eq!(solved["value"], "draw");
    let report = json(&["pack-proof", full_arg, packed_arg, "--json"]);
    let (bytes_in, bytes_out) = (report["bytes_in"].as_u64(), report["bytes_out"].as_u64());
    assert!(bytes_out.unwrap() * 10 < bytes_in.unwrap(), "{report}");
    let whole = json(&["check-proof", full_arg, "--json"]);
    let from_packed = json(&["check-proof", packed_arg, "--json"]);
    assert_eq!(from_packed["holds"], true);
    assert_eq!(from_packed["value"], "draw");
    assert_eq!(from_packed["positions"], report["positions_kept"]);
    assert_eq!(from_packed["claims"], whole["claims"]);
    // A packed file cut short is named, with exit code 1.
    let bytes = std::fs::read(&packed).unwrap();
    let cut = dir.join("cut.fnpack");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    refused(
        &["check-proof", cut.to_str().unwrap()],
        1,
        &["not a valid certificate", "cannot be decoded"],
    );
    refused(
        &["pack-proof", cut.to_str().unwrap(), packed_arg],
        1,
        &["not a valid certificate"],
    );
    // `solve --certificate` writes a name ending in .fnpack packed.
    let direct = dir.join("3x5.fnpack");
    let direct_arg = direct.to_str().unwrap();
    json(&[
        "solve",
        "--board",
        "3x5",
        "--certificate",
        direct_arg,
        "--json",
    ]);
    assert!(std::fs::read(&direct).unwrap().starts_with(b"FANOPAK\0"));
    let checked = json(&["check-proof", direct_arg, "--json"]);
    assert_eq!(checked["value"], "win");
}

#[test]
fn solve_refuses_a_tables_directory_that_is_not_there_and_notes_one_without_tables() {
    // A mistyped --tables is refused, naming it, not searched without tables; a directory
    // that is there but holds no tables of the board is searched without them, with a note.
    let dir = scratch("solve-tables-dir");
    let missing = dir.join("no-such-tables");
    let missing = missing.to_str().unwrap();
    refused(
        &["solve", "--board", "3x3", "--tables", missing],
        2,
        &[missing, "no such directory"],
    );
    std::fs::create_dir_all(&dir).unwrap();
    let output = fanorona(&[
        "solve",
        "--board",
        "3x3",
        "--tables",
        dir.to_str().unwrap(),
        "--json",
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(stderr.contains("no tables of 3x3 there"), "{stderr}");
    let solved: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(solved["value"], "win");
    assert_eq!(solved["table_stones"], 0);
}

#[test]
fn with_json_an_error_is_a_json_document_too() {
    // Refused input (exit 2) and a failed job (exit 1): stdout is one document naming the error.
    let cases: [(&[&str], u8, &str); 5] = [
        (&["solve", "--board", "4x4", "--json"], 2, "4x4"),
        (&["solve", "--no-such-flag", "--json"], 2, "--no-such-flag"),
        (&["perft", "many", "--json"], 2, "many"),
        (&["perft", "2", "--after", "z9-a1", "--json"], 2, "z9"),
        (
            &["check-proof", "no-such.proof", "--json"],
            1,
            "no-such.proof",
        ),
    ];
    for (args, code, named) in cases {
        let output = fanorona(args);
        assert_eq!(output.status.code(), Some(i32::from(code)), "{args:?}");
        let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
        assert_eq!(report["exit_code"], code, "{args:?}");
        let error = report["error"].as_str().expect("the error as a string");
        assert!(error.contains(named), "{args:?}: {error}");
        // The message is on stderr as without --json.
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!("error: {error}")),
            "{args:?}: {stderr}"
        );
    }
    // Without --json, nothing on stdout; --help is no error.
    assert!(fanorona(&["solve", "--board", "4x4"]).stdout.is_empty());
    let help = fanorona(&["solve", "--help", "--json"]);
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage"));
}

#[test]
fn a_result_printed_before_a_failing_exit_is_the_only_document() {
    // An unsettled search prints its report and exits 1: no error document after it.
    let output = fanorona(&[
        "solve",
        "--board",
        "5x5",
        "--max-nodes",
        "50",
        "--memory",
        "1",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).expect("one JSON document");
    assert_eq!(report["value"], "unknown");
    assert!(report.get("error").is_none());
}

#[test]
fn a_board_without_stones_is_refused() {
    for command in ["solve", "perft", "moves", "show", "query"] {
        let mut args = vec![command];
        if command == "perft" {
            args.push("1");
        }
        args.extend(["--position", "9/9/9/9/9 w"]);
        refused(&args, 2, &["no stones"]);
    }
}

#[test]
fn a_tables_directory_that_cannot_be_made_is_named() {
    let dir = scratch("tables-under-a-file");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let tables = file.join("tables");
    refused(
        &[
            "tables",
            "build",
            "--board",
            "3x3",
            "--stones",
            "2",
            "--tables",
            tables.to_str().unwrap(),
        ],
        1,
        &["tables directory", "cannot make it"],
    );
}

/// A search stopped midway, harvested, and searched again from nothing taking the harvest in:
/// the same answer, a certificate that holds; and the harvest as JSON says what it wrote.
#[test]
fn a_harvested_search_is_taken_back_in_by_the_next() {
    let dir = scratch("solve-harvest");
    let (state, harvest) = (dir.join("state"), dir.join("harvest"));
    let (state, harvest) = (state.to_str().unwrap(), harvest.to_str().unwrap());
    let search = [
        "solve", "--board", "3x7", "--only", "white", "--memory", "64",
    ];
    let stopped = fanorona(
        &[
            &search[..],
            &["--max-nodes", "9000", "--state", state, "--json"],
        ]
        .concat(),
    );
    let stopped: Value = serde_json::from_slice(&stopped.stdout).unwrap();
    assert_eq!(
        stopped["mover_can_force_a_win"], "unknown",
        "stopped midway, saved"
    );
    let harvest_of = [
        &search[..],
        &["--state", state, "--harvest", harvest, "--json"],
    ]
    .concat();
    let harvested = json(&[&harvest_of[..], &["--harvest-work", "20"]].concat());
    let written = harvested["written"].as_array().unwrap();
    assert!(!written.is_empty(), "{harvested}");
    assert_eq!(harvested["failed"].as_array().unwrap().len(), 0);
    for file in written {
        let file = file["file"].as_str().unwrap();
        assert!(fanorona(&["check-proof", file]).status.success(), "{file}");
    }
    let certificate = dir.join("taken.proof");
    let certificate = certificate.to_str().unwrap();
    let taken = [
        &search[..],
        &["--take", harvest, "--certificate", certificate, "--json"],
    ]
    .concat();
    let output = fanorona(&taken);
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    let took = format!("took {} certificates", written.len());
    assert!(stderr.contains(&took), "{stderr}");
    let solved: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(solved["value"], "win");
    assert!(fanorona(&["check-proof", certificate]).status.success());
}

#[test]
fn harvest_and_take_refuse_what_they_cannot_use() {
    refused(
        &["solve", "--board", "3x3", "--harvest", "somewhere"],
        2,
        &["--state", "--only"],
    );
    let dir = scratch("solve-take-missing");
    let missing = dir.join("missing.fnpack");
    refused(
        &[
            "solve",
            "--board",
            "3x3",
            "--take",
            missing.to_str().unwrap(),
        ],
        1,
        &["--take", "missing.fnpack", "no such file"],
    );
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.fnpack");
    std::fs::write(&garbage, "not a certificate").unwrap();
    refused(
        &[
            "solve",
            "--board",
            "3x3",
            "--take",
            garbage.to_str().unwrap(),
        ],
        1,
        &["--take", "garbage.fnpack"],
    );
    let state = dir.join("state");
    refused(
        &[
            "solve",
            "--board",
            "3x3",
            "--only",
            "white",
            "--state",
            state.to_str().unwrap(),
            "--harvest",
            dir.join("harvest").to_str().unwrap(),
        ],
        1,
        &["no saved search"],
    );
}

/// `--from-search FILE` starts a search of a position below a saved one from that saved
/// search, and says so; a file of the other side, not a search, or missing is refused first.
#[test]
fn a_search_starts_from_the_saved_search_above_it() {
    let dir = scratch("solve-from-search");
    let (above, below) = (dir.join("above"), dir.join("below"));
    let (above, below) = (above.to_str().unwrap(), below.to_str().unwrap());
    let search = [
        "solve", "--board", "5x5", "--only", "white", "--memory", "16",
    ];
    fanorona(&[&search[..], &["--max-nodes", "100000", "--state", above]].concat());
    let saved: Vec<_> = std::fs::read_dir(above)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "dfpn"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let saved = saved[0].to_str().unwrap();
    let below_it = [
        &search[..],
        &[
            "--after",
            "b2-c3A",
            "--state",
            below,
            "--from-search",
            saved,
        ],
    ]
    .concat();
    let output = fanorona(&below_it);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!(
            "starting from the search saved in {saved} (100001 nodes)"
        )),
        "{stderr}"
    );
    assert!(stderr.contains("can White force a win? "), "{stderr}");
    let junk = dir.join("junk.dfpn");
    std::fs::write(&junk, b"no search").unwrap();
    let junk = junk.to_str().unwrap();
    for (extra, said) in [
        (
            &["--only", "black", "--from-search", saved][..],
            "whether white can force a win, not black",
        ),
        (
            &["--only", "white", "--from-search", junk][..],
            "junk.dfpn: not a saved search",
        ),
        (
            &["--only", "white", "--from-search", "/nowhere/x.dfpn"][..],
            "/nowhere/x.dfpn",
        ),
        (&["--from-search", saved][..], "--only"),
    ] {
        refused(
            &[&["solve", "--board", "5x5"][..], extra].concat(),
            2,
            &[said],
        );
    }
}

/// `--write-top` keeps the costliest slots of a saved search; a run whose state lost it starts
/// from there with `--from-top`, and says so.
#[test]
fn a_search_starts_from_its_top_where_its_state_is_lost() {
    let dir = scratch("solve-top");
    let (state, top, lost) = (dir.join("state"), dir.join("top"), dir.join("lost"));
    let (state, top, lost) = (
        state.to_str().unwrap(),
        top.to_str().unwrap(),
        lost.to_str().unwrap(),
    );
    let search = [
        "solve", "--board", "5x5", "--only", "white", "--memory", "16",
    ];
    fanorona(&[&search[..], &["--max-nodes", "100000", "--state", state]].concat());
    let written = json(
        &[
            &search[..],
            &["--state", state, "--write-top", top, "--top-slots", "500"],
            &["--json"],
        ]
        .concat(),
    );
    let written = &written[0];
    assert_eq!(written["nodes"], 100_001, "{written}");
    assert!(written["slots"].as_u64().unwrap() >= 480, "{written}");
    let output = fanorona(&[&search[..], &["--state", lost, "--from-top", top]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("starting from the top kept in"), "{stderr}");
    assert!(stderr.contains("can White force a win? no"), "{stderr}");
    refused(
        &["solve", "--board", "5x5", "--write-top", top],
        2,
        &["--state"],
    );
}
