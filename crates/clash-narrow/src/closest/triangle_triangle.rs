use super::segment_triangle::plane_crossing;
use super::{ClosestPoints, point_triangle, segment_segment};
use clash_math::{Scalar, Triangle};

/// Closest points of two solid triangles (`a` on `t1`, `b` on `t2`),
/// Ericson, RTCD §5.1.11.
///
/// The closest pair of two disjoint triangles is realised by an edge/edge
/// pair or a vertex/face pair, and two intersecting triangles always have an
/// edge of one crossing the other. So the result is the minimum over the nine
/// edge/edge pairs (§5.1.9), the six corners against the other triangle
/// (§5.1.5) and the six edge/plane crossings: intersecting (or touching)
/// triangles give distance 0 (up to rounding) with a common point. Every
/// candidate is a genuine pair of points of the two triangles. Degenerate
/// triangles (segments, points) work unchanged.
pub fn triangle_triangle<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> ClosestPoints<T> {
    let e1 = t1.edges();
    let e2 = t2.edges();
    let mut best = ClosestPoints::new(t1.a, point_triangle(&t1.a, t2).point);
    for v in [t1.b, t1.c] {
        best = best.min(ClosestPoints::new(v, point_triangle(&v, t2).point));
    }
    for v in t2.vertices() {
        best = best.min(ClosestPoints::new(point_triangle(&v, t1).point, v));
    }
    for s in &e1 {
        for t in &e2 {
            best = best.min(segment_segment(s, t).points);
        }
    }
    for s in &e1 {
        if let Some(x) = plane_crossing(s, t2) {
            best = best.min(ClosestPoints::new(x, point_triangle(&x, t2).point));
        }
    }
    for s in &e2 {
        if let Some(x) = plane_crossing(s, t1) {
            best = best.min(ClosestPoints::new(point_triangle(&x, t1).point, x));
        }
    }
    best
}
