//! Split search: "can SIDE force a win from P?" answered by many small searches instead of one.
//!
//! One proof-number search of a hard 5x9 question can run billions of nodes without settling,
//! where most positions a few turns deeper settle in thousands to millions. A split search
//! searches apart each position a turn from P leads to (one search and one transposition table
//! each, the same node budget), and splits again the ones left open:
//! - where SIDE moves, one turn after which SIDE wins settles a position as "yes", and every
//!   turn answered "no" settles it as "no";
//! - where the other side moves, one turn after which SIDE cannot win settles it as "no", and
//!   every turn answered "yes" settles it as "yes".
//!
//! Which open position to split next is chosen best first, as PN² does at its top level: the
//! positions split make a tree whose leaves carry the proof and disproof numbers their searches
//! stopped at, combined upwards by df-pn's rule, and the next split is at the leaf reached from
//! the root by the turn of least proof number where SIDE moves and of least disproof number
//! where it waits: the position the whole question is nearest to settling through. (Splitting
//! one level deeper at a time instead spread the work over every open line: on 3x7 it took
//! twice the searches.)
//!
//! The turns of a position are searched in two passes: each first with a small budget (see
//! [`FIRST_NODES`]), where most settle; then those left open with the whole budget, the one
//! whose small search came nearest to settling the position first, since one turn may settle
//! it and spare the others their whole budgets.
//!
//! A batch of fewer open searches than `parallel` (a position of two or three turns, the last
//! long search of a batch) would leave threads idle: they search ahead meanwhile, with the
//! whole budget, the turns of the open leaves best first would split next (see
//! [`Splitter::plan_lookahead`]). Their answers go to the store and the run's answers, where
//! the split finds them when it gets there.
//!
//! The certificates of the searches are joined at each position that settles (see
//! [`Claim::joined`]), so that a settled split ends with one certificate of the question, which
//! the independent checker confirms like any other.
//!
//! Every answer, with its certificate, can be kept in a directory ([`SplitSetup::store`]): a
//! later run with the same directory reads back what was settled, and searches again only what
//! was left open with a smaller budget than its own, or over fewer tables (each answer names
//! the tables its search probed). It first rebuilds the split as the store has it (every open
//! position an earlier run split is split again, its turns read back), then goes on best
//! first: a leaf left open by a smaller budget or fewer tables is searched again, with its
//! siblings left so, when best first reaches it. As in PN², only the leaves of the tree get the
//! larger budget, and only as they are needed.
//!
//! Each search sees the repetitions of its own lines only, so it is sound on its own; but a
//! split gains nothing where the lines after one turn run back through the others (a draw held
//! by repetition across the split position needs the whole search anyway).

use crate::certificate::{Certificate, Claim, Goal, Node};
use crate::index::Material;
use crate::progress::Progress;
use crate::search::{Limits, Outcome};
use crate::solve::{solve_keeping_outcomes, SolveError, SolveSetup};
use crate::taken::{certificate_of, over_these_tables, table_reach};
use fanorona_engine::{format_position, format_turn, turns, Color, Position};
use std::collections::{HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// The budget and table of the first, small search of each position. Most positions of a
/// split settle in it (5x9 after e2-e3A, twentieth session: 295 of 323 settled searches took
/// under a million nodes), and a table this size costs nothing to set up, where the system
/// zeroes a table of the full --memory page by page on first touch (2 GiB: seconds, more than
/// most of these searches take). A search it leaves open costs these nodes again, at most a
/// few percent of the whole budget.
pub const FIRST_NODES: u64 = 1 << 20;
pub const FIRST_MEMORY: usize = 64 << 20;

/// What a split search needs besides the position.
#[derive(Clone, Copy)]
pub struct SplitSetup<'a> {
    /// The setup of every search: its `limits` are each search's budget. Its `only`, `state`
    /// and `save_every` are set by the split (one side's question, nothing saved).
    pub solve: SolveSetup<'a>,
    /// The side whose "can it force a win?" is asked.
    pub side: Color,
    /// How many levels of turns below the position may be split (0: its turns are searched,
    /// none split further).
    pub depth: usize,
    /// How many searches to run at once (each with its own transposition table).
    pub parallel: usize,
    /// Where to keep every answer (and certificate) between runs.
    pub store: Option<&'a Path>,
    /// Search nothing: rebuild the split from the store alone, as far as earlier runs took it
    /// (every answer recalled, whatever its budget), to see where it stands. The store is
    /// read, never written.
    pub recall_only: bool,
}

/// How a turn's answer was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// By one search of the position it leads to.
    Searched,
    /// By splitting that position in turn.
    Split,
    /// Read back from the store, as an earlier run found it.
    Recalled,
    /// Not at all: another turn settled the position first, or Ctrl-C came.
    NotSearched,
    /// As the position before it: the only turn of a position whose search was left open
    /// (see [`Splitter::forced_answer`]).
    Forced,
}

impl Found {
    pub fn name(self) -> &'static str {
        match self {
            Found::Searched => "search",
            Found::Split => "split",
            Found::Recalled => "recalled",
            Found::NotSearched => "not searched",
            Found::Forced => "forced",
        }
    }
}

/// One turn of a split position and its answer.
#[derive(Debug, Clone)]
pub struct SplitTurn {
    /// Every turn that leads to the same position, in notation.
    pub notation: Vec<String>,
    pub position: Position,
    /// Can SIDE force a win there?
    pub outcome: Outcome,
    /// Nodes its search took (in the run that searched it); 0 where it was split or recalled.
    pub nodes: u64,
    pub found: Found,
}

/// A position whose turns were searched apart, as it ended.
#[derive(Debug, Clone)]
pub struct SplitPosition {
    /// The turns from the split's root that lead here (the first of each).
    pub line: Vec<String>,
    pub position: Position,
    pub outcome: Outcome,
    pub turns: Vec<SplitTurn>,
    /// Whether a position above it on its line is settled: split while that was open, its
    /// answer no longer bears on the question, so it is no place to search further.
    pub moot: bool,
}

/// The answer of a split search.
#[derive(Debug)]
pub struct Split {
    /// Can SIDE force a win from the position?
    pub outcome: Outcome,
    /// Where it settled and certificates were asked for: SIDE's win, or the other side's hold,
    /// as a certificate of the position (not yet checked).
    pub certificate: Option<Certificate>,
    /// Nodes and searches of this run; answers read back from the store.
    pub nodes: u64,
    pub searches: usize,
    pub recalled: usize,
    /// Of `searches`, those run ahead by threads a batch left idle (see the module's notes).
    pub searched_ahead: usize,
    /// Every position split, in the order they were.
    pub positions: Vec<SplitPosition>,
}

