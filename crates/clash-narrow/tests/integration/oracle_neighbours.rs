//! `triangle_triangle_beyond_shared` (mesh neighbours that intersect beyond
//! their shared vertex or edge) against an exact oracle that shares no code
//! or method with it: the intersection of the two triangles is enumerated by
//! its candidate extreme points in `BigRational` (corners of one inside the
//! other, single crossings of edge pairs, edges piercing the other's plane),
//! each kept when it lies in both closed triangles (exact squared distance
//! zero), and the pair meets beyond what it shares iff a kept point lies off
//! the shared vertex or edge. `A ∩ B` is convex, so its extreme points all lie
//! in the (convex) shared set iff all of it does.
//!
//! Cases: small integer grids (coplanar, collinear, coincident and
//! degenerate configurations are frequent), scaled by powers of two and
//! offset (exact in `f64`), and in `f32`; shared vertex, shared edge
//! (including coincident shared corners) and three shared vertices.

use crate::oracle;

use clash_math::{Point3, Triangle};
use clash_narrow::overlap::{SharedCorners, triangle_triangle_beyond_shared};
use num_traits::Zero;
use oracle::{Q, V, cross, dist2_point_segment, dist2_point_triangle, dot, qv, sub};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

type G = [i64; 3];

fn lerp(p: &V<Q>, q: &V<Q>, t: &Q) -> V<Q> {
    core::array::from_fn(|k| p[k].clone() + (q[k].clone() - p[k].clone()) * t.clone())
}

/// Candidate extreme points of `A ∩ B` (a superset, filtered by the caller).
fn candidates(a: &[V<Q>; 3], b: &[V<Q>; 3]) -> Vec<V<Q>> {
    let mut out: Vec<V<Q>> = a.iter().chain(b.iter()).cloned().collect();
    let edges = [(0, 1), (1, 2), (2, 0)];
    for (x, y) in [(a, b), (b, a)] {
        // Edges of x piercing the plane of a non-degenerate y.
        let n = cross(&sub(&y[1], &y[0]), &sub(&y[2], &y[0]));
        if !n.iter().all(Zero::is_zero) {
            for (i, j) in edges {
                let dp = dot(&n, &sub(&x[i], &y[0]));
                let dq = dot(&n, &sub(&x[j], &y[0]));
                if dp != dq {
                    out.push(lerp(&x[i], &x[j], &(dp.clone() / (dp - dq))));
                }
            }
        }
    }
    // Single crossings of an edge of A with an edge of B (coplanar, not
    // parallel).
    for (i, j) in edges {
        for (k, l) in edges {
            let (p, d) = (&a[i], sub(&a[j], &a[i]));
            let (r, e) = (&b[k], sub(&b[l], &b[k]));
            let n = cross(&d, &e);
            let nn = dot(&n, &n);
            if nn.is_zero() || !dot(&n, &sub(r, p)).is_zero() {
                continue;
            }
            let t = dot(&cross(&sub(r, p), &e), &n) / nn;
            out.push(lerp(p, &a[j], &t));
        }
    }
    out
}

/// Do the closed triangles meet off the closed segment `shared` (a point
/// when its ends are equal)?
fn oracle_beyond(a: &[V<Q>; 3], b: &[V<Q>; 3], shared: [&V<Q>; 2]) -> bool {
    candidates(a, b).iter().any(|x| {
        dist2_point_triangle(x, a).is_zero()
            && dist2_point_triangle(x, b).is_zero()
            && !dist2_point_segment(x, shared[0], shared[1]).is_zero()
    })
}

fn point(rng: &mut ChaCha8Rng, g: i64) -> G {
    core::array::from_fn(|_| rng.random_range(-g..=g))
}

/// `p + s (q - p)`, on the grid.
fn along(p: &G, q: &G, s: i64) -> G {
    core::array::from_fn(|k| p[k] + s * (q[k] - p[k]))
}

