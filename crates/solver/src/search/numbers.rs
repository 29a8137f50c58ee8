//! Proof and disproof numbers: how a node's numbers follow from its children's, which child
//! df-pn expands next and under which thresholds, and the numbers of each node on the path.

use super::NO_DEPTH;
use fanorona_engine::Position;

/// A proof or disproof number: `INFINITE` means resolved.
pub type Number = u32;
pub const INFINITE: Number = Number::MAX;

/// How a node's *summed* number (its disproof number where the attacker moves, its proof
/// number where the defender moves) is counted from its children's. Only the order of the
/// search depends on it, never what it proves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Counting {
    /// The sum (standard proof numbers). A position that several children reach, or that play
    /// goes round to, counts once per path: on a board full of transpositions the sums can
    /// grow without bound (and saturate).
    #[default]
    Sum,
    /// The largest, plus one for each other child not yet settled in that number ("weak"
    /// proof numbers, Ueda, Hashimoto, Hashimoto and Iida, 2008): nothing counted twice, at the
    /// price of a coarser guide where the children share nothing.
    Weak,
}

/// The children's summed numbers, gathered for either way of counting them.
#[derive(Clone, Copy, Debug, Default)]
struct Summed {
    sum: Number,
    largest: Number,
    unsettled: Number,
}

impl Summed {
    fn with(self, number: Number) -> Summed {
        Summed {
            sum: add(self.sum, number),
            largest: self.largest.max(number),
            unsettled: self.unsettled + Number::from(number != 0),
        }
    }

    fn of(numbers: impl Iterator<Item = Number>) -> Summed {
        numbers.fold(Summed::default(), Summed::with)
    }

    fn count(self, counting: Counting) -> Number {
        match counting {
            Counting::Sum => self.sum,
            Counting::Weak if self.unsettled == 0 => 0,
            Counting::Weak => add(self.largest, self.unsettled - 1),
        }
    }
}

/// The numbers of one node as seen from its parent.
#[derive(Clone, Copy, Debug)]
pub(super) struct Numbers {
    pub(super) proof: Number,
    pub(super) disproof: Number,
    /// For a disproof: the shallowest path depth it relied on (`NO_DEPTH` if none).
    /// For a proof: its height.
    pub(super) extra: u32,
}

impl Numbers {
    pub(super) const PROVEN: Numbers = Numbers {
        proof: 0,
        disproof: INFINITE,
        extra: 0,
    };
    pub(super) const DISPROVEN: Numbers = Numbers {
        proof: INFINITE,
        disproof: 0,
        extra: NO_DEPTH,
    };

    pub(super) fn is_proven(self) -> bool {
        self.proof == 0
    }

    pub(super) fn is_disproven(self) -> bool {
        self.disproof == 0
    }
}

/// Sum of proof numbers: infinite if one is, otherwise capped just below.
fn add(a: Number, b: Number) -> Number {
    if a == INFINITE || b == INFINITE {
        INFINITE
    } else {
        a.saturating_add(b).min(INFINITE - 1)
    }
}

/// One child of the node being expanded.
#[derive(Clone, Copy)]
pub(super) struct Child {
    pub(super) position: Position,
    pub(super) numbers: Numbers,
}

/// One node on the path being searched: the numbers of the child it chose, and what its other
/// children add up to (the least of the numbers it minimises, the sum of those it sums).
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    or_node: bool,
    counting: Counting,
    chosen: Numbers,
    others_least: Number,
    others_summed: Summed,
}

impl Frame {
    pub(super) fn of(or_node: bool, counting: Counting, kids: &[Child], chosen: usize) -> Frame {
        let (mut least, mut summed) = (INFINITE, Summed::default());
        let others = kids.iter().enumerate().filter(|&(i, _)| i != chosen);
        for (_, kid) in others {
            let (minimised, number) = if or_node {
                (kid.numbers.proof, kid.numbers.disproof)
            } else {
                (kid.numbers.disproof, kid.numbers.proof)
            };
            least = least.min(minimised);
            summed = summed.with(number);
        }
        Frame {
            or_node,
            counting,
            chosen: kids[chosen].numbers,
            others_least: least,
            others_summed: summed,
        }
    }

