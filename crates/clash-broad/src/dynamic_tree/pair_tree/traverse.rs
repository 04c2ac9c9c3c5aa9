//! The traversal of the copy against itself ([`PairTask`]), with
//! branch-free conditional pushes ([`Buf`]).

use super::{LEAF, Node4, block, row};

/// In a 16-bit block mask of a node against itself: the pairs `i < j`
/// (rows `i`: children `j > i`), each pair of distinct children once.
const ABOVE16: u32 = 0b1110 | 0b1100 << 4 | 0b1000 << 8;

/// Per 4-bit set of rows: the 16-bit block mask of those rows.
const ROWS: [u32; 16] = {
    let mut t = [0; 16];
    let mut r = 0;
    while r < 16 {
        let mut i = 0;
        while i < 4 {
            if r & (1 << i) != 0 {
                t[r] |= 0xF << (4 * i);
            }
            i += 1;
        }
        r += 1;
    }
    t
};

/// A 4-bit set of columns in every row of a 16-bit block mask.
#[inline(always)]
fn spread(cols: u32) -> u32 {
    cols * 0x1111
}

/// A stack whose pushes are conditional without a branch: `put` always
/// writes the next cell and advances only when asked, so unpredictable
/// outcomes (box tests) cost no mispredicted branch. Room for the pushes of
/// one visit is made beforehand by [`Buf::reserve`].
#[derive(Clone, Debug, Default)]
pub(crate) struct Buf<V: Copy + Default> {
    data: Vec<V>,
    len: usize,
}

impl<V: Copy + Default> Buf<V> {
    /// Makes room for `extra` more values.
    #[inline(always)]
    fn reserve(&mut self, extra: usize) {
        if self.data.len() < self.len + extra {
            let size = (self.len + extra).max(2 * self.data.len()).max(64);
            self.data.resize(size, V::default());
        }
    }
    /// Writes `v` on top and keeps it when `keep` is 1 (`keep` is 0 or 1).
    #[inline(always)]
    fn put(&mut self, v: V, keep: u32) {
        self.data[self.len] = v;
        self.len += keep as usize;
    }
    #[inline(always)]
    pub(crate) fn push(&mut self, v: V) {
        self.reserve(1);
        self.put(v, 1);
    }
    #[inline(always)]
    fn pop(&mut self) -> Option<V> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        Some(self.data[self.len])
    }
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        self.len = 0;
    }
    /// The values, bottom first.
    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[V] {
        &self.data[..self.len]
    }
    /// Moves every value to the end of `to`, bottom first.
    pub(crate) fn drain_into(&mut self, to: &mut Vec<V>) {
        to.extend_from_slice(&self.data[..self.len]);
        self.len = 0;
    }
}

/// `0xF` when bit `i` of `bits` is set, else 0.
#[inline(always)]
fn nibble(bits: u32, i: usize) -> u32 {
    0u32.wrapping_sub((bits >> i) & 1) & 0xF
}

/// Scratch and output of one piece of a traversal of a [`PairTree`]
/// against itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTask {
    /// The pairs found, smaller slot first.
    pub(crate) pairs: Buf<(u32, u32)>,
    /// Pairs of nodes to visit: `(a, a)` is a node against itself, `(a, b)`
    /// two distinct nodes, neither an ancestor of the other, whose boxes
    /// overlap and one of which is dirty.
    pub(crate) stack: Buf<(u32, u32)>,
    /// Leaves to pair with the leaves of a subtree: `(a, c, b)` is child
    /// `c` of node `a` (a leaf) against node `b`.
    leaves: Buf<(u32, u32, u32)>,
}

impl PairTask {
    /// Empties the output and the stacks.
    pub(crate) fn reset(&mut self) {
        self.pairs.clear();
        self.stack.clear();
        self.leaves.clear();
    }

    /// Visits the entries of the stacks (and those they lead to) until they
    /// are empty, appending to `pairs` every pair of leaves whose boxes
    /// overlap and of which at least one is dirty.
    pub(crate) fn run(&mut self, tree: &[Node4]) {
        loop {
            if let Some(entry) = self.stack.pop() {
                self.visit(tree, entry);
            } else if let Some(entry) = self.leaves.pop() {
                self.visit_leaf(tree, entry);
            } else {
                return;
            }
        }
    }

    /// Visits one pair of nodes (or a node against itself): every pair of
    /// their children whose boxes overlap and one of which is dirty gives a
    /// pair (two leaves), a leaf entry (a leaf and an internal node) or a
    /// node entry (two internal nodes, or an internal dirty child of a node
    /// against itself).
    #[inline(always)]
    pub(crate) fn visit(&mut self, tree: &[Node4], (x, y): (u32, u32)) {
        let (a, b) = (&tree[x as usize], &tree[y as usize]);
        let same = u32::from(x == y);
        // 16 bits: bit 4 i + j for child i of `a` and child j of `b`. A dirty
        // child meets every child, a clean one the dirty ones; a node
        // against itself pairs each two distinct children once.
        let wanted = spread(b.dirty) | (spread(b.valid) & ROWS[a.dirty as usize]);
        let tri = if x == y { ABOVE16 } else { 0xFFFF };
        let mut m = block(a, b) & wanted & ROWS[a.valid as usize] & tri;
        self.stack.reserve(20);
        self.leaves.reserve(16);
        self.pairs.reserve(16);
        // A node against itself: its dirty internal children against themselves.
        let inner = a.valid & !a.leaf & a.dirty & 0u32.wrapping_sub(same);
        for c in 0..4 {
            self.stack.put((a.link[c], a.link[c]), (inner >> c) & 1);
        }
        while m != 0 {
            let bit = m.trailing_zeros() as usize;
            m &= m - 1;
            let (i, j) = (bit >> 2, bit & 3);
            let (la, lb) = (a.link[i], b.link[j]);
            let (al, bl) = ((a.leaf >> i) & 1, (b.leaf >> j) & 1);
            let (sa, sb) = (la & !LEAF, lb & !LEAF);
            self.pairs.put((sa.min(sb), sa.max(sb)), al & bl);
            self.stack.put((la, lb), (al | bl) ^ 1);
            let entry = if al != 0 {
                (x, i as u32, lb)
            } else {
                (y, j as u32, la)
            };
            self.leaves.put(entry, al ^ bl);
        }
    }

    /// Visits one leaf entry: child `c` of node `x` (a leaf) against the
    /// children of node `y`: leaves give pairs, internal nodes leaf entries.
    #[inline(always)]
    fn visit_leaf(&mut self, tree: &[Node4], (x, c, y): (u32, u32, u32)) {
        let (a, b) = (&tree[x as usize], &tree[y as usize]);
        let c = c as usize;
        let (lo, hi) = a.child_box(c);
        let wanted = b.dirty | (b.valid & nibble(a.dirty, c));
        let mut m = row(&lo, &hi, b) & wanted;
        self.leaves.reserve(4);
        self.pairs.reserve(4);
        let s = a.link[c] & !LEAF;
        while m != 0 {
            let j = m.trailing_zeros() as usize;
            m &= m - 1;
            let lb = b.link[j];
            let bl = (b.leaf >> j) & 1;
            let o = lb & !LEAF;
            self.pairs.put((s.min(o), s.max(o)), bl);
            self.leaves.put((x, c as u32, lb), bl ^ 1);
        }
    }
}
