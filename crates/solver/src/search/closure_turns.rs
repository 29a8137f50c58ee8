//! Closures of held sets one at a time in a process, where it asks for that.
//!
//! A closure (see `holds.rs`) takes gigabytes for a few minutes: for 33.5 M candidates and
//! their 52 to 66 M turns, 3.2 GB (1.9 GB since the sixty-first and sixty-second sessions
//! packed them and shrank their index). Two searches side by side reach their closures at
//! nearly the same node counts, so both took that memory at once, and the page cache lost the
//! table pages that both the closures and the searches probe (sixtieth session: two closures of 328
//! to 456 s, 96% of it looking at turns, most of it waiting on the disk). One at a time, the
//! peak is half, and the other search goes on searching meanwhile: its closure is put off, as
//! one not afforded is, and tried again a little later.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, TryLockError};

/// Whether closures take turns, and the turn.
pub struct ClosureTurns {
    one_at_a_time: AtomicBool,
    closing: Mutex<()>,
}

/// What a search due to close its held sets may do.
pub enum Turn<'a> {
    /// Close now; the guard (if closures take turns) keeps the others waiting till it drops.
    Now(Option<MutexGuard<'a, ()>>),
    /// Another search is closing: put this one off.
    Later,
}

impl ClosureTurns {
    pub const fn new() -> ClosureTurns {
        ClosureTurns {
            one_at_a_time: AtomicBool::new(false),
            closing: Mutex::new(()),
        }
    }

    /// From now on, one closure at a time.
    pub fn take_turns(&self) {
        self.one_at_a_time.store(true, Ordering::Relaxed);
    }

    /// Whether a closure may run now.
    pub fn turn(&self) -> Turn<'_> {
        if !self.one_at_a_time.load(Ordering::Relaxed) {
            return Turn::Now(None);
        }
        match self.closing.try_lock() {
            Ok(guard) => Turn::Now(Some(guard)),
            // A closure that panicked held it: the turn is free all the same.
            Err(TryLockError::Poisoned(poisoned)) => Turn::Now(Some(poisoned.into_inner())),
            Err(TryLockError::WouldBlock) => Turn::Later,
        }
    }
}

/// The process's: `fanorona solve` asks for turns (see [`super::closures_one_at_a_time`]);
/// a library user, a test or a benchmark does not unless it asks.
pub static CLOSURE_TURNS: ClosureTurns = ClosureTurns::new();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closures_run_at_once_unless_they_take_turns_then_one_at_a_time() {
        let turns = ClosureTurns::new();
        let (first, second) = (turns.turn(), turns.turn());
        assert!(matches!(first, Turn::Now(None)) && matches!(second, Turn::Now(None)));
        turns.take_turns();
        let first = turns.turn();
        assert!(matches!(first, Turn::Now(Some(_))));
        assert!(matches!(turns.turn(), Turn::Later));
        drop(first);
        assert!(matches!(turns.turn(), Turn::Now(Some(_))));
    }
}
