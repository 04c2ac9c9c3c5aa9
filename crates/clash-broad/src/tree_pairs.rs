//! All overlapping pairs of a dynamic tree. The first enumeration traverses
//! the tree against itself (the bounding volume test tree of RTCD §6.3.2,
//! specialised to one tree: each node is tested against itself once and its
//! two children against each other). Later ones are incremental, as in
//! Box2D's broad phase: the pairs of fat boxes are kept, and only objects
//! whose fat box changed since are queried again. Since fat boxes change
//! rarely, a step costs O(fat pairs + changed objects × log n).
use crate::aabb_ops::{overlaps, surface_area};
use crate::slots::NULL;
use crate::{DynamicTree, ProxyPair};
use clash_math::Scalar;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// All pairs of objects whose tight boxes overlap, sorted, into `out`
    /// (cleared first). Candidate pairs come from the fat boxes; each is then
    /// checked on the tight boxes, so the answer is exact.
    pub fn overlapping_pairs(&mut self, out: &mut Vec<ProxyPair>) {
        out.clear();
        self.settle();
        self.update_fat_pairs();
        // Slot order is handle order (handles order by slot index first, and
        // a slot holds one live object), so sorting by the packed slot pair
        // sorts the handle pairs.
        let mut keys = core::mem::take(&mut self.pair_keys);
        keys.clear();
        let aabb = &self.slots.aabb;
        keys.extend(
            self.fat_pairs
                .iter()
                .filter(|&&(a, b)| overlaps(&aabb[a as usize], &aabb[b as usize]))
                .map(|&(a, b)| (u64::from(a) << 32) | u64::from(b)),
        );
        keys.sort_unstable();
        out.extend(keys.iter().map(|&k| ProxyPair {
            a: self.slots.handle((k >> 32) as u32),
            b: self.slots.handle(k as u32),
        }));
        self.pair_keys = keys;
    }

    /// Brings `fat_pairs` up to date with the current fat boxes.
    fn update_fat_pairs(&mut self) {
        let mut pairs = core::mem::take(&mut self.fat_pairs);
        // When many fat boxes changed, one traversal of the tree against
        // itself is cheaper than one query per changed object.
        if !self.fat_pairs_valid || self.moved.len() > self.slots.len() / 8 {
            pairs.clear();
            self.for_each_fat_pair(|a, b| pairs.push((a.min(b), a.max(b))));
        } else {
            // Pairs between unchanged live objects still overlap: their fat boxes did not change.
            let (slots, flags) = (&self.slots, &self.moved_flag);
            let moved = |s: u32| flags.get(s as usize).copied().unwrap_or(false);
            pairs.retain(|&(a, b)| {
                slots.is_live(a as usize) && slots.is_live(b as usize) && !moved(a) && !moved(b)
            });
            for k in 0..self.moved.len() {
                let m = self.moved[k];
                if !self.slots.is_live(m as usize) {
                    continue;
                }
                let fat = self.fat[m as usize];
                self.visit_fat(&fat, |o| {
                    // A pair of two changed objects is found from the smaller slot's side only.
                    if o != m && !(o < m && moved(o)) {
                        pairs.push((m.min(o), m.max(o)));
                    }
                });
            }
        }
        for &m in &self.moved {
            if let Some(f) = self.moved_flag.get_mut(m as usize) {
                *f = false;
            }
        }
        self.moved.clear();
        self.fat_pairs = pairs;
        self.fat_pairs_valid = true;
    }

    /// Calls `f(slot)` for every leaf whose fat box overlaps `fat`.
    fn visit_fat(&self, fat: &clash_bv::Aabb<T>, mut f: impl FnMut(u32)) {
        if self.root == NULL {
            return;
        }
        let mut stack = crate::node_stack::NodeStack::new();
        stack.push(self.root);
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if !overlaps(&node.aabb, fat) {
                continue;
            }
            if node.is_leaf() {
                f(node.proxy);
            } else {
                stack.push(node.child[1]);
                stack.push(node.child[0]);
            }
        }
    }

    /// Calls `f(slot_a, slot_b)` for every pair of distinct leaves whose fat
    /// boxes overlap, by traversing the tree against itself; the descent rule
    /// (RTCD §6.3.1) opens the larger node of a pair.
    fn for_each_fat_pair(&mut self, mut f: impl FnMut(u32, u32)) {
        if self.root == NULL {
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
                (true, true) => f(na.proxy, nb.proxy),
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
