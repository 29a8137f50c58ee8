//! The bookkeeping of `scripts/reproduce.sh open` and `open-split`
//! (`scripts/open-questions.sh`): several files of data/open searched as one positions file,
//! each certificate the run writes filed under its own file and line, and the split stores of
//! data/open/split-store unpacked and packed. A certificate filed under the wrong line would
//! name the wrong position, so the line arithmetic is tested here on small files, without
//! tables.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh directory under the target directory (removed first) holding `data/open/a.txt`
/// (positions at lines 3 and 5) and `data/open/b.txt` (positions at lines 2, 4 and 5).
fn questions(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.join("data/open")).unwrap();
    fs::write(
        dir.join("data/open/a.txt"),
        "# question a\n# line from standard: x\nA3 w\n\nA5 b\n",
    )
    .unwrap();
    fs::write(dir.join("data/open/b.txt"), "# b\nB2 w\n# c\nB4 w\nB5 b\n").unwrap();
    dir
}

/// `script` run by bash in `dir` after the helpers are sourced, with `set -euo pipefail` as
/// `reproduce.sh` has it.
fn helpers(dir: &Path, script: &str) -> Output {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/open-questions.sh");
    std::process::Command::new("bash")
        .current_dir(dir)
        .arg("-c")
        .arg(format!(
            "set -euo pipefail; source '{}'; {script}",
            source.display()
        ))
        .output()
        .expect("bash runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_files_go_together_line_for_line_with_only_the_lines_asked_for() {
    let dir = questions("open-together");
    fs::create_dir_all(dir.join("run")).unwrap();
    let output = helpers(
        &dir,
        "open_positions_together run a data/open/b.txt:2,5; \
         echo \"${open_names[*]} / ${open_offsets[*]} / ${open_counts[*]}\"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "a b / 0 5 / 5 5"
    );
    assert!(stderr(&output).contains("lines 6 to 10 of the run's positions are data/open/b.txt"));
    let together = fs::read_to_string(dir.join("run/positions.txt")).unwrap();
    let lines: Vec<&str> = together.lines().collect();
    assert_eq!(lines.len(), 10);
    // a whole; of b, line 4 (run line 9) is not asked for, so it is commented out.
    assert_eq!(lines[2], "A3 w");
    assert_eq!(lines[4], "A5 b");
    assert_eq!(lines[6], "B2 w");
    assert_eq!(lines[8], "# not asked for in this run: B4 w");
    assert_eq!(lines[9], "B5 b");
}

#[test]
fn each_certificate_is_filed_under_its_own_file_and_line() {
    let dir = questions("open-certificates");
    fs::create_dir_all(dir.join("run/tops")).unwrap();
    // Run lines 5 (a's line 5) and 9 (b's line 4) settled.
    fs::write(dir.join("run/line-5.proof"), "a5").unwrap();
    fs::write(dir.join("run/line-9.proof"), "b4").unwrap();
    let output = helpers(
        &dir,
        "open_positions_together run a b 2>/dev/null; file_certificates run proofs",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let filed = |path: &str| fs::read_to_string(dir.join(path)).ok();
    assert_eq!(filed("proofs/open-a/line-5.proof").as_deref(), Some("a5"));
    assert_eq!(filed("proofs/open-b/line-4.proof").as_deref(), Some("b4"));
    assert!(!dir.join("run").exists(), "the run's folder is removed");
    assert!(stderr(&output).contains("certificate of line 4 of b: proofs/open-b/line-4.proof"));
}

#[test]
fn a_file_or_line_that_is_not_there_is_refused() {
    let dir = questions("open-refused");
    fs::create_dir_all(dir.join("run")).unwrap();
    for (spec, says) in [
        ("nope", "no file 'nope' (data/open holds: a.txt b.txt)"),
        ("a:1", "data/open/a.txt has no position at line '1'"),
        ("a:4", "data/open/a.txt has no position at line '4'"),
        ("b:2,x", "data/open/b.txt has no position at line 'x'"),
        ("b:9", "data/open/b.txt has no position at line '9'"),
    ] {
        let output = helpers(&dir, &format!("open_positions_together run {spec}"));
        assert_eq!(output.status.code(), Some(2), "{spec}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(says),
            "{spec}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn searches_saved_per_question_before_move_into_the_shared_folder() {
    let dir = questions("open-shared-state");
    for (path, text) in [
        ("state/open-a/1111-black.dfpn", "a"),
        ("state/open-b/2222-black.dfpn", "b, older"),
        ("state/open/2222-black.dfpn", "b"),
    ] {
        fs::create_dir_all(dir.join(path).parent().unwrap()).unwrap();
        fs::write(dir.join(path), text).unwrap();
    }
    let output = helpers(&dir, "open_shared_state state/open state a b");
    assert!(output.status.success(), "{}", stderr(&output));
    let read = |path: &str| fs::read_to_string(dir.join(path)).ok();
    assert_eq!(read("state/open/1111-black.dfpn").as_deref(), Some("a"));
    assert!(!dir.join("state/open-a").exists(), "emptied, removed");
    // A search of the same position already there is not overwritten: both are kept.
    assert_eq!(read("state/open/2222-black.dfpn").as_deref(), Some("b"));
    assert_eq!(
        read("state/open-b/2222-black.dfpn").as_deref(),
        Some("b, older")
    );
    assert!(stderr(&output).contains("left where it is"));
}

/// `data/open/split-store/s.txt` (its position at line 3) in a fresh directory.
fn split_store(name: &str) -> PathBuf {
    let dir = questions(name);
    fs::create_dir_all(dir.join("data/open/split-store")).unwrap();
    fs::write(
        dir.join("data/open/split-store/s.txt"),
        "# a split question\n\nS3 w\n# after it\n",
    )
    .unwrap();
    dir
}

#[test]
fn a_split_store_names_its_one_position_and_refuses_none_or_two() {
    let dir = split_store("split-store-position");
    let output = helpers(&dir, "split_store_position s");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(String::from_utf8_lossy(&output.stdout), "S3 w\n");
    fs::write(dir.join("data/open/split-store/two.txt"), "A w\nB w\n").unwrap();
    fs::write(dir.join("data/open/split-store/none.txt"), "# only\n\n").unwrap();
    for (name, says) in [
        ("nope", "no file 'data/open/split-store/nope.txt'"),
        (
            "two",
            "data/open/split-store/two.txt must hold one position",
        ),
        (
            "none",
            "data/open/split-store/none.txt must hold one position",
        ),
    ] {
        let output = helpers(&dir, &format!("split_store_position {name}"));
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        assert!(
            stderr(&output).contains(says),
            "{name}: {}",
            stderr(&output)
        );
    }
}

#[test]
fn a_split_store_packs_to_the_same_bytes_and_unpacks_to_the_same_files() {
    let dir = split_store("split-store-round-trip");
    // A store as `solve --split` keeps it: answers and certificates in one folder.
    for (file, text) in [("a-b-black.answer", "yes"), ("c-black.fnpack", "proof")] {
        fs::create_dir_all(dir.join("state/s")).unwrap();
        fs::write(dir.join("state/s").join(file), text).unwrap();
    }
    let pack = |store: &str| {
        let output = helpers(&dir, &format!("split_store_pack s {store}"));
        assert!(output.status.success(), "{}", stderr(&output));
        fs::read(dir.join("data/open/split-store/s.tar.gz")).unwrap()
    };
    let packed = pack("state/s");
    // Unpacked elsewhere: the same files, which pack to the same bytes (no dates or owners).
    let output = helpers(&dir, "split_store_unpack s elsewhere/s");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(
        fs::read_to_string(dir.join("elsewhere/s/c-black.fnpack")).unwrap(),
        "proof"
    );
    assert!(!dir.join("elsewhere/s.unpacking").exists());
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(pack("elsewhere/s"), packed);
    // A store already there holds what was settled since: it is not unpacked over.
    fs::write(dir.join("elsewhere/s/a-b-black.answer"), "newer").unwrap();
    let output = helpers(&dir, "split_store_unpack s elsewhere/s");
    assert!(stderr(&output).contains("going on with the store in elsewhere/s"));
    assert_eq!(
        fs::read_to_string(dir.join("elsewhere/s/a-b-black.answer")).unwrap(),
        "newer"
    );
    // No archive yet: an empty store.
    fs::remove_file(dir.join("data/open/split-store/s.tar.gz")).unwrap();
    let output = helpers(&dir, "split_store_unpack s fresh/s");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(fs::read_dir(dir.join("fresh/s")).unwrap().next().is_none());
}

#[test]
fn only_whole_nine_stone_systems_are_derived() {
    let dir = split_store("split-store-derive");
    fs::create_dir_all(dir.join("tables")).unwrap();
    for material in ["2v7", "7v2", "4v5", "3v6"] {
        fs::write(dir.join(format!("tables/5x9-loss-{material}.fnval")), "").unwrap();
    }
    let output = helpers(&dir, "split_store_derive tables");
    assert!(output.status.success(), "{}", stderr(&output));
    // 4v5 without 5v4, 3v6 without 6v3: not whole, so not derived.
    assert_eq!(String::from_utf8_lossy(&output.stdout), "2v7\n");
    fs::write(dir.join("tables/5x9-loss-5v4.fnval"), "").unwrap();
    fs::write(dir.join("tables/5x9-loss-6v3.fnval"), "").unwrap();
    let output = helpers(&dir, "split_store_derive tables");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "2v7,6v3,4v5\n");
    // A system with either half left out (SPLIT_LEAVE_OUT) is not derived.
    let output = helpers(&dir, "split_store_derive tables 3v6,5v4");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "2v7\n");
    let output = helpers(&dir, "split_store_derive tables 6v3");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "2v7,4v5\n");
}
