//! Rays against a mesh: the first hit of each, from every core.
//!
//! `cargo run --release -p clash-collision --example raycast [MESH]` (the shipped
//! low-resolution bunny by default).

use clash::prelude::*;
use rayon::prelude::*;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../data/meshes/bunny_lo.stl"
        )
        .to_string()
    });
    let mesh = clash::mesh_file::load_mesh::<f32>(&path)?;
    // AABB trees split by SAH are the ray choice.
    let options = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let tree: AabbTree<f32> = Bvh::build(mesh, &options)?;
    // A fan of rays from a point in front of the mesh, towards its centre.
    let origin = Point3::new(0.0, 0.0, 5.0);
    let rays: Vec<Ray<f32>> = (0..10_000)
        .map(|i| {
            let (u, v) = ((i % 100) as f32 / 99.0 - 0.5, (i / 100) as f32 / 99.0 - 0.5);
            Ray::new(origin, Vector3::new(u, v, -5.0))
        })
        .collect();
    let query = RayQuery::default();
    // Answers in input order whatever the thread count.
    let hits: Vec<Option<MeshRayHit<f32>>> =
        rays.par_iter().map(|r| tree.cast_ray(r, &query)).collect();
    let n = hits.iter().flatten().count();
    println!("{path}: {n} of {} rays hit", rays.len());
    if let Some(h) = hits.iter().flatten().min_by(|a, b| a.t.total_cmp(&b.t)) {
        println!(
            "nearest hit: triangle {} at t = {} ({:?})",
            h.triangle,
            h.t,
            h.point.coords.as_slice()
        );
    }
    Ok(())
}
