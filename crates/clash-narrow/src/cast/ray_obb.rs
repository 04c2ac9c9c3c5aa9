use super::{RayHit, ray_aabb, vec_finite};
use clash_bv::{Aabb, Obb};
use clash_math::{Point3, Ray, Scalar};

/// First hit of `ray` on the solid oriented box `obb` in `[t_min, t_max]`:
/// the ray is expressed in the box's frame and cast against the box as an
/// AABB (slab test, RTCD §5.3.3); the normal is rotated back.
/// `obb.axes` must have orthonormal columns.
pub fn ray_obb<T: Scalar>(ray: &Ray<T>, obb: &Obb<T>, t_min: T, t_max: T) -> Option<RayHit<T>> {
    if !vec_finite(&obb.half_extents)
        || !clash_math::point_is_finite(&obb.center)
        || !obb.axes.iter().all(|x| x.finite())
    {
        return None;
    }
    let rt = obb.axes.transpose();
    let local = Ray::new(Point3::from(rt * (ray.origin - obb.center)), rt * ray.dir);
    let h = obb.half_extents;
    let hit = ray_aabb(
        &local,
        &Aabb {
            min: Point3::from(-h),
            max: Point3::from(h),
        },
        t_min,
        t_max,
    )?;
    Some(RayHit {
        t: hit.t,
        point: ray.at(hit.t),
        normal: obb.axes * hit.normal,
    })
}
