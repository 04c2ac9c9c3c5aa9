//! The constant-velocity separating-axis sweep shared by the OBB and
//! triangle tests (Eberly §2.2.2, §2.3.1; RTCD §5.5.8 for the per-axis
//! interval logic).

use crate::closest::{point_triangle, triangle_triangle};
use clash_math::{Point3, Scalar, Triangle, Vector3};

/// Running intersection of the per-axis contact time intervals.
pub(crate) struct Sweep<T: Scalar> {
    pub first: T,
    pub last: T,
    /// Unit axis (from the first shape to the second) that produced `first`;
    /// zero while `first` is 0.
    pub normal: Vector3<T>,
}

impl<T: Scalar> Sweep<T> {
    pub fn new(t_end: T) -> Self {
        Self {
            first: T::ZERO,
            last: t_end,
            normal: Vector3::zeros(),
        }
    }

    /// Processes one axis. `axis` need not be unit; axes shorter than a
    /// relative threshold (cross products of nearly parallel edges) are
    /// skipped, `scale2` being the product of the squared lengths of the
    /// factors. `a` and `b` are the projection intervals at time 0 on the unit
    /// axis, computed by `project`, and `w` is the velocity of the second
    /// shape relative to the first. Returns `false` when the axis separates
    /// the shapes during the whole time interval.
    #[inline]
    pub fn axis(
        &mut self,
        axis: Vector3<T>,
        scale2: T,
        w: &Vector3<T>,
        project: impl FnOnce(&Vector3<T>) -> ((T, T), (T, T)),
    ) -> bool {
        let l2 = axis.norm_squared();
        if !(l2 > T::lit(64.0) * T::EPSILON * scale2) {
            return true;
        }
        let l = axis / l2.sqrt();
        let ((a_lo, a_hi), (b_lo, b_hi)) = project(&l);
        let s = w.dot(&l);
        // B's interval at time t is [b_lo + s t, b_hi + s t].
        let (enter, exit, normal) = if s > T::ZERO {
            ((a_lo - b_hi) / s, (a_hi - b_lo) / s, -l)
        } else if s < T::ZERO {
            ((a_hi - b_lo) / s, (a_lo - b_hi) / s, l)
        } else {
            if b_lo > a_hi || b_hi < a_lo {
                return false;
            }
            (T::NEG_INFINITY, T::INFINITY, l)
        };
        if enter > self.first {
            self.first = enter;
            self.normal = normal;
        }
        if exit < self.last {
            self.last = exit;
        }
        self.first <= self.last
    }
}

/// Corners of a convex shape in its support feature for direction `n`: the
/// corners whose projection is within a relative tolerance of the maximum.
pub(crate) fn support_feature<T: Scalar, const N: usize>(
    corners: &[Point3<T>; N],
    n: &Vector3<T>,
    scale: T,
) -> ([Point3<T>; N], usize) {
    let mut best = T::NEG_INFINITY;
    for p in corners {
        best = best.max_of(n.dot(&p.coords));
    }
    let tol = T::EPSILON.sqrt() * scale;
    let mut out = [Point3::origin(); N];
    let mut k = 0;
    for p in corners {
        if n.dot(&p.coords) >= best - tol {
            out[k] = *p;
            k += 1;
        }
    }
    (out, k)
}

/// A feature (1 to 4 coplanar corners of a convex face, in any order) as up
/// to two triangles (a point or segment is a degenerate triangle).
fn feature_triangles<T: Scalar>(pts: &[Point3<T>]) -> ([Triangle<T>; 2], usize) {
    match pts.len() {
        1 => ([Triangle::new(pts[0], pts[0], pts[0]); 2], 1),
        2 => ([Triangle::new(pts[0], pts[1], pts[1]); 2], 1),
        3 => ([Triangle::new(pts[0], pts[1], pts[2]); 2], 1),
        _ => {
            // Four corners of a box face: split along the longest diagonal.
            let (a, b, c, d) = (pts[0], pts[1], pts[2], pts[3]);
            let pairs = [(a, b, c, d), (a, c, b, d), (a, d, b, c)];
            let mut best = pairs[0];
            let mut best_len = T::NEG_INFINITY;
            for pr in pairs {
                let len = (pr.1 - pr.0).norm_squared();
                if len > best_len {
                    best_len = len;
                    best = pr;
                }
            }
            let (p, q, r, s) = best;
            ([Triangle::new(p, q, r), Triangle::new(p, q, s)], 2)
        }
    }
}

