//! The nodes of a built tree from the slots the builder wrote.

use crate::Node;
use core::mem::MaybeUninit;

/// The nodes of a built tree from its slots, of which the builder wrote
/// `used` (see [`build`]): the slots themselves when every slot was
/// written (a full tree, one triangle per leaf), else the written ones in
/// slot order, which is preorder, with right-child indices remapped. The
/// written slots are found by walking the tree from the root, so no unused
/// (uninitialised) slot is ever read.
pub(super) fn assemble<B: Clone>(slots: Box<[MaybeUninit<Node<B>>]>, used: usize) -> Vec<Node<B>> {
    if used == slots.len() {
        // SAFETY: every call of `Builder::node` or `Builder::leaf` writes
        // the first slot of the slice it owns (once, before it returns) and
        // counts it, and the slices of distinct nodes are disjoint (a
        // subtree over `m` triangles owns `2m - 1` slots, split between its
        // own slot and its children's), so `used` distinct slots were
        // written: all of them. Tested by every default build, e.g.
        // `tests::full_and_partial_trees_assemble_in_preorder`.
        return unsafe { slots.assume_init() }.into_vec();
    }
    let mut nodes: Vec<Node<B>> = Vec::with_capacity(used);
    // Preorder walk over slot indices; a right child's new index is known
    // once its left sibling's subtree is out, so the parent's link is
    // patched then.
    let mut stack: Vec<(u32, Option<usize>)> = vec![(0, None)];
    while let Some((slot, parent)) = stack.pop() {
        // SAFETY: the walk visits the root (slot 0, written by the first
        // `Builder::node` or `Builder::leaf` call) and the children of
        // visited internal nodes: an internal node written at slot `s`
        // with right child `r` called the builder on slot `s + 1` (its left
        // child) and slot `r` (its right child) before returning, and each
        // such call writes its first slot. So every visited slot was
        // written. Tested with leaves of several triangles and depth
        // limits, e.g. `tests::full_and_partial_trees_assemble_in_preorder`.
        let node = unsafe { slots[slot as usize].assume_init_ref() }.clone();
        if let Some(p) = parent {
            nodes[p].child_or_first = nodes.len() as u32;
        }
        let at = nodes.len();
        let (leaf, right) = (node.is_leaf(), node.child_or_first);
        nodes.push(node);
        if !leaf {
            stack.push((right, Some(at)));
            stack.push((slot + 1, None));
        }
    }
    debug_assert_eq!(nodes.len(), used);
    nodes
}
