//! Exact triangle/triangle overlap test (RTCD §5.2.10; RTR §16.11,
//! Guigue–Devillers orientation form), with degenerate triangles (segments
//! and points) and the coplanar case decided exactly.
//!
//! # Method
//!
//! Everything is decided by the signs of exact orientation predicates
//! ([`super::exact`]), so no rounding error can turn a touching contact into
//! a miss or a near miss into a contact:
//!
//! 1. A bounding-box rejection (pure comparisons, exact).
//! 2. The sign of each vertex of one triangle against the plane of the other
//!    (`orient3d`, RTCD §5.2.10's plane test): all strictly on one side
//!    rejects. A degenerate triangle gives zero for every point, so a non-zero
//!    sign also proves the triangle non-degenerate. When a sign vector is all
//!    zero, the exact normal signs (`orient2d` of the coordinate projections)
//!    tell a degenerate triangle from a coplanar pair; the coplanar case is
//!    solved in the coordinate plane where the common normal has a non-zero
//!    component (projection is then a bijection of the plane, so incidences
//!    are preserved) with `orient2d`.
//! 3. Otherwise the planes cross in a line `L`, and `T1 ∩ L`, `T2 ∩ L` are
//!    segments whose end points lie on edges of `T1` (resp. `T2`) that meet the
//!    other triangle's plane. The end points of the overlap of the two segments
//!    are end points of one of them, so the triangles meet iff some edge of one
//!    triangle that meets the other's plane meets the other triangle. An edge
//!    `pq` that crosses (or touches) the plane in one point `X` meets triangle
//!    `abc` iff the signs of `orient3d(p, q, a, b)`, `orient3d(p, q, b, c)`,
//!    `orient3d(p, q, c, a)` are not strictly opposite: each equals
//!    `sign((q - p)·n) · sign(area(X, edge))`, the barycentric sign of `X`.
//!    An edge lying in the other triangle's plane is a coplanar
//!    segment/triangle test.
//! 4. A degenerate triangle is the union of its three edges (segments, maybe
//!    of zero length), so it is tested edge by edge: segment/triangle as above,
//!    segment/segment by coplanarity (`orient3d`) then `orient2d` in a
//!    projection that is injective on their common plane, or interval overlap
//!    when everything is collinear.

use super::OverlapStats;
use super::exact::{P2, P3, Probe, Tally, drop_axis, normal_signs, orient2d, orient3d, p3};
use clash_math::{Point3, Scalar, Segment, Triangle};

/// `true` when the closed triangles `t1` and `t2` share at least one point.
///
/// Exact for every finite `f32`/`f64` input (see [`super`]): touching at a
/// vertex, along an edge, shared edges and vertices, nearly coplanar and
/// coplanar pairs are all decided exactly. Degenerate triangles are treated as the segment or point
/// they are. Returns `false` when any coordinate is NaN or infinite.
///
/// RTCD §5.2.10, RTR §16.11 (orientation-predicate form).
///
/// ```
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::overlap::triangle_triangle;
/// let t1 = Triangle::new(Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0), Point3::new(0.0, 1.0, 0.0));
/// // touches t1 at its vertex (1, 0, 0) only
/// let t2 = Triangle::new(Point3::new(1.0, 0.0, 0.0), Point3::new(2.0, 0.0, 1.0), Point3::new(2.0, 1.0, -1.0));
/// assert!(triangle_triangle(&t1, &t2));
/// ```
#[inline]
pub fn triangle_triangle<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> bool {
    if !(t1.is_finite() && t2.is_finite()) {
        return false;
    }
    tri_tri(&mut (), &tri3(t1), &tri3(t2))
}

/// [`triangle_triangle`], also counting in `stats` the call and whether any
/// predicate needed exact arithmetic (for benchmarks; slightly slower).
pub fn triangle_triangle_with_stats<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
    stats: &mut OverlapStats,
) -> bool {
    let mut tally = Tally::default();
    let r = t1.is_finite() && t2.is_finite() && tri_tri(&mut tally, &tri3(t1), &tri3(t2));
    stats.record(tally.0);
    r
}

