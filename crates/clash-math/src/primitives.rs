//! Geometric primitives: [`Ray`], [`Segment`], [`Plane`], [`Triangle`], [`Tetrahedron`].
//!
//! They are plain `Copy` structs with public fields, as in RTCD ch. 3; methods
//! compute derived quantities and never allocate.

use crate::Scalar;
use nalgebra::{Isometry3, Point3, Vector3};
use serde::{Deserialize, Serialize};

/// A half-line `origin + t * dir` for `t >= 0`. `dir` need not be unit length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Ray<T: Scalar> {
    /// Start point.
    pub origin: Point3<T>,
    /// Direction (not necessarily normalised; `t` is measured in multiples of it).
    pub dir: Vector3<T>,
}

impl<T: Scalar> Ray<T> {
    /// A ray from `origin` along `dir`.
    pub fn new(origin: Point3<T>, dir: Vector3<T>) -> Self {
        Self { origin, dir }
    }
    /// The point at parameter `t`.
    #[inline]
    pub fn at(&self, t: T) -> Point3<T> {
        self.origin + self.dir * t
    }
    /// The ray moved by a rigid transform.
    pub fn transformed(&self, iso: &Isometry3<T>) -> Self {
        Self {
            origin: iso * self.origin,
            dir: iso * self.dir,
        }
    }
}

/// The closed line segment from `a` to `b`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Segment<T: Scalar> {
    /// First end point (`t = 0`).
    pub a: Point3<T>,
    /// Second end point (`t = 1`).
    pub b: Point3<T>,
}

impl<T: Scalar> Segment<T> {
    /// The segment from `a` to `b`.
    pub fn new(a: Point3<T>, b: Point3<T>) -> Self {
        Self { a, b }
    }
    /// `b - a`.
    #[inline]
    pub fn direction(&self) -> Vector3<T> {
        self.b - self.a
    }
    /// Length `|b - a|`.
    pub fn length(&self) -> T {
        self.direction().norm()
    }
    /// The point `a + t (b - a)`.
    #[inline]
    pub fn at(&self, t: T) -> Point3<T> {
        self.a + self.direction() * t
    }
    /// Midpoint.
    pub fn midpoint(&self) -> Point3<T> {
        nalgebra::center(&self.a, &self.b)
    }
    /// The segment moved by a rigid transform.
    pub fn transformed(&self, iso: &Isometry3<T>) -> Self {
        Self {
            a: iso * self.a,
            b: iso * self.b,
        }
    }
}

/// The plane `{ x : normal · x = offset }`, with `normal` of unit length.
///
/// The positive half-space is the side `normal` points to.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Plane<T: Scalar> {
    /// Unit normal.
    pub normal: Vector3<T>,
    /// Signed distance of the plane from the origin along `normal`.
    pub offset: T,
}

impl<T: Scalar> Plane<T> {
    /// A plane from a normal (normalised here) and a point on it; `None` when
    /// the normal is zero or not finite.
    pub fn from_normal_and_point(normal: Vector3<T>, point: &Point3<T>) -> Option<Self> {
        let n = normal.try_normalize(T::ZERO)?;
        if !(n.x.finite() && n.y.finite() && n.z.finite()) {
            return None;
        }
        Some(Self {
            normal: n,
            offset: n.dot(&point.coords),
        })
    }
    /// The plane through three points, oriented so that `a, b, c` run
    /// counter-clockwise seen from the positive side (RTCD §3.6).
    /// `None` when the points are collinear (or coincide).
    pub fn from_points(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>) -> Option<Self> {
        Self::from_normal_and_point((b - a).cross(&(c - a)), a)
    }
    /// Signed distance of `p` from the plane (positive on the normal's side).
    #[inline]
    pub fn signed_distance(&self, p: &Point3<T>) -> T {
        self.normal.dot(&p.coords) - self.offset
    }
    /// The orthogonal projection of `p` onto the plane.
    pub fn project(&self, p: &Point3<T>) -> Point3<T> {
        p - self.normal * self.signed_distance(p)
    }
    /// The plane moved by a rigid transform.
    pub fn transformed(&self, iso: &Isometry3<T>) -> Self {
        let n = iso.rotation * self.normal;
        let p = iso * Point3::from(self.normal * self.offset);
        Self {
            normal: n,
            offset: n.dot(&p.coords),
        }
    }
}

