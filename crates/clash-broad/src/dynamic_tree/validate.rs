//! Invariant checks and quality metrics of a dynamic tree.
use super::FREE;
use crate::aabb_ops::{contains, surface_area, union};
use crate::slots::NULL;
use crate::{BroadPhaseError, DynamicTree};
use clash_math::Scalar;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Checks every structural invariant, in O(n):
    /// parent and child links agree; every internal node has two children
    /// and its box is exactly the union of theirs; heights are consistent;
    /// the per-object copy of each fat box equals its leaf's box, except for
    /// the objects that [`update`](Self::update) gave a new fat box since
    /// the last [`settle`](Self::settle) (their leaves keep the old one
    /// until then), which are listed as stale exactly once, live and
    /// pending; every live object has exactly one leaf that points back at
    /// it, reachable from the root (or, for an object inserted since the
    /// last `settle`, not linked yet and listed as stale), and its fat box contains its tight box;
    /// every other node is on the free list exactly once; all boxes are
    /// finite; the copy of the tree kept for the pair search, if any,
    /// equals a fresh copy; when the nodes are said to be in order (after a
    /// rebuild), every parent comes before its children and none is free.
    ///
    /// # Errors
    /// [`BroadPhaseError::InvariantViolated`] naming the first broken invariant.
    pub fn validate(&self) -> Result<(), BroadPhaseError> {
        let bad =
            |node: u32, what: &'static str| Err(BroadPhaseError::InvariantViolated { node, what });
        self.slots.validate()?;
        // Stale slots: listed once each, flagged, live and pending.
        let flagged = self.stale_flag.iter().filter(|&&f| f).count();
        if flagged != self.stale.len() {
            return bad(NULL, "stale list and flags disagree");
        }
        for &s in &self.stale {
            let k = s as usize;
            if !self.stale_flag.get(k).copied().unwrap_or(false)
                || k >= self.slots.capacity()
                || !self.slots.is_live(k)
                || !self.pending_flag.get(k).copied().unwrap_or(false)
            {
                return bad(s, "stale slot not flagged, not live or not pending");
            }
        }
        let n = self.nodes.len();
        let mut seen = vec![false; n];
        let mut leaves = 0usize;
        let mut reached = 0usize;
        if self.root != NULL {
            if self.root as usize >= n {
                return bad(self.root, "root out of range");
            }
            if self.nodes[self.root as usize].parent != NULL {
                return bad(self.root, "root has a parent");
            }
            let mut stack = vec![self.root];
            while let Some(i) = stack.pop() {
                if seen[i as usize] {
                    return bad(i, "node reached twice (cycle or shared child)");
                }
                seen[i as usize] = true;
                reached += 1;
                let node = &self.nodes[i as usize];
                if node.height == FREE {
                    return bad(i, "free node reachable from the root");
                }
                for k in 0..3 {
                    if !node.aabb.min[k].finite()
                        || !node.aabb.max[k].finite()
                        || node.aabb.min[k] > node.aabb.max[k]
                    {
                        return bad(i, "node box not finite or inverted");
                    }
                }
                if node.is_leaf() {
                    leaves += 1;
                    if node.child[1] != NULL || node.height != 0 {
                        return bad(i, "malformed leaf");
                    }
                    let slot = node.proxy as usize;
                    if slot >= self.slots.capacity()
                        || !self.slots.is_live(slot)
                        || self.slots.link[slot] != i
                    {
                        return bad(i, "leaf and object slot do not point at each other");
                    }
                    // A leaf that `update` gave a new fat box keeps the old
                    // one until `settle`; it must then be listed as stale.
                    let stale = self.stale_flag.get(slot).copied().unwrap_or(false);
                    if !stale && self.fat.get(slot) != Some(&node.aabb) {
                        return bad(i, "per-slot fat box differs from the leaf's box");
                    }
                    if !contains(&self.fat[slot], &self.slots.aabb[slot]) {
                        return bad(i, "fat box does not contain the tight box");
                    }
                } else {
                    if node.proxy != NULL {
                        return bad(i, "internal node carries an object");
                    }
                    let [a, b] = node.child;
                    if a == NULL || b == NULL || a as usize >= n || b as usize >= n || a == b {
                        return bad(i, "internal node without two distinct children");
                    }
                    let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
                    if na.parent != i || nb.parent != i {
                        return bad(i, "child does not point back at its parent");
                    }
                    if self.in_order && (a <= i || b <= i) {
                        return bad(
                            i,
                            "nodes said to be in order have a child before its parent",
                        );
                    }
                    if union(&na.aabb, &nb.aabb) != node.aabb {
                        return bad(i, "box is not the union of the children's boxes");
                    }
                    if na.height == FREE
                        || nb.height == FREE
                        || node.height != 1 + na.height.max(nb.height)
                    {
                        return bad(i, "height inconsistent");
                    }
                    stack.push(a);
                    stack.push(b);
                }
            }
        }
        // The area sums that `settle` keeps up to date, when valid, equal
        // a fresh summation up to rounding (unless areas overflow `f64`).
        let (internal, leaf) = self.area_sums();
        if self.areas_valid && internal.is_finite() && leaf.is_finite() {
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-300);
            if !close(internal, self.area_internal) || !close(leaf, self.area_leaves) {
                return bad(self.root, "kept area sums differ from the tree's");
            }
        }
        // A kept pair-search copy equals a fresh copy (but for its dirty
        // bits, which the next search sets again).
        if self.pair_tree.valid && !self.pair_tree.same_as_copy_of(&self.nodes, self.root) {
            return bad(self.root, "kept pair-search copy differs from the tree");
        }
        // A new object's leaf, until `settle` links it, is reached from its
        // slot only, which is then stale (and so pending).
        for &s in &self.stale {
            let k = s as usize;
            let leaf = self.slots.link[k];
            if leaf as usize >= n {
                return bad(leaf, "leaf out of range");
            }
            if self.is_linked(leaf) {
                continue;
            }
            let node = &self.nodes[leaf as usize];
            if seen[leaf as usize]
                || !node.is_leaf()
                || node.child[1] != NULL
                || node.height != 0
                || node.proxy != s
            {
                return bad(leaf, "malformed leaf of a new object");
            }
            if !contains(&self.fat[k], &self.slots.aabb[k]) {
                return bad(leaf, "fat box does not contain the tight box");
            }
            seen[leaf as usize] = true;
            leaves += 1;
            reached += 1;
        }
        if leaves != self.slots.len() {
            return bad(self.root, "leaf count differs from object count");
        }
        if reached != self.node_count {
            return bad(self.root, "node count differs from reachable nodes");
        }
        let mut f = self.free_node;
        let mut free = 0usize;
        while f != NULL {
            if f as usize >= n || seen[f as usize] || self.nodes[f as usize].height != FREE {
                return bad(f, "free list corrupt");
            }
            seen[f as usize] = true;
            free += 1;
            f = self.nodes[f as usize].parent;
        }
        if self.in_order && free != 0 {
            return bad(self.free_node, "nodes said to be in order with free nodes");
        }
        if free + reached != n {
            return bad(
                NULL,
                "nodes leaked: neither in the tree nor on the free list",
            );
        }
        Ok(())
    }

    /// Sum of the surface areas of the internal nodes: the SAH quality
    /// measure of the tree (lower is better; RTCD §6.2.3.1). Compare with
    /// the same tree after [`rebuild`](Self::rebuild) to judge degradation.
    pub fn total_internal_area(&self) -> T {
        let mut sum = T::ZERO;
        for node in &self.nodes {
            if node.height != FREE && !node.is_leaf() {
                sum += surface_area(&node.aabb);
            }
        }
        sum
    }
}
