//! `closest::triangle_triangle_lower_bound` never exceeds the distance, and
//! is close to it where one of its axes is the separating direction.
//!
//! Oracles: the f64 `triangle_triangle` distance (validated against dense
//! sampling and parry in `closest_oracle.rs`) minus its own rounding, and
//! for f32 bounds the f64 distance of the same (exactly widened) triangles,
//! which is exact to far below f32 rounding. Cases: random, degenerate
//! (point, segment, collinear), sliver and needle triangles, touching and
//! intersecting pairs, parallel stacks at tiny offsets, scales 1e-3 to 1e3,
//! scenes 1e6 away from the origin; plus a proptest.

use clash_math::{Point3, Triangle, Vector3};
use clash_narrow::closest::{
    triangle_triangle, triangle_triangle_lower_bound, triangle_triangle_lower_bound_until,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

type P = Point3<f64>;

fn rp(r: &mut ChaCha8Rng, c: &P, s: f64) -> P {
    c + Vector3::new(
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
    ) * s
}

/// A random triangle of one of several shapes about `c`.
fn rtri(r: &mut ChaCha8Rng, c: &P, s: f64) -> Triangle<f64> {
    let (a, b) = (rp(r, c, s), rp(r, c, s));
    match r.random_range(0..12) {
        0 => Triangle::new(a, a, a),
        1 => Triangle::new(a, b, b),
        2 => Triangle::new(a, b, a + (b - a) * r.random_range(-1.0..2.0)),
        // sliver: third corner 1e-7 off the middle of the edge
        3 => Triangle::new(a, b, a + (b - a) * 0.5 + Vector3::z() * (s * 1e-7)),
        // needle: third corner 1e-12 away from the first
        4 => Triangle::new(a, b, a + Vector3::new(1.0, -2.0, 0.5) * (s * 1e-12)),
        _ => Triangle::new(a, b, rp(r, c, s)),
    }
}

fn widen(t: &Triangle<f32>) -> Triangle<f64> {
    Triangle::new(t.a.cast(), t.b.cast(), t.c.cast())
}

fn narrow(t: &Triangle<f64>) -> Triangle<f32> {
    Triangle::new(t.a.cast(), t.b.cast(), t.c.cast())
}

/// `lb <= d`, with room only for the f64 distance's own rounding.
fn assert_below(lb: f64, t1: &Triangle<f64>, t2: &Triangle<f64>, what: &str) {
    let d = triangle_triangle(t1, t2).distance();
    let scale = [t1.a, t1.b, t1.c, t2.a, t2.b, t2.c]
        .iter()
        .fold(0.0f64, |m, p| m.max(p.coords.amax()));
    assert!(
        lb <= d + 4.0 * f64::EPSILON * scale,
        "{what}: bound {lb} above distance {d} ({t1:?}, {t2:?})"
    );
}

/// A pair drawn for case `i`: independent, sharing a corner or an edge,
/// piercing, or a parallel copy shifted along the normal by a tiny offset.
fn pair(r: &mut ChaCha8Rng, i: usize, c: &P, s: f64) -> (Triangle<f64>, Triangle<f64>) {
    let t1 = rtri(r, c, s);
    let t2 = match i % 6 {
        0 => Triangle::new(t1.a, rp(r, c, s), rp(r, c, s)),
        1 => Triangle::new(t1.a, t1.b, rp(r, c, s)),
        2 => {
            let g = t1.centroid();
            let n = t1.normal().unwrap_or(Vector3::z());
            Triangle::new(g + n * s, g - n * s, rp(r, c, s))
        }
        3 => {
            let n = t1.normal().unwrap_or(Vector3::z());
            let off = n * (s * 10f64.powf(r.random_range(-14.0..0.0)));
            let shift = (t1.b - t1.a) * r.random_range(-0.5..0.5);
            Triangle::new(t1.a + off + shift, t1.b + off + shift, t1.c + off + shift)
        }
        _ => {
            let c2 = rp(r, c, 2.0 * s);
            rtri(r, &c2, s)
        }
    };
    (t1, t2)
}

#[test]
fn lower_bound_never_exceeds_the_distance() {
    let mut r = ChaCha8Rng::seed_from_u64(1);
    let mut positive = 0;
    let n = 40_000;
    for i in 0..n {
        let s = 10f64.powf(r.random_range(-3.0..3.0));
        let far = if i % 7 == 0 { 1e6 } else { 0.0 };
        let c = rp(&mut r, &P::new(far, -far, far), s);
        let (t1, t2) = pair(&mut r, i, &c, s);
        let lb = triangle_triangle_lower_bound(&t1, &t2);
        assert!(lb >= 0.0);
        assert_below(lb, &t1, &t2, "f64");
        assert_below(
            triangle_triangle_lower_bound(&t2, &t1),
            &t2,
            &t1,
            "f64 swapped",
        );
        positive += usize::from(lb > 0.0);
        // f32 bound against the f64 distance of the same triangles.
        let (n1, n2) = (narrow(&t1), narrow(&t2));
        let lb32 = f64::from(triangle_triangle_lower_bound(&n1, &n2));
        let d = triangle_triangle(&widen(&n1), &widen(&n2)).distance();
        assert!(
            lb32 <= d,
            "f32 bound {lb32} above distance {d}: {n1:?} {n2:?}"
        );
    }
    // It prunes: most separated random pairs get a positive bound.
    assert!(positive > n / 3, "only {positive} of {n} positive");
}

/// The bound with a cut-off prunes exactly the pairs the full bound prunes,
/// never exceeds the distance, and is the full bound when it does not stop
/// early: cut-offs around the full bound, at 0 and at infinity.
#[test]
fn lower_bound_with_a_cutoff_prunes_the_same_pairs() {
    let mut r = ChaCha8Rng::seed_from_u64(3);
    let mut early = 0;
    let n = 20_000;
    for i in 0..n {
        let s = 10f64.powf(r.random_range(-3.0..3.0));
        let spread = s * r.random_range(0.0..4.0);
        let c = rp(&mut r, &P::origin(), spread);
        let (t1, t2) = pair(&mut r, i, &c, s);
        let full = triangle_triangle_lower_bound(&t1, &t2);
        let d = triangle_triangle(&t1, &t2).distance();
        let cuts = [
            0.0,
            full,
            full * r.random_range(0.0..1.0),
            full * r.random_range(1.0..2.0),
            f64::INFINITY,
        ];
        for cut in cuts {
            let b = triangle_triangle_lower_bound_until(&t1, &t2, |g| g > cut);
            assert!(b >= 0.0 && b <= d, "{b} vs distance {d}: {t1:?} {t2:?}");
            assert_eq!(b > cut, full > cut, "cut {cut}: {b} vs {full}");
            if b <= cut {
                assert_eq!(b.to_bits(), full.to_bits());
            } else if b != full {
                early += 1;
            }
        }
    }
    assert!(
        early > n / 10,
        "the centroid line stopped only {early} searches"
    );
}

/// Intersecting and touching pairs get 0.
#[test]
fn lower_bound_is_zero_for_touching_and_intersecting_pairs() {
    let mut r = ChaCha8Rng::seed_from_u64(2);
    for i in 0..5000 {
        let s = 10f64.powf(r.random_range(-3.0..3.0));
        let c = rp(&mut r, &P::origin(), s);
        let (t1, t2) = pair(&mut r, i % 3, &c, s);
        if clash_narrow::overlap::triangle_triangle(&t1, &t2) {
            assert_eq!(
                triangle_triangle_lower_bound(&t1, &t2),
                0.0,
                "{t1:?} {t2:?}"
            );
        }
    }
}

/// Where the separating direction is one of its axes the bound is tight:
/// parallel stacked triangles (normal axis) and far-apart ones (the
/// centroid line is nearly the closest direction).
#[test]
fn lower_bound_is_tight_on_its_axes() {
    let p = |x: f64, y: f64, z: f64| P::new(x, y, z);
    let t1 = Triangle::new(p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0), p(0.0, 1.0, 0.0));
    for h in [1e-9, 1e-3, 0.5, 7.0] {
        let t2 = Triangle::new(p(0.2, 0.2, h), p(2.0, 0.3, h), p(0.1, 3.0, h));
        let lb = triangle_triangle_lower_bound(&t1, &t2);
        assert!((lb - h).abs() <= 1e-13, "stack at {h}: {lb}");
    }
    let t2 = Triangle::new(p(100.0, 0.0, 0.0), p(101.0, 0.0, 0.0), p(100.0, 1.0, 0.0));
    let (lb, d) = (
        triangle_triangle_lower_bound(&t1, &t2),
        triangle_triangle(&t1, &t2).distance(),
    );
    assert!(lb <= d && lb > 0.98 * d, "{lb} vs {d}");
}

fn coord() -> impl Strategy<Value = f64> {
    prop_oneof![
        -100.0..100.0f64,
        -1e-3..1e-3f64,
        (-3i32..3).prop_map(f64::from)
    ]
}

fn point() -> impl Strategy<Value = P> {
    (coord(), coord(), coord()).prop_map(|(x, y, z)| P::new(x, y, z))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn lower_bound_below_distance_prop(
        a in point(), b in point(), c in point(),
        d in point(), e in point(), f in point(),
        shift in (coord(), coord(), coord()),
    ) {
        let t1 = Triangle::new(a, b, c);
        let v = Vector3::new(shift.0, shift.1, shift.2);
        let t2 = Triangle::new(d + v, e + v, f + v);
        let lb = triangle_triangle_lower_bound(&t1, &t2);
        prop_assert!(lb >= 0.0);
        assert_below(lb, &t1, &t2, "prop f64");
        let (n1, n2) = (narrow(&t1), narrow(&t2));
        let lb32 = f64::from(triangle_triangle_lower_bound(&n1, &n2));
        prop_assert!(lb32 <= triangle_triangle(&widen(&n1), &widen(&n2)).distance());
    }
}
