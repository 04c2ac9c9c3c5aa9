use super::{ClosestPoints, point_segment};
use clash_math::{Scalar, Segment};

/// Closest points of two segments with their parameters:
/// `points.a = s1.at(s)`, `points.b = s2.at(t)`, `s, t ∈ [0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SegmentSegment<T: Scalar> {
    /// Parameter on the first segment.
    pub s: T,
    /// Parameter on the second segment.
    pub t: T,
    /// The points and their squared distance.
    pub points: ClosestPoints<T>,
}

/// Closest points of segments `s1` and `s2`, Ericson, RTCD §5.1.9.
///
/// The optimum either lies inside both segments (the stationary point of the
/// lines, solved from the 2x2 normal equations) or has one parameter at an end
/// point, where it is the closest point of that end point on the other
/// segment (Lumelsky 1985, as in §5.1.9). Rather than the book's clamp-and-
/// recompute sequence, this evaluates all five candidates (the interior
/// solution when the lines are not parallel, and the four end point
/// projections) and keeps the closest; an interior solution of two clearly
/// non-parallel lines is returned at once (the squared distance is convex,
/// so an interior stationary point is the minimum). Every candidate is a
/// genuine pair of points of the segments, so the result never
/// under-estimates the distance, and parallel, nearly parallel, zero-length
/// and coincident segments need no special tolerance.
pub fn segment_segment<T: Scalar>(s1: &Segment<T>, s2: &Segment<T>) -> SegmentSegment<T> {
    let d1 = s1.b - s1.a;
    let d2 = s2.b - s2.a;
    let r = s1.a - s2.a;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let b = d1.dot(&d2);
    let c = d1.dot(&r);
    let f = d2.dot(&r);

    let denom = a * e - b * b;
    let mut interior = None;
    if denom > T::ZERO {
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if s > T::ZERO && s < T::ONE && t > T::ZERO && t < T::ONE {
            let cand = SegmentSegment {
                s,
                t,
                points: ClosestPoints::new(s1.a + d1 * s, s2.a + d2 * t),
            };
            // The squared distance is convex in (s, t): a stationary point
            // inside the square is the global minimum. Trust it outright
            // when the lines are clearly not parallel (sin² > 1e-4), where
            // it is well conditioned.
            if denom > T::lit(1e-4) * a * e {
                return cand;
            }
            interior = Some(cand);
        }
    }
    let mut best = {
        let (t, q) = point_segment(&s1.a, s2);
        SegmentSegment {
            s: T::ZERO,
            t,
            points: ClosestPoints::new(s1.a, q),
        }
    };
    let mut consider = |cand: SegmentSegment<T>| {
        if cand.points.distance_squared < best.points.distance_squared {
            best = cand;
        }
    };
    if let Some(cand) = interior {
        consider(cand);
    }
    let (t, q) = point_segment(&s1.b, s2);
    consider(SegmentSegment {
        s: T::ONE,
        t,
        points: ClosestPoints::new(s1.b, q),
    });
    let (s, q) = point_segment(&s2.a, s1);
    consider(SegmentSegment {
        s,
        t: T::ZERO,
        points: ClosestPoints::new(q, s2.a),
    });
    let (s, q) = point_segment(&s2.b, s1);
    consider(SegmentSegment {
        s,
        t: T::ONE,
        points: ClosestPoints::new(q, s2.b),
    });
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_math::Point3;

    #[test]
    fn crossing_parallel_and_degenerate() {
        let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
        let r = segment_segment(
            &Segment::new(p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0)),
            &Segment::new(p(0.0, -1.0, 2.0), p(0.0, 1.0, 2.0)),
        );
        assert!((r.points.distance_squared - 4.0).abs() < 1e-15);
        assert!((r.s - 0.5).abs() < 1e-15 && (r.t - 0.5).abs() < 1e-15);
        let r = segment_segment(
            &Segment::new(p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0)),
            &Segment::new(p(1.0, 1.0, 0.0), p(3.0, 1.0, 0.0)),
        );
        assert!((r.points.distance_squared - 1.0).abs() < 1e-15);
        let r = segment_segment(
            &Segment::new(p(1.0, 1.0, 1.0), p(1.0, 1.0, 1.0)),
            &Segment::new(p(0.0, 0.0, 0.0), p(2.0, 0.0, 0.0)),
        );
        assert!((r.points.b - p(1.0, 0.0, 0.0)).norm() < 1e-15);
    }
}
