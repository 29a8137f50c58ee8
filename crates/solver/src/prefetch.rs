//! A hint to the memory system, shared by the search and the table probes.

/// Start loading the cache line that holds `value`. Only a hint: a later read then waits less,
/// and several prefetched lines come from memory together instead of one after the other.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is only a hint; the address is that of a live value.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((value as *const T).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
