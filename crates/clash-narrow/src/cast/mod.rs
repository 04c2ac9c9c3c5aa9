//! Ray and segment casts (Ericson, RTCD §5.3).
//!
//! Every cast takes a [`Ray`] `origin + t dir` and a parameter interval
//! `[t_min, t_max]`; a segment `a → b` is the ray `a + t (b - a)` on
//! `[0, 1]` (see [`segment_ray`]). `dir` need not be unit length: `t` is in
//! multiples of `dir`. The result is the first hit in the interval.
//!
//! Solid shapes (sphere, boxes, cylinder, capsule, polyhedron) are solid: a
//! ray whose point at `t_min` is inside reports a hit at `t = t_min` with a
//! zero `normal`. Otherwise `normal` is the unit outward normal of the
//! surface at the hit.
//!
//! Non-finite inputs (any NaN or infinite coordinate in the ray, the shape or
//! the interval bounds other than `t_max = +∞`) return `None`, never panic.
//!
//! ```
//! use clash_math::{Point3, Ray, Triangle, Vector3};
//! use clash_narrow::cast::{Culling, ray_triangle};
//!
//! let t = Triangle::new(Point3::new(0.0_f32, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
//! let ray = Ray::new(Point3::new(0.25, 0.25, 2.0), -Vector3::z());
//! let hit = ray_triangle(&ray, &t, Culling::FrontOnly, 0.0, f32::INFINITY).unwrap();
//! assert_eq!((hit.t, hit.u, hit.v, hit.w), (2.0, 0.5, 0.25, 0.25));
//! assert!(hit.front);
//! ```

mod ray_aabb;
mod ray_capsule;
mod ray_cylinder;
mod ray_obb;
mod ray_plane;
mod ray_polyhedron;
mod ray_sphere;
mod ray_triangle;

pub use ray_aabb::{ray_aabb, ray_aabb_interval};
pub use ray_capsule::ray_capsule;
pub use ray_cylinder::{Cylinder, ray_cylinder};
pub use ray_obb::ray_obb;
pub use ray_plane::ray_plane;
pub use ray_polyhedron::ray_convex_polyhedron;
pub use ray_sphere::ray_sphere;
pub use ray_triangle::{BarycentricHit, Culling, ShearedRay, TriangleHit, ray_triangle};

use clash_math::{Point3, Ray, Scalar, Segment, Vector3};

/// A ray hit: parameter, point and surface normal.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayHit<T: Scalar> {
    /// Ray parameter of the hit, in `[t_min, t_max]`.
    pub t: T,
    /// `ray.origin + t ray.dir`.
    pub point: Point3<T>,
    /// Unit outward surface normal at the hit; zero when the ray starts inside
    /// a solid (hit at `t_min`). For a plane, the normal faces the ray origin.
    pub normal: Vector3<T>,
}

/// The ray `seg.a + t (seg.b - seg.a)`: cast it on `[0, 1]` to cast the segment.
#[inline]
pub fn segment_ray<T: Scalar>(seg: &Segment<T>) -> Ray<T> {
    Ray::new(seg.a, seg.b - seg.a)
}

/// `true` when the ray is finite and `t_min <= t_max` with `t_min` finite
/// (`t_max` may be `+∞`).
#[inline]
pub(crate) fn valid_query<T: Scalar>(ray: &Ray<T>, t_min: T, t_max: T) -> bool {
    clash_math::point_is_finite(&ray.origin)
        && ray.dir.x.finite()
        && ray.dir.y.finite()
        && ray.dir.z.finite()
        && t_min.finite()
        && t_min <= t_max
}

#[inline]
pub(crate) fn vec_finite<T: Scalar>(v: &Vector3<T>) -> bool {
    v.x.finite() && v.y.finite() && v.z.finite()
}

/// A hit at `t_min` from inside a solid.
#[inline]
pub(crate) fn inside_hit<T: Scalar>(ray: &Ray<T>, t_min: T) -> RayHit<T> {
    RayHit {
        t: t_min,
        point: ray.at(t_min),
        normal: Vector3::zeros(),
    }
}
