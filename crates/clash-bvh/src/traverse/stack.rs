//! [`FixedStack`]: the traversal stack of the tree descents, a fixed array
//! on the query's own stack frame that is never zeroed.
//!
//! Descents size their stacks from [`crate::MAX_DEPTH`] (a few hundred
//! entries), and an initialised array of that size costs a `memset` of a few
//! kilobytes per query: 6.5% of the instructions of an any-contact query on
//! the 56k bunny (callgrind, 10,000 poses). Entries here are written by
//! [`push`](FixedStack::push) before [`pop`](FixedStack::pop) can read them,
//! so the array is left uninitialised.
use core::mem::MaybeUninit;

/// A last-in first-out stack of at most `N` `Copy` entries, with no
/// allocation and no initialisation of unused entries.
pub(crate) struct FixedStack<E: Copy, const N: usize> {
    items: [MaybeUninit<E>; N],
    len: usize,
}

impl<E: Copy, const N: usize> FixedStack<E, N> {
    /// A stack holding `first`.
    #[inline(always)]
    pub(crate) fn with(first: E) -> Self {
        let mut s = Self {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
        };
        s.push(first);
        s
    }

    /// Pushes `e`. Panics (index out of bounds) when `N` entries are held:
    /// each descent proves its bound on the stack depth, so this never
    /// happens.
    #[inline(always)]
    pub(crate) fn push(&mut self, e: E) {
        self.items[self.len].write(e);
        self.len += 1;
    }

    /// The entry pushed last, removed; `None` when empty.
    #[inline(always)]
    pub(crate) fn pop(&mut self) -> Option<E> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        // SAFETY: `push` writes `items[i]` before it counts `i` in `len`,
        // and `len` only shrinks by `pop`, so every index below the old
        // `len` (this one included) holds a written entry.
        Some(unsafe { self.items[self.len].assume_init() })
    }
}

#[cfg(test)]
mod tests {
    use super::FixedStack;

    #[test]
    fn matches_a_vec_on_random_push_pop_sequences() {
        // A small LCG drives pushes and pops; a Vec is the oracle.
        let mut state = 12345u64;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as u32
        };
        for _ in 0..200 {
            let first = next();
            let mut s = FixedStack::<(u32, u64), 64>::with((first, 7));
            let mut v = vec![(first, 7u64)];
            for _ in 0..500 {
                if next() % 3 != 0 && v.len() < 64 {
                    let e = (next(), u64::from(next()) << 20);
                    s.push(e);
                    v.push(e);
                } else {
                    assert_eq!(s.pop(), v.pop());
                }
            }
            while let Some(e) = v.pop() {
                assert_eq!(s.pop(), Some(e));
            }
            assert_eq!(s.pop(), None);
        }
    }

    #[test]
    #[should_panic]
    fn overflow_panics_instead_of_writing_past_the_end() {
        let mut s = FixedStack::<u8, 2>::with(1);
        s.push(2);
        s.push(3);
    }
}
