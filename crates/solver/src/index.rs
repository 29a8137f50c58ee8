//! The index of a position within its material, with the side to move folded and the board's
//! symmetries used (index scheme 2).
//!
//! A material is (stones of the side to move, stones of the side waiting). Every position is
//! first brought to its canonical form: of its images under the board's symmetries (4 on a
//! non-square board, 8 on a square one), the one whose mover set is smallest, and among those the
//! one whose waiting set is smallest (sets compared as integers, which is their colex order).
//! The mover sets that are canonical, the *mover classes*, are numbered in increasing order, and
//!
//! ```text
//! index = class(mover) × C(N − a, b) + rank(waiting packed into the N − a free points)
//! ```
//!
//! with colex ranks (Σ C(cᵢ, i) over the set's points c₁ < c₂ < …). A mover class that some
//! symmetry fixes keeps all its waiting sets, so a few slots hold positions that are not
//! canonical; they are *redundant*, never used by the solver while it works, and filled with the
//! entry of their canonical image at the end so that every slot of a file is meaningful. On 5x9
//! this stores 1,642,902,864 slots for the 6,261,651,660 positions of up to 7 stones (3.8x
//! fewer).
//!
//! Colex order is the numeric order of the sets as integers, so enumerating indices in order
//! is a walk over the classes and Gosper's hack on the waiting sets (no unranking per position).

use crate::binomial::choose;
use fanorona_engine::{symmetries, Bitboard, Board, RectangleImages, Symmetry};
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Stones of the side to move and of the side waiting.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Material {
    pub mover: usize,
    pub waiting: usize,
}

impl Material {
    pub const fn new(mover: usize, waiting: usize) -> Material {
        Material { mover, waiting }
    }

    /// The material after the sides swap roles with no capture (a paika).
    pub const fn swapped(self) -> Material {
        Material {
            mover: self.waiting,
            waiting: self.mover,
        }
    }

    pub const fn stones(self) -> usize {
        self.mover + self.waiting
    }

    /// The material of `mover` against `waiting`.
    pub fn of(mover: Bitboard, waiting: Bitboard) -> Material {
        Material::new(mover.count() as usize, waiting.count() as usize)
    }
}

/// `3v6`: the side to move's stones, then the waiting side's (as `--only` takes them).
impl std::fmt::Display for Material {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.mover, self.waiting)
    }
}

/// The materials of a system: the material and its swap, once if they are the same (4v4).
pub fn system_materials(material: Material) -> impl Iterator<Item = Material> {
    let swapped = (material.swapped() != material).then_some(material.swapped());
    std::iter::once(material).chain(swapped)
}

/// `3v6+6v3`: the materials of a system (or any list of them), joined by `+`.
pub fn materials_name(materials: impl IntoIterator<Item = Material>) -> String {
    let names: Vec<String> = materials.into_iter().map(|m| m.to_string()).collect();
    names.join("+")
}

/// The symmetries of one board, the identity first, shared by all its indices.
pub struct BoardSymmetries {
    all: Vec<Symmetry>,
    /// On a board that is not square, the three other than the identity mapped at once.
    rectangle: Option<RectangleImages>,
}

impl BoardSymmetries {
    /// How many symmetries the board has (the identity included).
    pub fn count(&self) -> usize {
        self.all.len()
    }

    /// The canonical form of the position (mover, waiting); see the module documentation.
    #[inline]
    pub fn canonical(&self, mover: Bitboard, waiting: Bitboard) -> (Bitboard, Bitboard) {
        match &self.rectangle {
            Some(images) => canonical_on_a_rectangle(images, mover.0, waiting.0),
            None => self.canonical_one_by_one(mover, waiting),
        }
    }

    /// The canonical form by mapping the position with each symmetry in turn.
    fn canonical_one_by_one(&self, mover: Bitboard, waiting: Bitboard) -> (Bitboard, Bitboard) {
        let mut best = (mover, waiting);
        for symmetry in &self.all[1..] {
            let image = symmetry.set(mover);
            if image < best.0 {
                best = (image, symmetry.set(waiting));
            } else if image == best.0 {
                best.1 = best.1.min(symmetry.set(waiting));
            }
        }
        best
    }

