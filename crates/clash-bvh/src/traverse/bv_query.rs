//! [`BvQuery`]: conservative ray and point bounds for the volumes of a tree,
//! the pruning tests of ray, closest-point and shape queries.

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop, Obb, Rss, Sphere};
use clash_math::{Point3, Ray, Scalar, Vector3};
use clash_narrow::cast::ray_aabb_interval;
use clash_narrow::closest::point_aabb;

/// A ray with its reciprocal direction computed once, for slab tests
/// against many boxes (Williams et al., "An efficient and robust ray-box
/// intersection algorithm", 2005; RTCD §5.3.3).
#[derive(Debug, Clone, Copy)]
pub struct PreparedRay<T: Scalar> {
    /// The ray.
    pub ray: Ray<T>,
    inv: Vector3<T>,
    zero: [bool; 3],
}

impl<T: Scalar> PreparedRay<T> {
    /// Precomputes `1 / dir` per axis.
    #[inline]
    pub fn new(ray: &Ray<T>) -> Self {
        let zero = [
            ray.dir.x == T::ZERO,
            ray.dir.y == T::ZERO,
            ray.dir.z == T::ZERO,
        ];
        let inv = ray
            .dir
            .map(|d| if d == T::ZERO { T::ZERO } else { T::ONE / d });
        Self {
            ray: *ray,
            inv,
            zero,
        }
    }

    /// The reciprocal direction (0 on a zero axis) and which axes are zero.
    #[inline(always)]
    pub(crate) fn parts(&self) -> (Vector3<T>, [bool; 3]) {
        (self.inv, self.zero)
    }

    /// Slab test against the closed box `[min, max]`: the entry parameter
    /// within `[t_min, t_max]`, or `None` on a miss. Each exit parameter is
    /// moved out by `2γ₃ |t|` (Ize, "Robust BVH ray traversal", 2013), which
    /// covers the rounding of the reciprocal, the difference and the product,
    /// so a ray that meets the box in exact arithmetic is never rejected.
    #[inline(always)]
    pub fn slab(&self, min: &Point3<T>, max: &Point3<T>, t_min: T, t_max: T) -> Option<T> {
        let gamma2 = T::EPSILON * T::lit(3.0);
        let mut t0 = t_min;
        let mut t1 = t_max;
        for k in 0..3 {
            let o = self.ray.origin[k];
            if self.zero[k] {
                if o < min[k] || o > max[k] {
                    return None;
                }
                continue;
            }
            let a = (min[k] - o) * self.inv[k];
            let b = (max[k] - o) * self.inv[k];
            let (near, far) = if self.inv[k] >= T::ZERO {
                (a, b)
            } else {
                (b, a)
            };
            let far = far + far.abs() * gamma2;
            t0 = t0.max_of(near);
            t1 = t1.min_of(far);
        }
        (t0 <= t1).then_some(t0)
    }
}

/// Conservative bounds of a volume against a ray and a point.
///
/// The defaults go through the volume's (padded) bounding box
/// [`BoundingVolume::aabb`]; AABBs, OBBs and spheres use their own shape.
pub trait BvQuery<T: Scalar>: BoundingVolume<T> {
    /// A parameter `t` in `[t_min, t_max]` no greater than that of any point of
    /// the volume on the ray, or `None` when the ray certainly misses the
    /// volume within the interval.
    #[inline]
    fn ray_entry(&self, ray: &PreparedRay<T>, t_min: T, t_max: T) -> Option<T> {
        let b = self.aabb();
        ray.slab(&b.min, &b.max, t_min, t_max)
    }

    /// A lower bound on the squared distance from `p` to the volume.
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        aabb_point_distance_squared(&self.aabb(), p)
    }
}

#[inline]
fn aabb_point_distance_squared<T: Scalar>(b: &Aabb<T>, p: &Point3<T>) -> T {
    (point_aabb(p, b) - p).norm_squared()
}

impl<T: Scalar> BvQuery<T> for Aabb<T> {
    #[inline(always)]
    fn ray_entry(&self, ray: &PreparedRay<T>, t_min: T, t_max: T) -> Option<T> {
        ray.slab(&self.min, &self.max, t_min, t_max)
    }
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        aabb_point_distance_squared(self, p)
    }
}

impl<T: Scalar> BvQuery<T> for Obb<T> {
    /// The ray in the box's frame against the box grown by a few ulps of its
    /// size and distance from the origin, so rounding in the change of frame
    /// cannot reject a ray that touches the box.
    #[inline]
    fn ray_entry(&self, ray: &PreparedRay<T>, t_min: T, t_max: T) -> Option<T> {
        let ray = &ray.ray;
        let rt = self.axes.transpose();
        let local = Ray::new(Point3::from(rt * (ray.origin - self.center)), rt * ray.dir);
        let pad = (self.half_extents.max() + self.center.coords.amax() + ray.origin.coords.amax())
            * T::EPSILON
            * T::lit(8.0);
        let h = self.half_extents.add_scalar(pad);
        ray_aabb_interval(
            &local,
            &Aabb {
                min: Point3::from(-h),
                max: Point3::from(h),
            },
            t_min,
            t_max,
        )
        .map(|(t, _, _)| t)
    }
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        let d = self.axes.tr_mul(&(p - self.center));
        let pad = (self.half_extents.max() + self.center.coords.amax() + p.coords.amax())
            * T::EPSILON
            * T::lit(8.0);
        let out = (d.abs() - self.half_extents).map(|x| (x - pad).max_of(T::ZERO));
        out.norm_squared()
    }
}

impl<T: Scalar> BvQuery<T> for Sphere<T> {
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        let pad =
            (self.radius + self.center.coords.amax() + p.coords.amax()) * T::EPSILON * T::lit(8.0);
        let d = ((p - self.center).norm() - self.radius - pad).max_of(T::ZERO);
        d * d
    }
}

impl<T: Scalar> BvQuery<T> for Capsule<T> {}
impl<T: Scalar> BvQuery<T> for Rss<T> {}
impl<T: Scalar, const N: usize> BvQuery<T> for Kdop<T, N> where Kdop<T, N>: BoundingVolume<T> {}
