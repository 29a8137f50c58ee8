//! The game value of a position: two proof-number searches, and the certificate that proves it.
//!
//! "Can the side to move force a win?" and "can the side waiting force a win?" are searched at
//! the same time, each in its own thread with its own transposition table. One proven gives a
//! win or a loss; both disproven give a draw. The certificate (see [`crate::certificate`]) is
//! then read off the searches' tables: a proof gives the winner's strategy, a disproof the other
//! side's non-losing strategy. Where a table entry has been overwritten, that position is
//! searched again. If only one search settled, as a disproof, its hold is written down alone: a
//! certificate of a bound ("this side cannot force a win"), not of the value.

use crate::certificate::{Certificate, Claim, Goal, Node};
use crate::index::Material;
use crate::progress::{NoProgress, Progress};
use crate::run_lock::{lock_beside, RunLock};
use crate::search::{Limits, Outcome, Search};
use crate::tables::Tables;
use crate::taken::joined_with_taken;
use fanorona_engine::movegen::children;
use fanorona_engine::notation::format_position;
use fanorona_engine::{Board, Color, Position, Rules, Value};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

mod real_heights;

/// Search stacks grow with the length of the lines searched; give them room.
pub(crate) const SEARCH_STACK: usize = 1 << 30;

/// The result of solving one position.
#[derive(Debug)]
pub struct Solution {
    /// For the side to move; `None` if a search hit its limit first.
    pub value: Option<Value>,
    /// The outcome of "the side to move forces a win" and of "the side waiting forces a win".
    pub mover_wins: Outcome,
    pub waiting_wins: Outcome,
    /// Nodes expanded by both searches (certificate extraction included).
    pub nodes: u64,
    /// The proof and disproof numbers each search's table holds for the root where it stopped
    /// (side to move's search, then the other's; none for a search not run): how near an
    /// unsettled question is to an answer, to choose which to work on next.
    pub root_numbers: [Option<(u32, u32)>; 2],
    /// The value's certificate, or where the value is not settled but one side was shown
    /// unable to force a win, the certificate of that bound (one hold).
    pub certificate: Option<Certificate>,
    /// (Only from [`solve_keeping_outcomes`].) Why no certificate could be read off the
    /// settled searches; `certificate` is then `None`.
    pub certificate_failed: Option<SolveError>,
}

/// Why a solve gave no answer: a saved search that could not be read or written (the file
/// named), or no certificate read off a settled search. The message says which.
#[derive(Debug)]
pub struct SolveError(pub String);

impl SolveError {
    /// No certificate could be read off a settled search, for `why`.
    pub(super) fn no_certificate(why: impl fmt::Display) -> SolveError {
        SolveError(format!("no certificate: {why}"))
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SolveError {}

/// What a solve needs besides the position.
#[derive(Clone, Copy)]
pub struct SolveSetup<'a> {
    pub board: &'a Board,
    pub rules: Rules,
    pub tables: Option<&'a Tables>,
    /// Limits for each of the two searches (memory is per search).
    pub limits: Limits,
    pub certificate: bool,
    pub stop: Option<&'a AtomicBool>,
    pub progress: &'a dyn Progress,
    /// Where to keep each search's table between runs: while the value is not settled (or its
    /// certificate not yet read off) both searches are saved there, and the next run with the
    /// same directory goes on from them. They stay there once the value is settled too, until
    /// [`remove_saved_searches`] (after the certificate is written).
    pub state: Option<&'a Path>,
    /// With `state`: also save each search there this often while it runs (a run that is
    /// killed then loses at most that much).
    pub save_every: Option<std::time::Duration>,
    /// Where `state` holds no saved search of a root, start from the one this directory holds
    /// under the same name, if any: a search's top kept with the code ([`write_top`]), for a
    /// machine that lost its saved searches.
    pub from_top: Option<&'a Path>,
    /// Where neither `state` nor `from_top` holds a saved search of a root, start from the
    /// search saved in this file, whatever its root (the same attacker's): a search split
    /// by hand into its open children goes on in each from the work of the search above.
    /// Its settled entries hold wherever they come up; its open ones only guide.
    pub from_search: Option<&'a Path>,
    /// Run only the search "can this side force a win?" (the other is left unknown, and its
    /// saved state, if any, is kept until the value is settled): half the memory and one core,
    /// for a question that needs them all.
    pub only: Option<Color>,
    /// Certificates taken in, each checked against `tables` first (see
    /// [`crate::taken::over_these_tables`]): their roots are leaves of the searches, settled as
    /// the claims say, and the strategies of those a certificate read off reaches join it.
    pub taken: &'a [Certificate],
}

impl<'a> SolveSetup<'a> {
    /// Both searches, a certificate, the standard rules, nothing saved, no Ctrl-C to come and
    /// no progress to show: the plain setup that a test, a benchmark or an example starts
    /// from, changing what it needs with struct update syntax.
    pub fn new(board: &'a Board, tables: Option<&'a Tables>, limits: Limits) -> SolveSetup<'a> {
        SolveSetup {
            board,
            rules: Rules::default(),
            tables,
            limits,
            certificate: true,
            stop: None,
            progress: &NoProgress,
            state: None,
            save_every: None,
            from_top: None,
            from_search: None,
            only: None,
            taken: &[],
        }
    }
}