    /// The symmetries, other than the identity, that map `set` onto itself, as a bit mask
    /// (bit k for symmetry k).
    pub fn stabiliser(&self, set: Bitboard) -> u8 {
        self.all
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, symmetry)| symmetry.set(set) == set)
            .fold(0, |mask, (k, _)| mask | 1 << k)
    }

    /// The symmetries of the mask `stabiliser`.
    fn members(&self, stabiliser: u8) -> impl Iterator<Item = &Symmetry> {
        self.all
            .iter()
            .enumerate()
            .filter(move |(k, _)| stabiliser >> k & 1 != 0)
            .map(|(_, symmetry)| symmetry)
    }
}

/// The canonical form on a board that is not square: the least of the four mover images, and
/// the least waiting image among the symmetries that give it. The waiting set is mapped only
/// where some symmetry other than the identity gives the least mover image.
#[inline]
fn canonical_on_a_rectangle(
    images: &RectangleImages,
    mover: u64,
    waiting: u64,
) -> (Bitboard, Bitboard) {
    let movers = images.images(mover);
    let least = movers.iter().fold(mover, |least, &image| least.min(image));
    if movers.iter().all(|&image| image != least) {
        return (Bitboard(mover), Bitboard(waiting));
    }
    let waitings = images.images(waiting);
    let mut best = if mover == least { waiting } else { u64::MAX };
    for (&image, &waiting_image) in movers.iter().zip(&waitings) {
        if image == least {
            best = best.min(waiting_image);
        }
    }
    (Bitboard(least), Bitboard(best))
}

/// How many canonical sets of `size` points `board` has, without listing them: the orbits
/// of the sets under the board's symmetries, by Burnside's lemma, the average over the
/// symmetries of how many sets each maps onto itself. A set a symmetry fixes is a union of
/// its cycles of points, so those of `size` points are counted by the coefficient of x^size
/// in the product over its cycles of (1 + x^length).
pub fn mover_class_count(board: &Board, size: usize) -> u64 {
    let all = symmetries(board);
    let fixed: u64 = all
        .iter()
        .map(|symmetry| {
            let mut sets_of_size = vec![0u64; size + 1];
            sets_of_size[0] = 1;
            for length in cycle_lengths(board, symmetry) {
                for total in (length..=size).rev() {
                    sets_of_size[total] += sets_of_size[total - length];
                }
            }
            sets_of_size[size]
        })
        .sum();
    fixed / all.len() as u64
}

/// The lengths of the cycles of the points of `board` under `symmetry`.
fn cycle_lengths(board: &Board, symmetry: &Symmetry) -> Vec<usize> {
    let mut seen = vec![false; board.points()];
    let mut lengths = Vec::new();
    for start in 0..board.points() {
        let mut length = 0;
        let mut point = start;
        while !seen[point] {
            seen[point] = true;
            length += 1;
            point = symmetry.point(point as _) as usize;
        }
        if length > 0 {
            lengths.push(length);
        }
    }
    lengths
}

/// The canonical mover sets of one size on one board, numbered.
struct MoverClasses {
    points: usize,
    size: usize,
    symmetries: Arc<BoardSymmetries>,
    /// The class of each canonical set, by the set's colex rank: [`RankWord`]s of 64 ranks.
    by_rank: Vec<RankWord>,
    /// The canonical sets in increasing order (class k is `sets[k]`), and for each class the
    /// symmetries other than the identity that fix its set: listed the first time they are
    /// asked for, since only the jobs that go from slots to positions (builds,
    /// verifications, statistics) need them, and a probe needs neither (for the 8-stone
    /// movers on 5x9 they take 485 MB).
    listed: OnceLock<ListedClasses>,
}

struct ListedClasses {
    sets: Vec<u64>,
    stabilisers: Vec<u8>,
}

/// 64 colex ranks of sets: which are those of canonical sets, and how many canonical sets
/// come before the first. A canonical set's class is that count and the canonical ranks
/// below its own in the word: two bits a rank, where a class number per rank took 32, so
/// that the table of the 8-stone mover sets on 5x9 takes 54 MB instead of 862 MB, and more
/// of a table probed at random stays in the caches.
#[derive(Clone, Copy, Default)]
struct RankWord {
    canonical: u64,
    classes_before: u64,
}

