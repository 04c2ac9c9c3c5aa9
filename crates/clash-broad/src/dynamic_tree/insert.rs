//! Where a new leaf goes and how the tree stays tight: the best-sibling
//! search by surface-area cost (RTCD §6.2.3, the Goldsmith–Salmon cost of
//! §6.2.3.1, by a greedy descent), and local tree rotations (Kensler 2008) applied while refitting towards the root;
//! linking a leaf into the tree and unlinking it.
use super::Node;
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use crate::slots::NULL;
use clash_bv::Aabb;
use clash_math::Scalar;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// The sibling for a leaf with box `b` (of area `area_leaf`) in the
    /// subtree under `start`, by a greedy descent (RTCD §6.2.3's "single
    /// root-leaf traversal"): making node `s` the sibling costs `SA(s ∪ b)`
    /// for the new parent plus, for every ancestor `a` of `s`, the growth
    /// `SA(a ∪ b) - SA(a)` (RTCD §6.2.3.1's inheritance cost). From `start`,
    /// go down into the child whose cost bound is lowest while that beats
    /// making the current node the sibling. Returns the node and its cost.
    ///
    /// A branch-and-bound search for the cheapest sibling (Bittner et al.
    /// 2012) finds slightly better places but reads several times as many
    /// nodes, scattered over the array; the rotations on the way up and the
    /// rebuilds of [`settle`](Self::settle) keep the tree's cost bounded.
    pub(crate) fn greedy_sibling(&self, b: &Aabb<T>, area_leaf: T, start: u32) -> (u32, T) {
        let mut n = start;
        let mut inherited = T::ZERO;
        loop {
            let node = &self.nodes[n as usize];
            let combined = surface_area(&union(&node.aabb, b));
            let cost_here = combined + inherited;
            if node.is_leaf() {
                return (n, cost_here);
            }
            let child_inherited = inherited + combined - surface_area(&node.aabb);
            let mut best_child = None;
            let mut best_cost = cost_here;
            for c in node.child {
                let cn = &self.nodes[c as usize];
                let direct = surface_area(&union(&cn.aabb, b));
                let bound = if cn.is_leaf() {
                    direct + child_inherited
                } else {
                    direct - surface_area(&cn.aabb) + child_inherited + area_leaf
                };
                if bound < best_cost {
                    best_cost = bound;
                    best_child = Some(c);
                }
            }
            match best_child {
                Some(c) => {
                    inherited = child_inherited;
                    n = c;
                }
                None => return (n, cost_here),
            }
        }
    }

    /// Tree rotation at internal node `a` with children `b` and `c`: swapping
    /// `b` with a grandchild under `c` (or `c` with one under `b`) keeps the
    /// box of `a` but changes the box of the child that receives the swapped
    /// node. The swap that shrinks that box's surface area most is applied
    /// (Kensler, *Tree Rotations for Improving Bounding Volume Hierarchies*, 2008).
    pub(crate) fn rotate(&mut self, a: u32) -> bool {
        let [b, c] = self.nodes[a as usize].child;
        // (area gain, node taken down, grandchild lifted, child receiving, grandchild slot)
        let mut best: Option<(T, u32, u32, u32, usize)> = None;
        for (down, other) in [(b, c), (c, b)] {
            let o = self.nodes[other as usize];
            if o.is_leaf() {
                continue;
            }
            let area_other = surface_area(&o.aabb);
            let down_box = self.nodes[down as usize].aabb;
            for k in 0..2 {
                let lifted = o.child[k];
                let kept = o.child[1 - k];
                let new_area = surface_area(&union(&down_box, &self.nodes[kept as usize].aabb));
                let gain = area_other - new_area;
                if gain > T::ZERO && best.is_none_or(|(g, ..)| gain > g) {
                    best = Some((gain, down, lifted, other, k));
                }
            }
        }
        let Some((_, down, lifted, other, k)) = best else {
            return false;
        };
        // `down` takes `lifted`'s place under `other`; `lifted` takes `down`'s under `a`.
        let slot_in_a = usize::from(self.nodes[a as usize].child[1] == down);
        self.nodes[a as usize].child[slot_in_a] = lifted;
        self.nodes[lifted as usize].parent = a;
        self.nodes[other as usize].child[k] = down;
        self.nodes[down as usize].parent = other;
        let [o0, o1] = self.nodes[other as usize].child;
        let (n0, n1) = (&self.nodes[o0 as usize], &self.nodes[o1 as usize]);
        let aabb = union(&n0.aabb, &n1.aabb);
        let height = 1 + n0.height.max(n1.height);
        let o = &mut self.nodes[other as usize];
        o.aabb = aabb;
        o.height = height;
        true
    }
}

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Refits the boxes and heights from `n` up to the root, rotating at
    /// each node where that reduces surface area when `rotate` is set.
    fn refit_upward_with(&mut self, mut n: u32, rotate: bool) {
        while n != NULL {
            let [a, b] = self.nodes[n as usize].child;
            let (na, nb) = (&self.nodes[a as usize], &self.nodes[b as usize]);
            let aabb = union(&na.aabb, &nb.aabb);
            let old = self.nodes[n as usize];
            self.nodes[n as usize].aabb = aabb;
            let rotated = rotate && self.rotate(n);
            let [a, b] = self.nodes[n as usize].child;
            let height = 1 + self.nodes[a as usize]
                .height
                .max(self.nodes[b as usize].height);
            self.nodes[n as usize].height = height;
            if !rotated && aabb == old.aabb && height == old.height {
                // Nothing above can change: every ancestor's box and height
                // depend on this node only through its box and height.
                return;
            }
            n = self.nodes[n as usize].parent;
        }
    }

    /// Unlinks a leaf from the tree (the leaf node itself stays allocated);
    /// its parent is freed and its sibling takes the parent's place. The
    /// ancestors are refitted, not rotated: the sibling's subtree was
    /// optimised when it was built, and the insertions rotate where they pass.
    pub(crate) fn unlink_leaf(&mut self, leaf: u32) {
        self.areas_valid = false;
        self.pair_tree.valid = false;
        self.in_order = false;
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let [c0, c1] = self.nodes[parent as usize].child;
        let sibling = if c0 == leaf { c1 } else { c0 };
        self.nodes[sibling as usize].parent = grand;
        if grand == NULL {
            self.root = sibling;
        } else {
            let g = &mut self.nodes[grand as usize];
            let k = usize::from(g.child[1] == parent);
            g.child[k] = sibling;
        }
        self.free_node_at(parent);
        self.nodes[leaf as usize].parent = NULL;
        self.refit_upward_with(grand, false);
    }

    /// Links an unlinked leaf (its fat box set) into the tree next to the
    /// sibling the greedy descent finds, then refits and rotates up to the root.
    pub(crate) fn insert_leaf(&mut self, leaf: u32) {
        self.areas_valid = false;
        self.pair_tree.valid = false;
        self.in_order = false;
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        let leaf_box = self.nodes[leaf as usize].aabb;
        let sibling = self
            .greedy_sibling(&leaf_box, surface_area(&leaf_box), self.root)
            .0;
        let old_parent = self.nodes[sibling as usize].parent;
        // alloc cannot fail here: the node count is bounded by twice the slot count.
        let new_parent = self
            .alloc_node()
            .expect("node capacity is twice the slot capacity");
        let s = &self.nodes[sibling as usize];
        self.nodes[new_parent as usize] = Node {
            aabb: union(&leaf_box, &s.aabb),
            parent: old_parent,
            child: [sibling, leaf],
            height: s.height + 1,
            proxy: NULL,
        };
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        if old_parent == NULL {
            self.root = new_parent;
        } else {
            let p = &mut self.nodes[old_parent as usize];
            let k = usize::from(p.child[1] == sibling);
            p.child[k] = new_parent;
        }
        self.refit_upward_with(old_parent, true);
    }
}
