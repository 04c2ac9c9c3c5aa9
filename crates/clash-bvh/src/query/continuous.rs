//! Continuous collision of two meshes moving with constant linear and
//! angular velocity (Eberly, *Dynamic Collision Detection using OBBs*, §5:
//! the motion is sampled, and each step is a constant-velocity problem
//! solved by the separating-axis tests of clash-narrow).

use crate::{Bvh, MAX_DEPTH};
use clash_bv::{BoundingVolume, Obb};
use clash_math::stack::Stack;
use clash_math::{Isometry3, Point3, Scalar, Translation3, Triangle, UnitQuaternion, Vector3};
use clash_narrow::{closest, moving, overlap};

/// A rigid motion with constant linear velocity `linear` and constant
/// angular velocity `angular` (axis times radians per unit time, about the
/// body's origin), starting at `start`:
/// `pose(t) = (start.translation + linear t) ∘ exp(angular t) ∘ start.rotation`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Motion<T: Scalar> {
    /// Pose at time 0.
    pub start: Isometry3<T>,
    /// Linear velocity of the body's origin.
    pub linear: Vector3<T>,
    /// Angular velocity.
    pub angular: Vector3<T>,
}

impl<T: Scalar> Motion<T> {
    /// A body at rest at `pose`.
    pub fn fixed(pose: Isometry3<T>) -> Self {
        Self {
            start: pose,
            linear: Vector3::zeros(),
            angular: Vector3::zeros(),
        }
    }

    /// The pose at time `t`.
    pub fn pose_at(&self, t: T) -> Isometry3<T> {
        let rot = UnitQuaternion::new(self.angular * t) * self.start.rotation;
        Isometry3::from_parts(
            Translation3::from(self.start.translation.vector + self.linear * t),
            rot,
        )
    }
}

/// The first contact found by [`Bvh::time_of_contact`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeOfContact<T: Scalar> {
    /// First time of contact of the sampled motion, in `[0, duration]`.
    pub time: T,
    /// A point of contact at that time, in world coordinates: the point of
    /// the first mesh's triangle closest to the second's.
    pub point: Point3<T>,
    /// The triangles that meet: `[index in A, index in B]`.
    pub triangles: [u32; 2],
}

const STACK: usize = 2 * MAX_DEPTH as usize + 4;

/// One sampling step: poses at both ends for each body.
struct Step<T: Scalar> {
    t0: T,
    dt: T,
    a0: Isometry3<T>,
    a1: Isometry3<T>,
    b0: Isometry3<T>,
    b1: Isometry3<T>,
}

/// Where triangle `t` (body coordinates) starts a step, and its velocity:
/// the triangle translates with the velocity of its centroid between the
/// two sampled poses.
fn sampled<T: Scalar>(
    t: &Triangle<T>,
    p0: &Isometry3<T>,
    p1: &Isometry3<T>,
    dt: T,
) -> (Triangle<T>, Vector3<T>) {
    let c = t.centroid();
    (t.transformed(p0), (p1 * c - p0 * c) / dt)
}

/// A box containing every position, during the step, of every triangle
/// inside the body-frame box `b` moving as in [`sampled`].
fn swept<T: Scalar>(b: &Obb<T>, p0: &Isometry3<T>, p1: &Isometry3<T>) -> Obb<T> {
    let start = b.transformed(p0);
    let d = p1 * b.center - p0 * b.center;
    // Centroids elsewhere in the box move by d plus at most |ΔR| |c - centre|.
    let dr = (p1.rotation.to_rotation_matrix().into_inner()
        - p0.rotation.to_rotation_matrix().into_inner())
    .norm();
    let spread = dr * b.half_extents.norm();
    let grow = start.axes.tr_mul(&d).abs() * T::HALF;
    let pad =
        (start.center.coords.amax() + d.amax() + b.half_extents.amax()) * T::EPSILON * T::lit(16.0);
    Obb {
        center: start.center + d * T::HALF,
        axes: start.axes,
        half_extents: start.half_extents + grow.add_scalar(spread + pad),
    }
}

