//! The independent checker of certificates: the rules and the endgame tables, nothing else.
//!
//! It shares no code with the search. For each claim of a certificate (see
//! [`crate::certificate`]) it checks that
//! 1. the root is a good leaf or in the strategy;
//! 2. at every strategy position where the strategist moves, the chosen child is a legal result
//!    of one of its turns; where the opponent moves, every turn is answered;
//! 3. every child so required is in the strategy or a leaf that is good for the strategist: one
//!    the rules decide (no stones, blocked side to move), or one with at most `table_stones`
//!    stones or of a material of `table_materials`, whose table entry says so;
//! 4. for a win, the strategy has no loop (else the "win" could be infinite play).
//!
//! The value it confirms follows from the claims: one win claim of the side to move is a win,
//! of the other side a loss, and "not lose" claims for both sides a draw. A single "not lose"
//! claim is a bound, not a value: that side cannot lose (the other cannot force a win).

use crate::certificate::{Certificate, Claim, Goal, Node};
use crate::index::Material;
use crate::progress::{NoProgress, Progress};
use crate::tables::Tables;
use fanorona_engine::movegen::children;
use fanorona_engine::{Board, Color, Position, Rules, Value};
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt;

/// What a checked certificate proves, and how big it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confirmed {
    pub board: Board,
    pub root: Position,
    /// The value of the root for its side to move; `None` for a bound (one "not lose" claim).
    pub value: Option<Value>,
    /// Strategy positions checked, over all claims.
    pub positions: usize,
    /// Leaves reached that the tables decide, and that the rules decide.
    pub table_leaves: usize,
    pub rule_leaves: usize,
}

/// Why a certificate does not prove anything.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refuted(pub String);

impl fmt::Display for Refuted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Refuted {}

fn refuted<T>(why: impl Into<String>) -> Result<T, Refuted> {
    Err(Refuted(why.into()))
}

/// Check `certificate`, with `tables` for its table leaves.
pub fn check(certificate: &Certificate, tables: Option<&Tables>) -> Result<Confirmed, Refuted> {
    check_with_progress(certificate, tables, &NoProgress)
}

/// [`check`], reporting the strategy positions checked to `progress` (a certificate of a
/// long search has tens of millions).
pub fn check_with_progress(
    certificate: &Certificate,
    tables: Option<&Tables>,
    progress: &dyn Progress,
) -> Result<Confirmed, Refuted> {
    let board = Board::new(certificate.rows as usize, certificate.columns as usize)
        .map_err(|e| Refuted(format!("board: {e}")))?;
    let rules = certificate.rules().map_err(Refuted)?;
    let table_stones = certificate.table_stones as usize;
    let table_materials = certificate.partial_layer();
    let tables = if table_stones == 0 && table_materials.is_empty() {
        None
    } else {
        match tables {
            Some(t)
                if t.board() == &board
                    && t.rules() == rules
                    && t.max_stones() >= table_stones
                    && table_materials.iter().all(|&m| t.covers(m)) =>
            {
                Some(t)
            }
            _ => {
                let partial: Vec<String> = table_materials.iter().map(|m| m.to_string()).collect();
                return refuted(format!(
                    "it needs the {} endgame tables up to {table_stones} stones{} under the same rules",
                    board.size_name(),
                    if partial.is_empty() {
                        String::new()
                    } else {
                        format!(" and of {}", partial.join(", "))
                    }
                ));
            }
        }
    };
    let root = decode(&board, certificate.root)?;
    let judge = Judge {
        board: &board,
        rules,
        tables,
        table_stones,
        table_materials,
        progress,
    };
    let mut confirmed = Confirmed {
        board: board.clone(),
        root,
        value: None,
        positions: 0,
        table_leaves: 0,
        rule_leaves: 0,
    };
    for claim in &certificate.claims {
        judge.check_claim(claim, &root, &mut confirmed)?;
    }
    confirmed.value = value_of_claims(&certificate.claims, root.side)?;
    Ok(confirmed)
}

/// The root's value that the claims establish together, or `None` if they only bound it.
fn value_of_claims(claims: &[Claim], mover: Color) -> Result<Option<Value>, Refuted> {
    let has = |side: Color, goal: Goal| {
        claims
            .iter()
            .any(|c| c.strategist() == side && c.goal == goal)
    };
    if has(mover, Goal::Win) {
        Ok(Some(Value::Win))
    } else if has(mover.other(), Goal::Win) {
        Ok(Some(Value::Loss))
    } else if has(mover, Goal::NotLose) && has(mover.other(), Goal::NotLose) {
        Ok(Some(Value::Draw))
    } else if claims.is_empty() {
        refuted("it has no claims")
    } else {
        Ok(None)
    }
}

