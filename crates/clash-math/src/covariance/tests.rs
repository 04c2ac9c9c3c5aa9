use super::*;
use rand::{RngExt, SeedableRng};

#[test]
fn points_covariance_matches_definition() {
    let pts = [
        Point3::new(1.0_f64, 0.0, 0.0),
        Point3::new(-1.0, 0.0, 0.0),
        Point3::new(0.0, 2.0, 0.0),
        Point3::new(0.0, -2.0, 0.0),
    ];
    let c = covariance_of_points(&pts).unwrap();
    assert_eq!(c.mean, Point3::origin());
    assert!((c.matrix - Matrix3::from_diagonal(&Vector3::new(0.5, 2.0, 0.0))).norm() < 1e-15);
}

#[test]
fn triangle_covariance_independent_of_subdivision() {
    // One triangle vs the same triangle split in four: identical distributions.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..200 {
        let mut p = || {
            Point3::new(
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
                rng.random_range(-5.0..5.0),
            )
        };
        let (a, b, c) = (p(), p(), p());
        let (ab, bc, ca) = (
            nalgebra::center(&a, &b),
            nalgebra::center(&b, &c),
            nalgebra::center(&c, &a),
        );
        let one = covariance_of_triangles(&[Triangle::new(a, b, c)]).unwrap();
        let four = covariance_of_triangles(&[
            Triangle::new(a, ab, ca),
            Triangle::new(ab, b, bc),
            Triangle::new(ca, bc, c),
            Triangle::new(ab, bc, ca),
        ])
        .unwrap();
        assert!((one.mean - four.mean).norm() < 1e-12);
        assert!((one.matrix - four.matrix).norm() < 1e-10 * (1.0 + one.matrix.norm()));
    }
}

#[test]
fn triangle_covariance_matches_dense_sampling() {
    let t = Triangle::new(
        Point3::new(0.0_f64, 0.0, 0.0),
        Point3::new(4.0, 0.0, 1.0),
        Point3::new(1.0, 3.0, -2.0),
    );
    let exact = covariance_of_triangles(&[t]).unwrap();
    let n = 400;
    let mut pts = Vec::new();
    for i in 0..n {
        for j in 0..n - i {
            // centroids of a regular subdivision: uniform samples
            let (u, v) = (
                (i as f64 + 1.0 / 3.0) / n as f64,
                (j as f64 + 1.0 / 3.0) / n as f64,
            );
            pts.push(t.at_barycentric(u, v));
            if i + j + 1 < n {
                let (u2, v2) = (
                    (i as f64 + 2.0 / 3.0) / n as f64,
                    (j as f64 + 2.0 / 3.0) / n as f64,
                );
                pts.push(t.at_barycentric(u2, v2));
            }
        }
    }
    let sampled = covariance_of_points(&pts).unwrap();
    assert!((exact.mean - sampled.mean).norm() < 1e-9);
    assert!(
        (exact.matrix - sampled.matrix).norm() < 1e-3 * exact.matrix.norm(),
        "{} vs {}",
        exact.matrix,
        sampled.matrix
    );
}

#[test]
fn moments_covariance_matches_triangles() {
    // Independent oracle: the direct corner formula of
    // `covariance_of_triangles`, here on sets far from the origin too.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for round in 0..300 {
        let shift = if round % 3 == 0 { 1e4 } else { 0.0 };
        let n = 1 + round % 17;
        let tris: Vec<Triangle<f64>> = (0..n)
            .map(|_| {
                let mut p = || {
                    Point3::new(
                        shift + rng.random_range(-5.0..5.0),
                        rng.random_range(-5.0..5.0),
                        shift + rng.random_range(-5.0..5.0),
                    )
                };
                Triangle::new(p(), p(), p())
            })
            .collect();
        let moments: Vec<_> = tris.iter().map(TriangleMoments::new).collect();
        let want = covariance_of_triangles(&tris).unwrap();
        let got = covariance_of_moments(&moments).unwrap();
        let scale = 1.0 + want.matrix.norm();
        assert!((want.mean - got.mean).norm() < 1e-9 * (1.0 + shift));
        assert!(
            (want.matrix - got.matrix).norm() < 1e-9 * scale,
            "{} vs {}",
            want.matrix,
            got.matrix
        );
        assert_eq!(got.matrix, got.matrix.transpose());
    }
    assert_eq!(covariance_of_moments::<f64>(&[]), None);
    let flat = Triangle::new(
        Point3::new(0.0_f64, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
    );
    assert_eq!(covariance_of_moments(&[TriangleMoments::new(&flat)]), None);
}

