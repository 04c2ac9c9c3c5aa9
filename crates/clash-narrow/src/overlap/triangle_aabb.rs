//! Exact triangle/AABB overlap test: the 13-axis separating-axis test of
//! RTR §16.12 (Akenine-Möller) and RTCD §5.2.9, with every axis decided by
//! exact orientation signs.
//!
//! # Why signs suffice (proof)
//!
//! The closed triangle `T = abc` and the closed box `B = [lo, hi]` are
//! disjoint iff one of these axes separates them (SAT for a triangle and a
//! box; zero axes are skipped): the 3 box face normals `e_k`, the triangle
//! normal `n`, and the 9 products `f × e_k` of a triangle edge `f` and a box
//! axis. We decide each with exact arithmetic:
//!
//! * **Face axes.** Compare the triangle's coordinate range with `[lo_k, hi_k]`:
//!   comparisons of input values, exact.
//!   (Before the other axes, a triangle vertex inside the box is an exact
//!   early accept: also pure comparisons.)
//! * **Normal axis.** The box corners are input values, so
//!   `orient3d(a, b, c, x) = sign(n · (x - a))` is exact at a corner `x`. The
//!   corner maximising `n · x` takes `hi_k` where `n_k > 0` and `lo_k` where
//!   `n_k < 0`; the signs of `n`'s components are exact (`orient2d` of the
//!   projections, [`super::exact::normal_signs`]). The axis separates iff that
//!   corner is strictly below the plane or the minimising corner strictly
//!   above it. A degenerate triangle has `n = 0`: no axis.
//! * **Edge axes.** `u = f × e_k` is orthogonal to `e_k`, so projecting onto
//!   `u` factors through the projection `π_k` that drops coordinate `k`, and
//!   there `u · (x - p) = -g(x)` with `g(x) = orient2d(π p, π q, π x)` for the
//!   edge `f = q - p`. Exact signs of `g` are available at the triangle's
//!   vertices and at the rectangle's corners (input values); comparing `g`
//!   at a corner against `g(r)` at the third vertex `r` is **not** a sign of a
//!   predicate, so we test only the side of the edge line away from `r`: the
//!   axis is taken to separate iff the whole rectangle `π_k B` is strictly on
//!   the side of line `π p π q` opposite to `π r` (either side when `π r` is on
//!   the line). This one-sided test is complete: in the plane of `π_k`,
//!   `π_k T` and `π_k B` are disjoint convex polygons whenever `f × e_k`
//!   separates `T` and `B`. For directions `u` let
//!   `φ(u) = min_{π B} u·x - max_{π T} u·x`; `φ` is concave and positively
//!   homogeneous, so `{φ > 0}` is an open arc `A` of directions (of angle at
//!   most π since `φ(u) + φ(-u) ≤ 0`), non-empty for disjoint polygons. If `A`
//!   contains an outward edge normal of `π T` the one-sided edge test fires;
//!   if it contains `±e_i` (`i ≠ k`) a face-axis test fires. Otherwise the
//!   maximising vertex `t` of `π T` and the minimising corner `b` of `π B` are
//!   fixed on the closure of `A` (they change only at those normals), so
//!   `φ(u) = u · (b - t)` there, which vanishes at both ends of `A`: `A` is the
//!   open half-circle around `b - t`, lying in the intersection of the normal
//!   cones of `π T` at `t` and of `-π B` at `b`. A rectangle corner's normal
//!   cone is a quarter-plane, a proper triangle vertex's is narrower than a
//!   half-plane: contradiction. Flat cases (a rectangle degenerated to a segment
//!   or point, a projected triangle that is a segment or point) have cones of
//!   at most a half-plane whose boundaries are tested directions (face axes,
//!   or the two-sided test of a collinear edge), and every open half-circle
//!   contains one of `±e_i`, so again some tested axis separates.

use super::OverlapStats;
use super::exact::{P3, Probe, Tally, drop_axis, normal_signs, orient2d, orient3d, p3};
use clash_bv::Aabb;
use clash_math::{Scalar, Triangle};

/// `true` when the closed triangle `t` and the closed box `b` share a point.
///
/// Exact for every finite `f32`/`f64` input (within the range given in
/// [`super`]): touching a face, edge or corner counts, and no rounding can
/// flip the answer. A degenerate triangle is tested as the segment or point it
/// is (its normal axis vanishes, the other axes stay complete). Returns `false`
/// for non-finite input and for a box with `min > max` on some axis.
///
/// RTR §16.12, RTCD §5.2.9 (13-axis separating-axis test, exact form).
///
/// ```
/// use clash_bv::Aabb;
/// use clash_math::{Point3, Triangle};
/// use clash_narrow::overlap::triangle_aabb;
/// let b = Aabb { min: Point3::new(0.0, 0.0, 0.0), max: Point3::new(1.0, 1.0, 1.0) };
/// // its plane x + y + z = 3 touches the box at the corner (1, 1, 1) only
/// let t = Triangle::new(Point3::new(3.0, 0.0, 0.0), Point3::new(0.0, 3.0, 0.0), Point3::new(0.0, 0.0, 3.0));
/// assert!(triangle_aabb(&t, &b));
/// ```
#[inline]
pub fn triangle_aabb<T: Scalar>(t: &Triangle<T>, b: &Aabb<T>) -> bool {
    if !(t.is_finite()
        && clash_math::point_is_finite(&b.min)
        && clash_math::point_is_finite(&b.max))
    {
        return false;
    }
    tri_aabb(
        &mut (),
        &[p3(&t.a), p3(&t.b), p3(&t.c)],
        &p3(&b.min),
        &p3(&b.max),
    )
}

