//! Issue 32, item 1: huge finite coordinates. Meshes are refused beyond
//! `Scalar::MAX_COORDINATE` with a typed error; poses and rays are checked
//! by `RelativePose::check_range` and `Ray::check_range`; within the range
//! every answer is finite and right. The oracle: scaling a scene by a power
//! of two scales every exact answer by it, so a scene pushed up to the
//! range's edge must answer as the unscaled one does.

use crate::common;

use clash_bv::{Obb, RelativePose, Rss};
use clash_bvh::{BuildOptions, Bvh, MeshError, RayQuery, TriMesh};
use clash_math::{Isometry3, Point3, RangeError, Ray, Scalar, Vector3};
use common::*;
use rand::RngExt;

#[test]
fn meshes_beyond_the_range_are_refused_with_the_vertex() {
    fn tri<T: Scalar>(far: T) -> Result<TriMesh<T>, MeshError> {
        TriMesh::new(
            vec![
                Point3::origin(),
                Point3::new(far, T::ZERO, T::ZERO),
                Point3::new(T::ZERO, T::ONE, T::ZERO),
            ],
            vec![[0, 1, 2]],
        )
    }
    assert!(tri(f64::MAX_COORDINATE).is_ok());
    assert!(tri(-f32::MAX_COORDINATE).is_ok());
    for far in [f64::MAX_COORDINATE * 2.0, 1e100, -1e300, f64::MAX] {
        assert!(
            matches!(tri(far), Err(MeshError::CoordinateOutOfRange { vertex: 1, source: RangeError::Coordinate { value, .. } }) if value == far),
            "{far:e}"
        );
    }
    assert!(matches!(
        tri(1e30_f32),
        Err(MeshError::CoordinateOutOfRange { vertex: 1, .. })
    ));
    let message = tri(1e200_f64).unwrap_err().to_string();
    assert!(
        message.contains("vertex 1") && message.contains("1e200"),
        "{message}"
    );
    // Refits check the same.
    let mut m = tri(1.0_f64).unwrap();
    let mut moved = m.vertices().to_vec();
    moved[2].z = 1e300;
    assert!(matches!(
        m.set_vertices(&moved),
        Err(MeshError::CoordinateOutOfRange { vertex: 2, .. })
    ));
}

#[test]
fn poses_and_rays_beyond_the_range_are_refused() {
    assert!(
        RelativePose::from(Isometry3::translation(0.0, 1e300_f64, 0.0))
            .check_range()
            .is_err()
    );
    assert!(
        RelativePose::from(Isometry3::translation(0.0, 1e20_f32, 0.0))
            .check_range()
            .is_err()
    );
    assert!(
        RelativePose::from(Isometry3::translation(0.0, 1e38_f64, 0.0))
            .check_range()
            .is_ok()
    );
    let o = Point3::new(0.0_f64, 0.0, -1.0);
    for dir in [1e-310, 1e-100, 1e200] {
        let e = Ray::new(o, Vector3::new(0.0, 0.0, dir))
            .check_range()
            .unwrap_err();
        assert!(
            matches!(e, RangeError::Direction { value, .. } if value == dir),
            "{e}"
        );
    }
    assert!(
        Ray::new(Point3::new(1e300, 0.0, 0.0), Vector3::z())
            .check_range()
            .is_err()
    );
    assert!(
        Ray::new(o, Vector3::new(0.0, 0.0, f64::NAN))
            .check_range()
            .is_err()
    );
}

