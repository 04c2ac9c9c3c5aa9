//! A binary max-heap in a fixed-size array (no allocation), for the
//! best-first phase of the distance search: a priority queue that lives on
//! the stack of each query.

/// A binary max-heap of at most `N` copies of `E`, stored in an array.
pub(crate) struct FixedHeap<E: Copy + Ord, const N: usize> {
    items: [E; N],
    len: usize,
}

impl<E: Copy + Ord, const N: usize> FixedHeap<E, N> {
    /// An empty heap; `fill` only initialises the array and is never read.
    pub(crate) fn new(fill: E) -> Self {
        Self {
            items: [fill; N],
            len: 0,
        }
    }

    /// Number of queued items.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// `true` when a push would not fit.
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.len == N
    }

    /// Adds `item`; returns it back when the heap is full.
    #[inline]
    pub(crate) fn push(&mut self, item: E) -> Result<(), E> {
        if self.is_full() {
            return Err(item);
        }
        let mut i = self.len;
        self.len += 1;
        // Sift up: move parents smaller than `item` down into the hole.
        while i > 0 {
            let parent = (i - 1) / 2;
            if self.items[parent] >= item {
                break;
            }
            self.items[i] = self.items[parent];
            i = parent;
        }
        self.items[i] = item;
        Ok(())
    }

    /// Removes and returns the greatest item.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<E> {
        if self.len == 0 {
            return None;
        }
        let top = self.items[0];
        self.len -= 1;
        let last = self.items[self.len];
        // Sift down: move the larger child up into the hole until `last` fits.
        let mut i = 0;
        loop {
            let left = 2 * i + 1;
            if left >= self.len {
                break;
            }
            let right = left + 1;
            let child = if right < self.len && self.items[right] > self.items[left] {
                right
            } else {
                left
            };
            if self.items[child] <= last {
                break;
            }
            self.items[i] = self.items[child];
            i = child;
        }
        self.items[i] = last;
        Some(top)
    }
}

#[cfg(test)]
mod tests {
    use super::FixedHeap;
    use rand::{RngExt, SeedableRng};
    use std::collections::BinaryHeap;

    /// Random pushes and pops against std's `BinaryHeap` (the oracle), with
    /// many equal keys, up to and past the capacity.
    #[test]
    fn matches_std_binary_heap() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for round in 0..200 {
            let mut ours = FixedHeap::<(u8, u32), 64>::new((0, 0));
            let mut oracle = BinaryHeap::new();
            for step in 0..2_000u32 {
                if rng.random_bool(if round % 2 == 0 { 0.6 } else { 0.45 }) {
                    let item = (rng.random_range(0..8u8), step);
                    match ours.push(item) {
                        Ok(()) => oracle.push(item),
                        Err(back) => {
                            assert_eq!(back, item);
                            assert_eq!(oracle.len(), 64);
                        }
                    }
                } else {
                    assert_eq!(ours.pop(), oracle.pop());
                }
                assert_eq!(ours.len(), oracle.len());
                assert_eq!(ours.is_full(), oracle.len() == 64);
            }
            while let Some(x) = oracle.pop() {
                assert_eq!(ours.pop(), Some(x));
            }
            assert_eq!(ours.pop(), None);
        }
    }
}