/// `o + s (p - o) + u (q - o)`, on the grid (coplanar with o, p, q).
fn in_plane(o: &G, p: &G, q: &G, s: i64, u: i64) -> G {
    core::array::from_fn(|k| o[k] + s * (p[k] - o[k]) + u * (q[k] - o[k]))
}

/// Which configuration a case has: the corners (shared ones first: `v`,
/// then `w` for an edge) of both triangles.
enum Case {
    Vertex { v: G, a: [G; 2], b: [G; 2] },
    Edge { v: G, w: G, a: G, b: G },
    All([G; 3]),
}

fn random_case(rng: &mut ChaCha8Rng, g: i64) -> Case {
    let kind: u32 = rng.random_range(0..100);
    if kind < 3 {
        let mut t = [point(rng, g), point(rng, g), point(rng, g)];
        if rng.random_range(0..4) == 0 {
            t[2] = along(&t[0], &t[1], rng.random_range(-2..=2));
        }
        return Case::All(t);
    }
    let (v, p, q) = (point(rng, g), point(rng, g), point(rng, g));
    // A third corner for the neighbour: random, coplanar with the first
    // triangle, collinear with a side of it, or a copy of a corner.
    let other = |rng: &mut ChaCha8Rng, ends: [&G; 3]| -> G {
        let [o, x, y] = ends;
        match rng.random_range(0..10) {
            0..4 => point(rng, g),
            4..7 => in_plane(o, x, y, rng.random_range(-2..=2), rng.random_range(-2..=2)),
            7..9 => along(
                o,
                if rng.random() { x } else { y },
                rng.random_range(-2..=2),
            ),
            _ => *[o, x, y][rng.random_range(0..3)],
        }
    };
    if kind < 50 {
        let mut a = [p, q];
        match rng.random_range(0..10) {
            0 => a[0] = v,
            1 => a[1] = along(&v, &a[0], rng.random_range(-2..=2)),
            _ => {}
        }
        let b = [
            other(rng, [&v, &a[0], &a[1]]),
            other(rng, [&v, &a[0], &a[1]]),
        ];
        Case::Vertex { v, a, b }
    } else {
        let w = if rng.random_range(0..12) == 0 { v } else { p };
        let a = if rng.random_range(0..8) == 0 {
            along(&v, &w, rng.random_range(-2..=2))
        } else {
            q
        };
        let b = other(rng, [&v, &w, &a]);
        Case::Edge { v, w, a, b }
    }
}

/// The case as two index triangles and corner triples, the corners rotated
/// by `ra`, `rb` (so every corner position is exercised).
fn layout(case: &Case, ra: usize, rb: usize) -> ([u32; 3], [G; 3], [u32; 3], [G; 3]) {
    let rot = |ids: [u32; 3], pts: [G; 3], r: usize| {
        (
            core::array::from_fn(|i| ids[(i + r) % 3]),
            core::array::from_fn(|i| pts[(i + r) % 3]),
        )
    };
    let (ia, pa, ib, pb) = match case {
        Case::Vertex { v, a, b } => ([0, 1, 2], [*v, a[0], a[1]], [0, 3, 4], [*v, b[0], b[1]]),
        Case::Edge { v, w, a, b } => ([0, 1, 2], [*v, *w, *a], [1, 0, 3], [*w, *v, *b]),
        Case::All(t) => ([0, 1, 2], *t, [2, 0, 1], [t[2], t[0], t[1]]),
    };
    let (ia, pa) = rot(ia, pa, ra);
    let (ib, pb) = rot(ib, pb, rb);
    (ia, pa, ib, pb)
}

fn shared_ends(case: &Case) -> Option<[G; 2]> {
    match case {
        Case::Vertex { v, .. } => Some([*v, *v]),
        Case::Edge { v, w, .. } => Some([*v, *w]),
        Case::All(_) => None,
    }
}

fn to_f(p: &G, scale: f64, offset: f64) -> [f64; 3] {
    p.map(|x| x as f64 * scale + offset)
}

