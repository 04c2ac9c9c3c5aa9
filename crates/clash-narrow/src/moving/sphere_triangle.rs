use super::{Contact, pfinite, valid_horizon, vfinite};
use crate::cast::{Culling, ray_capsule, ray_triangle};
use crate::closest::point_triangle;
use clash_bv::{Capsule, Sphere};
use clash_math::{Ray, Scalar, Triangle, Vector3};

/// First contact of a sphere moving with velocity `v` and a static triangle
/// during `[0, t_end]` (RTCD §5.5.6). The centre's path is cast as a ray
/// against the triangle grown by the radius (its Minkowski sum with the
/// ball): the union of the three edge capsules and the two copies of the
/// triangle offset by `±radius` along its normal. The point is the
/// triangle's closest point to the centre at the contact time; the normal
/// points from the sphere to the triangle. Degenerate triangles work (the
/// capsules cover them).
pub fn sphere_triangle<T: Scalar>(
    s: &Sphere<T>,
    v: &Vector3<T>,
    tri: &Triangle<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !pfinite(&s.center)
        || !s.radius.finite()
        || !vfinite(v)
        || !tri.is_finite()
        || !valid_horizon(t_end)
    {
        return None;
    }
    let q0 = point_triangle(&s.center, tri).point;
    if (q0 - s.center).norm_squared() <= s.radius * s.radius {
        return Some(Contact {
            time: T::ZERO,
            point: q0,
            normal: Vector3::zeros(),
        });
    }
    let ray = Ray::new(s.center, *v);
    let mut best = T::INFINITY;
    for e in tri.edges() {
        if let Some(h) = ray_capsule(
            &ray,
            &Capsule {
                segment: e,
                radius: s.radius,
            },
            T::ZERO,
            t_end,
        ) {
            best = best.min_of(h.t);
        }
    }
    if let Some(n) = tri.normal() {
        for off in [n * s.radius, -n * s.radius] {
            let t = Triangle::new(tri.a + off, tri.b + off, tri.c + off);
            if let Some(h) = ray_triangle(&ray, &t, Culling::BothSides, T::ZERO, t_end) {
                best = best.min_of(h.t);
            }
        }
    }
    if !(best <= t_end) {
        return None;
    }
    let c = s.center + v * best;
    let point = point_triangle(&c, tri).point;
    let normal = (point - c)
        .try_normalize(T::ZERO)
        .unwrap_or_else(Vector3::zeros);
    Some(Contact {
        time: best,
        point,
        normal,
    })
}
