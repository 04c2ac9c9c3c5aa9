//! [`Pair`]: two lanes, built from two values and read back as two.

use super::Lanes;
use crate::Scalar;

/// Two lanes of a [`Scalar`]: the scalar's [`Scalar::Pair`], in which two
/// independent cases (two matrices, two point sets, two box pairs) are
/// evaluated side by side.
pub trait Pair<T: Scalar>: Lanes<T> {
    /// The lanes `(a, b)`.
    fn new(a: T, b: T) -> Self;
    /// The two lanes.
    fn lanes(self) -> [T; 2];
}

/// The pair type of `f64` on this target.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub type PairF64 = super::F64x2;
/// The pair type of `f64` on this target.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
pub type PairF64 = super::ArrayPair<f64>;
