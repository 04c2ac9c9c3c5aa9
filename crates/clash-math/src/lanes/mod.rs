//! [`Lanes`]: one or more scalars side by side, for code that evaluates
//! independent cases with the same expressions: one lane (the scalar
//! itself), two ([`Pair`], the scalar's [`Scalar::Pair`]: SSE2 `f64x2` on
//! x86_64, two plain lanes elsewhere), any number in plain lanes
//! ([`ArrayLanes`]), or one x86_64 SIMD register of them
//! ([`simd_lanes!`](crate::simd_lanes), which makes the SSE2 pair).
//!
//! Each lane computes exactly what the scalar expression computes (IEEE
//! add, subtract, multiply, divide and square root round the same in a SIMD
//! lane; `abs` clears the sign bit and negation flips it; `max_of` and
//! `min_of` pick as [`Scalar::max_of`] and [`Scalar::min_of`] do;
//! comparisons are the scalar's, false on NaN), so code written once over
//! `Lanes` agrees bit for bit whatever the number of lanes it runs in.
//! The closed-form eigen solve, the OBB and RSS fits' passes and the
//! separating-axis test of boxes are written this way.

mod array;
mod pair;
#[cfg(target_arch = "x86_64")]
mod simd;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;
#[cfg(test)]
mod tests;

use crate::Scalar;
use core::ops::{Add, Div, Mul, Neg, Sub};

pub use array::{ArrayLanes, ArrayPair};
pub use pair::{Pair, PairF64};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub use sse2::F64x2;

/// `N` lanes of a [`Scalar`] `T`; see the module documentation.
pub trait Lanes<T: Scalar>:
    Copy
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// One flag per lane, in the form the target compares into.
    type Mask: Copy;
    /// The number of lanes.
    const N: usize;
    /// Every lane `x`.
    fn splat(x: T) -> Self;
    /// Lane `l` is `f(l)`, for `l` in `0..N`.
    fn from_fn(f: impl FnMut(usize) -> T) -> Self;
    /// Lane `l` (`l < N`).
    fn lane(self, l: usize) -> T;
    /// `self` with lane `l` replaced by `x`.
    #[inline(always)]
    fn with_lane(self, l: usize, x: T) -> Self {
        Self::from_fn(|k| if k == l { x } else { self.lane(k) })
    }
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise square root (correctly rounded, as the scalar's).
    fn sqrt(self) -> Self;
    /// Lane-wise [`Scalar::max_of`]: `if o > self { o } else { self }`.
    fn max_of(self, o: Self) -> Self;
    /// Lane-wise [`Scalar::min_of`]: `if o < self { o } else { self }`.
    fn min_of(self, o: Self) -> Self;
    /// Lane-wise `self > o` (false where either is NaN).
    fn gt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self >= o` (false where either is NaN).
    fn ge_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self < o` (false where either is NaN).
    fn lt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self == o` (false where either is NaN; `0.0 == -0.0`).
    fn eq_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise and of two masks.
    fn and(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// Lane-wise or of two masks.
    fn or(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// `true` when every lane of the mask is set.
    fn all(m: Self::Mask) -> bool;
    /// `true` when some lane of the mask is set.
    fn any(m: Self::Mask) -> bool;
    /// Lane `l` of the mask.
    fn flag(m: Self::Mask, l: usize) -> bool;
    /// Per lane, `a` where the mask is set and `b` elsewhere.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
}

/// One lane: the scalar itself.
impl<T: Scalar> Lanes<T> for T {
    type Mask = bool;
    const N: usize = 1;
    #[inline(always)]
    fn splat(x: T) -> Self {
        x
    }
    #[inline(always)]
    fn from_fn(mut f: impl FnMut(usize) -> T) -> Self {
        f(0)
    }
    #[inline(always)]
    fn lane(self, _: usize) -> T {
        self
    }
    #[inline(always)]
    fn with_lane(self, _: usize, x: T) -> Self {
        x
    }
    #[inline(always)]
    fn abs(self) -> Self {
        nalgebra::ComplexField::abs(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        nalgebra::ComplexField::sqrt(self)
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        Scalar::max_of(self, o)
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        Scalar::min_of(self, o)
    }
    #[inline(always)]
    fn gt_mask(self, o: Self) -> bool {
        self > o
    }
    #[inline(always)]
    fn ge_mask(self, o: Self) -> bool {
        self >= o
    }
    #[inline(always)]
    fn lt_mask(self, o: Self) -> bool {
        self < o
    }
    #[inline(always)]
    fn eq_mask(self, o: Self) -> bool {
        self == o
    }
    #[inline(always)]
    fn and(m: bool, n: bool) -> bool {
        m & n
    }
    #[inline(always)]
    fn or(m: bool, n: bool) -> bool {
        m || n
    }
    #[inline(always)]
    fn all(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn any(m: bool) -> bool {
        m
    }
    #[inline(always)]
    fn flag(m: bool, _: usize) -> bool {
        m
    }
    #[inline(always)]
    fn select(m: bool, a: Self, b: Self) -> Self {
        if m { a } else { b }
    }
}
