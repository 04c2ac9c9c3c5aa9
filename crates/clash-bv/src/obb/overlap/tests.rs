use super::{sat_overlap, sat_separation};
use clash_math::{Matrix3, Rotation3, Vector3};
use rand::{RngExt, SeedableRng};

/// The written-out [`sat_overlap`] decides exactly as the loop form in
/// [`sat_separation`] (the reference): random boxes placed near the
/// touching distance, flat and zero-extent boxes, axis-aligned and
/// near-parallel rotations, in f32 and f64.
#[test]
fn unrolled_overlap_equals_the_loop_form() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let (mut overlaps, mut separated) = (0, 0);
    for case in 0..200_000 {
        let extent = |rng: &mut rand_chacha::ChaCha8Rng| match rng.random_range(0..8) {
            0 => 0.0,
            1 => 1e-9,
            _ => rng.random_range(0.0..2.0),
        };
        let a = Vector3::new(extent(&mut rng), extent(&mut rng), extent(&mut rng));
        let b = Vector3::new(extent(&mut rng), extent(&mut rng), extent(&mut rng));
        let r: Matrix3<f64> = match case % 4 {
            // Exactly axis-aligned, and a tiny tilt off it.
            0 => Matrix3::identity(),
            1 => *Rotation3::new(Vector3::new(1e-9, -2e-9, 1e-8)).matrix(),
            _ => {
                let axis = Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                *Rotation3::new(axis * rng.random_range(0.0..3.2)).matrix()
            }
        };
        // Centre at a random direction, scaled around the touching range.
        let dir = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        );
        let t = dir * rng.random_range(0.0..4.0);
        let coords = [0.0, 1.5, 3e3][case % 3];
        let reference = sat_separation(&a, &b, &r, &t, coords, false) <= 0.0;
        assert_eq!(
            sat_overlap(&a, &b, &r, &t, coords),
            reference,
            "{a:?} {b:?} {r:?} {t:?}"
        );
        let (a32, b32, r32, t32) = (
            a.cast::<f32>(),
            b.cast::<f32>(),
            r.cast::<f32>(),
            t.cast::<f32>(),
        );
        let c32 = coords as f32;
        let reference32 = sat_separation(&a32, &b32, &r32, &t32, c32, false) <= 0.0;
        assert_eq!(sat_overlap(&a32, &b32, &r32, &t32, c32), reference32);
        if reference {
            overlaps += 1;
        } else {
            separated += 1;
        }
    }
    // Both outcomes are well represented.
    assert!(
        overlaps > 40_000 && separated > 40_000,
        "{overlaps} {separated}"
    );
}

