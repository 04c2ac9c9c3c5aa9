//! The few box operations the broad phase needs (RTCD §4.2, §5.3.3, §6.5.1),
//! kept private so that the broad phase depends only on [`Aabb`]'s fields.
use crate::BroadPhaseError;
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};

/// The smallest box containing both (RTCD §6.5.1).
#[inline]
pub(crate) fn union<T: Scalar>(a: &Aabb<T>, b: &Aabb<T>) -> Aabb<T> {
    Aabb {
        min: Point3::new(
            a.min.x.min_of(b.min.x),
            a.min.y.min_of(b.min.y),
            a.min.z.min_of(b.min.z),
        ),
        max: Point3::new(
            a.max.x.max_of(b.max.x),
            a.max.y.max_of(b.max.y),
            a.max.z.max_of(b.max.z),
        ),
    }
}

/// Closed boxes overlap when their intervals overlap on every axis (RTCD §4.2.1).
#[inline]
pub(crate) fn overlaps<T: Scalar>(a: &Aabb<T>, b: &Aabb<T>) -> bool {
    a.min.x <= b.max.x
        && b.min.x <= a.max.x
        && a.min.y <= b.max.y
        && b.min.y <= a.max.y
        && a.min.z <= b.max.z
        && b.min.z <= a.max.z
}

/// [`overlaps`] with a single branch: `lo <= hi` exactly when the sign of
/// `(hi - lo) + 0` is clear (for finite values: the difference of distinct
/// values is never zero, and `+ 0` turns the `-0` of `-0 - +0` into `+0`),
/// so the six comparisons become six sign bits ORed together. Box tests in
/// traversals are unpredictable; one branch per test instead of up to six
/// saves many mispredictions. For finite boxes only.
#[inline(always)]
pub(crate) fn overlaps_finite<T: Scalar>(a: &Aabb<T>, b: &Aabb<T>) -> bool {
    let gap = |lo: T, hi: T| ((hi - lo) + T::ZERO).is_sign_negative();
    !(gap(a.min.x, b.max.x)
        | gap(b.min.x, a.max.x)
        | gap(a.min.y, b.max.y)
        | gap(b.min.y, a.max.y)
        | gap(a.min.z, b.max.z)
        | gap(b.min.z, a.max.z))
}

/// `inner` lies inside `outer` (boundaries included).
#[inline]
pub(crate) fn contains<T: Scalar>(outer: &Aabb<T>, inner: &Aabb<T>) -> bool {
    outer.min.x <= inner.min.x
        && outer.min.y <= inner.min.y
        && outer.min.z <= inner.min.z
        && inner.max.x <= outer.max.x
        && inner.max.y <= outer.max.y
        && inner.max.z <= outer.max.z
}

/// The closed box contains the point.
#[inline]
pub(crate) fn contains_point<T: Scalar>(b: &Aabb<T>, p: &Point3<T>) -> bool {
    b.min.x <= p.x
        && p.x <= b.max.x
        && b.min.y <= p.y
        && p.y <= b.max.y
        && b.min.z <= p.z
        && p.z <= b.max.z
}

/// Surface area `2 (xy + yz + zx)`, the SAH cost measure (RTCD §6.2.3.1).
#[inline]
pub(crate) fn surface_area<T: Scalar>(b: &Aabb<T>) -> T {
    let d = b.max - b.min;
    T::TWO * (d.x * d.y + d.y * d.z + d.z * d.x)
}

/// Refuses non-finite and inverted boxes.
pub(crate) fn check_aabb<T: Scalar>(b: &Aabb<T>) -> Result<(), BroadPhaseError> {
    for k in 0..3 {
        if !b.min[k].finite() || !b.max[k].finite() {
            return Err(BroadPhaseError::NonFinite { what: "aabb" });
        }
    }
    for k in 0..3 {
        if b.min[k] > b.max[k] {
            return Err(BroadPhaseError::InvertedAabb { axis: k });
        }
    }
    Ok(())
}

/// Refuses a non-finite vector.
pub(crate) fn check_vector<T: Scalar>(
    v: &Vector3<T>,
    what: &'static str,
) -> Result<(), BroadPhaseError> {
    if v.x.finite() && v.y.finite() && v.z.finite() {
        Ok(())
    } else {
        Err(BroadPhaseError::NonFinite { what })
    }
}

/// Refuses a ray with a non-finite origin or direction, or a negative or NaN length.
pub(crate) fn check_ray<T: Scalar>(ray: &Ray<T>, max_t: T) -> Result<(), BroadPhaseError> {
    check_vector(&ray.origin.coords, "ray")?;
    check_vector(&ray.dir, "ray")?;
    if max_t >= T::ZERO {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidParameter { what: "max_t" })
    }
}

