//! Distance between rectangle-swept spheres: rectangle/rectangle distance
//! minus the radii (RTCD §4.5.2; the rectangle distance by the case analysis
//! of Larsen et al., "Fast proximity queries with swept sphere volumes").
//!
//! Computed as a lower bound, in `f64` whatever the scalar: the exact
//! distance is a minimum over features, two of which are ill-conditioned
//! in floating point and are bounded instead:
//! - where an edge of one rectangle passes through the other, the crossing
//!   point is found by a division by the edge's rise across the plane,
//!   inaccurate when the edge is nearly parallel to it; a conservative test
//!   ([`segment_may_meet_rectangle`]) replaces it;
//! - the distance between nearly parallel edges is computed from
//!   ill-conditioned closest-point parameters, and is lowered by a bound on
//!   its excess (`segment_distance_excess`).
use crate::Rss;
use crate::segment_segment::{segment_distance_excess, segment_segment_distance};
use clash_math::{Scalar, Segment};

/// `f64`'s unit round-off, for the allowances below.
const EPS: f64 = f64::EPSILON;

/// Whether the segment `s` may meet the rectangle of `r`, conservatively:
/// `true` whenever they meet in exact arithmetic (and, within a rounding
/// bound, for some pairs that only come within a few ulps of the
/// coordinates, or within `|s| sin α` of each other when the segment is
/// nearly parallel to the rectangle's plane at angle `α`).
///
/// Every coordinate here (offsets along the rectangle's normal and axes)
/// is computed to within `η`, a bound on the rounding of the differences
/// and dot products and on the frame's departure from orthonormality; the
/// coordinates along the segment are linear in its parameter `t`, so they
/// are within `η` at every `t`. The segment can meet the plane only where
/// its computed offset is within `η` of 0, an interval of `t`, narrow when
/// the segment rises steeply across the plane and the whole segment when
/// it runs along it; the test clips that interval against the rectangle's
/// slabs widened by `η` (Liang–Barsky), rounding every parameter outwards.
/// So no division by a small rise decides the answer, unlike the
/// crossing-point test of RTCD §5.3.
fn segment_may_meet_rectangle(r: &Rss<f64>, s: &Segment<f64>) -> bool {
    let (u, v, n) = (r.axes.column(0), r.axes.column(1), r.axes.column(2));
    let (da, db) = (s.a - r.center, s.b - r.center);
    let [h0, h1] = r.half_lengths;
    let m =
        s.a.coords
            .amax()
            .max(s.b.coords.amax())
            .max(r.center.coords.amax());
    let eta = EPS * 64.0 * (3.0 * m + h0 + h1);
    let (za, zb) = (da.dot(&n), db.dot(&n));
    if (za > eta && zb > eta) || (za < -eta && zb < -eta) {
        return false;
    }
    let mut t = (0.0, 1.0);
    // Narrows `t` to where `pa + t (pb - pa)` lies in `[-h, h]`; `false`
    // when nowhere (a parameter `x` found by a division is rounded by at
    // most `2ε |x|`, so each is widened by `4ε max(|x|, 1)`).
    let mut clip = |pa: f64, pb: f64, h: f64| -> bool {
        let dp = pb - pa;
        if dp == 0.0 {
            return pa.abs() <= h;
        }
        let (x, y) = ((-h - pa) / dp, (h - pa) / dp);
        let (lo, hi) = if x <= y { (x, y) } else { (y, x) };
        let widen = |x: f64| EPS * 4.0 * x.abs().max(1.0);
        t.0 = f64::max(t.0, lo - widen(lo));
        t.1 = f64::min(t.1, hi + widen(hi));
        t.0 <= t.1
    };
    clip(za, zb, eta)
        && clip(da.dot(&u), db.dot(&u), h0 + eta)
        && clip(da.dot(&v), db.dot(&v), h1 + eta)
}

/// The four edges of `r`'s rectangle, in order around it.
fn edges(r: &Rss<f64>) -> [Segment<f64>; 4] {
    let c = r.rectangle_corners();
    [
        Segment::new(c[0], c[1]),
        Segment::new(c[1], c[2]),
        Segment::new(c[2], c[3]),
        Segment::new(c[3], c[0]),
    ]
}

