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
