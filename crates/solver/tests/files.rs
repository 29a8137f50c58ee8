//! Table files: written and read back, damage detected and named, builds resumed.

use fanorona_engine::{Board, Color, Position, Rules, Value};
use fanorona_solver::block_sums::companion_path;
use fanorona_solver::file::{write_table, write_values, Packing, TableFile};
use fanorona_solver::run_lock::lock_beside;
use fanorona_solver::{
    checkpoint_name, materials, state_path, system_of, verify, verify_materials, BuildControl,
    Content, Entry, LockError, Material, MaterialIndex, NoProgress, ProbeError, RunLock, Stored,
    TableError, TableId, Tables, VerifyControl,
};
use std::fs;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const STONES: usize = 5;

fn board() -> Board {
    Board::new(3, 5).unwrap()
}

fn build(directory: &Path) -> Tables {
    build_with(directory, STONES, &BuildControl::default()).unwrap()
}

fn build_with(
    directory: &Path,
    stones: usize,
    control: &BuildControl,
) -> Result<Tables, TableError> {
    Tables::build_files(
        &board(),
        Rules::default(),
        stones,
        None,
        directory,
        control,
        &NoProgress,
    )
}

/// Memory enough to solve every system of a stone count side by side.
const PLENTY_OF_MEMORY: Option<u64> = Some(1 << 40);

fn file_of(directory: &Path, material: Material) -> std::path::PathBuf {
    directory.join(TableId::new(&board(), &Rules::default(), material).file_name())
}

#[test]
fn files_hold_what_memory_holds_and_verify_clean() {
    let directory = tempfile::tempdir().unwrap();
    let from_files = build(directory.path());
    let in_memory = Tables::build(&board(), Rules::default(), STONES);
    for material in materials(STONES) {
        let a: Vec<Entry> = from_files.entries(material).unwrap().collect();
        let b: Vec<Entry> = in_memory.entries(material).unwrap().collect();
        assert_eq!(a, b, "{material:?}");
    }
    let reopened =
        Tables::open(&board(), Rules::default(), STONES, None, directory.path()).unwrap();
    assert!(verify(&reopened, &NoProgress, 10).is_empty());
}

/// Open after damaging one file with `damage`; the error must name that file.
fn open_after(damage: impl FnOnce(&mut Vec<u8>)) -> TableError {
    let directory = tempfile::tempdir().unwrap();
    build(directory.path());
    let path = file_of(directory.path(), Material::new(2, 3));
    let mut bytes = fs::read(&path).unwrap();
    damage(&mut bytes);
    fs::write(&path, bytes).unwrap();
    let error = Tables::open(&board(), Rules::default(), STONES, None, directory.path())
        .err()
        .expect("damage is detected");
    assert!(error.to_string().contains("3x5-loss-2v3.fntb"), "{error}");
    error
}

#[test]
fn a_flipped_byte_is_detected() {
    let error = open_after(|bytes| bytes[4096 + 1234] ^= 0x10);
    assert!(matches!(error, TableError::BadChecksum { .. }), "{error}");
}

/// A table file of `entries` made-up entries (as material 2v2 of the test board), opened
/// whole once so that its block checksums are written beside it.
fn made_up_table(directory: &Path, entries: u64, seed: u16) -> (TableId, std::path::PathBuf) {
    let id = TableId::new(&board(), &Rules::default(), Material::new(2, 2));
    let made_up = (0..entries as usize).map(|i| Entry::win((i as u16 ^ seed) % 300));
    write_table(directory, &id, made_up).unwrap();
    TableFile::open(directory, &id, entries).unwrap();
    (id, directory.join(id.file_name()))
}

/// A value file's copy in memory holds five values a byte, a fifth less than the file's four,
/// and answers every slot as the file does; its checksum is the file's, and a copy of the
/// copy is the same. An entry file's copy is the file's bytes.
#[test]
fn a_value_file_copied_into_memory_answers_as_the_file_in_a_fifth_less_memory() {
    let directory = tempfile::tempdir().unwrap();
    let id = TableId::new(&board(), &Rules::default(), Material::new(2, 2)).values();
    let values = [Value::Win, Value::Draw, Value::Loss];
    for entries in [1u64, 4, 5, 7, 123_457] {
        let value_of = |i: u64| values[((i * i + 3 * i) / 7 % 3) as usize];
        let all: Vec<Value> = (0..entries).map(value_of).collect();
        write_values(directory.path(), &id, all.into_iter()).unwrap();
        let file = TableFile::open(directory.path(), &id, entries).unwrap();
        let copy = file.resident_copy(Packing::Fastest).unwrap();
        assert_eq!(copy.copy_bytes(Packing::Fastest), entries.div_ceil(5));
        assert_eq!(copy.mapped_bytes(), entries.div_ceil(5));
        assert_eq!(file.copy_bytes(Packing::Fastest), entries.div_ceil(5));
        // Values spread evenly: the smallest packing is five a byte too.
        assert_eq!(file.copy_bytes(Packing::Smallest), entries.div_ceil(5));
        assert_eq!(file.mapped_bytes(), 4096 + 16 + entries.div_ceil(4));
        assert_eq!(copy.checksum(), file.checksum());
        let again = copy.resident_copy(Packing::Fastest).unwrap();
        for index in 0..entries {
            assert_eq!(file.value(index), value_of(index), "{entries}: {index}");
            assert_eq!(copy.value(index), value_of(index), "{entries}: {index}");
            assert_eq!(again.value(index), value_of(index), "{entries}: {index}");
        }
    }
    let (id, _) = made_up_table(directory.path(), 1000, 5);
    let file = TableFile::open(directory.path(), &id, 1000).unwrap();
    let copy = file.resident_copy(Packing::Fastest).unwrap();
    assert_eq!(copy.mapped_bytes(), file.mapped_bytes());
    assert_eq!(copy.checksum(), file.checksum());
    for index in 0..1000 {
        assert_eq!(copy.get(index), file.get(index));
    }
}

