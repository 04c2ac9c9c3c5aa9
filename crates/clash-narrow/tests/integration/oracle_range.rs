//! Exactness over the whole `f64` range: `triangle_triangle` and
//! `triangle_aabb` against the exact oracle on grids scaled to subnormal
//! magnitudes (down to the smallest subnormal, `2^-1074`), across the
//! normal/subnormal boundary and near overflow (`2^900`, `2^1000`), and on unit-scale
//! grids whose zero coordinates are moved a few subnormal steps (points a
//! subnormal distance off a plane, an edge or a box face). Shewchuk's
//! expansions alone decide many of these wrongly, since their products
//! underflow; the predicates fall back to integer arithmetic there.

use crate::oracle;
use crate::oracle_triangle::{I3, grid_tri, to_f, tri_f64};

use clash_bv::Aabb;
use clash_math::Point3;
use clash_narrow::overlap::{triangle_aabb, triangle_triangle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// The smallest subnormal `f64`.
const TINY: f64 = 5e-324;

/// How a grid point becomes `f64` coordinates in one family of cases.
#[derive(Clone, Copy, Debug)]
enum Placement {
    /// Every coordinate times a power of two (exact).
    Scaled(f64),
    /// Unit scale, with each zero coordinate moved by a few multiples of
    /// the smallest subnormal (chosen by the case's random stream).
    SubnormalOffsets,
}

const PLACEMENTS: [Placement; 6] = [
    Placement::Scaled(TINY),
    Placement::Scaled(TINY * 1024.0),
    Placement::Scaled(f64::MIN_POSITIVE / 16.0),
    Placement::Scaled(f64::from_bits((1023 + 900) << 52)),
    Placement::Scaled(f64::from_bits((1023 + 1000) << 52)),
    Placement::SubnormalOffsets,
];

fn place(rng: &mut ChaCha8Rng, p: &I3, how: Placement) -> [f64; 3] {
    match how {
        Placement::Scaled(s) => to_f(p, s),
        Placement::SubnormalOffsets => p.map(|x| {
            if x == 0 {
                rng.random_range(-2i32..=2) as f64 * TINY
            } else {
                x as f64
            }
        }),
    }
}

/// Pairs per placement (`CLASH_RANGE_CASES` runs more).
fn cases() -> u64 {
    std::env::var("CLASH_RANGE_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(4_000)
}

/// Asserts, per placement, no disagreement among the `(disagreements,
/// meeting)` tallies of its 8 chunks of `n / 8` pairs, and both answers
/// frequent (neither is tested vacuously).
fn check_tallies(results: &[(u64, u64)], n: u64) {
    for (k, how) in PLACEMENTS.iter().enumerate() {
        let (bad, hits) = results[k * 8..(k + 1) * 8]
            .iter()
            .fold((0, 0), |s, r| (s.0 + r.0, s.1 + r.1));
        let total = n / 8 * 8;
        assert_eq!(bad, 0, "{how:?}: {bad} of {total} pairs disagree");
        assert!(
            hits > total / 10 && hits < total * 9 / 10,
            "{how:?}: {hits} of {total} meet"
        );
    }
}

#[test]
fn triangle_triangle_is_exact_at_subnormal_and_near_overflow_scales() {
    let n = cases();
    let results: Vec<(u64, u64)> = (0..PLACEMENTS.len() as u64 * 8)
        .into_par_iter()
        .map(|c| {
            let how = PLACEMENTS[(c / 8) as usize];
            let mut rng = ChaCha8Rng::seed_from_u64(9_000 + c);
            let (mut bad, mut hits) = (0u64, 0u64);
            for i in 0..n / 8 {
                let g: i128 = [2, 4, 16][(i % 3) as usize];
                let t1 = grid_tri(&mut rng, g, None);
                let t2 = grid_tri(&mut rng, g, Some(&t1));
                let f1 = t1.map(|p| place(&mut rng, &p, how));
                let f2 = t2.map(|p| place(&mut rng, &p, how));
                let want = oracle::tri_tri_f64(&f1, &f2);
                let got = triangle_triangle(&tri_f64(&f1), &tri_f64(&f2));
                let rev = triangle_triangle(&tri_f64(&f2), &tri_f64(&f1));
                if got != want || rev != want {
                    if bad < 3 {
                        eprintln!(
                            "{how:?}: {f1:?} / {f2:?}: oracle {want}, got {got}, reversed {rev}"
                        );
                    }
                    bad += 1;
                }
                hits += u64::from(want);
            }
            (bad, hits)
        })
        .collect();
    check_tallies(&results, n);
}

#[test]
fn triangle_aabb_is_exact_at_subnormal_and_near_overflow_scales() {
    let n = cases();
    let results: Vec<(u64, u64)> = (0..PLACEMENTS.len() as u64 * 8)
        .into_par_iter()
        .map(|c| {
            let how = PLACEMENTS[(c / 8) as usize];
            let mut rng = ChaCha8Rng::seed_from_u64(9_500 + c);
            let (mut bad, mut hits) = (0u64, 0u64);
            for i in 0..n / 8 {
                let g: i128 = [2, 4, 16][(i % 3) as usize];
                let (mut lo, mut hi) = ([0i128; 3], [0i128; 3]);
                for k in 0..3 {
                    let (a, b) = (rng.random_range(-g..=g), rng.random_range(-g..=g));
                    (lo[k], hi[k]) = (a.min(b), a.max(b));
                }
                let mut t = grid_tri(&mut rng, g, None);
                // Vertices on the box's planes, before the placement moves
                // zeros off them.
                for v in t.iter_mut() {
                    for k in 0..3 {
                        match rng.random_range(0..6) {
                            0 => v[k] = lo[k],
                            1 => v[k] = hi[k],
                            _ => {}
                        }
                    }
                }
                let f = t.map(|p| place(&mut rng, &p, how));
                let (flo, fhi) = (place(&mut rng, &lo, how), place(&mut rng, &hi, how));
                // Moving a zero may invert a flat box: keep it a box.
                let (flo, fhi) = (
                    std::array::from_fn(|k| flo[k].min(fhi[k])),
                    std::array::from_fn(|k| flo[k].max(fhi[k])),
                );
                let want = oracle::tri_box_f64(&f, &flo, &fhi);
                let aabb = Aabb {
                    min: Point3::from(flo),
                    max: Point3::from(fhi),
                };
                let got = triangle_aabb(&tri_f64(&f), &aabb);
                if got != want {
                    if bad < 3 {
                        eprintln!("{how:?}: {f:?} in {flo:?}..{fhi:?}: oracle {want}, got {got}");
                    }
                    bad += 1;
                }
                hits += u64::from(want);
            }
            (bad, hits)
        })
        .collect();
    check_tallies(&results, n);
}
