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

use crate::obb::PointSet;
use clash_math::{Matrix3, Pair, Point3, Scalar, Vector3};
use core::ops::{Add, Mul, Sub};

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
fn splat_point<T: Scalar, L: Lanes<T>>(p: &Point3<T>) -> [L; 3] {
    [L::splat(p.x), L::splat(p.y), L::splat(p.z)]
}

#[inline(always)]
fn sub<L: Copy + Sub<Output = L>>(p: &[L; 3], q: &[L; 3]) -> [L; 3] {
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

impl<L: Copy + Add<Output = L> + Mul<Output = L>> Frame<L> {
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

/// The smallest and largest coordinates of the points in the frame
/// `axes` about `origin` (`axesᵀ (p - origin)`), the first pass of the
/// OBB and RSS fits; `points` must be non-empty.
#[inline(always)]
pub(crate) fn spans<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    origin: &Point3<T>,
    points: &P,
) -> (Vector3<T>, Vector3<T>) {
    let o = splat_point::<T, L>(origin);
    let mut lo = [L::splat(T::INFINITY); 3];
    let mut hi = [L::splat(T::NEG_INFINITY); 3];
    L::each(points, |p| {
        let u = frame.project(&sub(&p, &o));
        for k in 0..3 {
            lo[k] = lo[k].min(u[k]);
            hi[k] = hi[k].max(u[k]);
        }
    });
    (
        Vector3::new(lo[0].low(), lo[1].low(), lo[2].low()),
        Vector3::new(hi[0].high(), hi[1].high(), hi[2].high()),
    )
}

/// [`spans`], and the largest `|p - origin|₁` as evaluated in lanes
/// (`(|d_x| + |d_y|) + |d_z|`): the scale of the projections' rounding.
#[inline(always)]
pub(crate) fn spans_and_reach<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    origin: &Point3<T>,
    points: &P,
) -> (Vector3<T>, Vector3<T>, T) {
    let o = splat_point::<T, L>(origin);
    let mut lo = [L::splat(T::INFINITY); 3];
    let mut hi = [L::splat(T::NEG_INFINITY); 3];
    let mut reach = L::splat(T::ZERO);
    L::each(points, |p| {
        let d = sub(&p, &o);
        let u = frame.project(&d);
        for k in 0..3 {
            lo[k] = lo[k].min(u[k]);
            hi[k] = hi[k].max(u[k]);
        }
        reach = reach.max((d[0].abs() + d[1].abs()) + d[2].abs());
    });
    (
        Vector3::new(lo[0].low(), lo[1].low(), lo[2].low()),
        Vector3::new(hi[0].high(), hi[1].high(), hi[2].high()),
        reach.high(),
    )
}

/// The RSS pull-in pass: for rims of radius `r` about the rectangle
/// through `center` with sides along columns 0 and 1 of `frame`, the
/// largest `u_k - s` and smallest `u_k + s` per side, where `u_k` is the
/// point's coordinate along side `k` and `s = sqrt(r² - z²)` the half-width
/// of the rim's section at the point's height `z` above the plane.
#[inline(always)]
pub(crate) fn rim_bounds<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    center: &Point3<T>,
    r: T,
    points: &P,
) -> ([T; 2], [T; 2]) {
    let c = splat_point::<T, L>(center);
    let zero = L::splat(T::ZERO);
    let r2 = L::splat(r * r);
    let mut hi = [L::splat(T::NEG_INFINITY); 2];
    let mut lo = [L::splat(T::INFINITY); 2];
    L::each(points, |p| {
        let d = sub(&p, &c);
        let z = frame.dot(2, &d);
        let s = (r2 - z * z).max(zero).sqrt();
        for k in 0..2 {
            let u = frame.dot(k, &d);
            hi[k] = hi[k].max(u - s);
            lo[k] = lo[k].min(u + s);
        }
    });
    ([hi[0].high(), hi[1].high()], [lo[0].low(), lo[1].low()])
}

/// A rectangle (`Rss` without its radius) in lanes; its sides lie along
/// columns 0 and 1 of a [`Frame`].
pub(crate) struct Rectangle<L> {
    center: [L; 3],
    half: [L; 2],
    neg_half: [L; 2],
}

impl<L> Rectangle<L> {
    /// The rectangle through `center` spanning `±half[k]` along column `k`.
    pub(crate) fn new<T: Scalar>(center: &Point3<T>, half: [T; 2]) -> Self
    where
        L: Lanes<T>,
    {
        Self {
            center: splat_point::<T, L>(center),
            half: half.map(L::splat),
            neg_half: half.map(|h| L::splat(-h)),
        }
    }

    /// The squared distance from each point to the rectangle (sides along
    /// `frame`), rounded as `Rss::rectangle_distance_squared` rounds it
    /// (the closest point `q = c + a₀ x₀ + a₁ x₁` with each `x_k = d · a_k`
    /// clamped to the side, then `|p - q|²`).
    #[inline(always)]
    pub(crate) fn distance_squared<T: Scalar>(&self, frame: &Frame<L>, p: &[L; 3]) -> L
    where
        L: Lanes<T>,
    {
        let d = sub(p, &self.center);
        let mut q = self.center;
        for k in 0..2 {
            let x = frame.dot(k, &d).max(self.neg_half[k]).min(self.half[k]);
            let a = &frame.col[k];
            for i in 0..3 {
                q[i] = q[i] + a[i] * x;
            }
        }
        let e = sub(p, &q);
        (e[0] * e[0] + e[1] * e[1]) + e[2] * e[2]
    }
}

