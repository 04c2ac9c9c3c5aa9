use super::segment_triangle::plane_crossing;
use super::{ClosestPoints, segment_segment};
use clash_math::{Point3, Scalar, Triangle, Vector3};

/// Closest points of two solid triangles (`a` on `t1`, `b` on `t2`),
/// Ericson, RTCD §5.1.11.
///
/// The closest pair of two disjoint triangles is realised by an edge/edge
/// pair or by a corner and its orthogonal projection inside the other
/// triangle's face; and two intersecting triangles always have an edge of one
/// crossing the other. So the result is the minimum over the nine edge/edge
/// pairs (§5.1.9) and the six corner-to-face projections that land inside
/// the face, after the six edge/plane crossings have been checked for a
/// point inside the other triangle (intersecting or touching triangles: the
/// crossing point is returned as a common point, distance 0). Corners that
/// project outside the face, and all corners against a degenerate triangle,
/// are covered by the edge pairs. Every candidate is a genuine pair of points
/// of the two triangles. Degenerate triangles (segments, points) work
/// unchanged.
pub fn triangle_triangle<T: Scalar>(t1: &Triangle<T>, t2: &Triangle<T>) -> ClosestPoints<T> {
    let e1 = t1.edges();
    let e2 = t2.edges();
    let n1 = t1.scaled_normal();
    let n2 = t2.scaled_normal();
    // Intersection: an edge of one crossing the other inside.
    for s in &e1 {
        if let Some(x) = plane_crossing(s, t2)
            && inside(&x, t2, &n2)
        {
            return ClosestPoints {
                a: x,
                b: x,
                distance_squared: T::ZERO,
            };
        }
    }
    for s in &e2 {
        if let Some(x) = plane_crossing(s, t1)
            && inside(&x, t1, &n1)
        {
            return ClosestPoints {
                a: x,
                b: x,
                distance_squared: T::ZERO,
            };
        }
    }
    let mut best = segment_segment(&e1[0], &e2[0]).points;
    for (i, s) in e1.iter().enumerate() {
        for (j, t) in e2.iter().enumerate() {
            if i + j > 0 {
                best = best.min(segment_segment(s, t).points);
            }
        }
    }
    let nn2 = n2.norm_squared();
    if nn2 > T::ZERO {
        for v in t1.vertices() {
            let q = v - n2 * (n2.dot(&(v - t2.a)) / nn2);
            if inside(&q, t2, &n2) {
                best = best.min(ClosestPoints::new(v, q));
            }
        }
    }
    let nn1 = n1.norm_squared();
    if nn1 > T::ZERO {
        for v in t2.vertices() {
            let q = v - n1 * (n1.dot(&(v - t1.a)) / nn1);
            if inside(&q, t1, &n1) {
                best = best.min(ClosestPoints::new(q, v));
            }
        }
    }
    best
}

/// `true` when `p` (in or near the plane of `t`, whose scaled normal is `n`)
/// lies inside or on the boundary of `t` as seen along `n`; `false` for a
/// degenerate triangle.
#[inline]
fn inside<T: Scalar>(p: &Point3<T>, t: &Triangle<T>, n: &Vector3<T>) -> bool {
    if *n == Vector3::zeros() {
        return false;
    }
    let (a, b, c) = (t.a - p, t.b - p, t.c - p);
    a.cross(&b).dot(n) >= T::ZERO && b.cross(&c).dot(n) >= T::ZERO && c.cross(&a).dot(n) >= T::ZERO
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
