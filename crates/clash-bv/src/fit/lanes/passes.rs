//! The passes over a point set in a frame, written once over [`Lanes`]:
//! the extents and reach of the first pass (one set, or two side by side,
//! [`Across`]), and the RSS fit's rim and rectangle passes ([`PullIn`]).

use super::{Frame, each, high, low, pair_of, splat_point, sub};
use crate::IndexedPoints;
use crate::fit::point_set::PointSet;
use clash_math::lanes::Lanes;
use clash_math::{Point3, Scalar, Vector3};
use core::marker::PhantomData;

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
        Vector3::new(low(lo[0]), low(lo[1]), low(lo[2])),
        Vector3::new(high(hi[0]), high(hi[1]), high(hi[2])),
        high(reach),
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
            lo[k] = lo[k].min_of(u[k]);
            hi[k] = hi[k].max_of(u[k]);
        }
        reach = reach.max_of((d[0].abs() + d[1].abs()) + d[2].abs());
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

/// The points of one set, as many at a time as `L` has lanes ([`each`]).
struct Within<'a, T, P: ?Sized>(&'a P, PhantomData<T>);

impl<T: Scalar, L: Lanes<T>, P: PointSet<T> + ?Sized> Coordinates<L> for Within<'_, T, P> {
    #[inline(always)]
    fn each(&self, f: impl FnMut([L; 3])) {
        each(self.0, f);
    }
}

/// Two point sets side by side in [`Scalar::Pair`] lanes: lane 0 visits the first
/// set's points and lane 1 the second's, in order, and the shorter set's
/// last point is visited again until the longer set ends (a repeated point
/// changes no extent). How a tree builder fits a node's two children at
/// once: each lane computes what a fit of its set alone computes.
#[derive(Clone, Copy)]
pub(crate) struct Across<'a, T: Scalar>(pub [IndexedPoints<'a, T>; 2]);

impl<T: Scalar> Coordinates<T::Pair> for Across<'_, T> {
    #[inline(always)]
    fn each(&self, mut f: impl FnMut([T::Pair; 3])) {
        let [a, b] = &self.0;
        let (na, nb) = (a.len(), b.len());
        for i in 0..na.max(nb) {
            let (p, q) = (a.point(i.min(na - 1)), b.point(i.min(nb - 1)));
            f(pair_of(&p, &q));
        }
    }
}

impl<T: Scalar> Across<'_, T> {
    /// Each set's first point, lane by lane.
    pub(crate) fn origin(&self) -> [T::Pair; 3] {
        let [a, b] = &self.0;
        pair_of(&a.first(), &b.first())
    }
}

/// [`spans_and_reach`] of the two sets of `sets` side by side, handing each
/// visit's coordinates to `keep`: per lane, exactly what
/// [`spans_and_reach`] computes for that lane's set alone about `origin`'s
/// lane (its first point), `-0.0` made `0.0`.
#[inline(always)]
pub(crate) fn spans_and_reach_across<T: Scalar>(
    frame: &Frame<T::Pair>,
    origin: &[T::Pair; 3],
    sets: &Across<'_, T>,
    keep: impl FnMut([T::Pair; 3]),
) -> ([T::Pair; 3], [T::Pair; 3], T::Pair) {
    let zero = T::Pair::splat(T::ZERO);
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
        each(self.points, |p| f(self.frame.project(&sub(&p, &o))));
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
        let t = (r2 - v[2] * v[2]).max_of(zero).sqrt();
        for k in 0..2 {
            hi[k] = hi[k].max_of(v[k] - t);
            lo[k] = lo[k].min_of(v[k] + t);
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
        let e0 = (v[0].abs() - half[0]).max_of(zero);
        let e1 = (v[1].abs() - half[1]).max_of(zero);
        d = d.max_of((e0 * e0 + e1 * e1) + v[2] * v[2]);
    });
    d
}

/// The RSS fit's later passes ([`rim_bounds_in_lanes`] as `(upper, lower)`
/// and [`rectangle_reach_in_lanes`]) with their inputs and answers in lanes
/// `M`: one set's answers in one lane, the scalar ([`OneSet`], reduced over
/// the lanes its coordinates take), or two sets' side by side in
/// [`Scalar::Pair`] lanes ([`AcrossSets`]), `-0.0` made `0.0` either way.
pub(crate) trait PullIn<M> {
    /// Per side `k`, the largest `v_k - t` and the smallest `v_k + t`.
    fn rim_bounds(&self, s: &[M; 3], r: M) -> ([M; 2], [M; 2]);
    /// The largest squared distance to the rectangle.
    fn rectangle_reach(&self, s: &[M; 3], half: [M; 2]) -> M;
}

/// One set's coordinates in lanes `L`.
pub(crate) struct OneSet<'a, L, C: ?Sized>(pub &'a C, pub PhantomData<L>);

impl<T: Scalar, L: Lanes<T>, C: Coordinates<L> + ?Sized> PullIn<T> for OneSet<'_, L, C> {
    #[inline(always)]
    fn rim_bounds(&self, s: &[T; 3], r: T) -> ([T; 2], [T; 2]) {
        let s = s.map(L::splat);
        let (hi, lo) = rim_bounds_in_lanes(self.0, &s, L::splat(r));
        (hi.map(high), lo.map(low))
    }
    #[inline(always)]
    fn rectangle_reach(&self, s: &[T; 3], half: [T; 2]) -> T {
        let s = s.map(L::splat);
        high(rectangle_reach_in_lanes(self.0, &s, half.map(L::splat)))
    }
}

/// Two sets' coordinates side by side, as [`spans_and_reach_across`] stored them.
pub(crate) struct AcrossSets<'a, T: Scalar>(pub &'a [[T::Pair; 3]]);

impl<T: Scalar> PullIn<T::Pair> for AcrossSets<'_, T> {
    #[inline(always)]
    fn rim_bounds(&self, s: &[T::Pair; 3], r: T::Pair) -> ([T::Pair; 2], [T::Pair; 2]) {
        let zero = T::Pair::splat(T::ZERO);
        let (hi, lo) = rim_bounds_in_lanes(self.0, s, r);
        (hi.map(|x| x + zero), lo.map(|x| x + zero))
    }
    #[inline(always)]
    fn rectangle_reach(&self, s: &[T::Pair; 3], half: [T::Pair; 2]) -> T::Pair {
        rectangle_reach_in_lanes(self.0, s, half) + T::Pair::splat(T::ZERO)
    }
}
