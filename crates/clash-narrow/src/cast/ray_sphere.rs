use super::{RayHit, inside_hit, valid_query};
use clash_bv::Sphere;
use clash_math::{Ray, Scalar};

/// First hit of `ray` on the solid ball `sphere` in `[t_min, t_max]`,
/// RTCD §5.3.2 (the quadratic `|o + t d - c|² = r²`).
///
/// The quadratic is solved about the point of the ray closest to the centre,
/// which avoids the cancellation of the textbook formula for distant origins.
/// A zero direction hits only when the origin is inside.
pub fn ray_sphere<T: Scalar>(
    ray: &Ray<T>,
    sphere: &Sphere<T>,
    t_min: T,
    t_max: T,
) -> Option<RayHit<T>> {
    if !valid_query(ray, t_min, t_max)
        || !clash_math::point_is_finite(&sphere.center)
        || !sphere.radius.finite()
    {
        return None;
    }
    let r2 = sphere.radius * sphere.radius;
    let start = ray.at(t_min);
    if (start - sphere.center).norm_squared() <= r2 {
        return Some(inside_hit(ray, t_min));
    }
    let dd = ray.dir.norm_squared();
    if dd == T::ZERO {
        return None;
    }
    let m = ray.origin - sphere.center;
    // t_c: parameter of the ray point closest to the centre.
    let tc = -m.dot(&ray.dir) / dd;
    let closest = m + ray.dir * tc;
    let h2 = r2 - closest.norm_squared();
    if h2 < T::ZERO {
        return None;
    }
    let t = tc - (h2 / dd).sqrt();
    if !(t >= t_min && t <= t_max) {
        return None;
    }
    let point = ray.at(t);
    let normal = (point - sphere.center)
        .try_normalize(T::ZERO)
        .unwrap_or_else(|| -ray.dir / dd.sqrt());
    Some(RayHit { t, point, normal })
}