/// A lopsided value file's copy packed the smallest holds its most common value and where the others are, in
/// less than five values a byte, and answers every slot as the file does; its checksum is the
/// file's, and a copy of the copy is the same.
#[test]
fn a_lopsided_value_file_copied_into_memory_answers_as_the_file_in_less_memory() {
    let directory = tempfile::tempdir().unwrap();
    let id = TableId::new(&board(), &Rules::default(), Material::new(3, 1)).values();
    for (entries, common) in [
        (300_001u64, Value::Win),
        (70_000, Value::Loss),
        (513, Value::Draw),
    ] {
        // One in 29 slots another value, in bursts; whole superblocks of the common one.
        let value_of = |i: u64| match (i * 7919 % 29, i / 4096 % 3) {
            (0, 0) => Value::Win,
            (1, 0) => Value::Loss,
            (2, 0) => Value::Draw,
            _ => common,
        };
        let all: Vec<Value> = (0..entries).map(value_of).collect();
        write_values(directory.path(), &id, all.into_iter()).unwrap();
        let file = TableFile::open(directory.path(), &id, entries).unwrap();
        let copy = file.resident_copy(Packing::Smallest).unwrap();
        let five_a_byte = entries.div_ceil(5);
        assert!(
            copy.mapped_bytes() * 10 < five_a_byte * 9,
            "{entries}: {}",
            copy.mapped_bytes()
        );
        assert_eq!(copy.copy_bytes(Packing::Smallest), copy.mapped_bytes());
        assert_eq!(file.copy_bytes(Packing::Smallest), copy.mapped_bytes());
        assert_eq!(file.copy_bytes(Packing::Fastest), five_a_byte);
        assert_eq!(copy.checksum(), file.checksum());
        let again = copy.resident_copy(Packing::Smallest).unwrap();
        assert_eq!(again.mapped_bytes(), copy.mapped_bytes());
        for index in 0..entries {
            assert_eq!(file.value(index), value_of(index), "{entries}: {index}");
            assert_eq!(copy.value(index), value_of(index), "{entries}: {index}");
            assert_eq!(again.value(index), value_of(index), "{entries}: {index}");
        }
    }
}

#[test]
fn a_file_opened_by_blocks_checks_the_blocks_it_reads() {
    const ENTRIES: u64 = 150_000; // 2-byte entries: five blocks of 64 KiB
    let directory = tempfile::tempdir().unwrap();
    let (id, path) = made_up_table(directory.path(), ENTRIES, 0);
    assert!(companion_path(&path).exists());
    let far = 140_000; // in the fifth block
    let mut bytes = fs::read(&path).unwrap();
    bytes[4096 + 2 * far + 1] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    let file = TableFile::open_by_blocks(directory.path(), &id, ENTRIES).unwrap();
    file.check_slot(0).unwrap();
    file.check_slot(30_000).unwrap();
    let error = file.check_slot(far as u64).unwrap_err();
    assert!(
        matches!(error, TableError::BadChecksum { .. })
            && error.to_string().contains("3x5-loss-2v2.fntb"),
        "{error}"
    );
    // A whole check finds the damage too.
    assert!(matches!(
        TableFile::open(directory.path(), &id, ENTRIES),
        Err(TableError::BadChecksum { .. })
    ));
}

#[test]
fn stale_or_damaged_block_checksums_are_not_used() {
    const ENTRIES: u64 = 150_000;
    let directory = tempfile::tempdir().unwrap();
    let (id, path) = made_up_table(directory.path(), ENTRIES, 0);
    let old_sums = fs::read(companion_path(&path)).unwrap();
    // Another file of the same name and size: the old checksums are another file's.
    let (_, _) = made_up_table(directory.path(), ENTRIES, 7);
    fs::write(companion_path(&path), &old_sums).unwrap();
    let file = TableFile::open_by_blocks(directory.path(), &id, ENTRIES).unwrap();
    file.check_slot(140_000).unwrap();
    assert_ne!(
        fs::read(companion_path(&path)).unwrap(),
        old_sums,
        "written again"
    );
    // Damaged checksums: the whole file is checked, and found damaged where it is.
    let mut sums = fs::read(companion_path(&path)).unwrap();
    sums[50] ^= 0x80;
    fs::write(companion_path(&path), &sums).unwrap();
    let mut bytes = fs::read(&path).unwrap();
    bytes[4096 + 9] ^= 0x01;
    fs::write(&path, &bytes).unwrap();
    assert!(matches!(
        TableFile::open_by_blocks(directory.path(), &id, ENTRIES),
        Err(TableError::BadChecksum { .. })
    ));
}

