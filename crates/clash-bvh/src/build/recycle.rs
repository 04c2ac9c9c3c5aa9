//! Handing a dead working buffer's memory to an output of another element
//! type.
//!
//! The median/mean builder's working elements (96 bytes per triangle) are
//! dead once the tree is built, and the leaf triangles (72 bytes per
//! triangle in `f64`) are written right after. A fresh allocation that
//! large is mapped and zeroed by the kernel page by page; shrinking the
//! dead buffer in place instead (`realloc`: glibc shrinks a large block
//! with `mremap`, keeping its mapped pages) saves a sixth of the fresh
//! memory a build of a 1M-triangle mesh writes.
//!
//! Only large buffers are handed on (smaller builds have their leaves
//! write the triangles during the build, see `median/mod.rs`): glibc serves
//! an allocation of 32 MiB or more with a fresh mapping every time, but
//! smaller ones from memory it reuses, as long as freeing its mapped
//! blocks keeps raising its threshold for mapping (a block shrunk in
//! place stays a mapping, and freeing it lowered that threshold: the
//! 174k-triangle mesh's working elements, 17 MB, were then mapped afresh
//! on every build, 5% slower builds, measured).

use core::alloc::Layout;
use core::mem::{ManuallyDrop, align_of, size_of};

/// Buffers smaller than this are freed, not handed on (see the module doc).
pub(crate) const MIN_BYTES: usize = 32 << 20;

/// Whether [`recycle`] hands a vector of capacity `cap` of `A` on to `n`
/// elements of `B` (else it frees it and allocates afresh).
pub(crate) fn recyclable<A, B>(cap: usize, n: usize) -> bool {
    let (size_a, size_b) = (size_of::<A>(), size_of::<B>());
    let (Some(have), Some(need)) = (size_a.checked_mul(cap), size_b.checked_mul(n)) else {
        return false;
    };
    have >= MIN_BYTES
        && size_a > 0
        && size_b > 0
        && align_of::<A>() == align_of::<B>()
        && need > 0
        && need <= have
}

/// An empty vector with room for `n` elements of type `B`: exactly `n`, in
/// the allocation of `v` (whose elements are discarded), when `v`'s
/// allocation is at least [`MIN_BYTES`] and the layouts allow it (`A` and
/// `B` have the same alignment, neither is zero-sized, and `n > 0`
/// elements of `B` fit in `v`'s capacity); otherwise `v` is freed and the
/// vector is a fresh allocation.
pub(crate) fn recycle<A: Copy, B>(v: Vec<A>, n: usize) -> Vec<B> {
    let cap = v.capacity();
    let (Some(need), Ok(old)) = (size_of::<B>().checked_mul(n), Layout::array::<A>(cap)) else {
        return Vec::with_capacity(n);
    };
    if !recyclable::<A, B>(cap, n) {
        return Vec::with_capacity(n);
    }
    // `A: Copy`, so no element needs dropping; the allocation is handed on.
    let mut v = ManuallyDrop::new(v);
    let block = v.as_mut_ptr().cast::<u8>();
    let ptr = if need == old.size() {
        block
    } else {
        // SAFETY: `block` was allocated by the global allocator (`v` is a
        // `Vec<A>` of non-zero capacity and element size, which allocates
        // through it) with layout `old` (`Vec` allocates
        // `Layout::array::<A>(capacity)`); `need` is non-zero and, being at
        // most `old.size()`, cannot overflow `isize` when rounded up to the
        // alignment. `v` is never used again, so the block has no other
        // owner. Exercised by median/mean builds of `f64` trees over about
        // 350k triangles or more (32 MiB of elements), and by
        // `tests::recycled_buffers_hold_what_is_written`.
        unsafe { std::alloc::realloc(block, old, need) }
    };
    if ptr.is_null() {
        // Out of memory, as `Vec` handles it.
        std::alloc::handle_alloc_error(Layout::from_size_align(need, old.align()).unwrap_or(old));
    }
    // SAFETY: `ptr` is a block of the global allocator of `need =
    // size_of::<B>() * n` bytes, aligned as `A`, which is `B`'s alignment;
    // the length (zero) is at most the capacity `n`, and no element is
    // initialised yet.
    unsafe { Vec::from_raw_parts(ptr.cast::<B>(), 0, n) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A recycled buffer has room for exactly `n` elements and holds what
    /// is written to it; on glibc a shrinking `realloc` keeps the block's
    /// address (no copy, no fresh pages). Small buffers and layouts that
    /// do not allow it (other alignment, too little room, zero-sized
    /// types) give a fresh vector.
    #[test]
    fn recycled_buffers_hold_what_is_written() {
        let large = MIN_BYTES / 96 + 1;
        for n in [large, large + 1000, 2 * large] {
            let v: Vec<[u64; 12]> = vec![[u64::MAX; 12]; n];
            let at = v.as_ptr() as usize;
            let mut w: Vec<[f64; 9]> = recycle(v, n);
            assert_eq!((w.len(), w.capacity()), (0, n));
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            assert_eq!(w.as_ptr() as usize, at);
            let _ = at;
            w.extend((0..n).map(|i| [i as f64; 9]));
            assert!(w.iter().enumerate().all(|(i, t)| t == &[i as f64; 9]));
        }
        assert!(recyclable::<[u64; 12], [f64; 9]>(large, large));
        assert!(!recyclable::<[u64; 12], [f64; 9]>(large - 2, large));
        assert!(!recyclable::<[u64; 12], [f32; 9]>(large, large));
        assert!(!recyclable::<[u64; 12], [f64; 9]>(usize::MAX, 1));
        // Same size: no `realloc` at all.
        let v: Vec<[f64; 12]> = vec![[1.0; 12]; large];
        let at = v.as_ptr() as usize;
        let mut w: Vec<[u64; 12]> = recycle(v, large);
        assert_eq!((w.len(), w.capacity(), w.as_ptr() as usize), (0, large, at));
        w.push([3; 12]);
        assert_eq!(w[0], [3; 12]);
        // Small: fresh, though the layouts allow it.
        for n in [1usize, 3, 1000, MIN_BYTES / 96 - 1] {
            let v: Vec<[u64; 12]> = vec![[1; 12]; n];
            let w: Vec<[f64; 9]> = recycle(v, n);
            assert!(w.is_empty() && w.capacity() >= n);
        }
        // Other alignment: fresh.
        let v: Vec<[u64; 12]> = vec![[1; 12]; large];
        let w: Vec<[f32; 9]> = recycle(v, large);
        assert!(w.is_empty() && w.capacity() >= large);
        // Too little room: fresh.
        let v: Vec<[u64; 9]> = vec![[1; 9]; large];
        let mut w: Vec<[f64; 12]> = recycle(v, large);
        assert!(w.is_empty() && w.capacity() >= large);
        w.push([2.0; 12]);
        assert_eq!(w[0], [2.0; 12]);
        // Zero-sized types and zero lengths: fresh.
        let v: Vec<()> = vec![(); large];
        let w: Vec<u64> = recycle(v, 10);
        assert!(w.is_empty() && w.capacity() >= 10);
        let v: Vec<u64> = vec![1; MIN_BYTES / 8];
        let w: Vec<()> = recycle(v, 10);
        assert!(w.is_empty());
        let v: Vec<u64> = vec![1; MIN_BYTES / 8];
        let w: Vec<u64> = recycle(v, 0);
        assert!(w.is_empty());
    }
}