    /// This node's (proof, disproof) numbers with `child`'s as its chosen child's.
    pub(super) fn with_child(&self, (proof, disproof): (Number, Number)) -> (Number, Number) {
        let summed = |number| self.others_summed.with(number).count(self.counting);
        if self.or_node {
            (self.others_least.min(proof), summed(disproof))
        } else {
            (summed(proof), self.others_least.min(disproof))
        }
    }
}

/// The (proof, disproof) numbers of each node on the path `frames` describe, from the root
/// down, with the node being expanded at the bottom counted as its parent last saw it.
pub(super) fn live_numbers(frames: &[Frame]) -> Vec<(Number, Number)> {
    let Some(last) = frames.last() else {
        return Vec::new();
    };
    let mut below = (last.chosen.proof, last.chosen.disproof);
    let mut live: Vec<(Number, Number)> = frames
        .iter()
        .rev()
        .map(|frame| {
            below = frame.with_child(below);
            below
        })
        .collect();
    live.reverse();
    live
}

/// The one child that settles a resolved node: the lowest proven child of a proven OR node,
/// the disproven child that relies least on the path of a disproven AND node.
pub(super) fn settling_child(or_node: bool, kids: &[Child], node: Numbers) -> Option<Position> {
    if or_node && node.is_proven() {
        kids.iter()
            .filter(|k| k.numbers.is_proven())
            .min_by_key(|k| k.numbers.extra)
            .map(|k| k.position)
    } else if !or_node && node.is_disproven() {
        kids.iter()
            .filter(|k| k.numbers.is_disproven())
            .max_by_key(|k| k.numbers.extra)
            .map(|k| k.position)
    } else {
        None
    }
}

/// A node's numbers from its children's.
pub(super) fn combine(or_node: bool, counting: Counting, kids: &[Child]) -> Numbers {
    // At an OR node: proof = least proof, disproof = summed; at an AND node the other way round.
    let (least, sum) = if or_node {
        (
            kids.iter().map(|k| k.numbers.proof).min(),
            Summed::of(kids.iter().map(|k| k.numbers.disproof)).count(counting),
        )
    } else {
        (
            kids.iter().map(|k| k.numbers.disproof).min(),
            Summed::of(kids.iter().map(|k| k.numbers.proof)).count(counting),
        )
    };
    let least = least.expect("expanded positions have turns");
    let (proof, disproof) = if or_node { (least, sum) } else { (sum, least) };
    let extra = if proof == 0 {
        // Height: OR nodes follow their lowest proven child, AND nodes need all.
        let heights = kids.iter().filter(|k| k.numbers.is_proven());
        1 + if or_node {
            heights.map(|k| k.numbers.extra).min().unwrap_or(0)
        } else {
            heights.map(|k| k.numbers.extra).max().unwrap_or(0)
        }
    } else if disproof == 0 {
        // Path reliance: OR nodes need every child disproven, AND nodes the best one.
        let relied = kids.iter().filter(|k| k.numbers.is_disproven());
        if or_node {
            relied.map(|k| k.numbers.extra).min().unwrap_or(NO_DEPTH)
        } else {
            relied.map(|k| k.numbers.extra).max().unwrap_or(NO_DEPTH)
        }
    } else {
        0
    };
    Numbers {
        proof,
        disproof,
        extra,
    }
}

