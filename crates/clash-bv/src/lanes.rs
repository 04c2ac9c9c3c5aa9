//! The passes of the OBB and RSS fits over their points, two points at a
//! time in [`Scalar::Pair`] lanes (one SSE2 register per coordinate for
//! `f64` on x86_64). Lane arithmetic rounds exactly as the scalar does
//! (see [`clash_math::pair`]), so a containment pass evaluates, in each
//! lane, the very expression `contains_point` evaluates, and its answer
//! does not depend on which lane a point takes.
//!
//! Maxima and minima over the lanes are the same whatever the order in
//! which points arrive, except for the sign of a zero (`-0.0` and `0.0`
//! compare equal); the extents are therefore returned with `+ 0.0`
//! applied, which turns `-0.0` into `0.0` and changes no other value, so
//! a fit does not depend on how its points are ordered or repeated.

use crate::obb::PointSet;
use clash_math::{Matrix3, Pair, Point3, Scalar, Vector3};

/// One coordinate of two points.
pub(crate) type Lane<T> = <T as Scalar>::Pair;

/// Two points: their x, y and z lanes.
pub(crate) type Points2<T> = [Lane<T>; 3];

/// The lanes of points `a` and `b`.
#[inline(always)]
pub(crate) fn pair_of<T: Scalar>(a: &Point3<T>, b: &Point3<T>) -> Points2<T> {
    [
        Lane::<T>::new(a.x, b.x),
        Lane::<T>::new(a.y, b.y),
        Lane::<T>::new(a.z, b.z),
    ]
}

/// `p` in both lanes.
#[inline(always)]
fn splat_point<T: Scalar>(p: &Point3<T>) -> Points2<T> {
    [
        Lane::<T>::splat(p.x),
        Lane::<T>::splat(p.y),
        Lane::<T>::splat(p.z),
    ]
}

#[inline(always)]
fn sub<T: Scalar>(p: &Points2<T>, q: &Points2<T>) -> Points2<T> {
    [p[0] - q[0], p[1] - q[1], p[2] - q[2]]
}

/// The smaller lane, with `-0.0` made `0.0`.
#[inline(always)]
fn low<T: Scalar>(x: Lane<T>) -> T {
    let [a, b] = x.lanes();
    a.min_of(b) + T::ZERO
}

/// The larger lane, with `-0.0` made `0.0`.
#[inline(always)]
fn high<T: Scalar>(x: Lane<T>) -> T {
    let [a, b] = x.lanes();
    a.max_of(b) + T::ZERO
}

/// The columns of a frame, each coordinate in both lanes.
#[derive(Clone, Copy)]
pub(crate) struct Frame<T: Scalar> {
    col: [Points2<T>; 3],
}

impl<T: Scalar> Frame<T> {
    pub(crate) fn new(axes: &Matrix3<T>) -> Self {
        Self {
            col: core::array::from_fn(|k| core::array::from_fn(|i| Lane::<T>::splat(axes[(i, k)]))),
        }
    }

    /// `column(k) · d` per lane, rounded as nalgebra's `dot` and `tr_mul`
    /// round it: `(d_x a_x + d_y a_y) + d_z a_z`.
    #[inline(always)]
    pub(crate) fn dot(&self, k: usize, d: &Points2<T>) -> Lane<T> {
        let a = &self.col[k];
        (d[0] * a[0] + d[1] * a[1]) + d[2] * a[2]
    }

    /// `axesᵀ d` per lane, as `axes.tr_mul(&d)`.
    #[inline(always)]
    pub(crate) fn project(&self, d: &Points2<T>) -> Points2<T> {
        [self.dot(0, d), self.dot(1, d), self.dot(2, d)]
    }
}