#[test]
fn tables_opened_for_a_position_and_batched_probes_answer_as_single_ones() {
    let directory = tempfile::tempdir().unwrap();
    let whole = build(directory.path());
    for material in [
        Material::new(2, 3),
        Material::new(3, 2),
        Material::new(1, 4),
    ] {
        let index = MaterialIndex::new(&board(), material);
        for slot in (0..index.size()).step_by(97) {
            let (mover, waiting) = index.position(slot);
            let position = Position {
                mover,
                waiting,
                side: Color::White,
            };
            let some =
                Tables::open_for_position(&board(), Rules::default(), &position, directory.path())
                    .unwrap();
            let mut read = vec![position];
            fanorona_engine::movegen::children(&board(), &position, &mut read);
            some.check_probes(&read).unwrap();
            for p in &read {
                assert_eq!(some.probe(p).unwrap(), whole.probe(p).unwrap(), "{p:?}");
            }
            // Probed all at once, the same entries.
            let mut batch = Vec::new();
            whole.probe_entries(&read, &mut batch).unwrap();
            let one_by_one: Vec<Entry> = read.iter().map(|p| whole.probe(p).unwrap()).collect();
            assert_eq!(batch, one_by_one);
        }
    }
}

#[test]
fn a_truncated_file_is_detected() {
    let error = open_after(|bytes| bytes.truncate(bytes.len() - 100));
    assert!(matches!(error, TableError::Truncated { .. }), "{error}");
}

#[test]
fn a_wrong_header_is_detected() {
    let error = open_after(|bytes| bytes[13] = 7); // columns
    assert!(
        matches!(
            error,
            TableError::BadHeader {
                field: "board size",
                ..
            }
        ),
        "{error}"
    );
}

#[test]
fn a_missing_file_is_named() {
    let directory = tempfile::tempdir().unwrap();
    build(directory.path());
    fs::remove_file(file_of(directory.path(), Material::new(1, 1))).unwrap();
    let error = Tables::open(&board(), Rules::default(), STONES, None, directory.path())
        .err()
        .unwrap();
    assert!(
        matches!(error, TableError::Missing { .. })
            && error.to_string().contains("3x5-loss-1v1.fntb"),
        "{error}"
    );
}

/// Sets `stop` when the `at`-th material's verification begins.
struct StopAtPhase<'a> {
    at: usize,
    phases: std::sync::atomic::AtomicUsize,
    stop: &'a std::sync::atomic::AtomicBool,
}

impl fanorona_solver::Progress for StopAtPhase<'_> {
    fn phase(&self, _: &str, _: u64) {
        use std::sync::atomic::Ordering;
        if self.phases.fetch_add(1, Ordering::Relaxed) + 1 == self.at {
            self.stop.store(true, Ordering::Relaxed);
        }
    }
    fn advance(&self, _: u64) {}
    fn note(&self, _: &str) {}
}

#[test]
fn an_interrupted_verification_goes_on_and_finds_what_a_whole_one_finds() {
    let directory = tempfile::tempdir().unwrap();
    let tables = build(directory.path());
    // A wrong entry (with a valid checksum) in the second material verified.
    let order = tables.held_materials();
    let wrong = order[1];
    let mut entries: Vec<Entry> = tables.entries(wrong).unwrap().collect();
    let i = entries.iter().position(|e| e.distance().is_some()).unwrap();
    entries[i] = Entry::DRAW;
    drop(tables);
    let id = TableId::new(&board(), &Rules::default(), wrong);
    write_table(directory.path(), &id, entries.into_iter()).unwrap();
    let tables = Tables::open(&board(), Rules::default(), STONES, None, directory.path()).unwrap();
    let whole = verify(&tables, &NoProgress, 100);
    // It, and the positions whose values lean on it.
    assert!(
        whole[0].material == wrong && whole[0].index == i as u64,
        "{whole:?}"
    );

    let state = state_path(directory.path(), &board(), &Rules::default(), "5");
    let stop = std::sync::atomic::AtomicBool::new(false);
    let control = VerifyControl {
        state: Some(state.clone()),
        stop: Some(&stop),
    };
    let stopper = StopAtPhase {
        at: 4,
        phases: Default::default(),
        stop: &stop,
    };
    let stopped = verify_materials(&tables, &order, &stopper, 100, &control);
    assert!(
        matches!(stopped, Err(TableError::Stopped { ref path }) if *path == state),
        "{:?}",
        stopped.map(|m| m.len())
    );
    assert!(state.exists());
    // Going on checks the rest only, and finds the wrong entry checked before the stop.
    let going_on = VerifyControl {
        state: Some(state.clone()),
        stop: None,
    };
    let resumed = verify_materials(&tables, &order, &NoProgress, 100, &going_on).unwrap();
    assert_eq!(resumed, whole);
    assert!(!state.exists(), "the state is removed at the end");
    // A damaged state is not used: the verification starts again and finds the same.
    std::fs::write(&state, b"FANOVRFY and nothing else").unwrap();
    let again = verify_materials(&tables, &order, &NoProgress, 100, &going_on).unwrap();
    assert_eq!(again, whole);
}

