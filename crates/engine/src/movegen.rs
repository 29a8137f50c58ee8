//! Turn generation with the exact rules of SPEC.md §1.
//!
//! One walker enumerates every turn: first the capturing steps found with set operations over all
//! stones at once, then each chain depth first with the same stone. What happens to each turn is
//! up to a [`TurnVisitor`]: the notation list ([`turns`]), a counter ([`count_turns`], used by
//! perft) and the distinct child positions ([`children`], what a solver needs) are three visitors
//! of the same walk, so they cannot disagree.
//!
//! The rules, as implemented here:
//! - a capture is compulsory: paika (non-capturing steps) only when no stone can capture;
//! - approach: the point beyond the destination holds an enemy; withdrawal: the point behind the
//!   origin does; either takes that stone and the unbroken enemy run behind it on the same line;
//! - a step that is both is two turns;
//! - after a capture the same stone may go on capturing, and may stop after any step; it never
//!   lands on a point it occupied earlier in the turn (its origin included) and never steps in
//!   the direction of its previous step.

use crate::bitboard::{Bitboard, Point};
use crate::geometry::{Board, Direction, Surroundings};
use crate::position::Position;

/// How a step captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Capture {
    /// A paika: no capture (only ever the single step of a turn).
    None,
    Approach,
    Withdrawal,
}

/// One step of a turn: where the stone lands and how it captured.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Step {
    pub to: Point,
    pub capture: Capture,
}

/// A whole turn (one ply): the stone's origin, its steps, and the position it leads to.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Turn {
    pub origin: Point,
    pub steps: Vec<Step>,
    pub result: Position,
}

impl Turn {
    pub fn is_capture(&self) -> bool {
        self.steps[0].capture != Capture::None
    }
}

/// Receives every turn of a position as the walker finds it.
pub trait TurnVisitor {
    /// A visitor that only counts turns. The walker may then count a turn it knows ends (a paika,
    /// or a capture after which the chain cannot go on) with [`TurnVisitor::count`], without
    /// playing it.
    const COUNT_ONLY: bool = false;

    /// A complete turn from `origin` through `steps`, leaving the side that moved with `mover` and
    /// its opponent with `waiting` (colours not yet swapped).
    fn turn(&mut self, origin: Point, steps: &[Step], mover: Bitboard, waiting: Bitboard);

    /// `turns` more turns, not played; only called when [`TurnVisitor::COUNT_ONLY`].
    fn count(&mut self, turns: u64) {
        let _ = turns;
    }
}

/// The points from which a capturing step is possible in each direction, for a stone standing
/// there, given the empty points and the waiting stones.
struct CaptureReach {
    approach: [Bitboard; 8],
    withdrawal: [Bitboard; 8],
    /// `elsewhere[d]`: the points from which a capture is possible in a direction other than `d`.
    elsewhere: [Bitboard; 8],
}

impl CaptureReach {
    #[inline(always)]
    fn new(board: &Board, waiting: Bitboard, empty: Bitboard) -> CaptureReach {
        let mut approach = [Bitboard::EMPTY; 8];
        let mut withdrawal = [Bitboard::EMPTY; 8];
        for dir in Direction::ALL {
            let can_step = board.pull(empty, dir);
            approach[dir.index()] = can_step & board.pull(board.pull(waiting, dir), dir);
            withdrawal[dir.index()] = can_step & board.shift(waiting, dir);
        }
        // Unions of the directions before and after each one, so each "all but d" is one OR.
        let mut before = [Bitboard::EMPTY; 8];
        let mut after = [Bitboard::EMPTY; 8];
        for d in 1..8 {
            before[d] = before[d - 1] | approach[d - 1] | withdrawal[d - 1];
            after[7 - d] = after[8 - d] | approach[8 - d] | withdrawal[8 - d];
        }
        let elsewhere = std::array::from_fn(|d| before[d] | after[d]);
        CaptureReach {
            approach,
            withdrawal,
            elsewhere,
        }
    }
}

