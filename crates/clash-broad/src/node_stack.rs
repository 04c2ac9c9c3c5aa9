//! A traversal stack that lives on the call stack for ordinary trees and
//! spills to the heap only for very deep ones, so queries do not allocate.
use crate::slots::NULL;

const INLINE: usize = 64;

pub(crate) struct NodeStack {
    inline: [u32; INLINE],
    len: usize,
    spill: Vec<u32>,
}

impl NodeStack {
    #[inline]
    pub(crate) fn new() -> Self {
        Self {
            inline: [NULL; INLINE],
            len: 0,
            spill: Vec::new(),
        }
    }
    #[inline]
    pub(crate) fn push(&mut self, n: u32) {
        if self.len < INLINE {
            self.inline[self.len] = n;
            self.len += 1;
        } else {
            self.spill.push(n);
        }
    }
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if let Some(n) = self.spill.pop() {
            return Some(n);
        }
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.inline[self.len])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lifo_across_spill() {
        let mut s = NodeStack::new();
        for i in 0..200 {
            s.push(i);
        }
        for i in (0..200).rev() {
            assert_eq!(s.pop(), Some(i));
        }
        assert_eq!(s.pop(), None);
    }
}
