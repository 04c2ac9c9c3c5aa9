use thiserror::Error;

/// Why a computation in clash-math could not produce an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum MathError {
    /// The input set was empty.
    #[error("empty input: at least one point or triangle is required")]
    Empty,
    /// An input coordinate was NaN or infinite.
    #[error("non-finite coordinate (NaN or infinity) in input element {index}")]
    NonFinite {
        /// Index of the first offending point or triangle.
        index: usize,
    },
}
