use clash_math::{Plane, Point3, Scalar};

/// The point of `plane` closest to `p` (its orthogonal projection), and the
/// signed distance of `p` from the plane (positive on the normal's side).
///
/// `plane.normal` must be unit length, as [`Plane`] requires.
/// Ericson, RTCD §5.1.1.
#[inline]
pub fn point_plane<T: Scalar>(p: &Point3<T>, plane: &Plane<T>) -> (Point3<T>, T) {
    let d = plane.normal.dot(&p.coords) - plane.offset;
    (p - plane.normal * d, d)
}