/// The smallest and largest coordinates of the points in the frame
/// `axes` about `origin` (`axesᵀ (p - origin)`), the first pass of the
/// OBB and RSS fits; `points` must be non-empty.
pub(crate) fn spans<T: Scalar, P: PointSet<T> + ?Sized>(
    frame: &Frame<T>,
    origin: &Point3<T>,
    points: &P,
) -> (Vector3<T>, Vector3<T>) {
    let o = splat_point(origin);
    let mut lo = [Lane::<T>::splat(T::INFINITY); 3];
    let mut hi = [Lane::<T>::splat(T::NEG_INFINITY); 3];
    points.each_pair(|p| {
        let u = frame.project(&sub::<T>(&p, &o));
        for k in 0..3 {
            lo[k] = lo[k].min(u[k]);
            hi[k] = hi[k].max(u[k]);
        }
    });
    (
        Vector3::new(low(lo[0]), low(lo[1]), low(lo[2])),
        Vector3::new(high(hi[0]), high(hi[1]), high(hi[2])),
    )
}

/// The OBB containment pass: the largest `|axesᵀ (p - center)|` per axis
/// (the expression `Obb::contains_point` evaluates, per lane) and the
/// largest `|p - center|₁` (the scale of its rounding).
pub(crate) fn box_reach<T: Scalar, P: PointSet<T> + ?Sized>(
    frame: &Frame<T>,
    center: &Point3<T>,
    points: &P,
) -> (Vector3<T>, T) {
    let c = splat_point(center);
    let zero = Lane::<T>::splat(T::ZERO);
    let (mut half, mut reach) = ([zero; 3], zero);
    points.each_pair(|p| {
        let d = sub::<T>(&p, &c);
        let u = frame.project(&d);
        for k in 0..3 {
            half[k] = half[k].max(u[k].abs());
        }
        // `d.abs().sum()`: ((0 + |d_x|) + |d_y|) + |d_z|, and 0 + x = x.
        reach = reach.max((d[0].abs() + d[1].abs()) + d[2].abs());
    });
    (
        Vector3::new(high(half[0]), high(half[1]), high(half[2])),
        high(reach),
    )
}

/// The RSS pull-in pass: for rims of radius `r` about the rectangle
/// through `center` with sides along columns 0 and 1 of `frame`, the
/// largest `u_k - s` and smallest `u_k + s` per side, where `u_k` is the
/// point's coordinate along side `k` and `s = sqrt(r² - z²)` the half-width
/// of the rim's section at the point's height `z` above the plane.
pub(crate) fn rim_bounds<T: Scalar, P: PointSet<T> + ?Sized>(
    frame: &Frame<T>,
    center: &Point3<T>,
    r: T,
    points: &P,
) -> ([T; 2], [T; 2]) {
    let c = splat_point(center);
    let zero = Lane::<T>::splat(T::ZERO);
    let r2 = Lane::<T>::splat(r * r);
    let mut hi = [Lane::<T>::splat(T::NEG_INFINITY); 2];
    let mut lo = [Lane::<T>::splat(T::INFINITY); 2];
    points.each_pair(|p| {
        let d = sub::<T>(&p, &c);
        let z = frame.dot(2, &d);
        let s = (r2 - z * z).max(zero).sqrt();
        for k in 0..2 {
            let u = frame.dot(k, &d);
            hi[k] = hi[k].max(u - s);
            lo[k] = lo[k].min(u + s);
        }
    });
    ([high(hi[0]), high(hi[1])], [low(lo[0]), low(lo[1])])
}

/// A rectangle (`Rss` without its radius) in lanes.
pub(crate) struct Rectangle<T: Scalar> {
    center: Points2<T>,
    frame: Frame<T>,
    half: [Lane<T>; 2],
    neg_half: [Lane<T>; 2],
}

impl<T: Scalar> Rectangle<T> {
    /// The rectangle through `center` spanning `±half[k]` along columns 0
    /// and 1 of `axes`.
    pub(crate) fn new(center: &Point3<T>, axes: &Matrix3<T>, half: [T; 2]) -> Self {
        Self {
            center: splat_point(center),
            frame: Frame::new(axes),
            half: half.map(Lane::<T>::splat),
            neg_half: half.map(|h| Lane::<T>::splat(-h)),
        }
    }

