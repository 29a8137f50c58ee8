//! Memory the allocator keeps after it is freed, given back to the system.
//!
//! A closure of held sets (see `search/holds.rs`) allocates a few hundred megabytes in
//! buffers of a few megabytes on the threads that list and look at its candidates. Freed,
//! glibc keeps those in its per-thread arenas for reuse, and the process grows after each
//! closure: two long 5x9 searches' anonymous memory rose from 9.49 to 10.23 GB over nine
//! closures, and every megabyte of it is one the tables' page cache lacks at the next
//! closure's peak. `malloc_trim(0)` (called from a debugger) then gave back 352 MB at once
//! (sixty-second session).

/// Give the pages the allocator holds free back to the system (glibc's `malloc_trim`; nothing
/// where the C library is another).
pub(crate) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::os::raw::c_int;
        }
        // SAFETY: glibc's `malloc_trim` takes no pointers; it releases the free pages of
        // every arena under that arena's lock, as any allocation would take it.
        unsafe {
            malloc_trim(0);
        }
    }
}