#[test]
fn verify_finds_a_wrong_entry_with_a_valid_checksum() {
    let directory = tempfile::tempdir().unwrap();
    let tables = build(directory.path());
    let material = Material::new(2, 2);
    let mut entries: Vec<Entry> = tables.entries(material).unwrap().collect();
    let index = MaterialIndex::new(&board(), material);
    // Turn the first won position into a draw, and write the file whole again.
    let i = entries
        .iter()
        .position(|e| e.distance().is_some_and(|d| d > 0))
        .unwrap();
    let original = entries[i];
    entries[i] = Entry::DRAW;
    drop(tables);
    write_table(
        directory.path(),
        &TableId::new(&board(), &Rules::default(), material),
        entries.into_iter(),
    )
    .unwrap();
    let reopened =
        Tables::open(&board(), Rules::default(), STONES, None, directory.path()).unwrap();
    let mismatches = verify(&reopened, &NoProgress, 100);
    let (mover, waiting) = index.position(i as u64);
    let tampered = Position {
        mover,
        waiting,
        side: Color::White,
    };
    let found = mismatches
        .iter()
        .find(|m| m.material == material && m.index == i as u64)
        .expect("the tampered entry is reported");
    assert_eq!(
        (found.position, found.stored, found.derived),
        (
            tampered,
            Stored::Entry(Entry::DRAW),
            Stored::Entry(original)
        )
    );
}

#[test]
fn systems_solved_side_by_side_stop_resume_and_give_the_files_built_one_at_a_time() {
    let one_at_a_time = tempfile::tempdir().unwrap();
    build(one_at_a_time.path());
    let side_by_side = tempfile::tempdir().unwrap();
    build_with(side_by_side.path(), 3, &BuildControl::default()).unwrap();
    // Stopped from the start: both 4-stone systems (1v3 and 2v2), solved at once, save their
    // state and stop.
    let stop = AtomicBool::new(true);
    let stopping = BuildControl {
        stop: Some(&stop),
        checkpoint_every: Duration::ZERO,
        available_memory: PLENTY_OF_MEMORY,
        ..BuildControl::default()
    };
    let stopped = build_with(side_by_side.path(), STONES, &stopping);
    assert!(matches!(stopped, Err(TableError::Stopped { .. })));
    for system in [Material::new(1, 3), Material::new(2, 2)] {
        let state = checkpoint_name(&board(), &Rules::default(), system);
        assert!(side_by_side.path().join(state).exists(), "{system:?}");
    }
    let going_on = BuildControl {
        available_memory: PLENTY_OF_MEMORY,
        ..BuildControl::default()
    };
    build_with(side_by_side.path(), STONES, &going_on).unwrap();
    for material in materials(STONES) {
        let a = fs::read(file_of(one_at_a_time.path(), material)).unwrap();
        let b = fs::read(file_of(side_by_side.path(), material)).unwrap();
        assert!(a == b, "{material:?} differs when solved side by side");
    }
}

/// Whether `result` is the refusal of a run because another holds the lock `lock`, and says so.
fn refused_for<T>(result: Result<T, TableError>, lock: &Path) -> bool {
    match result {
        Err(error @ TableError::Busy(LockError::Held { .. })) => {
            error.to_string().contains(&lock.display().to_string())
        }
        _ => false,
    }
}

#[test]
fn a_build_or_verification_is_refused_while_another_run_holds_its_lock_and_goes_on_after() {
    let directory = tempfile::tempdir().unwrap();
    build_with(directory.path(), 3, &BuildControl::default()).unwrap();
    // Another run building the system 1v3 + 3v1 holds its lock.
    let system = system_of(Material::new(1, 3));
    let state = checkpoint_name(&board(), &Rules::default(), system);
    let lock_path = lock_beside(&directory.path().join(state));
    let other_run = RunLock::take(&lock_path).unwrap();
    let full = BuildControl::default();
    let values_only = BuildControl {
        values_only: true,
        ..BuildControl::default()
    };
    for control in [&full, &values_only] {
        let refused = build_with(directory.path(), 4, control);
        assert!(refused_for(refused, &lock_path));
        for material in [system, system.swapped()] {
            let id = TableId::new(&board(), &Rules::default(), material);
            assert!(!directory.path().join(id.file_name()).exists());
            assert!(!directory.path().join(id.values().file_name()).exists());
        }
    }
    drop(other_run);
    assert!(!lock_path.exists());
    let tables = build_with(directory.path(), 4, &full).unwrap();
    assert!(!lock_path.exists(), "a build leaves no lock file behind");
    // A build that finds the system whole takes no lock: another run may hold it meanwhile.
    let held_meanwhile = RunLock::take(&lock_path).unwrap();
    build_with(directory.path(), 4, &full).unwrap();
    drop(held_meanwhile);

    // A verification with a state file likewise; one without saves nothing and takes none.
    let state = state_path(directory.path(), &board(), &Rules::default(), "4");
    let control = VerifyControl {
        state: Some(state.clone()),
        stop: None,
    };
    let held = tables.held_materials();
    let verify_lock = lock_beside(&state);
    let other_run = RunLock::take(&verify_lock).unwrap();
    let refused = verify_materials(&tables, &held, &NoProgress, 10, &control);
    assert!(refused_for(refused, &verify_lock));
    assert!(verify(&tables, &NoProgress, 10).is_empty());
    drop(other_run);
    let clean = verify_materials(&tables, &held, &NoProgress, 10, &control).unwrap();
    assert!(clean.is_empty());
    assert!(!verify_lock.exists() && !state.exists());
}

