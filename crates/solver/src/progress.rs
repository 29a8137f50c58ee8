//! How long jobs report progress, without the solver depending on a terminal library: the
//! command line implements this with progress bars, tests pass [`NoProgress`].

/// Receives a long job's phases and progress.
pub trait Progress: Sync {
    /// A new phase of `total` units of work begins.
    fn phase(&self, name: &str, total: u64);
    /// `units` more units of the current phase are done.
    fn advance(&self, units: u64);
    /// The job goes on from `units` done by an earlier run, on top of this phase's total (as
    /// a resumed search's node limit is): they count as done, but not toward the rate.
    fn resumed(&self, units: u64) {
        self.advance(units);
    }
    /// A message between phases (a table skipped, rebuilt, written).
    fn note(&self, message: &str);
}

/// Reports nothing.
pub struct NoProgress;

impl Progress for NoProgress {
    fn phase(&self, _: &str, _: u64) {}
    fn advance(&self, _: u64) {}
    fn note(&self, _: &str) {}
}
