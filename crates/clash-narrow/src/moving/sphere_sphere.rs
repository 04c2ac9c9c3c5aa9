use super::{Contact, pfinite, valid_horizon, vfinite};
use crate::cast::ray_sphere;
use clash_bv::Sphere;
use clash_math::{Ray, Scalar, Vector3};

/// First contact of two spheres moving with velocities `va`, `vb` during
/// `[0, t_end]`, Ericson, RTCD §5.5.5: the centre of `b` moves relative to
/// `a` along `vb - va`, and is cast as a ray against the sphere of radius
/// `ra + rb` about `a`'s centre. The point divides the centres at the contact
/// time in the ratio of the radii.
pub fn sphere_sphere<T: Scalar>(
    a: &Sphere<T>,
    va: &Vector3<T>,
    b: &Sphere<T>,
    vb: &Vector3<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !pfinite(&a.center)
        || !pfinite(&b.center)
        || !a.radius.finite()
        || !b.radius.finite()
        || !vfinite(va)
        || !vfinite(vb)
        || !valid_horizon(t_end)
    {
        return None;
    }
    let sum = Sphere {
        center: a.center,
        radius: a.radius + b.radius,
    };
    let hit = ray_sphere(&Ray::new(b.center, vb - va), &sum, T::ZERO, t_end)?;
    let (ca, cb) = (a.center + va * hit.t, b.center + vb * hit.t);
    let r = a.radius + b.radius;
    let f = if r > T::ZERO { a.radius / r } else { T::HALF };
    let point = ca + (cb - ca) * f;
    let normal = if hit.t == T::ZERO {
        Vector3::zeros()
    } else {
        (cb - ca)
            .try_normalize(T::ZERO)
            .unwrap_or_else(Vector3::zeros)
    };
    Some(Contact {
        time: hit.t,
        point,
        normal,
    })
}