/// A capturing step of the stone on `from` in direction `dir`: where it lands, and the enemy
/// stones left.
#[inline(always)]
fn play_capture(
    board: &Board,
    from: Point,
    dir: Direction,
    capture: Capture,
    waiting: Bitboard,
) -> (Point, Bitboard) {
    let to = board.neighbour_point(from, dir);
    // An approach takes the run beyond the landing point, a withdrawal the run behind the
    // origin. Chosen with arithmetic, not a branch: which one it is follows no pattern a
    // predictor could learn.
    let withdrawal = (capture == Capture::Withdrawal) as u8;
    let run_start = to ^ ((to ^ from) & withdrawal.wrapping_neg());
    let run_direction = Direction::from_index(dir.index() ^ (7 * withdrawal as usize));
    (
        to,
        waiting ^ board.run_from(run_start, run_direction, waiting),
    )
}

/// Walk every turn of the side to move (`mover`) against `waiting`.
#[inline]
pub fn visit_turns<V: TurnVisitor>(
    board: &Board,
    mover: Bitboard,
    waiting: Bitboard,
    visitor: &mut V,
) {
    let mut walker = ChainWalker {
        board,
        visitor,
        origin: 0,
        others: Bitboard::EMPTY,
        steps: [FILLER; MAX_STEPS],
        len: 0,
    };
    if !walker.first_captures(mover, waiting) {
        visit_paika(board, mover, waiting, walker.visitor);
    }
}

fn visit_paika<V: TurnVisitor>(board: &Board, mover: Bitboard, waiting: Bitboard, visitor: &mut V) {
    let empty = board.all() & !(mover | waiting);
    for dir in Direction::ALL {
        let origins = mover & board.pull(empty, dir);
        if V::COUNT_ONLY {
            visitor.count(origins.count() as u64);
            continue;
        }
        for origin in origins.points() {
            let from = Bitboard::from_point(origin);
            let to = board.shift(from, dir);
            visitor.turn(
                origin,
                &[Step {
                    to: to.first(),
                    capture: Capture::None,
                }],
                mover ^ from ^ to,
                waiting,
            );
        }
    }
}

/// Whether the side to move has a capture (and so may not play a paika).
pub fn has_capture(board: &Board, mover: Bitboard, waiting: Bitboard) -> bool {
    let empty = board.all() & !(mover | waiting);
    CaptureThreats::new(board, waiting).any(board, mover, empty)
}

/// The points from which a step in each direction would capture one of a set of stones: the
/// stone is two points ahead (approach) or one behind (withdrawal). Made once for the stones
/// that can be taken, it answers [`has_capture`] for any movers and empty points: the un-moves
/// of a position all share their targets.
pub struct CaptureThreats {
    by_direction: [Bitboard; 8],
}

impl CaptureThreats {
    #[inline(always)]
    pub fn new(board: &Board, targets: Bitboard) -> CaptureThreats {
        CaptureThreats {
            by_direction: Direction::ALL
                .map(|dir| board.pull(board.pull(targets, dir), dir) | board.shift(targets, dir)),
        }
    }

    /// The points from which a step onto `target` (one point) captures, whatever is there.
    #[inline(always)]
    pub fn stepping_into(&self, board: &Board, target: Bitboard) -> Bitboard {
        let mut from = Bitboard::EMPTY;
        for dir in Direction::ALL {
            from |= board.pull(target, dir) & self.by_direction[dir.index()];
        }
        from
    }

    /// Whether a stone of `mover` can capture, stepping to an empty point.
    #[inline(always)]
    pub fn any(&self, board: &Board, mover: Bitboard, empty: Bitboard) -> bool {
        let mut capturing = Bitboard::EMPTY;
        for dir in Direction::ALL {
            capturing |= board.pull(empty, dir) & self.by_direction[dir.index()];
        }
        (mover & capturing).any()
    }
}

