//! [`CapsuleShape`]: a segment along the local z axis grown by a radius.

use crate::error::{ShapeError, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Segment, Vector3};
use serde::{Deserialize, Serialize};

/// A capsule: the points within `radius` of the segment from
/// `(0, 0, -half_height)` to `(0, 0, half_height)` (the local z axis, as
/// URDF cylinders). Its core is that segment and its margin
/// `radius + margin`. Named apart from [`clash_bv::Capsule`], the bounding
/// volume with free end points.
///
/// ```
/// use clash_convex::CapsuleShape;
/// let c = CapsuleShape::new(1.0_f64, 0.25)?;
/// assert_eq!((c.half_height(), c.radius()), (1.0, 0.25));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "CapsuleParams<T>",
    into = "CapsuleParams<T>"
)]
pub struct CapsuleShape<T: Scalar> {
    half_height: T,
    radius: T,
    margin: T,
}

/// The serialized form of a [`CapsuleShape`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct CapsuleParams<T: Scalar> {
    half_height: T,
    radius: T,
    #[serde(default)]
    margin: T,
}

impl<T: Scalar> TryFrom<CapsuleParams<T>> for CapsuleShape<T> {
    type Error = ShapeError;
    fn try_from(p: CapsuleParams<T>) -> Result<Self, ShapeError> {
        Self::new(p.half_height, p.radius)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<CapsuleShape<T>> for CapsuleParams<T> {
    fn from(c: CapsuleShape<T>) -> Self {
        Self {
            half_height: c.half_height,
            radius: c.radius,
            margin: c.margin,
        }
    }
}

impl<T: Scalar> CapsuleShape<T> {
    /// A capsule whose axis runs from `-half_height` to `half_height` on the
    /// local z axis, of `radius` (both finite, not negative).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn new(half_height: T, radius: T) -> Result<Self, ShapeError> {
        Ok(Self {
            half_height: check_size(half_height, "half-height")?,
            radius: check_size(radius, "radius")?,
            margin: T::ZERO,
        })
    }

    /// The same capsule grown by `margin`.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(self, margin: T) -> Result<Self, ShapeError> {
        Ok(Self {
            margin: check_size(margin, "margin")?,
            ..self
        })
    }

    /// Half the length of the axis.
    pub fn half_height(&self) -> T {
        self.half_height
    }

    /// The radius given at construction (without the margin).
    pub fn radius(&self) -> T {
        self.radius
    }

    /// The core segment, in the local frame.
    pub fn segment(&self) -> Segment<T> {
        Segment::new(
            Point3::new(T::ZERO, T::ZERO, -self.half_height),
            Point3::new(T::ZERO, T::ZERO, self.half_height),
        )
    }
}

impl<T: Scalar> SupportMap<T> for CapsuleShape<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let z = if d.z >= T::ZERO {
            self.half_height
        } else {
            -self.half_height
        };
        Point3::new(T::ZERO, T::ZERO, z)
    }
    #[inline]
    fn margin(&self) -> T {
        self.radius + self.margin
    }
    #[inline]
    fn extent(&self) -> T {
        self.half_height
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Capsule(self))
    }
}
