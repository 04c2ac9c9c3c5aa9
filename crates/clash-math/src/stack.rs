//! [`Stack`]: the traversal stack of the tree descents, a fixed array on
//! the query's own stack frame that is never zeroed, with a heap vector
//! beyond it.
//!
//! The bounding-volume trees size the array from their proven depth bound
//! (a few hundred entries), so they never reach the vector, and zeroing an
//! array of that size would cost a `memset` of a few kilobytes per query.
//! Entries are written by a push before a pop can read them, so the array
//! is left uninitialised. The dynamic trees of the broad phase have no
//! depth bound and use a short array that spills.
use core::mem::MaybeUninit;

/// A last-in first-out stack of `Copy` entries: the first `N` in an array
/// that is neither allocated nor initialised until pushed, any more in a
/// vector.
pub struct Stack<E: Copy, const N: usize> {
    /// `items[..len]` are written.
    items: [MaybeUninit<E>; N],
    len: usize,
    /// The entries above the array's `N`; empty unless `len == N`.
    spill: Vec<E>,
}

impl<E: Copy, const N: usize> Default for Stack<E, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy, const N: usize> Stack<E, N> {
    /// An empty stack.
    #[inline(always)]
    pub fn new() -> Self {
        Self {
            items: [const { MaybeUninit::uninit() }; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    /// A stack holding `first`.
    #[inline(always)]
    pub fn with(first: E) -> Self {
        let mut s = Self::new();
        s.push(first);
        s
    }

    /// Number of entries held.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    /// Whether no entry is held.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Pushes `e`.
    #[inline(always)]
    pub fn push(&mut self, e: E) {
        if self.len < N {
            self.items[self.len].write(e);
            self.len += 1;
        } else {
            self.spill.push(e);
        }
    }

    /// The entry pushed last, removed; `None` when empty.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<E> {
        if self.len == N
            && let Some(e) = self.spill.pop()
        {
            return Some(e);
        }
        if self.len == 0 {
            return None;
        }
        let e = self.get(self.len - 1);
        self.len -= 1;
        Some(e)
    }

    /// Pushes `e` and moves it down, from the top, past the entries at
    /// positions `floor..` (counted from the bottom) until it rests on one
    /// for which `rests_on` holds (or on position `floor`): one step of an
    /// insertion sort, which keeps the entries above `floor` in order. A
    /// `floor` at or above the top just pushes.
    #[inline(always)]
    pub fn push_sorted(&mut self, floor: usize, e: E, mut rests_on: impl FnMut(&E) -> bool) {
        if self.len < N {
            // All in the array (the vector is empty below `N`).
            let mut i = self.len;
            while i > floor {
                let below = self.get(i - 1);
                if rests_on(&below) {
                    break;
                }
                self.items[i].write(below);
                i -= 1;
            }
            self.items[i].write(e);
            self.len += 1;
        } else {
            // Across the array's end: lift the entries `e` moves past and
            // put them back above it.
            let mut lifted = Vec::new();
            while self.len() > floor {
                let top = self.pop().expect("above the floor");
                if rests_on(&top) {
                    self.push(top);
                    break;
                }
                lifted.push(top);
            }
            self.push(e);
            while let Some(x) = lifted.pop() {
                self.push(x);
            }
        }
    }

    /// The array entry at `i`. Panics unless `i < len`.
    #[inline(always)]
    fn get(&self, i: usize) -> E {
        assert!(i < self.len);
        // SAFETY: `push` and `push_sorted` write `items[j]` before they
        // count `j` in `len`, and `len` only shrinks by `pop`, so every
        // index below `len` holds a written entry.
        unsafe { self.items[i].assume_init() }
    }
}

#[cfg(test)]
mod tests {
    use super::Stack;

    /// A small linear congruential generator for the random sequences.
    fn lcg(mut state: u64) -> impl FnMut() -> u32 {
        move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            (state >> 33) as u32
        }
    }

    /// Pushes and pops against a `Vec`, within the array and across into
    /// the vector.
    #[test]
    fn matches_a_vec_on_random_push_pop_sequences() {
        let mut next = lcg(12345);
        for cap in [64usize, 90] {
            for _ in 0..200 {
                let first = next();
                let mut s = Stack::<(u32, u64), 64>::with((first, 7));
                let mut v = vec![(first, 7u64)];
                for _ in 0..500 {
                    if !next().is_multiple_of(3) && v.len() < cap {
                        let e = (next(), u64::from(next()) << 20);
                        s.push(e);
                        v.push(e);
                    } else {
                        assert_eq!(s.pop(), v.pop());
                    }
                    assert_eq!(s.len(), v.len());
                    assert_eq!(s.is_empty(), v.is_empty());
                }
                while let Some(e) = v.pop() {
                    assert_eq!(s.pop(), Some(e));
                }
                assert_eq!(s.pop(), None);
            }
        }
    }

    /// `push_sorted` against an insertion into a `Vec`, with the entries
    /// above a random floor kept in decreasing key order (ties: the later
    /// push above), within the array and across its end.
    #[test]
    fn push_sorted_matches_insertion_into_a_vec() {
        let mut next = lcg(99);
        for _ in 0..300 {
            let mut s = Stack::<(u32, u32), 8>::new();
            let mut v: Vec<(u32, u32)> = Vec::new();
            for round in 0..40u32 {
                let floor = v.len();
                for _ in 0..next() % 9 {
                    let e = (next() % 6, round);
                    s.push_sorted(floor, e, |below| below.0 >= e.0);
                    let at = v[floor..]
                        .iter()
                        .rposition(|b| b.0 >= e.0)
                        .map_or(floor, |i| floor + i + 1);
                    v.insert(at, e);
                    assert_eq!(s.len(), v.len());
                }
                for _ in 0..next() % 7 {
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
    fn a_floor_above_the_top_just_pushes() {
        for n in [1usize, 3] {
            let mut s = Stack::<u8, 2>::new();
            for k in 0..n as u8 {
                s.push(k);
            }
            s.push_sorted(n + 2, 9, |_| false);
            assert_eq!(s.pop(), Some(9));
            assert_eq!(s.len(), n);
        }
    }
}