/// The point of triangle `a` (at `a0` moving with `va`) closest to triangle
/// `b` (at `b0` moving with `vb`) at time `t` of the step: a convex
/// combination of `a`'s corners there, so on the first mesh whatever the
/// magnitude of the motion (a midpoint of the two triangles' points would be
/// off both by the rounding of the motion's coordinates).
fn point_on_first<T: Scalar>(
    a0: &Triangle<T>,
    va: &Vector3<T>,
    b0: &Triangle<T>,
    vb: &Vector3<T>,
    t: T,
) -> Point3<T> {
    let moved = |x: &Triangle<T>, v: &Vector3<T>| {
        let d = v * t;
        Triangle::new(x.a + d, x.b + d, x.c + d)
    };
    closest::triangle_triangle(&moved(a0, va), &moved(b0, vb)).a
}

/// Queues the two child pairs of node pair `(a, b)`, at least one of them
/// internal, splitting the larger (RTCD §6.3.2's "descend larger"), or a
/// leaf's partner.
fn push_children<T: Scalar, B: BoundingVolume<T>, B2: BoundingVolume<T>>(
    stack: &mut Stack<(u32, u32), STACK>,
    a: u32,
    b: u32,
    na: &crate::Node<B>,
    nb: &crate::Node<B2>,
) {
    let descend_a = nb.is_leaf() || (!na.is_leaf() && na.bv.descent_size() >= nb.bv.descent_size());
    if descend_a {
        stack.push((na.child_or_first, b));
        stack.push((a + 1, b));
    } else {
        stack.push((a, nb.child_or_first));
        stack.push((a, b + 1));
    }
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The first time in `[0, duration]` at which `self` moving by `motion`
    /// and `other` moving by `other_motion` touch, with a contact point and
    /// the triangles that meet, or `None`.
    ///
    /// **The sampled motion.** `[0, duration]` is cut into `steps` equal
    /// steps (Eberly §5). Within step `k` every triangle starts where the
    /// body's pose at `t_k` puts it and translates with the velocity its
    /// centroid has between the poses at `t_k` and `t_{k+1}`. For a pure
    /// translation this is the exact motion; with rotation the error per
    /// step is at most `|Δ angle| × triangle size`, so more steps follow the
    /// true motion more closely.
    ///
    /// **The guarantee.** Each step is solved by the constant-velocity
    /// separating-axis test of [`clash_narrow::moving::triangle_triangle`]
    /// for every pair of triangles whose swept volumes overlap; swept volumes
    /// are conservative, so the answer is never "no contact" when the sampled
    /// motion makes two triangles meet, and the time reported is the first
    /// such time (up to rounding), the earliest step first. Each step starts
    /// from the bodies' poses at its start time, so rounding does not
    /// accumulate over the steps; and when neither body rotates, touching at
    /// the poses of `duration` itself is checked by the exact static test,
    /// so a motion that ends in contact is never reported free however far
    /// it travels. The contact point lies on the first mesh's triangle.
    pub fn time_of_contact<B2: BoundingVolume<T>>(
        &self,
        motion: &Motion<T>,
        other: &Bvh<T, B2>,
        other_motion: &Motion<T>,
        duration: T,
        steps: u32,
    ) -> Option<TimeOfContact<T>> {
        if !(duration.finite() && duration > T::ZERO) {
            return None;
        }
        let steps = steps.max(1);
        let dt = duration / T::lit(steps as f64);
        for k in 0..steps {
            let t0 = dt * T::lit(k as f64);
            let t1 = if k + 1 == steps {
                duration
            } else {
                dt * T::lit((k + 1) as f64)
            };
            let step = Step {
                t0,
                dt: t1 - t0,
                a0: motion.pose_at(t0),
                a1: motion.pose_at(t1),
                b0: other_motion.pose_at(t0),
                b1: other_motion.pose_at(t1),
            };
            if let Some(hit) = self.first_contact_in_step(other, &step) {
                return Some(hit);
            }
        }
        // Without rotation the sampled motion is the motion itself, whose
        // end poses are computed directly: touching there is a contact.
        let translating =
            motion.angular == Vector3::zeros() && other_motion.angular == Vector3::zeros();
        if translating {
            return self.contact_at_end(motion, other, other_motion, duration);
        }
        None
    }

    /// Contact at `duration` itself, by the exact static test at the two
    /// bodies' poses then, for translating bodies: each step starts at the
    /// poses of its start time, but its end is reached by the step's
    /// velocities, whose rounding grows with the motion's magnitude and can
    /// part triangles that touch at the end poses. The answer is the
    /// smallest pair `[index in A, index in B]` that meets, its point on
    /// A's triangle.
    #[cold]
    fn contact_at_end<B2: BoundingVolume<T>>(
        &self,
        motion: &Motion<T>,
        other: &Bvh<T, B2>,
        other_motion: &Motion<T>,
        duration: T,
    ) -> Option<TimeOfContact<T>> {
        let (a1, b1) = (motion.pose_at(duration), other_motion.pose_at(duration));
        let mut first: Option<[u32; 2]> = None;
        let mut stack = Stack::<_, STACK>::with((0u32, 0u32));
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            // A step without motion: the placed boxes, padded for rounding.
            let (sa, sb) = (
                swept(&na.bv.bounding_obb(), &a1, &a1),
                swept(&nb.bv.bounding_obb(), &b1, &b1),
            );
            if !sa.overlaps(&sb) {
                continue;
            }
            let (Some(ra), Some(rb)) = (na.triangle_range(), nb.triangle_range()) else {
                push_children(&mut stack, a, b, na, nb);
                continue;
            };
            for pa in ra {
                let (ta, ia) = self.leaf_triangle(pa);
                let ta = ta.transformed(&a1);
                for pb in rb.clone() {
                    let (tb, ib) = other.leaf_triangle(pb);
                    if first.is_none_or(|f| [ia, ib] < f)
                        && overlap::triangle_triangle(&ta, &tb.transformed(&b1))
                    {
                        first = Some([ia, ib]);
                    }
                }
            }
        }
        let [ia, ib] = first?;
        let ta = self.mesh.triangle(ia as usize).transformed(&a1);
        let tb = other.mesh.triangle(ib as usize).transformed(&b1);
        Some(TimeOfContact {
            time: duration,
            point: closest::triangle_triangle(&ta, &tb).a,
            triangles: [ia, ib],
        })
    }

    /// [`Self::time_of_contact`] for many motion pairs in parallel;
    /// `result[i]` answers `motions[i]` (the motion of `self`, then of `other`).
    pub fn time_of_contact_batch<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        motions: &[(Motion<T>, Motion<T>)],
        duration: T,
        steps: u32,
    ) -> Vec<Option<TimeOfContact<T>>> {
        use rayon::prelude::*;
        motions
            .par_iter()
            .map(|(a, b)| self.time_of_contact(a, other, b, duration, steps))
            .collect()
    }

    fn first_contact_in_step<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        s: &Step<T>,
    ) -> Option<TimeOfContact<T>> {
        let mut best: Option<TimeOfContact<T>> = None;
        let mut stack = Stack::<_, STACK>::with((0u32, 0u32));
        while let Some((a, b)) = stack.pop() {
            let (na, nb) = (&self.nodes[a as usize], &other.nodes[b as usize]);
            let (sa, sb) = (
                swept(&na.bv.bounding_obb(), &s.a0, &s.a1),
                swept(&nb.bv.bounding_obb(), &s.b0, &s.b1),
            );
            if !sa.overlaps(&sb) {
                continue;
            }
            match (na.triangle_range(), nb.triangle_range()) {
                (Some(ra), Some(rb)) => {
                    for pa in ra {
                        let (ta, ia) = self.leaf_triangle(pa);
                        let (ta0, va) = sampled(ta, &s.a0, &s.a1, s.dt);
                        for pb in rb.clone() {
                            let (tb, ib) = other.leaf_triangle(pb);
                            let (tb0, vb) = sampled(tb, &s.b0, &s.b1, s.dt);
                            let horizon = best.map_or(s.dt, |h| h.time - s.t0);
                            if let Some(c) =
                                moving::triangle_triangle(&ta0, &va, &tb0, &vb, horizon)
                            {
                                let time = s.t0 + c.time;
                                if best.is_none_or(|h| {
                                    time < h.time || (time == h.time && [ia, ib] < h.triangles)
                                }) {
                                    best = Some(TimeOfContact {
                                        time,
                                        point: point_on_first(&ta0, &va, &tb0, &vb, c.time),
                                        triangles: [ia, ib],
                                    });
                                }
                            }
                        }
                    }
                }
                _ => push_children(&mut stack, a, b, na, nb),
            }
        }
        best
    }
}
