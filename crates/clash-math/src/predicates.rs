//! Exact orientation predicates (Shewchuk's adaptive-precision arithmetic
//! through the `robust` crate; RTCD §11.5).
//!
//! The returned value's **sign** is exact for every finite `f32` or `f64`
//! input (an `f32` converts to `f64` without rounding); its magnitude is only
//! an approximation of the determinant. The fast floating-point evaluation is
//! tried first and the exact expansion is computed only when the result is
//! within the rounding-error bound, so the common case costs little more than
//! the plain determinant.
//!
//! Shewchuk's expansions are exact only while no product underflows or
//! overflows. Inputs with a nonzero coordinate outside
//! `[2^-200, 2^200]` (subnormal offsets such as `5e-324`, or coordinates
//! near `f64::MAX`) are decided instead with integers: every finite `f64`
//! is an integer multiple of `2^-1074`, so scaling by `2^1074` turns the
//! determinant into one of big integers, computed without rounding.

mod big;

use crate::Scalar;
use nalgebra::Point3;

#[inline(always)]
fn c2(x: f64, y: f64) -> robust::Coord<f64> {
    robust::Coord { x, y }
}

#[inline(always)]
fn c3<T: Scalar>(p: &Point3<T>) -> robust::Coord3D<f64> {
    robust::Coord3D {
        x: p.x.to_f64(),
        y: p.y.to_f64(),
        z: p.z.to_f64(),
    }
}

/// Sign of `((b - a) × (c - a)) · (d - a)`: positive when `d` lies on the side
/// of plane `abc` that its counter-clockwise normal points to, negative on the
/// other side, zero exactly when the four points are coplanar.
#[inline]
pub fn orient3d<T: Scalar>(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>, d: &Point3<T>) -> f64 {
    let (a, b, c, d) = (c3(a), c3(b), c3(c), c3(d));
    let coords = [a.x, a.y, a.z, b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z];
    if needs_integers(&coords) {
        return big::orient3d(&coords);
    }
    // robust::orient3d is positive when d is *below* abc (det(a-d, b-d, c-d)).
    -robust::orient3d(a, b, c, d)
}

/// Sign of the 2D cross product `(b - a) × (c - a)` of points given as `(x, y)`:
/// positive for a counter-clockwise turn, zero when collinear.
#[inline]
pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    let coords = [a[0], a[1], b[0], b[1], c[0], c[1]];
    if needs_integers(&coords) {
        return big::orient2d(&coords);
    }
    robust::orient2d(c2(a[0], a[1]), c2(b[0], b[1]), c2(c[0], c[1]))
}

/// Smallest nonzero magnitude for which the expansions stay exact: the
/// smallest tail of a coordinate difference is then above `2^-253`, and a
/// triple product of tails with its rounding terms above `2^-920`, normal.
const EXPANSION_MIN: f64 = f64::from_bits((1023 - 200) << 52);
/// Largest magnitude for which no product of three differences overflows.
const EXPANSION_MAX: f64 = f64::from_bits((1023 + 200) << 52);

/// `true` when every coordinate is finite and one lies outside the range in
/// which the adaptive expansions are exact (non-finite input is left to
/// `robust`, whose answer for it is as undefined as the question).
#[inline(always)]
fn needs_integers(coords: &[f64]) -> bool {
    let mut outside = false;
    for &x in coords {
        let m = x.abs();
        if !m.is_finite() {
            return false;
        }
        outside |= m != 0.0 && !(EXPANSION_MIN..=EXPANSION_MAX).contains(&m);
    }
    outside
}

/// Exact signs of the three components of `(b - a) × (c - a)`, as the
/// orientations of the triangle projected onto the yz, zx and xy planes.
#[inline]
pub fn cross_signs<T: Scalar>(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>) -> [f64; 3] {
    let (a, b, c) = (c3(a), c3(b), c3(c));
    [
        orient2d([a.y, a.z], [b.y, b.z], [c.y, c.z]),
        orient2d([a.z, a.x], [b.z, b.x], [c.z, c.x]),
        orient2d([a.x, a.y], [b.x, b.y], [c.x, c.y]),
    ]
}