/// A position of the certificate, checked to be one of this board.
fn decode(board: &Board, node: Node) -> Result<Position, Refuted> {
    let outside = !board.all().0;
    if node.white & node.black != 0 || (node.white | node.black) & outside != 0 {
        return refuted(format!(
            "a position has overlapping stones or stones off the board ({:#x}, {:#x})",
            node.white, node.black
        ));
    }
    Ok(node.position())
}

struct Judge<'a> {
    board: &'a Board,
    rules: Rules,
    tables: Option<&'a Tables>,
    table_stones: usize,
    /// Materials above `table_stones` that are table leaves too.
    table_materials: Vec<Material>,
    progress: &'a dyn Progress,
}

/// Strategy positions checked together, on one core, between two progress reports.
const CHECKED_TOGETHER: usize = 1 << 12;

/// What the positions of a chunk of a strategy lead to.
#[derive(Default)]
struct Checked {
    table_leaves: usize,
    rule_leaves: usize,
    /// For a win: each position with the strategy positions it leads to.
    edges: Vec<(Position, Vec<Position>)>,
}

/// How a leaf was decided.
enum Leaf {
    Rules(Value),
    Table(Value),
}

impl Judge<'_> {
    /// The value for the side to move if the rules or the tables decide `position`; an error
    /// if the table bytes it is read from are damaged (tables opened by blocks are checked as
    /// they are read).
    fn leaf(&self, position: &Position) -> Result<Option<Leaf>, Refuted> {
        if let Some(value) = self.rules.outcome(self.board, position) {
            return Ok(Some(Leaf::Rules(value)));
        }
        let material = Material::new(
            position.mover.count() as usize,
            position.waiting.count() as usize,
        );
        let is_table_leaf =
            material.stones() <= self.table_stones || self.table_materials.contains(&material);
        let Some(tables) = self.tables.filter(|_| is_table_leaf) else {
            return Ok(None);
        };
        tables
            .check_probes(std::slice::from_ref(position))
            .map_err(|error| Refuted(format!("cannot read a table leaf: {error}")))?;
        Ok(tables.probe_value(position).ok().map(Leaf::Table))
    }

    /// A position as users write it (SPEC.md §2), for the messages of a refutation.
    fn named(&self, position: &Position) -> String {
        fanorona_engine::notation::format_position(self.board, position)
    }

    fn check_claim(
        &self,
        claim: &Claim,
        root: &Position,
        confirmed: &mut Confirmed,
    ) -> Result<(), Refuted> {
        let strategist = claim.strategist();
        let good = |value: Value, side: Color| {
            let for_strategist = if side == strategist {
                value
            } else {
                value.flip()
            };
            match claim.goal {
                Goal::Win => for_strategist == Value::Win,
                Goal::NotLose => for_strategist != Value::Loss,
            }
        };
        let mut strategy: HashMap<Position, Option<Position>> = HashMap::new();
        for &(node, choice) in &claim.strategy {
            let position = decode(self.board, node)?;
            let choice = choice.map(|c| decode(self.board, c)).transpose()?;
            if strategy.insert(position, choice).is_some() {
                return refuted(format!(
                    "{} appears twice in one strategy",
                    self.named(&position)
                ));
            }
        }
        self.progress.phase(
            &format!("checking {}'s strategy", strategist.name()),
            strategy.len() as u64,
        );
        // Every position is checked on its own, so they are checked on every core, a chunk at
        // a time; what each leads to inside the strategy is kept for the loop check of a win
        // (a hold may loop, and its edges would cost gigabytes for a large strategy).
        let positions: Vec<(&Position, &Option<Position>)> = strategy.iter().collect();
        let chunks: Vec<Checked> = positions
            .par_chunks(CHECKED_TOGETHER)
            .map(|chunk| {
                let mut checked = Checked::default();
                for &(position, choice) in chunk {
                    self.check_position(claim, &strategy, position, *choice, &good, &mut checked)?;
                }
                self.progress.advance(chunk.len() as u64);
                Ok(checked)
            })
            .collect::<Result<_, Refuted>>()?;
        let mut edges: HashMap<Position, Vec<Position>> = HashMap::new();
        for checked in chunks {
            confirmed.table_leaves += checked.table_leaves;
            confirmed.rule_leaves += checked.rule_leaves;
            edges.extend(checked.edges);
        }
        match self.leaf(root)? {
            Some(Leaf::Rules(v)) | Some(Leaf::Table(v)) if good(v, root.side) => {}
            Some(_) => return refuted("the root is a leaf bad for the strategist"),
            None if strategy.contains_key(root) => {}
            None => return refuted("the root is not in the strategy"),
        }
        if claim.goal == Goal::Win {
            if let Some(position) = find_loop(&edges) {
                return refuted(format!(
                    "the winning strategy can loop forever through {}",
                    self.named(&position)
                ));
            }
        }
        confirmed.positions += strategy.len();
        Ok(())
    }

    /// Check one strategy position of `claim` (`choice` is the strategist's turn there):
    /// its required children are each a good leaf or in `strategy`. Counts its leaves into
    /// `checked`, and for a win, where it leads inside the strategy.
    fn check_position(
        &self,
        claim: &Claim,
        strategy: &HashMap<Position, Option<Position>>,
        position: &Position,
        choice: Option<Position>,
        good: &(impl Fn(Value, Color) -> bool + Sync),
        checked: &mut Checked,
    ) -> Result<(), Refuted> {
        let mut required = Vec::new();
        children(self.board, position, &mut required);
        if required.is_empty() {
            return self.check_blocked(position, good);
        }
        self.keep_only_the_choice(claim, position, choice, &mut required)?;
        // Where each required child leads inside the strategy: only a win's loop check uses it.
        let mut inside = Vec::new();
        for child in &required {
            if self.check_required_child(strategy, child, good, checked)? && claim.goal == Goal::Win
            {
                inside.push(*child);
            }
        }
        if claim.goal == Goal::Win {
            checked.edges.push((*position, inside));
        }
        Ok(())
    }

    /// A position with no turn: the rules decide it, and it must be good like any leaf.
    fn check_blocked(
        &self,
        position: &Position,
        good: &impl Fn(Value, Color) -> bool,
    ) -> Result<(), Refuted> {
        let value = self.rules.outcome(self.board, position);
        if !value.is_some_and(|v| good(v, position.side)) {
            return refuted(format!(
                "{}: a blocked position bad for the strategist",
                self.named(position)
            ));
        }
        Ok(())
    }

    /// Where the strategist moves, narrow `required` (every legal child) to its `choice`,
    /// which must be one of them; where the opponent moves, every child stays required and
    /// no choice may be given.
    fn keep_only_the_choice(
        &self,
        claim: &Claim,
        position: &Position,
        choice: Option<Position>,
        required: &mut Vec<Position>,
    ) -> Result<(), Refuted> {
        if position.side != claim.strategist() {
            if choice.is_some() {
                return refuted(format!(
                    "{}: a choice given for the opponent",
                    self.named(position)
                ));
            }
            return Ok(());
        }
        let choice = choice.ok_or_else(|| {
            Refuted(format!(
                "{}: the strategist moves but no turn is given",
                self.named(position)
            ))
        })?;
        if !required.contains(&choice) {
            return refuted(format!(
                "{}: the chosen turn is not legal",
                self.named(position)
            ));
        }
        required.clear();
        required.push(choice);
        Ok(())
    }

    /// Check one required child: a good leaf (counted into `checked`) or a position of
    /// `strategy`. True when it is in the strategy (not a leaf).
    fn check_required_child(
        &self,
        strategy: &HashMap<Position, Option<Position>>,
        child: &Position,
        good: &impl Fn(Value, Color) -> bool,
        checked: &mut Checked,
    ) -> Result<bool, Refuted> {
        match self.leaf(child)? {
            Some(Leaf::Rules(v)) | Some(Leaf::Table(v)) if !good(v, child.side) => {
                refuted(format!(
                    "{}: a leaf that is {} for its side to move, bad for the strategist",
                    self.named(child),
                    v.name()
                ))
            }
            Some(Leaf::Rules(_)) => {
                checked.rule_leaves += 1;
                Ok(false)
            }
            Some(Leaf::Table(_)) => {
                checked.table_leaves += 1;
                Ok(false)
            }
            None if strategy.contains_key(child) => Ok(true),
            None => refuted(format!(
                "{}: a reply the strategy does not answer (missing)",
                self.named(child)
            )),
        }
    }
}

/// A position on a cycle of `edges`, if there is one (iterative depth-first search).
fn find_loop(edges: &HashMap<Position, Vec<Position>>) -> Option<Position> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    let mut marks: HashMap<Position, Mark> = HashMap::new();
    for start in edges.keys() {
        if marks.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(Position, usize)> = vec![(*start, 0)];
        marks.insert(*start, Mark::Open);
        while let Some((position, next)) = stack.pop() {
            let targets = edges.get(&position).map_or(&[][..], Vec::as_slice);
            if next < targets.len() {
                stack.push((position, next + 1));
                let target = targets[next];
                match marks.get(&target) {
                    Some(Mark::Open) => return Some(target),
                    Some(Mark::Done) => {}
                    None => {
                        marks.insert(target, Mark::Open);
                        stack.push((target, 0));
                    }
                }
            } else {
                marks.insert(position, Mark::Done);
            }
        }
    }
    None
}