#[test]
fn an_interrupted_build_resumes_and_gives_identical_files() {
    let fresh = tempfile::tempdir().unwrap();
    build(fresh.path());
    let resumed = tempfile::tempdir().unwrap();
    build(resumed.path());
    // As if interrupted: the largest system missing, one of its files half written under its
    // temporary name, its saved state damaged and a save of it cut short, and a smaller file
    // damaged.
    let state = resumed.path().join(checkpoint_name(
        &board(),
        &Rules::default(),
        system_of(Material::new(2, 3)),
    ));
    fs::write(&state, b"FANOPART and then nothing that fits").unwrap();
    fs::write(state.with_extension("fnpart.tmp"), b"FANOPA").unwrap();
    fs::remove_file(file_of(resumed.path(), Material::new(2, 3))).unwrap();
    fs::remove_file(file_of(resumed.path(), Material::new(3, 2))).unwrap();
    fs::write(
        file_of(resumed.path(), Material::new(2, 3)).with_extension("fntb.tmp"),
        b"partial",
    )
    .unwrap();
    let damaged = file_of(resumed.path(), Material::new(1, 2));
    let mut bytes = fs::read(&damaged).unwrap();
    bytes[5000] ^= 1;
    fs::write(&damaged, bytes).unwrap();
    build(resumed.path());
    let left: Vec<_> = fs::read_dir(resumed.path())
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .filter(|name| {
            let name = name.to_string_lossy();
            ![".fntb", ".fnval", ".fntb.blocks", ".fnval.blocks"]
                .iter()
                .any(|end| name.ends_with(end))
        })
        .collect();
    assert!(
        left.is_empty(),
        "a build leaves only tables and their block checksums: {left:?}"
    );
    for material in materials(STONES) {
        let a = fs::read(file_of(fresh.path(), material)).unwrap();
        let b = fs::read(file_of(resumed.path(), material)).unwrap();
        assert!(a == b, "{material:?} differs after resuming");
    }
}

#[test]
fn a_partial_layer_is_built_opened_and_probed_like_the_complete_one() {
    let directory = tempfile::tempdir().unwrap();
    let (two_three, three_two) = (Material::new(2, 3), Material::new(3, 2));
    let rules = Rules::default();
    let built = Tables::build_files(
        &board(),
        rules,
        STONES,
        Some(three_two),
        directory.path(),
        &BuildControl::default(),
        &NoProgress,
    )
    .unwrap();
    assert_eq!(
        (built.max_stones(), built.top_stones()),
        (STONES - 1, STONES)
    );
    assert_eq!(built.partial_layer(), vec![two_three, three_two]);
    assert!(built.covers(two_three) && !built.covers(Material::new(1, 4)));
    assert!(!file_of(directory.path(), Material::new(1, 4)).exists());

    let complete = Tables::build(&board(), rules, STONES);
    for material in [two_three, three_two] {
        let a: Vec<Entry> = built.entries(material).unwrap().collect();
        let b: Vec<Entry> = complete.entries(material).unwrap().collect();
        assert_eq!(a, b, "{material:?}");
    }

    // Searches open whatever the directory holds; `--only` opens the one system.
    let available =
        Tables::open_available(&board(), rules, 64, Content::Values, directory.path()).unwrap();
    assert_eq!(available.max_stones(), STONES - 1);
    assert_eq!(available.partial_layer(), vec![two_three, three_two]);
    let only = Tables::open(&board(), rules, STONES, Some(two_three), directory.path()).unwrap();
    assert_eq!(only.partial_layer(), vec![two_three, three_two]);
    assert!(verify(&only, &NoProgress, 10).is_empty());
    // Another system of that stone count is not there, and opening it says which file.
    match Tables::open(
        &board(),
        rules,
        STONES,
        Some(Material::new(1, 4)),
        directory.path(),
    ) {
        Err(TableError::Missing { path }) => assert!(path.ends_with("3x5-loss-1v4.fntb")),
        other => panic!("expected a missing file, got {:?}", other.map(|_| ())),
    }
}