impl MoverClasses {
    fn new(board: &Board, symmetries: Arc<BoardSymmetries>, size: usize) -> MoverClasses {
        let total = choose(board.points(), size);
        assert!(
            total <= u32::MAX as u64,
            "{size} stones on {} have too many sets to number",
            board.size_name()
        );
        let mut by_rank = vec![RankWord::default(); total.div_ceil(64) as usize];
        // In parallel, a run of consecutive ranks a task (215 M sets for 8 stones on 5x9).
        const WORDS_PER_TASK: usize = 1 << 12;
        let points = board.points();
        by_rank
            .par_chunks_mut(WORDS_PER_TASK)
            .enumerate()
            .for_each(|(task, words)| {
                let first = colex_unrank((task * WORDS_PER_TASK * 64) as u64, size, points);
                let sets = subsets_from(points, first).take(words.len() * 64);
                for (offset, set) in sets.enumerate() {
                    if symmetries.canonical(Bitboard(set), Bitboard::EMPTY).0 .0 == set {
                        words[offset / 64].canonical |= 1 << (offset % 64);
                    }
                }
            });
        let mut before = 0;
        for word in &mut by_rank {
            word.classes_before = before;
            before += word.canonical.count_ones() as u64;
        }
        MoverClasses {
            points,
            size,
            symmetries,
            by_rank,
            listed: OnceLock::new(),
        }
    }

    /// How many classes there are.
    fn count(&self) -> u64 {
        self.by_rank.last().map_or(0, |word| {
            word.classes_before + word.canonical.count_ones() as u64
        })
    }

    /// The canonical sets and their stabilisers, listed the first time.
    fn listed(&self) -> &ListedClasses {
        self.listed.get_or_init(|| {
            let mut listed = ListedClasses {
                sets: Vec::with_capacity(self.count() as usize),
                stabilisers: Vec::with_capacity(self.count() as usize),
            };
            for (rank, set) in k_subsets(self.points, self.size).enumerate() {
                if self.is_canonical_rank(rank as u64) {
                    listed.sets.push(set);
                    listed
                        .stabilisers
                        .push(self.symmetries.stabiliser(Bitboard(set)));
                }
            }
            listed
        })
    }

    /// Whether the set of colex rank `rank` is canonical.
    #[inline]
    fn is_canonical_rank(&self, rank: u64) -> bool {
        self.by_rank[(rank / 64) as usize].canonical >> (rank % 64) & 1 == 1
    }

    /// The class of the canonical set of colex rank `rank`.
    #[inline]
    fn class_of_rank(&self, rank: u64) -> u64 {
        debug_assert!(
            self.is_canonical_rank(rank),
            "only canonical sets have a class"
        );
        let word = self.by_rank[(rank / 64) as usize];
        let below = word.canonical & ((1 << (rank % 64)) - 1);
        word.classes_before + below.count_ones() as u64
    }
}

/// Symmetries per board and mover classes per board and set size, computed once per process.
type Shared = (Arc<BoardSymmetries>, Arc<MoverClasses>);

/// (rows, columns, mover stones) to what they share.
type SharedCache = Mutex<HashMap<(usize, usize, usize), Shared>>;

fn shared(board: &Board, mover: usize) -> Shared {
    static CACHE: OnceLock<SharedCache> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let key = (board.rows(), board.columns(), mover);
    if let Some(found) = cache.lock().expect("cache lock").get(&key) {
        return found.clone();
    }
    let symmetries = Arc::new(BoardSymmetries {
        all: symmetries(board),
        rectangle: RectangleImages::of(board),
    });
    let classes = Arc::new(MoverClasses::new(board, symmetries.clone(), mover));
    let mut cache = cache.lock().expect("cache lock");
    cache.entry(key).or_insert((symmetries, classes)).clone()
}

/// Ranks and unranks the positions of one material on one board.
#[derive(Clone)]
pub struct MaterialIndex {
    points: usize,
    material: Material,
    /// C(N − a, b): how many waiting sets each mover class has.
    waiting_sets: u64,
    symmetries: Arc<BoardSymmetries>,
    classes: Arc<MoverClasses>,
}

impl std::fmt::Debug for MaterialIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MaterialIndex")
            .field("points", &self.points)
            .field("material", &self.material)
            .field("classes", &self.classes.count())
            .finish()
    }
}

impl MaterialIndex {
    /// Whether this index can number `material` on `board`: the mover's sets are numbered
    /// with 32 bits, and the material must fit on the board.
    pub fn can_number(board: &Board, material: Material) -> bool {
        material.stones() <= board.points()
            && choose(board.points(), material.mover) <= u32::MAX as u64
    }

