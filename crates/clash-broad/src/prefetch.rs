//! A cache hint for loops that read per-object arrays in an order the
//! hardware prefetcher cannot guess (object slots met in tree order, or
//! pairs of slots): asking for the data a few iterations ahead lets the
//! misses of a large scene overlap.

/// How many iterations ahead the loops ask for their data.
pub(crate) const AHEAD: usize = 8;

/// Below this many object slots the per-object arrays stay in cache (the
/// tight boxes of 32,768 `f32` objects take 768 KiB), and the hints only
/// cost: the loops ask for data ahead only above it.
pub(crate) const PREFETCH_MIN: usize = 1 << 15;

/// Asks the CPU to bring the cache line that holds `x` closer. A hint only:
/// it has no effect on any result. A no-op off x86_64.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: SSE is part of the x86_64 baseline; a prefetch reads
        // nothing the program sees and never faults (and `x` is a valid
        // reference anyway).
        unsafe { _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast::<i8>()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::prefetch;

    /// Prefetching changes nothing: on values of several sizes, at the
    /// start, middle and end of a buffer.
    #[test]
    fn prefetch_is_only_a_hint() {
        let v: Vec<[f64; 6]> = (0..1000).map(|i| [i as f64; 6]).collect();
        let copy = v.clone();
        for i in [0, 1, 499, 998, 999] {
            prefetch(&v[i]);
            prefetch(&v[i][5]);
        }
        let b = Box::new(7u8);
        prefetch(&*b);
        prefetch(&());
        assert_eq!(v, copy);
        assert_eq!(*b, 7);
    }
}
