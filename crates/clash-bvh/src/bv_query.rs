//! [`BvQuery`]: conservative ray and point bounds for the volumes of a tree,
//! the pruning tests of ray, closest-point and shape queries.

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop, Obb, Rss, Sphere};
use clash_math::{Point3, Ray, Scalar};
use clash_narrow::cast::ray_aabb_interval;
use clash_narrow::closest::point_aabb;

/// Conservative bounds of a volume against a ray and a point.
///
/// The defaults go through the volume's (padded) bounding box
/// [`BoundingVolume::aabb`]; AABBs, OBBs and spheres use their own shape.
pub trait BvQuery<T: Scalar>: BoundingVolume<T> {
    /// A parameter `t` in `[t_min, t_max]` no greater than that of any point of
    /// the volume on the ray, or `None` when the ray certainly misses the
    /// volume within the interval.
    #[inline]
    fn ray_entry(&self, ray: &Ray<T>, t_min: T, t_max: T) -> Option<T> {
        ray_aabb_interval(ray, &self.aabb(), t_min, t_max).map(|(t, _, _)| t)
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
    #[inline]
    fn ray_entry(&self, ray: &Ray<T>, t_min: T, t_max: T) -> Option<T> {
        ray_aabb_interval(ray, self, t_min, t_max).map(|(t, _, _)| t)
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
    fn ray_entry(&self, ray: &Ray<T>, t_min: T, t_max: T) -> Option<T> {
        let rt = self.axes.transpose();
        let local = Ray::new(Point3::from(rt * (ray.origin - self.center)), rt * ray.dir);
        let pad = (self.half_extents.max() + self.center.coords.amax() + ray.origin.coords.amax()) * T::EPSILON * T::lit(8.0);
        let h = self.half_extents.add_scalar(pad);
        ray_aabb_interval(&local, &Aabb { min: Point3::from(-h), max: Point3::from(h) }, t_min, t_max).map(|(t, _, _)| t)
    }
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        let d = self.axes.tr_mul(&(p - self.center));
        let pad = (self.half_extents.max() + self.center.coords.amax() + p.coords.amax()) * T::EPSILON * T::lit(8.0);
        let out = (d.abs() - self.half_extents).map(|x| (x - pad).max_of(T::ZERO));
        out.norm_squared()
    }
}

impl<T: Scalar> BvQuery<T> for Sphere<T> {
    #[inline]
    fn point_distance_squared_lower_bound(&self, p: &Point3<T>) -> T {
        let pad = (self.radius + self.center.coords.amax() + p.coords.amax()) * T::EPSILON * T::lit(8.0);
        let d = ((p - self.center).norm() - self.radius - pad).max_of(T::ZERO);
        d * d
    }
}

impl<T: Scalar> BvQuery<T> for Capsule<T> {}
impl<T: Scalar> BvQuery<T> for Rss<T> {}
impl<T: Scalar, const N: usize> BvQuery<T> for Kdop<T, N> where Kdop<T, N>: BoundingVolume<T> {}
