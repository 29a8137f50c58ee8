//! Certificates taken in: settled answers found apart (a long search's certificate, or the
//! subtrees a search settled, harvested by [`crate::harvest`]) given to a search or a split.
//!
//! Each is checked first against the tables of the search that takes it
//! ([`over_these_tables`]): nothing is taken on trust. A search then counts its root as a leaf,
//! settled as its claim says ([`taken_leaves`]), like a table leaf; a certificate read off at the
//! end reaches those leaves, and the strategies found there join its own
//! ([`joined_with_taken`]), so that the result is checked whole like any other.

use crate::certificate::{Certificate, Claim, Goal, Node};
use crate::search::Outcome;
use crate::solve::{SolveError, SolveSetup};
use crate::tables::Tables;
use fanorona_engine::movegen::children;
use fanorona_engine::{Board, Color, Position};
use std::collections::{HashMap, HashSet};

/// Which positions the tables answer: every one of at most so many stones, and these
/// materials (stones to move, waiting) above that.
pub(crate) fn table_reach(tables: Option<&Tables>) -> (usize, Vec<(usize, usize)>) {
    let Some(tables) = tables else {
        return (0, Vec::new());
    };
    let layer = tables.partial_layer();
    let materials = layer.iter().map(|m| (m.mover, m.waiting)).collect();
    (tables.max_stones(), materials)
}

/// The certificate of `claim` at `position`, with the board, rules and tables of `setup`.
pub(crate) fn certificate_of(setup: &SolveSetup, position: &Position, claim: Claim) -> Certificate {
    let (stones, materials) = table_reach(setup.tables);
    let mut certificate = Certificate::new(setup.board, setup.rules, stones, &materials, position);
    certificate.claims.push(claim);
    certificate
}

/// Why `certificate` cannot be taken by a search of `setup` as it stands (another board or
/// rules, or tables `setup` lacks), or none where it is of this game and of its tables or
/// fewer.
pub fn out_of_reach(setup: &SolveSetup, certificate: &Certificate) -> Option<String> {
    let (stones, _) = table_reach(setup.tables);
    let expected = expected_for(setup, certificate);
    let within_reach = certificate.table_stones <= expected.table_stones
        && certificate.table_materials.iter().all(|&(mover, waiting)| {
            (mover + waiting) as usize <= stones
                || expected.table_materials.contains(&(mover, waiting))
        });
    (!same_game(certificate, &expected) || !within_reach).then(|| {
        format!(
            "a certificate of {}x{} with tables of {} stones{}, not of this search's {} with {} \
             stones{} (or fewer) and its rules",
            certificate.rows,
            certificate.columns,
            certificate.table_stones,
            materials_named(&certificate.table_materials),
            setup.board.size_name(),
            stones,
            materials_named(&expected.table_materials),
        )
    })
}

/// An empty certificate of `certificate`'s root with `setup`'s board, rules and tables.
fn expected_for(setup: &SolveSetup, certificate: &Certificate) -> Certificate {
    let (stones, materials) = table_reach(setup.tables);
    let root = certificate.root.position();
    Certificate::new(setup.board, setup.rules, stones, &materials, &root)
}

/// Whether two certificates are of the same board and rules.
fn same_game(a: &Certificate, b: &Certificate) -> bool {
    (a.rows, a.columns, a.blocked) == (b.rows, b.columns, b.blocked)
}

/// `certificate` (of `setup`'s board and rules, and of its tables or fewer) as one of
/// `setup`'s tables, checked against them: where it has a position within the larger reach,
/// that table's verified value must agree with the strategy. Refused, with the reason, when
/// it is of another game, of tables `setup` lacks, or does not hold.
pub fn over_these_tables(
    setup: &SolveSetup,
    certificate: &Certificate,
) -> Result<Certificate, SolveError> {
    if let Some(why) = out_of_reach(setup, certificate) {
        return Err(SolveError(why));
    }
    checked_with_these_tables(setup, certificate)
}

