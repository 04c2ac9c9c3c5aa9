//! Sphere/AABB overlap: Arvo's squared-distance accumulation (RTCD §5.2.5,
//! RTR §16.13) and its early-out variant (RTR §16.13).

use clash_bv::{Aabb, Sphere};
use clash_math::Scalar;

#[inline(always)]
fn finite_inputs<T: Scalar>(s: &Sphere<T>, b: &Aabb<T>) -> bool {
    clash_math::point_is_finite(&s.center)
        && s.radius.finite()
        && clash_math::point_is_finite(&b.min)
        && clash_math::point_is_finite(&b.max)
}

#[inline(always)]
fn valid<T: Scalar>(s: &Sphere<T>, b: &Aabb<T>) -> bool {
    s.radius >= T::ZERO && b.min.x <= b.max.x && b.min.y <= b.max.y && b.min.z <= b.max.z
}

/// `true` when the closed ball `s` meets the closed box `b`: Arvo's method,
/// the squared distance from the centre to the box (summed per axis over the
/// axes where the centre lies outside the slab) compared with `r²`.
/// Floating point; can err only within rounding of touching. `false` for
/// non-finite input, a negative radius or a box with `min > max`.
///
/// RTR §16.13 (Arvo), RTCD §5.2.5.
///
/// ```
/// use clash_bv::{Aabb, Sphere};
/// use clash_math::Point3;
/// use clash_narrow::overlap::sphere_aabb;
/// let b = Aabb { min: Point3::new(0.0, 0.0, 0.0), max: Point3::new(1.0, 1.0, 1.0) };
/// assert!(sphere_aabb(&Sphere { center: Point3::new(2.0, 2.0, 0.5), radius: 1.5 }, &b));
/// assert!(!sphere_aabb(&Sphere { center: Point3::new(2.0, 2.0, 0.5), radius: 1.4 }, &b));
/// ```
#[inline]
pub fn sphere_aabb<T: Scalar>(s: &Sphere<T>, b: &Aabb<T>) -> bool {
    if !(finite_inputs(s, b) && valid(s, b)) {
        return false;
    }
    let mut d2 = T::ZERO;
    for k in 0..3 {
        let c = s.center[k];
        let e = if c < b.min[k] {
            b.min[k] - c
        } else if c > b.max[k] {
            c - b.max[k]
        } else {
            T::ZERO
        };
        d2 += e * e;
    }
    d2 <= s.radius * s.radius
}

/// Same contract as [`sphere_aabb`], written as RTR §16.13's early-out
/// variant: each axis first rejects on its own (`centre` farther than `r`
/// outside the slab), and the running squared distance is compared with `r²`
/// after every axis, so clearly disjoint pairs return after one or two axes.
///
/// RTR §16.13.
///
/// ```
/// use clash_bv::{Aabb, Sphere};
/// use clash_math::Point3;
/// use clash_narrow::overlap::sphere_aabb_early_out;
/// let b = Aabb { min: Point3::new(0.0, 0.0, 0.0), max: Point3::new(1.0, 1.0, 1.0) };
/// assert!(sphere_aabb_early_out(&Sphere { center: Point3::new(0.5, 0.5, 1.9), radius: 1.0 }, &b));
/// assert!(!sphere_aabb_early_out(&Sphere { center: Point3::new(9.0, 0.5, 0.5), radius: 1.0 }, &b));
/// ```
#[inline]
pub fn sphere_aabb_early_out<T: Scalar>(s: &Sphere<T>, b: &Aabb<T>) -> bool {
    if !(finite_inputs(s, b) && valid(s, b)) {
        return false;
    }
    let r = s.radius;
    let r2 = r * r;
    let mut d2 = T::ZERO;
    for k in 0..3 {
        let c = s.center[k];
        if c < b.min[k] {
            let e = b.min[k] - c;
            if e > r {
                return false;
            }
            d2 += e * e;
        } else if c > b.max[k] {
            let e = c - b.max[k];
            if e > r {
                return false;
            }
            d2 += e * e;
        }
        if d2 > r2 {
            return false;
        }
    }
    true
}