/// Answer "can `setup.side` force a win from `root`?" by splitting (see the module's notes).
pub fn split(setup: &SplitSetup, root: &Position) -> Result<Split, SolveError> {
    let searches_progress = NodesOnly(setup.solve.progress);
    let mut splitter = Splitter {
        setup: *setup,
        solve: SolveSetup {
            only: Some(setup.side),
            state: None,
            save_every: None,
            progress: &searches_progress,
            ..setup.solve
        },
        nodes: 0,
        searches: 0,
        recalled: 0,
        positions: Vec::new(),
        known: HashMap::new(),
        tree: Vec::new(),
        split_order: Vec::new(),
        splits: 0,
        lookahead: Vec::new(),
        lookahead_next: AtomicUsize::new(0),
        looked_ahead: Mutex::new(Vec::new()),
        searched_ahead: 0,
    };
    let answer = splitter.best_first(root)?;
    let certificate = answer
        .claim
        .map(|claim| certificate_of(&splitter.solve, root, Arc::unwrap_or_clone(claim)));
    Ok(Split {
        outcome: answer.outcome,
        certificate,
        nodes: splitter.nodes,
        searches: splitter.searches,
        recalled: splitter.recalled,
        searched_ahead: splitter.searched_ahead,
        positions: splitter.positions,
    })
}

/// The progress of the searches: their nodes only. Their notes (thousands of searches, each
/// saying how it ended) would drown the split's own, one per position split.
struct NodesOnly<'a>(&'a dyn Progress);

impl Progress for NodesOnly<'_> {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, units: u64) {
        self.0.advance(units);
    }
    fn note(&self, _: &str) {}
}

/// The answer at one position: SIDE's question, and the claim that proves it where settled.
#[derive(Clone)]
struct Answer {
    outcome: Outcome,
    /// The numbers of its search where it stayed open: (proof, disproof).
    numbers: Option<(u32, u32)>,
    nodes: u64,
    claim: Option<Arc<Claim>>,
    found: Found,
    /// Open after a smaller budget than this run's, or over fewer tables, as read back from
    /// the store: searched again with this run's budget and tables when best first reaches
    /// it.
    stale: bool,
}

struct Splitter<'a> {
    setup: SplitSetup<'a>,
    solve: SolveSetup<'a>,
    nodes: u64,
    searches: usize,
    recalled: usize,
    positions: Vec<SplitPosition>,
    /// Every answer found in this run (searched, split or recalled), by position.
    known: HashMap<Node, Answer>,
    /// The positions of the split: the root first, every turn of a split position a node.
    tree: Vec<TreeNode>,
    /// The nodes split, in the order they were.
    split_order: Vec<usize>,
    /// How many positions were split.
    splits: usize,
    /// Positions that threads a batch leaves idle search meanwhile (see
    /// [`Splitter::plan_lookahead`]), the next to take at `lookahead_next`.
    lookahead: Vec<Position>,
    lookahead_next: AtomicUsize,
    /// Their searches as they end, taken into the run's answers after each pass.
    looked_ahead: Mutex<Vec<(Position, Result<Searched, SolveError>)>>,
    searched_ahead: usize,
}

/// A position of the split tree.
struct TreeNode {
    position: Position,
    /// The turns from the root that lead here (the first of each).
    line: Vec<String>,
    answer: Answer,
    /// Its proof and disproof numbers as last evaluated (see [`Splitter::evaluate`]).
    numbers: (u64, u64),
    /// Once split: each distinct position a turn leads to (every turn that leads there, and
    /// its node).
    turns: Option<Vec<(Vec<String>, usize)>>,
    /// The node whose turn leads here (none for the root).
    parent: Option<usize>,
}

/// An infinite proof or disproof number.
const INFINITE: u64 = u64::MAX;

/// A search's numbers (its own infinite, `u32::MAX`, kept infinite); at least 1 each, as an
/// open position's are.
fn wide((proof, disproof): (u32, u32)) -> (u64, u64) {
    let wide = |n: u32| match n {
        u32::MAX => INFINITE,
        n => u64::from(n.max(1)),
    };
    (wide(proof), wide(disproof))
}

/// A position's distinct children, each with the turns that lead there.
fn children(setup: &SolveSetup, position: &Position) -> Vec<(Vec<String>, Position)> {
    let mut children: Vec<(Vec<String>, Position)> = Vec::new();
    for turn in turns(setup.board, position) {
        let notation = format_turn(setup.board, &turn);
        match children.iter_mut().find(|(_, child)| *child == turn.result) {
            Some((names, _)) => names.push(notation),
            None => children.push((vec![notation], turn.result)),
        }
    }
    children
}