/// Solve `root`: its value for the side to move, and a certificate if asked for.
pub fn solve(setup: &SolveSetup, root: &Position) -> Result<Solution, SolveError> {
    let mut solution = solve_keeping_outcomes(setup, root)?;
    match solution.certificate_failed.take() {
        Some(failed) => Err(failed),
        None => Ok(solution),
    }
}

/// [`solve`], except that where no certificate can be read off a settled search (reading off
/// searches positions again, and such a search can stop unsettled), the searches' outcomes
/// still come back, with the reason in [`Solution::certificate_failed`]: a split leaves that
/// position open and splits it, instead of losing the run.
pub fn solve_keeping_outcomes(setup: &SolveSetup, root: &Position) -> Result<Solution, SolveError> {
    let _locks = lock_saved_searches(setup, root)?;
    let mover = root.side;
    let (for_mover, for_waiting) = std::thread::scope(|scope| {
        let search_for = |attacker: Color| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || search_one_side(setup, root, attacker))
                .expect("a search thread")
        };
        let a = search_for(mover);
        let b = search_for(mover.other());
        (
            a.join().expect("search thread panicked"),
            b.join().expect("search thread panicked"),
        )
    });
    let (mut for_mover, mut for_waiting) = (for_mover?, for_waiting?);
    let (mover_wins, waiting_wins) = (for_mover.1, for_waiting.1);
    let value = value_of(mover_wins, waiting_wins)?;
    // Both searches are kept, settled or not, while something is left to do: a draw's
    // certificate is read off both tables, so a settled search must not be thrown away while
    // the other goes on (or while the certificate is still to be read off).
    if let Some(directory) = setup.state {
        if value.is_none() || setup.certificate {
            save_searches(setup, directory, root, [&for_mover.0, &for_waiting.0])?;
        }
    }
    let interrupted = setup.stop.is_some_and(|flag| flag.load(Ordering::Relaxed));
    // Only the claims the value needs: the winner's proof, or both holds; else the one hold
    // that was found (unless the run was interrupted: re-searches would stop at once).
    let to_certify: Vec<&mut (Search, Outcome)> = match value {
        _ if !setup.certificate => Vec::new(),
        Some(Value::Win) => vec![&mut for_mover],
        Some(Value::Loss) => vec![&mut for_waiting],
        Some(Value::Draw) => vec![&mut for_mover, &mut for_waiting],
        None if interrupted => Vec::new(),
        None => [&mut for_mover, &mut for_waiting]
            .into_iter()
            .filter(|search| search.1 == Outcome::Disproven)
            .collect(),
    };
    let (certificate, certificate_failed) = if to_certify.is_empty() {
        (None, None)
    } else {
        match certificate_of(setup, root, to_certify) {
            Ok(certificate) => (Some(certificate), None),
            Err(failed) => (None, Some(failed)),
        }
    };
    Ok(Solution {
        value,
        mover_wins,
        waiting_wins,
        nodes: for_mover.0.nodes() + for_waiting.0.nodes(),
        root_numbers: [&for_mover, &for_waiting].map(|(search, _)| {
            let ran = setup.only.is_none_or(|side| side == search.attacker());
            search.stored_numbers(root).filter(|_| ran)
        }),
        certificate,
        certificate_failed,
    })
}