/// A lopsided system above a partial layer (1v5 + 5v1 on 3x5, over 1v4 + 4v1 of the 5-stone
/// level): `--only` builds it over the smaller systems its captures reach and no others, the
/// levels of which it reaches only some for values alone, each value file the same as the
/// full build's; searches open it above the partial layers, and a check of it opens and
/// verifies what it reaches.
#[test]
fn a_lopsided_system_is_built_over_the_smaller_systems_its_captures_reach_alone() {
    let rules = Rules::default();
    let (one_five, top) = (Material::new(1, 5), 6);
    let full = tempfile::tempdir().unwrap();
    build_with(full.path(), top, &BuildControl::default()).unwrap();
    let lopsided = tempfile::tempdir().unwrap();
    let control = BuildControl {
        values_only: true,
        ..BuildControl::default()
    };
    let built = Tables::build_files(
        &board(),
        rules,
        top,
        Some(one_five.swapped()),
        lopsided.path(),
        &control,
        &NoProgress,
    )
    .unwrap();
    // 2v2 is the first material 1v5 + 5v1 cannot come to: one side would need two stones.
    let reached = |m: &Material| m.mover == 1 || m.waiting == 1;
    assert_eq!((built.max_stones(), built.top_stones()), (3, top));
    let partial: Vec<Material> = materials(top)
        .filter(|m| m.stones() > 3 && reached(m))
        .collect();
    let mut expected = partial.clone();
    expected.sort();
    assert_eq!(built.partial_layer(), expected);

    for material in materials(top) {
        let values = TableId::new(&board(), &rules, material).values();
        let value_file = lopsided.path().join(values.file_name());
        let entry_file = file_of(lopsided.path(), material);
        if !reached(&material) {
            assert!(!value_file.exists() && !entry_file.exists(), "{material}");
            continue;
        }
        let derived = fs::read(full.path().join(values.file_name())).unwrap();
        assert!(fs::read(&value_file).unwrap() == derived, "{material}");
        assert_eq!(entry_file.exists(), material.stones() <= 3, "{material}");
    }

    let available =
        Tables::open_available(&board(), rules, 64, Content::Values, lopsided.path()).unwrap();
    assert_eq!(available.partial_layer(), expected);
    assert!(available.covers(one_five) && available.covers(Material::new(4, 1)));
    assert!(!available.covers(Material::new(2, 2)) && !available.covers(Material::new(2, 4)));
    let complete = Tables::build(&board(), rules, top);
    for material in partial {
        let size = MaterialIndex::new(&board(), material).size();
        for slot in 0..size {
            let value = available.stored_value(material, slot);
            assert_eq!(
                value,
                complete.stored_value(material, slot),
                "{material} {slot}"
            );
        }
    }
    let only = Tables::open(&board(), rules, top, Some(one_five), lopsided.path()).unwrap();
    assert_eq!(only.partial_layer(), expected);
    assert!(verify(&only, &NoProgress, 10).is_empty());
}

#[test]
fn value_files_answer_as_the_entries_do_and_are_checked() {
    let directory = tempfile::tempdir().unwrap();
    let rules = Rules::default();
    let entries = build(directory.path());
    let values =
        Tables::open_available(&board(), rules, 64, Content::Values, directory.path()).unwrap();
    assert_eq!(values.max_stones(), STONES);
    assert!(entries.has_distances() && !values.has_distances());
    let mut seed = 11;
    let positions: Vec<Position> = (0..500)
        .map(|_| Position::random_placement(&board(), 2, 3, &mut seed))
        .collect();
    let mut many = Vec::new();
    values.probe_values(&positions, &mut many).unwrap();
    for (position, value) in positions.iter().zip(many) {
        assert_eq!(value, entries.probe(position).unwrap().value());
        assert_eq!(values.probe_value(position).unwrap(), value);
        assert!(matches!(
            values.probe(position),
            Err(ProbeError::NoDistances { .. })
        ));
    }
    for material in materials(STONES) {
        assert_eq!(
            entries
                .check_value_file(material, directory.path())
                .unwrap(),
            0
        );
    }

    // A damaged value file is named; a rebuild writes it again from the entry file.
    let material = Material::new(2, 3);
    let id = TableId::new(&board(), &rules, material).values();
    let path = directory.path().join(id.file_name());
    let mut bytes = fs::read(&path).unwrap();
    let middle = 4096 + (bytes.len() - 4096 - 16) / 2;
    bytes[middle] ^= 0b01;
    fs::write(&path, &bytes).unwrap();
    match Tables::open_available(&board(), rules, 64, Content::Values, directory.path()) {
        Err(TableError::BadChecksum { path: named }) => assert_eq!(named, path),
        other => panic!("expected a bad checksum, got {:?}", other.map(|_| ())),
    }
    build(directory.path());
    assert_eq!(
        entries
            .check_value_file(material, directory.path())
            .unwrap(),
        0
    );
    // Without value files a search opens the entry files.
    fs::remove_file(&path).unwrap();
    let fallback =
        Tables::open_available(&board(), rules, 64, Content::Values, directory.path()).unwrap();
    assert_eq!(fallback.max_stones(), STONES);
    assert!(!fallback.has_distances());
    assert!(fallback.entries(material).is_some());
}

