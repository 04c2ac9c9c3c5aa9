//! [`Node`]: one entry of the flat, depth-first preorder node array (RTCD §6.6.2).

use serde::{Deserialize, Serialize};

/// A node of a [`crate::Bvh`].
///
/// Nodes are stored in one contiguous array in depth-first preorder: the left
/// child of internal node `i` is node `i + 1`, the right child is stored by
/// index, and a leaf names a contiguous run of triangles in the tree's leaf
/// order. 32-bit indices keep a node small.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node<B> {
    /// The bounding volume of everything below this node.
    pub bv: B,
    /// Internal node: index of the right child. Leaf: index of its first
    /// triangle in the leaf order ([`crate::Bvh::leaf_order`]).
    pub(crate) child_or_first: u32,
    /// Number of triangles for a leaf; 0 for an internal node.
    pub(crate) count: u32,
}

impl<B> Node<B> {
    /// `true` for a leaf.
    #[inline(always)]
    pub fn is_leaf(&self) -> bool {
        self.count > 0
    }

    /// For an internal node at index `i`: `(left, right)` child indices.
    #[inline(always)]
    pub fn children(&self, i: u32) -> Option<(u32, u32)> {
        (!self.is_leaf()).then_some((i + 1, self.child_or_first))
    }

    /// For a leaf: the range of positions in the leaf order it covers.
    #[inline(always)]
    pub fn triangle_range(&self) -> Option<core::ops::Range<usize>> {
        self.is_leaf()
            .then(|| self.child_or_first as usize..(self.child_or_first + self.count) as usize)
    }
}
