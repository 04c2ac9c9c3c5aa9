//! How far apart are two meshes, and where are the closest points?
//!
//! `cargo run --release -p clash-collision --example distance [MESH]` (the shipped
//! low-resolution bunny by default).

use clash::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/meshes/bunny_lo.stl"
        )
        .to_string()
    });
    let mesh = clash::mesh_file::load_mesh::<f64>(&path)?;
    // RSS trees split by SAH bound distances most tightly.
    let options = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let tree: RssTree<f64> = Bvh::build(mesh, &options)?;
    for dx in [1.0, 1.5, 3.0] {
        let pose = Isometry3::translation(dx, 0.0, 0.0);
        let d = tree.distance(&tree, pose);
        println!(
            "offset {dx}: distance {:.6} between triangle {} at {:?} and triangle {} at {:?}",
            d.distance,
            d.triangles[0],
            d.point_a.coords.as_slice(),
            d.triangles[1],
            d.point_b.coords.as_slice()
        );
    }
    // A convex shape against the mesh: a ball above it.
    let ball = Ball::new(0.1)?;
    let pose = Isometry3::translation(0.0, 0.0, 1.5);
    if let Some(d) = tree.distance_to_convex(&ball, &pose, &QueryRequest::default()) {
        println!(
            "ball: distance {:.6} to triangle {}",
            d.distance, d.triangle
        );
    }
    Ok(())
}