/// `certificate`, of `setup`'s board and rules, checked with `setup`'s tables as its leaves
/// whatever tables it was made with: one made over more tables than `setup` has holds where
/// its strategy never reaches the tables `setup` lacks (a settled subtree far above them, say).
/// Refused, with the reason, when it is of another game or does not hold so.
pub fn checked_with_these_tables(
    setup: &SolveSetup,
    certificate: &Certificate,
) -> Result<Certificate, SolveError> {
    let expected = expected_for(setup, certificate);
    if !same_game(certificate, &expected) {
        return Err(SolveError(format!(
            "a certificate of {}x{} or of other rules, not of this search's {}",
            certificate.rows,
            certificate.columns,
            setup.board.size_name()
        )));
    }
    let certificate = Certificate {
        table_stones: expected.table_stones,
        table_materials: expected.table_materials,
        ..certificate.clone()
    };
    crate::check::check(&certificate, setup.tables)
        .map_err(|refuted| SolveError(format!("the certificate does not hold: {refuted}")))?;
    Ok(certificate)
}

/// " and 4v5, 5v4" for a certificate's partial layer, "" for none.
fn materials_named(materials: &[(u8, u8)]) -> String {
    if materials.is_empty() {
        return String::new();
    }
    let names: Vec<String> = materials.iter().map(|(m, w)| format!("{m}v{w}")).collect();
    format!(" and {}", names.join(", "))
}

/// What the claims of `taken` settle for the question "can `attacker` force a win?": a win of
/// the attacker proves its root; a win or a hold of the other side disproves it (a hold of the
/// attacker says nothing of its winning).
pub fn taken_leaves(taken: &[Certificate], attacker: Color) -> Vec<(Position, Outcome)> {
    let mut leaves = Vec::new();
    for certificate in taken {
        for claim in &certificate.claims {
            let outcome = match (claim.strategist() == attacker, claim.goal) {
                (true, Goal::Win) => Outcome::Proven,
                (true, Goal::NotLose) => continue,
                (false, _) => Outcome::Disproven,
            };
            leaves.push((certificate.root.position(), outcome));
        }
    }
    leaves
}

/// Whether a claim taken in serves `claim`'s strategist for its goal: its win for a win, its
/// win or hold for a hold.
fn serves(taken: &Claim, claim: &Claim) -> bool {
    taken.strategist_is_white == claim.strategist_is_white
        && (claim.goal == Goal::NotLose || taken.goal == Goal::Win)
}

/// `claim`, read off a search of `root` that took `taken` in, with the strategies of those
/// taken claims it reaches (their roots were its leaves) joined to its own. Where both choose
/// at one position, `claim`'s choice stays. Whether the whole holds is the checker's to say.
pub fn joined_with_taken(
    board: &Board,
    claim: Claim,
    taken: &[Certificate],
    root: &Position,
) -> Claim {
    let mut by_root: HashMap<Node, Vec<&Claim>> = HashMap::new();
    for certificate in taken {
        for part in certificate
            .claims
            .iter()
            .filter(|part| serves(part, &claim))
        {
            by_root.entry(certificate.root).or_default().push(part);
        }
    }
    if by_root.is_empty() {
        return claim;
    }
    let reached = reached_roots(board, &claim, &by_root, root);
    let mut strategy = claim.strategy;
    for node in reached {
        for part in &by_root[&node] {
            strategy.extend(part.strategy.iter().copied());
        }
    }
    // Stable: of the same position, the entry that came first (the claim's own) stays.
    strategy.sort_by_key(|(node, _)| *node);
    strategy.dedup_by_key(|(node, _)| *node);
    Claim { strategy, ..claim }
}

/// The roots among `roots` that `claim`'s strategy reaches: `root` itself, the strategist's
/// choices, and every turn of the other side.
fn reached_roots(
    board: &Board,
    claim: &Claim,
    roots: &HashMap<Node, Vec<&Claim>>,
    root: &Position,
) -> HashSet<Node> {
    let mut reached = HashSet::new();
    let mut look = |node: Node| {
        if roots.contains_key(&node) {
            reached.insert(node);
        }
    };
    look(Node::of(root));
    let mut next = Vec::new();
    for &(node, choice) in &claim.strategy {
        match choice {
            Some(choice) => look(choice),
            None => {
                next.clear();
                children(board, &node.position(), &mut next);
                next.iter().for_each(|child| look(Node::of(child)));
            }
        }
    }
    reached
}
