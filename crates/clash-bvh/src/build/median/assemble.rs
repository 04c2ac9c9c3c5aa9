//! The nodes of a built tree from the slots the builder wrote.

use crate::Node;

/// The nodes of a built tree from its slots, of which the builder wrote
/// `used` (see [`build`](super::build)): the slots themselves when every
/// slot was written (a full tree, one triangle per leaf), else the written
/// ones in slot order, which is preorder, with right-child indices
/// remapped. The written slots are found by walking the tree from the
/// root, so no unused slot (a placeholder) is ever read.
pub(super) fn assemble<B: Clone>(slots: Vec<Node<B>>, used: usize) -> Vec<Node<B>> {
    if used == slots.len() {
        // Every call of `Builder::node` or `Builder::leaf` writes the
        // first slot of the slice it owns and counts it, and the slices of
        // distinct nodes are disjoint, so `used` distinct slots were
        // written: all of them.
        return slots;
    }
    let mut nodes: Vec<Node<B>> = Vec::with_capacity(used);
    // Preorder walk over slot indices; a right child's new index is known
    // once its left sibling's subtree is out, so the parent's link is
    // patched then. An internal node written at slot `s` with right child
    // `r` built its left child at slot `s + 1` and its right child at `r`.
    let mut stack: Vec<(u32, Option<usize>)> = vec![(0, None)];
    while let Some((slot, parent)) = stack.pop() {
        let node = slots[slot as usize].clone();
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
