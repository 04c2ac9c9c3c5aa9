//! The passes of the OBB and RSS fits over their points, written once
//! over [`Lanes`]: one point at a time (the scalar itself, for the few
//! points of a tree's small nodes, where setting up lanes costs more than
//! it saves) or two points at a time in [`Scalar::Pair`] lanes (one SSE2
//! register per coordinate for `f64` on x86_64). Lane arithmetic rounds
//! exactly as the scalar does (see [`clash_math::lanes`]), so a containment
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
//! This file holds what the passes add to [`Lanes`] (visiting a point set
//! in lanes, [`each`], and reducing lanes, [`low`] and [`high`]) and the
//! frame a pass projects on ([`Frame`]); the passes themselves are in
//! `passes.rs`.

mod passes;

use crate::fit::point_set::PointSet;
use clash_math::lanes::{Lanes, Pair};
use clash_math::{Matrix3, Point3, Scalar};
use core::ops::{Add, Mul, Sub};
pub(crate) use passes::{
    Across, AcrossSets, Coordinates, OneSet, PullIn, Recomputed, spans_and_reach,
    spans_and_reach_across, spans_and_reach_into, spans_and_reach_keeping,
};

/// Sets of at most this many points are visited one point at a time.
pub(crate) const FEW: usize = 4;

/// The smallest lane of `x`, `-0.0` made `0.0`.
#[inline(always)]
pub(crate) fn low<T: Scalar, L: Lanes<T>>(x: L) -> T {
    let mut m = x.lane(0);
    for l in 1..L::N {
        m = m.min_of(x.lane(l));
    }
    m + T::ZERO
}

/// The largest lane of `x`, `-0.0` made `0.0`.
#[inline(always)]
pub(crate) fn high<T: Scalar, L: Lanes<T>>(x: L) -> T {
    let mut m = x.lane(0);
    for l in 1..L::N {
        m = m.max_of(x.lane(l));
    }
    m + T::ZERO
}

/// Calls `f` on the coordinates of the points, one point at a time in one
/// lane ([`PointSet::each`]) or two at a time in two
/// ([`PointSet::each_pair`]: an odd point out fills both lanes).
#[inline(always)]
pub(crate) fn each<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    points: &P,
    mut f: impl FnMut([L; 3]),
) {
    if L::N == 1 {
        points.each(|p| f(splat_point(p)));
    } else {
        points.each_pair(f);
    }
}

/// The coordinates of points `a` (lane 0) and `b` (the other lanes: lane
/// 1 of a pair).
#[inline(always)]
pub(crate) fn pair_of<T: Scalar, L: Lanes<T>>(a: &Point3<T>, b: &Point3<T>) -> [L; 3] {
    let two = |x: T, y: T| L::from_fn(|l| if l == 0 { x } else { y });
    [two(a.x, b.x), two(a.y, b.y), two(a.z, b.z)]
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

    /// Two frames side by side: lane 0 holds `axes[0]`, lane 1 `axes[1]`.
    pub(crate) fn across<T: Scalar>(axes: [&Matrix3<T>; 2]) -> Self
    where
        L: Pair<T>,
    {
        let [a, b] = axes;
        Self {
            col: core::array::from_fn(|k| core::array::from_fn(|i| L::new(a[(i, k)], b[(i, k)]))),
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
