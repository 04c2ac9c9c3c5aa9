//! Cache hints for traversals whose next reads the hardware prefetcher
//! cannot guess (children met in tree order, object slots met in pair
//! order): asking for data a few steps ahead lets the misses overlap.

/// The cache line size the hints step by.
const LINE: usize = 64;

/// Asks the CPU to bring the cache line that holds `p` closer. A hint
/// only: it has no effect on any result, whatever `p` is (dangling, null
/// or past the end included). A no-op off x86_64.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is only a hint: it never faults nor reads memory
    // into the program's state, whatever the address (Intel SDM,
    // PREFETCHh), and SSE is part of the x86_64 baseline.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Prefetches every cache line of the `bytes` bytes from `p` (the line
/// of `p` when `bytes` is 0). A hint like [`prefetch`].
#[inline(always)]
pub fn prefetch_bytes(p: *const u8, bytes: usize) {
    let start = p as usize;
    let first = start & !(LINE - 1);
    let last = start.wrapping_add(bytes.saturating_sub(1)) & !(LINE - 1);
    for k in 0..=last.wrapping_sub(first) / LINE {
        prefetch(p.wrapping_add(first.wrapping_add(k * LINE).wrapping_sub(start)));
    }
}

#[cfg(test)]
mod tests {
    use super::{prefetch, prefetch_bytes};

    /// Prefetching changes nothing: on values of several sizes, at the
    /// start, middle and end of a buffer, past its end and at null.
    #[test]
    fn prefetch_is_only_a_hint() {
        let v: Vec<[f64; 6]> = (0..1000).map(|i| [i as f64; 6]).collect();
        let copy = v.clone();
        for i in [0, 1, 499, 998, 999] {
            prefetch(&v[i]);
            prefetch(&v[i][5]);
        }
        prefetch(v.as_ptr().wrapping_add(5000));
        prefetch(core::ptr::null::<u64>());
        let bytes = v.as_ptr().cast::<u8>();
        for (offset, len) in [(0, 1), (3, 64), (63, 2), (100, 1000), (7, 0)] {
            prefetch_bytes(bytes.wrapping_add(offset), len);
        }
        let b = Box::new(7u8);
        prefetch(&*b);
        prefetch(&());
        assert_eq!(v, copy);
        assert_eq!(*b, 7);
    }
}
