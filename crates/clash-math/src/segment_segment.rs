//! Closest points of two segments by clamping and recomputing, Ericson,
//! RTCD §5.1.9: the one implementation of the book's routine, which
//! clash-bv's capsule and RSS distances and clash-narrow's capsule/triangle
//! test call, each under its own [`SegmentRule`].
//!
//! (clash-narrow's public `closest::segment_segment` is a different
//! algorithm: it compares the interior solution with the four end-point
//! projections, so it never under-estimates the distance.)

use crate::{Point3, Scalar, Segment};

/// How [`closest_points`] treats the special cases of RTCD §5.1.9: short
/// segments, nearly parallel lines, and the clamp of a parameter to
/// `[0, 1]`. The rules agree wherever no special case applies.
pub trait SegmentRule {
    /// Whether a segment of squared length `len2` counts as a point.
    fn is_point<T: Scalar>(len2: T) -> bool;
    /// Whether the lines are far enough from parallel for the stationary
    /// point, given `denom = a e - b²` (`a`, `e` the squared lengths).
    fn solves<T: Scalar>(denom: T, a: T, e: T) -> bool;
    /// `x` clamped to `[0, 1]`.
    fn clamp01<T: Scalar>(x: T) -> T;
}

/// Segments of squared length at most [`Scalar::MIN_POSITIVE`] are points;
/// lines with `a e - b² <= ε a e` (`sin² θ <= ε`) are parallel, and the
/// first parameter is then taken at 0; clamps by [`Scalar::max_of`] and
/// [`Scalar::min_of`]. The rule of clash-bv's distance bounds, whose
/// excess bound assumes it.
pub enum Tolerant {}

/// Only zero-length segments are points and only lines with
/// `a e - b² <= 0` are parallel; clamps by `RealField::max` and `min`
/// (which map a NaN parameter to 0).
pub enum Exact {}

impl SegmentRule for Tolerant {
    #[inline(always)]
    fn is_point<T: Scalar>(len2: T) -> bool {
        len2 <= T::MIN_POSITIVE
    }
    #[inline(always)]
    fn solves<T: Scalar>(denom: T, a: T, e: T) -> bool {
        denom > a * e * T::EPSILON
    }
    #[inline(always)]
    fn clamp01<T: Scalar>(x: T) -> T {
        x.max_of(T::ZERO).min_of(T::ONE)
    }
}

impl SegmentRule for Exact {
    #[inline(always)]
    fn is_point<T: Scalar>(len2: T) -> bool {
        len2 <= T::ZERO
    }
    #[inline(always)]
    fn solves<T: Scalar>(denom: T, _a: T, _e: T) -> bool {
        denom > T::ZERO
    }
    #[inline(always)]
    fn clamp01<T: Scalar>(x: T) -> T {
        x.max(T::ZERO).min(T::ONE)
    }
}