/// A top layer built for values alone: value files the same, byte for byte, as those the
/// byte builder derives from its entry files, no entry files, and a search's tables open them
/// as a layer; built again, they are found whole and kept.
#[test]
fn a_top_layer_built_for_values_alone_matches_the_full_build() {
    let full = tempfile::tempdir().unwrap();
    build(full.path());
    let values_only = tempfile::tempdir().unwrap();
    let control = BuildControl {
        values_only: true,
        ..BuildControl::default()
    };
    let build_values_only = || {
        Tables::build_files(
            &board(),
            Rules::default(),
            STONES,
            None,
            values_only.path(),
            &control,
            &NoProgress,
        )
        .unwrap()
    };
    build_values_only();
    for material in materials(STONES) {
        let entries = file_of(values_only.path(), material);
        let values = TableId::new(&board(), &Rules::default(), material).values();
        let built = fs::read(values_only.path().join(values.file_name())).unwrap();
        let derived = fs::read(full.path().join(values.file_name())).unwrap();
        assert!(built == derived, "{material:?}: the value files differ");
        assert_eq!(
            entries.exists(),
            material.stones() < STONES,
            "{}",
            entries.display()
        );
    }
    let opened = Tables::open_available(
        &board(),
        Rules::default(),
        STONES,
        Content::Values,
        values_only.path(),
    )
    .unwrap();
    assert_eq!(opened.max_stones(), STONES);
    let top = TableId::new(&board(), &Rules::default(), Material::new(2, 3)).values();
    let written = fs::metadata(values_only.path().join(top.file_name()))
        .unwrap()
        .modified()
        .unwrap();
    build_values_only();
    let kept = fs::metadata(values_only.path().join(top.file_name()))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(written, kept, "a whole value file is kept, not built again");

    // Below the top, a values-only build needs the value files alone: with the entry files
    // of a layer below deleted (to make room), nothing is built again. (The verification
    // below then checks the layer above those by values too: its distances cannot be derived.)
    let below = || materials(STONES).filter(|m| m.stones() == STONES - 2);
    for material in below() {
        fs::remove_file(file_of(values_only.path(), material)).unwrap();
    }
    build_values_only();
    for material in below() {
        let entries = file_of(values_only.path(), material);
        assert!(!entries.exists(), "built again: {}", entries.display());
    }

    // `tables verify` opens the value files where there are no entry files, and checks each
    // value one ply deep: clean as built; each value turned into another (the file rewritten
    // whole, its checksum valid) is found, with the value its children give.
    let open = || Tables::open(&board(), Rules::default(), STONES, None, values_only.path());
    assert!(verify(&open().unwrap(), &NoProgress, 10).is_empty());
    let material = Material::new(2, 3);
    let mut values: Vec<Value> = {
        let tables = open().unwrap();
        let size = MaterialIndex::new(&board(), material).size();
        (0..size)
            .map(|i| tables.stored_value(material, i).unwrap())
            .collect()
    };
    let (win, draw, loss) = (Value::Win, Value::Draw, Value::Loss);
    let changes = [(win, draw), (loss, win), (draw, win), (win, loss)];
    let built = values.clone();
    let mut changed = Vec::new();
    for (k, &(from, to)) in changes.iter().enumerate() {
        // The k-th slot of that value as built, so that no two changes fall on one slot.
        let i = (0..built.len())
            .filter(|&i| built[i] == from)
            .nth(k)
            .unwrap();
        values[i] = to;
        changed.push((i as u64, from, to));
    }
    write_values(values_only.path(), &top, values.into_iter()).unwrap();
    let found = verify(&open().unwrap(), &NoProgress, 100);
    for (i, from, to) in changed {
        assert!(
            found.iter().any(|m| m.material == material
                && m.index == i
                && (m.stored, m.derived) == (Stored::Value(to), Stored::Value(from))),
            "{i}: {from:?} stored as {to:?}: {found:?}"
        );
    }
}

/// Every table of `directory` up to `STONES`, by its value file, mapped.
fn open_values(directory: &Path) -> Tables {
    Tables::open_available(
        &board(),
        Rules::default(),
        STONES,
        Content::Values,
        directory,
    )
    .unwrap()
}

/// The bytes that copies in memory of the value files of every material take: five values a
/// byte, their count from each file's header.
fn copies_of_value_files(directory: &Path) -> u64 {
    materials(STONES)
        .map(|material| {
            let id = TableId::new(&board(), &Rules::default(), material).values();
            let bytes = fs::read(directory.join(id.file_name())).unwrap();
            u64::from_le_bytes(bytes[24..32].try_into().unwrap()).div_ceil(5)
        })
        .sum()
}

