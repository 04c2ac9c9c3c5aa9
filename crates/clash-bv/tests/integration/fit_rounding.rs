//! Boxes and rectangle-swept spheres fitted along given axes (and capsules
//! and spheres, in exact arithmetic) hold every
//! input point twice over: with the very expression `contains_point`
//! evaluates (no tolerance), and in exact rational arithmetic with the
//! stored axes, centre and extents taken as exact numbers (for a box
//! `|axesᵀ (p - c)| <= half`, so that separating-axis tests on it stay
//! conservative; for an RSS `|p - c - a₀ x₀ - a₁ x₁| <= radius` with
//! `x_k = a_k · (p - c)` clamped to the side, a point of the rectangle
//! within the radius of `p`). Their fits measure extents and radii from
//! rounded coordinates and pad them by a bound on the rounding; these
//! tests fail when the pads are removed. Random frames
//! (rotations rounded to the scalar), point sets of 1 to 40 points, near
//! and far from the origin (up to 1e7), flat, needle-like and repeated,
//! f64 and f32.

use clash_bv::{BoundingVolume, Capsule, FitVolume, IndexedPoints, Obb, Rss, Sphere};
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
        let mut u = zero();
        for j in 0..3 {
            let d = exact(p[j].to_f64()) - exact(b.center[j].to_f64());
            u += exact(b.axes[(j, k)].to_f64()) * d;
        }
        let u = if u < zero() { -u } else { u };
        u <= exact(b.half_extents[k].to_f64())
    })
}

fn zero() -> BigRational {
    BigRational::from_integer(BigInt::from(0))
}

/// `|p - c - a₀ x₀ - a₁ x₁|² <= radius²` in exact arithmetic, with
/// `x_k = a_k · (p - c)` clamped to `±half_lengths[k]`.
fn rss_holds_exactly<T: Scalar>(b: &Rss<T>, p: &Point3<T>) -> bool {
    let d: Vec<BigRational> = (0..3)
        .map(|j| exact(p[j].to_f64()) - exact(b.center[j].to_f64()))
        .collect();
    let a = |j: usize, k: usize| exact(b.axes[(j, k)].to_f64());
    let mut e = d.clone();
    for k in 0..2 {
        let mut x = zero();
        for (j, dj) in d.iter().enumerate() {
            x += a(j, k) * dj;
        }
        let h = exact(b.half_lengths[k].to_f64());
        let x = if x > h {
            h
        } else if x < -h.clone() {
            -h
        } else {
            x
        };
        for (j, ej) in e.iter_mut().enumerate() {
            *ej -= a(j, k) * &x;
        }
    }
    let norm2 = e.iter().fold(zero(), |s, x| s + x * x);
    let r = exact(b.radius.to_f64());
    norm2 <= &r * &r
}

/// The squared exact distance from `p` to the segment `a`–`b` is at most
/// `radius²`: the closest point `a + t (b - a)`, `t` clamped to `[0, 1]`,
/// in exact arithmetic.
fn capsule_holds_exactly<T: Scalar>(c: &Capsule<T>, p: &Point3<T>) -> bool {
    let x = |q: &Point3<T>| -> Vec<BigRational> { (0..3).map(|j| exact(q[j].to_f64())).collect() };
    let (a, b, p) = (x(&c.segment.a), x(&c.segment.b), x(p));
    let d: Vec<BigRational> = (0..3).map(|j| &b[j] - &a[j]).collect();
    let dd = d.iter().fold(zero(), |s, v| s + v * v);
    let t = if dd == zero() {
        zero()
    } else {
        let t = (0..3).fold(zero(), |s, j| s + (&p[j] - &a[j]) * &d[j]) / &dd;
        let one = BigRational::from_integer(BigInt::from(1));
        if t < zero() {
            zero()
        } else if t > one {
            one
        } else {
            t
        }
    };
    let norm2 = (0..3).fold(zero(), |s, j| {
        let e = &p[j] - &a[j] - &t * &d[j];
        s + &e * &e
    });
    let r = exact(c.radius.to_f64());
    norm2 <= &r * &r
}

/// `|p - c|² <= radius²` in exact arithmetic.
fn sphere_holds_exactly<T: Scalar>(s: &Sphere<T>, p: &Point3<T>) -> bool {
    let norm2 = (0..3).fold(zero(), |acc, j| {
        let e = exact(p[j].to_f64()) - exact(s.center[j].to_f64());
        acc + &e * &e
    });
    let r = exact(s.radius.to_f64());
    norm2 <= &r * &r
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
        let ids: Vec<u32> = (0..pts.len() as u32).collect();
        let set = IndexedPoints::new(&pts, &ids).expect("non-empty");
        let rss = [
            Rss::fit_along_axes(&axes, &set).expect("RSS fits along axes"),
            Rss::fit_pca(&pts).expect("finite points"),
        ];
        let capsule = Capsule::fit_pca(&pts).expect("finite points");
        let sphere = Sphere::fit_points(&pts).expect("finite points");
        for p in &pts {
            assert!(
                capsule_holds_exactly(&capsule, p),
                "{} round {round}: {p:?} outside {capsule:?} in exact arithmetic",
                T::NAME
            );
            assert!(
                sphere_holds_exactly(&sphere, p),
                "{} round {round}: {p:?} outside {sphere:?} in exact arithmetic",
                T::NAME
            );
            for r in &rss {
                assert!(
                    r.contains_point(p),
                    "{} round {round}: {p:?} outside {r:?}",
                    T::NAME
                );
                assert!(
                    rss_holds_exactly(r, p),
                    "{} round {round}: {p:?} outside {r:?} in exact arithmetic",
                    T::NAME
                );
            }
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

/// Rounds per precision: 1,500 by default, `CLASH_FIT_ROUNDS` for more
/// (see `docs/long_checks.md`).
fn rounds() -> usize {
    std::env::var("CLASH_FIT_ROUNDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1500)
}

#[test]
fn volumes_along_axes_hold_their_points_as_evaluated_and_exactly_f64() {
    check::<f64>(11, rounds());
}

#[test]
fn volumes_along_axes_hold_their_points_as_evaluated_and_exactly_f32() {
    check::<f32>(12, rounds());
}