/// What two overlapping triangles have in common, from [`triangle_triangle_segment`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TriangleIntersection<T: Scalar> {
    /// The intersection is this segment (a point when `a == b`): the planes of
    /// the triangles cross, or a degenerate triangle (a segment or point) is
    /// involved. The end points are computed in floating point, so they are
    /// accurate to rounding, not exact.
    Segment(Segment<T>),
    /// Both triangles are non-degenerate and lie in one plane (decided
    /// exactly); their intersection is a convex polygon of that plane, which is
    /// not computed.
    Coplanar,
}

/// The intersection of two closed triangles: `None` when they are disjoint
/// (decided exactly, as [`triangle_triangle`]), otherwise the intersection
/// segment or [`TriangleIntersection::Coplanar`].
///
/// The segment's end points are the extreme points, along the intersection
/// line, of the points where an edge of one triangle meets the other
/// triangle; they are computed in floating point (accurate to a few ulps of
/// the coordinates for well-shaped triangles, and never `NaN` for finite
/// input). RTCD §5.2.10, RTR §16.11 (interval form).
///
/// ```
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::overlap::{TriangleIntersection, triangle_triangle_segment};
/// let t1 = Triangle::new(Point3::new(-1.0, -1.0, 0.0), Point3::new(3.0, -1.0, 0.0), Point3::new(-1.0, 3.0, 0.0));
/// let t2 = Triangle::new(Point3::new(0.0, 0.0, -1.0), Point3::new(0.0, 0.0, 1.0), Point3::new(1.0, 0.0, 0.0));
/// match triangle_triangle_segment(&t1, &t2) {
///     Some(TriangleIntersection::Segment(s)) => {
///         let (lo, hi) = if s.a.x < s.b.x { (s.a, s.b) } else { (s.b, s.a) };
///         assert_eq!((lo, hi), (Point3::new(0.0, 0.0, 0.0), Point3::new(1.0, 0.0, 0.0)));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn triangle_triangle_segment<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
) -> Option<TriangleIntersection<T>> {
    if !(t1.is_finite() && t2.is_finite()) {
        return None;
    }
    let (a, b) = (tri3(t1), tri3(t2));
    if !tri_tri(&mut (), &a, &b) {
        return None;
    }
    let pr = &mut ();
    let n1 = normal_signs(pr, &a[0], &a[1], &a[2]);
    let n2 = normal_signs(pr, &b[0], &b[1], &b[2]);
    let (deg1, deg2) = (n1 == [0; 3], n2 == [0; 3]);
    if !deg1 && !deg2 && b.iter().all(|q| orient3d(pr, &a[0], &a[1], &a[2], q) == 0) {
        return Some(TriangleIntersection::Coplanar);
    }
    // Collect the points where edges of one meet the other (approximately).
    let mut pts: Vec<P3> = Vec::with_capacity(12);
    let mut collect = |x: &[P3; 3], y: &[P3; 3], ny: [i8; 3], degy: bool, pts: &mut Vec<P3>| {
        for (i, j) in EDGES {
            if degy {
                for (k, l) in EDGES {
                    if seg_seg(pr, &x[i], &x[j], &y[k], &y[l]) {
                        approx_seg_seg(&x[i], &x[j], &y[k], &y[l], pts);
                    }
                }
            } else if seg_tri(pr, &x[i], &x[j], y, ny) {
                approx_seg_tri(&x[i], &x[j], y, pts);
            }
        }
    };
    collect(&a, &b, n2, deg2, &mut pts);
    collect(&b, &a, n1, deg1, &mut pts);
    if pts.is_empty() {
        // Unreachable in exact terms (the triangles meet); keep a defined answer.
        pts.push(a[0]);
    }
    // Extreme pair: farthest along the direction of largest spread.
    let spread = |k: usize| {
        let lo = pts.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
        let hi = pts.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
        hi - lo
    };
    let k = (0..3)
        .max_by(|&i, &j| spread(i).total_cmp(&spread(j)))
        .unwrap_or(0);
    let lo = pts
        .iter()
        .copied()
        .min_by(|p, q| p[k].total_cmp(&q[k]))
        .unwrap_or(a[0]);
    let hi = pts
        .iter()
        .copied()
        .max_by(|p, q| p[k].total_cmp(&q[k]))
        .unwrap_or(a[0]);
    let back = |p: P3| Point3::new(T::lit(p[0]), T::lit(p[1]), T::lit(p[2]));
    Some(TriangleIntersection::Segment(Segment::new(
        back(lo),
        back(hi),
    )))
}