/// Appends the positions from which a paika leads to `position`: the side that just moved
/// (now waiting) stepped one stone onto its current point from a neighbouring empty point, and
/// had no capture at the time (else the paika was not legal). The un-moves of retrograde
/// analysis; capture turns are not undone (they change the material).
///
/// Whether the side had a capture before its step is worked out from where its stones could
/// capture now, for all un-moves at once, since an un-move changes two points only: its
/// stone's point (empty before) and its origin (occupied before). A stone other than the one
/// that stepped had a capture before if it could step into the point the stone arrived on and
/// capture, or has a capture now into two empty points or more (at most one of them is the
/// origin), or into one that is not the origin. The stone that stepped had one at its origin
/// if it could capture from there into an empty point now, or by stepping back.
pub fn paika_predecessors(board: &Board, position: &Position, out: &mut Vec<Position>) {
    let (mover, waiting) = (position.mover, position.waiting);
    let empty = board.all() & !(mover | waiting);
    let threats = CaptureThreats::new(board, mover);
    // The points from which a step into an empty point captures now: by one step or more, by
    // two or more; and the points onto which a stone of the waiting side steps and captures.
    let (mut once, mut twice, mut stepped_onto) =
        (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    for dir in Direction::ALL {
        let capturing = board.pull(empty, dir) & threats.by_direction[dir.index()];
        twice |= once & capturing;
        once |= capturing;
        stepped_onto |= board.shift(waiting & threats.by_direction[dir.index()], dir);
    }
    let (double, single) = (waiting & twice, waiting & once & !twice);
    if double.count() > 1 {
        return;
    }
    for dir in Direction::ALL {
        // A stone now on `to` came from `to - dir`, which must be empty now.
        let mut arrived = waiting & board.shift(empty, dir) & !stepped_onto;
        // Its origin (from which stepping back, or into an empty point, captures) ...
        arrived &= !board.shift(once | threats.by_direction[dir.index()], dir);
        // ... and no other stone with two captures.
        if double.any() {
            arrived &= double;
        }
        for to in arrived.points() {
            let to = Bitboard::from_point(to);
            let from = board.pull(to, dir);
            // The other stones with one capture must each lose it: it went into the origin.
            let others = single & !to;
            if others.any() && (others & !threats.stepping_into(board, from)).any() {
                continue;
            }
            out.push(Position {
                mover: waiting ^ to ^ from,
                waiting: mover,
                side: position.side.other(),
            });
        }
    }
}

/// Whether the side to move has any legal turn at all. A stone that can capture can also step,
/// so it is enough to look for a stone next to an empty point along a line.
pub fn has_turn(board: &Board, mover: Bitboard, waiting: Bitboard) -> bool {
    let empty = board.all() & !(mover | waiting);
    Direction::ALL
        .into_iter()
        .any(|dir| (mover & board.pull(empty, dir)).any())
}

/// A chain has at most one step per point it can land on.
const MAX_STEPS: usize = 64;
const FILLER: Step = Step {
    to: 0,
    capture: Capture::None,
};

/// Depth-first walk of capture chains, keeping the steps of the current turn.
struct ChainWalker<'a, V> {
    board: &'a Board,
    visitor: &'a mut V,
    origin: Point,
    /// The mover's stones other than the one making the turn.
    others: Bitboard,
    steps: [Step; MAX_STEPS],
    len: usize,
}