/// The two-lane test, and the two-by-two test, answer each pair exactly
/// as the one-pair test (`BoundingVolume::overlaps_relative`), in f64 (SSE2 lanes) and f32,
/// on random boxes near the touching distance, flat and zero-extent
/// boxes and exact and near-identity rotations, with lanes that differ;
/// and its placed rotation and centre are within a few ulps of
/// nalgebra's products (an independent evaluation order).
#[test]
fn two_lanes_and_two_by_two_equal_the_one_pair_test() {
    use crate::{BoundingVolume, Obb, RelativePose};
    use clash_math::{Point3, Scalar};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(31);
    let rot = |rng: &mut rand_chacha::ChaCha8Rng, case: usize| -> Matrix3<f64> {
        match case % 5 {
            0 => Matrix3::identity(),
            1 => *Rotation3::new(Vector3::new(1e-9, -2e-9, 1e-8)).matrix(),
            2 => *Rotation3::new(Vector3::new(0.0, 0.0, core::f64::consts::FRAC_PI_2)).matrix(),
            _ => {
                let axis = Vector3::new(
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                    rng.random_range(-1.0..1.0),
                );
                *Rotation3::new(axis * rng.random_range(0.0..3.2)).matrix()
            }
        }
    };
    let v = |rng: &mut rand_chacha::ChaCha8Rng, s: f64| {
        Vector3::new(
            rng.random_range(-s..s),
            rng.random_range(-s..s),
            rng.random_range(-s..s),
        )
    };
    fn check<T: Scalar>(a: [&Obb<T>; 2], b: [&Obb<T>; 2], pose: &RelativePose<T>) -> [bool; 2] {
        let lanes = Obb::overlaps_relative_x2(a, b, pose);
        let one = [
            a[0].overlaps_relative(b[0], pose),
            a[1].overlaps_relative(b[1], pose),
        ];
        assert_eq!(lanes, one, "{a:?} {b:?} {pose:?}");
        // The four cross pairs, with `b` placed once (in four lanes for
        // f32, and for f64 on a CPU with AVX: this asserts that the
        // four-lane path is the one taken there).
        let four = Obb::overlaps_relative_2x2(a, b, pose);
        #[cfg(target_arch = "x86_64")]
        if T::NAME == "f32" || std::is_x86_feature_detected!("avx") {
            assert_eq!(super::quad_2x2(a, b, pose), Some(four));
        }
        for (i, row) in four.iter().enumerate() {
            for (j, &hit) in row.iter().enumerate() {
                assert_eq!(hit, a[i].overlaps_relative(b[j], pose), "[{i}][{j}]");
            }
        }
        lanes
    }
    let (mut mixed, mut worst) = (0, 0.0f64);
    for case in 0..100_000 {
        let obb = |rng: &mut rand_chacha::ChaCha8Rng| {
            let e = |rng: &mut rand_chacha::ChaCha8Rng| match rng.random_range(0..8) {
                0 => 0.0,
                1 => 1e-9,
                _ => rng.random_range(0.0..2.0),
            };
            let k = case + rng.random_range(0..5);
            Obb {
                center: Point3::from(v(rng, 3.0)),
                axes: rot(rng, k),
                half_extents: Vector3::new(e(rng), e(rng), e(rng)),
            }
        };
        let (a0, a1, b0, b1) = (obb(&mut rng), obb(&mut rng), obb(&mut rng), obb(&mut rng));
        let pose = RelativePose::from_matrix(rot(&mut rng, case), v(&mut rng, 2.0));
        let got = check([&a0, &a1], [&b0, &b1], &pose);
        mixed += usize::from(got[0] != got[1]);
        let c = |o: &Obb<f64>| Obb {
            center: o.center.cast::<f32>(),
            axes: o.axes.cast::<f32>(),
            half_extents: o.half_extents.cast::<f32>(),
        };
        let pose32 =
            RelativePose::from_matrix(pose.rotation.cast::<f32>(), pose.translation.cast::<f32>());
        check([&c(&a0), &c(&a1)], [&c(&b0), &c(&b1)], &pose32);
        // The placed frame against nalgebra's products.
        let m = |x: &Matrix3<f64>| -> [[f64; 3]; 3] {
            core::array::from_fn(|i| core::array::from_fn(|j| x[(i, j)]))
        };
        let p = |x: &Vector3<f64>| [x.x, x.y, x.z];
        let (r, t) = super::relative_lanes::<f64, f64>(
            m(&a0.axes),
            p(&a0.center.coords),
            m(&b0.axes),
            p(&b0.center.coords),
            &pose,
        );
        let r_ref = a0.axes.tr_mul(&(pose.rotation * b0.axes));
        let t_ref = a0
            .axes
            .tr_mul(&(pose.rotation * b0.center.coords + pose.translation - a0.center.coords));
        for i in 0..3 {
            for j in 0..3 {
                worst = worst.max((r[i][j] - r_ref[(i, j)]).abs());
            }
            worst = worst.max((t[i] - t_ref[i]).abs() / 16.0);
        }
    }
    assert!(mixed > 5_000, "lanes that differ: {mixed}");
    assert!(
        worst < 64.0 * f64::EPSILON,
        "largest difference from nalgebra: {worst:e}"
    );
}
