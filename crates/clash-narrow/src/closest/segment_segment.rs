use super::{ClosestPoints, point_segment};
use clash_math::{Scalar, Segment, Vector3};

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
    // Lines clearly not parallel (sin² θ > 1e-4): the stationary point of
    // the 2x2 normal equations is well conditioned, and inside the square it
    // is the global minimum (the squared distance is convex in (s, t)).
    if denom > T::lit(1e-4) * a * e {
        let s = (b * f - c * e) / denom;
        let t = (a * f - b * c) / denom;
        if s > T::ZERO && s < T::ONE && t > T::ZERO && t < T::ONE {
            return SegmentSegment {
                s,
                t,
                points: ClosestPoints::new(s1.a + d1 * s, s2.a + d2 * t),
            };
        }
    } else if a > T::ZERO && e > T::ZERO {
        // Nearly parallel lines: `a e - b²` cancels (its rounding is `ε`
        // relative to `a e`, so `s` is off by up to `ε / sin² θ`, and lines
        // crossing at a small angle would come out apart). Solved instead on the
        // components orthogonal to `d2` (`d1⊥ = d1 - d2 b/e`, `r⊥ = r -
        // d2 f/e`): `s = -(r⊥·d1⊥) / |d1⊥|²`, which is off by about
        // `ε (|r| + L₁) / (L₁ sin θ)`, i.e. about `ε (|r| + L₁)` in distance.
        // Clamped, with `t` the projection of that point on `s2`, it is a
        // genuine pair of points.
        interior = nearly_parallel_interior(s1, s2, d1, d2, r, b, e, f);
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

/// The candidate of [`segment_segment`] for nearly parallel lines (see
/// there): `s` solved on the components orthogonal to `d2`, clamped, and
/// `t` its point's projection on `s2`. Out of line: it is rare, and the
/// common path stays small.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn nearly_parallel_interior<T: Scalar>(
    s1: &Segment<T>,
    s2: &Segment<T>,
    d1: Vector3<T>,
    d2: Vector3<T>,
    r: Vector3<T>,
    b: T,
    e: T,
    f: T,
) -> Option<SegmentSegment<T>> {
    let d1p = d1 - d2 * (b / e);
    let rp = r - d2 * (f / e);
    let w = d1p.norm_squared();
    if w > T::ZERO {
        let s = (-rp.dot(&d1p) / w).max_of(T::ZERO).min_of(T::ONE);
        let p = s1.a + d1 * s;
        let (t, q) = point_segment(&p, s2);
        Some(SegmentSegment {
            s,
            t,
            points: ClosestPoints::new(p, q),
        })
    } else {
        None
    }
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

    /// Segments through a common grid point `q` (every coordinate exact:
    /// `q ± k w` with `w` on a grid of eighths, `k` a power of two), crossing
    /// at angles from 2^-4 down to 2^-44, in space and in a plane: the
    /// distance is 0 exactly, and the computed one must stay within a few
    /// ulps of the coordinates. The direct solve, without the
    /// orthogonal-component one for nearly parallel lines, puts crossings
    /// at 2^-20 up to 1e-6 apart (the stationary point falls just outside
    /// the square, leaving only the end points).
    #[test]
    fn nearly_parallel_crossings_meet() {
        let g = |x: i32, y: i32, z: i32| {
            clash_math::Vector3::new(f64::from(x), f64::from(y), f64::from(z)) / 8.0
        };
        let mut worst: f64 = 0.0;
        for (q, w, bump) in [
            (g(3, -5, 7), g(5, 2, -3), g(0, 1, 1)),
            (g(-9, 4, 1), g(1, 7, 2), g(2, -1, 0)),
            (g(0, 0, 0), g(8, 0, 0), g(0, 0, 1)),
            (g(40, -17, 3), g(-3, 4, 12), g(1, 1, 0)),
        ] {
            let q = Point3::from(q);
            for k in 4..=44 {
                let d = w + bump * 0.5f64.powi(k);
                for (a, b) in [(1.0, 1.0), (0.5, 2.0), (2.0, 0.25)] {
                    let s1 = Segment::new(q - w * a, q + w * b);
                    let s2 = Segment::new(q - d * b, q + d * a);
                    for (x, y) in [(&s1, &s2), (&s2, &s1)] {
                        let r = segment_segment(x, y);
                        worst = worst.max(r.points.distance());
                        assert!(r.points.distance() < 1e-14, "2^-{k}: {r:?}");
                    }
                }
            }
        }
        assert!(worst < 1e-14, "{worst}");
    }
}