    /// The squared distance from each point to the rectangle, rounded as
    /// `Rss::rectangle_distance_squared` rounds it (the closest point
    /// `q = c + a₀ x₀ + a₁ x₁` with each `x_k = d · a_k` clamped to the
    /// side, then `|p - q|²`).
    #[inline(always)]
    pub(crate) fn distance_squared(&self, p: &Points2<T>) -> Lane<T> {
        let d = sub::<T>(p, &self.center);
        let mut q = self.center;
        for k in 0..2 {
            let x = self
                .frame
                .dot(k, &d)
                .max(self.neg_half[k])
                .min(self.half[k]);
            let a = &self.frame.col[k];
            for i in 0..3 {
                q[i] = q[i] + a[i] * x;
            }
        }
        let e = sub::<T>(p, &q);
        (e[0] * e[0] + e[1] * e[1]) + e[2] * e[2]
    }
}

/// The largest squared distance from the points to a rectangle.
pub(crate) fn rectangle_reach<T: Scalar, P: PointSet<T> + ?Sized>(
    rect: &Rectangle<T>,
    points: &P,
) -> T {
    let mut d = Lane::<T>::splat(T::ZERO);
    points.each_pair(|p| d = d.max(rect.distance_squared(&p)));
    high(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rss;
    use clash_math::{Rotation3, Scalar};
    use rand::{RngExt, SeedableRng};

    /// Lane results equal the scalar expressions bit for bit, in both
    /// lanes: `axes.tr_mul(&(p - c))` (what `Obb::contains_point` reads)
    /// and `Rss::rectangle_distance_squared`, for f64 (SSE2 lanes on
    /// x86_64) and f32 (array lanes), over random frames, centres far from
    /// and near the origin, and points inside and outside.
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
                let frame = Frame::new(&axes);
                let lanes = pair_of(&p, &q);
                let u = frame.project(&sub::<T>(&lanes, &splat_point(&c)));
                let rect = Rectangle::new(&c, &axes, half);
                let d2 = rect.distance_squared(&lanes).lanes();
                let rss = Rss {
                    center: c,
                    axes,
                    half_lengths: half,
                    radius: T::ZERO,
                };
                for (lane, x) in [p, q].iter().enumerate() {
                    let want = axes.tr_mul(&(x - c));
                    for k in 0..3 {
                        assert_eq!(
                            u[k].lanes()[lane].to_f64().to_bits(),
                            want[k].to_f64().to_bits()
                        );
                    }
                    let want = rss.rectangle_distance_squared(x);
                    assert_eq!(d2[lane].to_f64().to_bits(), want.to_f64().to_bits());
                }
            }
        }
        check::<f64>(1);
        check::<f32>(2);
    }

    /// Extents do not depend on the order or repetition of the points,
    /// including the sign of a zero extent.
    #[test]
    fn extents_ignore_order_and_repeats() {
        let pts = [
            Point3::new(0.0_f64, -0.0, 1.0),
            Point3::new(-0.0, 0.0, 1.0),
            Point3::new(0.0, 0.0, 2.0),
        ];
        let frame = Frame::new(&Matrix3::identity());
        let origin = Point3::new(-0.0, -0.0, 0.0);
        let want = spans(&frame, &origin, &pts[..]);
        for set in [
            vec![pts[1], pts[0], pts[2]],
            vec![pts[2], pts[1], pts[1], pts[0]],
            vec![pts[0], pts[0], pts[1], pts[2], pts[1]],
        ] {
            let got = spans(&frame, &origin, &set[..]);
            for k in 0..3 {
                assert_eq!(got.0[k].to_bits(), want.0[k].to_bits());
                assert_eq!(got.1[k].to_bits(), want.1[k].to_bits());
            }
        }
        assert_eq!(want.0[0].to_bits(), 0.0f64.to_bits());
    }
}
