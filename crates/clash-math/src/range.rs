//! The coordinate range within which every query answers
//! ([`Scalar::MAX_COORDINATE`]), and the typed error for inputs beyond it.

use crate::Scalar;
use nalgebra::{Point3, Vector3};
use thiserror::Error;

/// An input beyond the range in which the queries' arithmetic cannot
/// overflow or underflow into a wrong answer.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum RangeError {
    /// A coordinate (of a vertex, a pose translation or a ray origin) is
    /// larger in magnitude than [`Scalar::MAX_COORDINATE`], or not finite.
    #[error(
        "coordinate {value:e} is beyond ±{limit:e}, the largest magnitude {precision} queries answer \
         without overflow (scale the scene down)"
    )]
    Coordinate {
        /// The coordinate.
        value: f64,
        /// [`Scalar::MAX_COORDINATE`].
        limit: f64,
        /// [`Scalar::NAME`].
        precision: &'static str,
    },
    /// A ray direction's largest component is not between
    /// `1 / MAX_COORDINATE` and `MAX_COORDINATE` in magnitude: a shorter
    /// direction would put hits at parameters that overflow, a longer one
    /// overflow the intersection arithmetic.
    #[error(
        "ray direction's largest component {value:e} is not between {min:e} and {max:e} in magnitude \
         for {precision} queries (scale the direction)"
    )]
    Direction {
        /// The direction's largest component magnitude.
        value: f64,
        /// `1 / MAX_COORDINATE`.
        min: f64,
        /// [`Scalar::MAX_COORDINATE`].
        max: f64,
        /// [`Scalar::NAME`].
        precision: &'static str,
    },
}

/// `Ok` when `x` is finite and at most [`Scalar::MAX_COORDINATE`] in
/// magnitude.
///
/// ```
/// use clash_math::{RangeError, check_coordinate};
/// assert!(check_coordinate(1e300_f64).is_err());
/// assert!(check_coordinate(1e30_f64).is_ok());
/// assert!(matches!(check_coordinate(1e8_f32), Err(RangeError::Coordinate { .. })));
/// ```
pub fn check_coordinate<T: Scalar>(x: T) -> Result<(), RangeError> {
    if x.finite() && x.abs() <= T::MAX_COORDINATE {
        Ok(())
    } else {
        Err(RangeError::Coordinate {
            value: x.to_f64(),
            limit: T::MAX_COORDINATE.to_f64(),
            precision: T::NAME,
        })
    }
}

/// [`check_coordinate`] of each of the vector's coordinates.
pub fn check_vector<T: Scalar>(v: &Vector3<T>) -> Result<(), RangeError> {
    v.iter().try_for_each(|&x| check_coordinate(x))
}

/// [`check_coordinate`] of each of the point's coordinates.
pub fn check_point<T: Scalar>(p: &Point3<T>) -> Result<(), RangeError> {
    check_vector(&p.coords)
}

/// `Ok` when the direction's largest component magnitude lies between
/// `1 / MAX_COORDINATE` and `MAX_COORDINATE` (see [`RangeError::Direction`]).
pub fn check_direction<T: Scalar>(d: &Vector3<T>) -> Result<(), RangeError> {
    let m = d.iter().fold(T::ZERO, |m, x| {
        if x.finite() {
            m.max_of(x.abs())
        } else {
            T::INFINITY
        }
    });
    let min = T::ONE / T::MAX_COORDINATE;
    if m >= min && m <= T::MAX_COORDINATE {
        Ok(())
    } else {
        Err(RangeError::Direction {
            value: m.to_f64(),
            min: min.to_f64(),
            max: T::MAX_COORDINATE.to_f64(),
            precision: T::NAME,
        })
    }
}

impl<T: Scalar> crate::Ray<T> {
    /// `Ok` when the ray's queries answer without overflow: its origin's
    /// coordinates within [`Scalar::MAX_COORDINATE`] ([`check_point`]) and
    /// its direction's size within range ([`check_direction`]). Mesh ray
    /// queries assume it; a caller with untrusted rays checks first.
    ///
    /// ```
    /// use clash_math::{Point3, Ray, Vector3};
    /// assert!(Ray::new(Point3::new(0.0_f64, 0.0, 0.0), Vector3::new(0.0, 0.0, 1e-310)).check_range().is_err());
    /// assert!(Ray::new(Point3::new(0.0_f64, 0.0, 0.0), Vector3::new(0.0, 0.0, 1e-30)).check_range().is_ok());
    /// ```
    pub fn check_range(&self) -> Result<(), RangeError> {
        check_point(&self.origin)?;
        check_direction(&self.dir)
    }
}
