//! Where a new leaf goes and how the tree stays tight: the best-sibling
//! search by surface-area cost (RTCD §6.2.3, the Goldsmith–Salmon cost of
//! §6.2.3.1 searched by branch and bound as Bittner et al. 2012 do), and local
//! tree rotations (Kensler 2008) applied while refitting towards the root.
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use clash_bv::Aabb;
use clash_math::Scalar;

/// Largest number of nodes the branch-and-bound sibling search visits.
pub(crate) const SEARCH_BUDGET: usize = 64;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// The node of the subtree under `start` under whose new parent a leaf
    /// with box `b` costs least.
    ///
    /// Making node `s` the sibling costs `SA(s ∪ b)` for the new parent plus,
    /// for every ancestor `a` of `s`, the growth `SA(a ∪ b) - SA(a)` (RTCD
    /// §6.2.3.1's inheritance cost). A greedy root-to-leaf descent (RTCD
    /// §6.2.3's "single root-leaf traversal") gives a first candidate; a
    /// depth-first branch and bound (the best-first search RTCD §6.2.3
    /// mentions, after Bittner et al. 2012) then looks for a cheaper one:
    /// below a node, no sibling costs less than `SA(b)` plus the inherited
    /// growth, which prunes the search. The search stops after
    /// [`SEARCH_BUDGET`] nodes, so an insertion stays O(log n).
    pub(crate) fn best_sibling(&mut self, b: &Aabb<T>, start: u32) -> u32 {
        let area_leaf = surface_area(b);
        let (mut best, mut best_cost) = self.greedy_sibling(b, area_leaf, start);
        let mut stack = core::mem::take(&mut self.search);
        stack.clear();
        // (inherited cost, node, SA(node ∪ b), SA(node)): the areas are
        // computed once, when the node is pushed by its parent.
        let start_box = &self.nodes[start as usize].aabb;
        stack.push((
            T::ZERO,
            start,
            surface_area(&union(start_box, b)),
            surface_area(start_box),
        ));
        let mut budget = SEARCH_BUDGET;
        while let Some((inherited, n, direct, area)) = stack.pop() {
            if area_leaf + inherited >= best_cost {
                continue;
            }
            if budget == 0 {
                break;
            }
            budget -= 1;
            let cost = direct + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = n;
            }
            let node = &self.nodes[n as usize];
            if node.is_leaf() {
                continue;
            }
            let child_inherited = inherited + direct - area;
            if area_leaf + child_inherited >= best_cost {
                continue;
            }
            let [c0, c1] = node.child;
            let (b0, b1) = (&self.nodes[c0 as usize].aabb, &self.nodes[c1 as usize].aabb);
            let (u0, a0) = (surface_area(&union(b0, b)), surface_area(b0));
            let (u1, a1) = (surface_area(&union(b1, b)), surface_area(b1));
            let e0 = (child_inherited, c0, u0, a0);
            let e1 = (child_inherited, c1, u1, a1);
            // Visit the child that grows least first (pushed last).
            if u0 - a0 <= u1 - a1 {
                stack.push(e1);
                stack.push(e0);
            } else {
                stack.push(e0);
                stack.push(e1);
            }
        }
        self.search = stack;
        best
    }

    /// Greedy descent: from the root, go down into the child whose cost
    /// bound is lowest while that beats making the current node the sibling.
    /// Returns the node and its cost.
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
