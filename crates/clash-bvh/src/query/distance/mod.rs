//! Mesh/mesh distance by simultaneous descent with volume distance bounds
//! (RTCD §6.3, as in PQP with RSS or OBB bounds), ending in clash-narrow's
//! triangle/triangle closest points.
//!
//! The descent runs in two phases. It starts best-first (node pairs in a
//! priority queue ordered by their lower bound, the ordered traversal of
//! RTCD §6.3.3) until a few leaf pairs have been measured or the queue,
//! which lives on the stack, holds 512 pairs: the pairs it has opened by
//! then are the nearest ones, so the best distance is soon close to the
//! final one. Every pair still queued is then finished depth-first, nearer
//! child first, from a fixed-size stack, which has no queue upkeep and
//! touches nodes in tree order; a larger queue would spend more on its
//! upkeep than it saves in pairs opened. A node pair's
//! bound is the gap between the volumes' projections on the line through
//! their centres and, when that does not prune the pair, on each volume's
//! thin axis (an RSS's normal), which separates flat volumes stacked a hair
//! apart, the pairs that dominate near contact. A leaf pair is first
//! checked with [`triangle_triangle_lower_bound_until`] (three separating
//! axes, stopping at the first that prunes), which skips most of the
//! closest-point computations. Meshes far apart relative to their size,
//! where no bound can prune within its rounding allowance, are answered by
//! a support-function computation instead (`far.rs`).

mod far;

use crate::traverse::heap::FixedHeap;
use crate::{BvPair, Bvh, MAX_DEPTH, PoseInput};
use clash_bv::{BoundingVolume, RelativePose};
use clash_math::stack::Stack;
use clash_math::{Point3, Scalar};
use clash_narrow::closest::{triangle_triangle, triangle_triangle_lower_bound_until};
use core::cmp::Ordering;
use core::ops::ControlFlow;
use rayon::prelude::*;

/// The closest pair of points of two meshes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshDistance<T: Scalar> {
    /// Distance (0 when the meshes touch).
    pub distance: T,
    /// Closest point on the first mesh, in the first mesh's frame.
    pub point_a: Point3<T>,
    /// Closest point on the second mesh, in the first mesh's frame.
    pub point_b: Point3<T>,
    /// The triangles the points lie on: `[index in A, index in B]`.
    pub triangles: [u32; 2],
}

/// Options of [`Bvh::distance_with`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistanceRequest<T: Scalar> {
    /// Only pairs closer than this are of interest: the search starts with
    /// it as the best distance (and answers `None` when nothing is closer).
    pub upper_bound: T,
    /// Stop as soon as a pair closer than this is found ("closer than
    /// tolerance" test); `0` searches for the exact minimum.
    pub stop_below: T,
}

impl<T: Scalar> Default for DistanceRequest<T> {
    /// The exact minimum, no bound.
    fn default() -> Self {
        Self {
            upper_bound: T::INFINITY,
            stop_below: T::ZERO,
        }
    }
}

/// Depth-first stack size: a descent from one pair adds at most one entry
/// per level of either tree.
const STACK: usize = 2 * MAX_DEPTH as usize + 4;

/// Leaf pairs measured best-first before the descent turns depth-first.
const BEST_FIRST_LEAF_PAIRS: u32 = 4;

/// Capacity of the best-first queue, which lives on the query's stack (no
/// allocation per query). A full queue turns the descent depth-first
/// whatever the leaf count: this bounds the queue on meshes whose pairs all
/// have bound 0, such as intersecting ones.
const BEST_FIRST_QUEUE: usize = 512;

/// The best-first queue.
type Queue<T> = FixedHeap<Pending<T>, BEST_FIRST_QUEUE>;

/// A queued node pair: `lb` is a lower bound on the squared distance.
#[derive(Clone, Copy)]
struct Pending<T> {
    lb: T,
    a: u32,
    b: u32,
}

impl<T: Scalar> PartialEq for Pending<T> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<T: Scalar> Eq for Pending<T> {}

impl<T: Scalar> PartialOrd for Pending<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Max-heap order for a min-queue: the smaller bound is greater; among equal
/// bounds the larger index sum (deeper in both preorder arrays) is greater,
/// so ties (all-zero bounds of overlapping meshes) are taken depth-first;
/// then by indices, so the order is total and the search deterministic.
impl<T: Scalar> Ord for Pending<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .lb
            .partial_cmp(&self.lb)
            .unwrap_or(Ordering::Equal)
            .then_with(|| {
                (u64::from(self.a) + u64::from(self.b))
                    .cmp(&(u64::from(other.a) + u64::from(other.b)))
            })
            .then_with(|| (self.a, self.b).cmp(&(other.a, other.b)))
    }
}