/// The closed triangle with corners `a`, `b`, `c`.
///
/// Degenerate triangles (collinear or coincident corners) are valid values;
/// every test in clash treats them as the segment or point they are.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Triangle<T: Scalar> {
    /// First corner.
    pub a: Point3<T>,
    /// Second corner.
    pub b: Point3<T>,
    /// Third corner.
    pub c: Point3<T>,
}

impl<T: Scalar> Triangle<T> {
    /// The triangle `a, b, c`.
    pub fn new(a: Point3<T>, b: Point3<T>, c: Point3<T>) -> Self {
        Self { a, b, c }
    }
    /// The three corners as an array.
    #[inline]
    pub fn vertices(&self) -> [Point3<T>; 3] {
        [self.a, self.b, self.c]
    }
    /// `(b - a) × (c - a)`: normal scaled by twice the area (counter-clockwise winding).
    #[inline]
    pub fn scaled_normal(&self) -> Vector3<T> {
        (self.b - self.a).cross(&(self.c - self.a))
    }
    /// Unit normal, `None` for a degenerate triangle.
    pub fn normal(&self) -> Option<Vector3<T>> {
        self.scaled_normal().try_normalize(T::ZERO)
    }
    /// Area.
    pub fn area(&self) -> T {
        self.scaled_normal().norm() * T::HALF
    }
    /// Centroid `(a + b + c) / 3`.
    pub fn centroid(&self) -> Point3<T> {
        Point3::from((self.a.coords + self.b.coords + self.c.coords) / T::lit(3.0))
    }
    /// `true` when the corners are collinear or coincide, decided exactly
    /// (by the exact sign of the cross product's components, see
    /// [`crate::predicates::collinear3`]), so no rounding hides a sliver.
    pub fn is_degenerate(&self) -> bool {
        crate::predicates::collinear3(&self.a, &self.b, &self.c)
    }
    /// The point with barycentric coordinates `(1 - v - w, v, w)`.
    pub fn at_barycentric(&self, v: T, w: T) -> Point3<T> {
        self.a + (self.b - self.a) * v + (self.c - self.a) * w
    }
    /// The edges `ab`, `bc`, `ca` as segments.
    pub fn edges(&self) -> [Segment<T>; 3] {
        [
            Segment::new(self.a, self.b),
            Segment::new(self.b, self.c),
            Segment::new(self.c, self.a),
        ]
    }
    /// The triangle moved by a rigid transform.
    pub fn transformed(&self, iso: &Isometry3<T>) -> Self {
        Self {
            a: iso * self.a,
            b: iso * self.b,
            c: iso * self.c,
        }
    }
    /// `true` when every coordinate is finite.
    pub fn is_finite(&self) -> bool {
        crate::point_is_finite(&self.a)
            && crate::point_is_finite(&self.b)
            && crate::point_is_finite(&self.c)
    }
}

/// The closed tetrahedron with corners `a`, `b`, `c`, `d`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub struct Tetrahedron<T: Scalar> {
    /// First corner.
    pub a: Point3<T>,
    /// Second corner.
    pub b: Point3<T>,
    /// Third corner.
    pub c: Point3<T>,
    /// Fourth corner.
    pub d: Point3<T>,
}

