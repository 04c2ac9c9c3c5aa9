//! Mesh/mesh collision by simultaneous descent of two trees (RTCD §6.3.3,
//! Eberly §7), ending in the exact triangle/triangle test of clash-narrow.

use crate::{BvPair, Bvh, MAX_DEPTH};
use clash_bv::{BoundingVolume, RelativePose};
use clash_math::Scalar;
use clash_math::stack::Stack;
use core::ops::ControlFlow;

/// A pair of intersecting triangles: `[index in mesh A, index in mesh B]`.
pub type TrianglePair = [u32; 2];

/// What [`Bvh::collide`] should find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CollisionRequest {
    /// Stop after this many triangle pairs (`1`: any contact, early exit;
    /// `usize::MAX`: all pairs).
    pub max_pairs: usize,
    /// For closed meshes: when no triangles intersect, also report one mesh
    /// lying wholly inside the other as a collision (see [`Containment`]).
    pub containment: bool,
}

impl CollisionRequest {
    /// Any contact: stop at the first intersecting triangle pair.
    pub fn any() -> Self {
        Self {
            max_pairs: 1,
            containment: false,
        }
    }
    /// All intersecting triangle pairs.
    pub fn all() -> Self {
        Self {
            max_pairs: usize::MAX,
            containment: false,
        }
    }
    /// The first `n` pairs found.
    pub fn first(n: usize) -> Self {
        Self {
            max_pairs: n.max(1),
            containment: false,
        }
    }
    /// The same request, with containment counted as collision.
    pub fn with_containment(mut self) -> Self {
        self.containment = true;
        self
    }
}

impl Default for CollisionRequest {
    fn default() -> Self {
        Self::all()
    }
}

/// One closed mesh wholly inside the other, with no surface contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Containment {
    /// Mesh A lies inside closed mesh B.
    AInsideB,
    /// Mesh B lies inside closed mesh A.
    BInsideA,
}

/// The answer of [`Bvh::collide`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CollisionResult {
    /// Intersecting triangle pairs, in the (deterministic) order the descent
    /// found them; at most `max_pairs`.
    pub pairs: Vec<TrianglePair>,
    /// Set when containment was requested, no triangles intersect, and one
    /// closed mesh lies inside the other.
    pub containment: Option<Containment>,
}

impl CollisionResult {
    /// `true` when the meshes collide (touching triangles, or containment).
    pub fn collides(&self) -> bool {
        !self.pairs.is_empty() || self.containment.is_some()
    }
}

