//! Mesh/mesh distance for meshes far apart relative to their size, where
//! the descent's bounds cannot prune: their rounding allowance grows with
//! the coordinates' magnitude, so once the separation is about `2^26`
//! times the meshes' size every node pair's bound is within the allowance
//! of every other and the descent would measure all pairs of triangles.
//!
//! There the answer is a support-function computation instead (RTCD
//! §4.4.1's projection bound, made tight): with `u` the unit direction from
//! A's bounding box centre to B's, let `a*` be A's corner furthest along
//! `u` and `b*` B's corner furthest along `-u`. The gap `g = u·(b* - a*)`
//! is a lower bound on the distance (two sets are at least as far apart as
//! their projections on any unit axis), and `|b* - a*|² = g² + l²` with
//! the lateral offset `l` at most the two boxes' diameters `2 (r_A + r_B)`.
//! So `|b* - a*| <= g + l² / (2 g)`, which is within `ε / 8` of `g`, and
//! so of the exact distance, once `g >= 4 (r_A + r_B) / √ε`: below an ulp,
//! leaving only the rounding of the points and their separation. The
//! points are corners of the meshes, so they lie on their triangles.

use crate::Bvh;
use clash_bv::{BoundingVolume, RelativePose};
use clash_math::{Point3, Scalar, Vector3};

use super::MeshDistance;

/// The corner of `mesh` with the largest projection on `u` (the first such
/// in triangle order) and a triangle holding it.
fn furthest_corner<T: Scalar>(mesh: &crate::TriMesh<T>, u: &Vector3<T>) -> (Point3<T>, u32) {
    let v = mesh.vertices();
    let mut best = (T::NEG_INFINITY, Point3::origin(), 0);
    for (i, tri) in mesh.indices().iter().enumerate() {
        for &k in tri {
            let p = v[k as usize];
            let h = u.dot(&p.coords);
            if h > best.0 {
                best = (h, p, i as u32);
            }
        }
    }
    (best.1, best.2)
}

impl<T: Scalar, B: BoundingVolume<T>> Bvh<T, B> {
    /// The distance to `other` placed by `pose` by the support-function
    /// computation of this module, when the root boxes are far enough
    /// apart for it to be exact to within rounding; `None` otherwise.
    pub(super) fn far_distance<B2: BoundingVolume<T>>(
        &self,
        other: &Bvh<T, B2>,
        pose: &RelativePose<T>,
    ) -> Option<MeshDistance<T>> {
        let (ba, bb) = (self.nodes[0].bv.aabb(), other.nodes[0].bv.aabb());
        let ca = ba.center();
        let cb = pose.transform_point(&bb.center());
        let ra = (ba.max - ba.min).norm() * T::HALF;
        let rb = (bb.max - bb.min).norm() * T::HALF;
        let d = cb - ca;
        let len = d.norm();
        // `g >= len - ra - rb`; a factor of two over the bound of the
        // module's documentation covers the rounding of the boxes, the
        // placed centre and `len`.
        let factor = T::lit(8.0) / T::EPSILON.sqrt();
        if !(len.finite() && len - ra - rb > (ra + rb) * factor) || len <= T::ZERO {
            return None;
        }
        let u = d / len;
        let (point_a, ia) = furthest_corner(&self.mesh, &u);
        let (b_local, ib) = furthest_corner(&other.mesh, &-(pose.rotation.transpose() * u));
        let point_b = pose.transform_point(&b_local);
        Some(MeshDistance {
            distance: (point_b - point_a).norm(),
            point_a,
            point_b,
            triangles: [ia, ib],
        })
    }
}
