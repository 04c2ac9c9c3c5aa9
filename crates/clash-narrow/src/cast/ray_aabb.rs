use super::{RayHit, inside_hit, valid_query};
use clash_bv::Aabb;
use clash_math::{Ray, Scalar, Vector3};

/// The parameter interval `[t_enter, t_exit]` (clipped to `[t_min, t_max]`)
/// in which `ray` is inside the closed box, by the slab method of
/// RTCD §5.3.3, and the axis (0..3) whose slab produced `t_enter` (3 when
/// `t_enter = t_min`).
///
/// A direction component of zero is handled exactly (the ray is in the slab
/// for all `t` or for none). The exit parameter of each slab is moved out by
/// `4 ε |t|` (Ize, "Robust BVH Ray Traversal", 2013), so a ray that hits
/// a triangle inside the box is never rejected by the box through rounding;
/// the enter parameter is exact up to one rounding. Returns `None` on a miss
/// or non-finite input.
pub fn ray_aabb_interval<T: Scalar>(
    ray: &Ray<T>,
    aabb: &Aabb<T>,
    t_min: T,
    t_max: T,
) -> Option<(T, T, usize)> {
    if !valid_query(ray, t_min, t_max)
        || !clash_math::point_is_finite(&aabb.min)
        || !clash_math::point_is_finite(&aabb.max)
    {
        return None;
    }
    let grow = T::lit(4.0) * T::EPSILON;
    let mut t0 = t_min;
    let mut t1 = t_max;
    let mut axis = 3;
    for i in 0..3 {
        let (o, d, lo, hi) = (ray.origin[i], ray.dir[i], aabb.min[i], aabb.max[i]);
        if d == T::ZERO {
            if o < lo || o > hi {
                return None;
            }
            continue;
        }
        let inv = T::ONE / d;
        let mut a = (lo - o) * inv;
        let mut b = (hi - o) * inv;
        if a > b {
            core::mem::swap(&mut a, &mut b);
        }
        b += b.abs() * grow;
        if a > t0 {
            t0 = a;
            axis = i;
        }
        if b < t1 {
            t1 = b;
        }
        if !(t0 <= t1) {
            return None;
        }
    }
    Some((t0, t1, axis))
}

/// First hit of `ray` on the solid box `aabb` in `[t_min, t_max]`
/// (slab test, RTCD §5.3.3). The normal is the outward normal of the face
/// entered; a ray starting inside hits at `t_min` with a zero normal.
pub fn ray_aabb<T: Scalar>(ray: &Ray<T>, aabb: &Aabb<T>, t_min: T, t_max: T) -> Option<RayHit<T>> {
    let (t, _, axis) = ray_aabb_interval(ray, aabb, t_min, t_max)?;
    if axis == 3 {
        return Some(inside_hit(ray, t_min));
    }
    let mut normal = Vector3::zeros();
    normal[axis] = if ray.dir[axis] > T::ZERO {
        -T::ONE
    } else {
        T::ONE
    };
    Some(RayHit {
        t,
        point: ray.at(t),
        normal,
    })
}
