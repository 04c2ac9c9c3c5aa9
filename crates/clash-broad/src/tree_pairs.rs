//! All overlapping pairs of a dynamic tree by traversing the tree against
//! itself (the bounding volume test tree of RTCD §6.3.2, specialised to one
//! tree: each node is tested against itself once and its two children
//! against each other).
use crate::aabb_ops::{overlaps, surface_area};
use crate::{DynamicTree, ProxyPair};
use clash_math::Scalar;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// All pairs of objects whose tight boxes overlap, sorted, into `out`
    /// (cleared first). The traversal runs on fat boxes; leaf pairs are then
    /// checked on their tight boxes, so the answer is exact.
    ///
    /// The descent rule (RTCD §6.3.1) opens the larger node of a pair.
    pub fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        self.for_each_fat_pair(|tree, pa, pb| {
            if overlaps(&tree.slots.aabb[pa as usize], &tree.slots.aabb[pb as usize]) {
                out.push(ProxyPair::new(tree.slots.handle(pa), tree.slots.handle(pb)));
            }
        });
        out.sort_unstable();
    }

    /// Calls `f(tree, slot_a, slot_b)` for every pair of distinct leaves whose fat boxes overlap.
    fn for_each_fat_pair(&mut self, mut f: impl FnMut(&Self, u32, u32)) {
        if self.root == crate::slots::NULL {
            return;
        }
        let mut stack = core::mem::take(&mut self.pair_stack);
        stack.clear();
        stack.push((self.root, self.root));
        while let Some((a, b)) = stack.pop() {
            let na = &self.nodes[a as usize];
            if a == b {
                if !na.is_leaf() {
                    let [l, r] = na.child;
                    stack.push((l, l));
                    stack.push((r, r));
                    stack.push((l, r));
                }
                continue;
            }
            let nb = &self.nodes[b as usize];
            if !overlaps(&na.aabb, &nb.aabb) {
                continue;
            }
            match (na.is_leaf(), nb.is_leaf()) {
                (true, true) => f(self, na.proxy, nb.proxy),
                (false, true) => {
                    stack.push((na.child[0], b));
                    stack.push((na.child[1], b));
                }
                (true, false) => {
                    stack.push((a, nb.child[0]));
                    stack.push((a, nb.child[1]));
                }
                (false, false) => {
                    if surface_area(&na.aabb) >= surface_area(&nb.aabb) {
                        stack.push((na.child[0], b));
                        stack.push((na.child[1], b));
                    } else {
                        stack.push((a, nb.child[0]));
                        stack.push((a, nb.child[1]));
                    }
                }
            }
        }
        self.pair_stack = stack;
    }
}
