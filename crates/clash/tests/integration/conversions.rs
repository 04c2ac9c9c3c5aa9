//! The `glam` and `mint` features: meshes and poses from those crates' types
//! give the same answers as the nalgebra forms. Run with
//! `cargo test -p clash-collision --all-features`.
#![cfg(any(feature = "glam", feature = "mint"))]

use clash::prelude::*;

fn tetrahedron_indices() -> Vec<[u32; 3]> {
    vec![[0, 2, 1], [0, 1, 3], [1, 2, 3], [2, 0, 3]]
}

fn nalgebra_tetrahedron() -> TriMesh<f64> {
    TriMesh::new(
        vec![
            Point3::new(0.0, 0.0, 0.0),
            Point3::new(1.0, 0.0, 0.0),
            Point3::new(0.0, 1.0, 0.0),
            Point3::new(0.0, 0.0, 1.0),
        ],
        tetrahedron_indices(),
    )
    .unwrap()
}

#[cfg(feature = "glam")]
#[test]
fn glam_vectors_and_poses_convert() {
    use clash::glam::{DQuat, DVec3, Vec3};
    let corners = [DVec3::ZERO, DVec3::X, DVec3::Y, DVec3::Z];
    let mesh = clash::mesh_from_points::<f64, _>(corners, tetrahedron_indices()).unwrap();
    assert_eq!(mesh, nalgebra_tetrahedron());
    let single =
        clash::mesh_from_points::<f32, _>([Vec3::ZERO, Vec3::X, Vec3::Y], vec![[0, 1, 2]]).unwrap();
    assert_eq!(single.vertices()[1], Point3::new(1.0f32, 0.0, 0.0));

    let tree: Bvh<f64, Obb<f64>> = Bvh::build(mesh, &BuildOptions::default()).unwrap();
    let rotation = DQuat::from_rotation_z(0.3);
    let pose: Isometry3<f64> = (DVec3::new(0.5, 0.1, 0.0), rotation).into();
    let expected = Isometry3::from_parts(
        Translation3::new(0.5, 0.1, 0.0),
        UnitQuaternion::from_axis_angle(&Vector3::z_axis(), 0.3),
    );
    assert!((pose.translation.vector - expected.translation.vector).norm() < 1e-15);
    assert!(pose.rotation.angle_to(&expected.rotation) < 1e-12);
    assert_eq!(
        tree.intersects(&tree, pose),
        tree.intersects(&tree, expected)
    );
    // And back: the closest point as a glam vector.
    let d = tree.distance(&tree, Isometry3::translation(3.0, 0.0, 0.0));
    let p: DVec3 = d.point_b.into();
    assert_eq!(p.x, d.point_b.x);
}

#[cfg(feature = "mint")]
#[test]
fn mint_points_convert() {
    let corners = [
        clash::mint::Point3 {
            x: 0.0,
            y: 0.0,
            z: 0.0,
        },
        clash::mint::Point3 {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        clash::mint::Point3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        },
        clash::mint::Point3 {
            x: 0.0,
            y: 0.0,
            z: 1.0,
        },
    ];
    let mesh = clash::mesh_from_points::<f64, _>(corners, tetrahedron_indices()).unwrap();
    assert_eq!(mesh, nalgebra_tetrahedron());
    let back: clash::mint::Point3<f64> = mesh.vertices()[3].into();
    assert_eq!(back.z, 1.0);
}
