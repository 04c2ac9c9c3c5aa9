//! Exact-oracle sweeps for the exact tests `triangle_triangle` and
//! `triangle_aabb`: zero disagreements allowed.
//!
//! * `million_*`: 1,000,000 random pairs each on coarse grids of small
//!   integers and dyadics (exact in `f32` and `f64`), with injected
//!   degeneracies (segments, points), shared vertices and edges, coplanar
//!   pairs and box-aligned vertices; the oracle runs in `i128`, which is exact
//!   for these magnitudes.
//! * `adversarial_*`: arbitrary `f64` configurations built to be touching,
//!   sharing features, coplanar, nearly coplanar (1e-12 relative
//!   perturbations), degenerate, at scales 1e-6 to 1e6; the oracle runs in
//!   `BigInt` after an exact common power-of-two scaling (exact rational
//!   arithmetic).

use crate::oracle;

use clash_bv::Aabb;
use clash_math::{Point3, Triangle};
use clash_narrow::overlap::{
    OverlapStats, triangle_aabb, triangle_aabb_with_stats, triangle_triangle,
    triangle_triangle_with_stats,
};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

pub(crate) type I3 = [i128; 3];

pub(crate) fn tri_f64(t: &[[f64; 3]; 3]) -> Triangle<f64> {
    Triangle::new(Point3::from(t[0]), Point3::from(t[1]), Point3::from(t[2]))
}

fn tri_f32(t: &[[f64; 3]; 3]) -> Triangle<f32> {
    let p = |v: [f64; 3]| Point3::new(v[0] as f32, v[1] as f32, v[2] as f32);
    Triangle::new(p(t[0]), p(t[1]), p(t[2]))
}

pub(crate) fn to_f(v: &I3, scale: f64) -> [f64; 3] {
    [
        v[0] as f64 * scale,
        v[1] as f64 * scale,
        v[2] as f64 * scale,
    ]
}

/// A random grid triangle, sometimes degenerate, sometimes sharing features with `other`.
pub(crate) fn grid_tri(rng: &mut ChaCha8Rng, g: i128, other: Option<&[I3; 3]>) -> [I3; 3] {
    let mut p = || -> I3 {
        [
            rng.random_range(-g..=g),
            rng.random_range(-g..=g),
            rng.random_range(-g..=g),
        ]
    };
    let mut t = [p(), p(), p()];
    let r: u32 = rng.random_range(0..100);
    if let Some(o) = other {
        match r {
            0..8 => t[0] = o[rng.random_range(0..3)],
            8..14 => {
                let i = rng.random_range(0..3);
                t[0] = o[i];
                t[1] = o[(i + 1) % 3];
            }
            14..20 => {
                // coplanar with `other` when the lattice allows: integer affine combination
                for v in t.iter_mut() {
                    let (s, u): (i128, i128) = (rng.random_range(-2..=2), rng.random_range(-2..=2));
                    for k in 0..3 {
                        v[k] = o[0][k] + s * (o[1][k] - o[0][k]) + u * (o[2][k] - o[0][k]);
                    }
                }
            }
            20..24 => {
                // vertex at an edge midpoint of `other` (exact on the doubled grid is not
                // available, so use an edge end point shifted along the edge)
                let i = rng.random_range(0..3);
                let j = (i + 1) % 3;
                let s: i128 = rng.random_range(0..=2);
                for k in 0..3 {
                    t[0][k] = o[i][k] + s * (o[j][k] - o[i][k]);
                }
            }
            _ => {}
        }
    }
    let d: u32 = rng.random_range(0..100);
    match d {
        0..5 => t[2] = t[0], // segment
        5..9 => {
            t[2] = [
                2 * t[1][0] - t[0][0],
                2 * t[1][1] - t[0][1],
                2 * t[1][2] - t[0][2],
            ]
        } // collinear
        9..11 => t = [t[0], t[0], t[0]], // point
        _ => {}
    }
    t
}

