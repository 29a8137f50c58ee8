//! The Fanorona solver: endgame tables by retrograde analysis (proof-number search to come).
//!
//! - [`binomial`]: binomial coefficients, built at compile time;
//! - [`index`]: materials and the index of a position within one (side to move folded);
//! - [`entry`]: a position's value and distance to the end in 16 bits;
//! - [`retrograde`]: the solver of one closed system of materials;
//! - [`tables`]: all materials up to a stone count, built smallest first, and probing.

pub mod binomial;
pub mod entry;
pub mod index;
pub mod retrograde;
pub mod tables;

pub use entry::Entry;
pub use index::{Material, MaterialIndex};
pub use tables::{ProbeError, Tables};
