use super::{ClosestPoints, point_triangle, segment_segment};
use crate::overlap;
use clash_math::{Point3, Scalar, Segment, Triangle};

/// Closest points of segment `seg` (`a`) and the solid triangle `tri` (`b`),
/// Ericson, RTCD §5.1.10.
///
/// The minimum over: the segment against each triangle edge (§5.1.9), each
/// segment end point against the triangle (§5.1.5), and the point where the
/// segment crosses the triangle's plane with its closest point on the
/// triangle. Each candidate is a real pair of points of the two shapes, so
/// the distance is never under-estimated; degenerate triangles reduce to
/// their edges. A segment that meets the triangle by the exact test
/// [`overlap::triangle_triangle`] (the segment as a degenerate triangle)
/// answers distance 0 with the crossing point as the common point (`a ==
/// b`, on the segment, within rounding of the triangle).
pub fn segment_triangle<T: Scalar>(seg: &Segment<T>, tri: &Triangle<T>) -> ClosestPoints<T> {
    let mut best = edge_candidates(seg, tri);
    if let Some(x) = plane_crossing(seg, tri) {
        let crossing = ClosestPoints::new(x, point_triangle(&x, tri).point);
        if crossing.distance_squared <= best.distance_squared
            && overlap::triangle_triangle(&Triangle::new(seg.a, seg.b, seg.b), tri)
        {
            return ClosestPoints {
                a: x,
                b: x,
                distance_squared: T::ZERO,
            };
        }
        best = best.min(crossing);
    }
    best
}

/// Endpoints against the triangle and the segment against the edges.
fn edge_candidates<T: Scalar>(seg: &Segment<T>, tri: &Triangle<T>) -> ClosestPoints<T> {
    let mut best = ClosestPoints::new(seg.a, point_triangle(&seg.a, tri).point);
    best = best.min(ClosestPoints::new(seg.b, point_triangle(&seg.b, tri).point));
    for e in tri.edges() {
        best = best.min(segment_segment(seg, &e).points);
    }
    best
}

/// The point where `seg` crosses the plane of `tri`, when its end points lie
/// on opposite sides (or one on the plane); `None` for a degenerate triangle
/// or a segment in or parallel to the plane.
#[inline]
pub(crate) fn plane_crossing<T: Scalar>(seg: &Segment<T>, tri: &Triangle<T>) -> Option<Point3<T>> {
    let n = tri.scaled_normal();
    let da = n.dot(&(seg.a - tri.a));
    let db = n.dot(&(seg.b - tri.a));
    if da == db || da * db > T::ZERO {
        return None;
    }
    let t = (da / (da - db)).max_of(T::ZERO).min_of(T::ONE);
    Some(seg.at(t))
}