#[test]
fn million_triangle_triangle_grid_matches_exact_oracle() {
    const N: u64 = 1_000_000;
    let chunks = 64u64;
    let (bad, overlaps): (u64, u64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(1000 + c);
            let (mut bad, mut hits) = (0u64, 0u64);
            for i in 0..N / chunks {
                let g: i128 = [2, 4, 16, 1024][(i % 4) as usize];
                let t1 = grid_tri(&mut rng, g, None);
                let t2 = grid_tri(&mut rng, g, Some(&t1));
                let expect = oracle::tri_tri(&t1, &t2);
                let scale = [1.0, 0.125, 1.0 / 1024.0, 3.0][(i % 3) as usize];
                let f1: [[f64; 3]; 3] = core::array::from_fn(|k| to_f(&t1[k], scale));
                let f2: [[f64; 3]; 3] = core::array::from_fn(|k| to_f(&t2[k], scale));
                let got = triangle_triangle(&tri_f64(&f1), &tri_f64(&f2));
                let got_rev = triangle_triangle(&tri_f64(&f2), &tri_f64(&f1));
                let got32 = if i % 4 == 1 { triangle_triangle(&tri_f32(&f1), &tri_f32(&f2)) } else { got };
                if got != expect || got_rev != expect || got32 != expect {
                    if bad < 5 {
                        eprintln!("disagreement: {t1:?} {t2:?} scale {scale} oracle {expect} got {got} rev {got_rev} f32 {got32}");
                    }
                    bad += 1;
                }
                hits += u64::from(expect);
            }
            (bad, hits)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!(
        "triangle_triangle grid sweep: {N} pairs, {overlaps} overlapping, {bad} disagreements"
    );
    assert!(
        overlaps > N / 10 && overlaps < N * 9 / 10,
        "sweep should mix both answers: {overlaps}"
    );
    assert_eq!(bad, 0);
}

#[test]
fn million_triangle_aabb_grid_matches_exact_oracle() {
    const N: u64 = 1_000_000;
    let chunks = 64u64;
    let (bad, overlaps): (u64, u64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(2000 + c);
            let (mut bad, mut hits) = (0u64, 0u64);
            for i in 0..N / chunks {
                let g: i128 = [2, 4, 16, 1024][(i % 4) as usize];
                let mut lo = [0i128; 3];
                let mut hi = [0i128; 3];
                for k in 0..3 {
                    let (a, b) = (rng.random_range(-g..=g), rng.random_range(-g..=g));
                    lo[k] = a.min(b);
                    hi[k] = a.max(b);
                }
                if i.is_multiple_of(97) {
                    lo[0] = hi[0] + 1; // an inverted (empty) box now and then
                }
                let mut t = grid_tri(&mut rng, g, None);
                // snap some coordinates to the box planes
                for v in t.iter_mut() {
                    for k in 0..3 {
                        match rng.random_range(0..6) {
                            0 => v[k] = lo[k],
                            1 => v[k] = hi[k],
                            _ => {}
                        }
                    }
                }
                let expect = oracle::tri_box(&t, &lo, &hi);
                let scale = [1.0, 0.125, 1.0 / 1024.0][(i % 3) as usize];
                let f: [[f64; 3]; 3] = core::array::from_fn(|k| to_f(&t[k], scale));
                let b64 = Aabb { min: Point3::from(to_f(&lo, scale)), max: Point3::from(to_f(&hi, scale)) };
                let got = triangle_aabb(&tri_f64(&f), &b64);
                let got32 = if i % 4 == 1 {
                    let b32 = Aabb { min: b64.min.cast::<f32>(), max: b64.max.cast::<f32>() };
                    triangle_aabb(&tri_f32(&f), &b32)
                } else {
                    got
                };
                if got != expect || got32 != expect {
                    if bad < 5 {
                        eprintln!("disagreement: {t:?} box {lo:?} {hi:?} oracle {expect} got {got} f32 {got32}");
                    }
                    bad += 1;
                }
                hits += u64::from(expect);
            }
            (bad, hits)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    eprintln!("triangle_aabb grid sweep: {N} pairs, {overlaps} overlapping, {bad} disagreements");
    assert!(
        overlaps > N / 10 && overlaps < N * 9 / 10,
        "sweep should mix both answers: {overlaps}"
    );
    assert_eq!(bad, 0);
}

// ---- adversarial f64 sets ----

fn rnd3(rng: &mut ChaCha8Rng, s: f64) -> [f64; 3] {
    [
        rng.random_range(-1.0..1.0) * s,
        rng.random_range(-1.0..1.0) * s,
        rng.random_range(-1.0..1.0) * s,
    ]
}

fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

fn lerp(a: [f64; 3], b: [f64; 3], t: f64) -> [f64; 3] {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

fn perturb(rng: &mut ChaCha8Rng, p: [f64; 3], rel: f64) -> [f64; 3] {
    p.map(|x| x * (1.0 + rng.random_range(-1.0..1.0) * rel))
}

/// Adversarial triangle pairs (see the module doc), `kind` in 0..12.
pub fn adversarial_pair(rng: &mut ChaCha8Rng, kind: u32) -> ([[f64; 3]; 3], [[f64; 3]; 3]) {
    let s = 10f64.powi(rng.random_range(-6..=6));
    let off = rnd3(rng, s * 4.0);
    let p = |rng: &mut ChaCha8Rng| add(off, rnd3(rng, s));
    let t1 = [p(rng), p(rng), p(rng)];
    let bary = |rng: &mut ChaCha8Rng, t: &[[f64; 3]; 3]| {
        let (u, v): (f64, f64) = (rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        let d1 = [t[1][0] - t[0][0], t[1][1] - t[0][1], t[1][2] - t[0][2]];
        let d2 = [t[2][0] - t[0][0], t[2][1] - t[0][1], t[2][2] - t[0][2]];
        [
            t[0][0] + d1[0] * u + d2[0] * v,
            t[0][1] + d1[1] * u + d2[1] * v,
            t[0][2] + d1[2] * u + d2[2] * v,
        ]
    };
    let t2 = match kind {
        0 => [t1[rng.random_range(0..3)], p(rng), p(rng)], // shared vertex
        1 => [t1[0], t1[1], p(rng)],                       // shared edge
        2 => [
            t1[1],
            t1[0],
            lerp(t1[2], t1[0], rng.random_range(-1.0..2.0)),
        ], // shared edge, coplanar-ish
        3 => {
            // vertex on an edge (rounded), other vertices anywhere
            let i = rng.random_range(0..3);
            [
                lerp(t1[i], t1[(i + 1) % 3], rng.random_range(0.0..1.0)),
                p(rng),
                p(rng),
            ]
        }
        4 => {
            // vertex on the face (rounded)
            [bary(rng, &t1), p(rng), p(rng)]
        }
        5 => {
            // coplanar (to rounding) overlapping or disjoint: affine combinations
            let c = |rng: &mut ChaCha8Rng| {
                let (u, v): (f64, f64) = (rng.random_range(-1.0..2.0), rng.random_range(-1.0..2.0));
                let e1 = lerp(t1[0], t1[1], u);
                add(
                    e1,
                    [
                        (t1[2][0] - t1[0][0]) * v,
                        (t1[2][1] - t1[0][1]) * v,
                        (t1[2][2] - t1[0][2]) * v,
                    ],
                )
            };
            [c(rng), c(rng), c(rng)]
        }
        6 => {
            // exactly coplanar: both in the plane z = const
            let z = t1[0][2];
            let mut a = t1;
            a[1][2] = z;
            a[2][2] = z;
            let mut b = [p(rng), p(rng), p(rng)];
            for v in b.iter_mut() {
                v[2] = z;
            }
            return (a, b);
        }
        7 => {
            // nearly coplanar: perturbed affine combinations, 1e-12 relative
            let c = |rng: &mut ChaCha8Rng| {
                let (u, v): (f64, f64) = (rng.random_range(-0.5..1.5), rng.random_range(-0.5..1.5));
                let e1 = lerp(t1[0], t1[1], u);
                add(
                    e1,
                    [
                        (t1[2][0] - t1[0][0]) * v,
                        (t1[2][1] - t1[0][1]) * v,
                        (t1[2][2] - t1[0][2]) * v,
                    ],
                )
            };
            let a = c(rng);
            let b = c(rng);
            let cc = c(rng);
            [
                perturb(rng, a, 1e-12),
                perturb(rng, b, 1e-12),
                perturb(rng, cc, 1e-12),
            ]
        }
        8 => {
            // degenerate: a segment through (rounded) points of t1, or a point
            let a = bary(rng, &t1);
            let b = p(rng);
            match rng.random_range(0..3) {
                0 => [a, b, a],
                1 => [a, a, a],
                _ => [a, b, lerp(a, b, 0.5)],
            }
        }
        9 => {
            // both degenerate: segments sharing an end point or crossing (rounded)
            let a = lerp(t1[0], t1[1], rng.random_range(0.0..1.0));
            let seg1 = [t1[0], t1[1], t1[0]];
            let q = p(rng);
            return (seg1, [a, q, lerp(a, q, -1.0)]);
        }
        10 => {
            // touching edge/edge: t2 has an edge through a point of an edge of t1
            let i = rng.random_range(0..3);
            let x = lerp(t1[i], t1[(i + 1) % 3], rng.random_range(0.0..1.0));
            let d = rnd3(rng, s);
            [add(x, d), add(x, d.map(|v| -v)), p(rng)]
        }
        _ => [p(rng), p(rng), p(rng)], // random, nearby
    };
    (t1, t2)
}

#[test]
fn adversarial_triangle_triangle_matches_exact_rational_oracle() {
    const N: u32 = 60_000;
    let results: Vec<(u32, u32, u64, OverlapStats)> = (0..8u64)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(3000 + c);
            let (mut bad, mut hits) = (0u32, 0u64);
            let mut stats = OverlapStats::default();
            for i in 0..N / 8 {
                let (t1, t2) = adversarial_pair(&mut rng, i % 12);
                let expect = oracle::tri_tri_f64(&t1, &t2);
                let got = triangle_triangle_with_stats(&tri_f64(&t1), &tri_f64(&t2), &mut stats);
                let rev = triangle_triangle(&tri_f64(&t2), &tri_f64(&t1));
                if got != expect || rev != expect {
                    if bad < 5 {
                        eprintln!("disagreement kind {}: {t1:?} {t2:?} oracle {expect} got {got} rev {rev}", i % 12);
                    }
                    bad += 1;
                }
                hits += u64::from(expect);
            }
            (bad, N / 8, hits, stats)
        })
        .collect();
    let bad: u32 = results.iter().map(|r| r.0).sum();
    let hits: u64 = results.iter().map(|r| r.2).sum();
    let exact: u64 = results.iter().map(|r| r.3.exact_calls).sum();
    eprintln!(
        "triangle_triangle adversarial: {N} pairs, {hits} overlapping, {exact} took the exact path, {bad} disagreements"
    );
    assert!(exact > 0);
    assert_eq!(bad, 0);
}

/// Adversarial triangle/box pairs, `kind` in 0..10.
pub fn adversarial_box(rng: &mut ChaCha8Rng, kind: u32) -> ([[f64; 3]; 3], [f64; 3], [f64; 3]) {
    let s = 10f64.powi(rng.random_range(-6..=6));
    let off = rnd3(rng, s * 4.0);
    let a = add(off, rnd3(rng, s));
    let b = add(off, rnd3(rng, s));
    let lo: [f64; 3] = core::array::from_fn(|k| a[k].min(b[k]));
    let hi: [f64; 3] = core::array::from_fn(|k| a[k].max(b[k]));
    let corner = |m: u32| -> [f64; 3] {
        core::array::from_fn(|k| if m >> k & 1 == 0 { lo[k] } else { hi[k] })
    };
    let p = |rng: &mut ChaCha8Rng| add(off, rnd3(rng, s * 1.5));
    let t = match kind {
        0 => [corner(rng.random_range(0..8)), p(rng), p(rng)], // vertex on a corner
        1 => {
            // plane through a corner (rounded): vertices corner + tangent directions
            let c = corner(rng.random_range(0..8));
            let (d1, d2) = (rnd3(rng, s), rnd3(rng, s));
            [
                add(c, d1),
                add(c, d2),
                add(c, [-(d1[0] + d2[0]), -(d1[1] + d2[1]), -(d1[2] + d2[2])]),
            ]
        }
        2 => {
            // an edge through a box edge's point: vertices on the box's face planes
            let k = rng.random_range(0..3);
            let mut x = p(rng);
            let mut y = p(rng);
            x[k] = if rng.random_range(0..2) == 0 {
                lo[k]
            } else {
                hi[k]
            };
            y[k] = x[k];
            [x, y, p(rng)]
        }
        3 => {
            // triangle in a face plane (coplanar with a face)
            let k = rng.random_range(0..3);
            let v = if rng.random_range(0..2) == 0 {
                lo[k]
            } else {
                hi[k]
            };
            let mut t = [p(rng), p(rng), p(rng)];
            for w in t.iter_mut() {
                w[k] = v;
            }
            t
        }
        4 => {
            // edge axis grazing: an edge passing a box edge diagonally, exactly touching in 2D
            let k = rng.random_range(0..3);
            let (i, j) = ((k + 1) % 3, (k + 2) % 3);
            let c = corner(rng.random_range(0..8));
            let (dx, dy) = (hi[i] - lo[i], hi[j] - lo[j]);
            let mut x = c;
            let mut y = c;
            x[i] = c[i] + dx;
            x[j] = c[j] - dy;
            y[i] = c[i] - dx;
            y[j] = c[j] + dy;
            x[k] = lo[k] - s;
            y[k] = hi[k] + s;
            [x, y, add(x, rnd3(rng, s))]
        }
        5 => {
            // nearly touching: a corner perturbed by 1e-12
            let c = corner(rng.random_range(0..8));
            [perturb(rng, c, 1e-12), p(rng), p(rng)]
        }
        6 => {
            // degenerate: segment from a corner outward, or a point on a face
            let c = corner(rng.random_range(0..8));
            let q = p(rng);
            match rng.random_range(0..2) {
                0 => [c, q, c],
                _ => {
                    let mut x = p(rng);
                    let k = rng.random_range(0..3);
                    x[k] = hi[k];
                    [x, x, x]
                }
            }
        }
        7 => {
            // flat box: degenerate box of zero width on one axis
            let k = rng.random_range(0..3);
            let mut t = [p(rng), p(rng), p(rng)];
            t[0][k] = lo[k];
            return (
                t,
                lo,
                core::array::from_fn(|m| if m == k { lo[m] } else { hi[m] }),
            );
        }
        _ => [p(rng), p(rng), p(rng)],
    };
    (t, lo, hi)
}

#[test]
fn adversarial_triangle_aabb_matches_exact_rational_oracle() {
    const N: u32 = 60_000;
    let results: Vec<(u32, u64, OverlapStats)> = (0..8u64)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(4000 + c);
            let (mut bad, mut hits) = (0u32, 0u64);
            let mut stats = OverlapStats::default();
            for i in 0..N / 8 {
                let (t, lo, hi) = adversarial_box(&mut rng, i % 10);
                let expect = oracle::tri_box_f64(&t, &lo, &hi);
                let b = Aabb { min: Point3::from(lo), max: Point3::from(hi) };
                let got = triangle_aabb_with_stats(&tri_f64(&t), &b, &mut stats);
                if got != expect {
                    if bad < 5 {
                        eprintln!("disagreement kind {}: {t:?} box {lo:?} {hi:?} oracle {expect} got {got}", i % 10);
                    }
                    bad += 1;
                }
                hits += u64::from(expect);
            }
            (bad, hits, stats)
        })
        .collect();
    let bad: u32 = results.iter().map(|r| r.0).sum();
    let hits: u64 = results.iter().map(|r| r.1).sum();
    let exact: u64 = results.iter().map(|r| r.2.exact_calls).sum();
    eprintln!(
        "triangle_aabb adversarial: {N} pairs, {hits} overlapping, {exact} took the exact path, {bad} disagreements"
    );
    assert!(exact > 0);
    assert_eq!(bad, 0);
}
