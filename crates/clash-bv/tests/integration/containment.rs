//! Property tests: every fit contains its input; a merge contains both
//! inputs; a transformed volume contains the transformed input. In f32 and
//! f64, over general, far-from-origin, collinear, coplanar, duplicated,
//! single-point and tiny point sets.
//!
//! Tolerance: a point counts as contained when it lies in the volume grown by
//! `rel * (diameter + largest coordinate)`, `rel` = 1e-5 for f32, 1e-12 for f64.
use crate::common;

use clash_bv::{
    Aabb, BoundingVolume, Capsule, FitError, FitVolume, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere,
};
use clash_math::{Point3, Scalar, Triangle, TriangleMoments};
use common::{Inflate, SamplePoints};
use proptest::prelude::*;

type Fit<T, B> = fn(&[Point3<T>]) -> Result<B, FitError>;
type TriFit<T, B> = fn(&[Triangle<T>]) -> Result<B, FitError>;

fn assert_contains<T: Scalar, B: BoundingVolume<T> + Inflate<T>>(
    name: &str,
    b: &B,
    pts: &[Point3<T>],
    tol: T,
) {
    let fat = b.inflated(tol);
    for (i, p) in pts.iter().enumerate() {
        assert!(
            fat.contains_point(p),
            "{name} ({}) misses point {i} {p:?}: {b:?}",
            T::NAME
        );
    }
    assert!(
        b.volume().finite() && b.surface_area().finite(),
        "{name}: non-finite measure {b:?}"
    );
    let a = b.aabb();
    let o = b.bounding_obb();
    for p in pts {
        assert!(
            a.inflated(tol).contains_point(p),
            "{name}: aabb() misses a point"
        );
        assert!(
            o.inflated(tol).contains_point(p),
            "{name}: bounding_obb() misses a point"
        );
    }
}

fn moments<T: Scalar>(tris: &[Triangle<T>]) -> Vec<TriangleMoments<T>> {
    tris.iter().map(TriangleMoments::new).collect()
}

