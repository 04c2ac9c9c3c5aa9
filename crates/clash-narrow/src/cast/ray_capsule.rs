use super::{Cylinder, RayHit, ray_cylinder, ray_sphere};
use clash_bv::{Capsule, Sphere};
use clash_math::{Ray, Scalar};

/// First hit of `ray` on the solid `capsule` in `[t_min, t_max]`: the
/// earliest of the hits on the two end spheres (RTCD §5.3.2) and on the
/// cylinder around the core segment (RTCD §5.3.7), whose union the capsule is.
/// A ray starting inside hits at `t_min` with a zero normal.
pub fn ray_capsule<T: Scalar>(
    ray: &Ray<T>,
    capsule: &Capsule<T>,
    t_min: T,
    t_max: T,
) -> Option<RayHit<T>> {
    let r = capsule.radius;
    let hits = [
        ray_sphere(
            ray,
            &Sphere {
                center: capsule.segment.a,
                radius: r,
            },
            t_min,
            t_max,
        ),
        ray_sphere(
            ray,
            &Sphere {
                center: capsule.segment.b,
                radius: r,
            },
            t_min,
            t_max,
        ),
        ray_cylinder(
            ray,
            &Cylinder {
                segment: capsule.segment,
                radius: r,
            },
            t_min,
            t_max,
        ),
    ];
    let mut best: Option<RayHit<T>> = None;
    for h in hits.into_iter().flatten() {
        if best.is_none_or(|b| h.t < b.t) {
            best = Some(h);
        }
    }
    best
}