/// A contact point of two touching convex shapes given their support
/// features towards each other: the midpoint of the closest points of the
/// features (Eberly §2.3.2 reconstructs the same point by cases).
pub(crate) fn contact_from_features<T: Scalar>(fa: &[Point3<T>], fb: &[Point3<T>]) -> Point3<T> {
    let (ta, na) = feature_triangles(fa);
    let (tb, nb) = feature_triangles(fb);
    let mut best = triangle_triangle(&ta[0], &tb[0]);
    for x in &ta[..na] {
        for y in &tb[..nb] {
            best = best.min(triangle_triangle(x, y));
        }
    }
    nalgebra_mid(&best.a, &best.b)
}

#[inline]
pub(crate) fn nalgebra_mid<T: Scalar>(a: &Point3<T>, b: &Point3<T>) -> Point3<T> {
    Point3::from((a.coords + b.coords) * T::HALF)
}

/// A point in the intersection of two overlapping convex sets given their
/// closest-point projections, by alternating projections (von Neumann);
/// `iterations` rounds from `start`, returning the midpoint of the last pair.
pub(crate) fn alternating_projection<T: Scalar>(
    start: Point3<T>,
    proj_a: impl Fn(&Point3<T>) -> Point3<T>,
    proj_b: impl Fn(&Point3<T>) -> Point3<T>,
    iterations: usize,
) -> Point3<T> {
    let mut p = proj_a(&start);
    let mut q = proj_b(&p);
    for _ in 0..iterations {
        p = proj_a(&q);
        q = proj_b(&p);
        if (p - q).norm_squared() == T::ZERO {
            break;
        }
    }
    nalgebra_mid(&p, &q)
}

/// Triangle corner projection interval on `l`.
#[inline]
pub(crate) fn tri_interval<T: Scalar>(t: &Triangle<T>, l: &Vector3<T>) -> (T, T) {
    let a = l.dot(&t.a.coords);
    let b = l.dot(&t.b.coords);
    let c = l.dot(&t.c.coords);
    (a.min_of(b).min_of(c), a.max_of(b).max_of(c))
}

/// Point of `t` closest to `p` (used as a projection).
#[inline]
pub(crate) fn project_triangle<T: Scalar>(t: &Triangle<T>, p: &Point3<T>) -> Point3<T> {
    point_triangle(p, t).point
}

/// The part `[s0, s1]` of segment `p + s (q - p)`, `s ∈ [0, 1]`, inside the
/// box `|u_i| <= h_i` given in the box's local frame (Cyrus–Beck clipping,
/// RTCD §5.3.3); `None` when empty.
fn clip_local<T: Scalar>(p: &Vector3<T>, q: &Vector3<T>, h: &Vector3<T>) -> Option<(T, T)> {
    let d = q - p;
    let (mut s0, mut s1) = (T::ZERO, T::ONE);
    for i in 0..3 {
        if d[i] == T::ZERO {
            if p[i].abs() > h[i] {
                return None;
            }
            continue;
        }
        let mut a = (-h[i] - p[i]) / d[i];
        let mut b = (h[i] - p[i]) / d[i];
        if a > b {
            core::mem::swap(&mut a, &mut b);
        }
        s0 = s0.max_of(a);
        s1 = s1.min_of(b);
        if s0 > s1 {
            return None;
        }
    }
    Some((s0, s1))
}

/// Accumulates points of `segments` inside the OBB (midpoints of the clipped
/// parts) into `sum`, returning how many were added.
pub(crate) fn clip_segments_obb<T: Scalar>(
    segments: &[(Point3<T>, Point3<T>)],
    obb: &clash_bv::Obb<T>,
    sum: &mut Vector3<T>,
) -> usize {
    let rt = obb.axes.transpose();
    let mut n = 0;
    for (p, q) in segments {
        let (lp, lq) = (rt * (p - obb.center), rt * (q - obb.center));
        if let Some((s0, s1)) = clip_local(&lp, &lq, &obb.half_extents) {
            let s = (s0 + s1) * T::HALF;
            *sum += p.coords + (q - p) * s;
            n += 1;
        }
    }
    n
}

/// The 12 edges of a box from its 8 corners (corner `k` has bit `i` set for
/// `+half_extents[i]`).
pub(crate) fn box_edges<T: Scalar>(c: &[Point3<T>; 8]) -> [(Point3<T>, Point3<T>); 12] {
    let mut out = [(c[0], c[0]); 12];
    let mut n = 0;
    for k in 0..8 {
        for bit in [1, 2, 4] {
            if k & bit == 0 {
                out[n] = (c[k], c[k | bit]);
                n += 1;
            }
        }
    }
    out
}
