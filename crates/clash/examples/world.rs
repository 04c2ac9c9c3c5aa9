//! A world of meshes that move: which pairs touch after each step?
//!
//! `cargo run --release -p clash-collision --example world [MESH]` (the shipped
//! low-resolution bunny by default).

use clash::prelude::*;
use std::sync::Arc;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/meshes/bunny_lo.stl"
        )
        .to_string()
    });
    let mesh = clash::mesh_file::load_mesh::<f64>(&path)?;
    // One tree, shared by every object that has this shape.
    let tree: Arc<ObbTree<f64>> = Arc::new(Bvh::build(mesh, &BuildOptions::default())?);
    let mut world = CollisionWorld::<f64, Obb<f64>>::new(0.05)?;
    let handles = (0..5)
        .map(|i| {
            world.insert(
                tree.clone(),
                Isometry3::translation(3.0 * i as f64, 0.0, 0.0),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Each step the objects close in on the first one.
    for step in 0..4 {
        for (i, &h) in handles.iter().enumerate() {
            let x = 3.0 * i as f64 * (1.0 - 0.3 * step as f64);
            world.set_pose(h, Isometry3::translation(x, 0.0, 0.0))?;
        }
        let touching = world.collide(&WorldQuery::default())?;
        // Name the objects by their place in `handles`.
        let index = |h| handles.iter().position(|&x| x == h).unwrap_or(usize::MAX);
        let pairs: Vec<String> = touching
            .iter()
            .map(|c| format!("{}-{}", index(c.a), index(c.b)))
            .collect();
        println!(
            "step {step}: {} pairs touch [{}]",
            touching.len(),
            pairs.join(", ")
        );
    }
    Ok(())
}
