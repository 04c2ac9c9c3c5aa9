//! k-DOP tests against an exact oracle: the intersection of two k-DOPs with
//! the same directions is the polytope of the pairwise-tightest slabs, and
//! it is non-empty exactly when that polytope has a vertex. The oracle
//! enumerates vertices (plane triples, f64, written independently of the
//! crate's own enumeration). The slab-interval test is conservative, so only
//! the one-sided guarantee is required: never "disjoint" when the oracle finds
//! the (slightly shrunk) intersection non-empty. How often it is conservative
//! (overlap reported, the slightly inflated intersection empty) is printed.
//!
//! Also: a transformed k-DOP (and AABB, RTCD §4.2.6) contains the moved
//! polytope's vertices (the whole moved volume), with its tightness reported.
use crate::common;

use clash_bv::{Aabb, BoundingVolume, Kdop, Kdop14, Kdop18, Kdop26};
use clash_math::{Matrix3, Point3, Scalar, Vector3};
use rand::RngExt;

const PAIRS: usize = 100_000;

/// Vertices of `lo_i <= d_i·x <= hi_i` (all of them when `first_only` is false).
fn polytope_vertices(
    dirs: &[Vector3<f64>],
    lo: &[f64],
    hi: &[f64],
    tol: f64,
    first_only: bool,
) -> Vec<Point3<f64>> {
    let mut planes = Vec::new();
    for i in 0..dirs.len() {
        planes.push((dirs[i], hi[i]));
        planes.push((-dirs[i], -lo[i]));
    }
    let mut out = Vec::new();
    if (0..dirs.len()).any(|i| lo[i] > hi[i]) {
        return out;
    }
    for a in 0..planes.len() {
        for b in a + 1..planes.len() {
            for c in b + 1..planes.len() {
                let m = Matrix3::from_rows(&[
                    planes[a].0.transpose(),
                    planes[b].0.transpose(),
                    planes[c].0.transpose(),
                ]);
                if let Some(inv) = m.try_inverse() {
                    if m.determinant().abs() < 1e-9 {
                        continue;
                    }
                    let x = Point3::from(inv * Vector3::new(planes[a].1, planes[b].1, planes[c].1));
                    if planes.iter().all(|(n, d)| n.dot(&x.coords) <= d + tol) {
                        out.push(x);
                        if first_only {
                            return out;
                        }
                    }
                }
            }
        }
    }
    out
}

fn dirs<const N: usize>() -> Vec<Vector3<f64>> {
    Kdop::<f64, N>::directions().to_vec()
}

fn overlap_oracle<T: Scalar, const N: usize>(name: &str, seed: u64) {
    let d = dirs::<N>();
    let mut r = common::rng(seed);
    let (
        mut overlapping,
        mut false_negative,
        mut conservative,
        mut disjoint,
        mut ambiguous,
        mut lb_violations,
    ) = (0, 0, 0, 0, 0, 0);
    for i in 0..PAIRS {
        let case = i % 3;
        let c = Vector3::new(
            r.random_range(-20.0..20.0),
            r.random_range(-20.0..20.0),
            r.random_range(-20.0..20.0),
        );
        let cloud = |r: &mut rand_chacha::ChaCha8Rng, o: Vector3<f64>, s: f64| -> Vec<Point3<T>> {
            (0..6)
                .map(|_| {
                    common::pt(&Point3::from(
                        o + Vector3::new(
                            r.random_range(-s..s),
                            r.random_range(-s..s),
                            r.random_range(-s..s),
                        ),
                    ))
                })
                .collect()
        };
        let spread = if case == 0 { 0.2 } else { 2.0 };
        let off = Vector3::new(
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0),
        ) * if case == 2 { 1.0 } else { 0.5 };
        let a = Kdop::<T, N>::from_points(&cloud(&mut r, c, 2.0)).unwrap();
        let b = Kdop::<T, N>::from_points(&cloud(&mut r, c + off, spread)).unwrap();
        let lo: Vec<f64> = (0..N).map(|k| a.min[k].max_of(b.min[k]).to_f64()).collect();
        let hi: Vec<f64> = (0..N).map(|k| a.max[k].min_of(b.max[k]).to_f64()).collect();
        let tol = 1e-6 * (1.0 + c.abs().max());
        let shrunk_lo: Vec<f64> = lo.iter().map(|x| x + tol).collect();
        let shrunk_hi: Vec<f64> = hi.iter().map(|x| x - tol).collect();
        let ours = a.overlaps(&b);
        let lb = a.distance_lower_bound(&b).unwrap().to_f64();
        if !polytope_vertices(&d, &shrunk_lo, &shrunk_hi, 0.0, true).is_empty() {
            overlapping += 1;
            if !ours {
                false_negative += 1;
            }
            if lb > 0.0 {
                lb_violations += 1;
            }
        } else if polytope_vertices(&d, &lo, &hi, tol, true).is_empty() {
            disjoint += 1;
            if ours {
                conservative += 1;
            }
        } else {
            ambiguous += 1;
        }
    }
    println!(
        "{name} {}: pairs {PAIRS}, overlapping {overlapping}, disjoint {disjoint}, ambiguous {ambiguous}, false negatives {false_negative}, \
         conservative (overlap reported for disjoint) {conservative} = {:.2}% of disjoint, distance bound > 0 while overlapping {lb_violations}",
        T::NAME,
        100.0 * conservative as f64 / disjoint.max(1) as f64
    );
    assert_eq!(false_negative, 0);
    assert_eq!(lb_violations, 0);
    assert!(overlapping > PAIRS / 10 && disjoint > PAIRS / 10);
}