const EDGES: [(usize, usize); 3] = [(0, 1), (1, 2), (2, 0)];

#[inline(always)]
fn tri3<T: Scalar>(t: &Triangle<T>) -> [P3; 3] {
    [p3(&t.a), p3(&t.b), p3(&t.c)]
}

/// The exact test on finite `f64` coordinates.
#[inline]
pub(crate) fn tri_tri<P: Probe>(pr: &mut P, t1: &[P3; 3], t2: &[P3; 3]) -> bool {
    for k in 0..3 {
        let (lo1, hi1) = min_max(t1[0][k], t1[1][k], t1[2][k]);
        let (lo2, hi2) = min_max(t2[0][k], t2[1][k], t2[2][k]);
        if hi1 < lo2 || hi2 < lo1 {
            return false;
        }
    }
    // Plane tests. A degenerate triangle gives zero for every point, so a
    // non-zero sign also proves that the triangle is non-degenerate.
    let s2 = [
        orient3d(pr, &t1[0], &t1[1], &t1[2], &t2[0]),
        orient3d(pr, &t1[0], &t1[1], &t1[2], &t2[1]),
        orient3d(pr, &t1[0], &t1[1], &t1[2], &t2[2]),
    ];
    if same_strict_side(&s2) {
        return false;
    }
    let s1 = [
        orient3d(pr, &t2[0], &t2[1], &t2[2], &t1[0]),
        orient3d(pr, &t2[0], &t2[1], &t2[2], &t1[1]),
        orient3d(pr, &t2[0], &t2[1], &t2[2], &t1[2]),
    ];
    if same_strict_side(&s1) {
        return false;
    }
    if s1 != [0; 3] && s2 != [0; 3] {
        // Both non-degenerate and the planes cross.
        return edges_meet(pr, t1, &s1, t2) || edges_meet(pr, t2, &s2, t1);
    }
    let n1 = normal_signs(pr, &t1[0], &t1[1], &t1[2]);
    let n2 = normal_signs(pr, &t2[0], &t2[1], &t2[2]);
    match (n1 == [0; 3], n2 == [0; 3]) {
        // Both non-degenerate with a zero sign vector: coplanar (if all of t1
        // lay in t2's plane, that plane is t1's and s2 is zero too).
        (false, false) => coplanar_tri_tri(pr, t1, t2, dominant(n1)),
        (true, false) => EDGES
            .iter()
            .any(|&(i, j)| seg_tri(pr, &t1[i], &t1[j], t2, n2)),
        (false, true) => EDGES
            .iter()
            .any(|&(i, j)| seg_tri(pr, &t2[i], &t2[j], t1, n1)),
        (true, true) => EDGES.iter().any(|&(i, j)| {
            EDGES
                .iter()
                .any(|&(k, l)| seg_seg(pr, &t1[i], &t1[j], &t2[k], &t2[l]))
        }),
    }
}

#[inline(always)]
fn min_max(a: f64, b: f64, c: f64) -> (f64, f64) {
    (a.min(b).min(c), a.max(b).max(c))
}

#[inline(always)]
fn same_strict_side(s: &[i8; 3]) -> bool {
    (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0)
}

/// Does an edge of `x` that meets the plane of `y` (signs `sx`) meet `y`?
#[inline]
fn edges_meet<P: Probe>(pr: &mut P, x: &[P3; 3], sx: &[i8; 3], y: &[P3; 3]) -> bool {
    for (i, j) in EDGES {
        let (si, sj) = (sx[i], sx[j]);
        if si * sj > 0 {
            continue;
        }
        if si == 0 && sj == 0 {
            let ny = normal_signs(pr, &y[0], &y[1], &y[2]);
            if coplanar_seg_tri(pr, &x[i], &x[j], y, dominant(ny)) {
                return true;
            }
        } else if crossing_in_tri(pr, &x[i], &x[j], y) {
            return true;
        }
    }
    false
}

