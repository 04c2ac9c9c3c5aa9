use clash_math::MathError;
use thiserror::Error;

/// Why a bounding volume could not be fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum FitError {
    /// No points or triangles were given.
    #[error("cannot fit a bounding volume to an empty set")]
    Empty,
    /// An input coordinate was NaN or infinite.
    #[error("non-finite coordinate (NaN or infinity) in input element {index}")]
    NonFinite {
        /// Index of the first offending point or triangle.
        index: usize,
    },
    /// A fit from triangles and their moments got a different number of each.
    #[error("{moments} triangle moments given for {triangles} triangles")]
    MomentsMismatch {
        /// Number of triangles.
        triangles: usize,
        /// Number of moments.
        moments: usize,
    },
    /// An index of an [`crate::IndexedPoints`] set is out of range.
    #[error("point index {index} is out of range for {len} vertices")]
    IndexOutOfRange {
        /// The offending index.
        index: u32,
        /// Number of vertices.
        len: usize,
    },
}

impl From<MathError> for FitError {
    fn from(e: MathError) -> Self {
        match e {
            MathError::Empty => FitError::Empty,
            MathError::NonFinite { index } => FitError::NonFinite { index },
        }
    }
}
