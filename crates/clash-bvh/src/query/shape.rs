//! A mesh against a single primitive: box, oriented box, sphere, capsule,
//! triangle or half-space. Leaves end in clash-narrow's overlap tests (exact
//! for triangles against triangles and boxes).

use crate::Bvh;
use clash_bv::{Aabb, BoundingVolume, Capsule, FitVolume, Obb, Sphere};
use clash_math::{Plane, Scalar, Triangle};
use clash_narrow::overlap;

/// A primitive shape, in the mesh's frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shape<T: Scalar> {
    /// Axis-aligned box.
    Aabb(Aabb<T>),
    /// Oriented box.
    Obb(Obb<T>),
    /// Ball.
    Sphere(Sphere<T>),
    /// Capsule.
    Capsule(Capsule<T>),
    /// Triangle.
    Triangle(Triangle<T>),
    /// The closed half-space `normal · x <= offset` (behind the plane).
    HalfSpace(Plane<T>),
}

impl<T: Scalar> Shape<T> {
    fn bounding_obb(&self) -> Option<Obb<T>> {
        match self {
            Shape::Aabb(b) => Some(b.bounding_obb()),
            Shape::Obb(b) => Some(*b),
            Shape::Sphere(s) => Some(s.bounding_obb()),
            Shape::Capsule(c) => Some(c.bounding_obb()),
            Shape::Triangle(t) => Obb::fit_triangles(core::slice::from_ref(t)).ok(),
            Shape::HalfSpace(_) => None,
        }
    }

    fn meets_triangle(&self, t: &Triangle<T>) -> bool {
        match self {
            Shape::Aabb(b) => overlap::triangle_aabb(t, b),
            Shape::Obb(b) => overlap::obb_triangle(b, t),
            Shape::Sphere(s) => overlap::sphere_triangle(s, t),
            Shape::Capsule(c) => overlap::capsule_triangle(c, t),
            Shape::Triangle(u) => overlap::triangle_triangle(t, u),
            Shape::HalfSpace(p) => t.vertices().iter().any(|v| p.signed_distance(v) <= T::ZERO),
        }
    }
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// Calls `f` with the index of every triangle meeting `shape` (closed
    /// sets: touching counts), in traversal order. Node volumes are tested
    /// against the shape's bounding OBB (for a half-space, the volume's
    /// bounding OBB against the plane).
    pub fn for_each_triangle_meeting(&self, shape: &Shape<T>, mut f: impl FnMut(u32)) {
        let obb = shape.bounding_obb();
        let node_meets = |bv: &B| match (&obb, shape) {
            (Some(o), _) => bv.bounding_obb().overlaps(o),
            (None, Shape::HalfSpace(p)) => {
                // The box reaches `n · c - Σ e_k |n · a_k|` along the normal (RTCD §5.2.3).
                let o = bv.bounding_obb();
                let r = (0..3).fold(T::ZERO, |s, k| {
                    s + o.half_extents[k] * p.normal.dot(&o.axes.column(k)).abs()
                });
                let slack =
                    (r + o.center.coords.amax() + p.offset.abs()) * T::EPSILON * T::lit(8.0);
                p.signed_distance(&o.center) - r <= slack
            }
            (None, _) => true,
        };
        let mut stack = [0u32; crate::MAX_DEPTH as usize + 2];
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let i = stack[len];
            let node = &self.nodes[i as usize];
            if !node_meets(&node.bv) {
                continue;
            }
            match node.triangle_range() {
                Some(range) => {
                    for pos in range {
                        let (t, id) = self.leaf_triangle(pos);
                        if shape.meets_triangle(t) {
                            f(id);
                        }
                    }
                }
                None => {
                    stack[len] = node.child_or_first;
                    stack[len + 1] = i + 1;
                    len += 2;
                }
            }
        }
    }

    /// Indices of all triangles meeting `shape`, sorted.
    pub fn triangles_meeting(&self, shape: &Shape<T>) -> Vec<u32> {
        let mut out = Vec::new();
        self.for_each_triangle_meeting(shape, |i| out.push(i));
        out.sort_unstable();
        out
    }

    /// [`Self::triangles_meeting`] for many shapes in parallel; `result[i]`
    /// answers `shapes[i]`.
    pub fn triangles_meeting_shapes(&self, shapes: &[Shape<T>]) -> Vec<Vec<u32>> {
        use rayon::prelude::*;
        shapes
            .par_iter()
            .map(|s| self.triangles_meeting(s))
            .collect()
    }
}
