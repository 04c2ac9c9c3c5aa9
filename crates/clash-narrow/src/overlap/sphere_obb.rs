//! Sphere/OBB overlap (RTCD §5.2.6).

use clash_bv::{Obb, Sphere};
use clash_math::Scalar;

/// `true` when the closed ball `s` meets the closed oriented box `b`: the
/// centre is expressed in the box frame (`u_i = axis_i · (c - center)`), its
/// distance to the box `[-h, h]` is accumulated per axis as in Arvo's method
/// and compared with `r²`. Axes are assumed orthonormal. Floating point; can
/// err only within rounding of touching. `false` for non-finite input, a
/// negative radius or a negative half-extent.
///
/// RTCD §5.2.6 (closest point on OBB, §5.1.4).
///
/// ```
/// use clash_bv::{Obb, Sphere};
/// use clash_math::{Matrix3, Point3, Vector3};
/// use clash_narrow::overlap::sphere_obb;
/// let b = Obb { center: Point3::origin(), axes: Matrix3::identity(), half_extents: Vector3::new(1.0, 2.0, 3.0) };
/// assert!(sphere_obb(&Sphere { center: Point3::new(0.0, 3.0, 0.0), radius: 1.0 }, &b));
/// assert!(!sphere_obb(&Sphere { center: Point3::new(2.0, 3.0, 0.0), radius: 1.0 }, &b));
/// ```
#[inline]
pub fn sphere_obb<T: Scalar>(s: &Sphere<T>, b: &Obb<T>) -> bool {
    let finite = clash_math::point_is_finite(&s.center)
        && clash_math::point_is_finite(&b.center)
        && b.half_extents.iter().all(|h| h.finite())
        && b.axes.iter().all(|x| x.finite())
        && s.radius.finite();
    if !finite {
        return false;
    }
    if !(s.radius >= T::ZERO && b.half_extents.iter().all(|h| *h >= T::ZERO)) {
        return false; // also rejects NaN radius/extents
    }
    let d = s.center - b.center;
    let mut d2 = T::ZERO;
    for k in 0..3 {
        let u = b.axes.column(k).dot(&d);
        let h = b.half_extents[k];
        let e = if u > h {
            u - h
        } else if u < -h {
            -h - u
        } else {
            T::ZERO
        };
        d2 += e * e;
    }
    let r2 = s.radius * s.radius;
    // Overflow to infinity is rejected too.
    d2.finite() && r2.finite() && d2 <= r2
}
