//! Materials answered one ply on (`Tables::derive`): the same values as their own tables.

use fanorona_engine::{Bitboard, Blocked, Board, Color, Position, Rules, Value};
use fanorona_solver::{
    BuildControl, Content, DeriveError, Material, MaterialIndex, NoProgress, OpenError, ProbeError,
    TableId, Tables, WhyNotDerived,
};

/// Every position of `material`, one per slot of its table.
fn positions_of(board: &Board, material: Material) -> Vec<Position> {
    let index = MaterialIndex::new(board, material);
    (0..index.size())
        .map(|slot| {
            let (mover, waiting) = index.position(slot);
            Position {
                mover,
                waiting,
                side: Color::White,
            }
        })
        .collect()
}

/// Derive `material` in a copy of the tables of `board` up to `stones` and compare every
/// position of it, one by one and all at once among positions of other materials, with
/// its own table.
fn assert_derived_as_stored(board: &Board, blocked: Blocked, stones: usize, material: Material) {
    let rules = Rules { blocked };
    let stored = Tables::build(board, rules, stones);
    let mut derived = Tables::build(board, rules, stones);
    derived.derive(material).unwrap();
    assert_eq!(derived.derived_materials(), vec![material]);
    assert!(derived.covers(material));
    let positions = positions_of(board, material);
    assert!(!positions.is_empty());
    let mut counts = [0usize; 3];
    for position in &positions {
        let expected = stored.probe_value(position).unwrap();
        assert_eq!(derived.probe_value(position).unwrap(), expected);
        counts[expected as usize] += 1;
    }
    // Every value occurs, so that a probe answering one value for all would fail.
    assert!(counts.iter().all(|&n| n > 0), "{material}: {counts:?}");
    // Mixed with the other half of the system and a finished game, in one batch.
    let mut batch: Vec<Position> = positions.iter().copied().take(500).collect();
    batch.extend(
        positions_of(board, material.swapped())
            .into_iter()
            .take(500),
    );
    batch.push(Position {
        mover: Bitboard(0),
        waiting: Bitboard(1),
        side: Color::Black,
    });
    let (mut from_derived, mut from_stored) = (Vec::new(), Vec::new());
    derived.probe_values(&batch, &mut from_derived).unwrap();
    stored.probe_values(&batch, &mut from_stored).unwrap();
    assert_eq!(from_derived, from_stored);
    assert_eq!(from_derived.last(), Some(&Value::Loss));
}

#[test]
fn a_derived_material_answers_every_position_as_its_own_table() {
    let board = Board::new(3, 5).unwrap();
    assert_derived_as_stored(&board, Blocked::Loss, 6, Material::new(2, 4));
    assert_derived_as_stored(&board, Blocked::Loss, 6, Material::new(4, 2));
    assert_derived_as_stored(&board, Blocked::Loss, 5, Material::new(3, 2));
}

/// Blocked positions are common on 3x3: the rule option must be the one the tables use.
#[test]
fn a_derived_material_answers_blocked_positions_by_the_rules() {
    let board = Board::new(3, 3).unwrap();
    for blocked in [Blocked::Loss, Blocked::Draw] {
        assert_derived_as_stored(&board, blocked, 7, Material::new(3, 4));
        assert_derived_as_stored(&board, blocked, 7, Material::new(5, 2));
    }
}

