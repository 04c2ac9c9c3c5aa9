use super::{RayHit, valid_query, vec_finite};
use clash_math::{Plane, Ray, Scalar};

/// First crossing of `ray` with `plane` in `[t_min, t_max]`, RTCD §5.3.1.
///
/// The plane is a surface (not a half-space): a ray parallel to it misses,
/// even when it lies in it. The normal is `plane.normal` flipped to face the
/// ray's origin.
pub fn ray_plane<T: Scalar>(
    ray: &Ray<T>,
    plane: &Plane<T>,
    t_min: T,
    t_max: T,
) -> Option<RayHit<T>> {
    if !valid_query(ray, t_min, t_max) || !vec_finite(&plane.normal) || !plane.offset.finite() {
        return None;
    }
    let denom = plane.normal.dot(&ray.dir);
    if denom == T::ZERO {
        return None;
    }
    let t = (plane.offset - plane.normal.dot(&ray.origin.coords)) / denom;
    if !(t >= t_min && t <= t_max) {
        return None;
    }
    let normal = if denom < T::ZERO {
        plane.normal
    } else {
        -plane.normal
    };
    Some(RayHit {
        t,
        point: ray.at(t),
        normal,
    })
}