fn check_all<T: Scalar>(raw: &[Point3<f64>], seed: u64) {
    let pts: Vec<Point3<T>> = raw.iter().map(common::pt).collect();
    let tris = common::triangles(&pts);
    let tol = common::tolerance(&pts);
    macro_rules! point_fits {
        ($b:ty, $($name:literal => $f:expr),+) => {{
            $( let f: Fit<T, $b> = $f; assert_contains($name, &f(&pts).unwrap(), &pts, tol); )+
        }};
    }
    macro_rules! tri_fits {
        ($b:ty, $($name:literal => $f:expr),+) => {{
            $( let f: TriFit<T, $b> = $f; assert_contains($name, &f(&tris).unwrap(), &pts, tol); )+
        }};
    }
    point_fits!(Aabb<T>, "aabb" => Aabb::from_points);
    point_fits!(Sphere<T>, "ritter" => Sphere::ritter, "ritter_eigen" => Sphere::ritter_eigen,
        "ritter_iterative" => |p| Sphere::ritter_iterative(p, 8), "welzl" => Sphere::welzl);
    point_fits!(Obb<T>, "obb_pca" => Obb::fit_pca_points, "obb_hull" => Obb::fit_pca_hull, "obb_tight" => Obb::fit_tight);
    point_fits!(Capsule<T>, "capsule" => Capsule::fit_pca);
    point_fits!(Rss<T>, "rss" => Rss::fit_pca);
    point_fits!(Kdop14<T>, "kdop14" => Kdop14::from_points);
    point_fits!(Kdop18<T>, "kdop18" => Kdop18::from_points);
    point_fits!(Kdop26<T>, "kdop26" => Kdop26::from_points);
    tri_fits!(Aabb<T>, "aabb_tri" => Aabb::fit_triangles);
    tri_fits!(Sphere<T>, "sphere_tri" => Sphere::fit_triangles);
    tri_fits!(Obb<T>, "obb_tri" => Obb::fit_triangles, "obb_tri_tight" => Obb::fit_triangles_tight);
    tri_fits!(Capsule<T>, "capsule_tri" => Capsule::fit_triangles);
    tri_fits!(Rss<T>, "rss_tri" => Rss::fit_triangles);
    tri_fits!(Obb<T>, "obb_tri_moments" => |t| Obb::fit_pca_moments(t, &moments(t)));
    tri_fits!(Rss<T>, "rss_tri_moments" => |t| Rss::fit_pca_moments(t, &moments(t)));
    tri_fits!(Kdop26<T>, "kdop26_tri" => Kdop26::fit_triangles);

    // The tight box is never larger than the PCA boxes.
    let tight = Obb::fit_tight_triangles(&tris).unwrap().volume();
    assert!(tight <= Obb::fit_pca_triangles(&tris).unwrap().volume());
    let tight = Obb::fit_tight(&pts).unwrap().volume();
    assert!(
        tight <= Obb::fit_pca_points(&pts).unwrap().volume()
            && tight <= Obb::fit_pca_hull(&pts).unwrap().volume()
    );

    // Transforms and merges.
    let mut r = common::rng(seed);
    let m = common::iso::<T>(&common::isometry(&mut r, 100.0));
    let moved: Vec<Point3<T>> = pts.iter().map(|p| m * p).collect();
    let mtol = tol + common::tolerance(&moved);
    let half = pts.len().div_ceil(2);
    let (a, b) = (&pts[..half], &pts[half.min(pts.len() - 1)..]);
    macro_rules! motion {
        ($b:ty) => {{
            let bv = <$b>::fit_points(&pts).unwrap();
            assert_contains(
                concat!(stringify!($b), " transformed"),
                &bv.transformed(&m),
                &moved,
                mtol,
            );
            let (ba, bb) = (<$b>::fit_points(a).unwrap(), <$b>::fit_points(b).unwrap());
            let merged = ba.merge(&bb);
            assert_contains(concat!(stringify!($b), " merge"), &merged, &pts, tol);
            let mut samples = ba.sample(&mut r);
            samples.extend(bb.sample(&mut r));
            if !samples.is_empty() {
                let stol = tol + common::tolerance(&samples);
                assert_contains(
                    concat!(stringify!($b), " merge covers volumes"),
                    &merged,
                    &samples,
                    stol,
                );
            }
        }};
    }
    // Projection radii (mesh distance's cheap bound) cover the volume: its
    // extreme points and the fitted points, in random directions.
    macro_rules! projection {
        ($b:ty) => {{
            let bv = <$b>::fit_points(&pts).unwrap();
            let mut points = bv.sample(&mut r);
            points.extend_from_slice(&pts);
            let c = bv.center();
            let ptol = tol + common::tolerance(&points);
            for _ in 0..16 {
                let d = common::unit_vector::<T>(&mut r);
                let radius = bv.projection_radius(&d);
                for p in &points {
                    assert!(
                        d.dot(&(p - c)).abs() <= radius + ptol,
                        "{}: projection radius {radius:?} along {d:?} misses {p:?}",
                        stringify!($b)
                    );
                }
            }
        }};
    }
    projection!(Aabb<T>);
    projection!(Sphere<T>);
    projection!(Obb<T>);
    projection!(Capsule<T>);
    projection!(Rss<T>);
    projection!(Kdop14<T>);
    projection!(Kdop18<T>);
    projection!(Kdop26<T>);
    motion!(Aabb<T>);
    motion!(Sphere<T>);
    motion!(Obb<T>);
    motion!(Capsule<T>);
    motion!(Rss<T>);
    motion!(Kdop14<T>);
    motion!(Kdop18<T>);
    motion!(Kdop26<T>);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn fits_contain_points_f64(kind in 0u8..7, n in 1usize..80, seed in any::<u64>()) {
        check_all::<f64>(&common::cloud(kind, n, seed), seed);
    }

    #[test]
    fn fits_contain_points_f32(kind in 0u8..7, n in 1usize..80, seed in any::<u64>()) {
        check_all::<f32>(&common::cloud(kind, n, seed), seed);
    }
}

/// Above `TIGHT_FIT_SAMPLE` triangles the tight OBB fit takes its axes from
/// a sample: the box must still hold every corner (the sample's omissions
/// included), be no larger than the continuous-PCA box, and match the full
/// refinement's volume closely on smooth inputs.
fn check_sampled_tight<T: Scalar>(raw: &[Point3<f64>]) {
    let pts: Vec<Point3<T>> = raw.iter().map(common::pt).collect();
    let tris = common::triangles(&pts);
    assert!(tris.len() > clash_bv::TIGHT_FIT_SAMPLE);
    let tol = common::tolerance(&pts);
    let tight = Obb::fit_triangles_tight(&tris).unwrap();
    assert_contains("obb_tri_tight_sampled", &tight, &pts, tol);
    assert!(tight.volume() <= Obb::fit_pca_triangles(&tris).unwrap().volume());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn sampled_tight_fit_contains_points(kind in 0u8..7, n in 200usize..600, seed in any::<u64>()) {
        let cloud = common::cloud(kind, n, seed);
        check_sampled_tight::<f64>(&cloud);
        check_sampled_tight::<f32>(&cloud);
    }
}