/// Segment `pq`, not lying in the plane of the non-degenerate triangle `y` but
/// meeting it in one point `X`: is `X` in `y`?
#[inline]
fn crossing_in_tri<P: Probe>(pr: &mut P, p: &P3, q: &P3, y: &[P3; 3]) -> bool {
    let o0 = orient3d(pr, p, q, &y[0], &y[1]);
    let o1 = orient3d(pr, p, q, &y[1], &y[2]);
    if o0 * o1 < 0 {
        return false;
    }
    let o2 = orient3d(pr, p, q, &y[2], &y[0]);
    !((o0 > 0 || o1 > 0 || o2 > 0) && (o0 < 0 || o1 < 0 || o2 < 0))
}

/// An axis along which the normal with these exact signs has a non-zero component.
#[inline(always)]
pub(crate) fn dominant(n: [i8; 3]) -> usize {
    if n[2] != 0 {
        2
    } else if n[0] != 0 {
        0
    } else {
        1
    }
}

/// Closed segment `pq` (possibly a point) against the non-degenerate triangle `y`.
pub(crate) fn seg_tri<P: Probe>(pr: &mut P, p: &P3, q: &P3, y: &[P3; 3], ny: [i8; 3]) -> bool {
    let sp = orient3d(pr, &y[0], &y[1], &y[2], p);
    let sq = orient3d(pr, &y[0], &y[1], &y[2], q);
    if sp * sq > 0 {
        false
    } else if sp == 0 && sq == 0 {
        coplanar_seg_tri(pr, p, q, y, dominant(ny))
    } else {
        crossing_in_tri(pr, p, q, y)
    }
}

/// Segment `pq` in the plane of the non-degenerate triangle `y`; `k`: an axis
/// along which that plane's normal is non-zero (projection dropping `k` is a
/// bijection of the plane).
fn coplanar_seg_tri<P: Probe>(pr: &mut P, p: &P3, q: &P3, y: &[P3; 3], k: usize) -> bool {
    let (p, q) = (drop_axis(p, k), drop_axis(q, k));
    let y2 = [
        drop_axis(&y[0], k),
        drop_axis(&y[1], k),
        drop_axis(&y[2], k),
    ];
    seg_tri_2d(pr, &p, &q, &y2)
}

fn coplanar_tri_tri<P: Probe>(pr: &mut P, t1: &[P3; 3], t2: &[P3; 3], k: usize) -> bool {
    let a = [
        drop_axis(&t1[0], k),
        drop_axis(&t1[1], k),
        drop_axis(&t1[2], k),
    ];
    let b = [
        drop_axis(&t2[0], k),
        drop_axis(&t2[1], k),
        drop_axis(&t2[2], k),
    ];
    // Either an edge of t1 meets t2, or t1 ∩ t2 avoids t1's boundary, in which
    // case t2 (connected) lies inside t1 and its vertex does.
    EDGES.iter().any(|&(i, j)| seg_tri_2d(pr, &a[i], &a[j], &b)) || point_in_tri_2d(pr, &b[0], &a)
}

/// Closed point-in-triangle for a non-degenerate 2D triangle.
#[inline]
fn point_in_tri_2d<P: Probe>(pr: &mut P, p: &P2, t: &[P2; 3]) -> bool {
    let o0 = orient2d(pr, &t[0], &t[1], p);
    let o1 = orient2d(pr, &t[1], &t[2], p);
    if o0 * o1 < 0 {
        return false;
    }
    let o2 = orient2d(pr, &t[2], &t[0], p);
    !((o0 > 0 || o1 > 0 || o2 > 0) && (o0 < 0 || o1 < 0 || o2 < 0))
}

/// Closed 2D segment (possibly a point) against a non-degenerate 2D triangle:
/// they meet iff an end point is inside or the segment meets an edge.
fn seg_tri_2d<P: Probe>(pr: &mut P, p: &P2, q: &P2, t: &[P2; 3]) -> bool {
    point_in_tri_2d(pr, p, t)
        || point_in_tri_2d(pr, q, t)
        || EDGES
            .iter()
            .any(|&(i, j)| seg_seg_2d(pr, p, q, &t[i], &t[j]))
}

