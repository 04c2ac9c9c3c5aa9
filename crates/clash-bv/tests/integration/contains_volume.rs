//! `contains_volume` and `contains_points`, against independent oracles.
//!
//! - `contains_volume(inner)` is sound: whenever it says `true`, every point
//!   of `inner` an oracle can name lies in the outer volume by
//!   `contains_point`: the inner volume's extreme points (box corners,
//!   points of its rounded surfaces), the points it was fitted to, and
//!   random points of its axis-aligned box that it contains. And it is
//!   useful: it says `true` for most volumes fitted to points pulled well
//!   inside the outer one's input (clouds with some thickness), and for
//!   AABBs and k-DOPs it is exact (interval containment on each slab).
//! - `contains_points` gives `contains_point`'s answer on every point, for
//!   points on, just inside and just outside the boundary.
//!
//! Volumes are fitted to the clouds of `common` (general, far from the
//! origin, collinear, coplanar, duplicated, single-point, tiny), in f32 and
//! f64.
use crate::common;

use clash_bv::{
    Aabb, BoundingVolume, Capsule, FitVolume, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere,
};
use clash_math::{Point3, Scalar};
use common::{SamplePoints, cloud, pt, rng};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Random points of `b`'s axis-aligned box that `b` contains.
fn inside_points<T: Scalar, B: BoundingVolume<T>>(b: &B, r: &mut ChaCha8Rng) -> Vec<Point3<T>> {
    let a = b.aabb();
    (0..64)
        .map(|_| {
            Point3::from(clash_math::Vector3::from_fn(|k, _| {
                let t = T::lit(r.random_range(0.0..=1.0));
                a.min[k] + (a.max[k] - a.min[k]) * t
            }))
        })
        .filter(|p| b.contains_point(p))
        .collect()
}

/// Checks soundness on many outer/inner pairs of type `B`; returns the
/// least rate, over the cloud kinds with volumes of some thickness, at
/// which the inner volume, fitted to points pulled toward their centroid by
/// a factor of at most 0.5, was found inside.
fn check_sound<T: Scalar, B: FitVolume<T> + SamplePoints<T>>(name: &str) -> f64 {
    let mut r = rng(81);
    let (mut pulled, mut found) = ([0; 7], [0; 7]);
    for case in 0..1400u64 {
        let points: Vec<Point3<T>> = cloud((case % 7) as u8, 40, case).iter().map(pt).collect();
        let outer = B::fit_points(&points).unwrap();
        // A subset pulled toward its centroid (factor below 1: inside the
        // outer input's hull) or pushed away (factor above 1: maybe not).
        let factor = [0.2, 0.5, 0.9, 1.0, 1.3][case as usize % 5];
        let subset: Vec<Point3<T>> = points
            .iter()
            .filter(|_| r.random_bool(0.4))
            .copied()
            .collect();
        let subset = if subset.is_empty() {
            vec![points[0]]
        } else {
            subset
        };
        let c = subset.iter().fold(Point3::origin(), |s, p| {
            s + p.coords / T::lit(subset.len() as f64)
        });
        let mut inner_points: Vec<Point3<T>> = subset
            .iter()
            .map(|p| c + (p - c) * T::lit(factor))
            .collect();
        if case % 7 == 3 {
            // One point well outside the outer volume.
            let a = outer.aabb();
            inner_points.push(a.max + (a.max - a.min) + clash_math::Vector3::repeat(T::ONE));
        }
        let inner = B::fit_points(&inner_points).unwrap();
        let says = outer.contains_volume(&inner);
        if factor <= 0.5 {
            pulled[case as usize % 7] += 1;
            found[case as usize % 7] += usize::from(says);
        }
        if says {
            let mut oracle = inner.sample(&mut r);
            oracle.extend(&inner_points);
            oracle.extend(inside_points(&inner, &mut r));
            for q in &oracle {
                assert!(
                    outer.contains_point(q),
                    "{name} ({}), case {case}: {q:?} of {inner:?} is outside {outer:?}",
                    T::NAME
                );
            }
        }
    }
    let rate: Vec<f64> = (0..7).map(|k| found[k] as f64 / pulled[k] as f64).collect();
    println!(
        "{name} ({}), found inside by cloud kind: {rate:.2?}",
        T::NAME
    );
    // The general, far-from-origin, duplicated and tiny clouds; collinear
    // and single-point clouds fit volumes flat in some direction, thinner
    // than the rounding margin, and kind 3 got a point outside.
    [0, 1, 4, 6]
        .map(|k| rate[k])
        .into_iter()
        .fold(1.0, f64::min)
}

