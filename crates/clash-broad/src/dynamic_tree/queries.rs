//! Box, point and ray queries on a dynamic tree (RTCD §6.3 traversal; ray
//! against box by the slab test of §5.3.3). Traversal prunes on fat boxes;
//! leaves are tested on their tight boxes, so answers are exact.
use crate::aabb_ops::{RaySlab, check_aabb, check_ray, check_vector, contains_point, overlaps};
use crate::broad_phase::{closer, sort_hits};
use crate::slots::NULL;
use crate::{BroadPhaseError, DynamicTree, ProxyHandle, RayHit};
use clash_bv::Aabb;
use clash_math::stack::Stack;
use clash_math::{Point3, Ray, Scalar};

/// The descents' stack: 64 node indices on the call stack, any more (the
/// dynamic tree has no depth bound) on the heap.
type NodeStack = Stack<u32, 64>;

impl<T: Scalar, U> DynamicTree<T, U> {
    /// Calls `f` for every object whose tight box overlaps `aabb`, in tree
    /// order, without allocating.
    ///
    /// # Errors
    /// Non-finite or inverted query box.
    pub fn query_aabb_with(
        &self,
        aabb: &Aabb<T>,
        mut f: impl FnMut(ProxyHandle),
    ) -> Result<(), BroadPhaseError> {
        check_aabb(aabb)?;
        self.visit(
            |b| overlaps(b, aabb),
            |slot| {
                if overlaps(&self.slots.aabb[slot as usize], aabb) {
                    f(self.slots.handle(slot));
                }
            },
        );
        Ok(())
    }

    /// Objects whose tight boxes overlap `aabb`, sorted by handle, into `out` (cleared first).
    ///
    /// # Errors
    /// Non-finite or inverted query box.
    pub fn query_aabb(
        &self,
        aabb: &Aabb<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        out.clear();
        self.query_aabb_with(aabb, |h| out.push(h))?;
        out.sort_unstable();
        Ok(())
    }

    /// Objects whose tight boxes contain `point`, sorted by handle, into `out` (cleared first).
    ///
    /// # Errors
    /// Non-finite point.
    pub fn query_point(
        &self,
        point: &Point3<T>,
        out: &mut Vec<ProxyHandle>,
    ) -> Result<(), BroadPhaseError> {
        check_vector(&point.coords, "point")?;
        out.clear();
        self.visit(
            |b| contains_point(b, point),
            |slot| {
                if contains_point(&self.slots.aabb[slot as usize], point) {
                    out.push(self.slots.handle(slot));
                }
            },
        );
        out.sort_unstable();
        Ok(())
    }

    /// Every object whose tight box the ray hits within `[0, max_t]`, sorted
    /// by entry parameter then handle, into `out` (cleared first).
    ///
    /// # Errors
    /// Non-finite ray; negative or NaN `max_t`.
    pub fn cast_ray_all(
        &self,
        ray: &Ray<T>,
        max_t: T,
        out: &mut Vec<RayHit<T>>,
    ) -> Result<(), BroadPhaseError> {
        check_ray(ray, max_t)?;
        out.clear();
        let slab = RaySlab::new(ray, max_t);
        self.visit(
            |b| slab.entry(b).is_some(),
            |slot| {
                if let Some(t) = slab.entry(&self.slots.aabb[slot as usize]) {
                    out.push(RayHit {
                        handle: self.slots.handle(slot),
                        t,
                    });
                }
            },
        );
        sort_hits(out);
        Ok(())
    }

    /// The first tight box the ray hits within `[0, max_t]`, by a
    /// front-to-back traversal that skips subtrees entered beyond the best hit.
    ///
    /// # Errors
    /// Non-finite ray; negative or NaN `max_t`.
    pub fn cast_ray_closest(
        &self,
        ray: &Ray<T>,
        max_t: T,
    ) -> Result<Option<RayHit<T>>, BroadPhaseError> {
        self.cast_ray_closest_with(ray, max_t, |_, t| Some(t))
    }