/// Closed 2D segments, either possibly a point.
///
/// With `o1, o2` the sides of `r, s` w.r.t. line `pq` and `o3, o4` those of
/// `p, q` w.r.t. line `rs`: a strict same side rejects; all four zero means all
/// points are collinear (or a segment is a point on the other's line), where
/// the segments meet iff their bounding boxes do (each coordinate is a monotone
/// parameter of the line, or constant); otherwise they cross or touch.
fn seg_seg_2d<P: Probe>(pr: &mut P, p: &P2, q: &P2, r: &P2, s: &P2) -> bool {
    let o1 = orient2d(pr, p, q, r);
    let o2 = orient2d(pr, p, q, s);
    if o1 * o2 > 0 {
        return false;
    }
    let o3 = orient2d(pr, r, s, p);
    let o4 = orient2d(pr, r, s, q);
    if o3 * o4 > 0 {
        return false;
    }
    if o1 == 0 && o2 == 0 && o3 == 0 && o4 == 0 {
        return (0..2)
            .all(|k| p[k].max(q[k]) >= r[k].min(s[k]) && r[k].max(s[k]) >= p[k].min(q[k]));
    }
    true
}

/// Closed 3D segments, either possibly a point.
fn seg_seg<P: Probe>(pr: &mut P, p: &P3, q: &P3, r: &P3, s: &P3) -> bool {
    for k in 0..3 {
        if p[k].max(q[k]) < r[k].min(s[k]) || r[k].max(s[k]) < p[k].min(q[k]) {
            return false;
        }
    }
    if orient3d(pr, p, q, r, s) != 0 {
        return false;
    }
    // Coplanar: find the plane through a non-collinear triple, if any.
    for (a, b, c) in [(p, q, r), (p, q, s), (r, s, p), (r, s, q)] {
        let n = normal_signs(pr, a, b, c);
        if n != [0; 3] {
            let k = dominant(n);
            return seg_seg_2d(
                pr,
                &drop_axis(p, k),
                &drop_axis(q, k),
                &drop_axis(r, k),
                &drop_axis(s, k),
            );
        }
    }
    // All four points collinear: the bounding boxes overlap (checked above).
    true
}

// ---- approximate geometry for `triangle_triangle_segment` ----