/// Closest points `(p, q)`, `p` on `s1` and `q` on `s2` (RTCD §5.1.9):
/// minimises `|s1(s) - s2(t)|²` over the unit square by taking the
/// stationary point's `s` (0 for parallel lines) clamped, recomputing `t`
/// for it, and when `t` leaves `[0, 1]` clamping `t` and recomputing `s`.
/// Point segments, as `R` decides them, are handled first; two points
/// give their ends `(s1.a, s2.a)`.
///
/// ```
/// use clash_math::{Point3, Segment};
/// use clash_math::segment_segment::{Tolerant, closest_points};
/// let s1 = Segment::new(Point3::new(-1.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0));
/// let s2 = Segment::new(Point3::new(0.0, -1.0, 2.0), Point3::new(0.0, 1.0, 2.0));
/// let (p, q) = closest_points::<f64, Tolerant>(&s1, &s2);
/// assert_eq!((p, q), (Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 2.0)));
/// ```
#[inline]
pub fn closest_points<T: Scalar, R: SegmentRule>(
    s1: &Segment<T>,
    s2: &Segment<T>,
) -> (Point3<T>, Point3<T>) {
    let d1 = s1.b - s1.a;
    let d2 = s2.b - s2.a;
    let r = s1.a - s2.a;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let f = d2.dot(&r);
    let (s, t);
    if R::is_point(a) && R::is_point(e) {
        return (s1.a, s2.a);
    }
    if R::is_point(a) {
        s = T::ZERO;
        t = R::clamp01(f / e);
    } else {
        let c = d1.dot(&r);
        if R::is_point(e) {
            t = T::ZERO;
            s = R::clamp01(-c / a);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let mut s0 = if R::solves(denom, a, e) {
                R::clamp01((b * f - c * e) / denom)
            } else {
                T::ZERO
            };
            let mut t0 = (b * s0 + f) / e;
            if t0 < T::ZERO {
                t0 = T::ZERO;
                s0 = R::clamp01(-c / a);
            } else if t0 > T::ONE {
                t0 = T::ONE;
                s0 = R::clamp01((b - c) / a);
            }
            s = s0;
            t = t0;
        }
    }
    (s1.a + d1 * s, s2.a + d2 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: f64, y: f64, z: f64) -> Point3<f64> {
        Point3::new(x, y, z)
    }

    /// Crossing, parallel, end-point and point segments, under both rules:
    /// the closest points against a dense sampling of both segments.
    #[test]
    fn matches_dense_sampling_under_both_rules() {
        let cases = [
            (
                (p(-1., 0., 0.), p(1., 0., 0.)),
                (p(0., -1., 2.), p(0., 1., 2.)),
            ),
            (
                (p(0., 0., 0.), p(2., 0., 0.)),
                (p(1., 1., 0.), p(3., 1., 0.)),
            ),
            (
                (p(0., 0., 0.), p(1., 0., 0.)),
                (p(3., 1., 0.), p(4., 2., 1.)),
            ),
            (
                (p(1., 1., 1.), p(1., 1., 1.)),
                (p(0., 0., 0.), p(2., 0., 0.)),
            ),
            (
                (p(0., 0., 0.), p(2., 0., 0.)),
                (p(1., 1., 1.), p(1., 1., 1.)),
            ),
            (
                (p(1., 2., 3.), p(1., 2., 3.)),
                (p(0., 0., 0.), p(0., 0., 0.)),
            ),
            (
                (p(0., 0., 0.), p(1., 1., 0.)),
                (p(2., -1., 1.), p(-1., 2., 1.5)),
            ),
        ];
        for ((a0, a1), (b0, b1)) in cases {
            let (s1, s2) = (Segment::new(a0, a1), Segment::new(b0, b1));
            let mut sampled = f64::INFINITY;
            for i in 0..=400 {
                for j in 0..=400 {
                    let d = (s1.at(f64::from(i) / 400.0) - s2.at(f64::from(j) / 400.0)).norm();
                    sampled = sampled.min(d);
                }
            }
            for (x, y) in [
                closest_points::<f64, Tolerant>(&s1, &s2),
                closest_points::<f64, Exact>(&s1, &s2),
            ] {
                let d = (x - y).norm();
                assert!(
                    d <= sampled + 1e-12 && d >= sampled - 1e-2,
                    "{d} vs {sampled}"
                );
            }
        }
    }

    /// The rules part on nearly parallel lines: lines crossing at
    /// `sin² θ = 2⁻⁵²` (every quantity exact), which `Tolerant` takes as
    /// parallel (`s = 0`) and `Exact` solves (`s = 1/2`, where they cross).
    #[test]
    fn rules_part_only_on_their_special_cases() {
        let h = 2f64.powi(-26);
        let s1 = Segment::new(p(0., 0., 0.), p(1., 0., 0.));
        let s2 = Segment::new(p(0., -h / 2.0, 0.), p(1., h / 2.0, 0.));
        let (x, _) = closest_points::<f64, Tolerant>(&s1, &s2);
        let (y, q) = closest_points::<f64, Exact>(&s1, &s2);
        assert_eq!(x, p(0., 0., 0.));
        assert_eq!((y, q), (p(0.5, 0., 0.), p(0.5, 0., 0.)));
        let tiny = Segment::new(p(0., 0., 0.), p(1e-160, 0., 0.));
        let (x, _) = closest_points::<f64, Tolerant>(&tiny, &s2);
        assert_eq!(x, tiny.a);
    }
}