/// The search "can `attacker` force a win from `root`?", resumed from its saved state where
/// there is one, and its outcome (an idle search, unknown, where --only asks the other side).
fn search_one_side<'a>(
    setup: &SolveSetup<'a>,
    root: &Position,
    attacker: Color,
) -> Result<(Search<'a>, Outcome), SolveError> {
    if setup.only.is_some_and(|side| side != attacker) {
        return Ok((idle_search(setup, attacker), Outcome::Unknown));
    }
    let mut search = new_search(setup, attacker);
    let saved = setup.state.map(|dir| state_file(dir, root, attacker));
    let top = setup.from_top.map(|dir| state_file(dir, root, attacker));
    if let Some(file) = saved.as_ref().filter(|f| f.exists()) {
        search.resume(file).map_err(|e| SolveError(e.to_string()))?;
        setup.progress.resumed(search.nodes());
    } else if let Some(file) = top.as_ref().filter(|f| f.exists()) {
        search.resume(file).map_err(|e| SolveError(e.to_string()))?;
        setup.progress.note(&format!(
            "no saved search: starting from the top kept in {} ({} nodes)",
            file.display(),
            search.nodes()
        ));
    } else if let Some(file) = setup.from_search {
        search.resume(file).map_err(|e| SolveError(e.to_string()))?;
        setup.progress.note(&format!(
            "no saved search: starting from the search saved in {} ({} nodes)",
            file.display(),
            search.nodes()
        ));
    }
    if let (Some(file), Some(every)) = (saved, setup.save_every) {
        search.save_every(file, every);
    }
    let outcome = search.solve(root);
    if outcome != Outcome::Unknown {
        let answer = if outcome == Outcome::Proven {
            "yes"
        } else {
            "no"
        };
        setup.progress.note(&format!(
            "can {attacker:?} force a win? {answer} ({} nodes)",
            search.nodes()
        ));
    }
    Ok((search, outcome))
}

/// The value for the side to move that the two searches' outcomes give, if they settle it.
fn value_of(mover_wins: Outcome, waiting_wins: Outcome) -> Result<Option<Value>, SolveError> {
    Ok(match (mover_wins, waiting_wins) {
        (Outcome::Proven, Outcome::Proven) => {
            return Err(SolveError(
                "both sides proven to win: the search is inconsistent".into(),
            ))
        }
        (Outcome::Proven, _) => Some(Value::Win),
        (_, Outcome::Proven) => Some(Value::Loss),
        (Outcome::Disproven, Outcome::Disproven) => Some(Value::Draw),
        _ => None,
    })
}

/// Save the searches that ran (both, or the one of --only) into `directory`.
fn save_searches(
    setup: &SolveSetup,
    directory: &Path,
    root: &Position,
    searches: [&Search; 2],
) -> Result<(), SolveError> {
    let ran = searches
        .into_iter()
        .filter(|search| setup.only.is_none_or(|side| side == search.attacker()));
    for search in ran {
        let file = state_file(directory, root, search.attacker());
        search.save(&file).map_err(|e| SolveError(e.to_string()))?;
    }
    Ok(())
}

/// The certificate of `root` holding one claim per settled search of `searches`, each read
/// off its search (on a thread of its own: reading off recurses as deep as the proof).
fn certificate_of(
    setup: &SolveSetup,
    root: &Position,
    searches: Vec<&mut (Search, Outcome)>,
) -> Result<Certificate, SolveError> {
    let stones = setup.tables.map_or(0, Tables::max_stones);
    let partial: Vec<(usize, usize)> = setup.tables.map_or(Vec::new(), |tables| {
        let layer = tables.partial_layer();
        layer.iter().map(|m| (m.mover, m.waiting)).collect()
    });
    let mut certificate = Certificate::new(setup.board, setup.rules, stones, &partial, root);
    for (search, outcome) in searches {
        search.extend_limit(setup.limits.nodes);
        let claim = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, || extract(search, root, *outcome, setup.progress))
                .expect("an extraction thread")
                .join()
                .expect("extraction panicked")
        })?;
        certificate
            .claims
            .push(joined_with_taken(setup.board, claim, setup.taken, root));
    }
    Ok(certificate)
}

