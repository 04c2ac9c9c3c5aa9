//! Exact orientation predicates (Shewchuk's adaptive-precision arithmetic
//! through the `robust` crate; RTCD §11.5).
//!
//! The returned value's **sign** is exact for every finite `f32` or `f64`
//! input (an `f32` converts to `f64` without rounding); its magnitude is only
//! an approximation of the determinant. The fast floating-point evaluation is
//! tried first and the exact expansion is computed only when the result is
//! within the rounding-error bound, so the common case costs little more than
//! the plain determinant.

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
    // robust::orient3d is positive when d is *below* abc (det(a-d, b-d, c-d)).
    -robust::orient3d(c3(a), c3(b), c3(c), c3(d))
}

/// Sign of the 2D cross product `(b - a) × (c - a)` of points given as `(x, y)`:
/// positive for a counter-clockwise turn, zero when collinear.
#[inline]
pub fn orient2d(a: [f64; 2], b: [f64; 2], c: [f64; 2]) -> f64 {
    robust::orient2d(c2(a[0], a[1]), c2(b[0], b[1]), c2(c[0], c[1]))
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