impl<T: Scalar> Tetrahedron<T> {
    /// The tetrahedron `a, b, c, d`.
    pub fn new(a: Point3<T>, b: Point3<T>, c: Point3<T>, d: Point3<T>) -> Self {
        Self { a, b, c, d }
    }
    /// The four corners as an array.
    pub fn vertices(&self) -> [Point3<T>; 4] {
        [self.a, self.b, self.c, self.d]
    }
    /// Signed volume `((b-a) × (c-a)) · (d-a) / 6`; positive when `d` lies on
    /// the side of `abc` that its counter-clockwise normal points to.
    pub fn signed_volume(&self) -> T {
        (self.b - self.a)
            .cross(&(self.c - self.a))
            .dot(&(self.d - self.a))
            / T::lit(6.0)
    }
    /// Volume (absolute value of [`Self::signed_volume`]).
    pub fn volume(&self) -> T {
        self.signed_volume().abs()
    }
    /// The four faces, each wound so its normal points outwards when the
    /// signed volume is positive.
    pub fn faces(&self) -> [Triangle<T>; 4] {
        let [a, b, c, d] = self.vertices();
        [
            Triangle::new(a, c, b),
            Triangle::new(a, b, d),
            Triangle::new(a, d, c),
            Triangle::new(b, c, d),
        ]
    }
    /// Centroid.
    pub fn centroid(&self) -> Point3<T> {
        Point3::from((self.a.coords + self.b.coords + self.c.coords + self.d.coords) * T::lit(0.25))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plane_from_points_orientation_and_distance() {
        let p = Plane::from_points(
            &Point3::new(0.0_f64, 0.0, 1.0),
            &Point3::new(1.0, 0.0, 1.0),
            &Point3::new(0.0, 1.0, 1.0),
        )
        .unwrap();
        assert_eq!(p.normal, Vector3::z());
        assert_eq!(p.offset, 1.0);
        assert_eq!(p.signed_distance(&Point3::new(3.0, -2.0, 4.0)), 3.0);
        assert!(
            Plane::from_points(
                &Point3::origin(),
                &Point3::new(1.0, 1.0, 1.0),
                &Point3::new(2.0, 2.0, 2.0)
            )
            .is_none()
        );
    }

    #[test]
    fn plane_transform_keeps_points_on_plane() {
        let p = Plane::from_points(
            &Point3::new(1.0_f64, 2.0, 3.0),
            &Point3::new(2.0, 2.0, 5.0),
            &Point3::new(0.0, 4.0, 3.0),
        )
        .unwrap();
        let iso = Isometry3::new(Vector3::new(0.5, -1.0, 2.0), Vector3::new(0.3, 0.2, -0.7));
        let q = p.transformed(&iso);
        for x in [Point3::new(1.0, 2.0, 3.0), Point3::new(2.0, 2.0, 5.0)] {
            assert!(q.signed_distance(&(iso * x)).abs() < 1e-12);
        }
    }

    #[test]
    fn triangle_measures_and_degeneracy() {
        let t = Triangle::new(
            Point3::new(0.0_f32, 0.0, 0.0),
            Point3::new(2.0, 0.0, 0.0),
            Point3::new(0.0, 2.0, 0.0),
        );
        assert_eq!(t.area(), 2.0);
        assert_eq!(t.normal().unwrap(), Vector3::z());
        assert!(!t.is_degenerate());
        let seg = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 1.0, 1.0),
            Point3::new(3.0, 3.0, 3.0),
        );
        assert!(seg.is_degenerate());
        assert!(seg.normal().is_none());
        // A sliver whose cross product is tiny but non-zero is not degenerate.
        let sliver = Triangle::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.5, 1e-300, 0.0),
        );
        assert!(!sliver.is_degenerate());
    }

    #[test]
    fn tetrahedron_volume() {
        let t = Tetrahedron::new(
            Point3::new(0.0_f64, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(0.0, 0.0, 1.0),
        );
        assert!((t.signed_volume() - 1.0 / 6.0).abs() < 1e-15);
        for f in t.faces() {
            // every face's outward normal points away from the centroid
            let n = f.scaled_normal();
            assert!(n.dot(&(t.centroid() - f.a)) < 0.0);
        }
    }
}