fn tri<T: clash_math::Scalar>(t: &[[f64; 3]; 3]) -> Triangle<T> {
    let p = |v: [f64; 3]| Point3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]));
    Triangle::new(p(t[0]), p(t[1]), p(t[2]))
}

/// The oracle's answer for a laid-out case in `f64` coordinates.
fn expected(case: &Case, fa: &[[f64; 3]; 3], fb: &[[f64; 3]; 3], scale: f64, offset: f64) -> bool {
    let (qa, qb) = (fa.map(|p| qv(&p)), fb.map(|p| qv(&p)));
    match shared_ends(case) {
        Some([v, w]) => {
            let (v, w) = (qv(&to_f(&v, scale, offset)), qv(&to_f(&w, scale, offset)));
            oracle_beyond(&qa, &qb, [&v, &w])
        }
        // Three shared vertices: one face twice, overlapping iff it has area.
        None => !cross(&sub(&qa[1], &qa[0]), &sub(&qa[2], &qa[0]))
            .iter()
            .all(Zero::is_zero),
    }
}

#[test]
fn neighbours_match_exact_oracle() {
    // 15,000 cases by default (the oracle's rationals dominate the time);
    // `CLASH_NEIGHBOUR_CASES` runs more (see `docs/long_checks.md`).
    let n: u64 = std::env::var("CLASH_NEIGHBOUR_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15_000);
    let chunks = 50u64;
    let (bad, hits): (u64, u64) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(7_000 + c);
            let (mut bad, mut hits) = (0u64, 0u64);
            for i in 0..n / chunks {
                let g = [1, 2, 3, 40][(i % 4) as usize];
                let case = random_case(&mut rng, g);
                let (ia, pa, ib, pb) = layout(&case, rng.random_range(0..3), rng.random_range(0..3));
                let shared = SharedCorners::of_indices(ia, ib).expect("neighbours share an index");
                // Powers of two and offsets keep the grid exact in f64, from
                // the smallest subnormal to near overflow; f32 takes the
                // unscaled, unshifted grid.
                let (scale, offset) = [
                    (1.0, 0.0),
                    (0.125, 0.0),
                    (2f64.powi(-40), 1.0),
                    (1024.0, -3.0e6),
                    (5e-324, 0.0),
                    (f64::from_bits((1023 + 1000) << 52), 0.0),
                ][(i % 6) as usize];
                let fa = pa.map(|p| to_f(&p, scale, offset));
                let fb = pb.map(|p| to_f(&p, scale, offset));
                let want = expected(&case, &fa, &fb, scale, offset);
                let got = triangle_triangle_beyond_shared(&tri::<f64>(&fa), &tri::<f64>(&fb), shared);
                let flipped = SharedCorners::of_indices(ib, ia).unwrap();
                let got_rev = triangle_triangle_beyond_shared(&tri::<f64>(&fb), &tri::<f64>(&fa), flipped);
                let got32 = {
                    let (ga, gb) = (pa.map(|p| to_f(&p, 1.0, 0.0)), pb.map(|p| to_f(&p, 1.0, 0.0)));
                    let want32 = expected(&case, &ga, &gb, 1.0, 0.0);
                    let got32 = triangle_triangle_beyond_shared(&tri::<f32>(&ga), &tri::<f32>(&gb), shared);
                    got32 == want32
                };
                if got != want || got_rev != want || !got32 {
                    if bad < 5 {
                        eprintln!(
                            "disagreement: {ia:?} {fa:?} / {ib:?} {fb:?}: oracle {want}, got {got}, reversed {got_rev}, f32 agrees {got32}"
                        );
                    }
                    bad += 1;
                }
                hits += u64::from(want);
            }
            (bad, hits)
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    assert_eq!(bad, 0, "{bad} disagreements");
    // Both answers are frequent, so neither is tested vacuously.
    assert!(hits > n / 10 && hits < 9 * n / 10, "{hits} of {n} meet");
}
