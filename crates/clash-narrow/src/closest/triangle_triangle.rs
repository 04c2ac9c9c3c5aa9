use super::segment_triangle::plane_crossing;
use super::{ClosestPoints, point_triangle, segment_segment};
use crate::overlap;
use clash_math::{Point3, Scalar, Segment, Triangle, Vector3};

/// Closest points of two solid triangles (`a` on `t1`, `b` on `t2`),
/// Ericson, RTCD §5.1.11.
///
/// The closest pair of two disjoint triangles is realised by an edge/edge
/// pair or by a corner and its orthogonal projection inside the other
/// triangle's face; and two intersecting triangles always have an edge of one
/// crossing the other (or, coplanar, an edge pair or a corner inside the
/// other). So the result is the minimum over the nine edge/edge pairs
/// (§5.1.9) and the six corner-to-face projections that land inside the
/// face. Every candidate is a genuine pair of points, each a convex
/// combination of its own triangle's corners (a face point is built from
/// its barycentric weights, §3.4, not as a projection), so the distance is
/// never under-estimated however far apart or different in size the
/// triangles are: rounding can only pick a slightly worse candidate.
/// Corners that project outside the face, and all corners against a
/// degenerate triangle, are covered by the edge pairs.
///
/// Intersecting triangles answer distance 0 when an edge crossing seen in
/// floating point is confirmed by the exact test
/// [`overlap::triangle_triangle`], with a point of each triangle within
/// rounding of the other (of the crossing's conditioning: an edge at a
/// grazing angle to the other's plane places its crossing less precisely);
/// distance 0 is never answered for disjoint triangles. Touching triangles
/// whose crossing rounding hides answer a distance within rounding of 0.
/// Degenerate triangles (segments, points) work unchanged.
pub fn triangle_triangle<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> ClosestPoints<T> {
    let e1 = t1.edges();
    let e2 = t2.edges();
    let n1 = t1.scaled_normal();
    let n2 = t2.scaled_normal();
    let seen_crossing = e1.iter().any(|s| crosses_inside(s, t2, &n2))
        || e2.iter().any(|s| crosses_inside(s, t1, &n1));
    if seen_crossing && overlap::triangle_triangle(t1, t2) {
        return common_point(t1, t2, &e1, &e2);
    }
    separated(t1, t2, &e1, &e2)
}

/// `true` when segment `s` crosses the plane of `t` (scaled normal `n`) at
/// a point that the floating-point test [`inside`] places in `t`.
#[inline]
fn crosses_inside<T: Scalar>(s: &Segment<T>, t: &Triangle<T>, n: &Vector3<T>) -> bool {
    plane_crossing(s, t).is_some_and(|x| inside(&x, t, n))
}

/// The minimum over the edge/edge pairs and the corner/face projections.
fn separated<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
    e1: &[Segment<T>; 3],
    e2: &[Segment<T>; 3],
) -> ClosestPoints<T> {
    let mut best = segment_segment(&e1[0], &e2[0]).points;
    for (i, s) in e1.iter().enumerate() {
        for (j, t) in e2.iter().enumerate() {
            if i + j > 0 {
                best = best.min(segment_segment(s, t).points);
            }
        }
    }
    if let Some(face) = Face::new(t2) {
        for v in t1.vertices() {
            if let Some(q) = face.projection(&v) {
                best = best.min(ClosestPoints::new(v, q));
            }
        }
    }
    if let Some(face) = Face::new(t1) {
        for v in t2.vertices() {
            if let Some(q) = face.projection(&v) {
                best = best.min(ClosestPoints::new(q, v));
            }
        }
    }
    best
}

/// Near-common points of two triangles that the exact test says
/// intersect: of the points where an edge of one crosses the other's plane
/// (each with its closest point on the other) and the closest pair of
/// [`separated`] (which covers coplanar pairs), the nearest pair, with
/// distance 0.
#[cold]
fn common_point<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
    e1: &[Segment<T>; 3],
    e2: &[Segment<T>; 3],
) -> ClosestPoints<T> {
    let mut best = separated(t1, t2, e1, e2);
    for s in e1 {
        if let Some(x) = plane_crossing(s, t2) {
            best = best.min(ClosestPoints::new(x, point_triangle(&x, t2).point));
        }
    }
    for s in e2 {
        if let Some(x) = plane_crossing(s, t1) {
            best = best.min(ClosestPoints::new(point_triangle(&x, t1).point, x));
        }
    }
    ClosestPoints {
        distance_squared: T::ZERO,
        ..best
    }
}

