//! Two copies of a mesh: do they touch, and where?
//!
//! `cargo run --release -p clash-collision --example collide [MESH]` (OBJ, STL or
//! PLY; the shipped low-resolution bunny by default).

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
    // OBB trees are the mesh/mesh collision choice; build once, save, reload.
    let tree: ObbTree<f64> = Bvh::build(mesh, &BuildOptions::default())?;
    let file = std::env::temp_dir().join("clash-example-collide.clash");
    tree.save(&file)?;
    let tree: ObbTree<f64> = Bvh::load(&file)?;
    std::fs::remove_file(&file)?;

    let size = tree.stats().triangles;
    println!("{path}: {size} triangles");
    for dx in [0.0, 0.2, 0.5, 1.0, 2.0] {
        // The second copy moved along x and turned a little, in the first's frame.
        let pose = Isometry3::new(Vector3::new(dx, 0.0, 0.0), Vector3::new(0.0, 0.3, 0.0));
        let touches = tree.intersects(&tree, pose);
        let pairs = tree.collide(&tree, pose, &CollisionRequest::all()).pairs;
        println!(
            "offset {dx}: touching {touches}, {} triangle pairs",
            pairs.len()
        );
        if let Some(p) = pairs.first() {
            println!(
                "  first pair: triangle {} of A with triangle {} of B",
                p[0], p[1]
            );
        }
    }
    Ok(())
}
