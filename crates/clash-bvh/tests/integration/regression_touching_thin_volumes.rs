//! Regression: capsule (and sphere) trees missed contacts between thin
//! volumes. Found by `touching_sweep` (seed 100, scene 6): a segment-like
//! degenerate triangle touching a triangle exactly at its corner, under a
//! signed axis permutation. The capsule overlap test compared the computed
//! segment distance with the radius sum exactly, with no rounding
//! allowance, so capsules of radius 0 (degenerate triangles) or capsules
//! meeting exactly where a radius reaches were reported apart; nearly
//! parallel cores were also reported apart by up to `L √ε`. Sphere tests
//! had no allowance either (a point triangle's sphere has radius 0).

use clash_bv::{Aabb, Capsule, Kdop14, Kdop18, Kdop26, Obb, RelativePose, Rss, Sphere};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, Vector3};

/// The two one-triangle meshes meet in exactly the pairs the exact test
/// finds, for trees of type `B`: contacts, any contact and a distance of 0.
fn check<T: Scalar, B: TreeVolume<T>>(a: &Triangle<T>, b: &Triangle<T>, pose: &RelativePose<T>) {
    let touching = clash_narrow::overlap::triangle_triangle(a, &pose.transform_triangle(b));
    assert!(touching, "the scene is built to touch");
    let ta = Bvh::<T, B>::build(
        TriMesh::from_triangles(&[*a]).unwrap(),
        &BuildOptions::default(),
    )
    .unwrap();
    let tb = Bvh::<T, B>::build(
        TriMesh::from_triangles(&[*b]).unwrap(),
        &BuildOptions::default(),
    )
    .unwrap();
    let what = format!("{} {}", T::NAME, B::NAME);
    assert_eq!(ta.contacts(&tb, pose), vec![[0, 0]], "{what}: contacts");
    assert!(ta.intersects(&tb, pose), "{what}: any contact");
    assert_eq!(ta.distance(&tb, pose).distance, T::ZERO, "{what}: distance");
}

fn every_type<T: Scalar>(a: &Triangle<T>, b: &Triangle<T>, pose: &RelativePose<T>) {
    check::<T, Aabb<T>>(a, b, pose);
    check::<T, Obb<T>>(a, b, pose);
    check::<T, Rss<T>>(a, b, pose);
    check::<T, Sphere<T>>(a, b, pose);
    check::<T, Capsule<T>>(a, b, pose);
    check::<T, Kdop14<T>>(a, b, pose);
    check::<T, Kdop18<T>>(a, b, pose);
    check::<T, Kdop26<T>>(a, b, pose);
}

/// The pair the sweep found: the segment-like triangle's end lands exactly
/// on a corner of the other.
#[test]
fn segment_touching_a_corner_under_an_axis_permutation() {
    fn scene<T: Scalar>() {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let a = Triangle::new(
            p(1.0, 0.875, 2.0),
            p(1.125, -0.125, 1.625),
            p(1.5, 0.125, 1.5),
        );
        let b = Triangle::new(
            p(2.5, 1.625, 0.375),
            p(2.5, 1.625, 0.375),
            p(2.25, 1.75, 1.25),
        );
        let pose = RelativePose::from_matrix(
            Matrix3::new(0.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0).map(T::lit),
            Vector3::new(-0.125, 1.625, -0.625).map(T::lit),
        );
        every_type(&a, &b, &pose);
    }
    scene::<f64>();
    scene::<f32>();
}

/// Degenerate triangles that are segments crossing at a point, at angles
/// from 2^-4 down to 2^-40 (f64) and 2^-16 (f32), and a point triangle on
/// another point triangle: every type finds the contact.
#[test]
fn thin_triangles_crossing_at_small_angles() {
    fn scene<T: Scalar>(finest: i32) {
        let p = |x: f64, y: f64, z: f64| Point3::new(T::lit(x), T::lit(y), T::lit(z));
        let id = RelativePose::new(&Isometry3::identity());
        for k in (4..=finest).step_by(4) {
            let d = (0.5f64).powi(k);
            let a = Triangle::new(p(0.0, 0.0, 0.0), p(0.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
            let b = Triangle::new(p(0.0, -d, 0.0), p(1.0, d, 0.0), p(1.0, d, 0.0));
            every_type(&a, &b, &id);
        }
        let point = Triangle::new(p(0.5, 0.25, 2.0), p(0.5, 0.25, 2.0), p(0.5, 0.25, 2.0));
        every_type(&point, &point, &id);
    }
    scene::<f64>(40);
    scene::<f32>(16);
}
