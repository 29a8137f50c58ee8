//! One module per subcommand, each an `Args` struct with `run()`.

pub mod check_proof;
pub mod moves;
pub mod pack_proof;
pub mod perft;
pub mod query;
pub mod show;
pub mod solve;
pub mod solve_harvest;
pub mod solve_split;
pub mod solve_status;
pub mod solve_top;
pub mod tables;
pub mod tables_list;

pub use fanorona_solver::page_cache::available_memory;
