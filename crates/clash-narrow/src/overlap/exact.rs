//! Filtered exact orientation predicates for the exact overlap tests
//! (RTCD §11.5; Shewchuk's adaptive predicates).
//!
//! Each predicate first evaluates the determinant in `f64` together with
//! Shewchuk's a-priori error bound (stage A of `orient2dadapt`/`orient3dadapt`).
//! When `|det|` exceeds the bound the sign is certain and is returned at once:
//! this is the fast path. Otherwise the sign is computed exactly by
//! [`clash_math::predicates`] (adaptive expansion arithmetic through the
//! `robust` crate) and the [`Probe`] is told, so that callers can measure the
//! share of calls that needed exact arithmetic.
//!
//! Inputs are `f64` (every `f32` converts exactly). The sign is exact for
//! every finite input: when the fast bound is not finite (huge input) or the
//! products are so small that they may underflow, the exact path is taken,
//! and it switches to integer arithmetic where the expansions would round
//! (subnormal or near-overflow coordinates).

use clash_math::Point3;

/// A point as three `f64` coordinates.
pub(crate) type P3 = [f64; 3];
/// A point of a coordinate plane.
pub(crate) type P2 = [f64; 2];

/// Receives a notification each time a predicate falls back to exact arithmetic.
pub(crate) trait Probe {
    /// One predicate took the exact path.
    fn exact(&mut self);
}

impl Probe for () {
    #[inline(always)]
    fn exact(&mut self) {}
}

/// Counts exact fallbacks.
#[derive(Default)]
pub(crate) struct Tally(pub u64);

impl Probe for Tally {
    #[inline(always)]
    fn exact(&mut self) {
        self.0 += 1;
    }
}

const HALF_EPS: f64 = f64::EPSILON * 0.5; // 2^-53, Shewchuk's `epsilon`
const O2D_BOUND_A: f64 = (3.0 + 16.0 * HALF_EPS) * HALF_EPS;
const O3D_BOUND_A: f64 = (7.0 + 56.0 * HALF_EPS) * HALF_EPS;
/// Below this permanent the products may underflow and the bound may be unsound.
const TINY: f64 = 1e-200;

