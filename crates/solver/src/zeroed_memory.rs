//! Zeroed arrays for large, randomly accessed structures (the search's transposition table,
//! the held set, a closure's index, the filters; the values-only table builder's values and
//! frontier), on huge pages where the system allows.
//!
//! Each lookup in them is a random access to gigabytes. With 4 KiB pages nearly every one also
//! misses the TLB, and the page walk (two of them under a hypervisor) costs as much again as
//! the access: a closure spent more than half its time in prefetches waiting for
//! translations. Linux gives anonymous memory huge pages on request (transparent huge pages
//! in `madvise` mode), so these arrays are anonymous maps with that advice, and an ordinary
//! allocation where no map can be had.

/// Types for which all-zero bytes are a valid value (so that a zeroed array is one of them).
///
/// # Safety
/// Every bit of the type's representation must be allowed to be zero.
pub(crate) unsafe trait ZeroValid: Copy {}

// SAFETY: integers and the unit type are valid as zero bytes, and so are arrays and pairs of them.
unsafe impl ZeroValid for u64 {}
unsafe impl ZeroValid for u32 {}
unsafe impl ZeroValid for () {}
unsafe impl<T: ZeroValid, const N: usize> ZeroValid for [T; N] {}
unsafe impl<A: ZeroValid, B: ZeroValid> ZeroValid for (A, B) {}

pub(crate) enum ZeroedMemory<T> {
    Mapped(memmap2::MmapMut),
    Heap(Vec<T>),
}

/// The size of a huge page on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

impl<T: ZeroValid> ZeroedMemory<T> {
    /// `count` values, all zero.
    pub(crate) fn new(count: usize) -> ZeroedMemory<T> {
        let bytes = count * std::mem::size_of::<T>();
        if bytes < HUGE_PAGE {
            // SAFETY: `T: ZeroValid`.
            return ZeroedMemory::Heap(vec![unsafe { std::mem::zeroed() }; count]);
        }
        match memmap2::MmapMut::map_anon(bytes) {
            Ok(mut map) => {
                #[cfg(target_os = "linux")]
                {
                    // Only advice: without huge pages the memory still works.
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
                // Touch every 2 MiB now: a short search touches a few thousand scattered
                // slots, and a huge page zeroed on demand for each of them made a 3x5 solve
                // take seconds; zeroing the whole table at once costs a fraction of that.
                for byte in map.iter_mut().step_by(HUGE_PAGE) {
                    *byte = 0;
                }
                ZeroedMemory::Mapped(map)
            }
            // SAFETY: `T: ZeroValid`.
            Err(_) => ZeroedMemory::Heap(vec![unsafe { std::mem::zeroed() }; count]),
        }
    }
}

impl<T> std::ops::Deref for ZeroedMemory<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match self {
            // SAFETY: the map is page-aligned (so aligned for T), holds `len / size_of::<T>()`
            // values that started zeroed (valid: `new` requires `T: ZeroValid`) and were only
            // ever written as T; it lives as long as the borrow of `self`.
            ZeroedMemory::Mapped(map) => unsafe {
                std::slice::from_raw_parts(
                    map.as_ptr().cast::<T>(),
                    map.len() / std::mem::size_of::<T>(),
                )
            },
            ZeroedMemory::Heap(values) => values,
        }
    }
}

impl<T> std::ops::DerefMut for ZeroedMemory<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match self {
            // SAFETY: as in `deref`, and the borrow of `self` is exclusive.
            ZeroedMemory::Mapped(map) => unsafe {
                std::slice::from_raw_parts_mut(
                    map.as_mut_ptr().cast::<T>(),
                    map.len() / std::mem::size_of::<T>(),
                )
            },
            ZeroedMemory::Heap(values) => values,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_and_large_arrays_start_zeroed_and_keep_what_is_written() {
        for count in [0, 10, 3 << 20] {
            let mut memory = ZeroedMemory::<([u64; 2], u32)>::new(count);
            assert_eq!(memory.len(), count);
            assert!(memory.iter().all(|&value| value == ([0, 0], 0)));
            if count > 0 {
                memory[count - 1] = ([1, 2], 3);
                assert_eq!(memory[count - 1], ([1, 2], 3));
            }
        }
    }
}