    pub fn new(board: &Board, material: Material) -> MaterialIndex {
        let points = board.points();
        assert!(
            material.stones() <= points,
            "{material:?} does not fit on {}",
            board.size_name()
        );
        let (symmetries, classes) = shared(board, material.mover);
        MaterialIndex {
            points,
            material,
            waiting_sets: choose(points - material.mover, material.waiting),
            symmetries,
            classes,
        }
    }

    pub fn material(&self) -> Material {
        self.material
    }

    /// The number of points of the board.
    pub fn points(&self) -> usize {
        self.points
    }

    /// The number of slots of this material (canonical positions and a few redundant ones).
    pub fn size(&self) -> u64 {
        self.mover_classes() * self.waiting_sets
    }

    /// [`MaterialIndex::size`] without building the index (which looks at every mover set:
    /// 215 M for 8v1 on 5x9, seconds), for what only needs the size, such as a listing of the
    /// files.
    pub fn size_of(board: &Board, material: Material) -> u64 {
        let waiting_sets = choose(board.points() - material.mover, material.waiting);
        mover_class_count(board, material.mover) * waiting_sets
    }

    /// The number of positions of this material, before symmetry: C(N, a) × C(N − a, b).
    pub fn positions_before_symmetry(&self) -> u64 {
        choose(self.points, self.material.mover) * self.waiting_sets
    }

    /// The number of mover classes.
    pub fn mover_classes(&self) -> u64 {
        self.classes.count()
    }

    /// The canonical mover set of class `class`.
    pub fn mover_set(&self, class: u64) -> Bitboard {
        Bitboard(self.classes.listed().sets[class as usize])
    }

    /// Whether some symmetry other than the identity fixes the mover set of `class` (only such
    /// classes have redundant slots).
    pub fn is_symmetric_class(&self, class: u64) -> bool {
        self.classes.listed().stabilisers[class as usize] != 0
    }

    /// The number of waiting sets per mover class.
    pub fn waiting_sets(&self) -> u64 {
        self.waiting_sets
    }

    /// The board's symmetries.
    pub fn symmetries(&self) -> &BoardSymmetries {
        &self.symmetries
    }

    /// The index of a position of this material (any of its symmetric images gives the same).
    #[inline]
    pub fn index(&self, mover: Bitboard, waiting: Bitboard) -> u64 {
        let (mover_rank, waiting_rank) = self.canonical_ranks(mover, waiting);
        self.index_of_ranks(mover_rank, waiting_rank)
    }

    /// The first half of [`MaterialIndex::index`], all arithmetic: the colex ranks of the
    /// canonical form's mover set (among all sets) and waiting set (among the free points).
    #[inline]
    pub fn canonical_ranks(&self, mover: Bitboard, waiting: Bitboard) -> (u64, u64) {
        debug_assert_eq!(Material::of(mover, waiting), self.material);
        let (mover, waiting) = self.symmetries.canonical(mover, waiting);
        self.ranks_of_canonical(mover, waiting)
    }

    /// [`MaterialIndex::canonical_ranks`] of a position already in its canonical form (the
    /// caller's word: a form that is not canonical gets a wrong index).
    #[inline]
    pub fn ranks_of_canonical(&self, mover: Bitboard, waiting: Bitboard) -> (u64, u64) {
        let free = self.all_points() & !mover;
        (colex_rank(mover.0), colex_rank(waiting.extract(free)))
    }

    /// Start loading what [`MaterialIndex::index_of_ranks`] will read for `mover_rank`.
    #[inline]
    pub fn prefetch_class(&self, mover_rank: u64) {
        crate::prefetch::prefetch(&self.classes.by_rank[(mover_rank / 64) as usize]);
    }

    /// The second half of [`MaterialIndex::index`]: one lookup of the mover class. Doing the
    /// halves for many positions in turn lets their memory accesses overlap.
    #[inline]
    pub fn index_of_ranks(&self, mover_rank: u64, waiting_rank: u64) -> u64 {
        self.classes.class_of_rank(mover_rank) * self.waiting_sets + waiting_rank
    }

    /// The position in slot `index`: (mover, waiting). For a redundant slot, a position that is
    /// not canonical.
    pub fn position(&self, index: u64) -> (Bitboard, Bitboard) {
        let mover = self.mover_set(index / self.waiting_sets);
        (mover, self.waiting_set(mover, index % self.waiting_sets))
    }

