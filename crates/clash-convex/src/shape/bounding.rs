//! Bounding volumes of any shape under a pose: [`aabb`], [`obb`] and
//! [`bounding_sphere`], as clash-bv types.
//!
//! Each contains the whole shape (core and margin), padded by a few units
//! in the last place of the coordinates so that rounding in the pose cannot
//! leave a point of the shape outside.
//!
//! ```
//! use clash_convex::{Cuboid, shape::bounding};
//! use clash_math::{Isometry3, Vector3};
//! let b = Cuboid::new(Vector3::new(1.0_f64, 2.0, 3.0))?;
//! let pose = Isometry3::translation(10.0, 0.0, 0.0);
//! let aabb = bounding::aabb(&b, &pose);
//! assert!((aabb.min.x - 9.0).abs() < 1e-12 && (aabb.max.z - 3.0).abs() < 1e-12);
//! let s = bounding::bounding_sphere(&b, &pose);
//! assert!((s.radius - 14f64.sqrt()).abs() < 1e-12);
//! # Ok::<(), clash_convex::ShapeError>(())
//! ```

use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_bv::{Aabb, Obb, Sphere};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Vector3};

/// The rounding allowance for a shape placed by `pose`.
fn pad<T: Scalar, S: SupportMap<T> + ?Sized>(shape: &S, pose: &Isometry3<T>) -> T {
    T::EPSILON
        * T::lit(8.0)
        * (pose.translation.vector.amax()
            + shape.extent()
            + shape.center().coords.amax()
            + shape.margin())
}

/// The axis-aligned box of the shape under `pose`: six support points,
/// exact up to rounding for every shape.
pub fn aabb<T: Scalar, S: SupportMap<T> + ?Sized>(shape: &S, pose: &Isometry3<T>) -> Aabb<T> {
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let t = pose.translation.vector;
    let grow = shape.margin() + pad(shape, pose);
    let mut min = Point3::origin();
    let mut max = Point3::origin();
    for i in 0..3 {
        let d: Vector3<T> = r.row(i).transpose();
        let hi = r.row(i).dot(&shape.support_point(&d).coords.transpose());
        let lo = r.row(i).dot(&shape.support_point(&-d).coords.transpose());
        max[i] = hi + t[i] + grow;
        min[i] = lo + t[i] - grow;
    }
    Aabb::new(min, max)
}

/// A box around the core in the local frame: `(centre, axes, half-extents)`.
fn local_box<T: Scalar, S: SupportMap<T> + ?Sized>(
    shape: &S,
) -> (Point3<T>, Matrix3<T>, Vector3<T>) {
    let id = Matrix3::identity();
    let o = Point3::origin();
    let z = T::ZERO;
    match shape.shape_ref() {
        Some(ShapeRef::Ball(_)) => (o, id, Vector3::zeros()),
        Some(ShapeRef::Cuboid(c)) => (o, id, c.half_extents()),
        Some(ShapeRef::Capsule(c)) => (o, id, Vector3::new(z, z, c.half_height())),
        Some(ShapeRef::Cylinder(c)) => {
            (o, id, Vector3::new(c.radius(), c.radius(), c.half_height()))
        }
        Some(ShapeRef::Cone(c)) => (o, id, Vector3::new(c.radius(), c.radius(), c.half_height())),
        Some(ShapeRef::Segment(s)) => {
            let seg = s.segment();
            let d = seg.b - seg.a;
            let len = d.norm();
            if len > T::ZERO {
                let x = d / len;
                let y = any_orthogonal(&x);
                let axes = Matrix3::from_columns(&[x, y, x.cross(&y)]);
                (seg.midpoint(), axes, Vector3::new(len * T::HALF, z, z))
            } else {
                (seg.a, id, Vector3::zeros())
            }
        }
        Some(ShapeRef::Triangle(t)) => {
            let tri = t.triangle();
            match Obb::fit_tight(&tri.vertices()) {
                Ok(b) => (b.center, b.axes, b.half_extents),
                Err(_) => support_box(shape),
            }
        }
        Some(ShapeRef::ConvexHull(h)) => {
            let b = h.local_obb();
            (b.center, b.axes, b.half_extents)
        }
        None => support_box(shape),
    }
}

/// The local axis-aligned box of the core from six support points.
fn support_box<T: Scalar, S: SupportMap<T> + ?Sized>(
    shape: &S,
) -> (Point3<T>, Matrix3<T>, Vector3<T>) {
    let mut lo = Vector3::zeros();
    let mut hi = Vector3::zeros();
    for i in 0..3 {
        let mut d = Vector3::zeros();
        d[i] = T::ONE;
        hi[i] = shape.support_point(&d)[i];
        lo[i] = shape.support_point(&-d)[i];
    }
    (
        Point3::from((lo + hi) * T::HALF),
        Matrix3::identity(),
        (hi - lo) * T::HALF,
    )
}

/// A unit vector orthogonal to the unit vector `x`.
pub(crate) fn any_orthogonal<T: Scalar>(x: &Vector3<T>) -> Vector3<T> {
    let a = if x.x.abs() <= x.y.abs() && x.x.abs() <= x.z.abs() {
        Vector3::x()
    } else if x.y.abs() <= x.z.abs() {
        Vector3::y()
    } else {
        Vector3::z()
    };
    let y = x.cross(&a);
    y / y.norm()
}

/// An oriented box around the shape under `pose`: the natural box of each
/// primitive (tight for boxes, cylinders, cones and capsules), a fitted box
/// for hulls and triangles, the support box for user shapes.
pub fn obb<T: Scalar, S: SupportMap<T> + ?Sized>(shape: &S, pose: &Isometry3<T>) -> Obb<T> {
    let (c, axes, half) = local_box(shape);
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let grow = shape.margin() + pad(shape, pose) + (half.amax() + c.coords.amax()) * T::EPSILON;
    Obb {
        center: pose * c,
        axes: r * axes,
        half_extents: half.map(|h| h + grow),
    }
}

/// A ball around the shape under `pose` (exact for balls).
pub fn bounding_sphere<T: Scalar, S: SupportMap<T> + ?Sized>(
    shape: &S,
    pose: &Isometry3<T>,
) -> Sphere<T> {
    let o = Point3::origin();
    let (c, r) = match shape.shape_ref() {
        Some(ShapeRef::Ball(_)) => (o, T::ZERO),
        Some(ShapeRef::Cuboid(b)) => (o, b.half_extents().norm()),
        Some(ShapeRef::Capsule(b)) => (o, b.half_height()),
        Some(ShapeRef::Cylinder(b)) => (o, b.extent()),
        Some(ShapeRef::Cone(b)) => (o, b.extent()),
        Some(ShapeRef::Segment(s)) => {
            let seg = s.segment();
            (seg.midpoint(), seg.length() * T::HALF)
        }
        Some(ShapeRef::Triangle(t)) => match Sphere::welzl(&t.triangle().vertices()) {
            Ok(s) => (s.center, s.radius),
            Err(_) => (t.center(), t.extent() + t.center().coords.norm()),
        },
        Some(ShapeRef::ConvexHull(h)) => (h.local_sphere().center, h.local_sphere().radius),
        None => {
            let (c, _, half) = support_box(shape);
            (c, half.norm())
        }
    };
    let grow = pad(shape, pose) + r * T::EPSILON * T::lit(4.0);
    Sphere::new(pose * c, r + shape.margin() + grow)
}