impl<'a> Splitter<'a> {
    fn stopped(&self) -> bool {
        (self.solve.stop).is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// The answer at the root, by splitting best first: the root is split (its turns
    /// searched), the split the store keeps is rebuilt, and then, again and again, the open
    /// leaf the whole split is nearest to settling through (from the root, the turn of least
    /// proof number where SIDE moves, least disproof number where it waits, down to a leaf:
    /// df-pn's choice, over the numbers the searches stopped at) is split, or searched again
    /// where a smaller budget left it open, until the root settles, Ctrl-C comes, or no open
    /// leaf is left that could settle it (`depth`, or one that repeats a position of its own
    /// line).
    fn best_first(&mut self, root: &Position) -> Result<Answer, SolveError> {
        if let Some(answer) = self.recall(root)? {
            if answer.outcome != Outcome::Unknown {
                return Ok(answer);
            }
        }
        if !self.splittable(root) {
            // Decided by the rules or the tables: one search answers at once.
            let mut answers = self.search_all(&[*root], None, true, "the root")?;
            return Ok(answers.remove(0));
        }
        self.tree.push(TreeNode {
            position: *root,
            line: Vec::new(),
            answer: unsearched(),
            numbers: (1, 1),
            turns: None,
            parent: None,
        });
        self.split_node(0, true)?;
        // The split as earlier runs left it, from the store.
        self.split_as_before()?;
        loop {
            let (proof, disproof) = self.evaluate(0, &mut Vec::new())?;
            let settled = self.tree[0].answer.outcome != Outcome::Unknown;
            let stuck = proof == INFINITE && disproof == INFINITE;
            if settled || stuck || self.stopped() || self.setup.recall_only {
                break;
            }
            let leaf = self.most_proving(0, &[]);
            if let Some(leaf) = leaf {
                self.plan_lookahead(leaf);
            }
            match leaf {
                Some(leaf) if self.tree[leaf].answer.stale => {
                    let parent = self.tree[leaf].parent.expect("the root is split");
                    self.search_stale_turns(parent)?;
                }
                Some(leaf) => self.split_node(leaf, true)?,
                None => break,
            }
        }
        self.positions = self.report();
        Ok(self.tree[0].answer.clone())
    }

    /// Split again, breadth first from the root, every open position an earlier run split:
    /// the split as the store has it. Turns the store does not answer at all (a batch cut by
    /// Ctrl-C) are left to be searched when best first reaches them, as stale ones are. Each
    /// position is split again once, at the shortest line that reaches it (breadth first):
    /// the lines through a split's transpositions (stones stepping back and forth) are
    /// exponentially many, and a position met again is a leaf with its own answer, split
    /// again (its turns recalled, not searched) only if best first goes there. Depth first,
    /// a position a turn from the root could be met first six turns deep, through a stone
    /// stepping out and back, and be split there: named by that line, and nearer the depth
    /// limit.
    fn split_as_before(&mut self) -> Result<(), SolveError> {
        let mut rebuilt: HashSet<Node> = HashSet::new();
        let mut queue = VecDeque::from([0]);
        while let Some(index) = queue.pop_front() {
            let node = &self.tree[index];
            if !rebuilt.insert(Node::of(&node.position)) {
                continue;
            }
            if node.turns.is_none() {
                let open = node.answer.outcome == Outcome::Unknown;
                let path: Vec<Node> = self.above(index).map(|n| Node::of(&n.position)).collect();
                if !(open && self.may_split(index, &path) && self.split_before(&node.position)) {
                    continue;
                }
                self.split_node(index, false)?;
            }
            let children = self.tree[index].turns.iter().flatten();
            queue.extend(children.map(|&(_, child)| child));
        }
        Ok(())
    }

    /// The nodes above node `index` on its line from the root, its parent first.
    fn above(&self, index: usize) -> impl Iterator<Item = &TreeNode> {
        let parent = |node: &TreeNode| node.parent.map(|above| &self.tree[above]);
        std::iter::successors(parent(&self.tree[index]), move |node| parent(node))
    }

    /// Whether `position` has turns to split and is not answered by the tables.
    fn splittable(&self, position: &Position) -> bool {
        let material = Material::new(
            position.mover.count() as usize,
            position.waiting.count() as usize,
        );
        let in_tables = self.solve.tables.is_some_and(|t| t.covers(material));
        !in_tables && !turns(self.solve.board, position).is_empty()
    }

    /// Split the tree's node `index`: answer each position its turns lead to (searching now
    /// those the store does not answer, or with `search_now` false leaving them to be
    /// searched when best first reaches them), and add them to the tree.
    fn split_node(&mut self, index: usize, search_now: bool) -> Result<(), SolveError> {
        let position = self.tree[index].position;
        self.mark_split(&position)?;
        let children = children(&self.solve, &position);
        let positions: Vec<Position> = children.iter().map(|(_, child)| *child).collect();
        let settling = Some(self.settling_at(&position));
        let at = at_line(&self.tree[index].line);
        let answers = match self.forced_answer(index, &positions)? {
            Some(answer) => vec![answer],
            None => self.search_all(&positions, settling, search_now, &at)?,
        };
        self.splits += 1;
        self.note_counts(&position, &self.tree[index].line, &answers);
        let mut turns = Vec::new();
        for ((notation, child), answer) in children.into_iter().zip(answers) {
            let mut line = self.tree[index].line.clone();
            line.push(notation[0].clone());
            turns.push((notation, self.tree.len()));
            self.tree.push(TreeNode {
                position: child,
                line,
                answer,
                numbers: (1, 1),
                turns: None,
                parent: Some(index),
            });
        }
        self.tree[index].turns = Some(turns);
        self.split_order.push(index);
        Ok(())
    }

    /// The answer of the one position that the tree's node `index` leads to, where it has one
    /// distinct turn (a forced capture, a lone stone's one step) and was left open by a search
    /// with this run's budget: a search of that position would be the same search one ply
    /// shorter, open again with the same numbers, so it takes the node's answer instead of
    /// spending the budget again. (The d3-e3W split of the twenty-fourth session met three
    /// such positions in its last six splits, each a search of 100 M nodes.) Kept in the store
    /// like a searched answer, of 0 nodes. `None` where the store already answers it (that
    /// answer stands), or where the node has other turns or was not searched so.
    fn forced_answer(
        &mut self,
        index: usize,
        positions: &[Position],
    ) -> Result<Option<Answer>, SolveError> {
        let before = &self.tree[index].answer;
        let searched = matches!(
            before.found,
            Found::Searched | Found::Recalled | Found::Forced
        );
        let open = before.outcome == Outcome::Unknown && !before.stale && searched;
        let [only] = positions else {
            return Ok(None);
        };
        if !open || self.recall(only)?.is_some() {
            return Ok(None);
        }
        let answer = Answer {
            found: Found::Forced,
            nodes: 0,
            ..self.tree[index].answer.clone()
        };
        self.keep(only, &answer)?;
        Ok(Some(answer))
    }

    /// Search again, with this run's budget, the open turns of the tree's node `index` that
    /// an earlier run searched with a smaller one (best first reached one of them).
    fn search_stale_turns(&mut self, index: usize) -> Result<(), SolveError> {
        let node = &self.tree[index];
        let stale: Vec<usize> = (node.turns.iter().flatten())
            .map(|(_, child)| *child)
            .filter(|&child| self.tree[child].turns.is_none() && self.tree[child].answer.stale)
            .collect();
        let positions: Vec<Position> = stale.iter().map(|&c| self.tree[c].position).collect();
        let earlier: Vec<Option<(u32, u32)>> =
            stale.iter().map(|&c| self.tree[c].answer.numbers).collect();
        let settling = self.settling_at(&node.position);
        let at = at_line(&node.line);
        let answers = self.search_batch(&positions, &earlier, Some(settling), &at)?;
        let count = |outcome| answers.iter().filter(|a| a.outcome == outcome).count();
        self.setup.solve.progress.note(&format!(
            "{at}: {} turn{} searched again with {} nodes: {} wins after {}, cannot after {}, {} \
             open",
            stale.len(),
            if stale.len() == 1 { "" } else { "s" },
            self.solve.limits.nodes,
            self.setup.side.name(),
            count(Outcome::Proven),
            count(Outcome::Disproven),
            count(Outcome::Unknown),
        ));
        for (child, answer) in stale.into_iter().zip(answers) {
            // One not searched (Ctrl-C, or a turn that settled the position first) keeps its
            // earlier answer.
            if answer.found != Found::NotSearched {
                self.tree[child].answer = answer;
            }
        }
        Ok(())
    }

    /// The answer to SIDE's question that one turn settles `position` with: "yes" where SIDE
    /// moves, "no" where it waits.
    fn settling_at(&self, position: &Position) -> Outcome {
        match position.side == self.setup.side {
            true => Outcome::Proven,
            false => Outcome::Disproven,
        }
    }

    /// The proof and disproof numbers of the tree's node `index` (`path`: the positions of
    /// its line above it), stored in it; a split node whose turns settle it gets its answer
    /// (the certificates joined) and keeps it. An open leaf that may not be split, searched
    /// with this run's budget, has both numbers infinite: nothing can settle it.
    fn evaluate(&mut self, index: usize, path: &mut Vec<Node>) -> Result<(u64, u64), SolveError> {
        let node = &self.tree[index];
        let numbers = match (node.answer.outcome, &node.turns) {
            (Outcome::Proven, _) => (0, INFINITE),
            (Outcome::Disproven, _) => (INFINITE, 0),
            (Outcome::Unknown, None) => match node.answer.stale || self.may_split(index, path) {
                true => node.answer.numbers.map_or((1, 1), wide),
                false => (INFINITE, INFINITE),
            },
            (Outcome::Unknown, Some(turns)) => {
                let children: Vec<usize> = turns.iter().map(|(_, child)| *child).collect();
                path.push(Node::of(&node.position));
                let mut numbers = Vec::new();
                for &child in &children {
                    numbers.push(self.evaluate(child, path)?);
                }
                path.pop();
                self.combine(index, &children, &numbers)?
            }
        };
        self.tree[index].numbers = numbers;
        Ok(numbers)
    }

    /// The numbers of split node `index` from its children's (df-pn's rule: where SIDE moves,
    /// the least proof number and the sum of disproof numbers; where it waits, the sum of proof
    /// numbers and the least disproof number), and its answer where they settle it.
    fn combine(
        &mut self,
        index: usize,
        children: &[usize],
        numbers: &[(u64, u64)],
    ) -> Result<(u64, u64), SolveError> {
        let least = |pick: fn(&(u64, u64)) -> u64| numbers.iter().map(pick).min();
        let sum =
            |pick: fn(&(u64, u64)) -> u64| numbers.iter().map(pick).fold(0u64, u64::saturating_add);
        let position = self.tree[index].position;
        let (proof, disproof) = match position.side == self.setup.side {
            true => (least(|n| n.0).unwrap_or(INFINITE), sum(|n| n.1)),
            false => (sum(|n| n.0), least(|n| n.1).unwrap_or(INFINITE)),
        };
        if proof == 0 || disproof == 0 {
            let positions: Vec<Position> =
                children.iter().map(|&c| self.tree[c].position).collect();
            let answers: Vec<Answer> = children
                .iter()
                .map(|&c| self.tree[c].answer.clone())
                .collect();
            let answer = self.settle(&position, &positions, &answers);
            self.keep(&position, &answer)?;
            self.tree[index].answer = answer;
        }
        Ok((proof, disproof))
    }

    /// Whether the open leaf `index` may be split: within the depth asked for, not a repeat
    /// of a position of its own line (`path`), and with turns to split. A status splits only
    /// what the store has split, at any depth: it shows the store as earlier runs left it,
    /// whatever `--split-depth` they ran with.
    fn may_split(&self, index: usize, path: &[Node]) -> bool {
        let node = &self.tree[index];
        (self.setup.recall_only || node.line.len() <= self.setup.depth)
            && !path.contains(&Node::of(&node.position))
            && self.splittable(&node.position)
    }

    /// The open leaf to split (or search again) next, from node `index` down, passing over
    /// the leaves in `taken` (the lookahead's next ones; none for the split's own choice): at
    /// each split node the open turn of least proof number where SIDE moves, of least disproof
    /// number where it waits (then the least of the other number), the next where all below
    /// it are taken.
    fn most_proving(&self, index: usize, taken: &[usize]) -> Option<usize> {
        let node = &self.tree[index];
        let Some(turns) = &node.turns else {
            return (!taken.contains(&index)).then_some(index);
        };
        let side_moves = node.position.side == self.setup.side;
        // A turn whose number is infinite without being settled (a leaf that may not be
        // split, below it) can still settle the position the other way: it is taken where
        // no turn has that number finite, so that the question goes on while it can.
        let mut open: Vec<usize> = (turns.iter().map(|(_, child)| *child))
            .filter(|&child| self.tree[child].answer.outcome == Outcome::Unknown)
            .filter(|&child| self.tree[child].numbers != (INFINITE, INFINITE))
            .collect();
        open.sort_by_key(|&child| {
            let (proof, disproof) = self.tree[child].numbers;
            if side_moves {
                (proof, disproof)
            } else {
                (disproof, proof)
            }
        });
        (open.into_iter()).find_map(|child| self.most_proving(child, taken))
    }

    /// What threads left idle by the batches of the coming split of `leaf` search meanwhile:
    /// the turns of the open leaves best first would split after it, in that order (up to
    /// twice `parallel` positions, from at most four times `parallel` leaves), none that the
    /// run or the store already answers or the coming batch searches. Leaves left open by a
    /// smaller budget, too deep to split, or of one turn (see [`Splitter::forced_answer`])
    /// are passed over.
    fn plan_lookahead(&mut self, leaf: usize) {
        self.lookahead.clear();
        self.lookahead_next.store(0, Ordering::Relaxed);
        let parallel = self.setup.parallel;
        if parallel <= 1 || self.setup.recall_only {
            return;
        }
        // The coming batch: the leaf's turns (split), or its siblings (searched again).
        let leaf_turns = children(&self.solve, &self.tree[leaf].position);
        let mut coming: HashSet<Node> = (leaf_turns.iter())
            .map(|(_, child)| Node::of(child))
            .collect();
        if let Some(parent) = self.tree[leaf].parent {
            let siblings = self.tree[parent].turns.iter().flatten();
            coming.extend(siblings.map(|&(_, child)| Node::of(&self.tree[child].position)));
        }
        let mut taken = vec![leaf];
        while self.lookahead.len() < 2 * parallel && taken.len() <= 4 * parallel {
            let Some(next) = self.most_proving(0, &taken) else {
                break;
            };
            taken.push(next);
            let node = &self.tree[next];
            let splittable = node.line.len() <= self.setup.depth && self.splittable(&node.position);
            if node.answer.stale || !splittable {
                continue;
            }
            let turns = children(&self.solve, &node.position);
            if turns.len() < 2 {
                continue;
            }
            for (_, child) in turns {
                if coming.insert(Node::of(&child)) && !self.answered(&child) {
                    self.lookahead.push(child);
                }
            }
        }
    }

    /// Whether the run or the store answers `position` (read without being recalled).
    fn answered(&self, position: &Position) -> bool {
        let side = self.setup.side;
        self.known.contains_key(&Node::of(position))
            || (self.setup.store)
                .is_some_and(|store| StoreFiles::new(store, position, side).answer.exists())
    }

    /// Take the searches run ahead since the last pass into the run's answers: counted, and
    /// known where they say something (they are in the store already).
    fn take_looked_ahead(&mut self) -> Result<(), SolveError> {
        let looked_ahead = std::mem::take(self.looked_ahead.get_mut().expect("a search panicked"));
        if looked_ahead.is_empty() {
            return Ok(());
        }
        let mut outcomes = Vec::new();
        for (position, searched) in looked_ahead {
            let Searched { answer, whole } = searched?;
            self.searches += 1;
            self.searched_ahead += 1;
            self.nodes += answer.nodes;
            outcomes.push(answer.outcome);
            if whole {
                self.known.insert(Node::of(&position), answer);
            }
        }
        let count = |outcome| outcomes.iter().filter(|&&o| o == outcome).count();
        self.setup.solve.progress.note(&format!(
            "meanwhile {} position{} searched ahead: {} wins after {}, cannot after {}, {} open",
            outcomes.len(),
            if outcomes.len() == 1 { "" } else { "s" },
            self.setup.side.name(),
            count(Outcome::Proven),
            count(Outcome::Disproven),
            count(Outcome::Unknown),
        ));
        Ok(())
    }

    /// Every position split, as it ended: the root last.
    fn report(&self) -> Vec<SplitPosition> {
        let mut order: Vec<usize> = self
            .split_order
            .iter()
            .copied()
            .filter(|&i| i != 0)
            .collect();
        order.push(0);
        order
            .into_iter()
            .map(|index| {
                let node = &self.tree[index];
                let turns = node.turns.as_deref().unwrap_or_default();
                SplitPosition {
                    line: node.line.clone(),
                    position: node.position,
                    outcome: node.answer.outcome,
                    turns: turns
                        .iter()
                        .map(|(notation, child)| {
                            let child = &self.tree[*child];
                            SplitTurn {
                                notation: notation.clone(),
                                position: child.position,
                                outcome: child.answer.outcome,
                                nodes: child.answer.nodes,
                                found: child.answer.found,
                            }
                        })
                        .collect(),
                    moot: self.settled_above(index),
                }
            })
            .collect()
    }

    /// Whether some position above node `index` on its line from the root is settled.
    fn settled_above(&self, index: usize) -> bool {
        self.above(index)
            .any(|node| node.answer.outcome != Outcome::Unknown)
    }

    /// A note of where `position` stands after its turns were searched.
    fn note_counts(&self, position: &Position, line: &[String], answers: &[Answer]) {
        let count = |outcome| answers.iter().filter(|a| a.outcome == outcome).count();
        let at = at_line(line);
        let side = self.setup.side.name();
        self.setup.solve.progress.note(&format!(
            "split {}: {at} ({} to move, {}): {} turn{}, {side} wins after {}, cannot after {}, \
             {} open",
            self.splits,
            position.side.name(),
            stone_counts(position),
            answers.len(),
            if answers.len() == 1 { "" } else { "s" },
            count(Outcome::Proven),
            count(Outcome::Disproven),
            count(Outcome::Unknown)
        ));
    }

    /// The answer at `position` from its turns' answers, with the joined claim that proves it
    /// where it settled.
    fn settle(&self, position: &Position, children: &[Position], answers: &[Answer]) -> Answer {
        let side = self.setup.side;
        let side_moves = position.side == side;
        let settling = if side_moves {
            Outcome::Proven
        } else {
            Outcome::Disproven
        };
        let other = opposite(settling);
        let (outcome, parts, choice) = match answers.iter().position(|a| a.outcome == settling) {
            Some(i) => (settling, vec![i], Some(Node::of(&children[i]))),
            None if answers.iter().all(|a| a.outcome == other) => {
                (other, (0..answers.len()).collect(), None)
            }
            None => (Outcome::Unknown, Vec::new(), None),
        };
        let (strategist, goal) = match outcome {
            Outcome::Proven => (side, Goal::Win),
            _ => (side.other(), Goal::NotLose),
        };
        // Every part's claim is there where certificates are asked for.
        let claim = parts
            .iter()
            .map(|&i| answers[i].claim.as_deref().cloned())
            .collect::<Option<Vec<Claim>>>()
            .filter(|_| outcome != Outcome::Unknown && self.solve.certificate)
            .map(|parts| Arc::new(Claim::joined(strategist, goal, parts, position, choice)));
        Answer {
            outcome,
            numbers: None,
            nodes: 0,
            claim,
            found: Found::Split,
            stale: false,
        }
    }

    /// Answer SIDE's question at each of `positions`: from the store where it has an answer,
    /// else by a search, `parallel` at a time (with `search_now` false, or in a status, none:
    /// the answer is left stale, to be searched when best first reaches it). Once one answer
    /// is `settling` (it settles the position before them), no more searches are started.
    fn search_all(
        &mut self,
        positions: &[Position],
        settling: Option<Outcome>,
        search_now: bool,
        at: &str,
    ) -> Result<Vec<Answer>, SolveError> {
        let mut answers: Vec<Option<Answer>> = Vec::new();
        for position in positions {
            answers.push(self.recall(position)?);
        }
        let settled = answers
            .iter()
            .flatten()
            .any(|a| Some(a.outcome) == settling);
        let search_now = search_now && !self.setup.recall_only;
        let to_search: Vec<usize> = (0..positions.len())
            .filter(|&i| answers[i].is_none() && !settled && search_now)
            .collect();
        let searching: Vec<Position> = to_search.iter().map(|&i| positions[i]).collect();
        let searched = self.search_batch(&searching, &vec![None; searching.len()], settling, at)?;
        for (i, answer) in to_search.into_iter().zip(searched) {
            answers[i] = Some(answer);
        }
        let later = Answer {
            stale: !settled,
            ..unsearched()
        };
        Ok(answers
            .into_iter()
            .map(|a| a.unwrap_or_else(|| later.clone()))
            .collect())
    }

    /// Search SIDE's question at each of `positions` (`at`: where they are, for the notes),
    /// each answer kept as its search ends. Above the small first budget (see
    /// [`FIRST_NODES`]) each is searched small first, all of them before any gets the whole
    /// budget; `earlier` holds the numbers a smaller budget of an earlier run left a position
    /// open with, which stand for its small search. Those left open then get the whole
    /// budget, the one nearest to `settling` first (df-pn's choice: least proof number where
    /// that is "yes", least disproof number where "no"). Once one answer is `settling` (it
    /// settles the position before them), no more searches are started: the ones not
    /// searched are answered so.
    fn search_batch(
        &mut self,
        positions: &[Position],
        earlier: &[Option<(u32, u32)>],
        settling: Option<Outcome>,
        at: &str,
    ) -> Result<Vec<Answer>, SolveError> {
        let count = positions.len();
        if count == 0 {
            return Ok(Vec::new());
        }
        self.setup.solve.progress.note(&format!(
            "{at}: {count} search{}, up to {} nodes each",
            if count == 1 { "" } else { "es" },
            self.solve.limits.nodes
        ));
        let mut small: Vec<Option<Searched>> = (0..count).map(|_| None).collect();
        if let Some(setup) = self.small_setup() {
            let first: Vec<usize> = (0..count).filter(|&k| earlier[k].is_none()).collect();
            small = self.search_pass(positions, &first, &setup, settling)?;
        }
        let settled = (small.iter().flatten()).any(|s| Some(s.answer.outcome) == settling);
        let numbers = |k: usize| match &small[k] {
            Some(searched) => searched.answer.numbers,
            None => earlier[k],
        };
        let open =
            |k: &usize| (small[*k].as_ref()).is_none_or(|s| s.answer.outcome == Outcome::Unknown);
        let mut whole_order: Vec<usize> = (0..count).filter(open).collect();
        whole_order.sort_by_key(|&k| nearness(numbers(k), settling));
        if settled || self.stopped() {
            whole_order.clear();
        }
        let setup = self.solve;
        let mut whole = self.search_pass(positions, &whole_order, &setup, settling)?;
        self.take_looked_ahead()?;
        let mut answers = Vec::new();
        for (k, position) in positions.iter().enumerate() {
            let (answer, kept) = of_passes(small[k].take(), whole[k].take());
            if answer.nodes > 0 {
                self.searches += 1;
                self.nodes += answer.nodes;
            }
            if kept {
                self.known.insert(Node::of(position), answer.clone());
            }
            answers.push(answer);
        }
        Ok(answers)
    }

    /// The setup of the small first search of each position (see [`FIRST_NODES`]), where
    /// this run's budget and table are larger.
    fn small_setup(&self) -> Option<SolveSetup<'a>> {
        let limits = self.solve.limits;
        let larger = limits.nodes > FIRST_NODES && limits.memory > FIRST_MEMORY;
        larger.then_some(SolveSetup {
            limits: Limits {
                nodes: FIRST_NODES,
                memory: FIRST_MEMORY,
                held_memory: None,
                ..limits
            },
            ..self.solve
        })
    }

