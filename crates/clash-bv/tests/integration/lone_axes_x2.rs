//! `lone_triangle_axes_x2` gives, in each lane, bit for bit what
//! `lone_triangle_axes` gives for that triangle (including `None` for
//! degenerate ones), in `f64` (SSE2 lanes on x86_64) and `f32`, on random,
//! tiny, huge, degenerate, non-finite and tied-edge triangles, whichever
//! lane a triangle takes and whatever its neighbour.

use clash_bv::{lone_triangle_axes, lone_triangle_axes_x2};
use clash_math::{Matrix3, Point3, Scalar, Triangle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Bit-identical, except that any NaN matches any NaN (the payload of a
/// NaN is not specified: it can depend on operand order, which the
/// compiler may swap in commutative operations). Finite input in a tree
/// (positive, finite area) never makes one.
fn same<T: Scalar>(a: &Option<Matrix3<T>>, b: &Option<Matrix3<T>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => a.iter().zip(b.iter()).all(|(x, y)| {
            let (x, y) = (x.to_f64(), y.to_f64());
            x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan())
        }),
        _ => false,
    }
}

fn check_pair<T: Scalar>(t: &Triangle<T>, u: &Triangle<T>) {
    let want = [lone_triangle_axes(t), lone_triangle_axes(u)];
    let got = lone_triangle_axes_x2([t, u]);
    for l in 0..2 {
        assert!(
            same(&got[l], &want[l]),
            "lane {l} of ({t:?}, {u:?}): {:?} vs {:?}",
            got[l],
            want[l]
        );
    }
}

/// Every pair of the set, in both lane orders and with itself.
fn check_all<T: Scalar>(tris: &[Triangle<T>]) {
    for t in tris {
        for u in tris {
            check_pair(t, u);
        }
    }
}

/// The triangle with its corners rotated `k` places (ties in edge length
/// then fall on different edges).
fn rotated<T: Scalar>(t: &Triangle<T>, k: usize) -> Triangle<T> {
    let c = [t.a, t.b, t.c];
    Triangle::new(c[k % 3], c[(k + 1) % 3], c[(k + 2) % 3])
}

fn p<T: Scalar>(x: f64, y: f64, z: f64) -> Point3<T> {
    Point3::new(T::lit(x), T::lit(y), T::lit(z))
}

/// Hand-made hard cases at several scales: degenerate (a point, collinear,
/// repeated corners), tied edge lengths (equilateral-like, isosceles,
/// right isosceles), tiny (squares underflow), huge (squares and edges
/// overflow), non-finite corners, signed zeros.
fn adversarial<T: Scalar>() -> Vec<Triangle<T>> {
    let shapes: Vec<[[f64; 3]; 3]> = vec![
        [[0.0; 3], [0.0; 3], [0.0; 3]],
        [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.0, 1.0, 1.0], [3.0, 3.0, 3.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
        [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.75f64.sqrt(), 0.0]],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 3.0, 0.0]],
        [[0.0, -1.0, 0.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]],
        [[-0.0, 0.0, -0.0], [0.0, -0.0, 1.0], [-0.0, 1.0, 0.0]],
        [[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [0.7, 0.8, 0.9000001]],
        [
            [1.0, 1.0, 0.0],
            [1.0 + 1e-15, 1.0, 0.0],
            [1.0, 1.0 + 1e-15, 0.0],
        ],
        [[3.0, 4.0, 0.0], [0.0, 0.0, 0.0], [-4.0, 3.0, 0.0]],
        [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0], [1.0, 1.0, 1.0]],
    ];
    let scales = [
        1.0, 1e-3, 1e3, 1e-20, 1e20, 1e-40, 1e-160, 1e-200, 1e150, 1e160, 1e300, 1e308, 3e-308,
        5e-324,
    ];
    let mut out = Vec::new();
    for s in &shapes {
        for &k in &scales {
            for shift in [0.0, 1.0, -7.5] {
                let t = Triangle::new(
                    p::<T>(s[0][0] * k + shift, s[0][1] * k, s[0][2] * k),
                    p::<T>(s[1][0] * k + shift, s[1][1] * k, s[1][2] * k),
                    p::<T>(s[2][0] * k + shift, s[2][1] * k, s[2][2] * k),
                );
                for r in 0..3 {
                    out.push(rotated(&t, r));
                }
                out.push(Triangle::new(t.a, t.c, t.b));
            }
        }
    }
    let (inf, nan) = (f64::INFINITY, f64::NAN);
    for bad in [inf, -inf, nan, f64::MAX, -f64::MAX] {
        out.push(Triangle::new(
            p(0.0, 0.0, 0.0),
            p(bad, 0.0, 0.0),
            p(0.0, 1.0, 0.0),
        ));
        out.push(Triangle::new(
            p(bad, 1.0, 0.0),
            p(0.0, bad, 0.0),
            p(0.0, 1.0, bad),
        ));
    }
    out
}

