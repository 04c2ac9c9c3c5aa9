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

use crate::IndexedPoints;
use crate::obb::PointSet;
use clash_math::{Matrix3, Pair, Point3, Scalar, Vector3};
use core::marker::PhantomData;
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

/// The smallest and largest coordinates of the points in the frame
/// `axes` about `origin` (`axesᵀ (p - origin)`), the first pass of the
/// OBB and RSS fits, and the largest `|p - origin|₁` as evaluated in lanes
/// (`(|d_x| + |d_y|) + |d_z|`): the scale of the coordinates' rounding.
/// `points` must be non-empty.
#[inline(always)]
pub(crate) fn spans_and_reach<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    origin: &Point3<T>,
    points: &P,
) -> (Vector3<T>, Vector3<T>, T) {
    spans_and_reach_keeping(frame, origin, points, |_| {})
}

/// [`spans_and_reach`], handing each visit's coordinates to `keep`.
#[inline(always)]
pub(crate) fn spans_and_reach_keeping<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    origin: &Point3<T>,
    points: &P,
    keep: impl FnMut([L; 3]),
) -> (Vector3<T>, Vector3<T>, T) {
    let within = Within(points, PhantomData);
    let (lo, hi, reach) = extents_in_lanes(frame, &splat_point(origin), &within, keep);
    (
        Vector3::new(lo[0].low(), lo[1].low(), lo[2].low()),
        Vector3::new(hi[0].high(), hi[1].high(), hi[2].high()),
        reach.high(),
    )
}

/// The first pass before its lanes are reduced: per lane, the smallest and
/// largest coordinates `frame ᵀ (p - o)` of the points `points` visits and
/// the largest `(|d_x| + |d_y|) + |d_z|` of `d = p - o`.
#[inline(always)]
fn extents_in_lanes<T: Scalar, L: Lanes<T>, S: Coordinates<L> + ?Sized>(
    frame: &Frame<L>,
    o: &[L; 3],
    points: &S,
    mut keep: impl FnMut([L; 3]),
) -> ([L; 3], [L; 3], L) {
    let mut lo = [L::splat(T::INFINITY); 3];
    let mut hi = [L::splat(T::NEG_INFINITY); 3];
    let mut reach = L::splat(T::ZERO);
    points.each(|p| {
        let d = sub(&p, o);
        let u = frame.project(&d);
        keep(u);
        for k in 0..3 {
            lo[k] = lo[k].min(u[k]);
            hi[k] = hi[k].max(u[k]);
        }
        reach = reach.max((d[0].abs() + d[1].abs()) + d[2].abs());
    });
    (lo, hi, reach)
}

/// Triples of lanes visited in turn: a point set's points, or their
/// coordinates in a frame as the first pass of a fit computed them,
/// visited again by its later passes.
pub(crate) trait Coordinates<L> {
    /// Calls `f` on the triples, as many points at a time as there are
    /// lanes.
    fn each(&self, f: impl FnMut([L; 3]));
}

/// The points of one set, as many at a time as `L` has lanes ([`Lanes::each`]).
struct Within<'a, T, P: ?Sized>(&'a P, PhantomData<T>);

impl<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized> Coordinates<L> for Within<'_, T, P> {
    #[inline(always)]
    fn each(&self, f: impl FnMut([L; 3])) {
        L::each(self.0, f);
    }
}

/// Two point sets side by side in [`Two`] lanes: lane 0 visits the first
/// set's points and lane 1 the second's, in order, and the shorter set's
/// last point is visited again until the longer set ends (a repeated point
/// changes no extent). How a tree builder fits a node's two children at
/// once: each lane computes what a fit of its set alone computes.
#[derive(Clone, Copy)]
pub(crate) struct Across<'a, T: Scalar>(pub [IndexedPoints<'a, T>; 2]);

impl<T: Scalar> Coordinates<Two<T>> for Across<'_, T> {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut([Two<T>; 3])) {
        let [a, b] = &self.0;
        let (na, nb) = (a.len(), b.len());
        for i in 0..na.max(nb) {
            let (p, q) = (a.point(i.min(na - 1)), b.point(i.min(nb - 1)));
            f(pair_of(&p, &q).map(Two));
        }
    }
}

impl<T: Scalar> Across<'_, T> {
    /// Each set's first point, lane by lane.
    pub(crate) fn origin(&self) -> [Two<T>; 3] {
        let [a, b] = &self.0;
        pair_of(&a.first(), &b.first()).map(Two)
    }
}