    /// One pass of searches with `setup`: SIDE's question at `positions[k]` for each k of
    /// `order`, in that order, `parallel` at a time. Once one answer is `settling`, or
    /// Ctrl-C comes, no more are started. Each answer that says something is written to the
    /// store as its search ends (a run killed later keeps it): a settled one, or one left
    /// open with this run's whole budget spent. In the pass of whole budgets, a thread that
    /// finds no search of `order` left to start while others still run takes the next
    /// position of the lookahead instead (see [`Splitter::plan_lookahead`]). (Not in the small
    /// pass: its last searches end in moments, and the whole pass waits for the lookahead's.)
    fn search_pass(
        &self,
        positions: &[Position],
        order: &[usize],
        setup: &SolveSetup,
        settling: Option<Outcome>,
    ) -> Result<Vec<Option<Searched>>, SolveError> {
        let budget = setup.limits.nodes;
        if !order.is_empty() {
            self.setup.solve.progress.phase(
                &format!("split: {} searches of up to {budget} nodes", order.len()),
                order.len() as u64 * budget,
            );
        }
        let whole_budget = budget == self.solve.limits.nodes;
        let settled = AtomicBool::new(false);
        let next = AtomicUsize::new(0);
        let ended = AtomicUsize::new(0);
        let found: Vec<Mutex<Option<Result<Searched, SolveError>>>> =
            positions.iter().map(|_| Mutex::new(None)).collect();
        let ahead_left =
            (self.lookahead.len()).saturating_sub(self.lookahead_next.load(Ordering::Relaxed));
        let threads = pass_threads(self.setup.parallel, order.len(), whole_budget, ahead_left);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| loop {
                    if self.stopped() || settled.load(Ordering::Relaxed) {
                        break;
                    }
                    let Some(&k) = order.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        let idle = whole_budget && ended.load(Ordering::Relaxed) < order.len();
                        if !(idle && self.search_ahead()) {
                            break;
                        }
                        continue;
                    };
                    let searched = self.search_and_store(&positions[k], setup, whole_budget);
                    if searched
                        .as_ref()
                        .is_ok_and(|s| Some(s.answer.outcome) == settling)
                    {
                        settled.store(true, Ordering::Relaxed);
                    }
                    *found[k].lock().expect("a search panicked") = Some(searched);
                    ended.fetch_add(1, Ordering::Relaxed);
                });
            }
        });
        found
            .into_iter()
            .map(|slot| slot.into_inner().expect("a search panicked").transpose())
            .collect()
    }

    /// Search the next position of the lookahead, if one is left, with the whole budget; its
    /// answer is kept for [`Splitter::take_looked_ahead`]. Whether there was one.
    fn search_ahead(&self) -> bool {
        let next = self.lookahead_next.fetch_add(1, Ordering::Relaxed);
        let Some(position) = self.lookahead.get(next) else {
            return false;
        };
        let searched = self.search_and_store(position, &self.solve, true);
        let mut looked_ahead = self.looked_ahead.lock().expect("a search panicked");
        looked_ahead.push((*position, searched));
        true
    }

    /// One search with `setup`, its answer written to the store at once where it says
    /// something: settled, or (with `whole_budget`) left open with the budget spent, not cut
    /// short by Ctrl-C.
    fn search_and_store(
        &self,
        position: &Position,
        setup: &SolveSetup,
        whole_budget: bool,
    ) -> Result<Searched, SolveError> {
        let answer = self.search_with(position, setup)?;
        let settled = answer.outcome != Outcome::Unknown;
        let whole = settled || (whole_budget && !self.stopped());
        if whole {
            self.write_store(position, &answer)?;
        }
        Ok(Searched { answer, whole })
    }

    /// One search of SIDE's question at `position`, with `setup`.
    fn search_with(&self, position: &Position, setup: &SolveSetup) -> Result<Answer, SolveError> {
        let solution = solve_keeping_outcomes(setup, position)?;
        let side_moves = position.side == self.setup.side;
        let (mut outcome, mut numbers) = match side_moves {
            true => (solution.mover_wins, solution.root_numbers[0]),
            false => (solution.waiting_wins, solution.root_numbers[1]),
        };
        if let Some(failed) = &solution.certificate_failed {
            // Settled, but with no certificate to join: open, and the split splits it (its
            // turns, searched apart, give certificates of their own). Numbers of 1 where the
            // search found 0 keep it first in line for that.
            self.setup.solve.progress.note(&format!(
                "split: {}: can {} force a win? {} ({} nodes), but {failed}: left open, to be \
                 split",
                format_position(setup.board, position),
                self.setup.side.name(),
                answer_word(outcome),
                solution.nodes,
            ));
            outcome = Outcome::Unknown;
            numbers = numbers.map(|(proof, disproof)| (proof.max(1), disproof.max(1)));
        }
        let claim = solution
            .certificate
            .and_then(|c| c.claims.into_iter().next());
        let claim = claim.map(Arc::new);
        Ok(Answer {
            outcome,
            numbers,
            nodes: solution.nodes,
            claim: claim.filter(|_| outcome != Outcome::Unknown),
            found: Found::Searched,
            stale: false,
        })
    }

    /// The answer the store holds for `position`, if it is settled (with its certificate where
    /// certificates are asked for, of the same tables) or open after at least this run's
    /// budget.
    fn recall(&mut self, position: &Position) -> Result<Option<Answer>, SolveError> {
        if let Some(answer) = self.known.get(&Node::of(position)) {
            return Ok(Some(answer.clone()));
        }
        let Some(directory) = self.setup.store else {
            return Ok(None);
        };
        let files = StoreFiles::new(directory, position, self.setup.side);
        let Some(stored) = files.read_answer()? else {
            return Ok(None);
        };
        let open = stored.outcome == Outcome::Unknown;
        let claim = match self.solve.certificate && !open {
            false => None,
            true => match self.claim_over_these_tables(&files)? {
                Some(claim) => Some(Arc::new(claim)),
                None => return Ok(None),
            },
        };
        let answer = Answer {
            outcome: stored.outcome,
            numbers: stored.numbers,
            nodes: 0,
            claim,
            found: Found::Recalled,
            stale: open && self.searched_with_less(&stored),
        };
        self.recalled += 1;
        self.known.insert(Node::of(position), answer.clone());
        Ok(Some(answer))
    }

    /// Whether an open answer's search had less than this run's searches have: a smaller
    /// budget, or fewer tables (a table built since may settle what it left open: the 8-stone
    /// layer settled in a million nodes answers a search over 7 stones had left open after
    /// twenty million). One stored before answers named their tables is taken as searched
    /// over fewer: which tables it had is not known.
    fn searched_with_less(&self, stored: &Stored) -> bool {
        let fewer_tables = stored
            .tables
            .is_none_or(|tables| tables < TableCount::of(&self.solve));
        stored.budget < self.solve.limits.nodes || fewer_tables
    }

    /// The claim of the certificate stored in `files`, over this split's tables. One of fewer
    /// tables (kept before more were built) is checked against these and kept again as
    /// theirs, so that a store outlives a table build; one these tables cannot check, or
    /// that does not hold, is not recalled (its question is searched again). Keeping it again
    /// can fail (a full disk, say): that is an error, as any other write to the store.
    fn claim_over_these_tables(&self, files: &StoreFiles) -> Result<Option<Claim>, SolveError> {
        let Some(certificate) = files.read_certificate() else {
            return Ok(None);
        };
        let (stones, materials) = table_reach(self.solve.tables);
        let same_tables = certificate.table_stones as usize == stones
            && certificate
                .table_materials
                .iter()
                .map(|&(mover, waiting)| (mover as usize, waiting as usize))
                .eq(materials);
        let certificate = match same_tables {
            true => certificate,
            false => {
                let Ok(over_these) = over_these_tables(&self.solve, &certificate) else {
                    return Ok(None);
                };
                if !self.setup.recall_only {
                    files.write_certificate(&over_these).map_err(|e| {
                        SolveError(format!(
                            "keeping a stored certificate over more tables: {e}"
                        ))
                    })?;
                }
                over_these
            }
        };
        Ok(certificate.claims.into_iter().next())
    }

    /// Whether an earlier run split `position`: the store marks it split (see
    /// [`Splitter::mark_split`]), or, in a store kept before splits were marked, answers
    /// every one of its turns. (That one of its turns is answered says nothing: it may be a
    /// transposition of a turn of another position split, and every position a step away
    /// from one split would count as split, and the positions a step from those.) Such a
    /// position is not searched again with a larger budget but split again when its turn
    /// comes (its turns' answers are read back, its open ones searched with the budget).
    fn split_before(&self, position: &Position) -> bool {
        let Some(directory) = self.setup.store else {
            return false;
        };
        let side = self.setup.side;
        StoreFiles::new(directory, position, side).split.exists()
            || children(&self.solve, position)
                .iter()
                .all(|(_, child)| StoreFiles::new(directory, child, side).answer.exists())
    }

    /// Mark `position` split in the store, if there is one, before its turns are searched: a
    /// later run splits it again as it rebuilds the split, even where Ctrl-C cut its batch.
    fn mark_split(&self, position: &Position) -> Result<(), SolveError> {
        let Some(directory) = self.setup.store.filter(|_| !self.setup.recall_only) else {
            return Ok(());
        };
        let files = StoreFiles::new(directory, position, self.setup.side);
        if files.split.exists() {
            return Ok(());
        }
        std::fs::create_dir_all(directory)
            .and_then(|()| std::fs::write(&files.split, ""))
            .map_err(|e| SolveError(format!("{}: {e}", files.split.display())))
    }

    /// Keep `answer` (found at `position`) for the rest of the run, and in the store if
    /// there is one.
    fn keep(&mut self, position: &Position, answer: &Answer) -> Result<(), SolveError> {
        self.known.insert(Node::of(position), answer.clone());
        self.write_store(position, answer)
    }

    /// Write `answer` (found at `position`) to the store, if there is one.
    fn write_store(&self, position: &Position, answer: &Answer) -> Result<(), SolveError> {
        let Some(directory) = self.setup.store.filter(|_| !self.setup.recall_only) else {
            return Ok(());
        };
        let files = StoreFiles::new(directory, position, self.setup.side);
        if let Some(claim) = &answer.claim {
            let certificate = certificate_of(&self.solve, position, Claim::clone(claim));
            files.write_certificate(&certificate)?;
        }
        let stored = Stored {
            outcome: answer.outcome,
            budget: self.solve.limits.nodes,
            nodes: answer.nodes,
            numbers: answer.numbers,
            tables: Some(TableCount::of(&self.solve)),
        };
        files.write_answer(&stored)
    }
}