/// Tables copied into memory within a budget: the smallest stone counts first, the rest left
/// mapped; every probe answers the same either way.
#[test]
fn tables_copied_into_memory_within_a_budget_answer_as_mapped_ones() {
    let directory = tempfile::tempdir().unwrap();
    build(directory.path());
    let open = || open_values(directory.path());
    let mapped = open();
    let positions: Vec<Position> = materials(STONES)
        .flat_map(|material| {
            let index = MaterialIndex::new(&board(), material);
            (0..index.size()).step_by(7).map(move |i| {
                let (mover, waiting) = index.position(i);
                Position {
                    mover,
                    waiting,
                    side: Color::White,
                }
            })
        })
        .collect();
    let answers = |tables: &Tables| {
        let mut out = Vec::new();
        tables.probe_values(&positions, &mut out).unwrap();
        out
    };
    let expected = answers(&mapped);
    let mut nothing = open();
    let all_mapped = nothing.load_into_memory_within(0).unwrap();
    assert!(all_mapped > 0);
    assert_eq!(answers(&nothing), expected);
    let mut some = open();
    let left = some
        .load_into_memory_within(copies_of_value_files(directory.path()) / 2)
        .unwrap();
    assert!(0 < left && left < all_mapped, "{left} of {all_mapped}");
    assert_eq!(answers(&some), expected);
    let mut all = open();
    assert_eq!(all.load_into_memory_within(u64::MAX).unwrap(), 0);
    assert_eq!(answers(&all), expected);
}

/// Copies that do not all fit five values a byte are packed the smallest: the lopsided tables
/// in less, so that all of them fit in a byte less than five values a byte take, and answer
/// as the files do.
#[test]
fn tables_that_do_not_fit_five_values_a_byte_are_packed_the_smallest() {
    let directory = tempfile::tempdir().unwrap();
    build(directory.path());
    let mapped = open_values(directory.path());
    let positions: Vec<Position> = materials(STONES)
        .flat_map(|material| {
            let index = MaterialIndex::new(&board(), material);
            (0..index.size()).step_by(3).map(move |i| {
                let (mover, waiting) = index.position(i);
                Position::from_colors(mover, waiting, Color::White)
            })
        })
        .collect();
    let (mut expected, mut answers) = (Vec::new(), Vec::new());
    mapped.probe_values(&positions, &mut expected).unwrap();
    let mut packed = open_values(directory.path());
    let five_a_byte = copies_of_value_files(directory.path());
    assert_eq!(packed.load_into_memory_within(five_a_byte - 1).unwrap(), 0);
    packed.probe_values(&positions, &mut answers).unwrap();
    assert_eq!(answers, expected);
}

/// The paths of the files mapped into this process whose mapping the kernel marks as read at
/// random (`rr` among its `VmFlags` in `/proc/self/smaps`: `madvise(MADV_RANDOM)`).
#[cfg(target_os = "linux")]
fn mapped_at_random() -> Vec<String> {
    let smaps = fs::read_to_string("/proc/self/smaps").unwrap();
    let mut random = Vec::new();
    let mut path = None;
    for line in smaps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if let Some(flags) = line.strip_prefix("VmFlags:") {
            if flags.split_whitespace().any(|f| f == "rr") {
                random.extend(path.take());
            }
        } else if fields.len() >= 6 && fields[0].contains('-') {
            path = Some(fields[5..].join(" "));
        }
    }
    random
}

/// Tables left in their mapped files are probed in place at random: the kernel reads a page
/// that missed the cache alone, not with megabytes of read-ahead (`data/results.md`,
/// forty-fifth session); those copied into memory are not files any more.
#[cfg(target_os = "linux")]
#[test]
fn tables_left_mapped_are_advised_random_reads() {
    let directory = tempfile::tempdir().unwrap();
    build(directory.path());
    let open = || open_values(directory.path());
    let value_file = |material| {
        let id = TableId::new(&board(), &Rules::default(), material).values();
        directory.path().join(id.file_name()).display().to_string()
    };
    let of_five_stones: Vec<String> = materials(STONES)
        .filter(|m| m.stones() == STONES)
        .map(value_file)
        .collect();
    let opened = open();
    let random = mapped_at_random();
    assert!(
        !of_five_stones.iter().any(|f| random.contains(f)),
        "not before it is asked: {random:?}"
    );
    drop(opened);
    let all_mapped: u64 = materials(STONES)
        .map(|m| fs::metadata(value_file(m)).unwrap().len())
        .sum();
    let mut some = open();
    let left = some
        .load_into_memory_within(copies_of_value_files(directory.path()) / 2)
        .unwrap();
    assert!(0 < left && left < all_mapped, "{left} of {all_mapped}");
    // The files left mapped are the ones the background reading reads, smallest first.
    let in_place: Vec<String> = some
        .files_probed_in_place()
        .iter()
        .map(|path| path.display().to_string())
        .collect();
    let sizes: Vec<u64> = in_place
        .iter()
        .map(|f| fs::metadata(f).unwrap().len())
        .collect();
    assert_eq!(sizes.iter().sum::<u64>(), left, "{in_place:?}");
    assert!(sizes.is_sorted(), "{sizes:?}");
    let random = mapped_at_random();
    assert!(
        in_place.iter().all(|f| random.contains(f)),
        "{in_place:?} in {random:?}"
    );
    assert!(
        of_five_stones.iter().any(|f| random.contains(f)),
        "{random:?}"
    );
    assert!(
        !random.contains(&value_file(Material::new(1, 1))),
        "copied into memory: {random:?}"
    );
}