/// Remove the searches of `root` saved in `directory`, once its value is settled and its
/// certificate (if one was asked for) is safely written: nothing is left to go on from. Not
/// before: until then they are what the certificate can be read off again from ([`solve`]
/// keeps them).
pub fn remove_saved_searches(directory: &Path, root: &Position) -> std::io::Result<()> {
    for attacker in [Color::White, Color::Black] {
        let file = state_file(directory, root, attacker);
        if file.exists() {
            std::fs::remove_file(&file)?;
        }
    }
    Ok(())
}

/// The locks of the saved searches of `root` that this run makes (none without a state
/// directory): two runs of the same search would save over each other.
fn lock_saved_searches(setup: &SolveSetup, root: &Position) -> Result<Vec<RunLock>, SolveError> {
    let Some(directory) = setup.state else {
        return Ok(Vec::new());
    };
    [root.side, root.side.other()]
        .into_iter()
        .filter(|&attacker| setup.only.is_none_or(|side| side == attacker))
        .map(|attacker| {
            let lock = lock_beside(&state_file(directory, root, attacker));
            RunLock::take(&lock).map_err(|e| SolveError(e.to_string()))
        })
        .collect()
}

/// The file that keeps the search of `attacker` from `root` between runs.
pub fn state_file(directory: &Path, root: &Position, attacker: Color) -> PathBuf {
    let side = attacker.name();
    directory.join(format!("{:016x}-{side}.dfpn", fanorona_engine::hash(root)))
}

/// Where a search saved with [`SolveSetup::state`] stands, read back without searching.
#[derive(Debug, Clone)]
pub struct SavedSearch {
    pub attacker: Color,
    pub file: PathBuf,
    pub nodes: u64,
    /// The proof and disproof numbers the table holds for the root, if any.
    pub root: Option<(u32, u32)>,
    /// The root's numbers combined from its children's, as the search would see them on
    /// going on (none if the root has no turns): a search saved before the path's numbers were
    /// recorded at each save (`Search::record_live_path`) did not store an open root. No
    /// endgame table is opened for this: a child within them counts as the table of the search
    /// holds it, or as never searched.
    pub root_from_children: Option<(u32, u32)>,
    /// Per child of the root (every distinct position a turn leads to), the same.
    pub children: Vec<(Position, Option<(u32, u32)>)>,
    /// Positions closures held, and the open positions of the table, by number of stones.
    pub held_by_stones: Vec<usize>,
    pub open_by_stones: Vec<usize>,
    /// Held and open positions by material, of at most [`MATERIAL_STONES`] stones.
    pub held_by_material: Vec<(Material, usize)>,
    pub open_by_material: Vec<(Material, usize)>,
    /// The line the search works on from the root (see [`LineStep`]), as far as asked.
    pub line: Vec<LineStep>,
}

/// One ply of the line a saved search works on: from the root, the attacker's child with the
/// least proof number and the defender's with the least disproof number, among the children
/// the table holds as open (df-pn's choice, less its thresholds). Where it stops says where the
/// search is held up; a line that comes back to a position of its own stops there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineStep {
    /// The position the ply leads to, and the numbers the table holds for it.
    pub position: Position,
    pub numbers: (u32, u32),
    /// Of the position the ply leaves: its distinct children, and how many are open.
    pub children: usize,
    pub open_children: usize,
}

/// The most stones of the materials [`SavedSearch`] counts positions of: with the 9-stone layer
/// whole, the 10-stone materials are where the next tables would be built.
pub const MATERIAL_STONES: u32 = 10;

