//! [`Cuboid`]: a box centred on the local origin, aligned with its axes.

use crate::error::{ShapeError, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// A box with the given half-extents along the local axes, centred on the
/// local origin; with a margin, a box with rounded edges and corners.
///
/// ```
/// use clash_convex::{Cuboid, SupportMap};
/// use clash_math::{Point3, Vector3};
/// let b = Cuboid::new(Vector3::new(1.0_f64, 2.0, 3.0))?;
/// assert_eq!(b.support_point(&Vector3::new(1.0, -1.0, 0.5)), Point3::new(1.0, -2.0, 3.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "CuboidParams<T>",
    into = "CuboidParams<T>"
)]
pub struct Cuboid<T: Scalar> {
    half_extents: Vector3<T>,
    margin: T,
}

/// The serialized form of a [`Cuboid`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct CuboidParams<T: Scalar> {
    half_extents: Vector3<T>,
    #[serde(default)]
    margin: T,
}

impl<T: Scalar> TryFrom<CuboidParams<T>> for Cuboid<T> {
    type Error = ShapeError;
    fn try_from(p: CuboidParams<T>) -> Result<Self, ShapeError> {
        Self::new(p.half_extents)?.with_margin(p.margin)
    }
}

impl<T: Scalar> From<Cuboid<T>> for CuboidParams<T> {
    fn from(b: Cuboid<T>) -> Self {
        Self {
            half_extents: b.half_extents,
            margin: b.margin,
        }
    }
}

impl<T: Scalar> Cuboid<T> {
    /// A box of the given half-extents (finite, not negative; zeros make a
    /// flat box, a segment or a point).
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn new(half_extents: Vector3<T>) -> Result<Self, ShapeError> {
        for i in 0..3 {
            check_size(half_extents[i], "half-extent")?;
        }
        Ok(Self {
            half_extents,
            margin: T::ZERO,
        })
    }

    /// The same box grown by `margin`: rounded edges and corners.
    ///
    /// # Errors
    /// [`ShapeError::NonFinite`] or [`ShapeError::NegativeSize`].
    pub fn with_margin(self, margin: T) -> Result<Self, ShapeError> {
        Ok(Self {
            margin: check_size(margin, "margin")?,
            ..self
        })
    }

    /// The half-extents of the core box.
    pub fn half_extents(&self) -> Vector3<T> {
        self.half_extents
    }
}

impl<T: Scalar> SupportMap<T> for Cuboid<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let h = &self.half_extents;
        Point3::new(
            if d.x >= T::ZERO { h.x } else { -h.x },
            if d.y >= T::ZERO { h.y } else { -h.y },
            if d.z >= T::ZERO { h.z } else { -h.z },
        )
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn extent(&self) -> T {
        self.half_extents.norm()
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Cuboid(self))
    }
}
