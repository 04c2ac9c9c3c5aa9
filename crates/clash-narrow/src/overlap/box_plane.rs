//! Box/plane overlap for AABBs and OBBs (RTCD §5.2.3).

use clash_bv::{Aabb, Obb};
use clash_math::{Plane, Scalar};

/// `true` when the closed box `b` meets the plane `p` (the plane itself): the
/// centre's signed distance is at most the box's projection radius
/// `Σ e_i |n_i|` in absolute value. Floating point; can err only within
/// rounding of touching. `false` for non-finite input or a box with
/// `min > max`.
///
/// RTCD §5.2.3.
///
/// ```
/// use clash_bv::Aabb;
/// use clash_math::{Plane, Point3, Vector3};
/// use clash_narrow::overlap::aabb_plane;
/// let b = Aabb { min: Point3::new(0.0, 0.0, 0.0), max: Point3::new(1.0, 1.0, 1.0) };
/// assert!(aabb_plane(&b, &Plane { normal: Vector3::z(), offset: 1.0 }));
/// assert!(!aabb_plane(&b, &Plane { normal: Vector3::z(), offset: 1.5 }));
/// ```
#[inline]
pub fn aabb_plane<T: Scalar>(b: &Aabb<T>, p: &Plane<T>) -> bool {
    let c = nalgebra_center(b);
    let e = (b.max - b.min) * T::HALF;
    if !(e.x >= T::ZERO && e.y >= T::ZERO && e.z >= T::ZERO) {
        return false;
    }
    let r = e.x * p.normal.x.abs() + e.y * p.normal.y.abs() + e.z * p.normal.z.abs();
    let s = p.normal.dot(&c.coords) - p.offset;
    r.finite() && s.finite() && s.abs() <= r
}

#[inline(always)]
fn nalgebra_center<T: Scalar>(b: &Aabb<T>) -> clash_math::Point3<T> {
    clash_math::Point3::from((b.min.coords + b.max.coords) * T::HALF)
}

/// `true` when the closed oriented box `b` meets the plane `p`: as
/// [`aabb_plane`] with the projection radius `Σ h_i |n · axis_i|`. Axes are
/// assumed orthonormal. `false` for non-finite input or a negative
/// half-extent.
///
/// RTCD §5.2.3.
///
/// ```
/// use clash_bv::Obb;
/// use clash_math::{Matrix3, Plane, Point3, Vector3};
/// use clash_narrow::overlap::obb_plane;
/// let b = Obb { center: Point3::origin(), axes: Matrix3::identity(), half_extents: Vector3::new(1.0, 1.0, 1.0) };
/// assert!(obb_plane(&b, &Plane { normal: Vector3::z(), offset: 1.0 }));
/// assert!(!obb_plane(&b, &Plane { normal: Vector3::z(), offset: -1.25 }));
/// ```
#[inline]
pub fn obb_plane<T: Scalar>(b: &Obb<T>, p: &Plane<T>) -> bool {
    if !b.half_extents.iter().all(|h| *h >= T::ZERO) {
        return false;
    }
    let mut r = T::ZERO;
    for k in 0..3 {
        r += b.half_extents[k] * p.normal.dot(&b.axes.column(k)).abs();
    }
    let s = p.normal.dot(&b.center.coords) - p.offset;
    r.finite() && s.finite() && s.abs() <= r
}