    /// Whether the slot of this position, whose mover set is that of class `class`, is
    /// redundant: some symmetry that fixes the mover set makes the waiting set smaller.
    #[inline]
    pub fn is_redundant(&self, class: u64, waiting: Bitboard) -> bool {
        let stabiliser = self.classes.listed().stabilisers[class as usize];
        stabiliser != 0
            && self
                .symmetries
                .members(stabiliser)
                .any(|symmetry| symmetry.set(waiting) < waiting)
    }

    /// How many positions of the material the slot of this position stands for: the size of its
    /// orbit under the symmetries, or 0 for a redundant slot.
    pub fn weight(&self, class: u64, waiting: Bitboard) -> u64 {
        let count = self.symmetries.count() as u64;
        let stabiliser = self.classes.listed().stabilisers[class as usize];
        if stabiliser == 0 {
            return count;
        }
        if self.is_redundant(class, waiting) {
            return 0;
        }
        let fixing = self
            .symmetries
            .members(stabiliser)
            .filter(|symmetry| symmetry.set(waiting) == waiting)
            .count() as u64;
        count / (1 + fixing)
    }

    /// The waiting set with this rank among those that `mover` leaves free.
    pub fn waiting_set(&self, mover: Bitboard, rank: u64) -> Bitboard {
        Bitboard::deposit(
            colex_unrank(
                rank,
                self.material.waiting,
                self.points - self.material.mover,
            ),
            self.all_points() & !mover,
        )
    }

    /// The slots of mover class `class` that are not redundant, in order, each with its
    /// position (mover, waiting): the positions a builder solves.
    pub fn canonical_slots(
        &self,
        class: u64,
    ) -> impl Iterator<Item = (u64, Bitboard, Bitboard)> + '_ {
        let mover = self.mover_set(class);
        let symmetric = self.is_symmetric_class(class);
        let first = class * self.waiting_sets;
        self.waiting_sets_of(mover)
            .enumerate()
            .filter(move |&(_, waiting)| !(symmetric && self.is_redundant(class, waiting)))
            .map(move |(offset, waiting)| (first + offset as u64, mover, waiting))
    }

    /// Each redundant slot of mover class `class`, with the slot of its canonical image: what
    /// a builder copies once it has solved the canonical slots.
    pub fn redundant_slots(&self, class: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mover = self.mover_set(class);
        let symmetric = self.is_symmetric_class(class);
        let first = class * self.waiting_sets;
        self.waiting_sets_of(mover)
            .enumerate()
            .filter(move |&(_, waiting)| symmetric && self.is_redundant(class, waiting))
            .map(move |(offset, waiting)| (first + offset as u64, self.index(mover, waiting)))
    }

    /// The waiting sets of `mover` in rank order.
    pub fn waiting_sets_of(&self, mover: Bitboard) -> impl Iterator<Item = Bitboard> {
        self.waiting_sets_from(mover, 0)
    }

    /// The waiting sets of `mover` in rank order, from the one of rank `rank` on.
    pub fn waiting_sets_from(&self, mover: Bitboard, rank: u64) -> impl Iterator<Item = Bitboard> {
        let free = self.all_points() & !mover;
        let n = self.points - self.material.mover;
        // Past the last rank: a set above every subset of n points, so none.
        let first = if rank < self.waiting_sets {
            colex_unrank(rank, self.material.waiting, n)
        } else {
            u64::MAX
        };
        subsets_from(n, first).map(move |packed| Bitboard::deposit(packed, free))
    }

    /// Every point of the board.
    pub fn all_points(&self) -> Bitboard {
        Bitboard(if self.points == 64 {
            u64::MAX
        } else {
            (1 << self.points) - 1
        })
    }

    /// Every slot's position in index order: mover classes, and for each the waiting sets.
    pub fn positions(&self) -> impl Iterator<Item = (Bitboard, Bitboard)> + '_ {
        (0..self.mover_classes()).flat_map(move |class| {
            let mover = self.mover_set(class);
            self.waiting_sets_of(mover)
                .map(move |waiting| (mover, waiting))
        })
    }
}

