//! Build-time profiling aid: builds OBB or RSS trees of a mesh on one
//! thread, over and over, and prints the fastest and median build times
//! and the first one (the process's first build maps all its memory
//! afresh).
//!
//! `cargo run --release -p clash-benches --example build_profile [MESH.stl|ellipsoid] [obb|rss|sah] [REPEATS]`
//!
//! `ellipsoid` is the generated 1M-triangle ellipsoid of the build benches;
//! `sah` builds f32 AABB trees with [`BuildOptions::sah`]. OBB trees get
//! the basic fit ([`FitQuality::Basic`], the like-for-like of FCL's and
//! coal's), unless `CLASH_DEFAULT_FIT=1` asks for the default fit.

use clash_bv::{Aabb, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, FitQuality, TriMesh};
use std::time::Instant;

#[path = "common/ellipsoid.rs"]
mod ellipsoid;
#[path = "../../crates/clash-bvh/examples/common/stl.rs"]
mod stl;

use ellipsoid::ellipsoid;

/// The sum of the nodes' volumes and a hash of the nodes' and the leaf
/// order's encoded bytes.
fn tree_summary<T: clash_math::Scalar, B: clash_bv::BoundingVolume<T>>(
    tree: &Bvh<T, B>,
) -> (f64, u64) {
    use std::hash::{Hash, Hasher};
    let sum = tree.nodes().iter().map(|n| n.bv.volume().to_f64()).sum();
    let bytes = bincode::serde::encode_to_vec(
        (tree.nodes(), tree.leaf_order()),
        bincode::config::standard(),
    )
    .expect("nodes encode");
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    (sum, h.finish())
}

/// Milliseconds `build` takes; what it returns is dropped after the clock
/// stops.
fn timed<R>(build: impl FnOnce() -> R) -> f64 {
    let t = Instant::now();
    let built = std::hint::black_box(build());
    let ms = t.elapsed().as_secs_f64() * 1e3;
    drop(built);
    ms
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("../shared/meshes/bunny.stl", |s| s);
    let kind = args.get(2).map_or("obb", |s| s);
    let repeats: usize = args.get(3).map_or(100, |s| s.parse().unwrap());
    let mesh = if path == "ellipsoid" {
        ellipsoid(500, 1000)
    } else {
        stl::read_binary_stl(path).expect("a binary STL mesh")
    };
    let mesh32 = TriMesh::<f32>::new(
        mesh.vertices().iter().map(|p| p.cast::<f32>()).collect(),
        mesh.indices().to_vec(),
    )
    .unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut times = Vec::new();
    let o = if std::env::var("CLASH_DEFAULT_FIT").is_ok_and(|v| v == "1") {
        BuildOptions::default()
    } else {
        BuildOptions::default().with_fit(FitQuality::Basic)
    };
    for _ in 0..repeats {
        let (m, m32) = (mesh.clone(), mesh32.clone());
        // The build alone: the tree is dropped after the clock stops (as
        // `fcl_build.py` drops FCL's model).
        let ms = pool.install(|| match kind {
            "rss" => timed(|| Bvh::<f64, Rss<f64>>::build(m, &o).unwrap()),
            "sah" => timed(|| Bvh::<f32, Aabb<f32>>::build(m32, &BuildOptions::sah()).unwrap()),
            _ => timed(|| Bvh::<f64, Obb<f64>>::build(m, &o).unwrap()),
        });
        times.push(ms);
    }
    let first = times[0];
    times.sort_by(f64::total_cmp);
    // The tree's quality, to compare builds: the sum of its nodes' volumes,
    // and a digest of their bits (equal digests, equal trees).
    let (volumes, digest) = match kind {
        "rss" => tree_summary(&Bvh::<f64, Rss<f64>>::build(mesh.clone(), &o).unwrap()),
        "sah" => tree_summary(&Bvh::<f32, Aabb<f32>>::build(mesh32, &BuildOptions::sah()).unwrap()),
        _ => tree_summary(&Bvh::<f64, Obb<f64>>::build(mesh.clone(), &o).unwrap()),
    };
    println!("node volumes sum to {volumes:.9}, digest {digest:016x}");
    println!(
        "{kind} {} triangles: fastest {:.2} ms, median {:.2} ms, first {first:.2} ms",
        mesh.indices().len(),
        times[0],
        times[times.len() / 2]
    );
}
