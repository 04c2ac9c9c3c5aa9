//! The traversal copy of a dynamic tree that the pair search runs on.
//!
//! Before a traversal of the tree against itself, the tree is copied into a
//! compact 4-wide tree: each node holds the boxes of up to four children
//! (the binary tree's grandchildren) in `f32`, in structure-of-arrays form,
//! so that one box is tested against all four children of a node at once
//! ([`row`]: SSE2 on x86_64, plain comparisons elsewhere), a pair of nodes
//! costs four such tests and two node reads, and leaves are no nodes at
//! all. The copy is made in depth-first order, children after their parent.
//!
//! Boxes are rounded outward (minima down, maxima up) when the tree is
//! `f64`, so the copy's boxes contain the tree's and the traversal finds
//! every pair whose fat boxes overlap, possibly with a few more whose boxes
//! only touch after rounding (the caller checks candidates on the exact
//! tight boxes). Minima are never `+inf` and maxima never `-inf`.
//!
//! Each child also carries a *dirty* bit: the leaf's fat box changed since
//! the last pair search, or the subtree holds such a leaf. A traversal that
//! skips pairs of clean children finds exactly the overlapping pairs with at
//! least one changed member; the others were found before.
use crate::dynamic_tree::Node;
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::Scalar;

/// Bit of a child link marking a leaf; the other bits are the object's slot.
pub(crate) const LEAF: u32 = 1 << 31;

/// One node of the traversal copy (two cache lines).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct Node4 {
    /// Per axis, the minima of the four children (rounded down).
    pub(crate) lo: [[f32; 4]; 3],
    /// Per axis, the maxima of the four children (rounded up).
    pub(crate) hi: [[f32; 4]; 3],
    /// Per child: the index of its node, or `LEAF | slot`.
    pub(crate) link: [u32; 4],
    /// Bit `c`: child `c` exists (children `0..count` exist).
    pub(crate) valid: u32,
    /// Bit `c`: child `c` is a leaf.
    pub(crate) leaf: u32,
    /// Bit `c`: child `c` is a changed leaf or holds one.
    pub(crate) dirty: u32,
}

impl Default for Node4 {
    fn default() -> Self {
        Self {
            lo: [[f32::MAX; 4]; 3],
            hi: [[-f32::MAX; 4]; 3],
            link: [NULL; 4],
            valid: 0,
            leaf: 0,
            dirty: 0,
        }
    }
}

impl Node4 {
    /// The box of child `c`: minima and maxima.
    #[inline(always)]
    pub(crate) fn child_box(&self, c: usize) -> ([f32; 3], [f32; 3]) {
        (
            [self.lo[0][c], self.lo[1][c], self.lo[2][c]],
            [self.hi[0][c], self.hi[1][c], self.hi[2][c]],
        )
    }
}

/// `x` (not NaN) rounded down to an `f32`; never `+inf`.
///
/// Without a branch (whether the nearest `f32` lies above `x` is
/// unpredictable): that `f32`, stepped one unit toward `-inf` when it lies
/// above `x`. A step toward `-inf` is one unit less of magnitude for a
/// positive value (`+inf` becomes `f32::MAX`) and one more for a negative
/// one (`-0.0` becomes the smallest negative subnormal); `+0.0` never lies
/// above `x` (`x` would be `+0.0` or above: a negative `x` rounds to
/// `-0.0` or below).
#[inline(always)]
pub(crate) fn round_down<T: Scalar>(x: T) -> f32 {
    let d = x.to_f64();
    let f = d as f32;
    let step = u32::from(f64::from(f) > d);
    let bits = f.to_bits();
    let neg = bits >> 31;
    // Negative: bits + step; positive: bits - step.
    f32::from_bits(bits.wrapping_add(step * 2 * neg).wrapping_sub(step))
}

/// `x` (not NaN) rounded up to an `f32`; never `-inf`. As [`round_down`],
/// mirrored: a step toward `+inf` is one unit more of magnitude for a
/// positive value (`+0.0` becomes the smallest positive subnormal) and one
/// less for a negative one (`-inf` becomes `-f32::MAX`).
#[inline(always)]
pub(crate) fn round_up<T: Scalar>(x: T) -> f32 {
    let d = x.to_f64();
    let f = d as f32;
    let step = u32::from(f64::from(f) < d);
    let bits = f.to_bits();
    let neg = bits >> 31;
    // Positive: bits + step; negative: bits - step.
    f32::from_bits(bits.wrapping_add(step).wrapping_sub(step * 2 * neg))
}

