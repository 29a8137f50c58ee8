//! How much memory the copies of a directory's value files take, layout by layout:
//! `cargo run --release -p fanorona-solver --example copy_sizes -- DIR [ROWSxCOLUMNS]
//! [MAX_STONES]`. For each value file there (5x9, up to 9 stones by default): its slots, the
//! file's bytes, five values a byte, and the copy `TableFile::resident_copy` makes packed the
//! smallest (a lopsided table's most common value and its exceptions where that is the
//! smaller), with its bits a slot; then the totals. Each file is read whole (checked, then
//! planned).

use fanorona_engine::{Board, Rules};
use fanorona_solver::file::{Packing, TableFile, TableId};
use fanorona_solver::index::{Material, MaterialIndex};
use fanorona_solver::tables::materials;
use std::path::PathBuf;

fn main() {
    let mut args = std::env::args().skip(1);
    let directory = PathBuf::from(args.next().expect("a directory of tables"));
    let board = Board::parse_size(&args.next().unwrap_or("5x9".into())).expect("a board size");
    let max_stones: usize = args.next().map_or(9, |n| n.parse().expect("a stone count"));
    let rules = Rules::default();
    let (mut files, mut five, mut copies) = (0u64, 0u64, 0u64);
    println!("material slots file_bytes five_a_byte copy_bytes copy_bits_a_slot");
    for material in materials(max_stones) {
        let id = TableId::new(&board, &rules, material).values();
        if !directory.join(id.file_name()).exists() {
            continue;
        }
        let slots = MaterialIndex::size_of(&board, material);
        let file = TableFile::open(&directory, &id, slots).expect("a whole value file");
        let (file_bytes, copy) = (file.mapped_bytes(), file.copy_bytes(Packing::Smallest));
        let five_a_byte = slots.div_ceil(5);
        let name = Material::to_string(&material);
        let bits = 8.0 * copy as f64 / slots as f64;
        println!("{name} {slots} {file_bytes} {five_a_byte} {copy} {bits:.3}");
        (files, five, copies) = (files + file_bytes, five + five_a_byte, copies + copy);
    }
    println!("total - {files} {five} {copies} -");
}
