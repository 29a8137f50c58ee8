//! One module per subcommand, each an `Args` struct with `run()`.

pub mod moves;
pub mod perft;
pub mod query;
pub mod show;
pub mod tables;