/// Take a certificate found apart (by `solve --only SIDE --certificate FILE`, say, where one
/// long search settled a position the split left open) into the store in `directory`: each of
/// its claims is the settled answer of one question at its root, a win of the strategist
/// "can it force a win?" yes, a hold "can the other side?" no. The store then answers those
/// questions there like any of its own, and the split joins the certificate when the
/// question above settles. The certificate must be of `setup`'s board and rules, and of
/// tables the split's reach too (the same, or fewer stones and materials: a search over the
/// 8-stone layer answers for a split over the 9-stone tables as well). It is taken as one of
/// the split's tables, since the split reads back only certificates of its own, and checked
/// so: where it has a position within the larger reach, that table's verified value must
/// agree with the strategy, or it is refused. Returns the root and, per claim, the side asked
/// about and the answer.
pub fn take_into_store(
    directory: &Path,
    setup: &SolveSetup,
    certificate: &Certificate,
) -> Result<(Position, Vec<(Color, Outcome)>), SolveError> {
    let root = certificate.root.position();
    let certificate = &over_these_tables(setup, certificate)?;
    std::fs::create_dir_all(directory)
        .map_err(|e| SolveError(format!("{}: {e}", directory.display())))?;
    let mut answered = Vec::new();
    for claim in &certificate.claims {
        let (side, outcome) = match claim.goal {
            Goal::Win => (claim.strategist(), Outcome::Proven),
            Goal::NotLose => (claim.strategist().other(), Outcome::Disproven),
        };
        let files = StoreFiles::new(directory, &root, side);
        let alone = Certificate {
            claims: vec![claim.clone()],
            ..certificate.clone()
        };
        files.write_certificate(&alone)?;
        // Its search's budget and nodes are not known here: a settled answer needs neither.
        let stored = Stored {
            outcome,
            budget: 0,
            nodes: 0,
            numbers: None,
            tables: Some(TableCount::of(setup)),
        };
        files.write_answer(&stored)?;
        answered.push((side, outcome));
    }
    Ok((root, answered))
}