/// The positions of slots of one index taken in increasing order, as the retrograde sweeps
/// take them: each found from the one before by a few steps of the colex successor when it is
/// near (the frontier of a first sweep is dense), by an unrank when not.
pub struct SlotWalk<'a> {
    index: &'a MaterialIndex,
    slot: u64,
    class: u64,
    mover: Bitboard,
    /// The waiting set of `slot`, packed onto the points the mover leaves free.
    packed: u64,
}

impl<'a> SlotWalk<'a> {
    /// The most successor steps taken instead of an unrank.
    const NEAR: u64 = 16;

    pub fn new(index: &'a MaterialIndex) -> SlotWalk<'a> {
        SlotWalk {
            index,
            slot: u64::MAX,
            class: u64::MAX,
            mover: Bitboard::EMPTY,
            packed: 0,
        }
    }

    /// The position in slot `slot`, as [`MaterialIndex::position`] gives it.
    #[inline]
    pub fn position(&mut self, slot: u64) -> (Bitboard, Bitboard) {
        let index = self.index;
        let class = slot / index.waiting_sets;
        if class == self.class && slot >= self.slot && slot - self.slot <= Self::NEAR {
            for _ in self.slot..slot {
                // Within a class the successor is always there.
                self.packed = gosper(self.packed).unwrap_or(0);
            }
        } else {
            self.class = class;
            self.mover = index.mover_set(class);
            let n = index.points - index.material.mover;
            self.packed = colex_unrank(slot % index.waiting_sets, index.material.waiting, n);
        }
        self.slot = slot;
        let free = index.all_points() & !self.mover;
        (self.mover, Bitboard::deposit(self.packed, free))
    }
}

/// The colex rank of a set among the sets of its size: Σ C(cᵢ, i).
#[inline]
pub fn colex_rank(mut set: u64) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while set != 0 {
        rank += choose(set.trailing_zeros() as usize, i);
        set &= set - 1;
        i += 1;
    }
    rank
}

/// The set of `size` elements below `n` with this colex rank (less than C(n, size)).
pub fn colex_unrank(mut rank: u64, size: usize, n: usize) -> u64 {
    debug_assert!(rank < choose(n, size), "rank {rank} of {size} of {n}");
    let mut set = 0;
    // The elements from the largest down, each the largest c with C(c, i) ≤ what is left of
    // the rank: below the one before, so the search goes down from there (n steps in all, where
    // a search up from i − 1 for each takes about `size` times as many: the retrograde sweeps
    // unrank every position they pass on).
    let mut c = n;
    for i in (1..=size).rev() {
        c -= 1;
        while choose(c, i) > rank {
            c -= 1;
        }
        rank -= choose(c, i);
        set |= 1 << c;
    }
    set
}

/// The `k`-element subsets of `n` points in colex (numeric) order, by Gosper's hack.
pub fn k_subsets(n: usize, k: usize) -> impl Iterator<Item = u64> {
    let first = if k == 0 { 0 } else { u64::MAX >> (64 - k) };
    subsets_from(n, first) // none if k > n: `first` is then above every subset of n points
}

/// The subsets of `n` points of as many elements as `first`, in colex (numeric) order from
/// `first` on.
fn subsets_from(n: usize, first: u64) -> impl Iterator<Item = u64> {
    let limit = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mut next = (first <= limit).then_some(first);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == 0 {
            None
        } else {
            gosper(current).filter(|&n| n <= limit && n != 0)
        };
        Some(current)
    })
}