#[inline(always)]
fn sign(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Converts a point of either precision to `f64` coordinates (exact).
#[inline(always)]
pub(crate) fn p3<T: clash_math::Scalar>(p: &Point3<T>) -> P3 {
    [p.x.to_f64(), p.y.to_f64(), p.z.to_f64()]
}

/// Exact sign of `((b - a) × (c - a)) · (d - a)`: `+1` when `d` is on the side
/// the counter-clockwise normal of `abc` points to, `0` when coplanar.
#[inline]
pub(crate) fn orient3d<P: Probe>(probe: &mut P, a: &P3, b: &P3, c: &P3, d: &P3) -> i8 {
    // Shewchuk's orient3d(a, b, c, d) = det[a-d; b-d; c-d], which is the
    // negation of the quantity we return.
    let adx = a[0] - d[0];
    let bdx = b[0] - d[0];
    let cdx = c[0] - d[0];
    let ady = a[1] - d[1];
    let bdy = b[1] - d[1];
    let cdy = c[1] - d[1];
    let adz = a[2] - d[2];
    let bdz = b[2] - d[2];
    let cdz = c[2] - d[2];
    let bdxcdy = bdx * cdy;
    let cdxbdy = cdx * bdy;
    let cdxady = cdx * ady;
    let adxcdy = adx * cdy;
    let adxbdy = adx * bdy;
    let bdxady = bdx * ady;
    let det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
    let permanent = (bdxcdy.abs() + cdxbdy.abs()) * adz.abs()
        + (cdxady.abs() + adxcdy.abs()) * bdz.abs()
        + (adxbdy.abs() + bdxady.abs()) * cdz.abs();
    let bound = O3D_BOUND_A * permanent;
    if (det > bound || -det > bound) && permanent > TINY && permanent.is_finite() {
        return -sign(det);
    }
    // Exact zeros that need no expansion arithmetic: a point coinciding with
    // `d`, or all four sharing one coordinate.
    if (adx == 0.0 && ady == 0.0 && adz == 0.0)
        || (bdx == 0.0 && bdy == 0.0 && bdz == 0.0)
        || (cdx == 0.0 && cdy == 0.0 && cdz == 0.0)
        || (adx == 0.0 && bdx == 0.0 && cdx == 0.0)
        || (ady == 0.0 && bdy == 0.0 && cdy == 0.0)
        || (adz == 0.0 && bdz == 0.0 && cdz == 0.0)
        || a == b
        || b == c
        || a == c
    {
        return 0;
    }
    probe.exact();
    let to = |p: &P3| Point3::new(p[0], p[1], p[2]);
    sign(clash_math::predicates::orient3d(
        &to(a),
        &to(b),
        &to(c),
        &to(d),
    ))
}

/// Exact sign of the 2D cross product `(b - a) × (c - a)`: `+1` for a
/// counter-clockwise turn, `0` when collinear.
#[inline]
pub(crate) fn orient2d<P: Probe>(probe: &mut P, a: &P2, b: &P2, c: &P2) -> i8 {
    let detleft = (a[0] - c[0]) * (b[1] - c[1]);
    let detright = (a[1] - c[1]) * (b[0] - c[0]);
    let det = detleft - detright;
    let detsum = detleft.abs() + detright.abs();
    let bound = O2D_BOUND_A * detsum;
    if (det > bound || -det > bound) && detsum > TINY && detsum.is_finite() {
        return sign(det);
    }
    if a == c
        || b == c
        || a == b
        || (a[0] == b[0] && b[0] == c[0])
        || (a[1] == b[1] && b[1] == c[1])
    {
        return 0;
    }
    probe.exact();
    sign(clash_math::predicates::orient2d(*a, *b, *c))
}

/// The projection of `p` onto the coordinate plane that drops axis `k`,
/// as `(p[k+1], p[k+2])` (indices mod 3), so that orientations in it have the
/// sign of the `k`-th component of the 3D normal.
#[inline(always)]
pub(crate) fn drop_axis(p: &P3, k: usize) -> P2 {
    match k {
        0 => [p[1], p[2]],
        1 => [p[2], p[0]],
        _ => [p[0], p[1]],
    }
}

/// Exact signs of the components of `(b - a) × (c - a)`.
#[inline]
pub(crate) fn normal_signs<P: Probe>(probe: &mut P, a: &P3, b: &P3, c: &P3) -> [i8; 3] {
    [
        orient2d(probe, &drop_axis(a, 0), &drop_axis(b, 0), &drop_axis(c, 0)),
        orient2d(probe, &drop_axis(a, 1), &drop_axis(b, 1), &drop_axis(c, 1)),
        orient2d(probe, &drop_axis(a, 2), &drop_axis(b, 2), &drop_axis(c, 2)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filtered_predicates_agree_with_exact_ones() {
        let mut t = Tally::default();
        let a = [0.1, 0.2, 0.3];
        let b = [0.7, 0.9, 1.1];
        let c = [1.3, 1.6, 1.9];
        let d = [5.0, -1.0, 2.0];
        let exact = clash_math::predicates::orient3d(
            &Point3::new(a[0], a[1], a[2]),
            &Point3::new(b[0], b[1], b[2]),
            &Point3::new(c[0], c[1], c[2]),
            &Point3::new(d[0], d[1], d[2]),
        );
        assert_eq!(orient3d(&mut t, &a, &b, &c, &d), sign(exact));
        assert_eq!(
            orient3d(
                &mut t,
                &[0.0; 3],
                &[1.0, 0.0, 0.0],
                &[0.0, 1.0, 0.0],
                &[0.3, 0.3, 1.0]
            ),
            1
        );
        assert_eq!(
            orient3d(
                &mut t,
                &[0.0; 3],
                &[1.0, 0.0, 0.0],
                &[0.0, 1.0, 0.0],
                &[0.3, 0.3, -1e-30]
            ),
            -1
        );
        assert_eq!(orient2d(&mut t, &[0.0, 0.0], &[1.0, 0.0], &[0.0, 1.0]), 1);
        assert_eq!(orient2d(&mut t, &[0.0, 0.0], &[1.0, 1.0], &[3.0, 3.0]), 0);
        assert!(t.0 >= 1);
        assert_eq!(
            normal_signs(&mut (), &[0.0; 3], &[1.0, 0.0, 0.0], &[0.0, 1.0, 0.0]),
            [0, 0, 1]
        );
    }
}
