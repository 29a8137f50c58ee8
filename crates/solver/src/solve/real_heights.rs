//! A win read off by the real heights of the proofs a search's table holds.
//!
//! A proof's stored height is 1 + the least height of its winning turns (the winner to move)
//! or 1 + the greatest of all turns (the other side to move), as they were when it was proven.
//! Where the table overwrote a proof and the search proved it again another way, the new
//! height can be greater than its parents assumed, and following the least heights can lead
//! round a loop. Here the heights are worked out again, over the graph of the positions the
//! table knows to be won: from the won leaves (rules or endgame tables) back, a winner's
//! position one more than its lowest won turn, the other side's one more than its highest once
//! all its turns are won (retrograde analysis, in order of height). Following the least real
//! height strictly descends, so the strategy ends in leaves. Positions the graph shows no win
//! at (their proofs rested on ones overwritten since) are searched again: the positions the
//! graph does show won are pinned as proven, and the root searched again trusting only pinned
//! proofs and pinning each new one, which founds every proof it makes.

use super::SolveError;
use crate::progress::Progress;
use crate::search::{Outcome, Search};
use fanorona_engine::movegen::children;
use fanorona_engine::{Color, Position};
use std::collections::{HashMap, VecDeque};

/// No height (yet): not known to be won within the graph.
const NONE: u32 = u32::MAX;

/// The positions reachable from the root through turns the table knows win (the winner to
/// move) and through every turn (the other side to move).
struct Graph {
    positions: Vec<Position>,
    index: HashMap<Position, u32>,
    /// Each position's turns within the graph, without repeats.
    turns: Vec<Vec<u32>>,
    /// Won leaves.
    won_leaves: Vec<u32>,
}

impl Graph {
    fn explore(search: &Search, root: &Position, winner: Color) -> Graph {
        let mut graph = Graph {
            positions: Vec::new(),
            index: HashMap::new(),
            turns: Vec::new(),
            won_leaves: Vec::new(),
        };
        graph.add(*root);
        let mut next = Vec::new();
        let mut at = 0;
        while at < graph.positions.len() {
            let position = graph.positions[at];
            let mut turns = Vec::new();
            if search.is_leaf(&position) {
                if matches!(search.known(&position), Some((Outcome::Proven, _))) {
                    graph.won_leaves.push(at as u32);
                }
            } else {
                next.clear();
                children(search.board(), &position, &mut next);
                let winner_to_move = position.side == winner;
                for child in &next {
                    let won = matches!(search.known(child), Some((Outcome::Proven, _)));
                    if won || !winner_to_move {
                        turns.push(graph.add(*child));
                    }
                }
                turns.sort_unstable();
                turns.dedup();
            }
            graph.turns.push(turns);
            at += 1;
        }
        graph
    }

    fn add(&mut self, position: Position) -> u32 {
        let next = self.positions.len() as u32;
        *self.index.entry(position).or_insert_with(|| {
            self.positions.push(position);
            next
        })
    }

    /// Each position's real height ([`NONE`] where the graph does not show it won).
    fn heights(&self, winner: Color) -> Vec<u32> {
        let count = self.positions.len();
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); count];
        for (parent, turns) in self.turns.iter().enumerate() {
            for &child in turns {
                parents[child as usize].push(parent as u32);
            }
        }
        // How many more won turns each position waits for: one for the winner, all for the
        // other side.
        let mut waiting: Vec<usize> = (0..count)
            .map(|i| {
                if self.positions[i].side == winner {
                    1
                } else {
                    self.turns[i].len()
                }
            })
            .collect();
        let mut height = vec![NONE; count];
        let mut queue = VecDeque::new();
        for &leaf in &self.won_leaves {
            height[leaf as usize] = 0;
            queue.push_back(leaf);
        }
        while let Some(child) = queue.pop_front() {
            for &parent in &parents[child as usize] {
                let parent = parent as usize;
                if height[parent] != NONE {
                    continue;
                }
                waiting[parent] -= 1;
                if waiting[parent] == 0 {
                    height[parent] = height[child as usize] + 1;
                    queue.push_back(parent as u32);
                }
            }
        }
        height
    }

    /// The strategy from the root along the least real heights: the winner's turn at each of
    /// its positions, `None` at the other side's (leaves are left out).
    fn strategy(&self, height: &[u32], winner: Color) -> HashMap<Position, Option<Position>> {
        let mut strategy = HashMap::new();
        let mut stack = vec![0u32];
        while let Some(at) = stack.pop() {
            let at = at as usize;
            let position = self.positions[at];
            if height[at] == 0 || strategy.contains_key(&position) {
                continue;
            }
            if position.side == winner {
                let best = *self.turns[at]
                    .iter()
                    .min_by_key(|&&child| height[child as usize])
                    .expect("a won position of the winner has a won turn");
                strategy.insert(position, Some(self.positions[best as usize]));
                stack.push(best);
            } else {
                strategy.insert(position, None);
                stack.extend(&self.turns[at]);
            }
        }
        strategy
    }
}