impl<V: TurnVisitor> ChainWalker<'_, V> {
    /// Every turn that starts with a capture; false if there is none.
    ///
    /// Whether a first capture can continue is decided for all stones at once from the position
    /// before the turn: the stones it takes lie on its own line, where the next step is either in
    /// the same direction (forbidden) or back onto its origin (visited), so they never matter.
    #[inline(always)]
    fn first_captures(&mut self, mover: Bitboard, waiting: Bitboard) -> bool {
        let board = self.board;
        let empty = board.all() & !(mover | waiting);
        let reach = CaptureReach::new(board, waiting, empty);
        let mut capturers = Bitboard::EMPTY;
        // Per (kind, direction), bit `kind * 8 + direction`: the origins whose chain may go on.
        let mut chains = [Bitboard::EMPTY; 16];
        let mut chain_kinds = 0u16;
        for dir in Direction::ALL {
            let may_continue = board.pull(reach.elsewhere[dir.index()], dir);
            let kinds = [
                (Capture::Approach, reach.approach[dir.index()]),
                (Capture::Withdrawal, reach.withdrawal[dir.index()]),
            ];
            for (kind_index, (capture, reach)) in kinds.into_iter().enumerate() {
                let origins = mover & reach;
                capturers |= origins;
                self.final_captures(mover, waiting, dir, capture, origins & !may_continue);
                let bit = kind_index * 8 + dir.index();
                chains[bit] = origins & may_continue;
                chain_kinds |= (chains[bit].any() as u16) << bit;
            }
        }
        while chain_kinds != 0 {
            let bit = chain_kinds.trailing_zeros();
            chain_kinds &= chain_kinds - 1;
            for origin in chains[bit as usize].points() {
                self.start(origin, mover, waiting, empty, bit);
            }
        }
        capturers.any()
    }

    /// Single-step captures in direction `dir` from every point of `origins`, where none can go on.
    #[inline(always)]
    fn final_captures(
        &mut self,
        mover: Bitboard,
        waiting: Bitboard,
        dir: Direction,
        capture: Capture,
        origins: Bitboard,
    ) {
        if V::COUNT_ONLY {
            self.visitor.count(origins.count() as u64);
            return;
        }
        for origin in origins.points() {
            let (to, waiting_after) = play_capture(self.board, origin, dir, capture, waiting);
            let moved = Bitboard::from_point(origin) | Bitboard::from_point(to);
            self.visitor.turn(
                origin,
                &[Step { to, capture }],
                mover ^ moved,
                waiting_after,
            );
        }
    }

    /// A chain from `origin` that starts with the capturing step `step` (see [`step_of`];
    /// `empty`: the empty points before the turn).
    #[inline(always)]
    fn start(
        &mut self,
        origin: Point,
        mover: Bitboard,
        waiting: Bitboard,
        empty: Bitboard,
        step: u32,
    ) {
        self.origin = origin;
        let from = Bitboard::from_point(origin);
        self.others = mover ^ from;
        let dir = step_of(step).0;
        let landing = self.board.surroundings_after_step(origin, dir);
        let next = continuation_directions(landing, empty, waiting, dir);
        if V::COUNT_ONLY {
            let turns = count_chain(self.board, waiting, origin, step, mover, next);
            self.visitor.count(turns);
            return;
        }
        // `blocked`: the other stones of the mover and the points visited in this turn.
        self.capture(waiting, from, step, mover, next);
    }

    /// Play the capturing step `step` of the moving stone at `from`, report the turn that stops
    /// there, and follow the continuations `next` (approach directions in the low byte,
    /// withdrawal in the high byte, worked out before the step). `blocked` holds the mover's
    /// other stones and every point the moving stone has occupied. (Counting visitors never get
    /// here: [`count_chain`] counts chains without reporting them.)
    fn capture(
        &mut self,
        waiting: Bitboard,
        from: Bitboard,
        step: u32,
        blocked: Bitboard,
        next: u16,
    ) {
        let (dir, capture) = step_of(step);
        let (to_point, waiting) = play_capture(self.board, from.first(), dir, capture, waiting);
        let to = Bitboard::from_point(to_point);
        // A chain lands on a new point each step, so it has fewer than 64 steps.
        self.steps[self.len & (MAX_STEPS - 1)] = Step {
            to: to_point,
            capture,
        };
        self.len += 1;
        self.visitor.turn(
            self.origin,
            &self.steps[..self.len],
            self.others | to,
            waiting,
        );
        self.continue_chain(waiting, to, blocked | to, next);
        self.len -= 1;
    }

    /// The continuations of the stone at `at` in the directions of `next`.
    #[inline(always)]
    fn continue_chain(&mut self, waiting: Bitboard, at: Bitboard, blocked: Bitboard, next: u16) {
        let mut candidates = next;
        if candidates == 0 {
            return;
        }
        let board = self.board;
        let free = board.all() & !(blocked | waiting);
        let at_point = at.first();
        while candidates != 0 {
            let step = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let dir = step_of(step).0;
            // Where the stone can go from its next landing point does not depend on what
            // this step takes (see `first_captures`), so it is known before playing it.
            let landing = board.surroundings_after_step(at_point, dir);
            let after = continuation_directions(landing, free, waiting, dir);
            self.capture(waiting, at, step, blocked, after);
        }
    }
}

