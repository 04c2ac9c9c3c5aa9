//! [`Shape`]: one serde-able type over the built-in shapes, and
//! [`ShapeRef`], a borrowed view the queries dispatch on.

use super::{Ball, Cone, ConvexHull, Cuboid, Cylinder, SegmentShape, TriangleShape};
use crate::shape::CapsuleShape;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Any built-in shape, for collections of mixed shapes (a world, a robot, a
/// file). Hulls are shared behind an [`Arc`]. The queries dispatch on the
/// pair: closed forms where they exist, GJK and EPA otherwise.
///
/// ```
/// use clash_convex::{Ball, Cuboid, Shape, query::{contact, QueryRequest}};
/// use clash_math::{Isometry3, Vector3};
///
/// let shapes: Vec<Shape<f64>> = vec![
///     Ball::new(0.5)?.into(),
///     Cuboid::new(Vector3::new(1.0, 1.0, 1.0))?.into(),
/// ];
/// let c = contact(&shapes[0], &Isometry3::translation(0.0, 0.0, 1.25),
///                 &shapes[1], &Isometry3::identity(), &QueryRequest::default());
/// assert!((c.distance + 0.25).abs() < 1e-12); // 0.25 deep
/// let json = serde_json::to_string(&shapes)?;
/// let back: Vec<Shape<f64>> = serde_json::from_str(&json)?;
/// assert_eq!(back.len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
pub enum Shape<T: Scalar> {
    /// A ball.
    Ball(Ball<T>),
    /// A box.
    Cuboid(Cuboid<T>),
    /// A capsule along the local z axis.
    Capsule(CapsuleShape<T>),
    /// A cylinder along the local z axis.
    Cylinder(Cylinder<T>),
    /// A cone along the local z axis.
    Cone(Cone<T>),
    /// A segment.
    Segment(SegmentShape<T>),
    /// A triangle.
    Triangle(TriangleShape<T>),
    /// A convex hull, shared.
    ConvexHull(Arc<ConvexHull<T>>),
}

/// A borrowed built-in shape: what [`SupportMap::shape_ref`] returns, so
/// that the queries can pick closed forms for pairs of known shapes.
#[derive(Debug, Clone, Copy)]
pub enum ShapeRef<'a, T: Scalar> {
    /// A ball.
    Ball(&'a Ball<T>),
    /// A box.
    Cuboid(&'a Cuboid<T>),
    /// A capsule.
    Capsule(&'a CapsuleShape<T>),
    /// A cylinder.
    Cylinder(&'a Cylinder<T>),
    /// A cone.
    Cone(&'a Cone<T>),
    /// A segment.
    Segment(&'a SegmentShape<T>),
    /// A triangle.
    Triangle(&'a TriangleShape<T>),
    /// A convex hull.
    ConvexHull(&'a ConvexHull<T>),
}

impl<T: Scalar> Shape<T> {
    /// The borrowed view of this shape.
    #[inline]
    pub fn as_ref(&self) -> ShapeRef<'_, T> {
        match self {
            Shape::Ball(s) => ShapeRef::Ball(s),
            Shape::Cuboid(s) => ShapeRef::Cuboid(s),
            Shape::Capsule(s) => ShapeRef::Capsule(s),
            Shape::Cylinder(s) => ShapeRef::Cylinder(s),
            Shape::Cone(s) => ShapeRef::Cone(s),
            Shape::Segment(s) => ShapeRef::Segment(s),
            Shape::Triangle(s) => ShapeRef::Triangle(s),
            Shape::ConvexHull(s) => ShapeRef::ConvexHull(s),
        }
    }
}

macro_rules! dispatch {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            ShapeRef::Ball($s) => $e,
            ShapeRef::Cuboid($s) => $e,
            ShapeRef::Capsule($s) => $e,
            ShapeRef::Cylinder($s) => $e,
            ShapeRef::Cone($s) => $e,
            ShapeRef::Segment($s) => $e,
            ShapeRef::Triangle($s) => $e,
            ShapeRef::ConvexHull($s) => $e,
        }
    };
}

impl<T: Scalar> SupportMap<T> for ShapeRef<'_, T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        dispatch!(self, s => s.support_point(d))
    }
    #[inline]
    fn support_point_hinted(&self, d: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        dispatch!(self, s => s.support_point_hinted(d, hint))
    }
    #[inline]
    fn margin(&self) -> T {
        dispatch!(self, s => s.margin())
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        dispatch!(self, s => s.center())
    }
    #[inline]
    fn extent(&self) -> T {
        dispatch!(self, s => s.extent())
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(*self)
    }
}

macro_rules! dispatch_owned {
    ($self:expr, $s:ident => $e:expr) => {
        match $self {
            Shape::Ball($s) => $e,
            Shape::Cuboid($s) => $e,
            Shape::Capsule($s) => $e,
            Shape::Cylinder($s) => $e,
            Shape::Cone($s) => $e,
            Shape::Segment($s) => $e,
            Shape::Triangle($s) => $e,
            Shape::ConvexHull($s) => $e,
        }
    };
}

impl<T: Scalar> SupportMap<T> for Shape<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        dispatch_owned!(self, s => s.support_point(d))
    }
    #[inline]
    fn support_point_hinted(&self, d: &Vector3<T>, hint: &mut u32) -> Point3<T> {
        dispatch_owned!(self, s => s.support_point_hinted(d, hint))
    }
    #[inline]
    fn margin(&self) -> T {
        dispatch_owned!(self, s => s.margin())
    }
    #[inline]
    fn center(&self) -> Point3<T> {
        dispatch_owned!(self, s => s.center())
    }
    #[inline]
    fn extent(&self) -> T {
        dispatch_owned!(self, s => s.extent())
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(self.as_ref())
    }
}

macro_rules! from_shape {
    ($variant:ident, $ty:ident) => {
        impl<T: Scalar> From<$ty<T>> for Shape<T> {
            fn from(s: $ty<T>) -> Self {
                Shape::$variant(s.into())
            }
        }
    };
}

from_shape!(Ball, Ball);
from_shape!(Cuboid, Cuboid);
from_shape!(Capsule, CapsuleShape);
from_shape!(Cylinder, Cylinder);
from_shape!(Cone, Cone);
from_shape!(Segment, SegmentShape);
from_shape!(Triangle, TriangleShape);
from_shape!(ConvexHull, ConvexHull);

impl<T: Scalar> From<Arc<ConvexHull<T>>> for Shape<T> {
    fn from(s: Arc<ConvexHull<T>>) -> Self {
        Shape::ConvexHull(s)
    }
}
