//! Writing answers to their input positions from many workers at once.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

/// Write access to the slots of a buffer, shared by the workers of a batch,
/// each slot written by at most one of them.
pub(crate) struct Scatter<'a, R> {
    ptr: *mut MaybeUninit<R>,
    len: usize,
    _slots: PhantomData<&'a mut [MaybeUninit<R>]>,
}

// SAFETY: a `Scatter` only moves `R` values into distinct slots (the
// contract of `write`), as `&mut` access to disjoint parts would.
unsafe impl<R: Send> Sync for Scatter<'_, R> {}
// SAFETY: as for `Sync`: sending it sends `&mut` access to the slots.
unsafe impl<R: Send> Send for Scatter<'_, R> {}

impl<'a, R> Scatter<'a, R> {
    pub(crate) fn new(slots: &'a mut [MaybeUninit<R>]) -> Self {
        Self {
            ptr: slots.as_mut_ptr(),
            len: slots.len(),
            _slots: PhantomData,
        }
    }

    /// Puts `value` in slot `i`.
    ///
    /// # Safety
    /// No other call, from any thread, writes slot `i` while this `Scatter`
    /// lives.
    #[inline]
    pub(crate) unsafe fn write(&self, i: usize, value: R) {
        assert!(i < self.len, "slot {i} of {}", self.len);
        // SAFETY: `i` is in bounds (checked), and the caller guarantees no
        // other write to slot `i`, so this is the only access to it.
        unsafe { (*self.ptr.add(i)).write(value) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_permutation_fills_every_slot() {
        let n = 10_000;
        let perm: Vec<usize> = (0..n).map(|k| (k * 7919) % n).collect();
        let mut out: Vec<usize> = Vec::with_capacity(n);
        let slots = Scatter::new(out.spare_capacity_mut());
        perm.par_iter().for_each(|&i| {
            // SAFETY: 7919 is prime to 10,000, so `perm` is a permutation.
            unsafe { slots.write(i, i * 2) };
        });
        // SAFETY: every slot was written.
        unsafe { out.set_len(n) };
        assert!(out.iter().enumerate().all(|(i, &v)| v == i * 2));
    }
}