/// `true` exactly when `a`, `b`, `c` are collinear (or coincide).
#[inline]
pub fn collinear3<T: Scalar>(a: &Point3<T>, b: &Point3<T>, c: &Point3<T>) -> bool {
    cross_signs(a, b, c) == [0.0; 3]
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigInt;
    use num_rational::BigRational;
    use num_traits::{FromPrimitive, Signed, Zero};
    use rand::{RngExt, SeedableRng};

    fn q(x: f64) -> BigRational {
        BigRational::from_f64(x).unwrap()
    }

    fn exact_orient3d(a: &Point3<f64>, b: &Point3<f64>, c: &Point3<f64>, d: &Point3<f64>) -> i32 {
        let s =
            |p: &Point3<f64>, o: &Point3<f64>| [q(p.x) - q(o.x), q(p.y) - q(o.y), q(p.z) - q(o.z)];
        let (u, v, w) = (s(b, a), s(c, a), s(d, a));
        let cx = &u[1] * &v[2] - &u[2] * &v[1];
        let cy = &u[2] * &v[0] - &u[0] * &v[2];
        let cz = &u[0] * &v[1] - &u[1] * &v[0];
        let det = cx * &w[0] + cy * &w[1] + cz * &w[2];
        if det.is_zero() {
            0
        } else if det.is_positive() {
            1
        } else {
            -1
        }
    }

    fn sign(x: f64) -> i32 {
        if x > 0.0 {
            1
        } else if x < 0.0 {
            -1
        } else {
            0
        }
    }

    #[test]
    fn orient3d_matches_rational_on_near_coplanar_points() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let _ = BigInt::from(0);
        for i in 0..20_000 {
            let scale = 10f64.powi((i % 13) - 6);
            let mut p = || {
                Point3::new(
                    rng.random_range(-1.0..1.0) * scale,
                    rng.random_range(-1.0..1.0) * scale,
                    rng.random_range(-1.0..1.0) * scale,
                )
            };
            let (a, b, c) = (p(), p(), p());
            // d on the plane up to rounding: an affine combination of a, b, c
            let (s, t): (f64, f64) = (rng.random_range(-2.0..2.0), rng.random_range(-2.0..2.0));
            let d = a + (b - a) * s + (c - a) * t;
            assert_eq!(
                sign(orient3d(&a, &b, &c, &d)),
                exact_orient3d(&a, &b, &c, &d),
                "case {i}"
            );
        }
    }

    fn exact_orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> i32 {
        let (ux, uy) = (q(b[0]) - q(a[0]), q(b[1]) - q(a[1]));
        let (vx, vy) = (q(c[0]) - q(a[0]), q(c[1]) - q(a[1]));
        let det = ux * vy - uy * vx;
        if det.is_zero() {
            0
        } else if det.is_positive() {
            1
        } else {
            -1
        }
    }

    /// Nearly coplanar (and nearly collinear) points at the ends of the
    /// `f64` range, where Shewchuk's expansions would underflow or
    /// overflow: subnormal coordinates, unit triangles with a point a
    /// subnormal distance off, coordinates near `f64::MAX / 4`, and both at
    /// once.
    #[test]
    fn orientations_are_exact_from_subnormal_to_near_overflow_coordinates() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let tiny = f64::from_bits(1);
        let mut nonzero = [0usize; 2];
        for i in 0..6_000 {
            // Base scale and offset scale of the case.
            let (scale, offset) = match i % 6 {
                0 => (tiny * 64.0, tiny),
                1 => (1.0, tiny),
                2 => (1e-300, tiny),
                3 => (1e300, 1e284),
                4 => (1e300, tiny),
                _ => (f64::MAX / 256.0, 1e290),
            };
            let mut p = || {
                Point3::new(
                    (rng.random_range(-8i32..=8) as f64) * scale,
                    (rng.random_range(-8i32..=8) as f64) * scale,
                    (rng.random_range(-8i32..=8) as f64) * scale,
                )
            };
            let (a, b, c) = (p(), p(), p());
            let (s, t) = (
                rng.random_range(-2i32..=2) as f64,
                rng.random_range(-2i32..=2) as f64,
            );
            let mut d = a + (b - a) * s + (c - a) * t;
            for k in 0..3 {
                d[k] += (rng.random_range(-2i32..=2) as f64) * offset;
            }
            let exact = exact_orient3d(&a, &b, &c, &d);
            nonzero[0] += usize::from(exact != 0);
            assert_eq!(
                sign(orient3d(&a, &b, &c, &d)),
                exact,
                "case {i}: {a:?} {b:?} {c:?} {d:?}"
            );
            let (a2, b2, d2) = ([a.x, a.y], [b.x, b.y], [d.x, d.y]);
            let exact = exact_orient2d(a2, b2, d2);
            nonzero[1] += usize::from(exact != 0);
            assert_eq!(sign(orient2d(a2, b2, d2)), exact, "case {i}: 2D");
        }
        // Both signs and zeros occur: the cases sit on the decision boundary.
        assert!(nonzero.iter().all(|&n| n > 600 && n < 5_400), "{nonzero:?}");
    }

    #[test]
    fn orient3d_sign_convention() {
        let o = Point3::new(0.0_f32, 0.0, 0.0);
        let x = Point3::new(1.0, 0.0, 0.0);
        let y = Point3::new(0.0, 1.0, 0.0);
        assert!(orient3d(&o, &x, &y, &Point3::new(0.3, 0.3, 1.0)) > 0.0);
        assert!(orient3d(&o, &x, &y, &Point3::new(0.3, 0.3, -1e-30)) < 0.0);
        assert_eq!(orient3d(&o, &x, &y, &Point3::new(7.0, -3.0, 0.0)), 0.0);
    }

    #[test]
    fn collinear_is_exact() {
        let a = Point3::new(0.1_f64, 0.2, 0.3);
        let b = Point3::new(0.7, 0.9, 1.1);
        assert!(collinear3(&a, &b, &a));
        assert!(collinear3(&a, &a, &a));
        let c = Point3::new(1.3, 1.6, 1.9); // 0.1 + 2*0.6 etc: rounding makes it (likely) not collinear
        let exact = exact_orient3d(&a, &b, &c, &Point3::new(5.0, -1.0, 2.0)) == 0
            && exact_orient3d(&a, &b, &c, &Point3::new(-1.0, 3.0, 2.5)) == 0;
        assert_eq!(collinear3(&a, &b, &c), exact);
        assert!(collinear3(
            &Point3::new(0.0, 0.0, 0.0),
            &Point3::new(1.0, 2.0, 3.0),
            &Point3::new(2.0, 4.0, 6.0)
        ));
    }
}