/// [`triangle_aabb`], also counting in `stats` the call and whether any
/// predicate needed exact arithmetic (for benchmarks; slightly slower).
pub fn triangle_aabb_with_stats<T: Scalar>(
    t: &Triangle<T>,
    b: &Aabb<T>,
    stats: &mut OverlapStats,
) -> bool {
    let mut tally = Tally::default();
    let r = t.is_finite()
        && clash_math::point_is_finite(&b.min)
        && clash_math::point_is_finite(&b.max)
        && tri_aabb(
            &mut tally,
            &[p3(&t.a), p3(&t.b), p3(&t.c)],
            &p3(&b.min),
            &p3(&b.max),
        );
    stats.record(tally.0);
    r
}

/// The exact test on finite `f64` coordinates.
#[inline]
pub(crate) fn tri_aabb<P: Probe>(pr: &mut P, t: &[P3; 3], lo: &P3, hi: &P3) -> bool {
    // Face axes (and box validity).
    for k in 0..3 {
        let mn = t[0][k].min(t[1][k]).min(t[2][k]);
        let mx = t[0][k].max(t[1][k]).max(t[2][k]);
        if mx < lo[k] || mn > hi[k] || lo[k] > hi[k] {
            return false;
        }
    }
    // Exact early accept: a vertex inside the closed box.
    if t.iter()
        .any(|v| (0..3).all(|k| lo[k] <= v[k] && v[k] <= hi[k]))
    {
        return true;
    }
    // Triangle normal axis.
    let n = normal_signs(pr, &t[0], &t[1], &t[2]);
    if n != [0; 3] {
        let pick = |s: i8, k: usize| if s > 0 { hi[k] } else { lo[k] };
        let cmax = [pick(n[0], 0), pick(n[1], 1), pick(n[2], 2)];
        let pick_min = |s: i8, k: usize| if s > 0 { lo[k] } else { hi[k] };
        let cmin = [pick_min(n[0], 0), pick_min(n[1], 1), pick_min(n[2], 2)];
        if orient3d(pr, &t[0], &t[1], &t[2], &cmax) < 0
            || orient3d(pr, &t[0], &t[1], &t[2], &cmin) > 0
        {
            return false;
        }
    }
    // Edge × box-axis axes, in the projection dropping axis k.
    for k in 0..3 {
        let (lo2, hi2) = (drop_axis(lo, k), drop_axis(hi, k));
        let v = [
            drop_axis(&t[0], k),
            drop_axis(&t[1], k),
            drop_axis(&t[2], k),
        ];
        for (i, j, r) in [(0, 1, 2), (1, 2, 0), (2, 0, 1)] {
            let (p, q) = (&v[i], &v[j]);
            if p == q {
                continue; // edge parallel to e_k: zero axis
            }
            // g(x) = orient2d(p, q, x) has gradient (p.y - q.y, q.x - p.x).
            let gx_pos = q[1] < p[1];
            let gy_pos = q[0] > p[0];
            let cmax = [
                if gx_pos { hi2[0] } else { lo2[0] },
                if gy_pos { hi2[1] } else { lo2[1] },
            ];
            let cmin = [
                if gx_pos { lo2[0] } else { hi2[0] },
                if gy_pos { lo2[1] } else { hi2[1] },
            ];
            let sr = orient2d(pr, p, q, &v[r]);
            if sr >= 0 && orient2d(pr, p, q, &cmax) < 0 {
                return false;
            }
            if sr <= 0 && orient2d(pr, p, q, &cmin) > 0 {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use clash_math::Point3;

    fn t(a: [f64; 3], b: [f64; 3], c: [f64; 3]) -> Triangle<f64> {
        Triangle::new(Point3::from(a), Point3::from(b), Point3::from(c))
    }

    #[test]
    fn basic_cases() {
        let b = Aabb {
            min: Point3::new(0.0, 0.0, 0.0),
            max: Point3::new(1.0, 1.0, 1.0),
        };
        assert!(triangle_aabb(
            &t([0.5, 0.5, 0.5], [5.0, 0.0, 0.0], [0.0, 5.0, 0.0]),
            &b
        ));
        assert!(triangle_aabb(
            &t([3.0, 0.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 3.0]),
            &b
        ));
        assert!(!triangle_aabb(
            &t([3.0, 0.0, 0.1], [0.1, 3.0, 0.0], [0.0, 0.1, 3.0]),
            &b
        ));
        // edge axis: a triangle passing by a box edge diagonally
        assert!(!triangle_aabb(
            &t([1.0, 2.1, -5.0], [2.1, 1.0, -5.0], [2.1, 1.0, 5.0]),
            &b
        ));
        assert!(triangle_aabb(
            &t([0.0, 2.0, -5.0], [2.0, 0.0, -5.0], [2.0, 0.0, 5.0]),
            &b
        ));
        // degenerate triangles: a point on a corner, a segment grazing an edge
        assert!(triangle_aabb(
            &t([1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]),
            &b
        ));
        assert!(triangle_aabb(
            &t([0.0, 2.0, 0.5], [2.0, 0.0, 0.5], [1.0, 1.0, 0.5]),
            &b
        ));
        assert!(!triangle_aabb(
            &t([0.0, 2.1, 0.5], [2.1, 0.0, 0.5], [1.05, 1.05, 0.5]),
            &b
        ));
        // invalid box, non-finite input
        let bad = Aabb {
            min: Point3::new(1.0, 0.0, 0.0),
            max: Point3::new(0.0, 1.0, 1.0),
        };
        assert!(!triangle_aabb(
            &t([0.5, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]),
            &bad
        ));
        assert!(!triangle_aabb(
            &t([f64::NAN, 0.5, 0.5], [0.5, 0.5, 0.5], [0.5, 0.5, 0.5]),
            &b
        ));
    }
}