/// [`spans_and_reach`] of the two sets of `sets` side by side, handing each
/// visit's coordinates to `keep`: per lane, exactly what
/// [`spans_and_reach`] computes for that lane's set alone about `origin`'s
/// lane (its first point), `-0.0` made `0.0`.
#[inline(always)]
pub(crate) fn spans_and_reach_across<T: Scalar>(
    frame: &Frame<Two<T>>,
    origin: &[Two<T>; 3],
    sets: &Across<'_, T>,
    keep: impl FnMut([Two<T>; 3]),
) -> ([Two<T>; 3], [Two<T>; 3], Two<T>) {
    let zero = Two::splat(T::ZERO);
    let (lo, hi, reach) = extents_in_lanes(frame, origin, sets, keep);
    (lo.map(|x| x + zero), hi.map(|x| x + zero), reach + zero)
}

/// Coordinates recomputed from the points with the expression of
/// [`spans_and_reach`], so the very values that pass computed.
pub(crate) struct Recomputed<'a, L, T: Scalar, P: ?Sized> {
    pub frame: &'a Frame<L>,
    pub origin: Point3<T>,
    pub points: &'a P,
}

impl<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized> Coordinates<L> for Recomputed<'_, L, T, P> {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut([L; 3])) {
        let o = splat_point::<T, L>(&self.origin);
        L::each(self.points, |p| f(self.frame.project(&sub(&p, &o))));
    }
}

/// Coordinates stored by the first pass ([`spans_and_reach_into`]).
impl<L: Copy> Coordinates<L> for [[L; 3]] {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut([L; 3])) {
        for w in self {
            f(*w);
        }
    }
}

/// [`spans_and_reach`], storing each visit's coordinates in `out`
/// (cleared first).
#[inline(always)]
pub(crate) fn spans_and_reach_into<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized>(
    frame: &Frame<L>,
    origin: &Point3<T>,
    points: &P,
    out: &mut Vec<[L; 3]>,
) -> (Vector3<T>, Vector3<T>, T) {
    out.clear();
    out.reserve(points.len().div_ceil(2));
    spans_and_reach_keeping(frame, origin, points, |u| out.push(u))
}

/// The RSS pull-in pass, on the points' coordinates `w` about their
/// origin ([`Coordinates`]), per lane: for rims of radius `r` about a
/// rectangle whose centre has coordinates `s` and whose sides lie along
/// columns 0 and 1, the largest `v_k - t` and smallest `v_k + t` per side,
/// where `v = w - s` and `t = sqrt(r² - v_z²)` is the half-width of the
/// rim's section at the point's height `v_z` above the plane.
#[inline(always)]
fn rim_bounds_in_lanes<T: Scalar, L: Lanes<T>, C: Coordinates<L> + ?Sized>(
    coords: &C,
    s: &[L; 3],
    r: L,
) -> ([L; 2], [L; 2]) {
    let zero = L::splat(T::ZERO);
    let r2 = r * r;
    let mut hi = [L::splat(T::NEG_INFINITY); 2];
    let mut lo = [L::splat(T::INFINITY); 2];
    coords.each(|w| {
        let v = sub(&w, s);
        let t = (r2 - v[2] * v[2]).max(zero).sqrt();
        for k in 0..2 {
            hi[k] = hi[k].max(v[k] - t);
            lo[k] = lo[k].min(v[k] + t);
        }
    });
    (hi, lo)
}

/// Per lane, the largest squared distance, in the frame's coordinates,
/// from the points to the rectangle whose centre has coordinates `s`
/// about their origin and which spans `±half[k]` along column `k`: over
/// `v = w - s` ([`Coordinates`]), `e_k = max(|v_k| - half_k, 0)` and
/// `(e_0² + e_1²) + v_z²`.
#[inline(always)]
fn rectangle_reach_in_lanes<T: Scalar, L: Lanes<T>, C: Coordinates<L> + ?Sized>(
    coords: &C,
    s: &[L; 3],
    half: [L; 2],
) -> L {
    let zero = L::splat(T::ZERO);
    let mut d = zero;
    coords.each(|w| {
        let v = sub(&w, s);
        let e0 = (v[0].abs() - half[0]).max(zero);
        let e1 = (v[1].abs() - half[1]).max(zero);
        d = d.max((e0 * e0 + e1 * e1) + v[2] * v[2]);
    });
    d
}

