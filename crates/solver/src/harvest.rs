//! The subtrees a long search settled, written down as certificates that outlive it.
//!
//! A search of tens of billions of nodes keeps what it learnt in its transposition table alone:
//! a saved file of gigabytes, lost with the machine. Most of its work went into subtrees it
//! settled on the way (a defender's turn disproven, an attacker's win proven), and the table
//! remembers each settled position with the nodes its subtree cost. Harvesting reads a saved
//! search back and writes the certificate of each settled position that cost at least so many
//! nodes, the costliest first, skipping those inside a strategy already written: small packed
//! files, each checked before it is written, that a later search takes in
//! ([`crate::taken`]) as leaves, so that it never searches those subtrees again.

use crate::certificate::{Certificate, Node};
use crate::search::{Outcome, Search, KEPT_FOR_GOOD};
use crate::solve::{extract, new_search, state_file, SolveError, SolveSetup, SEARCH_STACK};
use crate::taken::{certificate_of, joined_with_taken};
use fanorona_engine::{hash, Color, Position};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// What to harvest, and where to.
pub struct HarvestRequest<'a> {
    /// The board, rules and tables; `limits.memory` the table to read the saved search into
    /// (as large as it was searched with, or some of it is lost), `limits.nodes` the most
    /// nodes reading off one certificate may search again; `taken` as the search had them.
    pub setup: SolveSetup<'a>,
    /// The saved search: its root, its attacker, the directory it was saved in.
    pub root: Position,
    pub attacker: Color,
    pub state: &'a Path,
    /// The least work (nodes) of a settled position worth a certificate.
    pub min_work: u64,
    /// Where the certificates go (made if missing); those already there count as written.
    pub directory: &'a Path,
}

/// One certificate written.
#[derive(Debug, Clone)]
pub struct Harvested {
    pub position: Position,
    /// The answer there to the search's question ("can the attacker force a win?").
    pub outcome: Outcome,
    /// The nodes the search had spent below it; none for a turn of the root, kept in the table
    /// for good (its work is not saved).
    pub work: Option<u64>,
    /// The strategy's positions, and the file's size.
    pub positions: usize,
    pub bytes: u64,
    pub file: PathBuf,
}

/// What a harvest did.
#[derive(Debug, Default)]
pub struct Harvest {
    /// The saved search's nodes.
    pub search_nodes: u64,
    /// Settled positions of at least the least work, and of those: ...
    pub candidates: usize,
    /// ... written now, ...
    pub written: Vec<Harvested>,
    /// ... inside a strategy written (now or by an earlier harvest), ...
    pub inside: usize,
    /// ... and not written: no certificate read off within the nodes, or one that does not
    /// hold (each with the reason).
    pub failed: Vec<(Position, String)>,
    /// Certificates the directory held before.
    pub kept_before: usize,
}

/// Harvest the saved search of `request` (see the module's notes), calling `on_written` for
/// each certificate as it is written.
pub fn harvest(
    request: &HarvestRequest,
    on_written: &mut (dyn FnMut(&Harvested) + Send),
) -> Result<Harvest, SolveError> {
    let setup = &request.setup;
    let file = state_file(request.state, &request.root, request.attacker);
    if !file.exists() {
        return Err(SolveError(format!(
            "{}: no saved search of this position and side",
            file.display()
        )));
    }
    std::fs::create_dir_all(request.directory)
        .map_err(|e| SolveError(format!("{}: {e}", request.directory.display())))?;
    let (kept_before, mut covered) = strategies_in(request.directory)?;
    let mut search = new_search(setup, request.attacker);
    search
        .resume(&file)
        .map_err(|e| SolveError(e.to_string()))?;
    let candidates = search.settled_by_work(request.min_work);
    setup.progress.note(&format!(
        "harvest: {} settled positions of at least {} nodes in {} ({} nodes)",
        candidates.len(),
        request.min_work,
        file.display(),
        search.nodes()
    ));
    let mut harvest = Harvest {
        search_nodes: search.nodes(),
        candidates: candidates.len(),
        kept_before,
        ..Harvest::default()
    };
    // Reading off recurses as deep as the strategy: on a thread with room for it.
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(SEARCH_STACK)
            .spawn_scoped(scope, || {
                for (position, outcome, work) in candidates {
                    if covered.contains(&Node::of(&position)) {
                        harvest.inside += 1;
                        continue;
                    }
                    let settled = Settled {
                        position,
                        outcome,
                        work,
                    };
                    match write_one(request, &mut search, &settled, &mut covered) {
                        Ok(harvested) => {
                            on_written(&harvested);
                            harvest.written.push(harvested);
                        }
                        Err(why) => harvest.failed.push((position, why.to_string())),
                    }
                }
            })
            .expect("a harvest thread")
            .join()
            .expect("harvest panicked")
    });
    Ok(harvest)
}

