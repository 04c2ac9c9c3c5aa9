//! Sphere/capsule overlap (RTCD §4.5.1).

use super::geom::closest_on_segment;
use clash_bv::{Capsule, Sphere};
use clash_math::Scalar;

/// `true` when the closed ball `s` meets the closed capsule `c`: the squared
/// distance from the centre to the capsule's segment is at most
/// `(r_s + r_c)²`. Floating point; can err only within rounding of touching.
/// `false` for non-finite input or a negative radius.
///
/// RTCD §4.5.1.
///
/// ```
/// use clash_bv::{Capsule, Sphere};
/// use clash_math::{Point3, Segment};
/// use clash_narrow::overlap::sphere_capsule;
/// let c = Capsule { segment: Segment::new(Point3::new(0.0, 0.0, 0.0), Point3::new(0.0, 0.0, 4.0)), radius: 1.0 };
/// assert!(sphere_capsule(&Sphere { center: Point3::new(2.0, 0.0, 2.0), radius: 1.0 }, &c));
/// assert!(!sphere_capsule(&Sphere { center: Point3::new(0.0, 0.0, 6.5), radius: 1.0 }, &c));
/// ```
#[inline]
pub fn sphere_capsule<T: Scalar>(s: &Sphere<T>, c: &Capsule<T>) -> bool {
    let finite = clash_math::point_is_finite(&s.center)
        && clash_math::point_is_finite(&c.segment.a)
        && clash_math::point_is_finite(&c.segment.b)
        && s.radius.finite()
        && c.radius.finite();
    if !finite || s.radius < T::ZERO || c.radius < T::ZERO {
        return false;
    }
    let q = closest_on_segment(&s.center, &c.segment.a, &c.segment.b);
    let r = s.radius + c.radius;
    (q - s.center).norm_squared() <= r * r
}
