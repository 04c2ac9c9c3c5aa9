//! Distances of segments for the capsule and RSS bounds: RTCD §5.1.9's
//! closest points ([`clash_math::segment_segment`], under its
//! [`Tolerant`] rule), the bound on their rounding, and RTCD §5.1.2's
//! point/segment distance.
use clash_math::segment_segment::{Tolerant, closest_points};
use clash_math::{Point3, Scalar, Segment};

/// Distance between two segments, from their closest points (RTCD §5.1.9).
pub(crate) fn segment_segment_distance<T: Scalar>(s1: &Segment<T>, s2: &Segment<T>) -> T {
    let (p, q) = closest_points::<T, Tolerant>(s1, s2);
    (p - q).norm()
}

/// A bound on how far `d`, the [`segment_segment_distance`] of `s1` and
/// `s2`, may exceed their true distance: `64ε m` for rounding (`m` the
/// largest end-point coordinate), plus twice
/// `min((L₁ + L₂)(sin θ + 4ε), 4ε (L₁ + L₂ + d) / sin θ)` for the
/// closest-point parameters, which are ill-conditioned between nearly
/// parallel segments (`θ` their angle, `L` their lengths). At angle `θ`
/// the parameter `s` is found to within about `ε (|r| + L₁) / (L₁ sin²θ)`
/// (`r` the offset of the first ends, at most `L₁ + L₂ + d` when the
/// segments come within `d`), and the distance grows by at most
/// `L₁ sin θ` per unit of `s` away from the optimum, which also bounds the
/// excess since `s` stays in `[0, 1]`; below `sin²θ = ε` the parameter is
/// taken at an end. The excess is therefore at most about `2√ε` of the
/// lengths at the worst angle and a few ulps at wide angles.
/// Checked against exact crossings at angles down to `2^-50`
/// (`capsule::tests`) and against an independent minimisation
/// (`tests/integration/oracle_parry.rs`).
pub(crate) fn segment_distance_excess<T: Scalar>(s1: &Segment<T>, s2: &Segment<T>, d: T) -> T {
    let (d1, d2) = (s1.b - s1.a, s2.b - s2.a);
    let (l1, l2) = (d1.norm(), d2.norm());
    let m = [s1.a, s1.b, s2.a, s2.b]
        .iter()
        .fold(T::ZERO, |m, p| m.max_of(p.coords.amax()));
    let eps = T::EPSILON;
    let lengths = l1 + l2;
    let sin = if l1 > T::ZERO && l2 > T::ZERO {
        d1.cross(&d2).norm() / (l1 * l2)
    } else {
        T::ZERO
    };
    let parameter =
        (lengths * (sin + eps * T::lit(4.0))).min_of(eps * T::lit(4.0) * (lengths + d) / sin);
    eps * T::lit(64.0) * m + parameter * T::lit(2.0)
}

/// Distance from `p` to the segment `s` (RTCD §5.1.2).
pub(crate) fn point_segment_distance<T: Scalar>(p: &Point3<T>, s: &Segment<T>) -> T {
    let d = s.b - s.a;
    let l2 = d.norm_squared();
    let t = if l2 > T::MIN_POSITIVE {
        ((p - s.a).dot(&d) / l2).max_of(T::ZERO).min_of(T::ONE)
    } else {
        T::ZERO
    };
    (p - (s.a + d * t)).norm()
}
