//! [`Ball`]: a solid sphere about the local origin.

use crate::error::{ShapeError, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// A ball of `radius` about the local origin. Its core is the origin and
/// its margin `radius + margin`, so every query on balls is exact.
///
/// ```
/// use clash_convex::Ball;
/// let b = Ball::new(0.5_f64)?;
/// assert_eq!(b.radius(), 0.5);
/// assert!(Ball::new(-1.0_f64).is_err());
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "BallParams<T>",
    into = "BallParams<T>"
)]
pub struct Ball<T: Scalar> {
    radius: T,
    margin: T,
}

/// The serialized form of a [`Ball`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct BallParams<T: Scalar> {
    radius: T,
    #[serde(default)]
    margin: T,
}

impl<T: Scalar> TryFrom<BallParams<T>> for Ball<T> {
    type Error = ShapeError;
    fn try_from(p: BallParams<T>) -> Result<Self, ShapeError> {
        Self::new(p.radius)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<Ball<T>> for BallParams<T> {
    fn from(b: Ball<T>) -> Self {
        Self {
            radius: b.radius,
            margin: b.margin,
        }
    }
}

impl<T: Scalar> Ball<T> {
    /// A ball of `radius` (finite, not negative; 0 is a point).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn new(radius: T) -> Result<Self, ShapeError> {
        Ok(Self {
            radius: check_size(radius, "radius")?,
            margin: T::ZERO,
        })
    }

    /// The same ball grown by `margin` (finite, not negative).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(self, margin: T) -> Result<Self, ShapeError> {
        Ok(Self {
            margin: check_size(margin, "margin")?,
            ..self
        })
    }

    /// The radius given at construction (without the margin).
    pub fn radius(&self) -> T {
        self.radius
    }
}

impl<T: Scalar> SupportMap<T> for Ball<T> {
    #[inline]
    fn support_point(&self, _dir: &Vector3<T>) -> Point3<T> {
        Point3::origin()
    }
    #[inline]
    fn margin(&self) -> T {
        self.radius + self.margin
    }
    #[inline]
    fn extent(&self) -> T {
        T::ZERO
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Ball(self))
    }
}
