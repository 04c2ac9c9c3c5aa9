//! The main job end to end: read a real mesh, build OBB and AABB trees in
//! parallel, save and reload them, then answer batches of collision queries
//! over many poses on every core.
//!
//! `cargo run --release -p clash-bvh --example collide_meshes [MESH.stl] [POSES]`

use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, CollisionRequest};
use clash_math::{Isometry3, Vector3};
use std::time::Instant;

#[path = "common/stl.rs"]
mod stl;
use stl::read_binary_stl;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let default = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/meshes/dog_sacrum.stl"
    );
    let path = args.get(1).map(String::as_str).unwrap_or(default);
    let num_poses: usize = args
        .get(2)
        .map(|s| s.parse())
        .transpose()?
        .unwrap_or(10_000);

    let mesh = read_binary_stl(path)?;
    println!(
        "mesh: {} triangles, {} vertices, closed: {}",
        mesh.num_triangles(),
        mesh.vertices().len(),
        mesh.is_closed()
    );

    let t = Instant::now();
    let obb: Bvh<f64, Obb<f64>> = Bvh::build(mesh.clone(), &BuildOptions::default())?;
    println!(
        "OBB tree built in {:.1} ms: {:?}",
        t.elapsed().as_secs_f64() * 1e3,
        obb.stats()
    );
    let t = Instant::now();
    let aabb: Bvh<f64, Aabb<f64>> = Bvh::build(mesh, &BuildOptions::sah())?;
    println!(
        "AABB tree (SAH) built in {:.1} ms: {:?}",
        t.elapsed().as_secs_f64() * 1e3,
        aabb.stats()
    );

    let file = std::env::temp_dir().join("clash-example-obb.clash");
    let t = Instant::now();
    obb.save(&file)?;
    let loaded = Bvh::<f64, Obb<f64>>::load(&file)?;
    println!(
        "saved and reloaded the OBB tree ({} bytes) in {:.1} ms; identical: {}",
        std::fs::metadata(&file)?.len(),
        t.elapsed().as_secs_f64() * 1e3,
        loaded == obb
    );
    std::fs::remove_file(&file)?;

    // Poses of the second copy around the first, about half of them touching.
    let size = obb.root_bv().half_extents.max();
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    let poses: Vec<Isometry3<f64>> = (0..num_poses)
        .map(|_| {
            let tr = Vector3::new(rand(), rand(), rand()) * size * 2.5;
            let rot = Vector3::new(rand(), rand(), rand()) * 3.0;
            Isometry3::new(tr, rot)
        })
        .collect();
    for (name, request) in [
        ("any contact", CollisionRequest::any()),
        ("all pairs", CollisionRequest::all()),
    ] {
        let t = Instant::now();
        let results = loaded.collide_poses(&loaded, &poses, &request);
        let secs = t.elapsed().as_secs_f64();
        let colliding = results.iter().filter(|r| r.collides()).count();
        let pairs: usize = results.iter().map(|r| r.pairs.len()).sum();
        println!(
            "{name}: {num_poses} poses on {} threads in {:.1} ms ({:.0} poses/s): {colliding} colliding, {pairs} triangle pairs",
            rayon::current_num_threads(),
            secs * 1e3,
            num_poses as f64 / secs
        );
    }
    let t = Instant::now();
    let mixed = aabb.intersects_poses(&loaded, &poses);
    println!(
        "AABB tree vs OBB tree (mixed types), any contact: {:.1} ms, {} colliding",
        t.elapsed().as_secs_f64() * 1e3,
        mixed.iter().filter(|&&c| c).count()
    );
    Ok(())
}