/// The largest squared distance from the points to a rectangle with
/// sides along `frame`.
#[inline(always)]
pub(crate) fn rectangle_reach<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    rect: &Rectangle<L>,
    points: &P,
) -> T {
    let mut d = L::splat(T::ZERO);
    L::each(points, |p| d = d.max(rect.distance_squared(frame, &p)));
    d.high()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Obb, Rss};
    use clash_math::{Rotation3, Scalar};
    use rand::{RngExt, SeedableRng};

    fn lane_bits<T: Scalar>(x: Two<T>) -> [u64; 2] {
        x.0.lanes().map(|v| v.to_f64().to_bits())
    }

    /// Lane results equal the scalar expressions bit for bit, one point at
    /// a time and in both lanes of two: `axes.tr_mul(&(p - c))` (what
    /// `Obb::contains_point` reads) and `Rss::rectangle_distance_squared`,
    /// for f64 (SSE2 lanes on x86_64) and f32 (array lanes), over random
    /// frames, centres far from and near the origin, and points inside and
    /// outside.
    #[test]
    fn lanes_round_as_the_scalar_expressions() {
        fn check<T: Scalar>(seed: u64) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for round in 0..2000 {
                let scale = [1e-3, 1.0, 1e3][round % 3];
                let shift = if round % 2 == 0 { 0.0 } else { 1e4 };
                let mut r = |s: f64| T::lit(rng.random_range(-s..s));
                let rot = Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0));
                let axes = *rot.matrix();
                let c = Point3::new(r(shift + 1.0), r(1.0), r(shift + 1.0));
                let half = [r(scale).abs(), r(scale).abs()];
                let p = Point3::new(c.x + r(scale), c.y + r(scale), c.z + r(scale));
                let q = Point3::new(c.x + r(2.0 * scale), c.y + r(scale), c.z + r(scale));
                let two = Frame::<Two<T>>::new(&axes);
                let one = Frame::<One<T>>::new(&axes);
                let lanes = pair_of(&p, &q).map(Two::<T>);
                let u = two.project(&sub(&lanes, &splat_point(&c)));
                let rect2 = Rectangle::<Two<T>>::new(&c, half);
                let rect1 = Rectangle::<One<T>>::new(&c, half);
                let d2 = lane_bits(rect2.distance_squared(&two, &lanes));
                let rss = Rss {
                    center: c,
                    axes,
                    half_lengths: half,
                    radius: T::ZERO,
                };
                for (lane, x) in [p, q].iter().enumerate() {
                    let want = axes.tr_mul(&(x - c));
                    let single = [One(x.x), One(x.y), One(x.z)];
                    let u1 = one.project(&sub(&single, &splat_point(&c)));
                    for k in 0..3 {
                        let bits = want[k].to_f64().to_bits();
                        assert_eq!(lane_bits(u[k])[lane], bits);
                        assert_eq!(u1[k].0.to_f64().to_bits(), bits);
                    }
                    let want = rss.rectangle_distance_squared(x).to_f64().to_bits();
                    assert_eq!(d2[lane], want);
                    let d1 = rect1.distance_squared(&one, &single);
                    assert_eq!(d1.0.to_f64().to_bits(), want);
                }
            }
        }
        check::<f64>(1);
        check::<f32>(2);
    }

    /// Extents do not depend on the order or repetition of the points,
    /// including the sign of a zero extent, nor on the width of the lanes.
    #[test]
    fn extents_ignore_order_repeats_and_lane_width() {
        let pts = [
            Point3::new(0.0_f64, -0.0, 1.0),
            Point3::new(-0.0, 0.0, 1.0),
            Point3::new(0.0, 0.0, 2.0),
        ];
        let identity = Matrix3::identity();
        let origin = Point3::new(-0.0, -0.0, 0.0);
        let want = spans(&Frame::<Two<f64>>::new(&identity), &origin, &pts[..]);
        for set in [
            vec![pts[1], pts[0], pts[2]],
            vec![pts[2], pts[1], pts[1], pts[0]],
            vec![pts[0], pts[0], pts[1], pts[2], pts[1]],
        ] {
            for got in [
                spans(&Frame::<Two<f64>>::new(&identity), &origin, &set[..]),
                spans(&Frame::<One<f64>>::new(&identity), &origin, &set[..]),
            ] {
                for k in 0..3 {
                    assert_eq!(got.0[k].to_bits(), want.0[k].to_bits());
                    assert_eq!(got.1[k].to_bits(), want.1[k].to_bits());
                }
            }
        }
        assert_eq!(want.0[0].to_bits(), 0.0f64.to_bits());
    }

    /// Whole fits one point at a time and two at a time agree bit for bit
    /// (so that a fit does not depend on how many points a set lists), on
    /// random sets of 1 to 12 points, f64 and f32.
    #[test]
    fn fits_agree_across_lane_widths() {
        fn check<T: Scalar>(seed: u64) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for round in 0..3000 {
                let n = 1 + round % 12;
                let mut r = |s: f64| T::lit(rng.random_range(-s..s));
                let axes = *Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0)).matrix();
                let flat = T::lit(if round % 4 == 0 { 1e-3 } else { 1.0 });
                let pts: Vec<Point3<T>> = (0..n)
                    .map(|_| Point3::new(r(1.0), r(1.0), r(1.0) * flat))
                    .collect();
                let (a, b) = (
                    Obb::from_axes_in::<One<T>, _>(&axes, &pts[..]),
                    Obb::from_axes_in::<Two<T>, _>(&axes, &pts[..]),
                );
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
                let (a, b) = (
                    Rss::fit_along_in::<One<T>, _>(&axes, &pts[..]),
                    Rss::fit_along_in::<Two<T>, _>(&axes, &pts[..]),
                );
                assert_eq!(format!("{a:?}"), format!("{b:?}"));
            }
        }
        check::<f64>(3);
        check::<f32>(4);
    }
}