/// A triangle prepared for corner projections: the triangle, its edges
/// `e1 = b - a`, `e2 = c - a`, their Gram matrix, the scaled normal `n =
/// e1 × e2` and the longest edge squared.
struct Face<T: Scalar> {
    t: Triangle<T>,
    e1: Vector3<T>,
    e2: Vector3<T>,
    g11: T,
    g12: T,
    g22: T,
    det: T,
    n: Vector3<T>,
    nn: T,
    longest: T,
}

impl<T: Scalar> Face<T> {
    /// `None` when the normal or the Gram determinant is not positive (a
    /// degenerate triangle, which its edges cover).
    #[inline]
    fn new(t: &Triangle<T>) -> Option<Self> {
        let (e1, e2) = (t.b - t.a, t.c - t.a);
        let (g11, g12, g22) = (e1.norm_squared(), e1.dot(&e2), e2.norm_squared());
        let det = g11 * g22 - g12 * g12;
        let n = e1.cross(&e2);
        let nn = n.norm_squared();
        let longest = g11.max_of(g22).max_of((e2 - e1).norm_squared());
        (det > T::ZERO && nn > T::ZERO).then_some(Self {
            t: *t,
            e1,
            e2,
            g11,
            g12,
            g22,
            det,
            n,
            nn,
            longest,
        })
    }

    /// The orthogonal projection of `v` on the plane when it lands in the
    /// closed triangle, as a point of the triangle. Within a triangle's
    /// size of the plane it is the projection itself, kept when the
    /// orientation test [`inside`] places it in the triangle: its rounding
    /// is that of the coordinates however thin the triangle, and the test
    /// checks the point itself, so a nearly degenerate triangle's unreliable
    /// normal cannot place it off the triangle. Farther, it is `a + s e1 + t
    /// e2` with the barycentric coordinates `s, t >= 0`, `s + t <= 1` of the
    /// normal equations (RTCD §3.4), clamped: on the triangle whatever the
    /// distance, where a projection's rounding grows with the distance.
    #[inline]
    fn projection(&self, v: &Point3<T>) -> Option<Point3<T>> {
        let d = v - self.t.a;
        let h = self.n.dot(&d);
        if h * h <= self.nn * self.longest {
            let q = v - self.n * (h / self.nn);
            return inside(&q, &self.t, &self.n).then_some(q);
        }
        let (r1, r2) = (self.e1.dot(&d), self.e2.dot(&d));
        let s = self.g22 * r1 - self.g12 * r2;
        let t = self.g11 * r2 - self.g12 * r1;
        if !(s >= T::ZERO && t >= T::ZERO && s + t <= self.det) {
            return None;
        }
        let (s, t) = (s / self.det, t / self.det);
        Some(self.t.a + self.e1 * s + self.e2 * t.min_of(T::ONE - s))
    }
}

/// `true` when `p` (in or near the plane of `t`, whose scaled normal is `n`)
/// lies inside or on the boundary of `t` as seen along `n`; `false` for a
/// degenerate triangle.
#[inline]
fn inside<T: Scalar>(p: &Point3<T>, t: &Triangle<T>, n: &Vector3<T>) -> bool {
    if *n == Vector3::zeros() {
        return false;
    }
    // Each edge against `p` from the edge's start: the edge vectors keep
    // the triangle's own precision however far `p` is (differences `t.a -
    // p` would round a small triangle away next to a distant `p`).
    let side = |from: &Point3<T>, to: &Point3<T>| (to - from).cross(&(p - from)).dot(n) >= T::ZERO;
    side(&t.a, &t.b) && side(&t.b, &t.c) && side(&t.c, &t.a)
}