#[test]
fn contains_volume_is_sound_and_finds_pulled_in_volumes() {
    fn all<T: Scalar>() {
        // Measured: at least 0.75 for every type (OBB and RSS on the thin
        // far-from-origin clouds in f32), 0.9 to 1 otherwise.
        let found = [
            ("aabb", check_sound::<T, Aabb<T>>("aabb")),
            ("obb", check_sound::<T, Obb<T>>("obb")),
            ("rss", check_sound::<T, Rss<T>>("rss")),
            ("sphere", check_sound::<T, Sphere<T>>("sphere")),
            ("capsule", check_sound::<T, Capsule<T>>("capsule")),
            ("kdop14", check_sound::<T, Kdop14<T>>("kdop14")),
            ("kdop18", check_sound::<T, Kdop18<T>>("kdop18")),
            ("kdop26", check_sound::<T, Kdop26<T>>("kdop26")),
        ];
        for (name, f) in found {
            assert!(f >= 0.7, "{name} ({}): only {f} found inside", T::NAME);
        }
    }
    all::<f32>();
    all::<f64>();
}

/// AABBs and k-DOPs: exactly interval containment on every slab, whatever
/// the two volumes (so a tree of them checks each corner once, at its leaf).
#[test]
fn box_and_kdop_containment_is_exact() {
    let mut r = rng(82);
    for case in 0..2000u64 {
        let a: Vec<Point3<f64>> = cloud(case as u8, 12, case).iter().map(pt).collect();
        let b: Vec<Point3<f64>> = a
            .iter()
            .map(|p| p + clash_math::Vector3::repeat(r.random_range(-1.0..1.0)) * 1e-3)
            .take(1 + case as usize % 12)
            .collect();
        let (x, y) = (
            Aabb::<f64>::fit_points(&a).unwrap(),
            Aabb::fit_points(&b).unwrap(),
        );
        let corners_in = y.corners().iter().all(|p| x.contains_point(p));
        assert_eq!(x.contains_volume(&y), corners_in, "case {case}");
        let (x, y) = (
            Kdop18::<f64>::fit_points(&a).unwrap(),
            Kdop18::fit_points(&b).unwrap(),
        );
        let slabs_in = (0..9).all(|i| x.min[i] <= y.min[i] && y.max[i] <= x.max[i]);
        assert_eq!(x.contains_volume(&y), slabs_in, "case {case}");
    }
}

/// Points on, just inside and just outside `b`'s boundary: its input
/// points (extents meet them), the centre, and those points moved away
/// from or toward the centre by a relative 1e-16 to 1e-6.
fn boundary_points<T: Scalar, B: BoundingVolume<T>>(
    b: &B,
    input: &[Point3<T>],
    r: &mut ChaCha8Rng,
) -> Vec<Point3<T>> {
    let c = b.center();
    let mut v = vec![c];
    for p in input {
        v.push(*p);
        let s = [1e-16, 1e-12, 1e-8, 1e-6, 1e-3, 0.5, 2.0][r.random_range(0..7)];
        let f = if r.random_bool(0.5) { 1.0 + s } else { 1.0 - s };
        v.push(c + (p - c) * T::lit(f));
    }
    v
}

fn check_contains_points<T: Scalar, B: FitVolume<T>>(name: &str) {
    let mut r = rng(83);
    let (mut yes, mut no) = (0, 0);
    for case in 0..1400u64 {
        let points: Vec<Point3<T>> = cloud(case as u8, 30, case).iter().map(pt).collect();
        let b = B::fit_points(&points).unwrap();
        let candidates = boundary_points(&b, &points, &mut r);
        for _ in 0..20 {
            let n = r.random_range(0..=8);
            let pick: Vec<Point3<T>> = (0..n)
                .map(|_| candidates[r.random_range(0..candidates.len())])
                .collect();
            let one_by_one = pick.iter().all(|p| b.contains_point(p));
            assert_eq!(
                b.contains_points(&pick),
                one_by_one,
                "{name} ({}), case {case}: {pick:?} in {b:?}",
                T::NAME
            );
            if one_by_one {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    // Both answers occur often.
    assert!(yes > 2000 && no > 2000, "{name}: {yes} inside, {no} not");
}

#[test]
fn contains_points_answers_as_contains_point() {
    check_contains_points::<f64, Obb<f64>>("obb");
    check_contains_points::<f32, Obb<f32>>("obb");
    check_contains_points::<f64, Rss<f64>>("rss");
    check_contains_points::<f32, Rss<f32>>("rss");
    check_contains_points::<f64, Aabb<f64>>("aabb");
    check_contains_points::<f64, Capsule<f64>>("capsule");
}
