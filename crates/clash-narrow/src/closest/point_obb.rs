use clash_bv::Obb;
use clash_math::{Point3, Scalar};

/// The point of the (solid) oriented box `obb` closest to `p`: the local
/// coordinates of `p` clamped to the half-extents (`p` itself when inside).
///
/// `obb.axes` must have orthonormal columns. Ericson, RTCD §5.1.4.
#[inline]
pub fn point_obb<T: Scalar>(p: &Point3<T>, obb: &Obb<T>) -> Point3<T> {
    let d = p - obb.center;
    let mut q = obb.center;
    for i in 0..3 {
        let axis = obb.axes.column(i);
        let e = obb.half_extents[i];
        let dist = axis.dot(&d).max_of(-e).min_of(e);
        q += axis * dist;
    }
    q
}
