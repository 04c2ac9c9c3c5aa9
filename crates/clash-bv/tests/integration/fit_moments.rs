//! The continuous-PCA fits from precomputed triangle moments
//! (`Obb::fit_pca_moments`, `Rss::fit_pca_moments`, the trees' node fits)
//! against the fits that compute the covariance from the corners: the same
//! volumes up to rounding in the axes, every corner contained exactly (no
//! tolerance), and the same errors.
use clash_bv::{Aabb, BoundingVolume, FitError, FitVolume, Obb, Rss};
use clash_math::{Point3, Triangle, TriangleMoments, Vector3};
use rand::{RngExt, SeedableRng};

fn moments(tris: &[Triangle<f64>]) -> Vec<TriangleMoments<f64>> {
    tris.iter().map(TriangleMoments::new).collect()
}

/// `n` random triangles in an anisotropic cloud (spreads 3 : 2 : 1 along a
/// random frame, so the principal axes are well defined) about `shift`.
fn cloud(rng: &mut rand_chacha::ChaCha8Rng, n: usize, shift: f64) -> Vec<Triangle<f64>> {
    let frame = clash_math::UnitQuaternion::from_scaled_axis(Vector3::new(
        rng.random_range(-2.0..2.0),
        rng.random_range(-2.0..2.0),
        rng.random_range(-2.0..2.0),
    ));
    let mut p = || {
        let local = Vector3::new(
            rng.random_range(-3.0..3.0),
            rng.random_range(-2.0..2.0),
            rng.random_range(-1.0..1.0),
        );
        Point3::from(frame * local) + Vector3::repeat(shift)
    };
    (0..n).map(|_| Triangle::new(p(), p(), p())).collect()
}

fn assert_contains_exactly<B: BoundingVolume<f64>>(b: &B, tris: &[Triangle<f64>]) {
    for t in tris {
        for v in t.vertices() {
            assert!(b.contains_point(&v), "{v:?} outside {b:?}");
        }
    }
}

#[test]
fn moment_fits_match_corner_fits_and_contain_exactly() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for round in 0..300 {
        let shift = [0.0, 1e3, -1e6][round % 3];
        let n = 2 + round % 40;
        let tris = cloud(&mut rng, n, shift);
        let m = moments(&tris);
        let (got, want) = (
            Obb::fit_pca_moments(&tris, &m).unwrap(),
            Obb::fit_pca_triangles(&tris).unwrap(),
        );
        assert_contains_exactly(&got, &tris);
        let scale = 1.0 + want.half_extents.norm();
        assert!(
            (got.half_extents - want.half_extents).norm() < 1e-6 * scale,
            "{got:?} vs {want:?}"
        );
        assert!((got.center - want.center).norm() < 1e-6 * scale);
        for k in 0..3 {
            let dot = got.axes.column(k).dot(&want.axes.column(k)).abs();
            assert!(dot > 1.0 - 1e-8, "axis {k}: {got:?} vs {want:?}");
        }
        let (got, want) = (
            Rss::fit_pca_moments(&tris, &m).unwrap(),
            Rss::fit_pca_triangles(&tris).unwrap(),
        );
        assert_contains_exactly(&got, &tris);
        // The RSS's pulled-in sides (`u ∓ sqrt(r² - z²)`) turn an axis
        // difference δ (here up to ~1e-10 at 1e6 from the origin, where the
        // stored centroids round) into about sqrt(δ): compare loosely.
        assert!(
            (got.volume() - want.volume()).abs() < 1e-4 * want.volume().max(1.0),
            "round {round}: {} vs {}: {got:?} vs {want:?}",
            got.volume(),
            want.volume()
        );
        // The trait's entry point is the same fit.
        assert_eq!(
            <Obb<f64> as FitVolume<f64>>::fit_triangles_with_moments(&tris, &m).unwrap(),
            Obb::fit_pca_moments(&tris, &m).unwrap()
        );
        assert_eq!(
            <Rss<f64> as FitVolume<f64>>::fit_triangles_with_moments(&tris, &m).unwrap(),
            got
        );
        // The default implementation ignores the moments.
        assert_eq!(
            Aabb::fit_triangles_with_moments(&tris, &m).unwrap(),
            Aabb::fit_triangles(&tris).unwrap()
        );
    }
}

#[test]
fn lone_and_degenerate_triangles_take_the_corner_fit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(12);
    for _ in 0..100 {
        let one = cloud(&mut rng, 1, 0.0);
        let m = moments(&one);
        assert_eq!(
            Obb::fit_pca_moments(&one, &m).unwrap(),
            Obb::fit_pca_triangles(&one).unwrap()
        );
        assert_eq!(
            Rss::fit_pca_moments(&one, &m).unwrap(),
            Rss::fit_pca_triangles(&one).unwrap()
        );
    }
    // Zero total area: collinear and point triangles (the corner fit falls
    // back to the corners' point covariance).
    let p = |x: f64, y: f64| Point3::new(x, y, 0.5 * x);
    for tris in [
        vec![Triangle::new(p(0.0, 0.0), p(1.0, 1.0), p(2.0, 2.0))],
        vec![
            Triangle::new(p(0.0, 0.0), p(1.0, 1.0), p(3.0, 3.0)),
            Triangle::new(p(5.0, 5.0), p(5.0, 5.0), p(5.0, 5.0)),
        ],
    ] {
        let m = moments(&tris);
        let got = Obb::fit_pca_moments(&tris, &m).unwrap();
        assert_eq!(got, Obb::fit_pca_triangles(&tris).unwrap());
        assert_contains_exactly(&got, &tris);
        let got = Rss::fit_pca_moments(&tris, &m).unwrap();
        assert_eq!(got, Rss::fit_pca_triangles(&tris).unwrap());
        assert_contains_exactly(&got, &tris);
    }
}

#[test]
fn non_finite_and_empty_input_are_errors() {
    assert_eq!(Obb::<f64>::fit_pca_moments(&[], &[]), Err(FitError::Empty));
    assert_eq!(Rss::<f32>::fit_pca_moments(&[], &[]), Err(FitError::Empty));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        for at in [0, 3, 6] {
            let mut tris = cloud(&mut rng, 7, 0.0);
            tris[at].b.y = bad;
            let m = moments(&tris);
            let err = FitError::NonFinite { index: at };
            assert_eq!(Obb::fit_pca_moments(&tris, &m), Err(err));
            assert_eq!(Rss::fit_pca_moments(&tris, &m), Err(err));
            assert_eq!(
                Obb::fit_pca_moments(&tris[at..=at], &m[at..=at]),
                Err(FitError::NonFinite { index: 0 })
            );
        }
    }
}

/// One moment per triangle, or a typed error (never a panic), for every
/// volume type's moment fit.
#[test]
fn mismatched_lengths_are_an_error() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let tris = cloud(&mut rng, 4, 0.0);
    let m = moments(&tris[..3]);
    let err = FitError::MomentsMismatch {
        triangles: 4,
        moments: 3,
    };
    assert_eq!(Obb::fit_pca_moments(&tris, &m), Err(err));
    assert_eq!(Rss::fit_pca_moments(&tris, &m), Err(err));
    assert_eq!(
        <Obb<f64> as FitVolume<f64>>::fit_triangles_with_moments(&tris, &m),
        Err(err)
    );
    assert_eq!(
        <Aabb<f64> as FitVolume<f64>>::fit_triangles_with_moments(&tris, &m),
        Err(err)
    );
    assert_eq!(
        Obb::fit_pca_moments(&tris[..0], &m[..0]),
        Err(FitError::Empty)
    );
}
