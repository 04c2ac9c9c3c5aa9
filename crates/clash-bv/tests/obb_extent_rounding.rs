//! Boxes fitted along given axes hold every input point twice over: with
//! the very expression `Obb::contains_point` evaluates (no tolerance), and
//! in exact rational arithmetic (`|axesᵀ (p - c)| <= half` with the stored
//! axes, centre and half-widths taken as exact numbers), so that
//! separating-axis tests on them stay conservative. Random frames
//! (rotations rounded to the scalar), point sets of 1 to 40 points, near
//! and far from the origin (up to 1e7), flat, needle-like and repeated,
//! f64 and f32.

use clash_bv::{BoundingVolume, Obb};
use clash_math::{Matrix3, Point3, Rotation3, Scalar};
use num_bigint::BigInt;
use num_rational::BigRational;
use rand::{RngExt, SeedableRng};

fn exact(x: f64) -> BigRational {
    BigRational::from_float(x).expect("finite")
}

/// `|axesᵀ (p - c)|_k <= half_k` in exact arithmetic, for every axis.
fn holds_exactly<T: Scalar>(b: &Obb<T>, p: &Point3<T>) -> bool {
    (0..3).all(|k| {
        let mut u = BigRational::from_integer(BigInt::from(0));
        for j in 0..3 {
            let d = exact(p[j].to_f64()) - exact(b.center[j].to_f64());
            u += exact(b.axes[(j, k)].to_f64()) * d;
        }
        let u = if u < BigRational::from_integer(BigInt::from(0)) {
            -u
        } else {
            u
        };
        u <= exact(b.half_extents[k].to_f64())
    })
}

fn check<T: Scalar>(seed: u64, rounds: usize) {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for round in 0..rounds {
        let n = 1 + round % 40;
        let mut r = |s: f64| {
            if s > 0.0 {
                rng.random_range(-s..s)
            } else {
                0.0
            }
        };
        let axes: Matrix3<T> = Rotation3::from_euler_angles(r(3.0), r(3.0), r(3.0))
            .matrix()
            .map(T::lit);
        let far = [0.0, 1.0, 1e3, 1e7][round % 4];
        let offset = [r(far), r(far), r(far)];
        let size = [1.0, 1e-3, 1e-6][(round / 4) % 3];
        let shape = [[1.0, 1.0, 1.0], [1.0, 1.0, 0.0], [1.0, 1e-9, 0.0]][(round / 12) % 3];
        let mut pts: Vec<Point3<T>> = (0..n)
            .map(|_| {
                Point3::new(
                    T::lit(offset[0] + size * shape[0] * r(1.0)),
                    T::lit(offset[1] + size * shape[1] * r(1.0)),
                    T::lit(offset[2] + size * shape[2] * r(1.0)),
                )
            })
            .collect();
        if round % 5 == 0 {
            let p = pts[0];
            pts.push(p);
        }
        let b = Obb::from_axes_and_points(&axes, &pts);
        for p in &pts {
            assert!(
                b.contains_point(p),
                "{} round {round}: {p:?} outside {b:?}",
                T::NAME
            );
            assert!(
                holds_exactly(&b, p),
                "{} round {round}: {p:?} outside {b:?} in exact arithmetic",
                T::NAME
            );
        }
    }
}

#[test]
fn boxes_along_axes_hold_their_points_as_evaluated_and_exactly() {
    check::<f64>(11, 3000);
    check::<f32>(12, 3000);
}