/// Random triangles: near-unit ones, ones at random scales and offsets
/// (down to where squares underflow, up to where they overflow), nearly
/// degenerate ones, ones on a small integer grid (many ties in edge
/// length) and ones of arbitrary bit patterns.
fn random<T: Scalar>(rng: &mut ChaCha8Rng, n: usize) -> Vec<Triangle<T>> {
    let max_exp = if T::NAME == "f32" { 38 } else { 307 };
    (0..n)
        .map(|i| {
            let corner = |rng: &mut ChaCha8Rng, s: f64, o: f64| {
                p::<T>(
                    o + s * rng.random_range(-1.0..1.0),
                    o + s * rng.random_range(-1.0..1.0),
                    o + s * rng.random_range(-1.0..1.0),
                )
            };
            match i % 6 {
                0 => Triangle::new(
                    corner(rng, 1.0, 0.0),
                    corner(rng, 1.0, 0.0),
                    corner(rng, 1.0, 0.0),
                ),
                1 => {
                    let s = 10f64.powi(rng.random_range(-max_exp - 8..=max_exp));
                    let o = 10f64.powi(rng.random_range(-max_exp..=max_exp))
                        * rng.random_range(-1.0..1.0);
                    Triangle::new(corner(rng, s, o), corner(rng, s, o), corner(rng, s, o))
                }
                2 => {
                    // Nearly collinear: c close to the segment ab.
                    let (a, b) = (corner(rng, 1.0, 0.0), corner(rng, 1.0, 0.0));
                    let f = T::lit(rng.random_range(-0.5..1.5));
                    let e = T::lit(10f64.powi(rng.random_range(-20..0)));
                    let c = a + (b - a) * f + (corner(rng, 1.0, 0.0) - Point3::origin()) * e;
                    Triangle::new(a, b, c)
                }
                3 => {
                    let g = |rng: &mut ChaCha8Rng| {
                        p::<T>(
                            rng.random_range(-2..=2) as f64,
                            rng.random_range(-2..=2) as f64,
                            rng.random_range(-2..=2) as f64,
                        )
                    };
                    Triangle::new(g(rng), g(rng), g(rng))
                }
                4 => {
                    let bits = |rng: &mut ChaCha8Rng| {
                        if T::NAME == "f32" {
                            T::from_f32_exact(f32::from_bits(rng.random::<u32>()))
                        } else {
                            T::lit(f64::from_bits(rng.random::<u64>()))
                        }
                    };
                    let q = |rng: &mut ChaCha8Rng| Point3::new(bits(rng), bits(rng), bits(rng));
                    Triangle::new(q(rng), q(rng), q(rng))
                }
                _ => {
                    // Shared corners, as in a mesh: a triangle and its
                    // neighbour across an edge.
                    let (a, b, c) = (
                        corner(rng, 1.0, 0.0),
                        corner(rng, 1.0, 0.0),
                        corner(rng, 1.0, 0.0),
                    );
                    if rng.random::<bool>() {
                        Triangle::new(a, b, c)
                    } else {
                        Triangle::new(b, a, a + (b - c))
                    }
                }
            }
        })
        .collect()
}

fn run<T: Scalar>(seed: u64) {
    let hard = adversarial::<T>();
    check_all(&hard);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let tris = random::<T>(&mut rng, 60_000);
    for w in tris.windows(2) {
        check_pair(&w[0], &w[1]);
        check_pair(&w[1], &w[0]);
        check_pair(&w[0], &w[0]);
    }
    for (t, u) in tris.iter().zip(hard.iter().cycle()) {
        check_pair(t, u);
        check_pair(u, t);
    }
    // The random set holds frames (not only `None`s).
    let some = tris
        .iter()
        .filter(|t| lone_triangle_axes(t).is_some())
        .count();
    assert!(some > tris.len() / 2, "{some} of {}", tris.len());
}

#[test]
fn pair_matches_single_f64() {
    run::<f64>(1);
}

#[test]
fn pair_matches_single_f32() {
    run::<f32>(2);
}