/// Bit `c` set when the closed box `lo..hi` overlaps child `c` of `n`
/// (valid or not): the four tests of one box against a node's children.
#[inline(always)]
pub(crate) fn row(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse::row(lo, hi, n)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        row_portable(lo, hi, n)
    }
}

/// The sixteen tests of the children of `a` against those of `b` (valid
/// or not): bit `4 i + j` is set when child `i` of `a` overlaps child `j`
/// of `b`.
#[inline(always)]
pub(crate) fn block(a: &Node4, b: &Node4) -> u32 {
    #[cfg(target_arch = "x86_64")]
    {
        sse::block(a, b)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        block_portable(a, b)
    }
}

/// [`block`] by [`row_portable`] (the reference for the SSE2 version).
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn block_portable(a: &Node4, b: &Node4) -> u32 {
    let mut m = 0;
    for i in 0..4 {
        let (lo, hi) = a.child_box(i);
        m |= row_portable(&lo, &hi, b) << (4 * i);
    }
    m
}

/// [`row`] by plain comparisons (the reference for the SSE2 version).
#[inline(always)]
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
pub(crate) fn row_portable(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
    let mut m = 0;
    for c in 0..4 {
        let hit = (0..3).all(|k| lo[k] <= n.hi[k][c] && n.lo[k][c] <= hi[k]);
        m |= u32::from(hit) << c;
    }
    m
}

#[cfg(target_arch = "x86_64")]
mod sse {
    //! [`row`](super::row) in SSE2 (part of the x86_64 baseline): the six
    //! comparisons of one box against four children in six instructions.
    use super::Node4;
    use core::arch::x86_64::{
        __m128, _mm_and_ps, _mm_cmple_ps, _mm_load_ps, _mm_movemask_ps, _mm_set1_ps, _mm_shuffle_ps,
    };

    /// Four lanes of a node array (16-byte aligned: `Node4` is 64-byte
    /// aligned and its arrays start at multiples of 16 bytes).
    #[inline(always)]
    fn load(a: &[f32; 4]) -> __m128 {
        // SAFETY: `a` is 16 readable bytes, aligned to 16 (see above); SSE
        // is part of the x86_64 baseline.
        unsafe { _mm_load_ps(a.as_ptr()) }
    }

    #[inline(always)]
    pub(super) fn row(lo: &[f32; 3], hi: &[f32; 3], n: &Node4) -> u32 {
        // SAFETY: SSE is part of the x86_64 baseline; these intrinsics
        // compute on registers only.
        unsafe {
            let mut m = _mm_and_ps(
                _mm_cmple_ps(_mm_set1_ps(lo[0]), load(&n.hi[0])),
                _mm_cmple_ps(load(&n.lo[0]), _mm_set1_ps(hi[0])),
            );
            for k in 1..3 {
                m = _mm_and_ps(m, _mm_cmple_ps(_mm_set1_ps(lo[k]), load(&n.hi[k])));
                m = _mm_and_ps(m, _mm_cmple_ps(load(&n.lo[k]), _mm_set1_ps(hi[k])));
            }
            _mm_movemask_ps(m) as u32
        }
    }

    /// Lane `I` of `v` in all four lanes.
    #[inline(always)]
    fn splat<const I: i32>(v: __m128) -> __m128 {
        // SAFETY: SSE is part of the x86_64 baseline; registers only.
        unsafe { _mm_shuffle_ps::<I>(v, v) }
    }

