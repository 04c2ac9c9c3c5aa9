//! Steps of the broad-phase benchmark's scene (`benches/broad.rs`) for one
//! broad phase, for instruction counts under callgrind: the first `warm`
//! steps are not counted, the next `steps` run inside `measured`.
//!
//! ```text
//! cargo bench -p clash-benches --bench broad_count --no-run   # prints the binary's path
//! valgrind --tool=callgrind --toggle-collect='broad_count::measured*' \
//!     target/release/deps/broad_count-<hash> clash32 10000 100 200
//! ```
//!
//! (`cargo bench -p clash-benches --bench broad_count -- clash32 10000 100 200`
//! runs it without callgrind.)
//!
//! Engines: `clash32`, `clash64` (the dynamic tree), `parry` (parry3d's
//! `Bvh`). The clash tree runs on a 1-thread rayon pool unless `THREADS` says
//! otherwise. Prints the pairs of the last step, the wall time per step and the
//! CPU time per step (all threads).
#[path = "common/broad_worlds.rs"]
mod broad_worlds;

use broad_worlds::{ClashWorld, MARGIN, Scene, parry::ParryWorld};
use clash_broad::DynamicTree;
use std::time::Instant;

/// CPU time of this process in nanoseconds (all threads, from
/// `/proc/self/task/*/schedstat`; 0 where that is unavailable): unlike wall
/// time it leaves out the time spent waiting for a CPU on a busy machine.
fn cpu_ns() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// The counted steps.
#[inline(never)]
fn measured(steps: usize, step: &mut dyn FnMut() -> usize) -> usize {
    let mut last = 0;
    for _ in 0..steps {
        last = step();
    }
    last
}

fn main() {
    // `cargo bench` passes `--bench`: skip flags.
    let args: Vec<String> = std::env::args().filter(|a| !a.starts_with("--")).collect();
    let engine = args.get(1).map_or("clash32", String::as_str).to_owned();
    let n: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let warm: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(100);
    let steps: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(200);
    let threads: usize = std::env::var("THREADS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("thread pool");
    let scene = Scene::new(n, 1);
    let mut step: Box<dyn FnMut() -> usize + Send> = match engine.as_str() {
        "clash32" => {
            let mut w = ClashWorld::<f32, _>::new(
                scene,
                DynamicTree::<f32, u32>::new(MARGIN as f32).unwrap(),
            );
            Box::new(move || w.step())
        }
        "clash64" => {
            let mut w =
                ClashWorld::<f64, _>::new(scene, DynamicTree::<f64, u32>::new(MARGIN).unwrap());
            Box::new(move || w.step())
        }
        "parry" => {
            let mut w = ParryWorld::new(scene);
            Box::new(move || w.step())
        }
        e => panic!("unknown engine {e}: clash32, clash64 or parry"),
    };
    pool.install(|| {
        measured(0, &mut *step);
        for _ in 0..warm {
            step();
        }
        let (t, c) = (Instant::now(), cpu_ns());
        let pairs = measured(steps, &mut *step);
        let per = |x: f64| x / steps.max(1) as f64 * 1e3;
        let dt = per(t.elapsed().as_secs_f64());
        let dc = per((cpu_ns() - c) as f64 * 1e-9);
        println!(
            "{engine} n {n} threads {threads}: {steps} steps after {warm}: {dt:.3} ms per step (cpu {dc:.3} ms, all threads), {pairs} pairs"
        );
    });
}
