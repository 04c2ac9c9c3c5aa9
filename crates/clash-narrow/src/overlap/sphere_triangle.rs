//! Sphere/triangle overlap (RTCD §5.2.7).

use super::geom::closest_on_triangle;
use clash_bv::Sphere;
use clash_math::{Scalar, Triangle};

/// `true` when the closed ball `s` meets the closed triangle `t`: the squared
/// distance from the centre to the triangle's closest point (RTCD §5.1.5) is
/// at most `r²`. Degenerate triangles are handled as their segment or point.
/// Floating point; can err only within rounding of touching. `false` for
/// non-finite input or a negative radius.
///
/// RTCD §5.2.7.
///
/// ```
/// use clash_bv::Sphere;
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::overlap::sphere_triangle;
/// let t = Triangle::new(Point3::new(0.0, 0.0, 0.0), Point3::new(4.0, 0.0, 0.0), Point3::new(0.0, 4.0, 0.0));
/// assert!(sphere_triangle(&Sphere { center: Point3::new(1.0, 1.0, 2.0), radius: 2.0 }, &t));
/// assert!(!sphere_triangle(&Sphere { center: Point3::new(-3.0, -3.0, 0.0), radius: 4.0 }, &t));
/// ```
#[inline]
pub fn sphere_triangle<T: Scalar>(s: &Sphere<T>, t: &Triangle<T>) -> bool {
    if !(t.is_finite() && clash_math::point_is_finite(&s.center) && s.radius.finite())
        || s.radius < T::ZERO
    {
        return false;
    }
    let q = closest_on_triangle(&s.center, &t.a, &t.b, &t.c);
    (q - s.center).norm_squared() <= s.radius * s.radius
}