/// The answer at a position from its searches in the two passes of a batch (`small` and
/// `whole`, where it had them), with the nodes of both, and whether it says something (it is
/// settled, or open after the whole budget).
fn of_passes(small: Option<Searched>, whole: Option<Searched>) -> (Answer, bool) {
    let small_nodes = small.as_ref().map_or(0, |s| s.answer.nodes);
    match (small, whole) {
        (_, Some(Searched { answer, whole })) => {
            let nodes = answer.nodes + small_nodes;
            (Answer { nodes, ..answer }, whole)
        }
        (Some(searched), None) if searched.whole => (searched.answer, true),
        // Searched small only (the batch settled first, or Ctrl-C): it says nothing.
        (Some(_), None) => {
            let answer = Answer {
                nodes: small_nodes,
                ..unsearched()
            };
            (answer, false)
        }
        (None, None) => (unsearched(), false),
    }
}

/// How near `numbers` (a search's, open) are to `settling`: the proof number where that is
/// "yes", the disproof number where "no"; the least goes first.
fn nearness(numbers: Option<(u32, u32)>, settling: Option<Outcome>) -> u32 {
    match (numbers, settling) {
        (Some((proof, _)), Some(Outcome::Proven)) => proof,
        (Some((_, disproof)), Some(Outcome::Disproven)) => disproof,
        _ => u32::MAX,
    }
}

