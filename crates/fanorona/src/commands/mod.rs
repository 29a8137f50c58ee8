//! One module per subcommand, each an `Args` struct with `run()`.

pub mod check_proof;
pub mod moves;
pub mod pack_proof;
pub mod perft;
pub mod query;
pub mod show;
pub mod solve;
pub mod solve_split;
pub mod solve_status;
pub mod tables;
pub mod tables_list;

/// The memory the system says is available now (`MemAvailable` in `/proc/meminfo`), in bytes.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kilobytes: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kilobytes << 10)
}
