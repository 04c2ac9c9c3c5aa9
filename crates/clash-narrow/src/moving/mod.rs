//! Moving (constant-velocity) tests: first time and point of contact
//! (Ericson, RTCD §5.5; Eberly, *Dynamic Collision Detection using Oriented
//! Bounding Boxes*, §2–4).
//!
//! Every test takes the shapes at time 0, their constant velocities and a
//! time horizon `t_end >= 0`; object positions at time `t` are
//! `shape + t * velocity`. The result is the first time `t ∈ [0, t_end]` at
//! which the closed shapes touch, a point common to both at that time, and
//! the unit contact normal pointing from the first shape to the second. When
//! the shapes already overlap at `t = 0` the time is 0 and the normal is zero.
//!
//! Non-finite inputs (any NaN or infinite coordinate, velocity, extent or
//! `t_end`) and a negative `t_end` give `None` (no contact), never a panic.
//!
//! ```
//! use clash_bv::Obb;
//! use clash_math::{Matrix3, Point3, Vector3};
//! use clash_narrow::moving::obb_obb;
//!
//! let unit = |x: f64| Obb { center: Point3::new(x, 0.0, 0.0), axes: Matrix3::identity(), half_extents: Vector3::new(1.0, 1.0, 1.0) };
//! // b approaches a along -x at speed 2: the faces meet when the gap of 3 is closed.
//! let c = obb_obb(&unit(0.0), &Vector3::zeros(), &unit(5.0), &Vector3::new(-2.0, 0.0, 0.0), 10.0).unwrap();
//! assert!((c.time - 1.5).abs() < 1e-12);
//! assert_eq!(c.normal, Vector3::x());
//! assert!((c.point.x - 1.0).abs() < 1e-12);
//! ```

mod aabb_aabb;
mod interval_halving;
mod obb_obb;
mod sat;
mod sphere_aabb;
mod sphere_plane;
mod sphere_sphere;
mod sphere_triangle;
mod triangle_obb;
mod triangle_triangle;

pub use aabb_aabb::aabb_aabb;
pub use interval_halving::{conservative_advancement, interval_halving};
pub use obb_obb::obb_obb;
pub use sphere_aabb::sphere_aabb;
pub use sphere_plane::sphere_plane;
pub use sphere_sphere::sphere_sphere;
pub use sphere_triangle::sphere_triangle;
pub use triangle_obb::triangle_obb;
pub use triangle_triangle::triangle_triangle;

use clash_math::{Point3, Scalar, Vector3};

/// First contact of two moving shapes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Contact<T: Scalar> {
    /// First time of contact, in `[0, t_end]`.
    pub time: T,
    /// A point common to both shapes at `time` (up to rounding).
    pub point: Point3<T>,
    /// Unit normal from the first shape towards the second at `time`; zero
    /// when the shapes overlap at time 0.
    pub normal: Vector3<T>,
}

#[inline]
pub(crate) fn vfinite<T: Scalar>(v: &Vector3<T>) -> bool {
    v.x.finite() && v.y.finite() && v.z.finite()
}

#[inline]
pub(crate) fn pfinite<T: Scalar>(p: &Point3<T>) -> bool {
    clash_math::point_is_finite(p)
}

#[inline]
pub(crate) fn valid_horizon<T: Scalar>(t_end: T) -> bool {
    t_end.finite() && t_end >= T::ZERO
}
