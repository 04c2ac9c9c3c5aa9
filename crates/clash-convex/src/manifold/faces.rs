//! The faces a manifold is clipped from: a box's six, a hull's polygons.

use super::ContactPoint;
use super::clip::{Polygon, clip_plane};
use crate::closed_form::cuboid_cuboid::face_corners;
use crate::shape::{ConvexHull, ShapeRef};
use arrayvec::ArrayVec;
use clash_math::{Isometry3, Scalar, Vector3};

/// A shape with polygonal faces.
pub(super) enum Faces<'a, T: Scalar> {
    Cuboid(Vector3<T>),
    Hull(&'a ConvexHull<T>),
}

impl<'a, T: Scalar> Faces<'a, T> {
    /// The faces of a box or of a hull with polygons.
    pub fn of(s: ShapeRef<'a, T>) -> Option<Self> {
        match s {
            ShapeRef::Cuboid(c) => Some(Faces::Cuboid(c.half_extents())),
            ShapeRef::ConvexHull(h) if h.polygon_count() > 0 => Some(Faces::Hull(h)),
            _ => None,
        }
    }

    /// The face whose outward normal is most aligned with the local unit
    /// direction `d`: its corners (local) and its normal, and the alignment.
    fn best(&self, d: &Vector3<T>) -> (Polygon<T>, Vector3<T>, T) {
        match self {
            Faces::Cuboid(e) => {
                let k = d.iamax();
                let positive = d[k] >= T::ZERO;
                let mut n = Vector3::zeros();
                n[k] = if positive { T::ONE } else { -T::ONE };
                let corners = face_corners(e, k, positive);
                (corners.iter().copied().collect(), n, d[k].abs())
            }
            Faces::Hull(h) => {
                let mut best = 0;
                let mut best_dot = T::NEG_INFINITY;
                for f in 0..h.polygon_count() {
                    let dot = h.polygon(f).1.dot(d);
                    if dot > best_dot {
                        best_dot = dot;
                        best = f;
                    }
                }
                let (ring, n) = h.polygon(best);
                let v = h.vertices();
                let poly = ring
                    .iter()
                    .take(super::clip::MAX_POLYGON)
                    .map(|&i| v[i as usize])
                    .collect();
                (poly, n, best_dot)
            }
        }
    }
}

/// Places a local polygon in the world.
fn placed<T: Scalar>(poly: &Polygon<T>, pose: &Isometry3<T>) -> Polygon<T> {
    poly.iter().map(|p| pose * p).collect()
}

/// Clips the incident face to the reference face along `normal` (world,
/// from A to B): `None` when neither shape has a face within `alignment`
/// of the normal. The points are shifted by the margins; the normal
/// returned is the reference face's, oriented from A to B.
#[allow(clippy::too_many_arguments)]
pub(super) fn clip_faces<T: Scalar>(
    fa: &Faces<'_, T>,
    pose_a: &Isometry3<T>,
    fb: &Faces<'_, T>,
    pose_b: &Isometry3<T>,
    normal: &Vector3<T>,
    alignment: T,
    security_margin: T,
    ma: T,
    mb: T,
) -> Option<(
    ArrayVec<ContactPoint<T>, { super::clip::MAX_POLYGON }>,
    Vector3<T>,
)> {
    let na = pose_a.rotation.inverse() * normal;
    let nb = pose_b.rotation.inverse() * -normal;
    let (ref_a, ref_na, dot_a) = fa.best(&na);
    let (ref_b, ref_nb, dot_b) = fb.best(&nb);
    let limit = T::ONE - alignment;
    // The reference face: the better aligned of the two (A's on ties).
    let a_refers = dot_a >= dot_b;
    if dot_a.max_of(dot_b) < limit {
        return None;
    }
    let (reference, ref_n, ref_pose, inc_faces, inc_pose) = if a_refers {
        (ref_a, ref_na, pose_a, fb, pose_b)
    } else {
        (ref_b, ref_nb, pose_b, fa, pose_a)
    };
    let ref_world = placed(&reference, ref_pose);
    let n_world = ref_pose.rotation * ref_n;
    // The incident face: the other shape's face most opposed to the
    // reference normal.
    let inc_local = inc_pose.rotation.inverse() * -n_world;
    let (incident, _, _) = inc_faces.best(&inc_local);
    let mut poly = placed(&incident, inc_pose);
    // Side planes of the reference face (counter-clockwise seen from
    // outside, so edge × normal points out of the face).
    let k = ref_world.len();
    for i in 0..k {
        let p = ref_world[i];
        let q = ref_world[(i + 1) % k];
        let side = (q - p).cross(&n_world);
        let len = side.norm();
        if !(len > T::ZERO) {
            continue;
        }
        let side = side / len;
        poly = clip_plane(&poly, &side, side.dot(&p.coords));
        if poly.is_empty() {
            return Some((ArrayVec::new(), *normal));
        }
    }
    let plane = n_world.dot(&ref_world[0].coords);
    let margins = ma + mb;
    let mut out = ArrayVec::new();
    for p in poly {
        // Signed distance of the incident point above the reference plane.
        let height = n_world.dot(&p.coords) - plane;
        let distance = height - margins;
        if distance > security_margin {
            continue;
        }
        let on_ref = p - n_world * height;
        // World points on each shape, with their margins.
        let (ra, rb) = if a_refers { (ma, mb) } else { (mb, ma) };
        let ref_point = on_ref + n_world * ra;
        let inc_point = p - n_world * rb;
        let (point_a, point_b) = if a_refers {
            (ref_point, inc_point)
        } else {
            (inc_point, ref_point)
        };
        let _ = out.try_push(ContactPoint {
            point_a,
            point_b,
            distance,
        });
    }
    let normal = if a_refers { n_world } else { -n_world };
    Some((out, normal))
}
