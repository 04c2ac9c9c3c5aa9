//! [`Cylinder`] and [`Cone`]: round solids along the local z axis.

use crate::error::{ShapeError, check_size};
use crate::shape::ShapeRef;
use crate::support::SupportMap;
use clash_math::{Point3, Scalar, Vector3};
use serde::{Deserialize, Serialize};

/// A solid cylinder of `radius` whose axis runs from `-half_height` to
/// `half_height` on the local z axis (as URDF's `<cylinder>`).
///
/// ```
/// use clash_convex::{Cylinder, SupportMap};
/// use clash_math::{Point3, Vector3};
/// let c = Cylinder::new(1.0_f64, 2.0)?;
/// assert_eq!(c.support_point(&Vector3::new(3.0, 0.0, -1.0)), Point3::new(2.0, 0.0, -1.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "RoundParams<T>",
    into = "RoundParams<T>"
)]
pub struct Cylinder<T: Scalar> {
    half_height: T,
    radius: T,
    margin: T,
}

/// A solid cone with its apex at `(0, 0, half_height)` and its base, a disk
/// of `radius`, in the plane `z = -half_height`.
///
/// ```
/// use clash_convex::{Cone, SupportMap};
/// use clash_math::{Point3, Vector3};
/// let c = Cone::new(1.0_f64, 0.5)?;
/// assert_eq!(c.support_point(&Vector3::z()), Point3::new(0.0, 0.0, 1.0));
/// assert_eq!(c.support_point(&Vector3::new(1.0, 0.0, -1.0)), Point3::new(0.5, 0.0, -1.0));
/// # Ok::<(), clash_convex::ShapeError>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(
    bound = "T: Scalar",
    try_from = "RoundParams<T>",
    into = "RoundParams<T>"
)]
pub struct Cone<T: Scalar> {
    half_height: T,
    radius: T,
    margin: T,
}

/// The serialized form of a [`Cylinder`] or a [`Cone`], validated on the way in.
#[derive(Clone, Copy, Serialize, Deserialize)]
#[serde(bound = "T: Scalar")]
struct RoundParams<T: Scalar> {
    half_height: T,
    radius: T,
    #[serde(default)]
    margin: T,
}

macro_rules! round_solid {
    ($name:ident, $what:literal) => {
        impl<T: Scalar> TryFrom<RoundParams<T>> for $name<T> {
            type Error = ShapeError;
            fn try_from(p: RoundParams<T>) -> Result<Self, ShapeError> {
                Self::new(p.half_height, p.radius)?.with_margin(p.margin)
            }
        }

        impl<T: Scalar> From<$name<T>> for RoundParams<T> {
            fn from(c: $name<T>) -> Self {
                Self {
                    half_height: c.half_height,
                    radius: c.radius,
                    margin: c.margin,
                }
            }
        }

        impl<T: Scalar> $name<T> {
            #[doc = concat!("A ", $what, " of the given half-height and radius (both finite, not negative).")]
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

            #[doc = concat!("The same ", $what, " grown by `margin` (rounded rims).")]
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

            /// Radius of the base.
            pub fn radius(&self) -> T {
                self.radius
            }
        }
    };
}

round_solid!(Cylinder, "cylinder");
round_solid!(Cone, "cone");

/// The point of the circle of `radius` in the xy plane farthest along `d`,
/// and `|d_xy|`.
#[inline]
fn rim<T: Scalar>(d: &Vector3<T>, radius: T) -> (T, T, T) {
    let len = (d.x * d.x + d.y * d.y).sqrt();
    if len > T::ZERO {
        let k = radius / len;
        (d.x * k, d.y * k, len)
    } else {
        (T::ZERO, T::ZERO, T::ZERO)
    }
}

impl<T: Scalar> SupportMap<T> for Cylinder<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let (x, y, _) = rim(d, self.radius);
        let z = if d.z >= T::ZERO {
            self.half_height
        } else {
            -self.half_height
        };
        Point3::new(x, y, z)
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn extent(&self) -> T {
        (self.radius * self.radius + self.half_height * self.half_height).sqrt()
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Cylinder(self))
    }
}

impl<T: Scalar> SupportMap<T> for Cone<T> {
    #[inline]
    fn support_point(&self, d: &Vector3<T>) -> Point3<T> {
        let (x, y, len) = rim(d, self.radius);
        // Apex scores d.z h; the base rim r |d_xy| - d.z h.
        let apex = d.z * self.half_height;
        let base = self.radius * len - apex;
        if apex >= base {
            Point3::new(T::ZERO, T::ZERO, self.half_height)
        } else {
            Point3::new(x, y, -self.half_height)
        }
    }
    #[inline]
    fn margin(&self) -> T {
        self.margin
    }
    #[inline]
    fn extent(&self) -> T {
        (self.radius * self.radius + self.half_height * self.half_height).sqrt()
    }
    #[inline]
    fn shape_ref(&self) -> Option<ShapeRef<'_, T>> {
        Some(ShapeRef::Cone(self))
    }
}