    #[inline(always)]
    pub(super) fn block(a: &Node4, b: &Node4) -> u32 {
        // SAFETY: SSE is part of the x86_64 baseline; these intrinsics
        // compute on registers only.
        unsafe {
            let mut m = [_mm_set1_ps(f32::from_bits(u32::MAX)); 4];
            for k in 0..3 {
                let (alo, ahi) = (load(&a.lo[k]), load(&a.hi[k]));
                let (blo, bhi) = (load(&b.lo[k]), load(&b.hi[k]));
                let lanes = [
                    (splat::<0x00>(alo), splat::<0x00>(ahi)),
                    (splat::<0x55>(alo), splat::<0x55>(ahi)),
                    (splat::<0xAA>(alo), splat::<0xAA>(ahi)),
                    (splat::<0xFF>(alo), splat::<0xFF>(ahi)),
                ];
                for (mi, (lo, hi)) in m.iter_mut().zip(lanes) {
                    *mi = _mm_and_ps(*mi, _mm_cmple_ps(lo, bhi));
                    *mi = _mm_and_ps(*mi, _mm_cmple_ps(blo, hi));
                }
            }
            (_mm_movemask_ps(m[0])
                | _mm_movemask_ps(m[1]) << 4
                | _mm_movemask_ps(m[2]) << 8
                | _mm_movemask_ps(m[3]) << 12) as u32
        }
    }
}

/// The traversal copy: its nodes (node 0 is the root), where each node of
/// the binary tree is copied, and the scratch of its construction.
///
/// While the binary tree keeps its shape, the copy is kept too: a box that
/// changes in the binary tree is written to its lane ([`set_box`](Self::set_box)),
/// and the dirty bits are cleared and set again from the changed leaves
/// ([`mark_dirty`](Self::mark_dirty)), rather than copying the whole tree
/// again. `valid` says the copy has the binary tree's shape and boxes; any
/// change of shape clears it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairTree {
    pub(crate) nodes: Vec<Node4>,
    stack: Vec<(u32, u32)>,
    /// Per binary node: `node << 2 | child`, the lane of the copy that holds
    /// its box, or `NULL` (the root, the internal nodes whose children are
    /// lanes of their parent's node, free nodes).
    lane: Vec<u32>,
    /// Per node of the copy: the lane that holds its box in its parent
    /// (`NULL` for the root).
    up: Vec<u32>,
    /// The nodes of the copy with a dirty bit set.
    dirty_nodes: Vec<u32>,
    /// The copy has the binary tree's shape and boxes.
    pub(crate) valid: bool,
}

impl PairTree {
    /// Copies the tree under `root` (empty when it holds fewer than two
    /// leaves); `dirty(slot)` tells whether a leaf changed. Each node takes
    /// the children of its binary node's internal children (and its leaf
    /// children themselves).
    pub(crate) fn build<T: Scalar>(
        &mut self,
        nodes: &[Node<T>],
        root: u32,
        dirty: impl Fn(u32) -> bool,
    ) {
        self.nodes.clear();
        self.up.clear();
        self.dirty_nodes.clear();
        self.lane.clear();
        self.lane.resize(nodes.len(), NULL);
        self.valid = true;
        if root == NULL || nodes[root as usize].is_leaf() {
            return;
        }
        let (out, stack, lane, up) = (
            &mut self.nodes,
            &mut self.stack,
            &mut self.lane,
            &mut self.up,
        );
        stack.clear();
        out.push(Node4::default());
        up.push(NULL);
        stack.push((root, 0));
        while let Some((n, i)) = stack.pop() {
            let mut p = Node4::default();
            let mut count = 0;
            for c in nodes[n as usize].child {
                let cn = &nodes[c as usize];
                let grand = if cn.is_leaf() { [c, NULL] } else { cn.child };
                for g in grand {
                    if g == NULL {
                        continue;
                    }
                    let gn = &nodes[g as usize];
                    let b = &gn.aabb;
                    for k in 0..3 {
                        p.lo[k][count] = round_down(b.min[k]);
                        p.hi[k][count] = round_up(b.max[k]);
                    }
                    let code = i << 2 | count as u32;
                    lane[g as usize] = code;
                    if gn.is_leaf() {
                        p.link[count] = LEAF | gn.proxy;
                        p.leaf |= 1 << count;
                        p.dirty |= u32::from(dirty(gn.proxy)) << count;
                    } else {
                        let j = out.len() as u32;
                        out.push(Node4::default());
                        up.push(code);
                        p.link[count] = j;
                        stack.push((g, j));
                    }
                    count += 1;
                }
            }
            p.valid = (1 << count) - 1;
            out[i as usize] = p;
        }
        // Children come after their parent: one backward pass gives every
        // internal child its subtree's dirty bit.
        for i in (0..out.len()).rev() {
            let mut d = out[i].dirty;
            for c in 0..4 {
                let l = out[i].link[c];
                if out[i].valid & !out[i].leaf & (1 << c) != 0 && out[l as usize].dirty != 0 {
                    d |= 1 << c;
                }
            }
            out[i].dirty = d;
            if d != 0 {
                self.dirty_nodes.push(i as u32);
            }
        }
    }