/// The fat box of `b`: enlarged by `margin` on every side, then stretched by
/// `prediction * displacement` in the direction of motion, so that an object
/// moving steadily stays inside its fat box for several steps.
#[inline]
pub(crate) fn fatten<T: Scalar>(
    b: &Aabb<T>,
    margin: T,
    displacement: &Vector3<T>,
    prediction: T,
) -> Aabb<T> {
    let m = Vector3::new(margin, margin, margin);
    let mut f = Aabb {
        min: b.min - m,
        max: b.max + m,
    };
    for k in 0..3 {
        let d = displacement[k] * prediction;
        if d < T::ZERO {
            f.min[k] += d;
        } else {
            f.max[k] += d;
        }
    }
    f
}

/// A ray prepared for repeated slab tests: origin and per-axis reciprocal direction.
#[derive(Clone, Copy)]
pub(crate) struct RaySlab<T: Scalar> {
    origin: Point3<T>,
    inv: [T; 3],
    parallel: [bool; 3],
    max_t: T,
}

impl<T: Scalar> RaySlab<T> {
    pub(crate) fn new(ray: &Ray<T>, max_t: T) -> Self {
        let parallel = [
            ray.dir.x == T::ZERO,
            ray.dir.y == T::ZERO,
            ray.dir.z == T::ZERO,
        ];
        let inv = core::array::from_fn(|k| {
            if parallel[k] {
                T::ZERO
            } else {
                T::ONE / ray.dir[k]
            }
        });
        Self {
            origin: ray.origin,
            inv,
            parallel,
            max_t,
        }
    }

    /// Slab test (RTCD §5.3.3): the smallest `t` in `[0, max_t]` at which the
    /// ray is inside the closed box, or `None` when it misses it in that range.
    #[inline]
    pub(crate) fn entry(&self, b: &Aabb<T>) -> Option<T> {
        let mut t_min = T::ZERO;
        let mut t_max = self.max_t;
        for k in 0..3 {
            if self.parallel[k] {
                if self.origin[k] < b.min[k] || self.origin[k] > b.max[k] {
                    return None;
                }
            } else {
                let t1 = (b.min[k] - self.origin[k]) * self.inv[k];
                let t2 = (b.max[k] - self.origin[k]) * self.inv[k];
                let (near, far) = if t1 <= t2 { (t1, t2) } else { (t2, t1) };
                t_min = t_min.max_of(near);
                t_max = t_max.min_of(far);
                if t_min > t_max {
                    return None;
                }
            }
        }
        Some(t_min)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bx(a: [f64; 3], b: [f64; 3]) -> Aabb<f64> {
        Aabb {
            min: Point3::from(a),
            max: Point3::from(b),
        }
    }

    #[test]
    fn union_overlap_contains() {
        let a = bx([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let b = bx([1.0, 0.5, -1.0], [2.0, 3.0, 0.0]);
        let u = union(&a, &b);
        assert_eq!(u, bx([0.0, 0.0, -1.0], [2.0, 3.0, 1.0]));
        assert!(overlaps(&a, &b), "touching boxes overlap");
        assert!(contains(&u, &a) && contains(&u, &b) && !contains(&a, &u));
        assert!(!overlaps(&a, &bx([1.1, 0.0, 0.0], [2.0, 1.0, 1.0])));
        assert_eq!(surface_area(&a), 6.0);
        assert!(contains_point(&a, &Point3::new(1.0, 0.0, 0.5)));
    }

    #[test]
    fn fatten_stretches_along_motion() {
        let a = bx([0.0, 0.0, 0.0], [1.0, 1.0, 1.0]);
        let f = fatten(&a, 0.1, &Vector3::new(1.0, -2.0, 0.0), 2.0);
        assert_eq!(f, bx([-0.1, -4.1, -0.1], [3.1, 1.1, 1.1]));
    }

    #[test]
    fn slab_entry() {
        let b = bx([1.0, -1.0, -1.0], [2.0, 1.0, 1.0]);
        let r = RaySlab::new(
            &Ray::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(2.0, 0.0, 0.0)),
            10.0,
        );
        assert_eq!(r.entry(&b), Some(0.5));
        let short = RaySlab::new(
            &Ray::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(2.0, 0.0, 0.0)),
            0.4,
        );
        assert_eq!(short.entry(&b), None);
        let inside = RaySlab::new(
            &Ray::new(Point3::new(1.5, 0.0, 0.0), Vector3::new(0.0, 1.0, 0.0)),
            1.0,
        );
        assert_eq!(inside.entry(&b), Some(0.0));
        let parallel_miss = RaySlab::new(
            &Ray::new(Point3::new(0.0, 2.0, 0.0), Vector3::new(1.0, 0.0, 0.0)),
            10.0,
        );
        assert_eq!(parallel_miss.entry(&b), None);
        assert_eq!(
            check_aabb(&bx([0.0, 1.0, 0.0], [1.0, 0.0, 1.0])),
            Err(BroadPhaseError::InvertedAabb { axis: 1 })
        );
        assert!(check_aabb(&bx([f64::NAN, 0.0, 0.0], [1.0, 1.0, 1.0])).is_err());
    }
}
