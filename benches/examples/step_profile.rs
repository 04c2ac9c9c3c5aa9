//! Phase timings of one broad-phase step of the dynamic tree on the scene of
//! `benches/benches/broad.rs` (moving boxes bouncing in a cube).
//!
//! `cargo run --release -p clash-benches --example step_profile -- 10000 200`
//!
//! Prints wall time per phase, then CPU time per phase (all threads, from
//! `/proc`), which is steadier on a busy machine. The objects are moved by
//! one `update` call each, or in one `update_many` batch with `BATCH=1`.
//! `VERBOSE=k` prints every k-th step; `REBUILD=1` then times 100 rebuilds
//! of the final tree.
use clash_broad::{DynamicTree, ProxyHandle, ProxyPair, ProxyUpdate};
use clash_bv::Aabb;
use clash_math::{Point3, Vector3};
use rand::{RngExt, SeedableRng};
use std::time::Instant;

/// CPU time of this process in nanoseconds (all threads, from
/// `/proc/self/task/*/schedstat`; 0 where that is unavailable). Unlike wall
/// time it excludes time spent waiting for a CPU on a busy machine.
fn cpu_ns() -> u64 {
    let Ok(dir) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    dir.filter_map(|e| e.ok())
        .filter_map(|e| std::fs::read_to_string(e.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// The tight box of a scene box (centre, half-widths) in `f32`.
fn aabb(c: &[f64; 3], h: &[f64; 3]) -> Aabb<f32> {
    Aabb {
        min: Point3::new(
            (c[0] - h[0]) as f32,
            (c[1] - h[1]) as f32,
            (c[2] - h[2]) as f32,
        ),
        max: Point3::new(
            (c[0] + h[0]) as f32,
            (c[1] + h[1]) as f32,
            (c[2] + h[2]) as f32,
        ),
    }
}

// The three phases are separate functions, never inlined, so that callgrind
// can count each one alone: `valgrind --tool=callgrind
// --toggle-collect='step_profile::*'` counts all three.

/// Updates every object; returns how many left their fat boxes.
#[inline(never)]
fn update_all(
    tree: &mut DynamicTree<f32, u32>,
    handles: &[ProxyHandle],
    center: &[[f64; 3]],
    half: &[[f64; 3]],
    vel: &[[f64; 3]],
    batch: Option<&mut Vec<ProxyUpdate<f32>>>,
) -> usize {
    let displacement = |i: usize| {
        let v = vel[i];
        Vector3::new(v[0] as f32, v[1] as f32, v[2] as f32)
    };
    if let Some(updates) = batch {
        updates.clear();
        updates.extend(handles.iter().enumerate().map(|(i, &handle)| ProxyUpdate {
            handle,
            aabb: aabb(&center[i], &half[i]),
            displacement: displacement(i),
        }));
        return tree.update_many(updates).unwrap();
    }
    let mut m = 0;
    for (i, h) in handles.iter().enumerate() {
        m += usize::from(
            tree.update(*h, aabb(&center[i], &half[i]), displacement(i))
                .unwrap(),
        );
    }
    m
}

/// The tree's settle phase.
#[inline(never)]
fn settle(tree: &mut DynamicTree<f32, u32>) {
    tree.settle();
}

/// `reps` rebuilds of the tree (`REBUILD=1`), for callgrind.
#[inline(never)]
fn rebuild_many(tree: &mut DynamicTree<f32, u32>, reps: usize) {
    for _ in 0..reps {
        tree.rebuild();
    }
}

/// The pair enumeration.
#[inline(never)]
fn pairs_of(tree: &mut DynamicTree<f32, u32>, pairs: &mut Vec<ProxyPair>) {
    tree.overlapping_pairs(pairs);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let steps: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(200);
    let prediction: f32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let side = 2.0 * (n as f64).cbrt();
    let mut r3 = |lo: f64, hi: f64| {
        [
            rng.random_range(lo..hi),
            rng.random_range(lo..hi),
            rng.random_range(lo..hi),
        ]
    };
    let mut center: Vec<[f64; 3]> = (0..n).map(|_| r3(0.0, side)).collect();
    let half: Vec<[f64; 3]> = (0..n).map(|_| r3(0.05, 0.8)).collect();
    let mut vel: Vec<[f64; 3]> = (0..n).map(|_| r3(-0.05, 0.05)).collect();
    let mut tree = DynamicTree::<f32, u32>::with_prediction(0.1, prediction).unwrap();
    let handles: Vec<ProxyHandle> = (0..n)
        .map(|i| tree.insert(aabb(&center[i], &half[i]), i as u32).unwrap())
        .collect();
    let mut pairs: Vec<ProxyPair> = Vec::new();
    let one_by_one = std::env::var("BATCH").is_err();
    let mut updates = Vec::new();
    let (mut t_up, mut t_settle, mut t_pairs, mut moved, mut count) = (0.0, 0.0, 0.0, 0usize, 0);
    let mut cpu = [0u64; 3];
    // VERBOSE=k prints every k-th step (VERBOSE alone: every 10th).
    let every = std::env::var("VERBOSE")
        .ok()
        .map(|v| v.parse::<usize>().unwrap_or(10).max(1));
    for s in 0..steps {
        for (c, v) in center.iter_mut().zip(vel.iter_mut()) {
            for k in 0..3 {
                c[k] += v[k];
                if c[k] < 0.0 || c[k] > side {
                    v[k] = -v[k];
                }
            }
        }
        let c0 = cpu_ns();
        let t0 = Instant::now();
        let batch = (!one_by_one).then_some(&mut updates);
        let m = update_all(&mut tree, &handles, &center, &half, &vel, batch);
        let t1 = Instant::now();
        let c1 = cpu_ns();
        settle(&mut tree);
        let t2 = Instant::now();
        let c2 = cpu_ns();
        pairs_of(&mut tree, &mut pairs);
        let t3 = Instant::now();
        let c3 = cpu_ns();
        if every.is_some_and(|e| s % e == 0) {
            println!(
                "step {s}: moved {m} update {:.3} settle {:.3} pairs {:.3} (cpu {:.3} {:.3} {:.3})",
                (t1 - t0).as_secs_f64() * 1e3,
                (t2 - t1).as_secs_f64() * 1e3,
                (t3 - t2).as_secs_f64() * 1e3,
                (c1 - c0) as f64 * 1e-6,
                (c2 - c1) as f64 * 1e-6,
                (c3 - c2) as f64 * 1e-6,
            );
        }
        if s >= steps / 4 {
            t_up += (t1 - t0).as_secs_f64();
            t_settle += (t2 - t1).as_secs_f64();
            t_pairs += (t3 - t2).as_secs_f64();
            moved += m;
            count += 1;
            cpu[0] += c1 - c0;
            cpu[1] += c2 - c1;
            cpu[2] += c3 - c2;
        }
    }
    if std::env::var("REBUILD").is_ok() {
        // On a pool of one thread, so that callgrind sees all the work
        // under `rebuild_many`.
        let reps = 100;
        let c = cpu_ns();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("thread pool");
        pool.install(|| rebuild_many(&mut tree, reps));
        println!(
            "rebuild: {:.3} ms CPU each",
            (cpu_ns() - c) as f64 * 1e-6 / reps as f64
        );
    }
    let c = count as f64 * 1e-3;
    println!(
        "n {n} pred {prediction}: update {:.3} ms, settle {:.3} ms, pairs {:.3} ms, total {:.3} ms; moved/step {:.0}; pairs {}; quality {:.4}",
        t_up / c,
        t_settle / c,
        t_pairs / c,
        (t_up + t_settle + t_pairs) / c,
        moved as f64 / count as f64,
        pairs.len(),
        {
            let mut f = tree.clone();
            f.rebuild();
            tree.total_internal_area() / f.total_internal_area()
        }
    );
    let c = count as f64 * 1e6;
    println!(
        "cpu time (all threads): update {:.3} ms, settle {:.3} ms, pairs {:.3} ms, total {:.3} ms",
        cpu[0] as f64 / c,
        cpu[1] as f64 / c,
        cpu[2] as f64 / c,
        cpu.iter().sum::<u64>() as f64 / c
    );
}
