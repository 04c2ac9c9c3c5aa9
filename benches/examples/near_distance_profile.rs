//! Mesh distance on a pose file, looped, for profilers (`perf record`,
//! `perf stat`, callgrind): the tree `clash distance` builds by default
//! (RSS, binned-SAH splits, f64) or an OBB one, one thread; prints the time
//! per query (reading and building excluded) and the sum of the distances.
//!
//! ```sh
//! cargo run --release -p clash-benches --example near_distance_profile -- \
//!     A.stl B.stl POSES.txt [ROUNDS] [rss|obb]
//! ```
//!
//! The pose file is `benches/compare`'s format (one row-major 3x4 matrix per
//! line; `near_compare.py` writes them at given gaps).

use clash_bv::{Obb, RelativePose, Rss};
use clash_bvh::{BuildOptions, Bvh, SplitRule, TreeVolume, TriMesh};
use clash_math::{Matrix3, Vector3};
use std::hint::black_box;
use std::time::Instant;

#[path = "../../crates/clash-bvh/examples/common/stl.rs"]
mod stl;

fn read_poses(path: &str) -> Vec<RelativePose<f64>> {
    std::fs::read_to_string(path)
        .expect("a pose file")
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let v: Vec<f64> = l
                .split_whitespace()
                .map(|x| x.parse().expect("a number"))
                .collect();
            assert_eq!(v.len(), 12, "12 numbers per pose line");
            RelativePose::from_matrix(
                Matrix3::new(v[0], v[1], v[2], v[4], v[5], v[6], v[8], v[9], v[10]),
                Vector3::new(v[3], v[7], v[11]),
            )
        })
        .collect()
}

fn run<B: TreeVolume<f64>>(
    a: TriMesh<f64>,
    b: TriMesh<f64>,
    poses: &[RelativePose<f64>],
    rounds: usize,
) {
    let options = BuildOptions::default().with_split(SplitRule::Sah { bins: 16 });
    let ta = Bvh::<f64, B>::build(a, &options).expect("tree A builds");
    let tb = Bvh::<f64, B>::build(b, &options).expect("tree B builds");
    let sum: f64 = poses.iter().map(|p| ta.distance(&tb, *p).distance).sum();
    let start = Instant::now();
    for _ in 0..rounds {
        for p in poses {
            black_box(ta.distance(&tb, *p));
        }
    }
    let n = rounds * poses.len();
    println!(
        "{}: {n} queries, {:.1} us per query, distance sum {sum:.17e}",
        B::NAME,
        start.elapsed().as_secs_f64() * 1e6 / n as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: near_distance_profile A.stl B.stl POSES.txt [ROUNDS] [rss|obb]");
        std::process::exit(2);
    }
    let a = stl::read_binary_stl(&args[1]).expect("mesh A");
    let b = stl::read_binary_stl(&args[2]).expect("mesh B");
    let poses = read_poses(&args[3]);
    let rounds = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(10);
    match args.get(5).map_or("rss", |s| s.as_str()) {
        "obb" => run::<Obb<f64>>(a, b, &poses, rounds),
        _ => run::<Rss<f64>>(a, b, &poses, rounds),
    }
}