/// The RSS fit's later passes ([`rim_bounds_in_lanes`] as `(upper, lower)`
/// and [`rectangle_reach_in_lanes`]) with their inputs and answers in lanes
/// `M`: one set's answers in [`One`] ([`OneSet`], reduced over the lanes its
/// coordinates take), or two sets' side by side in [`Two`] ([`AcrossSets`]),
/// `-0.0` made `0.0` either way.
pub(crate) trait PullIn<M> {
    /// Per side `k`, the largest `v_k - t` and the smallest `v_k + t`.
    fn rim_bounds(&self, s: &[M; 3], r: M) -> ([M; 2], [M; 2]);
    /// The largest squared distance to the rectangle.
    fn rectangle_reach(&self, s: &[M; 3], half: [M; 2]) -> M;
}

/// One set's coordinates in lanes `L`.
pub(crate) struct OneSet<'a, L, C: ?Sized>(pub &'a C, pub PhantomData<L>);

impl<T: Scalar, L: Lanes<T>, C: Coordinates<L> + ?Sized> PullIn<One<T>> for OneSet<'_, L, C> {
    #[inline(always)]
    fn rim_bounds(&self, s: &[One<T>; 3], r: One<T>) -> ([One<T>; 2], [One<T>; 2]) {
        let s = s.map(|x| L::splat(x.0));
        let (hi, lo) = rim_bounds_in_lanes(self.0, &s, L::splat(r.0));
        (hi.map(|x| One(x.high())), lo.map(|x| One(x.low())))
    }
    #[inline(always)]
    fn rectangle_reach(&self, s: &[One<T>; 3], half: [One<T>; 2]) -> One<T> {
        let s = s.map(|x| L::splat(x.0));
        One(rectangle_reach_in_lanes(self.0, &s, half.map(|x| L::splat(x.0))).high())
    }
}

/// Two sets' coordinates side by side, as [`spans_and_reach_across`] stored them.
pub(crate) struct AcrossSets<'a, T: Scalar>(pub &'a [[Two<T>; 3]]);