/// Welzl's sphere is the minimum one: no smaller than any other fit, and
/// equal (to rounding) to a brute-force search over all 2-, 3- and 4-point
/// supports on small sets.
#[test]
fn welzl_is_minimal() {
    for seed in 0..200u64 {
        let pts = common::cloud((seed % 4) as u8, 3 + (seed % 9) as usize, seed);
        let w = Sphere::welzl(&pts).unwrap();
        for other in [
            Sphere::ritter(&pts),
            Sphere::ritter_eigen(&pts),
            Sphere::ritter_iterative(&pts, 16),
        ] {
            assert!(w.radius <= other.unwrap().radius * (1.0 + 1e-9));
        }
        // Brute force: the smallest enclosing circumsphere over all supports.
        let mut best = f64::INFINITY;
        let n = pts.len();
        let mut consider = |c: Point3<f64>| {
            let r = pts.iter().map(|p| (p - c).norm()).fold(0.0, f64::max);
            best = best.min(r);
        };
        for i in 0..n {
            for j in i + 1..n {
                consider(clash_math::nalgebra::center(&pts[i], &pts[j]));
                for k in j + 1..n {
                    let (a, b, c) = (pts[i], pts[j], pts[k]);
                    let (u, v) = (b - a, c - a);
                    let nn = u.cross(&v);
                    if nn.norm_squared() > 1e-18 {
                        consider(
                            a + (nn.cross(&u) * v.norm_squared() + v.cross(&nn) * u.norm_squared())
                                / (2.0 * nn.norm_squared()),
                        );
                    }
                    for q in &pts[k + 1..] {
                        let w3 = q - a;
                        let det = u.dot(&v.cross(&w3));
                        if det.abs() > 1e-12 {
                            consider(
                                a + (v.cross(&w3) * u.norm_squared()
                                    + w3.cross(&u) * v.norm_squared()
                                    + u.cross(&v) * w3.norm_squared())
                                    / (2.0 * det),
                            );
                        }
                    }
                }
            }
        }
        assert!(
            (w.radius - best).abs() <= 1e-9 * best.max(1.0),
            "seed {seed}: welzl {} vs brute {best}",
            w.radius
        );
    }
}

/// Welzl's bounded-depth form copes with 200k points (no stack overflow) and
/// is deterministic.
#[test]
fn welzl_large_input_deterministic() {
    let pts = common::cloud(0, 200_000, 5);
    let a = Sphere::welzl(&pts).unwrap();
    let b = Sphere::welzl(&pts).unwrap();
    assert_eq!(a, b);
    assert!(pts.iter().all(|p| a.contains_point(p)));
    let it = Sphere::ritter_iterative(&pts, 4).unwrap();
    assert_eq!(it, Sphere::ritter_iterative(&pts, 4).unwrap());
    assert!(a.radius <= it.radius);
}

/// The tight box of a long thin rotated box beats PCA on unevenly sampled input
/// and recovers the box.
#[test]
fn tight_obb_recovers_rotated_box() {
    let mut r = common::rng(77);
    for _ in 0..20 {
        let q = common::rotation(&mut r);
        let h = clash_math::nalgebra::Vector3::new(5.0, 2.0, 0.5);
        // Corners plus a dense cluster near one corner biases PCA.
        let mut pts: Vec<Point3<f64>> = Obb {
            center: Point3::origin(),
            axes: common::rot_matrix(&q),
            half_extents: h,
        }
        .corners()
        .to_vec();
        let c0 = pts[0];
        for i in 0..200 {
            let t = i as f64 / 200.0;
            pts.push(c0 + (pts[7] - c0) * (0.1 * t));
        }
        let tight = Obb::fit_tight(&pts).unwrap();
        let exact = 8.0 * h.x * h.y * h.z;
        assert!(
            tight.volume() <= exact * (1.0 + 1e-6),
            "{} vs {exact}",
            tight.volume()
        );
        assert!(tight.volume() <= Obb::fit_pca_points(&pts).unwrap().volume());
    }
}
