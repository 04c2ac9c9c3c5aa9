//! Closest points and distances between primitives (Ericson, RTCD §5.1).
//!
//! Every query returns the points, not only the distance. Pairs of shapes
//! return [`ClosestPoints`]: `a` lies on the first shape, `b` on the second
//! and `distance_squared = |a - b|²`. Degenerate inputs (zero-length segments,
//! triangles collapsed to a segment or a point, flat tetrahedra) are valid and
//! are treated as the lower-dimensional set they are.
//!
//! Non-finite inputs propagate NaN into the result; callers that need a
//! defined answer should check [`clash_math::point_is_finite`] first.
//!
//! ```
//! use clash_math::{Point3, Segment, Triangle};
//! use clash_narrow::closest::{point_triangle, segment_segment, triangle_triangle};
//!
//! let t = Triangle::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
//! let q = point_triangle(&Point3::new(0.2, 0.2, 5.0), &t);
//! assert_eq!(q.point, Point3::new(0.2, 0.2, 0.0));
//!
//! let s = segment_segment(
//!     &Segment::new(Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 1.0)),
//!     &Segment::new(Point3::new(0.5, -1.0, 3.0), Point3::new(0.5, 1.0, 3.0)),
//! );
//! assert!((s.points.distance() - 2.0_f64).abs() < 1e-15 && (s.s - 0.5_f64).abs() < 1e-15);
//!
//! let lifted = Triangle::new(t.a + clash_math::Vector3::z(), t.b + clash_math::Vector3::z(), t.c + clash_math::Vector3::z());
//! assert!((triangle_triangle(&t, &lifted).distance() - 1.0_f64).abs() < 1e-15);
//! ```

mod point_aabb;
mod point_obb;
mod point_plane;
mod point_polyhedron;
mod point_segment;
mod point_tetrahedron;
mod point_triangle;
mod segment_segment;
mod segment_triangle;
mod triangle_triangle;

pub use point_aabb::point_aabb;
pub use point_obb::point_obb;
pub use point_plane::point_plane;
pub use point_polyhedron::{ConvexPolyhedron, point_convex_polyhedron};
pub use point_segment::point_segment;
pub use point_tetrahedron::point_tetrahedron;
pub use point_triangle::{TrianglePoint, point_triangle};
pub use segment_segment::{SegmentSegment, segment_segment};
pub use segment_triangle::segment_triangle;
pub use triangle_triangle::{
    triangle_triangle, triangle_triangle_lower_bound, triangle_triangle_lower_bound_until,
};

use clash_math::{Point3, Scalar};

/// A closest pair of points: `a` on the first shape, `b` on the second.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClosestPoints<T: Scalar> {
    /// Point on the first shape.
    pub a: Point3<T>,
    /// Point on the second shape.
    pub b: Point3<T>,
    /// `|a - b|²`.
    pub distance_squared: T,
}

impl<T: Scalar> ClosestPoints<T> {
    /// The pair `(a, b)` with its squared distance computed here.
    #[inline]
    pub fn new(a: Point3<T>, b: Point3<T>) -> Self {
        Self {
            a,
            b,
            distance_squared: (b - a).norm_squared(),
        }
    }
    /// `|a - b|`.
    #[inline]
    pub fn distance(&self) -> T {
        self.distance_squared.sqrt()
    }
    /// The same pair with the roles of the shapes exchanged.
    #[inline]
    pub fn swapped(self) -> Self {
        Self {
            a: self.b,
            b: self.a,
            distance_squared: self.distance_squared,
        }
    }
    /// The pair with the smaller distance (`self` on ties or NaN).
    #[inline]
    pub(crate) fn min(self, other: Self) -> Self {
        if other.distance_squared < self.distance_squared {
            other
        } else {
            self
        }
    }
}