    /// The closest hit with a caller's exact test: `hit(handle, t_box)` is
    /// called for each object whose tight box the ray enters at `t_box` (no
    /// later than the best hit so far) and returns the object's own hit
    /// parameter, if any (it must be `>= t_box` for the pruning to be exact).
    /// This is how a collision world refines box hits with shape ray casts.
    ///
    /// # Errors
    /// Non-finite ray; negative or NaN `max_t`.
    pub fn cast_ray_closest_with(
        &self,
        ray: &Ray<T>,
        max_t: T,
        mut hit: impl FnMut(ProxyHandle, T) -> Option<T>,
    ) -> Result<Option<RayHit<T>>, BroadPhaseError> {
        check_ray(ray, max_t)?;
        if self.root == NULL && self.stale.is_empty() {
            return Ok(None);
        }
        let slab = RaySlab::new(ray, max_t);
        let mut best: Option<RayHit<T>> = None;
        let mut try_leaf = |slot: u32, best: &mut Option<RayHit<T>>| {
            let Some(t_box) = slab.entry(&self.slots.aabb[slot as usize]) else {
                return;
            };
            if best.is_some_and(|b| t_box > b.t) {
                return;
            }
            let handle = self.slots.handle(slot);
            if let Some(t) = hit(handle, t_box).filter(|t| *t <= max_t) {
                let h = RayHit { handle, t };
                if best.is_none_or(|b| closer(&h, &b)) {
                    *best = Some(h);
                }
            }
        };
        // Objects whose leaves do not hold their current fat box yet are
        // tested first, and skipped in the tree.
        for &slot in &self.stale {
            try_leaf(slot, &mut best);
        }
        let mut stack = NodeStack::new();
        if self.root != NULL {
            stack.push(self.root);
        }
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            let Some(t_node) = slab.entry(&node.aabb) else {
                continue;
            };
            if best.is_some_and(|b| t_node > b.t) {
                continue;
            }
            if node.is_leaf() {
                if !self.is_stale(node.proxy) {
                    try_leaf(node.proxy, &mut best);
                }
                continue;
            }
            let [c0, c1] = node.child;
            let t0 = slab.entry(&self.nodes[c0 as usize].aabb);
            let t1 = slab.entry(&self.nodes[c1 as usize].aabb);
            // Push the farther child first so the nearer one is visited first.
            match (t0, t1) {
                (Some(a), Some(b)) if a <= b => {
                    stack.push(c1);
                    stack.push(c0);
                }
                (Some(_), Some(_)) => {
                    stack.push(c0);
                    stack.push(c1);
                }
                (Some(_), None) => stack.push(c0),
                (None, Some(_)) => stack.push(c1),
                (None, None) => {}
            }
        }
        Ok(best)
    }

    /// Depth-first visit of the leaves whose fat boxes (and all ancestors')
    /// pass `enter`; `leaf` gets the slot index. Objects whose leaves still
    /// hold an old fat box (moved since the last [`settle`](Self::settle))
    /// are skipped in the tree and visited afterwards by their current fat
    /// box.
    fn visit(&self, enter: impl Fn(&Aabb<T>) -> bool, mut leaf: impl FnMut(u32)) {
        let mut stack = NodeStack::with(self.root);
        if self.root == NULL {
            stack.pop();
        }
        while let Some(n) = stack.pop() {
            let node = &self.nodes[n as usize];
            if !enter(&node.aabb) {
                continue;
            }
            if node.is_leaf() {
                if !self.is_stale(node.proxy) {
                    leaf(node.proxy);
                }
            } else {
                stack.push(node.child[1]);
                stack.push(node.child[0]);
            }
        }
        for &slot in &self.stale {
            if enter(&self.fat[slot as usize]) {
                leaf(slot);
            }
        }
    }

    /// Does slot `slot`'s leaf still hold an old fat box?
    #[inline]
    fn is_stale(&self, slot: u32) -> bool {
        !self.stale.is_empty() && self.stale_flag.get(slot as usize).copied().unwrap_or(false)
    }
}