/// Where a position of the split stands, for a person: "the root", or "after" its line.
fn at_line(line: &[String]) -> String {
    match line {
        [] => "the root".to_string(),
        line => format!("after {}", line.join(" ")),
    }
}

/// Each side's stones in `position`, for a person: "13 white, 10 black stones".
fn stone_counts(position: &Position) -> String {
    format!(
        "{} white, {} black stones",
        position.white().count(),
        position.black().count()
    )
}

/// The other settled outcome.
fn opposite(outcome: Outcome) -> Outcome {
    match outcome {
        Outcome::Proven => Outcome::Disproven,
        Outcome::Disproven => Outcome::Proven,
        Outcome::Unknown => Outcome::Unknown,
    }
}

/// A search's answer, and whether the search ran whole (settled, or open after its whole
/// budget), so that it can be kept.
struct Searched {
    answer: Answer,
    whole: bool,
}

/// The answer of a search that was not run: Ctrl-C came first, or another turn settled the
/// position.
fn unsearched() -> Answer {
    Answer {
        outcome: Outcome::Unknown,
        numbers: None,
        nodes: 0,
        claim: None,
        found: Found::NotSearched,
        stale: false,
    }
}

/// An answer as the store keeps it.
struct Stored {
    outcome: Outcome,
    /// The node budget of the search that found it (an open answer is searched again with a
    /// larger one).
    budget: u64,
    nodes: u64,
    numbers: Option<(u32, u32)>,
    /// The tables its search probed (`None` in a store kept before answers named them).
    tables: Option<TableCount>,
}

