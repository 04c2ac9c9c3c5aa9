//! The lanes the separating-axis test is written over: one box pair (the
//! scalar itself) or two side by side ([`X2`], the scalar's [`Pair`]).

use clash_math::{Pair, Scalar};

/// Lanes of scalars evaluated side by side: `T` itself (one box pair) or
/// [`X2`] (two box pairs, which the compiler turns into SIMD arithmetic).
/// The SAT is written once over this trait, so both forms evaluate exactly
/// the same expressions on each pair and agree bit for bit.
pub(crate) trait Lanes<T: Scalar>:
    Copy + core::ops::Add<Output = Self> + core::ops::Sub<Output = Self> + core::ops::Mul<Output = Self>
{
    /// One flag per lane.
    type Mask: Copy;
    /// Every lane `x`.
    fn splat(x: T) -> Self;
    /// Lane-wise `|x|`.
    fn abs(self) -> Self;
    /// Lane-wise maximum.
    fn max(self, other: Self) -> Self;
    /// Lane-wise `x > 0`.
    fn positive(self) -> Self::Mask;
    /// Lane-wise or.
    fn or(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// `true` when every lane is set.
    fn all(m: Self::Mask) -> bool;
}

impl<T: Scalar> Lanes<T> for T {
    type Mask = bool;
    #[inline(always)]
    fn splat(x: T) -> Self {
        x
    }
    #[inline(always)]
    fn abs(self) -> Self {
        clash_math::nalgebra::ComplexField::abs(self)
    }
    #[inline(always)]
    fn max(self, other: Self) -> Self {
        self.max_of(other)
    }
    #[inline(always)]
    fn positive(self) -> bool {
        self > T::ZERO
    }
    #[inline(always)]
    fn or(m: bool, n: bool) -> bool {
        m || n
    }
    #[inline(always)]
    fn all(m: bool) -> bool {
        m
    }
}

/// Two lanes: two independent box pairs tested side by side, in the
/// scalar's [`Pair`] form (SSE2 for `f64` on x86_64).
#[derive(Clone, Copy, Debug)]
pub(crate) struct X2<T: Scalar>(pub(super) T::Pair);

impl<T: Scalar> X2<T> {
    #[inline(always)]
    pub(super) fn new(a: T, b: T) -> Self {
        Self(T::Pair::new(a, b))
    }
}

macro_rules! x2_op {
    ($tr:ident, $f:ident) => {
        impl<T: Scalar> core::ops::$tr for X2<T> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                X2(core::ops::$tr::$f(self.0, o.0))
            }
        }
    };
}
x2_op!(Add, add);
x2_op!(Sub, sub);
x2_op!(Mul, mul);

impl<T: Scalar> Lanes<T> for X2<T> {
    type Mask = <T::Pair as Pair<T>>::Mask;
    #[inline(always)]
    fn splat(x: T) -> Self {
        X2(T::Pair::splat(x))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        X2(self.0.abs())
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        X2(self.0.max(o.0))
    }
    #[inline(always)]
    fn positive(self) -> Self::Mask {
        self.0.positive_mask()
    }
    #[inline(always)]
    fn or(m: Self::Mask, n: Self::Mask) -> Self::Mask {
        T::Pair::mask_or(m, n)
    }
    #[inline(always)]
    fn all(m: Self::Mask) -> bool {
        T::Pair::mask_all(m)
    }
}
