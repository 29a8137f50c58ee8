//! Statistics of chain lengths among the turns at perft depth N (default 6) from the 5x9 start.
use fanorona_engine::{movegen::all_children, turns, Board, Position};

fn main() {
    let depth: usize = std::env::args()
        .nth(1)
        .map_or(6, |d| d.parse().expect("depth"));
    let board = Board::standard();
    let mut frontier = vec![Position::standard_start(&board)];
    for _ in 0..depth - 1 {
        let mut next = Vec::new();
        for p in &frontier {
            all_children(&board, p, &mut next);
        }
        frontier = next;
    }
    let mut by_length = [0u64; 64];
    let mut paika_nodes = 0;
    for p in &frontier {
        let list = turns(&board, p);
        if list.first().is_some_and(|t| !t.is_capture()) {
            paika_nodes += 1;
        }
        for t in &list {
            by_length[t.steps.len()] += 1;
        }
    }
    println!(
        "nodes at depth {}: {}, of which paika-only: {paika_nodes}",
        depth - 1,
        frontier.len()
    );
    for (len, n) in by_length.iter().enumerate().filter(|(_, n)| **n > 0) {
        println!("turns of {len} steps: {n}");
    }
}