/// Read the search of `attacker` from `root` saved in `directory`, if there is one, with the
/// first `line_plies` plies of the line it works on. It takes as much memory as the file.
pub fn saved_search(
    board: &Board,
    rules: Rules,
    root: &Position,
    directory: &Path,
    attacker: Color,
    line_plies: usize,
) -> std::io::Result<Option<SavedSearch>> {
    let file = state_file(directory, root, attacker);
    let Some(mut search) = read_back(board, rules, attacker, &file)? else {
        return Ok(None);
    };
    let mut next = Vec::new();
    children(board, root, &mut next);
    Ok(Some(SavedSearch {
        attacker,
        nodes: search.nodes(),
        root: search.stored_numbers(root),
        root_from_children: search.numbers_from_children(root),
        children: next
            .iter()
            .map(|child| (*child, search.stored_numbers(child)))
            .collect(),
        held_by_stones: search.held_by_stones(),
        open_by_stones: search.open_by_stones(),
        held_by_material: search.held_by_material(MATERIAL_STONES),
        open_by_material: search.open_by_material(MATERIAL_STONES),
        line: line_of_work(&search, board, root, attacker, line_plies),
        file,
    }))
}

/// The search saved in `file`, read back whole (no tables, no nodes to search), or `None`
/// where there is no such file. It takes as much memory as the file.
fn read_back<'a>(
    board: &'a Board,
    rules: Rules,
    attacker: Color,
    file: &Path,
) -> std::io::Result<Option<Search<'a>>> {
    let Ok(metadata) = std::fs::metadata(file) else {
        return Ok(None);
    };
    // Room for every held position the file can hold (16 bytes each): a status must not drop
    // saved holds, whatever --held-memory the search ran with.
    let limits = Limits {
        nodes: 0,
        memory: metadata.len() as usize,
        held_memory: Some(2 * metadata.len() as usize),
        ..Limits::default()
    };
    let mut search = Search::new(board, rules, None, attacker, limits, &NoProgress);
    search.resume(file)?;
    Ok(Some(search))
}

/// Write the top of the search of `attacker` from `root` saved in `state` (its `most`
/// costliest slots: see [`Search::save_top`]) into `directory`, under the saved search's own
/// name, where [`SolveSetup::from_top`] finds it. Returns the file, the slots kept and the
/// search's nodes; `None` where `state` holds no such search. It takes as much memory as the
/// saved file.
pub fn write_top(
    board: &Board,
    rules: Rules,
    root: &Position,
    attacker: Color,
    state: &Path,
    directory: &Path,
    most: usize,
) -> std::io::Result<Option<(PathBuf, usize, u64)>> {
    let saved = state_file(state, root, attacker);
    let Some(search) = read_back(board, rules, attacker, &saved)? else {
        return Ok(None);
    };
    std::fs::create_dir_all(directory)?;
    let top = state_file(directory, root, attacker);
    let kept = search.save_top(&top, most)?;
    Ok(Some((top, kept, search.nodes())))
}

/// The line `search` works on from `root`, at most `plies` long (see [`LineStep`]).
fn line_of_work(
    search: &Search,
    board: &Board,
    root: &Position,
    attacker: Color,
    plies: usize,
) -> Vec<LineStep> {
    let mut line: Vec<LineStep> = Vec::new();
    let mut on_line = std::collections::HashSet::from([*root]);
    let mut at = *root;
    let mut next = Vec::new();
    while line.len() < plies {
        next.clear();
        children(board, &at, &mut next);
        let open: Vec<(Position, (u32, u32))> = next
            .iter()
            .filter_map(|child| Some((*child, search.stored_numbers(child)?)))
            .filter(|&(_, (proof, disproof))| proof != 0 && disproof != 0)
            .collect();
        let choice = if at.side == attacker {
            open.iter()
                .min_by_key(|(_, (proof, disproof))| (*proof, *disproof))
        } else {
            open.iter()
                .min_by_key(|(_, (proof, disproof))| (*disproof, *proof))
        };
        let Some(&(child, numbers)) = choice else {
            break;
        };
        line.push(LineStep {
            position: child,
            numbers,
            children: next.len(),
            open_children: open.len(),
        });
        if !on_line.insert(child) {
            break;
        }
        at = child;
    }
    line
}