#[test]
fn moment_sums_about_an_origin_match_triangles() {
    // Independent oracle: the direct corner formula of
    // `covariance_of_triangles`. Sets near and far (1e4) from the
    // coordinate origin, summed about an origin near the mesh (as a
    // builder does: the centre of the mesh's bounds), with subsets far
    // smaller than the distance to it.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
    for round in 0..300 {
        let shift = if round % 3 == 0 { 1e4 } else { 0.0 };
        let spread = if round % 2 == 0 { 5.0 } else { 0.05 };
        let n = 1 + round % 17;
        let at = Vector3::new(
            rng.random_range(-50.0..50.0),
            rng.random_range(-50.0..50.0),
            rng.random_range(-50.0..50.0),
        );
        let tris: Vec<Triangle<f64>> = (0..n)
            .map(|_| {
                let mut p = || {
                    Point3::new(
                        shift + at.x + rng.random_range(-spread..spread),
                        at.y + rng.random_range(-spread..spread),
                        shift + at.z + rng.random_range(-spread..spread),
                    )
                };
                Triangle::new(p(), p(), p())
            })
            .collect();
        let origin = Point3::new(shift, 0.0, shift);
        let sum = MomentSum::of(tris.iter().map(|t| TriangleMoments::new(t).about(&origin)));
        let want = covariance_of_triangles(&tris).unwrap();
        let got = sum.covariance().unwrap();
        // Relative error about eps (R / s)^2 with R ~ 90, s ~ spread.
        let scale = want.matrix.norm();
        let tol = 4e-15 * (90.0 / spread) * (90.0 / spread);
        assert!(
            (want.mean - (got.mean + origin.coords)).norm() < 1e-9 * (1.0 + shift),
            "{round}"
        );
        assert!(
            (want.matrix - got.matrix).norm() <= tol * scale,
            "{round}: {} vs {}",
            want.matrix,
            got.matrix
        );
        assert_eq!(got.matrix, got.matrix.transpose());
    }
    assert_eq!(MomentSum::default().covariance(), None);
    let flat = Triangle::new(
        Point3::new(0.0_f64, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
    );
    let m = TriangleMoments::new(&flat).about(&Point3::origin());
    assert_eq!(MomentSum::of([m]).covariance(), None);
    // f32 moments are summed in f64.
    let t32 = Triangle::new(
        Point3::new(0.0_f32, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.5),
        Point3::new(0.0, 2.0, 0.0),
    );
    let t64 = Triangle::new(t32.a.cast(), t32.b.cast(), t32.c.cast());
    let c32 = MomentSum::of([TriangleMoments::new(&t32).about(&Point3::origin())]);
    let c64 = covariance_of_triangles(&[t64]).unwrap();
    assert!((c32.covariance().unwrap().matrix - c64.matrix).norm() < 1e-6);
}

/// Two sums' covariances side by side are each the single one, bit for
/// bit, `None` included (zero, negative, subnormal, infinite and NaN
/// areas, alone or next to an ordinary sum).
#[test]
fn paired_covariances_match_single_ones() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    let mut sums: Vec<MomentSum> = (0..40)
        .map(|_| MomentSum {
            area: rng.random_range(1e-3..1e3),
            first: core::array::from_fn(|_| rng.random_range(-1e3..1e3)),
            second: core::array::from_fn(|_| rng.random_range(-1e6..1e6)),
        })
        .collect();
    let ordinary = sums[0];
    for area in [
        0.0,
        -0.0,
        -1.0,
        1e-310,
        f64::MIN_POSITIVE,
        f64::MAX,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        sums.push(MomentSum { area, ..ordinary });
    }
    sums.push(MomentSum {
        first: [f64::NAN, 1.0, f64::INFINITY],
        ..ordinary
    });
    let bits = |c: Option<Covariance<f64>>| {
        c.map(|c| {
            let mut v: Vec<u64> = c.mean.iter().map(|x| x.to_bits()).collect();
            v.extend(c.matrix.iter().map(|x| x.to_bits()));
            v
        })
    };
    for a in &sums {
        for b in &sums {
            let [ca, cb] = MomentSum::covariance_x2([a, b]);
            assert_eq!(bits(ca), bits(a.covariance()), "{a:?}");
            assert_eq!(bits(cb), bits(b.covariance()), "{b:?}");
        }
    }
}

#[test]
fn errors_and_degenerate_fallback() {
    assert_eq!(covariance_of_points::<f32>(&[]), Err(MathError::Empty));
    assert_eq!(covariance_of_triangles::<f64>(&[]), Err(MathError::Empty));
    assert_eq!(
        covariance_of_points(&[Point3::new(0.0, 0.0, 0.0), Point3::new(f64::NAN, 0.0, 0.0)]),
        Err(MathError::NonFinite { index: 1 })
    );
    let flat = Triangle::new(
        Point3::new(0.0_f64, 0.0, 0.0),
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(2.0, 0.0, 0.0),
    );
    let c = covariance_of_triangles(&[flat]).unwrap();
    assert!(c.matrix[(0, 0)] > 0.0 && c.matrix.iter().all(|x| x.is_finite()));
}

#[test]
fn hull_covariance_ignores_interior_points() {
    let mut cube: Vec<Point3<f64>> = (0..8)
        .map(|i| Point3::new((i & 1) as f64, ((i >> 1) & 1) as f64, ((i >> 2) & 1) as f64))
        .collect();
    let a = covariance_of_hull(&cube).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    for _ in 0..500 {
        cube.push(Point3::new(
            rng.random_range(0.2..0.4),
            rng.random_range(0.1..0.9),
            rng.random_range(0.6..0.9),
        ));
    }
    let b = covariance_of_hull(&cube).unwrap();
    assert!((a.matrix - b.matrix).norm() < 1e-12);
    assert!((a.mean - Point3::new(0.5, 0.5, 0.5)).norm() < 1e-12);
}
