//! Why a shape could not be built.

use thiserror::Error;

/// Why a shape's parameters were rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum ShapeError {
    /// A parameter or coordinate was NaN or infinite.
    #[error("non-finite {what} (NaN or infinity)")]
    NonFinite {
        /// Which parameter: `"radius"`, `"margin"`, `"vertex 3"`, ...
        what: &'static str,
    },
    /// A point of a hull's input was NaN or infinite.
    #[error("non-finite coordinate (NaN or infinity) in point {index}")]
    NonFinitePoint {
        /// Index of the first offending point.
        index: usize,
    },
    /// A size (radius, half-extent, half-height or margin) was negative.
    #[error("negative {what}")]
    NegativeSize {
        /// Which parameter.
        what: &'static str,
    },
    /// A convex hull was asked of no points.
    #[error("empty input: a convex hull needs at least one point")]
    EmptyHull,
    /// A triangle of a triangle soup referred to a vertex that does not exist.
    #[error("triangle {triangle} refers to vertex {index}, but there are only {vertices} vertices")]
    IndexOutOfRange {
        /// Index of the triangle.
        triangle: usize,
        /// The offending vertex index.
        index: u32,
        /// Number of vertices given.
        vertices: usize,
    },
}

/// `Ok(x)` when `x` is finite and not negative.
pub(crate) fn check_size<T: clash_math::Scalar>(x: T, what: &'static str) -> Result<T, ShapeError> {
    if !x.finite() {
        Err(ShapeError::NonFinite { what })
    } else if x < T::ZERO {
        Err(ShapeError::NegativeSize { what })
    } else {
        Ok(x)
    }
}

/// `Ok(p)` when every coordinate of `p` is finite.
pub(crate) fn check_point<T: clash_math::Scalar>(
    p: clash_math::Point3<T>,
    what: &'static str,
) -> Result<clash_math::Point3<T>, ShapeError> {
    if clash_math::point_is_finite(&p) {
        Ok(p)
    } else {
        Err(ShapeError::NonFinite { what })
    }
}
