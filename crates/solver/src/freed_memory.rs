//! Memory the allocator keeps after it is freed, given back to the system.
//!
//! A closure of held sets (see `search/holds.rs`) allocates and frees buffers on many threads
//! (the pools that list and look at its candidates). glibc keeps freed memory in its
//! per-thread arenas for reuse, and the process grew after each closure: two long 5x9
//! searches' anonymous memory rose from 9.49 to 10.23 GB over nine closures, every megabyte
//! of it one that the tables' page cache lacks at the next closure's peak. `malloc_trim(0)`,
//! called from a debugger, gave back 352 MB of it at once; called after each closure, the
//! growth per pair of closures fell from 100–340 MB to 13–86 MB (sixty-second session).

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
