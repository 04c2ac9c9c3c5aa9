//! The passes of the OBB and RSS fits over their points, written once
//! over [`Lanes`]: one point at a time ([`One`], for the few points of a
//! tree's small nodes, where setting up lanes costs more than it saves) or
//! two points at a time in [`Scalar::Pair`] lanes ([`Two`]: one SSE2
//! register per coordinate for `f64` on x86_64). Lane arithmetic rounds
//! exactly as the scalar does (see [`clash_math::pair`]), so a containment
//! pass evaluates, in each lane, the very expression `contains_point`
//! evaluates, and its answer does not depend on which lane a point takes.
//!
//! Maxima and minima over the lanes are the same whatever the order in
//! which points arrive, except for the sign of a zero (`-0.0` and `0.0`
//! compare equal); the extents are therefore returned with `+ 0.0`
//! applied, which turns `-0.0` into `0.0` and changes no other value, so
//! a fit does not depend on how its points are ordered or repeated, nor on
//! the width of the lanes it took.
//!
//! The same passes also run two point sets side by side ([`Across`]: lane
//! 0 one set, lane 1 the other, each with its own frame and origin), so
//! that a tree builder can fit a node's two children at once; the steps
//! after the passes are then written over [`Lanes`] too, and each lane's
//! answer is the single fit's, bit for bit.
//!
//! This file holds the lanes ([`One`], [`Two`]) and the frame a pass
//! projects on ([`Frame`]); the passes themselves are in `passes.rs`.

mod passes;

use crate::fit::point_set::PointSet;
use clash_math::{Matrix3, Pair, Point3, Scalar};
use core::ops::{Add, Mul, Sub};
pub(crate) use passes::{
    Across, AcrossSets, Coordinates, OneSet, PullIn, Recomputed, spans_and_reach,
    spans_and_reach_across, spans_and_reach_into, spans_and_reach_keeping,
};

/// Sets of at most this many points are visited one point at a time.
pub(crate) const FEW: usize = 4;

/// One coordinate of one or more points, with the arithmetic of the scalar.
pub(crate) trait Lanes<T: Scalar>:
    Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self>
{
    /// `x` in every lane.
    fn splat(x: T) -> Self;
    /// Lane-wise `if o < self { o } else { self }` ([`Scalar::min_of`]).
    fn min(self, o: Self) -> Self;
    /// Lane-wise `if o > self { o } else { self }` ([`Scalar::max_of`]).
    fn max(self, o: Self) -> Self;
    /// Lane-wise absolute value.
    fn abs(self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// The smallest lane, `-0.0` made `0.0`.
    fn low(self) -> T;
    /// The largest lane, `-0.0` made `0.0`.
    fn high(self) -> T;
    /// Lane `i` (`0` for [`One`]).
    fn lane(self, i: usize) -> T;
    /// Calls `f` on the coordinates of the points, as many points at a
    /// time as there are lanes (an odd point out fills both lanes).
    fn each<P: PointSet<T> + ?Sized>(points: &P, f: impl FnMut([Self; 3]));
}

/// One point at a time.
#[derive(Clone, Copy)]
pub(crate) struct One<T>(T);

/// Two points at a time.
#[derive(Clone, Copy)]
pub(crate) struct Two<T: Scalar>(T::Pair);

macro_rules! lane_ops {
    ($name:ident) => {
        impl<T: Scalar> Add for $name<T> {
            type Output = Self;
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                Self(self.0 + o.0)
            }
        }
        impl<T: Scalar> Sub for $name<T> {
            type Output = Self;
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                Self(self.0 - o.0)
            }
        }
        impl<T: Scalar> Mul for $name<T> {
            type Output = Self;
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                Self(self.0 * o.0)
            }
        }
    };
}
lane_ops!(One);
lane_ops!(Two);

