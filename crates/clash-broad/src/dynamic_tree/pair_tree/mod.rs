//! The traversal copy of a dynamic tree that the pair search runs on.
//!
//! Before a traversal of the tree against itself, the tree is copied into a
//! compact 4-wide tree: each node holds the boxes of up to four children
//! (the binary tree's grandchildren) in `f32`, in structure-of-arrays form,
//! so that one box is tested against all four children of a node at once
//! ([`row`]: SSE2 on x86_64, plain comparisons elsewhere), a pair of nodes
//! costs four such tests and two node reads, and leaves are no nodes at
//! all. Children come after their parent in the copy.
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
//!
//! This file holds the copy ([`PairTree`]: keeping it up to date, box
//! queries on it); `copy.rs` makes it (in parallel for large trees),
//! `node4.rs` holds its node and box tests, `traverse.rs` the traversal
//! against itself.

mod copy;
mod node4;
#[cfg(test)]
mod tests;
mod traverse;

pub(crate) use node4::{LEAF, Node4, block, round_down, round_up, row};
pub(crate) use traverse::PairTask;

use crate::dynamic_tree::Node;
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::Scalar;

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
    /// Scratch of the parallel copy of large trees, one per subtree.
    copy_tasks: Vec<copy::CopyTask>,
    /// Scratch of the copy of large trees: the roots of its subtrees.
    front: Vec<(u32, u32)>,
    /// The copy has the binary tree's shape and boxes.
    pub(crate) valid: bool,
}

impl PairTree {
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