/// A lower bound on the distance between the rectangles of `a` and `b`
/// (see [`Rss::rectangle_rectangle_distance`]), in `f64`.
fn rectangle_distance_lower_bound(a: &Rss<f64>, b: &Rss<f64>) -> f64 {
    let (ea, eb) = (edges(a), edges(b));
    if ea.iter().any(|e| segment_may_meet_rectangle(b, e))
        || eb.iter().any(|e| segment_may_meet_rectangle(a, e))
    {
        return 0.0;
    }
    let mut d = f64::INFINITY;
    for c in b.rectangle_corners() {
        d = d.min(a.rectangle_distance(&c));
    }
    for c in a.rectangle_corners() {
        d = d.min(b.rectangle_distance(&c));
    }
    for x in &ea {
        for y in &eb {
            let e = segment_segment_distance(x, y);
            d = d.min(e - segment_distance_excess(x, y, e));
        }
    }
    // The corners' and point distances' own rounding.
    let scale = (b.center - a.center).norm()
        + a.half_lengths[0]
        + a.half_lengths[1]
        + b.half_lengths[0]
        + b.half_lengths[1]
        + a.center.coords.amax().max(b.center.coords.amax());
    (d - scale * EPS * 16.0).max(0.0)
}

impl<T: Scalar> Rss<T> {
    /// The volume in `f64` (every `f32` converts exactly).
    fn wide(&self) -> Rss<f64> {
        Rss {
            center: self.center.map(T::to_f64),
            axes: self.axes.map(T::to_f64),
            half_lengths: self.half_lengths.map(T::to_f64),
            radius: self.radius.to_f64(),
        }
    }

    /// A lower bound on the distance between the two rectangles (0 when
    /// they may meet), exact up to rounding except between nearly parallel
    /// edges, where it may fall short by up to about `2√ε` of their
    /// lengths in `f64` (`ε` = 2.2e-16). A closest pair of two disjoint
    /// convex polygons can be chosen with one point on an edge, and then
    /// with the other on an edge or at a corner, so the minimum over
    /// corner/rectangle and edge/edge distances is the distance once the
    /// edge-meets-rectangle cases (distance 0) are ruled out. Computed in
    /// `f64` whatever `T`, then rounded down to `T`.
    pub fn rectangle_rectangle_distance(&self, other: &Self) -> T {
        let d = T::lit(rectangle_distance_lower_bound(&self.wide(), &other.wide()));
        (d - d * T::EPSILON * T::lit(2.0)).max_of(T::ZERO)
    }

    /// A lower bound on the distance between the two volumes: rectangle
    /// distance minus both radii, less a rounding allowance relative to the
    /// magnitudes involved, clamped at 0.
    pub fn distance(&self, other: &Self) -> T {
        self.distance_with(other, T::ZERO)
    }

    /// [`Self::distance`] with `placement` (the magnitude of the
    /// coordinates `other` was placed from by a pose, 0 when it was not)
    /// added to the magnitudes of the allowance, which then also covers
    /// the rounding of the placement and of the triangles placed alike.
    pub(crate) fn distance_with(&self, other: &Self, placement: T) -> T {
        let d = self.rectangle_rectangle_distance(other);
        let scale = (other.center - self.center).norm()
            + self.half_lengths[0]
            + self.half_lengths[1]
            + other.half_lengths[0]
            + other.half_lengths[1]
            + self
                .center
                .coords
                .abs()
                .max()
                .max_of(other.center.coords.abs().max())
            + placement;
        let tol = scale * T::EPSILON * T::lit(8.0);
        (d - self.radius - other.radius - tol).max_of(T::ZERO)
    }

    /// The volume with its centre and frame placed by `pose`'s matrix, as
    /// trees place the other tree's triangles.
    pub(crate) fn placed(&self, pose: &crate::RelativePose<T>) -> Self {
        Self {
            center: pose.transform_point(&self.center),
            axes: pose.rotation * self.axes,
            half_lengths: self.half_lengths,
            radius: self.radius,
        }
    }
}