/// A search that is not run (see [`SolveSetup::only`]): no nodes, the smallest table.
fn idle_search<'a>(setup: &SolveSetup<'a>, attacker: Color) -> Search<'a> {
    let limits = Limits {
        nodes: 0,
        memory: 0,
        ..Limits::default()
    };
    Search::new(
        setup.board,
        setup.rules,
        setup.tables,
        attacker,
        limits,
        setup.progress,
    )
}

pub(crate) fn new_search<'a>(setup: &SolveSetup<'a>, attacker: Color) -> Search<'a> {
    let mut search = Search::new(
        setup.board,
        setup.rules,
        setup.tables,
        attacker,
        setup.limits,
        setup.progress,
    );
    if let Some(flag) = setup.stop {
        search.stop_on(flag);
    }
    for (position, outcome) in crate::taken::taken_leaves(setup.taken, attacker) {
        search.take_as_leaf(position, outcome);
    }
    search
}

/// The strategy behind a finished search: the attacker's win if `outcome` is a proof, the
/// defender's non-losing strategy if it is a disproof.
pub(crate) fn extract(
    search: &mut Search,
    root: &Position,
    outcome: Outcome,
    progress: &dyn Progress,
) -> Result<Claim, SolveError> {
    let proof = outcome == Outcome::Proven;
    let strategist = if proof {
        search.attacker()
    } else {
        search.attacker().other()
    };
    let mut extraction = Extraction {
        search,
        proof,
        strategist,
        strategy: HashMap::new(),
        being_covered: HashSet::new(),
        joined: Vec::new(),
        handed_to_search: 0,
        progress,
    };
    let strategy = match extraction.cover(root)? {
        Covered::Done => extraction.strategy,
        Covered::Loop => {
            progress.note(
                "certificate: the least proof heights lead round a loop (heights gone stale \
                 where the table overwrote proofs); working out the real heights",
            );
            real_heights::winning_strategy(search, root, strategist, progress)?
        }
    };
    let mut strategy: Vec<(Node, Option<Node>)> = strategy
        .into_iter()
        .map(|(position, choice)| (Node::of(&position), choice.map(|c| Node::of(&c))))
        .collect();
    strategy.sort_unstable();
    Ok(Claim {
        strategist_is_white: strategist == Color::White,
        goal: if proof { Goal::Win } else { Goal::NotLose },
        strategy,
    })
}

/// A search again of `position`, for a certificate, that stopped unsettled.
pub(super) fn not_settled_again(board: &Board, position: &Position) -> SolveError {
    SolveError::no_certificate(format!(
        "searched {} again for it, the search stopped unsettled (the node limit, or Ctrl-C); \
         with --state the same command reads it off again from the saved search",
        format_position(board, position)
    ))
}

/// How many positions of a strategy being read off between two notes.
const STRATEGY_REPORT: usize = 1 << 20;

/// What covering a position came to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Covered {
    /// The strategy covers it, and everything it leads to.
    Done,
    /// (A win only.) The defender can come back to a position still being covered above:
    /// the strategy would go round for ever, which is no win.
    Loop,
}

struct Extraction<'s, 'a> {
    search: &'s mut Search<'a>,
    /// Reading off a proof (the attacker's win) or a disproof (the defender's hold).
    proof: bool,
    strategist: Color,
    strategy: HashMap<Position, Option<Position>>,
    /// The positions on the path being covered (joined, not finished).
    being_covered: HashSet<Position>,
    /// The strategy's positions in the order they joined it, and how many of them the search
    /// already counts as covered (handing it only the new ones keeps re-searches cheap).
    joined: Vec<Position>,
    handed_to_search: usize,
    progress: &'s dyn Progress,
}

impl Extraction<'_, '_> {
    /// The outcome wanted at every position of the strategy.
    fn wanted(&self) -> Outcome {
        if self.proof {
            Outcome::Proven
        } else {
            Outcome::Disproven
        }
    }

