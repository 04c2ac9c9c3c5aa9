//! Load-time profiling aid: builds an OBB, RSS or AABB tree (f64) of a
//! mesh, or of the generated 1M-triangle ellipsoid, saves it (as bytes and
//! as a file), then loads it over and over on `THREADS` threads (default 1),
//! from the bytes (`from_bytes`) and from the file (`load`), and prints the
//! fastest and median load times against the build time (first build, on
//! the same threads), and the fastest `to_bytes` and `save`.
//!
//! `cargo run --release -p clash-benches --example load_profile [MESH.stl|ellipsoid] [obb|rss|aabb] [REPEATS] [THREADS]`

use clash_bv::{Aabb, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
use std::time::Instant;

#[path = "common/ellipsoid.rs"]
mod ellipsoid;
#[path = "../../crates/clash-bvh/examples/common/stl.rs"]
mod stl;

use ellipsoid::ellipsoid;

fn run<B: TreeVolume<f64>>(mesh: TriMesh<f64>, repeats: usize) {
    let t = Instant::now();
    let tree = Bvh::<f64, B>::build(mesh, &BuildOptions::default()).expect("tree builds");
    let build = t.elapsed().as_secs_f64() * 1e3;
    let path = std::env::temp_dir().join(format!("load_profile-{}.clash", std::process::id()));
    // Fastest of `repeats` calls of `write`, in ms.
    let fastest = |write: &dyn Fn()| {
        (0..repeats)
            .map(|_| {
                let t = Instant::now();
                write();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    };
    let to_bytes = fastest(&|| drop(std::hint::black_box(tree.to_bytes())));
    let save = fastest(&|| tree.save(&path).expect("tree saves"));
    let bytes = tree.to_bytes();
    // Fastest and median of `repeats` loads by `load`.
    let time = |load: &dyn Fn() -> Bvh<f64, B>| {
        let mut times: Vec<f64> = (0..repeats)
            .map(|_| {
                let t = Instant::now();
                let loaded = load();
                let ms = t.elapsed().as_secs_f64() * 1e3;
                assert!(loaded == tree);
                ms
            })
            .collect();
        times.sort_by(f64::total_cmp);
        (times[0], times[times.len() / 2])
    };
    let memory = time(&|| Bvh::<f64, B>::from_bytes(&bytes).expect("tree loads"));
    let file = time(&|| Bvh::<f64, B>::load(&path).expect("tree loads"));
    let _ = std::fs::remove_file(&path);
    println!(
        "{} {} triangles, {:.1} MB, {} thread(s): build {build:.2} ms; to_bytes fastest {to_bytes:.2} ms, save fastest {save:.2} ms; from_bytes fastest {:.2} ms, median {:.2} ms; load (file) fastest {:.2} ms, median {:.2} ms",
        B::NAME,
        tree.mesh().num_triangles(),
        bytes.len() as f64 / 1e6,
        rayon::current_num_threads(),
        memory.0,
        memory.1,
        file.0,
        file.1,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("ellipsoid", |s| s);
    let kind = args.get(2).map_or("obb", |s| s);
    let repeats: usize = args.get(3).map_or(5, |s| s.parse().unwrap());
    let threads: usize = args.get(4).map_or(1, |s| s.parse().unwrap());
    let mesh = if path == "ellipsoid" {
        ellipsoid(500, 1000)
    } else {
        stl::read_binary_stl(path).expect("a binary STL mesh")
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| match kind {
        "rss" => run::<Rss<f64>>(mesh, repeats),
        "aabb" => run::<Aabb<f64>>(mesh, repeats),
        _ => run::<Obb<f64>>(mesh, repeats),
    });
}
