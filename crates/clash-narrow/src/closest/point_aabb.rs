use clash_bv::Aabb;
use clash_math::{Point3, Scalar};

/// The point of the (solid) box `aabb` closest to `p`: `p` clamped to the box
/// (`p` itself when it is inside). Ericson, RTCD §5.1.3.
#[inline]
pub fn point_aabb<T: Scalar>(p: &Point3<T>, aabb: &Aabb<T>) -> Point3<T> {
    Point3::new(
        p.x.max_of(aabb.min.x).min_of(aabb.max.x),
        p.y.max_of(aabb.min.y).min_of(aabb.max.y),
        p.z.max_of(aabb.min.z).min_of(aabb.max.z),
    )
}
