//! The Fanorona solver: endgame tables by retrograde analysis (proof-number search to come).
//!
//! - [`binomial`]: binomial coefficients, built at compile time;
//! - [`index`]: materials and the index of a position within one (side to move folded);
//! - [`entry`]: a position's value and distance to the end in 16 bits;
//! - [`retrograde`]: the solver of one closed system of materials;
//! - [`tables`]: all materials up to a stone count, built smallest first, and probing;
//! - [`file`]: table files (self-describing, checksummed, memory-mapped);
//! - [`progress`]: how long jobs report progress;
//! - [`verify`]: the independent check of built tables, and their statistics.

pub mod binomial;
pub mod entry;
pub mod file;
pub mod index;
pub mod progress;
pub mod retrograde;
pub mod tables;
pub mod verify;

pub use entry::Entry;
pub use file::{TableError, TableId};
pub use index::{Material, MaterialIndex};
pub use progress::{NoProgress, Progress};
pub use tables::{materials, ProbeError, Tables};
pub use verify::{material_stats, verify, MaterialStats, Mismatch};
