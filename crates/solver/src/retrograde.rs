//! Retrograde analysis of one closed system of materials.
//!
//! A capture lowers the stone count and a paika keeps it and swaps the sides, so the materials
//! (a, b) and (b, a) form a closed system whose only other exits lead to smaller, already solved
//! materials. Positions with a capture are therefore decided at once from the smaller tables;
//! blocked positions are decided by the rules; every other position counts its paika children.
//! Decided positions are then taken in order of distance, and each undoes its paika (un-moves)
//! to reach its predecessors: a lost child makes the predecessor won one ply later, a won child
//! lowers the predecessor's count of undecided children, and the last one makes it lost one ply
//! after the slowest. Taking them in order of distance gives the winner the quickest win and
//! the loser the slowest loss. What is never decided is a draw.

use crate::entry::Entry;
use crate::index::{Material, MaterialIndex};
use crate::progress::Progress;
use fanorona_engine::movegen::{children, count_turns, has_capture, paika_predecessors};
use fanorona_engine::{Board, Color, Position, Rules, Value};

/// The solved entries of one material, in index order.
pub struct MaterialTable {
    pub index: MaterialIndex,
    pub entries: Vec<Entry>,
}

/// Solve the system of `material` and its swap (one material if they are equal). `probe` gives
/// the entry of any position of a smaller material.
pub fn solve_system(
    board: &Board,
    rules: &Rules,
    material: Material,
    probe: &dyn Fn(&Position) -> Entry,
    progress: &dyn Progress,
) -> Vec<MaterialTable> {
    let mut system = System::new(board, rules, material);
    let name = system.name();
    let positions = system.positions();
    progress.phase(
        &format!("{name}: captures and blocked positions"),
        positions,
    );
    let mut frontier = system.decide_at_once(probe, progress);
    progress.phase(&format!("{name}: paika, by distance (at most)"), positions);
    let mut distance = 0;
    while distance < frontier.len() {
        let decided = std::mem::take(&mut frontier[distance]);
        progress.advance(decided.len() as u64);
        for (slot, index) in decided {
            system.propagate(slot, index, &mut frontier);
        }
        distance += 1;
    }
    system.finish()
}

/// The materials being solved together and their state while solving.
struct System<'a> {
    board: &'a Board,
    rules: &'a Rules,
    slots: Vec<Slot>,
}

struct Slot {
    index: MaterialIndex,
    entries: Vec<Entry>,
    /// For undecided positions: how many paika children are not yet known to be won.
    undecided_children: Vec<u8>,
    /// Whether the entry is final (decided); an undecided entry ends as a draw.
    decided: Vec<bool>,
}

/// Positions decided at each distance, waiting to be propagated: (slot, index).
type Frontier = Vec<Vec<(usize, u64)>>;

impl<'a> System<'a> {
    fn new(board: &'a Board, rules: &'a Rules, material: Material) -> System<'a> {
        let mut materials = vec![material];
        if material.swapped() != material {
            materials.push(material.swapped());
        }
        let slots = materials
            .into_iter()
            .map(|m| {
                let index = MaterialIndex::new(board, m);
                let size = index.size() as usize;
                Slot {
                    index,
                    entries: vec![Entry::DRAW; size],
                    undecided_children: vec![0; size],
                    decided: vec![false; size],
                }
            })
            .collect();
        System {
            board,
            rules,
            slots,
        }
    }

    /// "3v2+2v3": the materials, stones to move v stones waiting.
    fn name(&self) -> String {
        let names: Vec<String> = self
            .slots
            .iter()
            .map(|slot| {
                format!(
                    "{}v{}",
                    slot.index.material().mover,
                    slot.index.material().waiting
                )
            })
            .collect();
        names.join("+")
    }

    fn positions(&self) -> u64 {
        self.slots.iter().map(|slot| slot.index.size()).sum()
    }

    /// Decide captures (from smaller tables) and blocked positions; count the children of the rest.
    fn decide_at_once(
        &mut self,
        probe: &dyn Fn(&Position) -> Entry,
        progress: &dyn Progress,
    ) -> Frontier {
        let mut frontier = Frontier::new();
        let mut next = Vec::new();
        for (slot_number, slot) in self.slots.iter_mut().enumerate() {
            for (i, (mover, waiting)) in slot.index.positions().enumerate() {
                if i % 4096 == 4095 {
                    progress.advance(4096);
                }
                // The colour does not matter to the rules; tables are colour-blind.
                let position = Position {
                    mover,
                    waiting,
                    side: Color::White,
                };
                let entry = if has_capture(self.board, mover, waiting) {
                    next.clear();
                    children(self.board, &position, &mut next);
                    Entry::from_children(next.iter().map(probe))
                } else if let Some(value) = self.rules.outcome(self.board, &position) {
                    match value {
                        Value::Loss => Entry::loss(0),
                        _ => Entry::DRAW,
                    }
                } else {
                    let count = count_turns(self.board, &position);
                    slot.undecided_children[i] =
                        u8::try_from(count).expect("fewer than 256 paika in any position");
                    continue;
                };
                slot.entries[i] = entry;
                slot.decided[i] = true;
                if let Some(distance) = entry.distance() {
                    push(&mut frontier, distance, (slot_number, i as u64));
                }
            }
        }
        frontier
    }

    /// Pass a decided position's value back to its undecided paika predecessors.
    fn propagate(&mut self, slot_number: usize, index: u64, frontier: &mut Frontier) {
        let child = self.slots[slot_number].entries[index as usize];
        let (mover, waiting) = self.slots[slot_number].index.position(index);
        let mut predecessors = Vec::new();
        paika_predecessors(
            self.board,
            &Position {
                mover,
                waiting,
                side: Color::White,
            },
            &mut predecessors,
        );
        let earlier = child.one_ply_earlier();
        let distance = earlier
            .distance()
            .expect("only won and lost positions are propagated");
        for before in predecessors {
            let slot_number = self.slot_of(Material::of(before.mover, before.waiting));
            let slot = &mut self.slots[slot_number];
            let i = slot.index.index(before.mover, before.waiting) as usize;
            if slot.decided[i] {
                continue;
            }
            if child.value() == Value::Win {
                slot.undecided_children[i] -= 1;
                if slot.undecided_children[i] > 0 {
                    continue;
                }
            }
            slot.entries[i] = earlier;
            slot.decided[i] = true;
            push(frontier, distance, (slot_number, i as u64));
        }
    }

    fn slot_of(&self, material: Material) -> usize {
        self.slots
            .iter()
            .position(|slot| slot.index.material() == material)
            .expect("paika stay in the system")
    }

    fn finish(self) -> Vec<MaterialTable> {
        self.slots
            .into_iter()
            .map(|slot| MaterialTable {
                index: slot.index,
                entries: slot.entries,
            })
            .collect()
    }
}

fn push(frontier: &mut Frontier, distance: u16, item: (usize, u64)) {
    let distance = distance as usize;
    if frontier.len() <= distance {
        frontier.resize_with(distance + 1, Vec::new);
    }
    frontier[distance].push(item);
}
