//! Powers of two that bring numbers far from 1 to unit size, exactly.
//!
//! Queries and hull builds multiply lengths together; far below or above 1
//! those products underflow or overflow. Inputs outside the band
//! `[1/√M, √M]` (`M` the scalar type's
//! [`clash_math::Scalar::MAX_COORDINATE`]: `2^64` for `f64`, `2^13` for
//! `f32`) are multiplied by a power of two to unit size first, which rounds
//! nothing while the numbers stay normal, and the answers multiplied back.

use clash_math::{Point3, Scalar, Vector3};

/// Multiplication by `2^k`, as two factors so that `k` can reach from the
/// subnormal numbers to the largest ones.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PowerOfTwo<T> {
    lo: T,
    hi: T,
}

impl<T: Scalar> PowerOfTwo<T> {
    pub(crate) fn new(k: i32) -> Self {
        let h = k / 2;
        Self {
            lo: T::lit(2f64.powi(h)),
            hi: T::lit(2f64.powi(k - h)),
        }
    }

    /// Multiplication by `2^-k` (exact: the factors are powers of two).
    pub(crate) fn inverse(self) -> Self {
        Self {
            lo: T::ONE / self.lo,
            hi: T::ONE / self.hi,
        }
    }

    /// `true` when the factor makes numbers larger.
    pub(crate) fn grows(&self) -> bool {
        self.lo * self.hi > T::ONE
    }

    pub(crate) fn apply(&self, x: T) -> T {
        x * self.lo * self.hi
    }

    pub(crate) fn vector(&self, v: &Vector3<T>) -> Vector3<T> {
        v.map(|x| self.apply(x))
    }

    pub(crate) fn point(&self, p: &Point3<T>) -> Point3<T> {
        Point3::from(self.vector(&p.coords))
    }
}

/// The power of two that brings a magnitude `m` to `[0.5, 1)`, or `None`
/// when `m` lies in the band where nothing needs scaling (or is 0 or not
/// finite).
pub(crate) fn to_unit<T: Scalar>(m: T) -> Option<PowerOfTwo<T>> {
    if !(m > T::ZERO) || !m.finite() || in_band(m) {
        return None;
    }
    // m = f · 2^e with f in [0.5, 1).
    let e = m.to_f64().log2().floor() as i32 + 1;
    Some(PowerOfTwo::new(-e))
}

/// `true` when a magnitude `m` needs no scaling.
pub(crate) fn in_band<T: Scalar>(m: T) -> bool {
    let band = T::MAX_COORDINATE.sqrt();
    m >= T::ONE / band && m <= band
}