/// The state of one distance search.
struct Search<'t, T: Scalar, B: BoundingVolume<T>, B2: BoundingVolume<T>> {
    a: &'t Bvh<T, B>,
    b: &'t Bvh<T, B2>,
    pose: &'t RelativePose<T>,
    /// The pose's rotation transposed: directions in `a`'s frame to `b`'s.
    to_b: clash_math::Matrix3<T>,
    best_d2: T,
    stop_d2: T,
    best: Option<MeshDistance<T>>,
    leaf_pairs: u32,
}

impl<T: Scalar, B: BoundingVolume<T> + BvPair<T, B2>, B2: BoundingVolume<T>> Search<'_, T, B, B2> {
    /// `true` when a pair whose squared distance is at least `lb` cannot
    /// become the answer: at or beyond the best found, or beyond the upper
    /// bound when nothing has been found yet (a pair exactly at the upper
    /// bound is still an answer).
    #[inline(always)]
    fn pruned(&self, lb: T) -> bool {
        lb > self.best_d2 || (lb >= self.best_d2 && self.best.is_some())
    }

    /// Node `b`'s centre placed in `a`'s frame, with its largest coordinate
    /// magnitude (for the rounding allowance of [`Self::bound_placed`]).
    #[inline(always)]
    fn placed_center(&self, b: u32) -> (clash_math::Vector3<T>, T) {
        let cb = self.pose.rotation * self.b.nodes[b as usize].bv.center().coords
            + self.pose.translation;
        (cb, cb.amax())
    }

    /// The cheap bound on the squared distance of nodes `a` and `b`: the gap
    /// between the two volumes' projections on the line through their
    /// centres (a support-function bound; RTCD §5.5.8's separating axis,
    /// measured), less a rounding allowance.
    #[inline(always)]
    fn bound(&self, a: u32, b: u32) -> T {
        self.bound_placed(a, b, self.placed_center(b))
    }

    /// [`Self::bound`] with `b`'s centre already placed by
    /// [`Self::placed_center`] (shared by the two children of a split of `a`).
    #[inline(always)]
    fn bound_placed(&self, a: u32, b: u32, (cb, cb_max): (clash_math::Vector3<T>, T)) -> T {
        let (na, nb) = (&self.a.nodes[a as usize].bv, &self.b.nodes[b as usize].bv);
        let ca = na.center().coords;
        let d = cb - ca;
        let len = d.norm();
        if len <= T::ZERO {
            return T::ZERO;
        }
        let u = d * (T::ONE / len);
        let (ra, rb) = (
            na.projection_radius(&u),
            nb.projection_radius(&(self.to_b * u)),
        );
        let slack = (ca.amax() + cb_max + len + ra + rb) * (T::EPSILON * T::lit(64.0));
        let mut gap = len - ra - rb - slack;
        if !(gap > T::ZERO && gap * gap > self.best_d2) {
            // Not pruned along the centre line: try the volumes' thin axes.
            gap = gap.max_of(self.thin_axes_gap(na, nb, &d, ca.amax() + cb_max + len, gap));
        }
        if gap > T::ZERO { gap * gap } else { T::ZERO }
    }

    /// The largest gap between the projections of `na` and `nb` (centres
    /// `d` apart, in `a`'s frame) on their thin axes
    /// ([`BoundingVolume::thin_axis`]), less the allowance of
    /// [`Self::bound_placed`] with that axis's radii (`magnitude` is the
    /// rest of its sum); `-∞` when neither has one. The axes are unit to
    /// within `8ε` (as [`clash_bv::axes_are_orthonormal`] requires), which
    /// the allowance covers, since `|d · n| <= |d|`.
    ///
    /// An axis is measured only when `|d · n|` less its own volume's
    /// half-width across it, an upper bound on its gap, beats `floor` (the
    /// centre-line gap): far apart, the centre line is nearly the best axis
    /// and the thin axes rarely pay for their rotation.
    #[inline(always)]
    fn thin_axes_gap(
        &self,
        na: &B,
        nb: &B2,
        d: &clash_math::Vector3<T>,
        magnitude: T,
        floor: T,
    ) -> T {
        let allowance = T::EPSILON * T::lit(64.0);
        let gap_along = |n: &clash_math::Vector3<T>, ra: T, rb: T| {
            d.dot(n).abs() - ra - rb - (magnitude + ra + rb) * allowance
        };
        let mut gap = T::NEG_INFINITY;
        if let Some((n, w)) = na.thin_axis()
            && d.dot(&n).abs() - w > floor
        {
            let g = gap_along(
                &n,
                na.projection_radius(&n),
                nb.projection_radius(&(self.to_b * n)),
            );
            gap = gap.max_of(g);
        }
        if let Some((n_b, w)) = nb.thin_axis()
            && (self.to_b * d).dot(&n_b).abs() - w > floor
        {
            let n = self.pose.rotation * n_b;
            let g = gap_along(&n, na.projection_radius(&n), nb.projection_radius(&n_b));
            gap = gap.max_of(g);
        }
        gap
    }

    /// The volume type's own bound (for boxes the separating-axis distance),
    /// for types that mark it worth its cost
    /// ([`BoundingVolume::REFINE_DISTANCE_BOUND`]; RSS does not: its exact
    /// rectangle distance prunes few more pairs than the cheap bound; mixed
    /// pairs have none, [`BvPair::REFINE_DISTANCE_PAIR`]).
    #[inline]
    fn refined(&self, a: u32, b: u32) -> T {
        let (na, nb) = (&self.a.nodes[a as usize].bv, &self.b.nodes[b as usize].bv);
        match na.distance_lower_bound_pair(nb, self.pose) {
            Some(d) => d * d,
            None => T::ZERO,
        }
    }

    /// Whether the popped pair `(a, b)` with bound `lb` is pruned, after the
    /// volume type's own bound where it refines the cheap one.
    #[inline]
    fn skip(&self, a: u32, b: u32, lb: T) -> bool {
        if self.pruned(lb) {
            return true;
        }
        <B as BvPair<T, B2>>::REFINE_DISTANCE_PAIR
            && !(self.a.nodes[a as usize].is_leaf() && self.b.nodes[b as usize].is_leaf())
            && self.pruned(self.refined(a, b))
    }

    /// Measures every triangle pair of two leaves; `Break` once a pair is
    /// closer than `stop_below` (or touching).
    fn leaves(
        &mut self,
        ra: core::ops::Range<usize>,
        rb: core::ops::Range<usize>,
    ) -> ControlFlow<()> {
        self.leaf_pairs += 1;
        for pa in ra {
            let (ta, ia) = self.a.leaf_triangle(pa);
            for pb in rb.clone() {
                let (tb, ib) = self.b.leaf_triangle(pb);
                let tb = self.pose.transform_triangle(tb);
                let lb = triangle_triangle_lower_bound_until(ta, &tb, |g| self.pruned(g * g));
                if self.pruned(lb * lb) {
                    continue;
                }
                let c = triangle_triangle(ta, &tb);
                if !self.pruned(c.distance_squared) {
                    self.best_d2 = c.distance_squared;
                    self.best = Some(MeshDistance {
                        distance: c.distance(),
                        point_a: c.a,
                        point_b: c.b,
                        triangles: [ia, ib],
                    });
                    if self.best_d2 < self.stop_d2 || self.best_d2 == T::ZERO {
                        return ControlFlow::Break(());
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// The two child pairs of internal pair `(a, b)` with their bounds,
    /// splitting the larger node ([`BoundingVolume::descent_size`], RTCD
    /// §6.3.2's "descend larger"), or a leaf's partner; the nearer first.
    #[inline]
    fn children(&self, a: u32, b: u32) -> [Pending<T>; 2] {
        let (na, nb) = (&self.a.nodes[a as usize], &self.b.nodes[b as usize]);
        let descend_a =
            nb.is_leaf() || (!na.is_leaf() && na.bv.descent_size() >= nb.bv.descent_size());
        let (c1, c2) = if descend_a {
            ((a + 1, b), (na.child_or_first, b))
        } else {
            ((a, b + 1), (a, nb.child_or_first))
        };
        let (lb1, lb2) = if descend_a {
            // Both pairs hold node `b`: place its centre once.
            let cb = self.placed_center(b);
            (
                self.bound_placed(c1.0, b, cb),
                self.bound_placed(c2.0, b, cb),
            )
        } else {
            (self.bound(a, c1.1), self.bound(a, c2.1))
        };
        let p1 = Pending {
            lb: lb1,
            a: c1.0,
            b: c1.1,
        };
        let p2 = Pending {
            lb: lb2,
            a: c2.0,
            b: c2.1,
        };
        if p1.lb <= p2.lb { [p1, p2] } else { [p2, p1] }
    }

    /// The whole search: best-first, then depth-first from each queued pair.
    fn run(&mut self) {
        let root = Pending {
            lb: self.bound(0, 0),
            a: 0,
            b: 0,
        };
        let mut queue = Queue::new(root);
        let _ = queue.push(root);
        while let Some(p) = queue.pop() {
            if self.pruned(p.lb) {
                // Every pair still queued is at least as far.
                return;
            }
            // A best-first step queues at most two pairs.
            let flow =
                if self.leaf_pairs < BEST_FIRST_LEAF_PAIRS && queue.len() + 2 <= BEST_FIRST_QUEUE {
                    self.expand_into(p, &mut queue)
                } else {
                    self.depth_first(p)
                };
            if flow.is_break() {
                return;
            }
        }
    }

    /// One best-first step: measures a leaf pair or queues the children.
    fn expand_into(&mut self, p: Pending<T>, queue: &mut Queue<T>) -> ControlFlow<()> {
        if self.skip(p.a, p.b, p.lb) {
            return ControlFlow::Continue(());
        }
        let (na, nb) = (&self.a.nodes[p.a as usize], &self.b.nodes[p.b as usize]);
        if let (Some(ra), Some(rb)) = (na.triangle_range(), nb.triangle_range()) {
            return self.leaves(ra, rb);
        }
        for c in self.children(p.a, p.b) {
            if !self.pruned(c.lb) {
                // `run` leaves room for both children.
                let queued = queue.push(c);
                debug_assert!(queued.is_ok());
            }
        }
        ControlFlow::Continue(())
    }

    /// Depth-first descent below `start`, nearer child first.
    fn depth_first(&mut self, start: Pending<T>) -> ControlFlow<()> {
        let mut stack = Stack::<_, STACK>::with(start);
        while let Some(p) = stack.pop() {
            if self.skip(p.a, p.b, p.lb) {
                continue;
            }
            let (na, nb) = (&self.a.nodes[p.a as usize], &self.b.nodes[p.b as usize]);
            if let (Some(ra), Some(rb)) = (na.triangle_range(), nb.triangle_range()) {
                self.leaves(ra, rb)?;
                continue;
            }
            let [near, far] = self.children(p.a, p.b);
            stack.push(far);
            stack.push(near);
        }
        ControlFlow::Continue(())
    }
}

/// `|v|` computed on `v` scaled by its largest component, so that no
/// square underflows.
fn unsquared_norm<T: Scalar>(v: &clash_math::Vector3<T>) -> T {
    let m = v.amax();
    if m > T::ZERO {
        (v / m).norm() * m
    } else {
        T::ZERO
    }
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The minimum distance between `self` and `other` placed by
    /// `other_to_self`, with the closest points and their triangles. Ties
    /// between equally close pairs go to the first found (deterministic).
    /// The two trees may have different volume types, as in
    /// [`Bvh::collide`]; the answer is the same for every pair of types.
    ///
    /// ```
    /// use clash_bvh::{Bvh, BuildOptions, TriMesh};
    /// use clash_bv::Rss;
    /// use clash_math::{Isometry3, Point3};
    /// let tri = TriMesh::new(
    ///     vec![Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0)],
    ///     vec![[0, 1, 2]],
    /// )?;
    /// let tree: Bvh<f64, Rss<f64>> = Bvh::build(tri, &BuildOptions::default())?;
    /// let d = tree.distance(&tree, &Isometry3::translation(0.0, 0.0, 2.0));
    /// assert!((d.distance - 2.0).abs() < 1e-12);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn distance<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
    ) -> MeshDistance<T>
    where
        B: BvPair<T, B2>,
    {
        let pose = other_to_self.into();
        match self.distance_with(other, pose, &DistanceRequest::default()) {
            Some(d) => d,
            // Unreachable for finite poses; answer with the first pair.
            None => {
                let c = triangle_triangle(
                    &self.leaf_tris[0],
                    &pose.transform_triangle(&other.leaf_tris[0]),
                );
                MeshDistance {
                    distance: c.distance(),
                    point_a: c.a,
                    point_b: c.b,
                    triangles: [self.order[0], other.order[0]],
                }
            }
        }
    }

    /// Distance with options (see [`DistanceRequest`]); `None` when no pair
    /// is closer than `upper_bound`.
    ///
    /// Meshes that intersect (by the exact triangle tests of
    /// [`Self::for_each_contact`]) are at distance 0, so that the answer
    /// agrees with [`Self::intersects`]: when the search ends within
    /// `√ε` of the scene's coordinate magnitude of 0 (or finds nothing with
    /// `upper_bound` that small), a collision descent confirms or rules out
    /// contact. Touching triangles measure within rounding of 0, far below
    /// that margin, and meshes apart never answer 0 (a distance whose square
    /// underflows is measured again without squaring). With `stop_below >
    /// 0` the search may stop at any pair closer than `stop_below`, touching
    /// meshes included.
    ///
    /// At every separation the points lie on their triangles (convex
    /// combinations of the corners, to rounding) and the distance is their
    /// separation. Meshes farther apart than about `2^29` times their size
    /// (`2^14` in `f32`), where no volume bound prunes within its rounding
    /// allowance, are answered from the two meshes' corners furthest
    /// towards each other (a support-function computation, exact to within
    /// an ulp at that separation), so the points are then corners.
    pub fn distance_with<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        other_to_self: impl Into<RelativePose<T>>,
        request: &DistanceRequest<T>,
    ) -> Option<MeshDistance<T>>
    where
        B: BvPair<T, B2>,
    {
        let pose: RelativePose<T> = other_to_self.into();
        if let Some(far) = self.far_distance(other, &pose) {
            return (far.distance <= request.upper_bound).then_some(far);
        }
        let best_d2 = if request.upper_bound.finite() {
            request.upper_bound * request.upper_bound
        } else {
            T::INFINITY
        };
        let mut search = Search {
            a: self,
            b: other,
            pose: &pose,
            to_b: pose.rotation.transpose(),
            best_d2,
            stop_d2: request.stop_below * request.stop_below,
            best: None,
            leaf_pairs: 0,
        };
        search.run();
        let mut found = search.best;
        let margin = self.touch_margin(other, &pose);
        let maybe_touching = match &found {
            Some(d) => d.distance <= margin,
            None => request.upper_bound <= margin,
        };
        if maybe_touching {
            let mut contact = None;
            let _ = self.for_each_contact(other, pose, |p| {
                contact = Some(p);
                ControlFlow::Break(())
            });
            if let Some([ia, ib]) = contact {
                let ta = self.mesh.triangle(ia as usize);
                let tb = pose.transform_triangle(&other.mesh.triangle(ib as usize));
                let c = triangle_triangle(&ta, &tb);
                return (request.upper_bound >= T::ZERO).then_some(MeshDistance {
                    distance: T::ZERO,
                    point_a: c.a,
                    point_b: c.b,
                    triangles: [ia, ib],
                });
            }
            // Apart: a squared distance that underflowed is measured again
            // without squaring, and stays above 0, which only touching
            // meshes answer.
            if let Some(d) = &mut found
                && d.distance * d.distance < T::MIN_POSITIVE
            {
                d.distance =
                    unsquared_norm(&(d.point_b - d.point_a)).max_of(T::MIN_POSITIVE * T::EPSILON);
            }
        }
        found
    }

    /// `√ε` times the largest coordinate magnitude of the two meshes placed
    /// by `pose` (from the root volumes' boxes): a computed distance at most
    /// this may come from touching triangles.
    fn touch_margin<B2: BoundingVolume<T>>(&self, other: &Bvh<T, B2>, pose: &RelativePose<T>) -> T {
        let magnitude = |bx: clash_bv::Aabb<T>| bx.min.coords.amax().max_of(bx.max.coords.amax());
        let scale = magnitude(self.nodes[0].bv.aabb())
            + magnitude(other.nodes[0].bv.aabb()) * T::TWO
            + pose.translation.amax();
        scale * T::EPSILON.sqrt()
    }

    /// [`Self::distance`] for many poses in parallel on the current rayon
    /// pool (see [`BatchOptions`](crate::BatchOptions)); `result[i]`
    /// answers `poses[i]`, given as [`Isometry3`](clash_math::Isometry3)s or
    /// [`RelativePose`]s.
    pub fn distance_poses<B2: BoundingVolume<T>, P: PoseInput<T>>(
        &self,
        other: &Bvh<T, B2>,
        poses: &[P],
    ) -> Vec<MeshDistance<T>>
    where
        B: BvPair<T, B2>,
    {
        poses
            .par_iter()
            .map(|p| self.distance(other, p.relative_pose()))
            .collect()
    }
}
