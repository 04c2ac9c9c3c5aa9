//! Regression: a quarter turn given as a matrix, placing a copy of the bunny
//! so that 49 triangle pairs touch exactly (at shared vertices). Found by
//! `benches/compare/` (`--special`): the command line turned the matrix into
//! a quaternion, whose rounding (2.2e-16 where the matrix has 0) opened gaps
//! of ~5e-17 at the contacts, and collide answered "no contact" where FCL,
//! coal and exact arithmetic find 49 pairs. Poses built with
//! `RelativePose::from_matrix` are now used exactly as given.

use crate::common;

use clash_bv::{Aabb, Obb, RelativePose, Rss};
use clash_bvh::{BuildOptions, Bvh, CollisionRequest};
use clash_math::{Matrix3, Triangle, Vector3};
use common::read_stl;

#[test]
fn exactly_touching_quarter_turn_is_a_contact() {
    let mesh = read_stl::<f64>("bunny_lo.stl");
    let pose = RelativePose::from_matrix(
        Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0),
        Vector3::new(1.2435029745101929, 0.21482300013303757, -0.6103950142860413),
    );
    // Brute force over the triangles placed by the same matrix, exact test.
    let placed: Vec<Triangle<f64>> = mesh
        .triangles()
        .map(|t| pose.transform_triangle(&t))
        .collect();
    let mut expected = Vec::new();
    for (i, ta) in mesh.triangles().enumerate() {
        for (j, tb) in placed.iter().enumerate() {
            if clash_narrow::overlap::triangle_triangle(&ta, tb) {
                expected.push([i as u32, j as u32]);
            }
        }
    }
    expected.sort_unstable();
    assert_eq!(expected.len(), 49, "the exact answer (FCL and coal agree)");
    assert!(expected.contains(&[317, 183]));

    let obb = Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let aabb = Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let rss = Bvh::<f64, Rss<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    for mut got in [
        obb.collide(&obb, pose, &CollisionRequest::all()).pairs,
        aabb.collide(&aabb, pose, &CollisionRequest::all()).pairs,
        rss.collide(&rss, pose, &CollisionRequest::all()).pairs,
    ] {
        got.sort_unstable();
        assert_eq!(got, expected);
    }
    assert!(obb.intersects(&obb, pose));
    // Distance agrees with collision: touching is distance 0.
    assert_eq!(rss.distance(&rss, pose).distance, 0.0);
    assert_eq!(obb.distance(&obb, pose).distance, 0.0);
}