/// The child to expand next and its thresholds (with the 1 + ε trick of Pawlewicz and Lew,
/// ε = 1/4, which saves re-expansions).
pub(super) fn select(
    or_node: bool,
    counting: Counting,
    kids: &[Child],
    node: Numbers,
    proof_limit: Number,
    disproof_limit: Number,
) -> (usize, Number, Number) {
    // The number that is minimised at this node, and the one summed.
    let key = |k: &Child| {
        if or_node {
            (k.numbers.proof, k.numbers.disproof)
        } else {
            (k.numbers.disproof, k.numbers.proof)
        }
    };
    let mut best = 0;
    let mut second = INFINITE;
    for (i, kid) in kids.iter().enumerate().skip(1) {
        let (least, _) = key(kid);
        if least < key(&kids[best]).0 {
            second = key(&kids[best]).0;
            best = i;
        } else if least < second {
            second = least;
        }
    }
    let (_, best_summed) = key(&kids[best]);
    let (min_limit, sum_limit, sum) = if or_node {
        (proof_limit, disproof_limit, node.disproof)
    } else {
        (disproof_limit, proof_limit, node.proof)
    };
    // At least one above the child's own number, so that it is expanded at least once: where
    // numbers saturate (sums over many transpositions and cycles), `second` can equal it, and
    // a child that returned at once would be selected again and again without end.
    let best_least = key(&kids[best]).0;
    let child_min_limit = min_limit
        .min(add(second, (second / 4).max(1)))
        .max(best_least.saturating_add(1));
    let child_sum_limit = match counting {
        _ if sum_limit == INFINITE => INFINITE,
        Counting::Sum => add(sum_limit - sum.min(sum_limit), best_summed),
        // The node's number is the largest plus one per other unsettled child: the chosen
        // child may grow until that reaches the limit (it is unsettled, and at most the
        // largest, which is below the limit by that count).
        Counting::Weak => {
            let unsettled = kids.iter().filter(|k| key(k).1 != 0).count() as Number;
            sum_limit.saturating_sub(unsettled.saturating_sub(1))
        }
    };
    if or_node {
        (best, child_min_limit, child_sum_limit)
    } else {
        (best, child_sum_limit, child_min_limit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_engine::{Bitboard, Color};

    fn kid(proof: Number, disproof: Number) -> Child {
        Child {
            position: Position::from_colors(Bitboard(1), Bitboard(2), Color::White),
            numbers: Numbers {
                proof,
                disproof,
                extra: 0,
            },
        }
    }

    #[test]
    fn the_path_gives_each_node_its_numbers_as_they_stand() {
        let kids = [kid(3, 40), kid(7, 2), kid(5, 9), kid(INFINITE, 0)];
        for counting in [Counting::Sum, Counting::Weak] {
            for or_node in [true, false] {
                let node = combine(or_node, counting, &kids);
                for chosen in 0..kids.len() {
                    let frame = Frame::of(or_node, counting, &kids, chosen);
                    let numbers = kids[chosen].numbers;
                    assert_eq!(
                        frame.with_child((numbers.proof, numbers.disproof)),
                        (node.proof, node.disproof),
                        "{counting:?}, or node {or_node}, child {chosen}"
                    );
                }
            }
        }
        // The root (an OR node) chose its first child, an AND node that chose its second:
        // when that grandchild's numbers change, both nodes above see it at once.
        let open = &kids[..3];
        let grandchild = Numbers {
            proof: 100,
            disproof: 1,
            extra: 0,
        };
        let mut below = Frame::of(false, Counting::Sum, open, 1);
        below.chosen = grandchild;
        let root = Frame::of(true, Counting::Sum, open, 0);
        let and_node = (100 + 3 + 5, 1);
        let or_root = (5, 2 + 9 + 1);
        assert_eq!(live_numbers(&[root, below]), vec![or_root, and_node]);
        // Weakly counted: the largest plus one per other unsettled child.
        let mut below = Frame::of(false, Counting::Weak, open, 1);
        below.chosen = grandchild;
        let root = Frame::of(true, Counting::Weak, open, 0);
        let and_node = (100 + 2, 1);
        let or_root = (5, 9 + 2);
        assert_eq!(live_numbers(&[root, below]), vec![or_root, and_node]);
    }

    #[test]
    fn weak_counting_takes_the_largest_and_one_per_other_unsettled_child() {
        let kids = [kid(3, 40), kid(7, 2), kid(0, INFINITE), kid(5, 9)];
        let node = combine(false, Counting::Weak, &kids);
        assert_eq!((node.proof, node.disproof), (7 + 2, 2));
        let node = combine(false, Counting::Sum, &kids);
        assert_eq!((node.proof, node.disproof), (3 + 7 + 5, 2));
        // Every child proven: the AND node is proven either way.
        let proven = [kid(0, INFINITE), kid(0, INFINITE)];
        assert!(combine(false, Counting::Weak, &proven).is_proven());
        // One child that cannot be proven: neither can the AND node.
        let hopeless = [kid(INFINITE, 0), kid(4, 4)];
        assert_eq!(combine(false, Counting::Weak, &hopeless).proof, INFINITE);
    }

    #[test]
    fn a_chosen_child_may_grow_exactly_until_its_parent_reaches_the_limit() {
        // For each counting, each kind of node and each child that could be chosen: raising
        // the child's summed number to just below its limit keeps the node below the node's
        // limit, and raising it to the limit takes the node there.
        let kids = [kid(6, 3), kid(4, 8), kid(9, 5), kid(0, INFINITE)];
        for counting in [Counting::Sum, Counting::Weak] {
            for or_node in [true, false] {
                let kids = kids.map(|k| {
                    let numbers = if or_node {
                        Numbers {
                            proof: k.numbers.disproof,
                            disproof: k.numbers.proof,
                            extra: 0,
                        }
                    } else {
                        k.numbers
                    };
                    Child { numbers, ..k }
                });
                let node = combine(or_node, counting, &kids);
                let summed_of = |n: Numbers| if or_node { n.disproof } else { n.proof };
                let limit = summed_of(node) + 7;
                let (proof_limit, disproof_limit) = if or_node {
                    (INFINITE, limit)
                } else {
                    (limit, INFINITE)
                };
                let (best, child_proof_limit, child_disproof_limit) =
                    select(or_node, counting, &kids, node, proof_limit, disproof_limit);
                let child_limit = if or_node {
                    child_disproof_limit
                } else {
                    child_proof_limit
                };
                let with_best = |number: Number| {
                    let mut changed = kids;
                    if or_node {
                        changed[best].numbers.disproof = number;
                    } else {
                        changed[best].numbers.proof = number;
                    }
                    summed_of(combine(or_node, counting, &changed))
                };
                let case = format!("{counting:?}, or node {or_node}");
                assert!(child_limit > summed_of(kids[best].numbers), "{case}");
                assert!(with_best(child_limit - 1) < limit, "{case}");
                assert!(with_best(child_limit) >= limit, "{case}");
            }
        }
    }

    #[test]
    fn a_selected_child_may_always_grow_past_its_numbers() {
        // Two children whose proof numbers saturated: the chosen one must still get a limit
        // above its own number, or it returns at once and is chosen again forever.
        for or_node in [true, false] {
            let saturated = INFINITE - 1;
            let kids = if or_node {
                [kid(saturated, 10), kid(saturated, 20)]
            } else {
                [kid(10, saturated), kid(20, saturated)]
            };
            let node = combine(or_node, Counting::Sum, &kids);
            let (best, proof_limit, disproof_limit) =
                select(or_node, Counting::Sum, &kids, node, INFINITE, INFINITE);
            let (own_limit, own) = if or_node {
                (proof_limit, kids[best].numbers.proof)
            } else {
                (disproof_limit, kids[best].numbers.disproof)
            };
            assert!(own_limit > own, "or node {or_node}: {own_limit} <= {own}");
        }
    }
}
