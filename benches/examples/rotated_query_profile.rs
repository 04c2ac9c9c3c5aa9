//! Profiling aid for queries between two trees under rotated poses, where
//! k-DOP trees must realign the other tree's volumes: a mesh against
//! itself, OBB and k-DOP trees (f64), any-contact over 2,000 poses and
//! mesh distance over 50 separated poses, one thread.
//!
//! `cargo run --release -p clash-benches --example rotated_query_profile [MESH.stl]`

use clash_bv::{Kdop14, Kdop18, Kdop26, Obb};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
use clash_math::{Isometry3, Vector3};
use std::time::Instant;

#[path = "../../crates/clash-bvh/examples/common/stl.rs"]
mod stl;

fn run<B: TreeVolume<f64>>(mesh: &TriMesh<f64>, name: &str) {
    let tree = Bvh::<f64, B>::build(mesh.clone(), &BuildOptions::default()).expect("tree builds");
    let t = Instant::now();
    let mut any = 0;
    for i in 0..2000 {
        let pose = Isometry3::new(
            Vector3::new(
                0.05 * (i % 20) as f64 - 0.5,
                0.03 * (i / 100) as f64 - 0.3,
                0.0,
            ),
            Vector3::new(0.01 * i as f64, 0.2, 0.0),
        );
        any += usize::from(tree.intersects(&tree, pose));
    }
    let any_time = t.elapsed();
    let t = Instant::now();
    let mut sum = 0.0;
    for i in 0..50 {
        let pose = Isometry3::new(
            Vector3::new(0.3 + 0.002 * i as f64, 0.01 * i as f64, 0.0),
            Vector3::new(0.1 * i as f64, 0.2, 0.05 * i as f64),
        );
        sum += tree.distance(&tree, pose).distance;
    }
    println!(
        "{name}: any-contact {any}/2000 in {any_time:.2?}; distance sum {sum:.9} over 50 in {:.2?}",
        t.elapsed()
    );
}

fn main() {
    let path = std::env::args().nth(1);
    let path = path.as_deref().unwrap_or("data/meshes/panda_link6.stl");
    let mesh = stl::read_binary_stl(path).expect("a binary STL mesh");
    run::<Obb<f64>>(&mesh, "obb");
    run::<Kdop14<f64>>(&mesh, "kdop14");
    run::<Kdop18<f64>>(&mesh, "kdop18");
    run::<Kdop26<f64>>(&mesh, "kdop26");
}