/// How far a split's tables reach: every material of up to `stones` stones, and `partial`
/// materials of the layer above (systems built one by one, both orders counted). Tables are
/// only ever added, so a larger count is more tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct TableCount {
    stones: usize,
    partial: usize,
}

impl TableCount {
    fn of(setup: &SolveSetup) -> TableCount {
        let (stones, partial) = table_reach(setup.tables);
        TableCount {
            stones,
            partial: partial.len(),
        }
    }
}

/// The files that keep one position's answer to one side's question: `KEY.answer` (a line of
/// text), `KEY.proof` (its certificate, packed, for a settled answer) and `KEY.split` (empty:
/// the position was split), KEY naming the position exactly (white and black stones in
/// hexadecimal, the side to move) and the side asked about.
struct StoreFiles {
    answer: PathBuf,
    proof: PathBuf,
    split: PathBuf,
}

impl StoreFiles {
    fn new(directory: &Path, position: &Position, side: Color) -> StoreFiles {
        let node = Node::of(position);
        let mover = if node.white_to_move { 'w' } else { 'b' };
        let key = format!(
            "{:016x}-{:016x}-{mover}-{}",
            node.white,
            node.black,
            side.name()
        );
        StoreFiles {
            answer: directory.join(format!("{key}.answer")),
            proof: directory.join(format!("{key}.proof")),
            split: directory.join(format!("{key}.split")),
        }
    }

    fn read_answer(&self) -> Result<Option<Stored>, SolveError> {
        let text = match std::fs::read_to_string(&self.answer) {
            Ok(text) => text,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(error) => return Err(SolveError(format!("{}: {error}", self.answer.display()))),
        };
        parse_stored(&text)
            .map(Some)
            .ok_or_else(|| SolveError(format!("{}: not a split answer", self.answer.display())))
    }

    /// The stored certificate, if it is there and readable.
    fn read_certificate(&self) -> Option<Certificate> {
        Certificate::read(&self.proof).ok()
    }

    /// Written packed ([`crate::packed`]: about fifty times smaller), or whole where its
    /// strategy cannot be packed (it would not check either); read alike.
    fn write_certificate(&self, certificate: &Certificate) -> Result<(), SolveError> {
        let partial = self.proof.with_extension("proof.part");
        certificate
            .write_packed(&partial)
            .map(|_| ())
            .or_else(|_| certificate.write(&partial))
            .map_err(|e| SolveError(e.to_string()))?;
        rename(&partial, &self.proof)
    }

    /// Written after the certificate: an answer file is never there without it.
    fn write_answer(&self, stored: &Stored) -> Result<(), SolveError> {
        let partial = self.answer.with_extension("answer.part");
        std::fs::write(&partial, format_stored(stored))
            .map_err(|e| SolveError(format!("{}: {e}", partial.display())))?;
        rename(&partial, &self.answer)
    }
}

fn rename(from: &Path, to: &Path) -> Result<(), SolveError> {
    std::fs::rename(from, to).map_err(|e| SolveError(format!("{}: {e}", to.display())))
}

/// The answer to "can SIDE force a win?" in a word, as notes and the store write it.
fn answer_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Proven => "yes",
        Outcome::Disproven => "no",
        Outcome::Unknown => "unknown",
    }
}

fn format_stored(stored: &Stored) -> String {
    let outcome = answer_word(stored.outcome);
    let numbers = match stored.numbers {
        Some((proof, disproof)) => format!(" proof={proof} disproof={disproof}"),
        None => String::new(),
    };
    let tables = match stored.tables {
        Some(TableCount { stones, partial }) => format!(" tables={stones}+{partial}"),
        None => String::new(),
    };
    format!(
        "answer={outcome} budget={} nodes={}{numbers}{tables}\n",
        stored.budget, stored.nodes
    )
}

fn parse_stored(text: &str) -> Option<Stored> {
    let field = |name: &str| {
        text.split_whitespace()
            .find_map(|word| word.strip_prefix(name)?.strip_prefix('='))
    };
    let outcome = match field("answer")? {
        "yes" => Outcome::Proven,
        "no" => Outcome::Disproven,
        "unknown" => Outcome::Unknown,
        _ => return None,
    };
    let number = |name: &str| field(name).and_then(|n| n.parse::<u32>().ok());
    let count = |text: &str| text.parse::<usize>().ok();
    let tables = match field("tables") {
        Some(text) => {
            let (stones, partial) = text.split_once('+')?;
            Some(TableCount {
                stones: count(stones)?,
                partial: count(partial)?,
            })
        }
        None => None,
    };
    Some(Stored {
        outcome,
        budget: field("budget")?.parse().ok()?,
        nodes: field("nodes")?.parse().ok()?,
        numbers: number("proof").zip(number("disproof")),
        tables,
    })
}

/// How many threads a pass of `searches` searches starts, `parallel` at most: one for each
/// search, and in a pass of whole budgets (see [`Splitter::search_pass`]) one more for each
/// position of the lookahead left, so that the threads the batch leaves idle search ahead
/// from its start, not only once one of its own searches has ended. (Before, a batch of two
/// long searches on 16 cores ran two threads: measured on the device, 194% CPU.)
fn pass_threads(parallel: usize, searches: usize, whole_budget: bool, ahead_left: usize) -> usize {
    let ahead = if whole_budget && searches > 0 {
        ahead_left
    } else {
        0
    };
    parallel.clamp(1, (searches + ahead).max(1))
}

#[cfg(test)]
mod tests {
    use super::pass_threads;

    #[test]
    fn idle_threads_of_a_whole_pass_start_with_it_to_search_ahead() {
        // Two long searches on 16 threads with 30 positions to search ahead: all 16 start.
        assert_eq!(pass_threads(16, 2, true, 30), 16);
        // No more than the searches and the lookahead together.
        assert_eq!(pass_threads(16, 2, true, 3), 5);
        // The small pass does not search ahead, nor does a pass with nothing of its own.
        assert_eq!(pass_threads(16, 2, false, 30), 2);
        assert_eq!(pass_threads(16, 0, true, 30), 1);
        // Never more than asked, never none.
        assert_eq!(pass_threads(4, 9, true, 0), 4);
        assert_eq!(pass_threads(0, 3, true, 3), 1);
    }
}
