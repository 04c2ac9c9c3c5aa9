//! [`ArrayLanes`]: lanes stored as an array, the portable form. Every
//! operation is a loop over the lanes of the scalar's own expression, with
//! no call the compiler might leave out of line, so in a function compiled
//! for wider vectors (`#[target_feature]`) the loops become SIMD
//! instructions.

use super::{Lanes, Pair};
use crate::Scalar;
use core::ops::{Add, Div, Mul, Neg, Sub};

/// `N` lanes of `T` stored as an array: the portable form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrayLanes<T, const N: usize>(pub [T; N]);

/// Two lanes stored as an array: the portable [`Pair`].
pub type ArrayPair<T> = ArrayLanes<T, 2>;

/// `[f(0), …, f(N - 1)]` for a const `N`, written as a loop (see the
/// module documentation).
#[inline(always)]
fn build<U: Copy + Default, const N: usize>(mut f: impl FnMut(usize) -> U) -> [U; N] {
    let mut out = [U::default(); N];
    for (l, x) in out.iter_mut().enumerate() {
        *x = f(l);
    }
    out
}

macro_rules! binary {
    ($tr:ident, $f:ident, $op:tt) => {
        impl<T: Scalar, const N: usize> $tr for ArrayLanes<T, N> {
            type Output = Self;
            #[inline(always)]
            fn $f(self, o: Self) -> Self {
                Self(build(|l| self.0[l] $op o.0[l]))
            }
        }
    };
}
binary!(Add, add, +);
binary!(Sub, sub, -);
binary!(Mul, mul, *);
binary!(Div, div, /);

impl<T: Scalar, const N: usize> Neg for ArrayLanes<T, N> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self(build(|l| -self.0[l]))
    }
}

impl<T: Scalar, const N: usize> Lanes<T> for ArrayLanes<T, N> {
    type Mask = [bool; N];
    const N: usize = N;
    #[inline(always)]
    fn splat(x: T) -> Self {
        Self([x; N])
    }
    #[inline(always)]
    fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        Self(build(f))
    }
    #[inline(always)]
    fn lane(self, l: usize) -> T {
        self.0[l]
    }
    #[inline(always)]
    fn with_lane(mut self, l: usize, x: T) -> Self {
        self.0[l] = x;
        self
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Self(build(|l| Lanes::abs(self.0[l])))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(build(|l| Lanes::sqrt(self.0[l])))
    }
    #[inline(always)]
    fn max_of(self, o: Self) -> Self {
        Self(build(|l| Scalar::max_of(self.0[l], o.0[l])))
    }
    #[inline(always)]
    fn min_of(self, o: Self) -> Self {
        Self(build(|l| Scalar::min_of(self.0[l], o.0[l])))
    }
    #[inline(always)]
    fn gt_mask(self, o: Self) -> [bool; N] {
        build(|l| self.0[l] > o.0[l])
    }
    #[inline(always)]
    fn ge_mask(self, o: Self) -> [bool; N] {
        build(|l| self.0[l] >= o.0[l])
    }
    #[inline(always)]
    fn lt_mask(self, o: Self) -> [bool; N] {
        build(|l| self.0[l] < o.0[l])
    }
    #[inline(always)]
    fn eq_mask(self, o: Self) -> [bool; N] {
        build(|l| self.0[l] == o.0[l])
    }
    #[inline(always)]
    fn and(m: [bool; N], n: [bool; N]) -> [bool; N] {
        build(|l| m[l] & n[l])
    }
    #[inline(always)]
    fn or(m: [bool; N], n: [bool; N]) -> [bool; N] {
        build(|l| m[l] | n[l])
    }
    #[inline(always)]
    fn all(m: [bool; N]) -> bool {
        let mut all = true;
        for x in m {
            all &= x;
        }
        all
    }
    #[inline(always)]
    fn any(m: [bool; N]) -> bool {
        let mut any = false;
        for x in m {
            any |= x;
        }
        any
    }
    #[inline(always)]
    fn flag(m: [bool; N], l: usize) -> bool {
        m[l]
    }
    #[inline(always)]
    fn select(m: [bool; N], a: Self, b: Self) -> Self {
        Self(build(|l| if m[l] { a.0[l] } else { b.0[l] }))
    }
}

impl<T: Scalar> Pair<T> for ArrayPair<T> {
    #[inline(always)]
    fn new(a: T, b: T) -> Self {
        Self([a, b])
    }
    #[inline(always)]
    fn lanes(self) -> [T; 2] {
        self.0
    }
}
