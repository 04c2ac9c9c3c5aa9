use super::{Contact, pfinite, valid_horizon, vfinite};
use crate::cast::{ray_aabb, ray_capsule};
use crate::closest::point_aabb;
use clash_bv::{Aabb, Capsule, Sphere};
use clash_math::{Point3, Ray, Scalar, Segment, Vector3};

/// First contact of a sphere moving with velocity `v` and a static AABB
/// during `[0, t_end]`, Ericson, RTCD §5.5.7.
///
/// The centre's path is cast against the box grown by the radius (the
/// Minkowski sum, a rounded box), written as the union of the three boxes
/// grown by `r` along
/// each single axis (3 boxes) and the 12 edge capsules of radius `r` (which
/// include the corner spheres). The point is the box's closest point to the
/// centre at the contact time; the normal points from the sphere to the box.
pub fn sphere_aabb<T: Scalar>(
    s: &Sphere<T>,
    v: &Vector3<T>,
    aabb: &Aabb<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !pfinite(&s.center)
        || !s.radius.finite()
        || !vfinite(v)
        || !pfinite(&aabb.min)
        || !pfinite(&aabb.max)
        || !valid_horizon(t_end)
    {
        return None;
    }
    let r = s.radius;
    let q0 = point_aabb(&s.center, aabb);
    if (q0 - s.center).norm_squared() <= r * r {
        return Some(Contact {
            time: T::ZERO,
            point: q0,
            normal: Vector3::zeros(),
        });
    }
    let ray = Ray::new(s.center, *v);
    let mut best = T::INFINITY;
    for i in 0..3 {
        let mut g = *aabb;
        g.min[i] -= r;
        g.max[i] += r;
        if let Some(h) = ray_aabb(&ray, &g, T::ZERO, t_end) {
            best = best.min_of(h.t);
        }
    }
    let corner = |k: usize| {
        Point3::new(
            if k & 1 == 0 { aabb.min.x } else { aabb.max.x },
            if k & 2 == 0 { aabb.min.y } else { aabb.max.y },
            if k & 4 == 0 { aabb.min.z } else { aabb.max.z },
        )
    };
    for k in 0..8 {
        for bit in [1, 2, 4] {
            if k & bit == 0 {
                let cap = Capsule {
                    segment: Segment::new(corner(k), corner(k | bit)),
                    radius: r,
                };
                if let Some(h) = ray_capsule(&ray, &cap, T::ZERO, t_end) {
                    best = best.min_of(h.t);
                }
            }
        }
    }
    if !(best <= t_end) {
        return None;
    }
    let c = s.center + v * best;
    let point = point_aabb(&c, aabb);
    let normal = (point - c)
        .try_normalize(T::ZERO)
        .unwrap_or_else(Vector3::zeros);
    Some(Contact {
        time: best,
        point,
        normal,
    })
}
