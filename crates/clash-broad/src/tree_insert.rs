//! Where a new leaf goes and how the tree stays tight: the best-sibling
//! search by surface-area cost (RTCD §6.2.3, the Goldsmith–Salmon cost of
//! §6.2.3.1 searched by branch and bound as Bittner et al. 2012 do), and local
//! tree rotations (Kensler 2008) applied while refitting towards the root.
use crate::DynamicTree;
use crate::aabb_ops::{surface_area, union};
use clash_bv::Aabb;
use clash_math::Scalar;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// The node under whose new parent a leaf with box `b` costs least.
    ///
    /// Making node `s` the sibling costs `SA(s ∪ b)` for the new parent plus,
    /// for every ancestor `a` of `s`, the growth `SA(a ∪ b) - SA(a)` (RTCD
    /// §6.2.3.1's inheritance cost). Below a node, no sibling costs less than
    /// `SA(b)` plus the inherited growth, which prunes the depth-first search;
    /// the result is the exact minimum over the whole tree.
    pub(crate) fn best_sibling(&mut self, b: &Aabb<T>) -> u32 {
        let area_leaf = surface_area(b);
        let mut best = self.root;
        let mut best_cost = T::INFINITY;
        let mut stack = core::mem::take(&mut self.search);
        stack.clear();
        stack.push((T::ZERO, self.root));
        while let Some((inherited, n)) = stack.pop() {
            if area_leaf + inherited >= best_cost {
                continue;
            }
            let node = &self.nodes[n as usize];
            let direct = surface_area(&union(&node.aabb, b));
            let cost = direct + inherited;
            if cost < best_cost {
                best_cost = cost;
                best = n;
            }
            if node.is_leaf() {
                continue;
            }
            let child_inherited = inherited + direct - surface_area(&node.aabb);
            if area_leaf + child_inherited >= best_cost {
                continue;
            }
            let [c0, c1] = node.child;
            let d0 = surface_area(&union(&self.nodes[c0 as usize].aabb, b));
            let d1 = surface_area(&union(&self.nodes[c1 as usize].aabb, b));
            // Visit the cheaper child first (pushed last).
            if d0 <= d1 {
                stack.push((child_inherited, c1));
                stack.push((child_inherited, c0));
            } else {
                stack.push((child_inherited, c0));
                stack.push((child_inherited, c1));
            }
        }
        self.search = stack;
        best
    }

    /// Tree rotation at internal node `a` with children `b` and `c`: swapping
    /// `b` with a grandchild under `c` (or `c` with one under `b`) keeps the
    /// box of `a` but changes the box of the child that receives the swapped
    /// node. The swap that shrinks that box's surface area most is applied
    /// (Kensler, *Tree Rotations for Improving Bounding Volume Hierarchies*, 2008).
    pub(crate) fn rotate(&mut self, a: u32) {
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
        let Some((_, down, lifted, other, k)) = best else { return };
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
    }
}