/// The winner's strategy from `root`, which `search` has proven, by the real heights of the
/// proofs its table holds. Where they show no win at the root, every position they do show
/// won is pinned as proven, and the root searched again trusting no other proof of the
/// table: each proof it makes is pinned as it is made, on pinned proofs and leaves alone, so
/// the second reading off reaches leaves everywhere.
pub(super) fn winning_strategy(
    search: &mut Search,
    root: &Position,
    winner: Color,
    progress: &dyn Progress,
) -> Result<HashMap<Position, Option<Position>>, SolveError> {
    let unfounded = match founded_strategy(search, root, winner, 1, progress) {
        Ok(strategy) => return Ok(strategy),
        Err(unfounded) => unfounded,
    };
    progress.note(&format!(
        "certificate: {unfounded} positions the table knows won only go round; {} founded \
         on leaves pinned; searching again on those and the leaves alone",
        search.pinned_count()
    ));
    // Forgetting only the positions found going round and searching again, up to 64 times,
    // never ended: each search proved some of them again from other proofs of the table that
    // had lost their own footing (two sets of 330 and 394 positions came back in turn for 60
    // rounds after e4-e3W from the left-right start), and lost some founded ones to
    // overwrites.
    search.trust_only_pinned_proofs();
    if search.solve(root) != Outcome::Proven {
        return Err(super::not_settled_again(search.board(), root));
    }
    founded_strategy(search, root, winner, 2, progress).map_err(|unfounded| {
        SolveError::no_certificate(format!(
            "searched again on pinned proofs alone, {unfounded} positions still only go round \
             (a bug: please report it)"
        ))
    })
}

/// The strategy by the real heights of the table's proofs, if they reach leaves at the root;
/// otherwise every position they do reach leaves from is pinned, and the count of those that
/// only go round is returned.
fn founded_strategy(
    search: &mut Search,
    root: &Position,
    winner: Color,
    round: usize,
    progress: &dyn Progress,
) -> Result<HashMap<Position, Option<Position>>, usize> {
    let graph = Graph::explore(search, root, winner);
    let height = graph.heights(winner);
    if height[0] != NONE {
        progress.note(&format!(
            "certificate: real heights over {} positions the table knows won (round {round}): \
             the root's is {}",
            graph.positions.len(),
            height[0]
        ));
        return Ok(graph.strategy(&height, winner));
    }
    for (position, &h) in graph.positions.iter().zip(&height) {
        if h != NONE && h != 0 {
            search.pin_proven(position, h);
        }
    }
    Err(height.iter().filter(|&&h| h == NONE).count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::Bitboard;

    /// A graph by hand: position i is White's to move where `white_to_move[i]`, with `turns`.
    fn graph(white_to_move: &[bool], turns: &[&[u32]], won_leaves: &[u32]) -> Graph {
        let positions: Vec<Position> = white_to_move
            .iter()
            .enumerate()
            .map(|(i, &white)| {
                let side = if white { Color::White } else { Color::Black };
                Position::from_colors(Bitboard(1 << i), Bitboard(1 << 40), side)
            })
            .collect();
        Graph {
            index: positions
                .iter()
                .enumerate()
                .map(|(i, p)| (*p, i as u32))
                .collect(),
            positions,
            turns: turns.iter().map(|t| t.to_vec()).collect(),
            won_leaves: won_leaves.to_vec(),
        }
    }

    #[test]
    fn real_heights_are_one_more_than_the_least_won_turn_or_the_greatest_reply() {
        // 0 (White): to 1 or 2; 1 (Black): to 3, a won leaf; 2 (Black): back to 0 or to 3.
        let g = graph(
            &[true, false, false, true],
            &[&[1, 2], &[3], &[0, 3], &[]],
            &[3],
        );
        let height = g.heights(Color::White);
        assert_eq!(height, vec![2, 1, 3, 0]);
        let strategy = g.strategy(&height, Color::White);
        assert_eq!(strategy.get(&g.positions[0]), Some(&Some(g.positions[1])));
        assert_eq!(strategy.get(&g.positions[1]), Some(&None));
        assert_eq!(strategy.len(), 2, "only what the root's strategy reaches");
    }

    #[test]
    fn positions_that_only_go_round_have_no_height() {
        // 0 (White) knows only 1 won; 1 (Black) can go back to 0 or on to 2, whose won turn
        // leads back to 1: no leaf is ever reached.
        let g = graph(&[true, false, true], &[&[1], &[0, 2], &[1]], &[]);
        assert_eq!(g.heights(Color::White), vec![NONE; 3]);
    }
}