fn sub(a: &P3, b: &P3) -> P3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn cross(a: &P3, b: &P3) -> P3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn dot(a: &P3, b: &P3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn lerp(p: &P3, q: &P3, t: f64) -> P3 {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    [
        p[0] + (q[0] - p[0]) * t,
        p[1] + (q[1] - p[1]) * t,
        p[2] + (q[2] - p[2]) * t,
    ]
}

/// The part of segment `pq` inside the non-degenerate triangle `y` (they meet).
fn approx_seg_tri(p: &P3, q: &P3, y: &[P3; 3], pts: &mut Vec<P3>) {
    let n = cross(&sub(&y[1], &y[0]), &sub(&y[2], &y[0]));
    let dp = dot(&n, &sub(p, &y[0]));
    let dq = dot(&n, &sub(q, &y[0]));
    let mut pr = ();
    let sp = orient3d(&mut pr, &y[0], &y[1], &y[2], p);
    let sq = orient3d(&mut pr, &y[0], &y[1], &y[2], q);
    if sp == 0 && sq == 0 {
        // Clip the parameter range by the three edge half-planes.
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (i, j) in EDGES {
            let m = cross(&n, &sub(&y[j], &y[i])); // inward normal of edge ij
            let fp = dot(&m, &sub(p, &y[i]));
            let fq = dot(&m, &sub(q, &y[i]));
            if fp < 0.0 && fq < 0.0 {
                continue; // rounding: keep what we have
            }
            if fp < 0.0 {
                t0 = t0.max(fp / (fp - fq));
            } else if fq < 0.0 {
                t1 = t1.min(fp / (fp - fq));
            }
        }
        if t0 > t1 {
            let m = 0.5 * (t0 + t1);
            (t0, t1) = (m, m);
        }
        pts.push(lerp(p, q, t0));
        pts.push(lerp(p, q, t1));
    } else if sp == 0 {
        pts.push(*p);
    } else if sq == 0 {
        pts.push(*q);
    } else {
        pts.push(lerp(p, q, dp / (dp - dq)));
    }
}

/// The common part of two segments that meet.
fn approx_seg_seg(p: &P3, q: &P3, r: &P3, s: &P3, pts: &mut Vec<P3>) {
    let d1 = sub(q, p);
    let d2 = sub(s, r);
    let n = cross(&d1, &d2);
    let nn = dot(&n, &n);
    let l1 = dot(&d1, &d1);
    let l2 = dot(&d2, &d2);
    if nn > 1e-24 * l1 * l2 && nn > 0.0 {
        // Crossing lines: solve p + t d1 = r + u d2 in the least-squares sense.
        let w = sub(r, p);
        let t = dot(&cross(&w, &d2), &n) / nn;
        pts.push(lerp(p, q, t));
    } else {
        // Parallel or collinear (or points): the end points inside the other.
        let inside = |x: &P3, a: &P3, b: &P3, d: &P3, l: f64| {
            let t = if l > 0.0 { dot(&sub(x, a), d) / l } else { 0.0 };
            let c = lerp(a, b, t);
            let e = sub(x, &c);
            dot(&e, &e) <= 1e-20 * (l + dot(x, x))
        };
        for x in [p, q] {
            if inside(x, r, s, &d2, l2) {
                pts.push(*x);
            }
        }
        for x in [r, s] {
            if inside(x, p, q, &d1, l1) {
                pts.push(*x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle<f64> {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c))
    }

    #[test]
    fn basic_cases() {
        let base = t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        // crossing
        assert!(triangle_triangle(
            &base,
            &t([0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.3, 0.5, 0.0])
        ));
        // separated above
        assert!(!triangle_triangle(
            &base,
            &t([0.2, 0.2, 1.0], [0.2, 0.5, 1.0], [0.3, 0.5, 2.0])
        ));
        // shared edge, folded
        assert!(triangle_triangle(
            &base,
            &t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0])
        ));
        // coplanar, touching at a vertex
        assert!(triangle_triangle(
            &base,
            &t([1.0, 0.0, 0.0], [2.0, 0.0, 0.0], [2.0, 1.0, 0.0])
        ));
        // coplanar, disjoint across the hypotenuse
        assert!(!triangle_triangle(
            &base,
            &t([1.0, 1.0, 0.0], [0.51, 0.5, 0.0], [2.0, 2.0, 0.0])
        ));
        // coplanar, one inside the other
        assert!(triangle_triangle(
            &base,
            &t([0.1, 0.1, 0.0], [0.2, 0.1, 0.0], [0.1, 0.2, 0.0])
        ));
        // degenerate: a segment piercing, a point on the face, a point off it
        assert!(triangle_triangle(
            &base,
            &t([0.2, 0.2, -1.0], [0.2, 0.2, 1.0], [0.2, 0.2, 0.5])
        ));
        assert!(triangle_triangle(
            &t([0.3, 0.3, 0.0], [0.3, 0.3, 0.0], [0.3, 0.3, 0.0]),
            &base
        ));
        assert!(!triangle_triangle(
            &t([0.6, 0.6, 0.0], [0.6, 0.6, 0.0], [0.6, 0.6, 0.0]),
            &base
        ));
        // two degenerate: crossing segments, collinear touching segments
        let s1 = t([0.0, 0.0, 0.0], [2.0, 2.0, 2.0], [1.0, 1.0, 1.0]);
        assert!(triangle_triangle(
            &s1,
            &t([0.0, 2.0, 0.0], [2.0, 0.0, 2.0], [2.0, 0.0, 2.0])
        ));
        assert!(triangle_triangle(
            &s1,
            &t([2.0, 2.0, 2.0], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0])
        ));
        assert!(!triangle_triangle(
            &s1,
            &t([2.5, 2.5, 2.5], [3.0, 3.0, 3.0], [4.0, 4.0, 4.0])
        ));
        // non-finite
        assert!(!triangle_triangle(
            &base,
            &t([f64::NAN, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
        ));
        assert!(!triangle_triangle(
            &base,
            &t([f64::INFINITY, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
        ));
    }

    #[test]
    fn nearly_coplanar_is_exact() {
        let base = t([0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]);
        let eps = 1e-70;
        assert!(!triangle_triangle(
            &base,
            &t([0.2, 0.2, eps], [0.5, 0.2, eps], [0.2, 0.5, eps])
        ));
        assert!(triangle_triangle(
            &base,
            &t([0.2, 0.2, 0.0], [0.5, 0.2, eps], [0.2, 0.5, eps])
        ));
        let mut st = OverlapStats::default();
        assert!(triangle_triangle_with_stats(
            &base,
            &t([0.2, 0.2, 0.0], [0.5, 0.2, eps], [0.2, 0.5, eps]),
            &mut st
        ));
        assert_eq!(st.calls, 1);
    }
}