    /// Make sure the strategy covers `position`, which must have the wanted outcome. For a
    /// hold, a position met again is covered (a repetition is a draw); for a win, one still
    /// being covered above is a loop, and the whole reading off gives up.
    fn cover(&mut self, position: &Position) -> Result<Covered, SolveError> {
        if self.strategy.contains_key(position) {
            let looped = self.proof && self.being_covered.contains(position);
            return Ok(if looped { Covered::Loop } else { Covered::Done });
        }
        if self.is_leaf(position) {
            let (outcome, _) = self.search.known(position).expect("leaves are known");
            return self.expect(outcome, position).map(|()| Covered::Done);
        }
        let mut next = Vec::new();
        children(self.search_board(), position, &mut next);
        let choice = if position.side == self.strategist {
            Some(self.choose(position, &next)?)
        } else {
            None
        };
        self.join(position, choice);
        self.being_covered.insert(*position);
        self.search.enter_above(position);
        let covered = match choice {
            Some(choice) => self.cover(&choice),
            None => self.cover_each(&next),
        };
        self.search.leave_above(position);
        self.being_covered.remove(position);
        covered
    }

    /// Every turn of the strategist's opponent at a position.
    fn cover_each(&mut self, next: &[Position]) -> Result<Covered, SolveError> {
        for child in next {
            if self.cover(child)? == Covered::Loop {
                return Ok(Covered::Loop);
            }
        }
        Ok(Covered::Done)
    }

    fn join(&mut self, position: &Position, choice: Option<Position>) {
        self.strategy.insert(*position, choice);
        self.joined.push(*position);
        if self.joined.len() % STRATEGY_REPORT == 0 {
            self.progress.note(&format!(
                "certificate: {} positions of {:?}'s strategy so far ({} nodes)",
                self.joined.len(),
                self.strategist,
                self.search.nodes()
            ));
        }
    }

    fn search_board(&self) -> &Board {
        self.search.board()
    }

    fn is_leaf(&self, position: &Position) -> bool {
        self.search.is_leaf(position)
    }

    fn expect(&self, outcome: Outcome, position: &Position) -> Result<(), SolveError> {
        if outcome == self.wanted() {
            Ok(())
        } else {
            Err(SolveError::no_certificate(format!(
                "a leaf of the strategy has the wrong value ({})",
                format_position(self.search_board(), position)
            )))
        }
    }

    /// The strategist's turn at `position`: a leaf that settles it, else (for a hold) a turn
    /// back into the strategy, else the child with the wanted outcome in the search's table
    /// (for a win, the one of least proof height, so that the strategy never loops where the
    /// stored heights agree).
    fn choose(&mut self, position: &Position, next: &[Position]) -> Result<Position, SolveError> {
        let wanted = self.wanted();
        let mut best: Option<(u32, Position)> = None;
        for child in next {
            if !self.proof && self.strategy.contains_key(child) {
                return Ok(*child);
            }
            if let Some((outcome, height)) = self.search.known(child) {
                let height = if self.is_leaf(child) { 0 } else { height };
                if outcome == wanted && best.is_none_or(|(h, _)| height < h) {
                    best = Some((height, *child));
                }
            }
        }
        if let Some((_, child)) = best {
            return Ok(child);
        }
        // The table does not know (a result that relied on the path, or one overwritten):
        // search this position again, with the strategy's path above it, and take the turn
        // that settles it. For a hold, every position already in the strategy is as good as a
        // repetition: the strategy will cover it, and loops are draws.
        if !self.proof {
            let new = &self.joined[self.handed_to_search..];
            self.search.cover_also(new.iter().copied());
            self.handed_to_search = self.joined.len();
        }
        let outcome = self.search.solve(position);
        if outcome == Outcome::Unknown {
            return Err(not_settled_again(self.search_board(), position));
        }
        let found = if outcome == wanted {
            self.search.root_choice()
        } else {
            None
        };
        found.ok_or_else(|| {
            SolveError::no_certificate(format!(
                "no turn of the strategist keeps the result at {}",
                format_position(self.search_board(), position)
            ))
        })
    }
}