    /// Writes the (changed) box of binary node `n` to its lane, if it has
    /// one, rounded outward. Only while the copy is `valid`.
    #[inline]
    pub(crate) fn set_box<T: Scalar>(&mut self, n: u32, b: &Aabb<T>) {
        let code = self.lane[n as usize];
        if code == NULL {
            return;
        }
        let (i, c) = ((code >> 2) as usize, (code & 3) as usize);
        let node = &mut self.nodes[i];
        for k in 0..3 {
            node.lo[k][c] = round_down(b.min[k]);
            node.hi[k][c] = round_up(b.max[k]);
        }
    }

    /// `true` when this copy equals a fresh copy of the tree under `root`,
    /// dirty bits aside (for the validator).
    pub(crate) fn same_as_copy_of<T: Scalar>(&self, nodes: &[Node<T>], root: u32) -> bool {
        let mut fresh = PairTree::default();
        fresh.build(nodes, root, |_| false);
        let clean = |n: &Node4| Node4 { dirty: 0, ..*n };
        self.lane == fresh.lane
            && self.up == fresh.up
            && self.nodes.len() == fresh.nodes.len()
            && self
                .nodes
                .iter()
                .zip(&fresh.nodes)
                .all(|(a, b)| clean(a) == clean(b))
    }

    /// Clears every dirty bit.
    pub(crate) fn clear_dirty(&mut self) {
        for &i in &self.dirty_nodes {
            self.nodes[i as usize].dirty = 0;
        }
        self.dirty_nodes.clear();
    }

    /// Marks the leaf in binary node `leaf` dirty, and the nodes above it
    /// (up to the first one already marked).
    #[inline]
    pub(crate) fn mark_dirty(&mut self, leaf: u32) {
        let mut code = self.lane[leaf as usize];
        while code != NULL {
            let i = (code >> 2) as usize;
            let node = &mut self.nodes[i];
            let was = node.dirty;
            node.dirty = was | 1 << (code & 3);
            if was != 0 {
                return;
            }
            self.dirty_nodes.push(i as u32);
            code = self.up[i];
        }
    }
}