/// A cheap lower bound on the distance between two solid triangles, for
/// pruning before [`triangle_triangle`]: the largest gap between the two
/// triangles' projections on three candidate separating axes (RTCD §5.2.1
/// and §4.4.1: two convex sets are at least as far apart as their
/// projections on any unit axis), less a rounding allowance, clamped at 0.
///
/// The axes are each triangle's normal (the gap is the other triangle's
/// nearest signed corner distance to the plane, when all three corners lie
/// on one side) and the line through the centroids. A degenerate triangle
/// contributes no normal; coincident centroids no centroid axis. The result
/// never exceeds the exact distance: each computed gap is reduced by `64 ε`
/// times the largest corner coordinate magnitude, and a normal's gap also
/// by the normal's condition `|e₁||e₂| / |e₁ × e₂|` (a needle-thin
/// triangle's computed normal is off by about `ε` times it), which covers
/// the rounding of the few products and sums involved.
///
/// ```
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::closest::{triangle_triangle, triangle_triangle_lower_bound};
/// let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
/// let a = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
/// let b = Triangle::new(p(0.0, 0.0, 2.0), p(1.0, 0.0, 3.0), p(0.0, 1.0, 2.5));
/// let lb = triangle_triangle_lower_bound(&a, &b);
/// assert!(lb > 1.99 && lb <= triangle_triangle(&a, &b).distance());
/// ```
pub fn triangle_triangle_lower_bound<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> T {
    triangle_triangle_lower_bound_until(t1, t2, |_| false)
}

/// [`triangle_triangle_lower_bound`], returned as soon as a partial bound
/// satisfies `enough` (typically: it prunes the pair). The line through the
/// centroids, the cheapest axis and the best one for triangles far apart
/// relative to their size, is measured first, then the two normals.
///
/// The result is a lower bound on the distance either way; when `enough`
/// holds for no partial bound it is exactly
/// [`triangle_triangle_lower_bound`]'s value (the largest of the same three
/// gaps), so a caller that prunes on `enough` prunes the same pairs.
///
/// ```
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::closest::{triangle_triangle_lower_bound, triangle_triangle_lower_bound_until};
/// let p = |x: f64, y: f64, z: f64| Point3::new(x, y, z);
/// let a = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
/// let b = Triangle::new(p(0.0, 0.0, 2.0), p(1.0, 0.0, 3.0), p(0.0, 1.0, 2.5));
/// // Pruned at 1: the centroid line alone shows the pair is farther.
/// assert!(triangle_triangle_lower_bound_until(&a, &b, |g| g > 1.0) > 1.0);
/// // Never enough: the full bound.
/// assert_eq!(
///     triangle_triangle_lower_bound_until(&a, &b, |_| false),
///     triangle_triangle_lower_bound(&a, &b),
/// );
/// ```
#[inline]
pub fn triangle_triangle_lower_bound_until<T: Scalar>(
    t1: &Triangle<T>,
    t2: &Triangle<T>,
    enough: impl Fn(T) -> bool,
) -> T {
    let mut scale = T::ZERO;
    for v in [t1.a, t1.b, t1.c, t2.a, t2.b, t2.c] {
        scale = scale.max_of(v.coords.amax());
    }
    let unit = scale * T::EPSILON * T::lit(64.0);
    let mut gap = T::ZERO;
    let u = t2.centroid() - t1.centroid();
    let len = u.norm();
    if len > T::ZERO {
        let u = u / len;
        let near_2 = u
            .dot(&t2.a.coords)
            .min_of(u.dot(&t2.b.coords))
            .min_of(u.dot(&t2.c.coords));
        let far_1 = u
            .dot(&t1.a.coords)
            .max_of(u.dot(&t1.b.coords))
            .max_of(u.dot(&t1.c.coords));
        gap = gap.max_of(near_2 - far_1 - unit);
        if enough(gap) {
            return gap;
        }
    }
    for (p, q) in [(t1, t2), (t2, t1)] {
        let (e1, e2) = (p.b - p.a, p.c - p.a);
        let n = e1.cross(&e2);
        let len = n.norm();
        if len > T::ZERO {
            let d = [
                n.dot(&(q.a - p.a)),
                n.dot(&(q.b - p.a)),
                n.dot(&(q.c - p.a)),
            ];
            let lo = d[0].min_of(d[1]).min_of(d[2]);
            let hi = d[0].max_of(d[1]).max_of(d[2]);
            let g = if lo > T::ZERO {
                lo / len
            } else if hi < T::ZERO {
                -hi / len
            } else {
                T::ZERO
            };
            let condition = (e1.norm_squared() * e2.norm_squared()).sqrt() / len;
            gap = gap.max_of(g - unit * condition.max_of(T::ONE));
            if enough(gap) {
                return gap;
            }
        }
    }
    gap.max_of(T::ZERO)
}
