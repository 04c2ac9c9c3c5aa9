//! Load-time profiling aid: builds an OBB, RSS or AABB tree (f64) of a
//! mesh, or of the generated 1M-triangle ellipsoid, saves its bytes, then
//! loads them over and over on one thread and prints the fastest and
//! median load times against the build time.
//!
//! `cargo run --release -p clash-bvh --example load_profile [MESH.stl|ellipsoid] [obb|rss|aabb] [REPEATS]`

use clash_bv::{Aabb, BoundingVolume, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, TriMesh};
use clash_math::{Point3, Triangle};
use std::time::Instant;

#[path = "common/stl.rs"]
mod stl;

/// The benches' generated ellipsoid (`rings * segments * 2` triangles).
fn ellipsoid(rings: usize, segments: usize) -> TriMesh<f64> {
    let rot = clash_math::Rotation3::from_euler_angles(0.3_f32, 0.5, 0.7);
    let v = |i: usize, j: usize| {
        let th = std::f32::consts::PI * i as f32 / rings as f32;
        let ph = 2.0 * std::f32::consts::PI * j as f32 / segments as f32;
        let p = rot
            * Point3::new(
                2.0 * th.sin() * ph.cos(),
                th.sin() * ph.sin(),
                0.5 * th.cos(),
            );
        Point3::new(p.x as f64, p.y as f64, p.z as f64)
    };
    let mut tris = Vec::with_capacity(2 * rings * segments);
    for i in 0..rings {
        for j in 0..segments {
            let (a, b, c, d) = (v(i, j), v(i + 1, j), v(i + 1, j + 1), v(i, j + 1));
            tris.push(Triangle::new(a, b, c));
            tris.push(Triangle::new(a, c, d));
        }
    }
    TriMesh::from_triangles(&tris).unwrap().welded(0.0)
}

fn run<B: BoundingVolume<f64>>(mesh: TriMesh<f64>, repeats: usize) {
    let t = Instant::now();
    let tree = Bvh::<f64, B>::build(mesh, &BuildOptions::default()).expect("tree builds");
    let build = t.elapsed().as_secs_f64() * 1e3;
    let bytes = tree.to_bytes();
    let mut times: Vec<f64> = (0..repeats)
        .map(|_| {
            let t = Instant::now();
            let loaded = Bvh::<f64, B>::from_bytes(&bytes).expect("tree loads");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            assert!(loaded == tree);
            ms
        })
        .collect();
    times.sort_by(f64::total_cmp);
    println!(
        "{} {} triangles, {:.1} MB: build {build:.2} ms; load fastest {:.2} ms, median {:.2} ms",
        B::NAME,
        tree.mesh().num_triangles(),
        bytes.len() as f64 / 1e6,
        times[0],
        times[times.len() / 2]
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map_or("ellipsoid", |s| s);
    let kind = args.get(2).map_or("obb", |s| s);
    let repeats: usize = args.get(3).map_or(5, |s| s.parse().unwrap());
    let mesh = if path == "ellipsoid" {
        ellipsoid(500, 1000)
    } else {
        stl::read_binary_stl(path).expect("a binary STL mesh")
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| match kind {
        "rss" => run::<Rss<f64>>(mesh, repeats),
        "aabb" => run::<Aabb<f64>>(mesh, repeats),
        _ => run::<Obb<f64>>(mesh, repeats),
    });
}