/// A settled position of the table.
struct Settled {
    position: Position,
    outcome: Outcome,
    work: u64,
}

/// Read off, check and write the certificate of `settled`, adding its strategy to `covered`.
fn write_one(
    request: &HarvestRequest,
    search: &mut Search,
    settled: &Settled,
    covered: &mut HashSet<Node>,
) -> Result<Harvested, SolveError> {
    let setup = &request.setup;
    let position = &settled.position;
    search.extend_limit(setup.limits.nodes);
    let claim = extract(search, position, settled.outcome, setup.progress);
    search.end_reading_off();
    let claim = joined_with_taken(setup.board, claim?, setup.taken, position);
    let positions = claim.strategy.len();
    let certificate = certificate_of(setup, position, claim);
    crate::check::check(&certificate, setup.tables)
        .map_err(|refuted| SolveError(format!("the certificate does not hold: {refuted}")))?;
    let file = request
        .directory
        .join(file_name(position, request.attacker, settled.outcome));
    let bytes = write_packed(&certificate, &file)?;
    covered.insert(Node::of(position));
    covered.extend(certificate.claims[0].strategy.iter().map(|(node, _)| *node));
    Ok(Harvested {
        position: *position,
        outcome: settled.outcome,
        work: (settled.work < KEPT_FOR_GOOD).then_some(settled.work),
        positions,
        bytes,
        file,
    })
}

/// `HASH-SIDE-win.fnpack` or `HASH-SIDE-hold.fnpack`: the position (by its hash) and the
/// claim, SIDE the strategist.
fn file_name(position: &Position, attacker: Color, outcome: Outcome) -> String {
    let (strategist, goal) = match outcome {
        Outcome::Proven => (attacker, "win"),
        _ => (attacker.other(), "hold"),
    };
    format!(
        "{:016x}-{}-{goal}.fnpack",
        hash(position),
        strategist.name()
    )
}

/// Write `certificate` packed to `file` (whole where it cannot be packed), through a partial
/// file so that a harvest stopped midway leaves no half-written certificate. Returns the bytes.
fn write_packed(certificate: &Certificate, file: &Path) -> Result<u64, SolveError> {
    let partial = file.with_extension("fnpack.part");
    let failed = |e: &dyn std::fmt::Display| SolveError(format!("{}: {e}", file.display()));
    certificate
        .write_packed(&partial)
        .map(|_| ())
        .or_else(|_| certificate.write(&partial))
        .map_err(|e| failed(&e))?;
    std::fs::rename(&partial, file).map_err(|e| failed(&e))?;
    let bytes = std::fs::metadata(file).map_err(|e| failed(&e))?.len();
    Ok(bytes)
}

/// The certificates (`.fnpack`, `.proof`) in `directory`, sorted by name: what a harvest wrote
/// there, for a search to take in.
pub fn certificates_in(directory: &Path) -> Result<Vec<PathBuf>, SolveError> {
    let entries = std::fs::read_dir(directory)
        .map_err(|e| SolveError(format!("{}: {e}", directory.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "fnpack" || extension == "proof")
        })
        .collect();
    files.sort();
    Ok(files)
}

/// How many certificates `directory` holds, and every position of their strategies.
fn strategies_in(directory: &Path) -> Result<(usize, HashSet<Node>), SolveError> {
    let files = certificates_in(directory)?;
    let mut covered = HashSet::new();
    for file in &files {
        let certificate = Certificate::read(file).map_err(|e| SolveError(e.to_string()))?;
        covered.insert(certificate.root);
        for claim in &certificate.claims {
            covered.extend(claim.strategy.iter().map(|(node, _)| *node));
        }
    }
    Ok((files.len(), covered))
}
