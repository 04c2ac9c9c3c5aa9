//! Collision meshes: loaded through the facade's loaders, shared per file
//! and scale, scaled (mirrors keep faces outward), found through package
//! maps, `file://` URIs and paths relative to the URDF.

use crate::common::{panda, robots_dir};
use clash::robot::{CollisionGeometry, PackageMap, Robot};
use nalgebra::Vector3;
use std::sync::Arc;

#[test]
fn panda_meshes_are_its_stl_files() {
    let r = panda();
    for e in r.collision_elements() {
        let CollisionGeometry::Mesh { path, scale, mesh } = &e.geometry else {
            continue;
        };
        assert_eq!(*scale, Vector3::repeat(1.0));
        let expected = robots_dir().join("panda/meshes/collision").join(format!(
            "{}.stl",
            r.links()[e.link].name.trim_start_matches("panda_")
        ));
        assert_eq!(path, &expected);
        // A binary STL holds (size - 84) / 50 facets.
        let facets = (std::fs::metadata(path).unwrap().len() as usize - 84) / 50;
        assert_eq!(mesh.num_triangles(), facets);
        let loaded: clash::bvh::TriMesh<f64> = clash::mesh_file::load_mesh(path).unwrap();
        assert_eq!(mesh.indices(), loaded.indices());
        assert_eq!(mesh.vertices(), loaded.vertices());
    }
}

/// Signed volume of a closed mesh (positive when its faces point out).
fn volume(mesh: &clash::bvh::TriMesh<f64>) -> f64 {
    mesh.triangles()
        .map(|t| t.a.coords.dot(&t.b.coords.cross(&t.c.coords)) / 6.0)
        .sum()
}

#[test]
fn scales_relative_paths_uris_and_sharing() {
    let dir = std::env::temp_dir().join(format!("clash_robot_meshes_{}", std::process::id()));
    std::fs::create_dir_all(dir.join("urdf")).unwrap();
    std::fs::create_dir_all(dir.join("pkg/meshes")).unwrap();
    let tetra = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 2 3 4\nf 3 1 4\n";
    std::fs::write(dir.join("urdf/tetra.obj"), tetra).unwrap();
    std::fs::write(dir.join("pkg/meshes/tetra.obj"), tetra).unwrap();
    let absolute = dir.join("urdf/tetra.obj");
    let urdf = format!(
        r#"<robot name="r"><link name="l">
          <collision><geometry><mesh filename="tetra.obj"/></geometry></collision>
          <collision><geometry><mesh filename="tetra.obj" scale="1 1 1"/></geometry></collision>
          <collision><geometry><mesh filename="tetra.obj" scale="2 -3 0.5"/></geometry></collision>
          <collision><geometry><mesh filename="package://my_robot/meshes/tetra.obj"/></geometry></collision>
          <collision><geometry><mesh filename="file://{}"/></geometry></collision>
          <collision><origin xyz="0 0 1"/><geometry><capsule radius="0.1" length="0.5"/></geometry></collision>
        </link></robot>"#,
        absolute.display()
    );
    let path = dir.join("urdf/r.urdf");
    std::fs::write(&path, urdf).unwrap();
    let packages = PackageMap::new().with("my_robot", dir.join("pkg"));
    let r = Robot::from_urdf_file(&path, &packages).unwrap();
    let mesh = |k: usize| match &r.collision_elements()[k].geometry {
        CollisionGeometry::Mesh { mesh, path, .. } => (mesh.clone(), path.clone()),
        other => panic!("{other:?}"),
    };
    let (m0, p0) = mesh(0);
    let (m1, _) = mesh(1);
    let (m2, _) = mesh(2);
    let (m3, p3) = mesh(3);
    let (m4, p4) = mesh(4);
    assert_eq!(p0, dir.join("urdf/tetra.obj"));
    assert_eq!(p3, dir.join("pkg/meshes/tetra.obj"));
    assert_eq!(p4, absolute);
    assert!(
        Arc::ptr_eq(&m0, &m1),
        "the same file at the same scale is loaded once"
    );
    assert!(!Arc::ptr_eq(&m0, &m2));
    assert!((volume(&m0) - 1.0 / 6.0).abs() < 1e-15);
    // Scaled by 2 * 3 * 0.5 = 3 in volume, one mirror: the winding is
    // reversed so the volume stays positive.
    assert!((volume(&m2) - 3.0 / 6.0).abs() < 1e-15);
    for (v, w) in m2.vertices().iter().zip(m0.vertices()) {
        assert_eq!(
            v.coords,
            w.coords.component_mul(&Vector3::new(2.0, -3.0, 0.5))
        );
    }
    assert_eq!(m3.vertices(), m0.vertices());
    assert_eq!(m4.vertices(), m0.vertices());
    assert!(matches!(
        r.collision_elements()[5].geometry,
        CollisionGeometry::Capsule {
            radius: 0.1,
            length: 0.5
        }
    ));

    // A scale so large that coordinates overflow.
    std::fs::write(
        dir.join("urdf/big.obj"),
        tetra.replace("v 1 0 0", "v 10 0 0"),
    )
    .unwrap();
    let huge = "<robot name=\"r\"><link name=\"l\"><collision><geometry>\
                <mesh filename=\"big.obj\" scale=\"1e308 1 1\"/></geometry></collision></link></robot>";
    std::fs::write(dir.join("urdf/huge.urdf"), huge).unwrap();
    let e = Robot::from_urdf_file(dir.join("urdf/huge.urdf"), &packages).unwrap_err();
    assert!(e.to_string().contains("link \"l\""), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
