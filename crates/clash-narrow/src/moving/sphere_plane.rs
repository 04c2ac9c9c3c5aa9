use super::{Contact, pfinite, valid_horizon, vfinite};
use clash_bv::Sphere;
use clash_math::{Plane, Scalar, Vector3};

/// First contact of a sphere moving with velocity `v` and the (two-sided)
/// plane `plane` during `[0, t_end]`, Ericson, RTCD §5.5.3.
///
/// The sphere touches the plane when its centre's signed distance reaches
/// `±radius`; a sphere already within `radius` of the plane gives time 0 and
/// the centre's projection. The normal points from the sphere to the plane.
pub fn sphere_plane<T: Scalar>(
    s: &Sphere<T>,
    v: &Vector3<T>,
    plane: &Plane<T>,
    t_end: T,
) -> Option<Contact<T>> {
    if !pfinite(&s.center)
        || !s.radius.finite()
        || !vfinite(v)
        || !vfinite(&plane.normal)
        || !plane.offset.finite()
        || !valid_horizon(t_end)
    {
        return None;
    }
    let dist = plane.signed_distance(&s.center);
    if dist.abs() <= s.radius {
        return Some(Contact {
            time: T::ZERO,
            point: s.center - plane.normal * dist,
            normal: Vector3::zeros(),
        });
    }
    let denom = plane.normal.dot(v);
    // Moving parallel to or away from the plane.
    if denom * dist >= T::ZERO {
        return None;
    }
    let side = if dist > T::ZERO { s.radius } else { -s.radius };
    let t = (side - dist) / denom;
    if t > t_end {
        return None;
    }
    let c = s.center + v * t;
    let normal = if dist > T::ZERO {
        -plane.normal
    } else {
        plane.normal
    };
    Some(Contact {
        time: t,
        point: c + normal * s.radius,
        normal,
    })
}
