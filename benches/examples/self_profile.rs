//! Self-collision profiling aid: builds OBB, RSS, AABB and k-DOP-18 trees
//! of a mesh (f64, default options) and prints each one's number of
//! self-contacts and the fastest of five `self_contacts` calls.
//!
//! `cargo run --release -p clash-benches --example self_profile MESH.stl [obb|rss|aabb|kdop18]`
//!
//! A second argument runs that volume type only.

use clash_bv::{Aabb, Kdop18, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
use std::time::Instant;

#[path = "../../crates/clash-bvh/examples/common/stl.rs"]
mod stl;

fn run<B: TreeVolume<f64>>(mesh: &TriMesh<f64>, name: &str, only: Option<&str>) {
    if only.is_some_and(|o| o != name) {
        return;
    }
    let tree = Bvh::<f64, B>::build(mesh.clone(), &BuildOptions::default()).expect("tree builds");
    let mut best = f64::MAX;
    let mut contacts = 0;
    for _ in 0..5 {
        let t = Instant::now();
        contacts = tree.self_contacts().len();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    println!("{name}: {contacts} self-contacts, fastest {best:.2} ms");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("data/meshes/panda_link6.stl", |s| s);
    let only = args.get(2).map(String::as_str);
    let mesh = stl::read_binary_stl(path).expect("a binary STL mesh");
    run::<Obb<f64>>(&mesh, "obb", only);
    run::<Rss<f64>>(&mesh, "rss", only);
    run::<Aabb<f64>>(&mesh, "aabb", only);
    run::<Kdop18<f64>>(&mesh, "kdop18", only);
}