impl PairTree {
    /// Calls `f(slot)` for every leaf whose box overlaps the box `lo..hi`,
    /// by a descent that tests the children of a node in one [`row`] test.
    /// `stack` is scratch.
    pub(crate) fn query(
        &self,
        lo: &[f32; 3],
        hi: &[f32; 3],
        stack: &mut Vec<u32>,
        mut f: impl FnMut(u32),
    ) {
        if self.nodes.is_empty() {
            return;
        }
        stack.clear();
        stack.push(0);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            let mut hit = row(lo, hi, node) & node.valid;
            while hit != 0 {
                let c = hit.trailing_zeros() as usize;
                hit &= hit - 1;
                let l = node.link[c];
                if node.leaf & (1 << c) != 0 {
                    f(l & !LEAF);
                } else {
                    stack.push(l);
                }
            }
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn next_u64(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    #[test]
    fn rounding_is_outward_and_tight() {
        let special = [
            0.0,
            -0.0,
            1e-300,
            -1e-300,
            f64::MIN_POSITIVE,
            1e-45,
            -1e-45,
            1.0 + f64::EPSILON,
            -(1.0 + f64::EPSILON),
            f64::from(f32::MAX),
            -f64::from(f32::MAX),
            f64::from(f32::MAX) * (1.0 + f64::EPSILON),
            1e39,
            -1e39,
            1e300,
            -1e300,
            f64::MAX,
            -f64::MAX,
            0.1,
            -0.1,
            16_777_217.0,
            -16_777_217.0,
            1e-50,
            -1e-50,
            -f64::MIN_POSITIVE,
            f64::from(f32::from_bits(1)),
            -f64::from(f32::from_bits(1)),
            f64::from(f32::from_bits(1)) * 1.5,
            -f64::from(f32::from_bits(1)) * 1.5,
            f64::from(f32::MIN_POSITIVE) * (1.0 - f64::EPSILON),
            -f64::from(f32::MIN_POSITIVE) * (1.0 - f64::EPSILON),
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut seed2 = 0x9e37_79b9_7f4a_7c15u64;
        let random = (0..100_000)
            .map(|_| f64::from_bits(next_u64(&mut seed)))
            .filter(|x| x.is_finite())
            // Values within the range of f32, on and between its steps.
            .chain((0..100_000).map(|i| {
                let f = f32::from_bits(next_u64(&mut seed2) as u32);
                let x = f64::from(if f.is_finite() { f } else { 1.0 });
                match i % 3 {
                    0 => x,
                    1 => x.next_up(),
                    _ => x.next_down(),
                }
            }));
        for x in special.into_iter().chain(random) {
            let (lo, hi) = (round_down(x), round_up(x));
            // The same as stepping with `next_down` / `next_up`.
            let f = x as f32;
            let lo_ref = if f64::from(f) > x { f.next_down() } else { f };
            let hi_ref = if f64::from(f) < x { f.next_up() } else { f };
            assert_eq!(lo.to_bits(), lo_ref.to_bits(), "{x:e} down");
            assert_eq!(hi.to_bits(), hi_ref.to_bits(), "{x:e} up");
            assert!(
                f64::from(lo) <= x && x <= f64::from(hi),
                "{x:e}: {lo:e} {hi:e}"
            );
            assert!(lo != f32::INFINITY && hi != f32::NEG_INFINITY, "{x:e}");
            // Tight: no f32 between the rounded value and `x`.
            if lo.is_finite() && f64::from(lo) < x {
                assert!(f64::from(lo.next_up()) > x, "{x:e} down");
            }
            if hi.is_finite() && f64::from(hi) > x {
                assert!(f64::from(hi.next_down()) < x, "{x:e} up");
            }
            // f32 values are kept exactly.
            let y = x as f32;
            if y.is_finite() {
                assert_eq!(round_down(y).to_bits(), y.to_bits());
                assert_eq!(round_up(y).to_bits(), y.to_bits());
            }
        }
    }

    /// The SSE2 row and block tests answer as the comparisons, on touching boxes,
    /// zeros of both signs, infinities from rounding, subnormals, huge
    /// coordinates and random ones.
    #[test]
    fn row_and_block_tests_equal_comparisons() {
        let values = [
            f32::NEG_INFINITY,
            -f32::MAX,
            -3.0,
            -1.0,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            1.0,
            3.0,
            f32::MAX,
            f32::INFINITY,
        ];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let pick = |seed: &mut u64| {
            let r = next_u64(seed);
            if r.is_multiple_of(3) {
                values[(r >> 8) as usize % values.len()]
            } else {
                ((r >> 8) % 2001) as f32 * 0.01 - 10.0
            }
        };
        let mut hits = 0;
        for _ in 0..20_000 {
            let mut n = Node4::default();
            for c in 0..4 {
                for k in 0..3 {
                    let (a, b) = (pick(&mut seed), pick(&mut seed));
                    n.lo[k][c] = a.min(b);
                    n.hi[k][c] = a.max(b);
                }
            }
            let mut lo = [0.0; 3];
            let mut hi = [0.0; 3];
            for k in 0..3 {
                let (a, b) = (pick(&mut seed), pick(&mut seed));
                lo[k] = a.min(b);
                hi[k] = a.max(b);
            }
            let m = row(&lo, &hi, &n);
            assert_eq!(m, row_portable(&lo, &hi, &n), "{lo:?} {hi:?} {n:?}");
            hits += m.count_ones();
            // The block test of the node against a node made of this box
            // and three others.
            let mut o = Node4::default();
            for c in 0..4 {
                for k in 0..3 {
                    let (a, b) = if c == 0 {
                        (lo[k], hi[k])
                    } else {
                        let (a, b) = (pick(&mut seed), pick(&mut seed));
                        (a.min(b), a.max(b))
                    };
                    o.lo[k][c] = a;
                    o.hi[k][c] = b;
                }
            }
            assert_eq!(block(&o, &n), block_portable(&o, &n), "{o:?} {n:?}");
            assert_eq!(block(&n, &o), block_portable(&n, &o), "{n:?} {o:?}");
            assert_eq!(block(&o, &n) & 0xF, m);
        }
        assert!(hits > 5_000, "too few overlaps to test: {hits}");
    }
}
