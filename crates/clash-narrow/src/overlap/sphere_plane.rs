//! Sphere/plane overlap (RTCD §5.2.2).

use clash_bv::Sphere;
use clash_math::{Plane, Scalar};

/// `true` when the closed ball `s` meets the plane `p` (the plane itself, not
/// a half-space): `|n · c - d| <= r`, with the plane's unit normal `n` and
/// offset `d`. Floating point; can err only within rounding of touching.
/// `false` for non-finite input or a negative radius.
///
/// RTCD §5.2.2.
///
/// ```
/// use clash_bv::Sphere;
/// use clash_math::{Plane, Point3, Vector3};
/// use clash_narrow::overlap::sphere_plane;
/// let p = Plane { normal: Vector3::z(), offset: 1.0 };
/// assert!(sphere_plane(&Sphere { center: Point3::new(5.0, 5.0, 3.0), radius: 2.0 }, &p));
/// assert!(!sphere_plane(&Sphere { center: Point3::new(5.0, 5.0, 3.5), radius: 2.0 }, &p));
/// ```
#[inline]
pub fn sphere_plane<T: Scalar>(s: &Sphere<T>, p: &Plane<T>) -> bool {
    let dist = p.normal.dot(&s.center.coords) - p.offset;
    // NaN anywhere makes the comparison false.
    s.radius >= T::ZERO && dist.abs() <= s.radius && s.radius.finite() && dist.finite()
}
