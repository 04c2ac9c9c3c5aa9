//! Broad phase per step: update every moving box, then enumerate all
//! overlapping pairs (exact on the tight boxes), for clash-broad's dynamic
//! tree and sort-and-sweep against parry3d 0.31's `Bvh` (updated
//! incrementally with a margin, refit, incrementally optimised, traversed
//! against itself) and the bvh crate 0.13 (rebuilt, then one box query per object).
//!
//! `cargo bench -p clash-benches --bench broad -- --warm-up-time 1 --measurement-time 3`
//!
//! `clash_tree` runs on rayon's global pool (one thread per CPU),
//! `clash_tree_1t` and `clash_tree_2t` on pools of one and two threads;
//! parry3d is single-threaded. With `BROAD_CPU_TIME=1` the single-threaded
//! runs (`clash_tree_1t`, `parry3d_bvh`) report their thread's CPU time.
//!
//! `broad_churn/{n}` replaces a tenth of `n` boxes at rest each step
//! (`remove`, then `insert` at a random place) in clash's tree and parry3d's
//! `Bvh` (by `insert`, and by `insert_or_update_partially` plus one `refit`:
//! `parry3d_bvh_partial`), alone (`churn`) and followed by the pair search
//! (`churn_pairs`); clash runs on a pool of one thread, and with
//! `BROAD_CPU_TIME=1` every churn run reports its thread's CPU time.
//!
//! Before the timings it prints the tree quality after 1,000 steps: the sum
//! of internal node areas over that of a fresh SAH rebuild of the same boxes.
#[path = "common/broad_churn.rs"]
mod broad_churn;
#[path = "common/broad_worlds.rs"]
mod broad_worlds;

use broad_churn::{ClashChurn, parry::ParryChurn};
use broad_worlds::{ClashWorld, MARGIN, Scene, parry, svenstaro};
use clash_broad::{DynamicTree, SortAndSweep};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::{Duration, Instant};

// ---------------------------------------------------------------- runs

/// `BROAD_CPU_TIME=1`: the single-threaded runs (`clash_tree_1t`,
/// `parry3d_bvh`) report the CPU time of their thread rather than wall time,
/// which on a machine shared with other jobs leaves out the time the thread
/// waited for a CPU (not the effect of the others on the caches).
fn cpu_time_wanted() -> bool {
    std::env::var("BROAD_CPU_TIME").is_ok_and(|v| v == "1")
}

/// CPU time of the calling thread (Linux: `/proc/thread-self/schedstat`).
fn thread_cpu() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(Duration::from_nanos(
        s.split_whitespace().next()?.parse().ok()?,
    ))
}

/// Runs `step` `iters` times; the wall time, or the thread's CPU time when
/// `cpu` (falling back to wall time where it is not available).
fn timed(cpu: bool, iters: u64, step: &mut dyn FnMut() -> usize) -> Duration {
    let c0 = if cpu { thread_cpu() } else { None };
    let t = Instant::now();
    for _ in 0..iters {
        black_box(step());
    }
    let wall = t.elapsed();
    match (c0, c0.and_then(|_| thread_cpu())) {
        (Some(c0), Some(c1)) => c1 - c0,
        _ => wall,
    }
}

fn quality_report() {
    for (n, steps) in [(10_000usize, 1000usize), (100_000, 200)] {
        let mut w = ClashWorld::<f32, _>::new(
            Scene::new(n, 7),
            DynamicTree::<f32, u32>::new(MARGIN as f32).unwrap(),
        );
        for _ in 0..steps {
            w.step();
        }
        let mut fresh = w.bp.clone();
        fresh.rebuild();
        let ratio = w.bp.total_internal_area() / fresh.total_internal_area();
        eprintln!(
            "tree quality, {n} boxes after {steps} steps: internal area / fresh SAH rebuild = {ratio:.4} (height {} vs {})",
            w.bp.height(),
            fresh.height()
        );
    }
}