#[test]
fn kdop14_overlap_oracle() {
    overlap_oracle::<f64, 7>("kdop14", 1);
    overlap_oracle::<f32, 7>("kdop14", 1);
}

#[test]
fn kdop18_overlap_oracle() {
    overlap_oracle::<f64, 9>("kdop18", 2);
    overlap_oracle::<f32, 9>("kdop18", 2);
}

#[test]
fn kdop26_overlap_oracle() {
    overlap_oracle::<f64, 13>("kdop26", 3);
    overlap_oracle::<f32, 13>("kdop26", 3);
}

/// A transformed k-DOP contains the moved polytope (all its vertices); the
/// ratio of its volume to the exact k-DOP of the moved vertices is reported.
fn transform_contains_volume<T: Scalar, const N: usize>(name: &str, seed: u64) {
    let d = dirs::<N>();
    let mut r = common::rng(seed);
    let mut ratio_sum = 0.0;
    let n = 2000;
    for _ in 0..n {
        let pts: Vec<Point3<T>> = common::cloud(0, 10, r.random_range(0..u64::MAX))
            .iter()
            .map(common::pt)
            .collect();
        let k = Kdop::<T, N>::from_points(&pts).unwrap();
        let lo: Vec<f64> = k.min.iter().map(|x| x.to_f64()).collect();
        let hi: Vec<f64> = k.max.iter().map(|x| x.to_f64()).collect();
        let verts = polytope_vertices(&d, &lo, &hi, 1e-9 * 50.0, false);
        assert!(!verts.is_empty());
        let m = common::isometry(&mut r, 100.0);
        let mt = common::iso::<T>(&m);
        let moved_k = k.transformed(&mt);
        let moved: Vec<Point3<f64>> = verts.iter().map(|v| m * v).collect();
        let tol = if T::NAME == "f32" {
            1e-4 * 200.0
        } else {
            1e-9 * 200.0
        };
        for v in &moved {
            for (i, di) in d.iter().enumerate() {
                let x = di.dot(&v.coords);
                assert!(
                    moved_k.min[i].to_f64() - tol <= x && x <= moved_k.max[i].to_f64() + tol,
                    "{name}: moved vertex outside slab {i}"
                );
            }
        }
        let exact =
            Kdop::<T, N>::from_points(&moved.iter().map(common::pt).collect::<Vec<_>>()).unwrap();
        ratio_sum += moved_k.volume().to_f64() / exact.volume().to_f64().max(1e-300);
    }
    println!(
        "{name} {} transformed: mean volume ratio to the exact k-DOP of the moved polytope {:.4}",
        T::NAME,
        ratio_sum / n as f64
    );
}

#[test]
fn kdop_transform_contains_moved_volume() {
    transform_contains_volume::<f64, 7>("kdop14", 4);
    transform_contains_volume::<f32, 7>("kdop14", 4);
    transform_contains_volume::<f64, 13>("kdop26", 5);
    transform_contains_volume::<f32, 13>("kdop26", 5);
}

/// RTCD §4.2.6: the transformed AABB contains the moved box's corners; its
/// volume ratio to the AABB of the moved corners (exact) is reported.
#[test]
fn aabb_transform_contains_moved_box() {
    fn check<T: Scalar>() {
        let mut r = common::rng(6);
        let mut ratio = 0.0;
        let n = 20_000;
        for _ in 0..n {
            let c = Point3::new(
                r.random_range(-50.0..50.0),
                r.random_range(-50.0..50.0),
                r.random_range(-50.0..50.0),
            );
            let h = Vector3::new(
                r.random_range(0.0..3.0),
                r.random_range(0.0..3.0),
                r.random_range(0.0..3.0),
            );
            let b = Aabb::<T>::from_center_half_extents(common::pt(&c), h.cast());
            let m = common::iso::<T>(&common::isometry(&mut r, 100.0));
            let t = b.transformed(&m);
            let corners: Vec<Point3<T>> = b.corners().iter().map(|p| m * p).collect();
            assert!(corners.iter().all(|p| t.contains_point(p)));
            let exact = Aabb::from_points(&corners).unwrap();
            ratio += t.volume().to_f64() / exact.volume().to_f64().max(1e-300);
        }
        println!(
            "aabb {} transformed: mean volume ratio to exact AABB of moved corners {:.6}",
            T::NAME,
            ratio / n as f64
        );
    }
    check::<f32>();
    check::<f64>();
}

/// The tight k-DOP of a cloud and its exact measures: a cube's 26-DOP is the cube.
#[test]
fn kdop_measures_of_a_cube() {
    let cube: Vec<Point3<f64>> = (0..8)
        .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
        .collect();
    let k = Kdop26::from_points(&cube).unwrap();
    assert!((k.volume() - 1.0).abs() < 1e-9);
    assert!((k.surface_area() - 6.0).abs() < 1e-9);
    let k14 = Kdop14::from_points(&cube).unwrap();
    assert!((k14.volume() - 1.0).abs() < 1e-9);
    // A tetrahedron's 18-DOP is smaller than its AABB.
    let tet = [
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(0.0, 1.0, 0.0),
        Point3::new(0.0, 0.0, 1.0),
    ];
    let k18 = Kdop18::from_points(&tet).unwrap();
    assert!(
        k18.volume() < Aabb::from_points(&tet).unwrap().volume()
            && k18.volume() >= 1.0 / 6.0 - 1e-9
    );
}