impl<T: Scalar> PullIn<Two<T>> for AcrossSets<'_, T> {
    #[inline(always)]
    fn rim_bounds(&self, s: &[Two<T>; 3], r: Two<T>) -> ([Two<T>; 2], [Two<T>; 2]) {
        let zero = Two::splat(T::ZERO);
        let (hi, lo) = rim_bounds_in_lanes(self.0, s, r);
        (hi.map(|x| x + zero), lo.map(|x| x + zero))
    }
    #[inline(always)]
    fn rectangle_reach(&self, s: &[Two<T>; 3], half: [Two<T>; 2]) -> Two<T> {
        rectangle_reach_in_lanes(self.0, s, half) + Two::splat(T::ZERO)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoundingVolume, Obb, Rss};
    use clash_math::{Rotation3, Scalar};
    use rand::{RngExt, SeedableRng};

    fn lane_bits<T: Scalar>(x: Two<T>) -> [u64; 2] {
        x.0.lanes().map(|v| v.to_f64().to_bits())
    }

    /// Lane results equal the scalar expressions bit for bit, one point at
    /// a time and in both lanes of two: `axes.tr_mul(&(p - c))` (what
    /// `Obb::contains_point` reads and the fits' bounds assume), for f64 (SSE2 lanes on x86_64) and f32 (array lanes), over random
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
                let p = Point3::new(c.x + r(scale), c.y + r(scale), c.z + r(scale));
                let q = Point3::new(c.x + r(2.0 * scale), c.y + r(scale), c.z + r(scale));
                let two = Frame::<Two<T>>::new(&axes);
                let one = Frame::<One<T>>::new(&axes);
                let lanes = pair_of(&p, &q).map(Two::<T>);
                let u = two.project(&sub(&lanes, &splat_point(&c)));
                for (lane, x) in [p, q].iter().enumerate() {
                    let want = axes.tr_mul(&(x - c));
                    let single = [One(x.x), One(x.y), One(x.z)];
                    let u1 = one.project(&sub(&single, &splat_point(&c)));
                    for k in 0..3 {
                        let bits = want[k].to_f64().to_bits();
                        assert_eq!(lane_bits(u[k])[lane], bits);
                        assert_eq!(u1[k].0.to_f64().to_bits(), bits);
                    }
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
        fn spans<L: Lanes<f64>>(
            frame: &Frame<L>,
            origin: &Point3<f64>,
            set: &[Point3<f64>],
        ) -> (Vector3<f64>, Vector3<f64>) {
            let (lo, hi, _) = spans_and_reach(frame, origin, set);
            (lo, hi)
        }
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
    /// (so that a fit does not depend on how many points a set lists), and
    /// RSS fits with stored and recomputed coordinates too, on
    /// random sets of 1 to 12 points, f64 and f32.
    #[test]
    fn fits_agree_across_lane_widths() {
        fn check<T: Scalar>(seed: u64) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut scratch = crate::FitScratch::new();
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
                // Coordinates stored by the first pass and read back: the
                // same volume (the scratch keeps its last contents).
                let c = Rss::fit_along_stored(&axes, &pts[..], &mut scratch);
                assert_eq!(format!("{a:?}"), format!("{c:?}"));
            }
        }
        check::<f64>(3);
        check::<f32>(4);
    }

    fn rss_bits<T: Scalar>(r: &Rss<T>) -> Vec<u64> {
        let mut v: Vec<T> = r.center.iter().copied().collect();
        v.extend(r.axes.iter().copied());
        v.extend(r.half_lengths);
        v.push(r.radius);
        v.iter().map(|x| x.to_f64().to_bits()).collect()
    }

    fn obb_bits<T: Scalar>(b: &Obb<T>) -> Vec<u64> {
        let v = b
            .center
            .iter()
            .chain(b.axes.iter())
            .chain(b.half_extents.iter());
        v.map(|x| x.to_f64().to_bits()).collect()
    }

    /// Two sets fitted side by side in lanes ([`Across`]) give, lane by
    /// lane, the very box and RSS each set gets alone: sets of 1 to 40 points (both sides of
    /// the four-point stack path and the stored path, with sizes that
    /// differ, so that the shorter set's last point repeats), flat and
    /// round, near the origin and far from it, with repeated points and
    /// signed zeros, f64 and f32.
    #[test]
    fn fits_side_by_side_match_single_fits() {
        fn check<T: Scalar>(seed: u64) {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let mut scratch = crate::FitScratch::new();
            let mut alone = crate::FitScratch::new();
            let sizes = [1, 2, 3, 4, 5, 6, 8, 9, 13, 40];
            for round in 0..4000 {
                let mut r = |s: f64| T::lit(rng.random_range(-s..s));
                let mut make = |round: usize, lane: usize| {
                    let n = sizes[(round / 7 + lane * (1 + round % 3)) % sizes.len()];
                    let far = if round.is_multiple_of(5) { 1e7 } else { 0.0 };
                    let flat = [1.0, 1e-3, 0.0][(round + lane) % 3];
                    let c = Vector3::new(r(far + 1.0), r(1.0), r(far + 1.0));
                    let mut v: Vec<Point3<T>> = (0..n)
                        .map(|_| {
                            Point3::from(c + Vector3::new(r(1.0), r(0.5), r(1.0) * T::lit(flat)))
                        })
                        .collect();
                    if round.is_multiple_of(11) && n > 1 {
                        v[n - 1] = v[0];
                    }
                    if round.is_multiple_of(13) {
                        v[0] = Point3::new(T::lit(-0.0), T::ZERO, T::lit(-0.0));
                    }
                    let axes = *Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0)).matrix();
                    (v, axes)
                };
                let (va, aa) = make(round, 0);
                let (vb, ab) = make(round, 1);
                let (ia, ib): (Vec<u32>, Vec<u32>) = (
                    (0..va.len() as u32).collect(),
                    (0..vb.len() as u32).rev().collect(),
                );
                let pa = IndexedPoints::new(&va, &ia).unwrap();
                let pb = IndexedPoints::new(&vb, &ib).unwrap();
                let two = Rss::fit_along_stored_x2([&aa, &ab], [&pa, &pb], &mut scratch);
                let one = [
                    Rss::fit_along_stored(&aa, &pa, &mut alone),
                    Rss::fit_along_stored(&ab, &pb, &mut alone),
                ];
                let boxes = Obb::from_axes_x2([&aa, &ab], [&pa, &pb]);
                let alone = [Obb::from_axes_over(&aa, &pa), Obb::from_axes_over(&ab, &pb)];
                for lane in 0..2 {
                    let at = format!("round {round} lane {lane}");
                    assert_eq!(rss_bits(&two[lane]), rss_bits(&one[lane]), "{at}");
                    assert_eq!(obb_bits(&boxes[lane]), obb_bits(&alone[lane]), "{at}");
                }
                for (lane, set) in [&va, &vb].into_iter().enumerate() {
                    assert!(set.iter().all(|p| two[lane].contains_point(p)));
                    assert!(set.iter().all(|p| boxes[lane].contains_point(p)));
                }
            }
        }
        check::<f64>(5);
        check::<f32>(6);
    }
}
