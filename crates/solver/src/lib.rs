//! The Fanorona solver: endgame tables by retrograde analysis, proof-number search with
//! certificates, and an independent certificate checker.
//!
//! - [`binomial`]: binomial coefficients, built at compile time;
//! - [`index`]: materials and the index of a position within one (side to move folded);
//! - [`entry`]: a position's value and distance to the end in 16 bits;
//! - [`retrograde`]: the solver of one closed system of materials;
//! - [`tables`]: all materials up to a stone count, built smallest first, and probing;
//! - [`file`]: table files (self-describing, checksummed, memory-mapped);
//! - `base3_values`: value files copied into memory five values a byte;
//! - `page_cache`: dropping the cached pages of files read or written once;
//! - `part_file`: files written whole or not at all (temporary name, then renamed);
//! - [`progress`]: how long jobs report progress;
//! - [`run_lock`]: one build, verification or saved search at a time on the same state;
//! - [`disk_room`]: room on the disk for a build, checked before it starts;
//! - [`verify`]: the independent check of built tables, and their statistics;
//! - [`search`]: depth-first proof-number search with table leaves;
//! - [`solve`]: a position's value from two searches, and its certificate;
//! - [`certificate`]: the certificate format (strategies, bincode);
//! - [`check`]: the independent checker of certificates (rules and tables only);
//! - [`taken`]: certificates taken in by a search or a split, checked, as leaves;
//! - [`harvest`]: the subtrees a long search settled, written down as certificates to take in.

mod base3_values;
pub mod binomial;
pub mod block_sums;
pub mod certificate;
pub mod check;
pub mod disk_room;
pub mod entry;
pub mod file;
mod freed_memory;
pub mod harvest;
pub mod index;
pub mod packed;
pub mod page_cache;
mod part_file;
mod prefetch;
pub mod progress;
pub mod record;
pub mod retrograde;
pub mod run_lock;
pub mod search;
pub mod solve;
mod sparse_values;
pub mod split;
pub mod tables;
pub mod taken;
pub mod verify;
mod zeroed_memory;

pub use certificate::{Certificate, CertificateError, Claim, Goal, Node};
pub use check::{check, check_with_progress, Confirmed, Refuted};
pub use entry::Entry;
pub use file::{Content, FileState, TableError, TableFile, TableId};
pub use index::{materials_name, Material, MaterialIndex};
pub use progress::{NoProgress, Progress};
pub use record::{recorded_tables, RecordError, RecordedTable};
pub use run_lock::{LockError, RunLock};
pub use search::{Counting, Limits, Outcome, Search};
pub use solve::{
    remove_saved_searches, saved_search, solve, state_file, write_top, LineStep, SavedSearch,
    Solution, SolveError, SolveSetup, MATERIAL_STONES,
};
pub use split::{split, take_into_store, Found, Split, SplitPosition, SplitSetup, SplitTurn};
pub use tables::{
    checkpoint_name, materials, most_table_stones, reached_by_captures, system_can_be_numbered,
    system_of, BuildControl, BuildRequest, DeriveError, OpenError, ProbeError, SystemBuild, Tables,
    WhyNotDerived,
};
pub use verify::{
    material_stats, materials_probed, state_path, verify, verify_materials, MaterialStats,
    Mismatch, Stored, VerifyControl,
};