/// The next larger integer with as many bits set, if there is one in 64 bits.
fn gosper(set: u64) -> Option<u64> {
    let lowest = set & set.wrapping_neg();
    let ripple = set.checked_add(lowest)?;
    Some(ripple | (((set ^ ripple) >> 2) / lowest))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_material_is_named_mover_first_and_a_system_joined_by_plus() {
        let material = Material::new(3, 6);
        assert_eq!(material.to_string(), "3v6");
        assert_eq!(materials_name([material, material.swapped()]), "3v6+6v3");
        assert_eq!(materials_name([Material::new(4, 4)]), "4v4");
    }

    #[test]
    fn a_material_can_be_numbered_while_its_movers_sets_fit_in_32_bits() {
        // C(45, 10) = 3,190,187,286 fits in 32 bits; C(45, 11) = 10,150,595,910 does not.
        let board = Board::new(5, 9).unwrap();
        assert!(MaterialIndex::can_number(&board, Material::new(10, 1)));
        assert!(MaterialIndex::can_number(&board, Material::new(1, 10)));
        assert!(!MaterialIndex::can_number(&board, Material::new(11, 1)));
        assert!(MaterialIndex::can_number(&board, Material::new(6, 6)));
        assert_eq!(crate::most_table_stones(&board), 11);
        let small = Board::new(3, 3).unwrap();
        assert!(
            !MaterialIndex::can_number(&small, Material::new(5, 5)),
            "more than fits"
        );
        assert_eq!(crate::most_table_stones(&small), 9);
    }

    #[test]
    fn the_size_counted_by_burnside_is_the_size_of_the_built_index() {
        // Square boards (8 symmetries, a diagonal with fixed points) and rectangles; on 5x9 up
        // to the mover sets of 5 stones (1.2 M sets listed).
        for (rows, columns, most) in [(3, 3, 8), (5, 5, 8), (3, 5, 7), (7, 3, 7), (5, 9, 5)] {
            let board = Board::new(rows, columns).unwrap();
            for mover in 1..=most {
                let room = board.points() - mover;
                for waiting in [1, 2, room].into_iter().filter(|&w| w <= room) {
                    let material = Material::new(mover, waiting);
                    let built = MaterialIndex::new(&board, material).size();
                    let counted = MaterialIndex::size_of(&board, material);
                    assert_eq!(counted, built, "{material} on {rows}x{columns}");
                }
            }
        }
        // 8 stones on 5x9, by hand: C(45, 8) = 215,553,195 sets; the mirror of files fixes
        // 17,195 (its 5 fixed points and 20 pairs), the mirror of ranks 53,235 (9 and 18), the
        // half turn 7,315 (the centre and 22 pairs, 4 of them): 215,630,940 / 4.
        let board = Board::new(5, 9).unwrap();
        assert_eq!(mover_class_count(&board, 8), 53_907_735);
    }

    #[test]
    fn a_rectangle_s_canonical_form_is_the_one_of_its_symmetries_one_by_one() {
        for (rows, columns) in [(5, 9), (3, 5), (7, 3), (9, 3)] {
            let board = Board::new(rows, columns).unwrap();
            let index = MaterialIndex::new(&board, Material::new(3, 3));
            let symmetries = index.symmetries();
            let mirror = &symmetries.all[2];
            let mut seed = 0x5eed_u64;
            let mut symmetric_movers = 0;
            for k in 0..4000 {
                seed = fanorona_engine::hash::mix(seed);
                let mut mover = Bitboard(seed & board.all().0);
                if k % 2 == 0 {
                    // A mover set that a mirror fixes: every image ties, and the waiting
                    // images decide.
                    mover = Bitboard(mover.0 | mirror.set(mover).0);
                    symmetric_movers += 1;
                }
                seed = fanorona_engine::hash::mix(seed);
                let waiting = Bitboard(seed & board.all().0 & !mover.0);
                assert_eq!(
                    symmetries.canonical(mover, waiting),
                    symmetries.canonical_one_by_one(mover, waiting),
                    "{rows}x{columns}: {mover:?} {waiting:?}"
                );
            }
            assert!(symmetric_movers > 0 && symmetries.rectangle.is_some());
        }
    }

    #[test]
    fn a_slot_walk_finds_the_positions_of_its_slots() {
        let board = Board::new(3, 5).unwrap();
        for material in [
            Material::new(2, 3),
            Material::new(3, 1),
            Material::new(1, 0),
        ] {
            let index = MaterialIndex::new(&board, material);
            let mut walk = SlotWalk::new(&index);
            // Steps of every size from 0 past the unrank threshold, across classes.
            let mut slot = 0;
            for step in (0..40).cycle() {
                if slot >= index.size() {
                    break;
                }
                assert_eq!(walk.position(slot), index.position(slot), "slot {slot}");
                slot += step;
            }
        }
    }

    #[test]
    fn colex_unrank_inverts_colex_rank() {
        for n in [1, 5, 13, 42] {
            for size in 0..=n.min(4) {
                for (rank, set) in k_subsets(n, size).enumerate().take(20_000) {
                    assert_eq!(colex_rank(set), rank as u64, "{set:b}");
                    assert_eq!(colex_unrank(rank as u64, size, n), set, "rank {rank}");
                }
                let last = choose(n, size) - 1;
                assert_eq!(colex_rank(colex_unrank(last, size, n)), last);
            }
        }
    }

    #[test]
    fn waiting_sets_from_a_rank_go_on_as_all_of_them_do() {
        let board = Board::new(3, 5).unwrap();
        let index = MaterialIndex::new(&board, Material::new(2, 3));
        let mover = index.mover_set(1);
        let all: Vec<Bitboard> = index.waiting_sets_of(mover).collect();
        assert_eq!(all.len() as u64, index.waiting_sets());
        for rank in [0, 1, 17, all.len() as u64 - 1] {
            let from: Vec<Bitboard> = index.waiting_sets_from(mover, rank).collect();
            assert_eq!(from, all[rank as usize..], "from rank {rank}");
        }
    }

    #[test]
    fn enumeration_order_is_index_order() {
        for (rows, columns) in [(3, 5), (3, 3), (5, 5)] {
            let board = Board::new(rows, columns).unwrap();
            for (a, b) in [(1, 1), (2, 3), (4, 2), (1, 0), (4, 5)] {
                let index = MaterialIndex::new(&board, Material::new(a, b));
                let mut count = 0;
                for (i, (mover, waiting)) in index.positions().enumerate() {
                    let class = i as u64 / index.waiting_sets();
                    assert_eq!(index.position(i as u64), (mover, waiting));
                    assert!((mover & waiting).is_empty());
                    if !index.is_redundant(class, waiting) {
                        assert_eq!(index.index(mover, waiting), i as u64);
                    }
                    count += 1;
                }
                assert_eq!(count, index.size());
            }
        }
    }

    #[test]
    fn every_position_has_one_slot_and_the_weights_count_them() {
        // Brute force over all positions of small materials: every symmetric image of a
        // position lands in the same non-redundant slot, and the weights add up to all
        // positions.
        for (rows, columns) in [(3, 5), (3, 3), (5, 3)] {
            let board = Board::new(rows, columns).unwrap();
            let all = symmetries(&board);
            for (a, b) in [(1, 1), (2, 2), (3, 2), (2, 5)] {
                let index = MaterialIndex::new(&board, Material::new(a, b));
                let mut weights = 0;
                for (i, (_, waiting)) in index.positions().enumerate() {
                    weights += index.weight(i as u64 / index.waiting_sets(), waiting);
                }
                assert_eq!(weights, index.positions_before_symmetry());
                for mover in k_subsets(board.points(), a).map(Bitboard) {
                    for waiting in index.waiting_sets_of(mover) {
                        let slot = index.index(mover, waiting);
                        let (m, w) = index.position(slot);
                        assert!(!index.is_redundant(slot / index.waiting_sets(), w));
                        assert!(all.iter().any(|s| (s.set(mover), s.set(waiting)) == (m, w)));
                        for symmetry in &all {
                            assert_eq!(
                                index.index(symmetry.set(mover), symmetry.set(waiting)),
                                slot
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn sizes_match_the_counts_of_the_papers() {
        // All 5x9 positions with 2..=7 stones, each side to move folded: with the other side to
        // move counted as the swapped material, Σ C(45,a)·C(45−a,b) over a,b ≥ 1, a+b ≤ 7.
        let board = Board::standard();
        let indices: Vec<MaterialIndex> = (2..=7)
            .flat_map(|n| (1..n).map(move |a| Material::new(a, n - a)))
            .map(|m| MaterialIndex::new(&board, m))
            .collect();
        let before: u64 = indices.iter().map(|i| i.positions_before_symmetry()).sum();
        assert_eq!(
            before, 6_261_651_660,
            "SPEC.md §4: 6,261,651,660 positions up to 7 stones"
        );
        let slots: u64 = indices.iter().map(|i| i.size()).sum();
        // A quarter, plus the redundant slots of symmetric mover classes (mostly of one or two
        // movers, whose classes are few): 1,642,902,864 slots, 3.8x fewer.
        assert!(
            slots * 4 >= before && slots * 38 <= before * 10,
            "{slots} slots"
        );
    }

    #[test]
    fn subsets_of_full_words() {
        assert_eq!(k_subsets(64, 64).collect::<Vec<_>>(), vec![u64::MAX]);
        assert_eq!(k_subsets(5, 0).collect::<Vec<_>>(), vec![0]);
        assert_eq!(k_subsets(4, 2).count(), 6);
        assert_eq!(k_subsets(3, 4).count(), 0);
    }
}
