//! The lanes the closed-form solve is written over: one (the scalar
//! itself) for a single solve, two (the scalar's [`Pair`]) for the paired
//! solve.

use crate::{Pair, Scalar};
use core::ops::{Add, Div, Mul, Neg, Sub};

/// The arithmetic of the closed-form solve on one lane (the scalar itself)
/// or two (`Two`, the scalar's [`Pair`]). Every lane computes what the
/// scalar expression computes, bit for bit, so one code gives single and
/// paired solves alike.
pub(super) trait Lanes<T: Scalar>:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// One flag per lane.
    type Mask: Copy;
    /// The number of lanes.
    const N: usize;
    /// Every lane `x`.
    fn splat(x: T) -> Self;
    /// Lane `l`.
    fn lane(self, l: usize) -> T;
    /// `self` with lane `l` replaced by `x`.
    fn with_lane(self, l: usize, x: T) -> Self;
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise [`Scalar::max_of`].
    fn max_of(self, o: Self) -> Self;
    /// Lane-wise [`Scalar::min_of`].
    fn min_of(self, o: Self) -> Self;
    /// Lane-wise `self > o`.
    fn gt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self >= o`.
    fn ge_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self < o`.
    fn lt_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise `self == o`.
    fn eq_mask(self, o: Self) -> Self::Mask;
    /// Lane-wise and.
    fn and(m: Self::Mask, n: Self::Mask) -> Self::Mask;
    /// Every lane set.
    fn all(m: Self::Mask) -> bool;
    /// Some lane set.
    fn any(m: Self::Mask) -> bool;
    /// Lane `l` set.
    fn flag(m: Self::Mask, l: usize) -> bool;
    /// Per lane, `a` where `m` is set and `b` elsewhere.
    fn select(m: Self::Mask, a: Self, b: Self) -> Self;
}

impl<T: Scalar> Lanes<T> for T {
    type Mask = bool;
    const N: usize = 1;
    #[inline(always)]
    fn splat(x: T) -> Self {
        x
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

/// Two lanes: the scalar's [`Pair`].
#[derive(Clone, Copy)]
pub(super) struct Two<T: Scalar>(pub(super) T::Pair);

macro_rules! two_op {
    ($tr:ident, $f:ident) => {
        impl<T: Scalar> $tr for Two<T> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Two($tr::$f(self.0, o.0))
            }
        }
    };
}
two_op!(Add, add);
two_op!(Sub, sub);
two_op!(Mul, mul);
two_op!(Div, div);

impl<T: Scalar> Neg for Two<T> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Two(-self.0)
    }
}

impl<T: Scalar> Lanes<T> for Two<T> {
    type Mask = <T::Pair as Pair<T>>::Mask;
    const N: usize = 2;
    #[inline(always)]
    fn splat(x: T) -> Self {
        Two(T::Pair::splat(x))
    }
    #[inline(always)]
    fn lane(self, l: usize) -> T {
        self.0.lanes()[l]
    }
    #[inline(always)]
    fn with_lane(self, l: usize, x: T) -> Self {
        let mut v = self.0.lanes();
        v[l] = x;
        Two(T::Pair::new(v[0], v[1]))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Two(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Two(self.0.sqrt())
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        Two(self.0.max(o.0))
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        Two(self.0.min(o.0))
    }
    #[inline(always)]
    fn gt_mask(self, o: Self) -> Self::Mask {
        self.0.gt_mask(o.0)
    }
    #[inline(always)]
    fn ge_mask(self, o: Self) -> Self::Mask {
        self.0.ge_mask(o.0)
    }
    #[inline(always)]
    fn lt_mask(self, o: Self) -> Self::Mask {
        self.0.lt_mask(o.0)
    }
    #[inline(always)]
    fn eq_mask(self, o: Self) -> Self::Mask {
        self.0.eq_mask(o.0)
    }

    #[inline(always)]
    fn and(m: Self::Mask, n: Self::Mask) -> Self::Mask {
        T::Pair::mask_and(m, n)
    }
    #[inline(always)]
    fn all(m: Self::Mask) -> bool {
        T::Pair::mask_all(m)
    }
    #[inline(always)]
    fn any(m: Self::Mask) -> bool {
        T::Pair::mask_any(m)
    }
    #[inline(always)]
    fn flag(m: Self::Mask, l: usize) -> bool {
        T::Pair::mask_lanes(m)[l]
    }
    #[inline(always)]
    fn select(m: Self::Mask, a: Self, b: Self) -> Self {
        Two(T::Pair::select(m, a.0, b.0))
    }
}