/// Bunny_lo and the same scene scaled by the largest power of two that
/// keeps mesh, poses and ray origins within the range: collisions are the
/// same pairs, distances and ray hits scale by the factor, and nothing is
/// NaN or infinite.
fn scaled_scene_answers_alike<T: Scalar>(tolerance: f64) {
    let mesh: TriMesh<T> = read_stl("bunny_lo.stl");
    let reach = mesh
        .vertices()
        .iter()
        .fold(0.0_f64, |m, p| m.max(p.coords.amax().to_f64()));
    // Poses reach up to twice the mesh's extent, ray origins three times.
    let k = (T::MAX_COORDINATE.to_f64() / (4.0 * reach)).log2().floor() as i32;
    let s = 2.0_f64.powi(k);
    let scale = |p: &Point3<T>| p.map(|x| x * T::lit(s));
    let big = TriMesh::new(
        mesh.vertices().iter().map(scale).collect(),
        mesh.indices().to_vec(),
    )
    .unwrap();
    assert!(
        big.vertices()
            .iter()
            .any(|p| p.coords.amax().to_f64() > T::MAX_COORDINATE.to_f64() / 8.0)
    );
    let opts = BuildOptions::default();
    let (obb, obb_big) = (
        Bvh::<T, Obb<T>>::build(mesh.clone(), &opts).unwrap(),
        Bvh::<T, Obb<T>>::build(big.clone(), &opts).unwrap(),
    );
    let (rss, rss_big) = (
        Bvh::<T, Rss<T>>::build(mesh.clone(), &opts).unwrap(),
        Bvh::<T, Rss<T>>::build(big, &opts).unwrap(),
    );
    let close = |a: T, b: f64| (a.to_f64() - b).abs() <= tolerance * b.abs().max(s * reach * 1e-3);
    let mut rng = seeded(32);
    for i in 0..24 {
        let pose: Isometry3<T> = random_pose(&mut rng, 2.0 * reach, 3.0);
        let mut pose_big = pose;
        pose_big.translation.vector *= T::lit(s);
        assert!(RelativePose::from(pose_big).check_range().is_ok());
        assert_eq!(
            sorted(obb.contacts(&obb, pose)),
            sorted(obb_big.contacts(&obb_big, pose_big)),
            "pose {i}"
        );
        let (d, d_big) = (
            rss.distance(&rss, pose),
            rss_big.distance(&rss_big, pose_big),
        );
        assert!(
            d_big.distance.finite() && d_big.distance >= T::ZERO,
            "pose {i}: {d_big:?}"
        );
        assert!(
            close(d_big.distance, d.distance.to_f64() * s),
            "pose {i}: {d:?} {d_big:?}"
        );
    }
    let q = RayQuery::default();
    let mut hits = 0;
    for i in 0..24 {
        let o = Point3::new(
            T::lit(rng.random_range(-3.0..3.0) * reach),
            T::lit(rng.random_range(-3.0..3.0) * reach),
            T::lit(rng.random_range(-3.0..3.0) * reach),
        );
        let dir = (Point3::new(T::ZERO, T::lit(0.1 * reach), T::ZERO) - o)
            * T::lit(rng.random_range(0.5..2.0));
        let ray = Ray::new(o, dir);
        let ray_big = Ray::new(scale(&o), dir * T::lit(s));
        assert!(ray_big.check_range().is_ok());
        let (h, h_big) = (obb.cast_ray(&ray, &q), obb_big.cast_ray(&ray_big, &q));
        assert_eq!(h.is_some(), h_big.is_some(), "ray {i}");
        if let (Some(h), Some(hb)) = (h, h_big) {
            hits += 1;
            assert_eq!(h.triangle, hb.triangle, "ray {i}");
            assert!(
                (h.t - hb.t).abs().to_f64() <= tolerance * h.t.to_f64(),
                "ray {i}: {h:?} {hb:?}"
            );
            assert!(
                (hb.normal.norm().to_f64() - 1.0).abs() < 1e-3,
                "ray {i}: {hb:?}"
            );
        }
    }
    assert!(hits >= 12, "{hits} of 24 rays hit");
}

#[test]
fn a_scene_at_the_edge_of_the_f64_range_answers_as_at_unit_scale() {
    scaled_scene_answers_alike::<f64>(1e-9);
}

#[test]
fn a_scene_at_the_edge_of_the_f32_range_answers_as_at_unit_scale() {
    scaled_scene_answers_alike::<f32>(1e-3);
}

#[test]
fn ray_directions_at_the_edges_of_their_range_hit() {
    let tree =
        Bvh::<f64, Obb<f64>>::build(read_stl("bunny_lo.stl"), &BuildOptions::default()).unwrap();
    let q = RayQuery::default();
    let o = Point3::new(0.0, 0.0, -1.0);
    let unit = tree
        .cast_ray(&Ray::new(o, Vector3::z()), &q)
        .expect("the ray hits the bunny");
    for size in [1.0 / f64::MAX_COORDINATE, f64::MAX_COORDINATE] {
        let ray = Ray::new(o, Vector3::new(0.0, 0.0, size));
        assert!(ray.check_range().is_ok());
        let h = tree.cast_ray(&ray, &q).expect("the same hit");
        assert_eq!(h.triangle, unit.triangle);
        assert!((h.t * size - unit.t).abs() <= 1e-12, "{h:?} {unit:?}");
    }
}