fn broad(c: &mut Criterion) {
    quality_report();
    for n in [10_000usize, 100_000] {
        let mut g = c.benchmark_group(format!("broad_step/{n}"));
        g.sample_size(10);
        // Same scene and same answer for everyone (checked once here).
        let mut tree32 = ClashWorld::<f32, _>::new(
            Scene::new(n, 1),
            DynamicTree::<f32, u32>::new(MARGIN as f32).unwrap(),
        );
        let mut tree64 = ClashWorld::<f64, _>::new(
            Scene::new(n, 1),
            DynamicTree::<f64, u32>::new(MARGIN).unwrap(),
        );
        // Same margin, fat boxes stretched 8 (not 2) displacements ahead: fewer re-insertions.
        let mut tree32_p8 = ClashWorld::<f32, _>::new(
            Scene::new(n, 1),
            DynamicTree::<f32, u32>::with_prediction(MARGIN as f32, 8.0).unwrap(),
        );
        let mut sap32 =
            ClashWorld::<f32, _>::new(Scene::new(n, 1), SortAndSweep::<f32, u32>::new());
        let mut sap64 =
            ClashWorld::<f64, _>::new(Scene::new(n, 1), SortAndSweep::<f64, u32>::new());
        let mut parry = parry::ParryWorld::new(Scene::new(n, 1));
        let mut bvh32 = svenstaro::BvhWorld::<f32>::new(Scene::new(n, 1));
        let mut bvh64 = svenstaro::BvhWorld::<f64>::new(Scene::new(n, 1));
        let counts = [
            tree32.step(),
            tree64.step(),
            sap32.step(),
            sap64.step(),
            parry.step(),
            bvh32.step(),
            bvh64.step(),
            tree32_p8.step(),
        ];
        eprintln!(
            "{n} boxes: pairs per step (tree32, tree64, sap32, sap64, parry, bvh32, bvh64, tree32_p8) = {counts:?}"
        );
        // f32 and f64 may differ on boxes that touch within rounding.
        let (c32, c64) = (
            [counts[0], counts[2], counts[4], counts[5], counts[7]],
            [counts[1], counts[3], counts[6]],
        );
        assert!(
            c32.iter().all(|&c| c == c32[0]) && c64.iter().all(|&c| c == c64[0]),
            "same scene, same pairs"
        );
        g.bench_function(BenchmarkId::new("clash_tree", "f32"), |b| {
            b.iter(|| black_box(tree32.step()))
        });
        g.bench_function(BenchmarkId::new("clash_tree", "f64"), |b| {
            b.iter(|| black_box(tree64.step()))
        });
        // The same worlds on a pool of one thread, and of two (parry3d's
        // `Bvh` runs on the calling thread; clash's tree uses rayon: the
        // global pool above has one thread per CPU). Timed inside the pool,
        // so entering it is not counted.
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("thread pool");
            // On one thread the CPU time of that thread can be measured
            // instead (`BROAD_CPU_TIME=1`), as for parry3d below.
            let cpu = threads == 1 && cpu_time_wanted();
            let on_pool = |b: &mut criterion::Bencher, step: &mut (dyn FnMut() -> usize + Send)| {
                b.iter_custom(|iters| pool.install(|| timed(cpu, iters, &mut *step)))
            };
            g.bench_function(
                BenchmarkId::new(format!("clash_tree_{threads}t"), "f32"),
                |b| on_pool(b, &mut || tree32.step()),
            );
            g.bench_function(
                BenchmarkId::new(format!("clash_tree_{threads}t"), "f64"),
                |b| on_pool(b, &mut || tree64.step()),
            );
        }
        g.bench_function(BenchmarkId::new("clash_tree_p8", "f32"), |b| {
            b.iter(|| black_box(tree32_p8.step()))
        });
        g.bench_function(BenchmarkId::new("parry3d_bvh", "f32"), |b| {
            let cpu = cpu_time_wanted();
            b.iter_custom(|iters| timed(cpu, iters, &mut || parry.step()))
        });
        g.bench_function(BenchmarkId::new("clash_sap", "f32"), |b| {
            b.iter(|| black_box(sap32.step()))
        });
        g.bench_function(BenchmarkId::new("clash_sap", "f64"), |b| {
            b.iter(|| black_box(sap64.step()))
        });
        g.bench_function(BenchmarkId::new("bvh_rebuild", "f32"), |b| {
            b.iter(|| black_box(bvh32.step()))
        });
        g.bench_function(BenchmarkId::new("bvh_rebuild", "f64"), |b| {
            b.iter(|| black_box(bvh64.step()))
        });
        g.finish();
    }
}

/// Fraction of the objects replaced per step of the churn benchmark.
const CHURN_FRACTION: f64 = 0.1;

fn churn(c: &mut Criterion) {
    // Every run here is on one thread (clash's on a pool of one).
    let cpu = cpu_time_wanted();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("thread pool");
    for n in [10_000usize, 100_000] {
        let mut g = c.benchmark_group(format!("broad_churn/{n}"));
        g.sample_size(10);
        // Same changes, same pairs (checked over a few steps here).
        {
            let mut clash = ClashChurn::new(n, CHURN_FRACTION, 3);
            let mut full = ParryChurn::new(n, CHURN_FRACTION, 3, false);
            let mut partial = ParryChurn::new(n, CHURN_FRACTION, 3, true);
            for _ in 0..3 {
                clash.churn();
                full.churn();
                partial.churn();
                let counts = [clash.pairs(), full.pairs(), partial.pairs()];
                let expect = clash.position_pairs();
                assert!(
                    full.position_pairs() == expect && partial.position_pairs() == expect,
                    "same churn, same pairs: {counts:?}"
                );
                clash.tree.validate().unwrap();
            }
            eprintln!(
                "{n} boxes, {} replaced per step: pairs after 3 steps (clash, parry, parry partial) = {:?}",
                (n as f64 * CHURN_FRACTION) as usize,
                [clash.pairs(), full.pairs(), partial.pairs()]
            );
        }
        let mut clash = ClashChurn::new(n, CHURN_FRACTION, 3);
        let mut full = ParryChurn::new(n, CHURN_FRACTION, 3, false);
        let mut partial = ParryChurn::new(n, CHURN_FRACTION, 3, true);
        g.bench_function(BenchmarkId::new("clash_tree_1t", "churn"), |b| {
            b.iter_custom(|iters| pool.install(|| timed(cpu, iters, &mut || clash.churn())))
        });
        g.bench_function(BenchmarkId::new("parry3d_bvh", "churn"), |b| {
            b.iter_custom(|iters| timed(cpu, iters, &mut || full.churn()))
        });
        g.bench_function(BenchmarkId::new("parry3d_bvh_partial", "churn"), |b| {
            b.iter_custom(|iters| timed(cpu, iters, &mut || partial.churn()))
        });
        g.bench_function(BenchmarkId::new("clash_tree_1t", "churn_pairs"), |b| {
            b.iter_custom(|iters| {
                pool.install(|| timed(cpu, iters, &mut || clash.churn() + clash.pairs()))
            })
        });
        g.bench_function(BenchmarkId::new("parry3d_bvh", "churn_pairs"), |b| {
            b.iter_custom(|iters| timed(cpu, iters, &mut || full.churn() + full.pairs()))
        });
        g.bench_function(
            BenchmarkId::new("parry3d_bvh_partial", "churn_pairs"),
            |b| b.iter_custom(|iters| timed(cpu, iters, &mut || partial.churn() + partial.pairs())),
        );
        g.finish();
    }
}

criterion_group!(benches, churn, broad);
criterion_main!(benches);