/// The number of turns of a chain that starts with the capturing step `step` from `origin`
/// (`blocked`: the mover's stones, the moving one included; `next`: the continuations after the
/// first step, as in [`ChainWalker::capture`]).
///
/// The counting form of the walk, with its own stack instead of recursion: a chain node is then
/// a few register moves, where a call saved and restored six registers and spilled the rest.
#[inline(always)]
fn count_chain(
    board: &Board,
    waiting: Bitboard,
    origin: Point,
    step: u32,
    mover: Bitboard,
    next: u16,
) -> u64 {
    /// A chain node left to come back to: the enemy stones, where the stone stands, the points
    /// it may land on, and the steps from there still to try.
    #[derive(Clone, Copy)]
    struct Node {
        waiting: Bitboard,
        free: Bitboard,
        at: Point,
        candidates: u16,
    }
    let mut stack = [std::mem::MaybeUninit::<Node>::uninit(); MAX_STEPS];
    let mut depth = 0usize;
    let mut turns = 1;
    let (dir, capture) = step_of(step);
    let (mut at, mut waiting) = play_capture(board, origin, dir, capture, waiting);
    // Empty and not yet visited: the origin stays blocked, as the mover's stones do.
    let mut free = board.all() & !(mover | waiting) & !Bitboard::from_point(at);
    let mut candidates = next;
    loop {
        while candidates != 0 {
            let step = candidates.trailing_zeros();
            candidates &= candidates - 1;
            let (dir, capture) = step_of(step);
            let landing = board.surroundings_after_step(at, dir);
            let after = continuation_directions(landing, free, waiting, dir);
            turns += 1;
            if after != 0 {
                // Come back to this node only if it has steps left to try. A chain lands on a
                // new point each step, so it has fewer than 64 steps.
                if candidates != 0 {
                    stack[depth & (MAX_STEPS - 1)].write(Node {
                        waiting,
                        free,
                        at,
                        candidates,
                    });
                    depth += 1;
                }
                let before = waiting;
                (at, waiting) = play_capture(board, at, dir, capture, waiting);
                // The landing point was free; the captured points now are.
                free = (free ^ Bitboard::from_point(at)) | (before ^ waiting);
                candidates = after;
            }
        }
        if depth == 0 {
            return turns;
        }
        depth -= 1;
        // Safety: every node below `depth` was written when it was pushed.
        let node = unsafe { stack[depth & (MAX_STEPS - 1)].assume_init() };
        (waiting, free, at, candidates) = (node.waiting, node.free, node.at, node.candidates);
    }
}

/// A capturing step as a number 0..16: the direction's index, plus 8 for a withdrawal.
#[inline(always)]
fn step_of(step: u32) -> (Direction, Capture) {
    let capture = if step < 8 {
        Capture::Approach
    } else {
        Capture::Withdrawal
    };
    (Direction::from_index(step as usize), capture)
}

/// The capturing steps (as [`step_of`] numbers, one bit each) with which the stone on the point
/// of `at` (its surroundings) can go on after a step in direction `last`: approaches in the low
/// byte, withdrawals in the high byte, all directions at once.
#[inline(always)]
fn continuation_directions(
    at: &Surroundings,
    free: Bitboard,
    waiting: Bitboard,
    last: Direction,
) -> u16 {
    let open = at.neighbours_in(free) & !(1u8 << last.index());
    let enemy_beyond = at.jumps_in(waiting);
    // An enemy next to `at` in direction d is behind a step in the opposite direction, 7 − d.
    let enemy_behind = REVERSED[at.neighbours_in(waiting) as usize];
    (open & enemy_beyond) as u16 | ((open & enemy_behind) as u16) << 8
}

/// `REVERSED[b]` is the byte `b` with its bits in reverse order: direction `d` to `7 − d`.
/// (A table: `u8::reverse_bits` goes through vector registers on x86-64 and costs more.)
const REVERSED: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = (byte as u8).reverse_bits();
        byte += 1;
    }
    table
};

/// Collects the turns with their steps and resulting positions.
struct TurnList<'a> {
    parent: &'a Position,
    turns: Vec<Turn>,
}

impl TurnVisitor for TurnList<'_> {
    fn turn(&mut self, origin: Point, steps: &[Step], mover: Bitboard, waiting: Bitboard) {
        let result = self.parent.after(mover, waiting);
        self.turns.push(Turn {
            origin,
            steps: steps.to_vec(),
            result,
        });
    }
}