impl<T: Scalar> Lanes<T> for One<T> {
    #[inline(always)]
    fn splat(x: T) -> Self {
        Self(x)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Self(self.0.min_of(o.0))
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Self(self.0.max_of(o.0))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Self(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(self.0.sqrt())
    }
    #[inline(always)]
    fn low(self) -> T {
        self.0 + T::ZERO
    }
    #[inline(always)]
    fn high(self) -> T {
        self.0 + T::ZERO
    }
    #[inline(always)]
    fn lane(self, _: usize) -> T {
        self.0
    }
    #[inline(always)]
    fn each<P: PointSet<T> + ?Sized>(points: &P, mut f: impl FnMut([Self; 3])) {
        points.each(|p| f([Self(p.x), Self(p.y), Self(p.z)]));
    }
}

impl<T: Scalar> Lanes<T> for Two<T> {
    #[inline(always)]
    fn splat(x: T) -> Self {
        Self(T::Pair::splat(x))
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Self(self.0.min(o.0))
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Self(self.0.max(o.0))
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Self(self.0.abs())
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Self(self.0.sqrt())
    }
    #[inline(always)]
    fn low(self) -> T {
        let [a, b] = self.0.lanes();
        a.min_of(b) + T::ZERO
    }
    #[inline(always)]
    fn high(self) -> T {
        let [a, b] = self.0.lanes();
        a.max_of(b) + T::ZERO
    }
    #[inline(always)]
    fn lane(self, i: usize) -> T {
        self.0.lanes()[i]
    }
    #[inline(always)]
    fn each<P: PointSet<T> + ?Sized>(points: &P, mut f: impl FnMut([Self; 3])) {
        points.each_pair(|[x, y, z]| f([Self(x), Self(y), Self(z)]));
    }
}

/// Two points: their x, y and z lanes.
pub(crate) type Points2<T> = [<T as Scalar>::Pair; 3];

/// The lanes of points `a` and `b`.
#[inline(always)]
pub(crate) fn pair_of<T: Scalar>(a: &Point3<T>, b: &Point3<T>) -> Points2<T> {
    [
        T::Pair::new(a.x, b.x),
        T::Pair::new(a.y, b.y),
        T::Pair::new(a.z, b.z),
    ]
}

/// `p` in every lane.
#[inline(always)]
pub(crate) fn splat_point<T: Scalar, L: Lanes<T>>(p: &Point3<T>) -> [L; 3] {
    [L::splat(p.x), L::splat(p.y), L::splat(p.z)]
}

#[inline(always)]
pub(crate) fn sub<L: Copy + Sub<Output = L>>(p: &[L; 3], q: &[L; 3]) -> [L; 3] {
    [p[0] - q[0], p[1] - q[1], p[2] - q[2]]
}

/// The columns of a frame, each coordinate in every lane.
#[derive(Clone, Copy)]
pub(crate) struct Frame<L> {
    col: [[L; 3]; 3],
}

impl<L> Frame<L> {
    pub(crate) fn new<T: Scalar>(axes: &Matrix3<T>) -> Self
    where
        L: Lanes<T>,
    {
        Self {
            col: core::array::from_fn(|k| core::array::from_fn(|i| L::splat(axes[(i, k)]))),
        }
    }
}

impl<T: Scalar> Frame<Two<T>> {
    /// Two frames side by side: lane 0 holds `axes[0]`, lane 1 `axes[1]`.
    pub(crate) fn across(axes: [&Matrix3<T>; 2]) -> Self {
        let [a, b] = axes;
        Self {
            col: core::array::from_fn(|k| {
                core::array::from_fn(|i| Two(T::Pair::new(a[(i, k)], b[(i, k)])))
            }),
        }
    }
}

impl<L: Copy + Add<Output = L> + Mul<Output = L>> Frame<L> {
    /// Column `k`.
    #[inline(always)]
    pub(crate) fn column(&self, k: usize) -> &[L; 3] {
        &self.col[k]
    }

    /// `axes m` per lane: `(a_0 m_0 + a_1 m_1) + a_2 m_2`, coordinate by
    /// coordinate.
    #[inline(always)]
    pub(crate) fn apply(&self, m: &[L; 3]) -> [L; 3] {
        let c = &self.col;
        core::array::from_fn(|i| (c[0][i] * m[0] + c[1][i] * m[1]) + c[2][i] * m[2])
    }

    /// `column(k) · d` per lane, rounded as nalgebra's `dot` and `tr_mul`
    /// round it: `(d_x a_x + d_y a_y) + d_z a_z`.
    #[inline(always)]
    pub(crate) fn dot(&self, k: usize, d: &[L; 3]) -> L {
        let a = &self.col[k];
        (d[0] * a[0] + d[1] * a[1]) + d[2] * a[2]
    }

    /// `axesᵀ d` per lane, as `axes.tr_mul(&d)`.
    #[inline(always)]
    pub(crate) fn project(&self, d: &[L; 3]) -> [L; 3] {
        [self.dot(0, d), self.dot(1, d), self.dot(2, d)]
    }
}

#[cfg(test)]
mod tests;
