use super::{RayHit, inside_hit, valid_query};
use clash_math::{Ray, Scalar, Segment, Vector3};

/// A solid finite cylinder: the points within `radius` of the line through
/// `segment` and between the planes through its end points perpendicular to
/// it (flat end caps).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cylinder<T: Scalar> {
    /// Axis from the centre of one cap to the centre of the other.
    pub segment: Segment<T>,
    /// Radius.
    pub radius: T,
}

/// First hit of `ray` on the solid `cylinder` in `[t_min, t_max]`,
/// RTCD §5.3.7.
///
/// The cylinder is intersected as a convex set: the parameter interval
/// inside the slab between the cap planes is intersected with the interval
/// inside the infinite cylinder (a quadratic in the components of the ray
/// perpendicular to the axis, solved about its point of closest approach to
/// the axis). The entering constraint gives the normal (cap or side).
/// A zero-length axis is an empty cylinder (always `None`).
pub fn ray_cylinder<T: Scalar>(
    ray: &Ray<T>,
    cylinder: &Cylinder<T>,
    t_min: T,
    t_max: T,
) -> Option<RayHit<T>> {
    let Cylinder { segment, radius } = *cylinder;
    if !valid_query(ray, t_min, t_max)
        || !clash_math::point_is_finite(&segment.a)
        || !clash_math::point_is_finite(&segment.b)
        || !radius.finite()
    {
        return None;
    }
    let n = segment.b - segment.a;
    let nn = n.norm_squared();
    if nn == T::ZERO {
        return None;
    }
    let m = ray.origin - segment.a;
    let md = m.dot(&n);
    let nd = ray.dir.dot(&n);
    let axis_unit = n / nn.sqrt();
    // Slab between the caps.
    let (mut enter, mut exit, mut enter_normal);
    if nd == T::ZERO {
        if md < T::ZERO || md > nn {
            return None;
        }
        enter = T::NEG_INFINITY;
        exit = T::INFINITY;
        enter_normal = Vector3::zeros();
    } else {
        let ta = -md / nd;
        let tb = (nn - md) / nd;
        if nd > T::ZERO {
            enter = ta;
            exit = tb;
            enter_normal = -axis_unit;
        } else {
            enter = tb;
            exit = ta;
            enter_normal = axis_unit;
        }
    }
    // Infinite cylinder, in the components perpendicular to the axis.
    let m_perp = m - n * (md / nn);
    let d_perp = ray.dir - n * (nd / nn);
    let a = d_perp.norm_squared();
    let r2 = radius * radius;
    let mut side_enter = T::NEG_INFINITY;
    if a == T::ZERO {
        if m_perp.norm_squared() > r2 {
            return None;
        }
    } else {
        let tc = -m_perp.dot(&d_perp) / a;
        let h2 = r2 - (m_perp + d_perp * tc).norm_squared();
        if h2 < T::ZERO {
            return None;
        }
        let half = (h2 / a).sqrt();
        side_enter = tc - half;
        exit = exit.min_of(tc + half);
    }
    if side_enter > enter {
        enter = side_enter;
        enter_normal = Vector3::zeros();
    }
    if enter > exit || exit < t_min || enter > t_max {
        return None;
    }
    if enter < t_min {
        return Some(inside_hit(ray, t_min));
    }
    let point = ray.at(enter);
    if enter_normal == Vector3::zeros() {
        let w = point - segment.a;
        enter_normal = (w - n * (w.dot(&n) / nn))
            .try_normalize(T::ZERO)
            .unwrap_or_else(Vector3::zeros);
    }
    Some(RayHit {
        t: enter,
        point,
        normal: enter_normal,
    })
}