/// Every legal turn of `position`, sorted by origin and steps.
pub fn turns(board: &Board, position: &Position) -> Vec<Turn> {
    let mut list = TurnList {
        parent: position,
        turns: Vec::new(),
    };
    visit_turns(board, position.mover, position.waiting, &mut list);
    list.turns.sort_unstable();
    list.turns
}

/// Counts turns, most of them without playing them.
struct TurnCounter(u64);

impl TurnVisitor for TurnCounter {
    const COUNT_ONLY: bool = true;

    #[inline(always)]
    fn turn(&mut self, _: Point, _: &[Step], _: Bitboard, _: Bitboard) {
        self.0 += 1;
    }

    #[inline(always)]
    fn count(&mut self, turns: u64) {
        self.0 += turns;
    }
}

/// The number of legal turns of `position` (every chain and every stopping point counted).
#[inline]
pub fn count_turns(board: &Board, position: &Position) -> u64 {
    count_turns_of_sides(board, position.mover, position.waiting)
}

/// [`count_turns`] for the side to move `mover` against `waiting`.
#[inline]
pub fn count_turns_of_sides(board: &Board, mover: Bitboard, waiting: Bitboard) -> u64 {
    let mut counter = TurnCounter(0);
    visit_turns(board, mover, waiting, &mut counter);
    counter.0
}

/// Collects the child positions, duplicates included.
struct ChildList<'a> {
    parent: &'a Position,
    children: &'a mut Vec<Position>,
}

impl TurnVisitor for ChildList<'_> {
    #[inline(always)]
    fn turn(&mut self, _: Point, _: &[Step], mover: Bitboard, waiting: Bitboard) {
        self.children.push(self.parent.after(mover, waiting));
    }
}

/// Appends the position after every turn of `position` to `out`, one per turn, duplicates kept.
pub fn all_children(board: &Board, position: &Position, out: &mut Vec<Position>) {
    visit_turns(
        board,
        position.mover,
        position.waiting,
        &mut ChildList {
            parent: position,
            children: out,
        },
    );
}

/// Appends the position after every paika of `position` to `out`: its children, in the order
/// of [`children`], when its side to move has no capture. For retrograde analysis, which knows
/// that of the positions it checks and so need not look for captures first; paika lead to
/// distinct positions.
pub fn paika_children(board: &Board, position: &Position, out: &mut Vec<Position>) {
    debug_assert!(!has_capture(board, position.mover, position.waiting));
    visit_paika(
        board,
        position.mover,
        position.waiting,
        &mut ChildList {
            parent: position,
            children: out,
        },
    );
}

/// Puts first the child that leaves the opponent (its side to move) the fewest stones: after a
/// capture, the one most likely lost for the opponent, for a builder or checker that looks at
/// one child first and stops at a lost one. Paika children all keep the stones: they stay as
/// they are.
pub fn most_capturing_first(children: &mut [Position]) {
    let fewest = (0..children.len()).min_by_key(|&k| children[k].mover.count());
    if let Some(fewest) = fewest {
        children.swap(0, fewest);
    }
}

/// Appends the distinct positions that the turns of `position` lead to.
pub fn children(board: &Board, position: &Position, out: &mut Vec<Position>) {
    let mut distinct = DistinctChildren {
        parent: position,
        start: out.len(),
        children: out,
        seen: [0; 16],
    };
    visit_turns(board, position.mover, position.waiting, &mut distinct);
}

/// Collects child positions, each once. Duplicates are rare, so a 1,024-bit filter of hashes
/// answers "certainly new" for almost every child; only a hit in the filter pays for a scan of
/// the children found so far.
struct DistinctChildren<'a> {
    parent: &'a Position,
    children: &'a mut Vec<Position>,
    /// Where this position's children begin in `children`.
    start: usize,
    seen: [u64; 16],
}

impl TurnVisitor for DistinctChildren<'_> {
    #[inline(always)]
    fn turn(&mut self, _: Point, _: &[Step], mover: Bitboard, waiting: Bitboard) {
        let child = self.parent.after(mover, waiting);
        let hash = (mover.0 ^ waiting.0.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 54;
        let (word, bit) = ((hash >> 6) as usize, 1u64 << (hash & 63));
        if self.seen[word] & bit != 0 && self.children[self.start..].contains(&child) {
            return;
        }
        self.seen[word] |= bit;
        self.children.push(child);
    }
}
