//! Capsule/triangle overlap (RTCD §5.1.10 distance, §4.5.1 capsule).

use super::exact::{normal_signs, p3};
use super::geom::closest_on_triangle;
use super::triangle_triangle::{seg_tri, tri_tri};
use clash_bv::Capsule;
use clash_math::segment_segment::{Exact, closest_points};
use clash_math::{Scalar, Triangle};

/// `true` when the closed capsule `c` meets the closed triangle `t`.
///
/// First the exact segment/triangle test (the capsule's segment crossing or
/// touching the triangle, decided by orientation signs as in
/// [`super::triangle_triangle`]); otherwise the segment/triangle distance,
/// the minimum of the end-point/triangle distances (RTCD §5.1.5) and the
/// segment/edge distances (RTCD §5.1.9), is compared with the radius in
/// floating point (RTCD §5.1.10). Errs only within rounding of touching when
/// `radius > 0`; with `radius == 0` the capsule is a segment and the answer
/// is exact (the segment is tested as a degenerate triangle by
/// [`super::triangle_triangle`]'s machinery). Degenerate triangles are tested as their segment or point.
/// `false` for non-finite input or a negative radius.
///
/// RTCD §5.1.10, §4.5.1.
///
/// ```
/// use clash_bv::Capsule;
/// use clash_math::{Point3, Segment, Triangle};
/// use clash_narrow::overlap::capsule_triangle;
/// let t = Triangle::new(Point3::new(0.0, 0.0, 0.0), Point3::new(4.0, 0.0, 0.0), Point3::new(0.0, 4.0, 0.0));
/// let cap = |z: f64| Capsule { segment: Segment::new(Point3::new(1.0, 1.0, z), Point3::new(1.0, 1.0, z + 3.0)), radius: 0.5 };
/// assert!(capsule_triangle(&cap(0.5), &t));
/// assert!(!capsule_triangle(&cap(0.6), &t));
/// ```
#[inline]
pub fn capsule_triangle<T: Scalar>(c: &Capsule<T>, t: &Triangle<T>) -> bool {
    let (p, q) = (&c.segment.a, &c.segment.b);
    let finite = t.is_finite()
        && clash_math::point_is_finite(p)
        && clash_math::point_is_finite(q)
        && c.radius.finite();
    if !finite || c.radius < T::ZERO {
        return false;
    }
    let y = [p3(&t.a), p3(&t.b), p3(&t.c)];
    let pr = &mut ();
    if c.radius == T::ZERO {
        // A bare segment: exact, as the degenerate triangle (p, q, p).
        let (ps, qs) = (p3(p), p3(q));
        return tri_tri(pr, &[ps, qs, ps], &y);
    }
    let ny = normal_signs(pr, &y[0], &y[1], &y[2]);
    if ny != [0; 3] && seg_tri(pr, &p3(p), &p3(q), &y, ny) {
        return true;
    }
    let r2 = c.radius * c.radius;
    let d2 =
        |x: &clash_math::Point3<T>| (closest_on_triangle(x, &t.a, &t.b, &t.c) - x).norm_squared();
    if d2(p) <= r2 || d2(q) <= r2 {
        return true;
    }
    t.edges().iter().any(|e| {
        let (x, y) = closest_points::<T, Exact>(&c.segment, e);
        (x - y).norm_squared() <= r2
    })
}