#[test]
fn derive_refuses_what_it_cannot_answer_one_ply_on() {
    let board = Board::new(3, 5).unwrap();
    let rules = Rules::default();
    let refusal = |tables: &mut Tables, mover, waiting| {
        let material = Material::new(mover, waiting);
        let error: DeriveError = tables.derive(material).unwrap_err();
        assert_eq!(error.material, material);
        assert!(error.to_string().starts_with(&material.to_string()));
        error.why
    };
    let mut tables = Tables::build(&board, rules, 6);
    assert_eq!(refusal(&mut tables, 3, 3), WhyNotDerived::OwnSwap);
    assert_eq!(refusal(&mut tables, 2, 5), WhyNotDerived::NotHeld);
    tables.derive(Material::new(2, 4)).unwrap();
    assert_eq!(
        refusal(&mut tables, 4, 2),
        WhyNotDerived::LeadsToDerived(Material::new(2, 4))
    );
    // A refusal changes nothing: 4v2 still has its table.
    assert!(tables.stored_value(Material::new(4, 2), 0).is_some());
    let mut tables = Tables::build(&board, rules, 6);
    tables.leave_out(Material::new(3, 2));
    assert_eq!(
        refusal(&mut tables, 2, 4),
        WhyNotDerived::LeadsToMissing(Material::new(3, 2))
    );
}

#[test]
fn a_derived_material_has_no_distances_and_leaving_it_out_uncovers_it() {
    let board = Board::new(3, 5).unwrap();
    let mut tables = Tables::build(&board, Rules::default(), 5);
    let material = Material::new(2, 3);
    tables.derive(material).unwrap();
    let position = positions_of(&board, material)[0];
    assert_eq!(
        tables.probe(&position),
        Err(ProbeError::NoDistances { material })
    );
    assert!(tables.leave_out(material));
    assert!(!tables.covers(material));
    assert!(tables.derived_materials().is_empty());
}

/// Leaving out a table that a derived material's turns lead into lets the derived one go too:
/// its positions are then not answered (an error), never answered wrongly or by a panic.
#[test]
fn leaving_out_what_a_derived_material_needs_lets_it_go() {
    let board = Board::new(3, 5).unwrap();
    let mut tables = Tables::build(&board, Rules::default(), 6);
    let material = Material::new(2, 4);
    tables.derive(material).unwrap();
    let position = positions_of(&board, material)[0];
    assert!(tables.leave_out(Material::new(4, 2)));
    assert!(tables.derived_materials().is_empty());
    assert!(!tables.covers(material));
    assert!(matches!(
        tables.probe_value(&position),
        Err(ProbeError::NotCovered { .. })
    ));
}

/// Opened from files with a material derived, the tables never open that material's files:
/// with them deleted, its stone count is still complete and every position of it answered as
/// its table did. Without `derive` the same directory is a stone count short.
#[test]
fn tables_opened_deriving_a_material_do_without_its_files() {
    let board = Board::new(3, 5).unwrap();
    let rules = Rules::default();
    let directory = tempfile::tempdir().unwrap();
    let dir = directory.path();
    let control = BuildControl::default();
    let built = Tables::build_files(&board, rules, 5, None, dir, &control, &NoProgress).unwrap();
    let material = Material::new(2, 3);
    let positions = positions_of(&board, material);
    let mut expected = Vec::new();
    built.probe_values(&positions, &mut expected).unwrap();
    drop(built);
    let id = TableId::new(&board, &rules, material);
    for file in [id.file_name(), id.values().file_name()] {
        std::fs::remove_file(dir.join(file)).unwrap();
    }
    let open = |derive: &[Material]| {
        Tables::open_available_deriving(&board, rules, 5, Content::Values, dir, derive)
    };
    let tables = open(&[material]).unwrap();
    assert_eq!(tables.max_stones(), 5);
    assert_eq!(tables.derived_materials(), vec![material]);
    let mut values = Vec::new();
    tables.probe_values(&positions, &mut values).unwrap();
    assert_eq!(values, expected);
    let without = Tables::open_available(&board, rules, 5, Content::Values, dir).unwrap();
    assert_eq!(without.max_stones(), 4);
    assert!(!without.covers(material));
    // A material that cannot be derived is named, and no tables are given.
    let two_two = Material::new(2, 2);
    match open(&[two_two]) {
        Err(OpenError::Derive(DeriveError { material, why })) => {
            assert_eq!((material, why), (two_two, WhyNotDerived::OwnSwap));
        }
        other => panic!("{:?}", other.map(|t| t.derived_materials())),
    }
}