/// Upper bound on the descent stack: each step pops one pair and pushes at
/// most two pairs whose depth sum is one more, or four whose depth sum is
/// two more; so at most 1.5 pairs wait per unit of depth sum, which is at
/// most `2 MAX_DEPTH`.
const STACK: usize = 3 * MAX_DEPTH as usize + 4;

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// `true` when some triangle of `self` intersects some triangle of
    /// `other` placed by `other_to_self` (closed triangles: touching counts).
    /// Stops at the first contact.
    pub fn intersects<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
    ) -> bool
    where
        B: BvPair<T, B2>,
    {
        self.for_each_contact(other, other_to_self, |_| ControlFlow::Break(()))
            .is_break()
    }

    /// Every intersecting triangle pair `[a, b]` (`a` in `self`, `b` in `other`).
    pub fn contacts<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
    ) -> Vec<TrianglePair>
    where
        B: BvPair<T, B2>,
    {
        self.collide(other, other_to_self, &CollisionRequest::all())
            .pairs
    }

    /// Collision as `request` asks: the first `max_pairs` intersecting
    /// triangle pairs and, optionally, containment of one closed mesh in the
    /// other.
    pub fn collide<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
        request: &CollisionRequest,
    ) -> CollisionResult
    where
        B: BvPair<T, B2>,
    {
        let pose = other_to_self.into();
        let mut pairs = Vec::new();
        let _ = self.for_each_contact(other, pose, |p| {
            pairs.push(p);
            if pairs.len() >= request.max_pairs {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        let containment = if request.containment && pairs.is_empty() {
            crate::query::containment::containment(self, other, &pose.iso)
        } else {
            None
        };
        CollisionResult { pairs, containment }
    }

    /// Calls `f` for each intersecting triangle pair, in descent order, until
    /// it returns `Break`; returns `Break` when `f` stopped the search.
    pub fn for_each_contact<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
        mut f: impl FnMut(TrianglePair) -> ControlFlow<()>,
    ) -> ControlFlow<()>
    where
        B: BvPair<T, B2>,
    {
        // Triangles of `other` are placed with `RelativePose::transform_triangle`
        // (the pose's matrix), so an answer equals brute force over triangles
        // placed that way.
        let pose = other_to_self.into();
        self.descend(other, &pose, u32::MAX, |a, b| {
            let na = &self.nodes[a as usize];
            let nb = &other.nodes[b as usize];
            match (na.triangle_range(), nb.triangle_range()) {
                (Some(ra), Some(rb)) => {
                    for pa in ra {
                        let (ta, ia) = self.leaf_triangle(pa);
                        for pb in rb.clone() {
                            let (tb, ib) = other.leaf_triangle(pb);
                            if clash_narrow::overlap::triangle_triangle(
                                ta,
                                &pose.transform_triangle(tb),
                            ) {
                                f([ia, ib])?;
                            }
                        }
                    }
                    ControlFlow::Continue(())
                }
                _ => ControlFlow::Continue(()),
            }
        })
    }

    /// Depth-limited descent (Eberly §7): calls `f(node_a, node_b)` for every
    /// pair of overlapping nodes where neither tree is descended further,
    /// because both nodes are leaves or have reached `max_depth`. With
    /// `max_depth = 0` this compares the roots only. An approximate,
    /// conservative collision test: pairs reported at a depth above the
    /// leaves may not touch.
    pub fn for_each_overlapping_node<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
        max_depth: u32,
        f: impl FnMut(u32, u32) -> ControlFlow<()>,
    ) -> ControlFlow<()>
    where
        B: BvPair<T, B2>,
    {
        self.descend(other, &other_to_self.into(), max_depth, f)
    }

    /// The simultaneous descent: calls `visit(a, b)` on each overlapping pair
    /// of nodes that is not descended further (leaf/leaf pairs, or pairs at
    /// the depth limit). When both nodes can be opened both are (RTCD
    /// §6.3.2's "descend both": four child pairs, tested two at a time with
    /// [`BvPair::overlaps_pair_x2`], which costs less than descending the
    /// larger node one level at a time), otherwise the one that can. Only overlapping pairs are pushed, left children
    /// first. Uses a fixed-size stack: no allocation.
    fn descend<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        pose: &RelativePose<T>,
        max_depth: u32,
        mut visit: impl FnMut(u32, u32) -> ControlFlow<()>,
    ) -> ControlFlow<()>
    where
        B: BvPair<T, B2>,
    {
        // Pairs known to overlap: (node a, node b, depth a, depth b). Opening
        // a node tests its two children against the other node together
        // (two lanes of SIMD for OBBs) and pushes those that overlap.
        if !self.nodes[0].bv.overlaps_pair(&other.nodes[0].bv, pose) {
            return ControlFlow::Continue(());
        }
        let mut stack = Stack::<_, STACK>::with((0u32, 0u32, 0u32, 0u32));
        while let Some((a, b, da, db)) = stack.pop() {
            let na = &self.nodes[a as usize];
            let nb = &other.nodes[b as usize];
            let open_a = !na.is_leaf() && da < max_depth;
            let open_b = !nb.is_leaf() && db < max_depth;
            // The left child is at `n + 1`, the right at `child_or_first`.
            // Pairs are pushed in reverse of the order they are visited in:
            // left children first.
            match (open_a, open_b) {
                (false, false) => visit(a, b)?,
                (true, true) => {
                    // Both open: the four pairs of children (B's two placed once).
                    let (al, ar) = (a + 1, na.child_or_first);
                    let (bl, br) = (b + 1, nb.child_or_first);
                    let (nal, nar) = (&self.nodes[al as usize].bv, &self.nodes[ar as usize].bv);
                    let (nbl, nbr) = (&other.nodes[bl as usize].bv, &other.nodes[br as usize].bv);
                    let [[ll, lr], [rl, rr]] = B::overlaps_pair_2x2([nal, nar], [nbl, nbr], pose);
                    for (hit, x, y) in [(rr, ar, br), (rl, ar, bl), (lr, al, br), (ll, al, bl)] {
                        if hit {
                            stack.push((x, y, da + 1, db + 1));
                        }
                    }
                }
                (true, false) => {
                    let (l, r) = (a + 1, na.child_or_first);
                    let (nl, nr) = (&self.nodes[l as usize].bv, &self.nodes[r as usize].bv);
                    let [hit_l, hit_r] = B::overlaps_pair_x2([nl, nr], [&nb.bv, &nb.bv], pose);
                    if hit_r {
                        stack.push((r, b, da + 1, db));
                    }
                    if hit_l {
                        stack.push((l, b, da + 1, db));
                    }
                }
                (false, true) => {
                    let (l, r) = (b + 1, nb.child_or_first);
                    let (nl, nr) = (&other.nodes[l as usize].bv, &other.nodes[r as usize].bv);
                    let [hit_l, hit_r] = B::overlaps_pair_x2([&na.bv, &na.bv], [nl, nr], pose);
                    if hit_r {
                        stack.push((a, r, da, db + 1));
                    }
                    if hit_l {
                        stack.push((a, l, da, db + 1));
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }
}
