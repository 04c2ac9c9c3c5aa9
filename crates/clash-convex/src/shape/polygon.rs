//! [`SegmentShape`] and [`TriangleShape`]: flat shapes given by their corners.

use crate::error::{ShapeError, check_point, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Segment, Triangle, Vector3};
use serde::{Deserialize, Serialize};

/// A segment between two points of the local frame; with a margin, a
/// capsule with free end points (a swept sphere). Named apart from
/// [`clash_math::Segment`], the primitive it wraps.
///
/// ```
/// use clash_convex::{SegmentShape, SupportMap};
/// use clash_math::{Point3, Vector3};
/// let s = SegmentShape::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0))?;
/// assert_eq!(s.support_point(&Vector3::x()), Point3::new(1.0, 0.0, 0.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "SegmentParams<T>",
    into = "SegmentParams<T>"
)]
pub struct SegmentShape<T: Scalar> {
    a: Point3<T>,
    b: Point3<T>,
    margin: T,
}

/// A triangle given by its corners in the local frame; with a margin, a
/// swept-sphere triangle. Named apart from [`clash_math::Triangle`].
///
/// ```
/// use clash_convex::{SupportMap, TriangleShape};
/// use clash_math::{Point3, Vector3};
/// let t = TriangleShape::new(Point3::new(0.0_f64, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0))?;
/// assert_eq!(t.support_point(&Vector3::new(-1.0, 2.0, 0.0)), Point3::new(0.0, 1.0, 0.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "TriangleParams<T>",
    into = "TriangleParams<T>"
)]
pub struct TriangleShape<T: Scalar> {
    a: Point3<T>,
    b: Point3<T>,
    c: Point3<T>,
    margin: T,
}

/// The serialized form of a [`SegmentShape`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct SegmentParams<T: Scalar> {
    a: Point3<T>,
    b: Point3<T>,
    #[serde(default)]
    margin: T,
}

/// The serialized form of a [`TriangleShape`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct TriangleParams<T: Scalar> {
    a: Point3<T>,
    b: Point3<T>,
    c: Point3<T>,
    #[serde(default)]
    margin: T,
}

impl<T: Scalar> TryFrom<SegmentParams<T>> for SegmentShape<T> {
    type Error = ShapeError;
    fn try_from(p: SegmentParams<T>) -> Result<Self, ShapeError> {
        Self::new(p.a, p.b)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<SegmentShape<T>> for SegmentParams<T> {
    fn from(s: SegmentShape<T>) -> Self {
        Self {
            a: s.a,
            b: s.b,
            margin: s.margin,
        }
    }
}

impl<T: Scalar> TryFrom<TriangleParams<T>> for TriangleShape<T> {
    type Error = ShapeError;
    fn try_from(p: TriangleParams<T>) -> Result<Self, ShapeError> {
        Self::new(p.a, p.b, p.c)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<TriangleShape<T>> for TriangleParams<T> {
    fn from(t: TriangleShape<T>) -> Self {
        Self {
            a: t.a,
            b: t.b,
            c: t.c,
            margin: t.margin,
        }
    }
}

impl<T: Scalar> SegmentShape<T> {
    /// The segment from `a` to `b` (finite; equal points make a point).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`].
    pub fn new(a: Point3<T>, b: Point3<T>) -> Result<Self, ShapeError> {
        Ok(Self {
            a: check_point(a, "segment end")?,
            b: check_point(b, "segment end")?,
            margin: T::ZERO,
        })
    }

    /// The same segment grown by `margin`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(self, margin: T) -> Result<Self, ShapeError> {
        Ok(Self {
            margin: check_size(margin, "margin")?,
            ..self
        })
    }

    /// The segment, in the local frame.
    pub fn segment(&self) -> Segment<T> {
        Segment::new(self.a, self.b)
    }
}

impl<T: Scalar> TriangleShape<T> {
    /// The triangle with corners `a`, `b`, `c` (finite; degenerate
    /// triangles are valid).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`].
    pub fn new(a: Point3<T>, b: Point3<T>, c: Point3<T>) -> Result<Self, ShapeError> {
        Ok(Self {
            a: check_point(a, "triangle corner")?,
            b: check_point(b, "triangle corner")?,
            c: check_point(c, "triangle corner")?,
            margin: T::ZERO,
        })
    }

    /// The same triangle grown by `margin`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(self, margin: T) -> Result<Self, ShapeError> {
        Ok(Self {
            margin: check_size(margin, "margin")?,
            ..self
        })
    }

    /// The triangle, in the local frame.
    pub fn triangle(&self) -> Triangle<T> {
        Triangle::new(self.a, self.b, self.c)
    }
}

impl<T: Scalar> SupportMap<T> for SegmentShape<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        if d.dot(&self.a.coords) >= d.dot(&self.b.coords) {
            self.a
        } else {
            self.b
        }
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        nalgebra_center(&[self.a, self.b])
    }
    #[inline]
    fn extent(&self) -> T {
        self.a.coords.norm().max_of(self.b.coords.norm())
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Segment(self))
    }
}

impl<T: Scalar> SupportMap<T> for TriangleShape<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let (da, db, dc) = (
            d.dot(&self.a.coords),
            d.dot(&self.b.coords),
            d.dot(&self.c.coords),
        );
        if da >= db && da >= dc {
            self.a
        } else if db >= dc {
            self.b
        } else {
            self.c
        }
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        nalgebra_center(&[self.a, self.b, self.c])
    }
    #[inline]
    fn extent(&self) -> T {
        self.a
            .coords
            .norm()
            .max_of(self.b.coords.norm())
            .max_of(self.c.coords.norm())
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Triangle(self))
    }
}

/// The average of a few points.
#[inline]
fn nalgebra_center<T: Scalar>(points: &[Point3<T>]) -> Point3<T> {
    let mut s = Vector3::zeros();
    for p in points {
        s += p.coords;
    }
    Point3::from(s / T::lit(points.len() as f64))
}
