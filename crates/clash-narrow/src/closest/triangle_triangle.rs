use super::segment_triangle::plane_crossing;
use super::{ClosestPoints, segment_segment};
use clash_math::{Point3, Scalar, Triangle, Vector3};

/// Closest points of two solid triangles (`a` on `t1`, `b` on `t2`),
/// Ericson, RTCD §5.1.11.
///
/// The closest pair of two disjoint triangles is realised by an edge/edge
/// pair or by a corner and its orthogonal projection inside the other
/// triangle's face; and two intersecting triangles always have an edge of one
/// crossing the other. So the result is the minimum over the nine edge/edge
/// pairs (§5.1.9) and the six corner-to-face projections that land inside
/// the face, after the six edge/plane crossings have been checked for a
/// point inside the other triangle (intersecting or touching triangles: the
/// crossing point is returned as a common point, distance 0). Corners that
/// project outside the face, and all corners against a degenerate triangle,
/// are covered by the edge pairs. Every candidate is a genuine pair of points
/// of the two triangles. Degenerate triangles (segments, points) work
/// unchanged.
pub fn triangle_triangle<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> ClosestPoints<T> {
    let e1 = t1.edges();
    let e2 = t2.edges();
    let n1 = t1.scaled_normal();
    let n2 = t2.scaled_normal();
    // Intersection: an edge of one crossing the other inside.
    for s in &e1 {
        if let Some(x) = plane_crossing(s, t2)
            && inside(&x, t2, &n2)
        {
            return ClosestPoints {
                a: x,
                b: x,
                distance_squared: T::ZERO,
            };
        }
    }
    for s in &e2 {
        if let Some(x) = plane_crossing(s, t1)
            && inside(&x, t1, &n1)
        {
            return ClosestPoints {
                a: x,
                b: x,
                distance_squared: T::ZERO,
            };
        }
    }
    let mut best = segment_segment(&e1[0], &e2[0]).points;
    for (i, s) in e1.iter().enumerate() {
        for (j, t) in e2.iter().enumerate() {
            if i + j > 0 {
                best = best.min(segment_segment(s, t).points);
            }
        }
    }
    let nn2 = n2.norm_squared();
    if nn2 > T::ZERO {
        for v in t1.vertices() {
            let q = v - n2 * (n2.dot(&(v - t2.a)) / nn2);
            if inside(&q, t2, &n2) {
                best = best.min(ClosestPoints::new(v, q));
            }
        }
    }
    let nn1 = n1.norm_squared();
    if nn1 > T::ZERO {
        for v in t2.vertices() {
            let q = v - n1 * (n1.dot(&(v - t1.a)) / nn1);
            if inside(&q, t1, &n1) {
                best = best.min(ClosestPoints::new(q, v));
            }
        }
    }
    best
}

/// `true` when `p` (in or near the plane of `t`, whose scaled normal is `n`)
/// lies inside or on the boundary of `t` as seen along `n`; `false` for a
/// degenerate triangle.
#[inline]
fn inside<T: Scalar>(p: &Point3<T>, t: &Triangle<T>, n: &Vector3<T>) -> bool {
    if *n == Vector3::zeros() {
        return false;
    }
    let (a, b, c) = (t.a - p, t.b - p, t.c - p);
    a.cross(&b).dot(n) >= T::ZERO && b.cross(&c).dot(n) >= T::ZERO && c.cross(&a).dot(n) >= T::ZERO
}
