//! The pair search of the dynamic tree: kept pairs of unchanged objects,
//! one query per changed object on the tree when few changed, on the
//! tree's compact `f32` copy when more did, and a traversal of the copy
//! against itself (skipping unchanged subtrees) when many did, cut into
//! parallel tasks for large trees. Every path must
//! give exactly the brute-force pairs, on any number of threads, in `f32`
//! and in `f64` (whose copy is rounded outward), also for coordinates far
//! beyond the range and the precision of `f32`.
use clash_broad::{DynamicTree, PairTracker, ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

use crate::common;
use common::brute_pairs;

fn boxed<T: Scalar>(c: [f64; 3], h: [f64; 3]) -> Aabb<T> {
    Aabb {
        min: Point3::new(
            T::lit(c[0] - h[0]),
            T::lit(c[1] - h[1]),
            T::lit(c[2] - h[2]),
        ),
        max: Point3::new(
            T::lit(c[0] + h[0]),
            T::lit(c[1] + h[1]),
            T::lit(c[2] + h[2]),
        ),
    }
}

/// Per step, the pairs and the started and stopped pairs.
type Trace = Vec<(Vec<ProxyPair>, Vec<ProxyPair>, Vec<ProxyPair>)>;

/// One step of a [`Trace`]: the tracker's pairs, started and stopped pairs.
fn snapshot(tracker: &PairTracker) -> (Vec<ProxyPair>, Vec<ProxyPair>, Vec<ProxyPair>) {
    (
        tracker.pairs().to_vec(),
        tracker.started().to_vec(),
        tracker.stopped().to_vec(),
    )
}

/// Each step, a share `moved` of the objects jumps far enough to leave its
/// fat box (so exactly that share changes), and every tenth step all of
/// them do; pairs are compared with brute force after every step.
fn run<T: Scalar>(objects: usize, moved: f64, steps: usize, seed: u64) -> Trace {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = 2.0 * (objects as f64).cbrt();
    let mut tree = DynamicTree::<T, usize>::new(T::lit(0.02)).unwrap();
    let mut bodies: Vec<(ProxyHandle, [f64; 3], [f64; 3])> = Vec::new();
    let mut boxes = BTreeMap::new();
    for id in 0..objects {
        let c = [0; 3].map(|_| rng.random_range(0.0..side));
        let h = [0; 3].map(|_| rng.random_range(0.05..0.8));
        let handle = tree.insert(boxed(c, h), id).unwrap();
        boxes.insert(handle, boxed::<T>(c, h));
        bodies.push((handle, c, h));
    }
    let mut tracker = PairTracker::new();
    let mut trace = Vec::new();
    for step in 0..steps {
        let share = if step % 10 == 9 { 1.0 } else { moved };
        for (handle, c, h) in bodies.iter_mut() {
            if rng.random_range(0.0..1.0) >= share {
                continue;
            }
            let d = [0; 3].map(|_| rng.random_range(-0.3..0.3));
            for k in 0..3 {
                c[k] += d[k];
            }
            let b = boxed::<T>(*c, *h);
            tree.update(
                *handle,
                b,
                Vector3::new(T::lit(d[0]), T::lit(d[1]), T::lit(d[2])),
            )
            .unwrap();
            boxes.insert(*handle, b);
        }
        tracker.step(&mut tree);
        assert_eq!(
            tracker.pairs(),
            brute_pairs(&boxes).as_slice(),
            "{objects} objects, share {moved}, step {step}"
        );
        tree.validate().unwrap();
        trace.push(snapshot(&tracker));
    }
    trace
}

fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn every_share_of_changed_objects_small_tree() {
    for (i, share) in [0.0, 0.01, 0.05, 0.2, 0.6, 1.0].into_iter().enumerate() {
        run::<f32>(600, share, 12, i as u64);
        run::<f64>(600, share, 12, 10 + i as u64);
    }
}

/// Above 4,096 objects the traversal is cut into tasks run in parallel:
/// the answers, and their order, are those of one thread.
#[test]
fn every_share_of_changed_objects_parallel_tasks_any_thread_count() {
    for (i, share) in [0.002, 0.05, 0.2, 0.3, 1.0].into_iter().enumerate() {
        let one = in_pool(1, || run::<f32>(5000, share, 6, 20 + i as u64));
        let three = in_pool(3, || run::<f32>(5000, share, 6, 20 + i as u64));
        assert!(
            one == three,
            "share {share}: thread count changed the answers"
        );
    }
    let one = in_pool(1, || run::<f64>(5000, 0.3, 4, 30));
    let two = in_pool(2, || run::<f64>(5000, 0.3, 4, 30));
    assert!(one == two, "f64: thread count changed the answers");
}

/// An `f64` tree is searched on an `f32` copy rounded outward. Boxes whose
/// coordinates overflow `f32`, or lie closer than an `f32` step apart,
/// become candidates in the copy; the exact `f64` check decides. Touching
/// boxes overlap, boxes one `f64` step apart do not.
#[test]
fn f64_coordinates_beyond_f32_range_and_precision() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for scale in [1e-300, 1e-40, 1e-20, 1.0, 1e20, 1e38, 1e39, 1e150, 1e300] {
        for zero_margin in [false, true] {
            let margin = if zero_margin { 0.0 } else { scale * 1e-3 };
            let mut tree = DynamicTree::<f64, usize>::new(margin).unwrap();
            let mut boxes = BTreeMap::new();
            let mut put = |tree: &mut DynamicTree<f64, usize>, lo: [f64; 3], hi: [f64; 3]| {
                let b = Aabb {
                    min: Point3::from(lo),
                    max: Point3::from(hi),
                };
                let h = tree.insert(b, boxes.len()).unwrap();
                boxes.insert(h, b);
                h
            };
            // A row of unit boxes (scaled): neighbours touch exactly, or
            // are one f64 step apart, or overlap by one step.
            let mut x = 0.0f64;
            for i in 0..40 {
                let lo = [x, 0.0, 0.0];
                let hi = [x + scale, scale, scale];
                put(&mut tree, lo, hi);
                x = match i % 3 {
                    0 => hi[0],
                    1 => hi[0].next_up(),
                    _ => hi[0].next_down(),
                };
            }
            // Random boxes around the same scale, signs mixed.
            for _ in 0..200 {
                let c = [0; 3].map(|_| rng.random_range(-20.0..20.0) * scale);
                let h = [0; 3].map(|_| rng.random_range(0.1..2.0) * scale);
                put(
                    &mut tree,
                    [0, 1, 2].map(|k| c[k] - h[k]),
                    [0, 1, 2].map(|k| c[k] + h[k]),
                );
            }
            let mut out = Vec::new();
            tree.overlapping_pairs(&mut out);
            assert_eq!(
                out,
                brute_pairs(&boxes),
                "scale {scale:e}, margin {margin:e}"
            );
            // Move everything by a few steps of f64 (many fat boxes left,
            // the traversal path) and check again.
            let handles: Vec<_> = boxes.keys().copied().collect();
            for (i, h) in handles.iter().enumerate() {
                let b = boxes[h];
                let shift = if i % 2 == 0 {
                    scale * 0.25
                } else {
                    -scale * 0.25
                };
                let moved = Aabb {
                    min: b.min + Vector3::new(shift, 0.0, 0.0),
                    max: b.max + Vector3::new(shift, 0.0, 0.0),
                };
                tree.update(*h, moved, Vector3::new(shift, 0.0, 0.0))
                    .unwrap();
                boxes.insert(*h, moved);
            }
            tree.overlapping_pairs(&mut out);
            assert_eq!(out, brute_pairs(&boxes), "scale {scale:e} after moves");
            tree.validate().unwrap();
        }
    }
}

/// Per step, a share `moved` of the objects makes a small move (some stay
/// within their fat boxes), a few teleport, a few are removed, some of them
/// put back at once (often into the slot just freed, under a new handle),
/// and new objects arrive. Kept pairs must drop every pair of a removed
/// object, even when its slot is reused in the same step; pairs, started
/// and stopped pairs are compared with brute force after every step, and
/// the pair lists must be strictly sorted.
fn churn<T: Scalar>(objects: usize, moved: f64, steps: usize, seed: u64) -> Trace {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = 2.0 * (objects as f64).cbrt();
    let mut tree = DynamicTree::<T, usize>::new(T::lit(0.05)).unwrap();
    let mut bodies: Vec<(ProxyHandle, [f64; 3], [f64; 3])> = Vec::new();
    let mut boxes = BTreeMap::new();
    let mut next_id = 0;
    let mut add = |tree: &mut DynamicTree<T, usize>,
                   bodies: &mut Vec<(ProxyHandle, [f64; 3], [f64; 3])>,
                   boxes: &mut BTreeMap<ProxyHandle, Aabb<T>>,
                   c: [f64; 3],
                   h: [f64; 3]| {
        let handle = tree.insert(boxed(c, h), next_id).unwrap();
        next_id += 1;
        boxes.insert(handle, boxed::<T>(c, h));
        bodies.push((handle, c, h));
    };
    for _ in 0..objects {
        let c = [0; 3].map(|_| rng.random_range(0.0..side));
        let h = [0; 3].map(|_| rng.random_range(0.05..0.8));
        add(&mut tree, &mut bodies, &mut boxes, c, h);
    }
    let mut tracker = PairTracker::new();
    let mut prev: BTreeSet<ProxyPair> = Default::default();
    let mut trace = Vec::new();
    for step in 0..steps {
        // Removals; half of the removed objects come back at once (into
        // the freed slot: the free list is last in, first out), at the same
        // place or elsewhere.
        let removals = rng.random_range(0..=objects / 20 + 1);
        for _ in 0..removals.min(bodies.len()) {
            let i = rng.random_range(0..bodies.len());
            let (handle, c, h) = bodies.swap_remove(i);
            tree.remove(handle).unwrap();
            boxes.remove(&handle);
            if rng.random_range(0.0..1.0) < 0.5 {
                let c = if rng.random_range(0.0..1.0) < 0.5 {
                    c
                } else {
                    [0; 3].map(|_| rng.random_range(0.0..side))
                };
                add(&mut tree, &mut bodies, &mut boxes, c, h);
                assert_eq!(bodies.last().unwrap().0.index(), handle.index());
            }
        }
        // Moves: small steps for a share, teleports for a few.
        for (handle, c, h) in bodies.iter_mut() {
            let r: f64 = rng.random_range(0.0..1.0);
            let d = if r < 0.01 {
                // A teleport: no displacement to predict.
                *c = [0; 3].map(|_| rng.random_range(0.0..side));
                [0.0; 3]
            } else if r < 0.01 + moved {
                let d = [0; 3].map(|_| rng.random_range(-0.1..0.1));
                for k in 0..3 {
                    c[k] += d[k];
                }
                d
            } else {
                continue;
            };
            let b = boxed::<T>(*c, *h);
            tree.update(
                *handle,
                b,
                Vector3::new(T::lit(d[0]), T::lit(d[1]), T::lit(d[2])),
            )
            .unwrap();
            boxes.insert(*handle, b);
        }
        // Arrivals keep the population near `objects` (some steps leave
        // freed slots empty).
        let target = objects - rng.random_range(0..=objects / 20);
        while bodies.len() < target {
            let c = [0; 3].map(|_| rng.random_range(0.0..side));
            let h = [0; 3].map(|_| rng.random_range(0.05..0.8));
            add(&mut tree, &mut bodies, &mut boxes, c, h);
        }
        tracker.step(&mut tree);
        let expect = brute_pairs(&boxes);
        assert_eq!(
            tracker.pairs(),
            expect.as_slice(),
            "{objects} objects, share {moved}, step {step}"
        );
        assert!(tracker.pairs().windows(2).all(|w| w[0] < w[1]));
        let cur: BTreeSet<ProxyPair> = expect.iter().copied().collect();
        let started: Vec<ProxyPair> = cur.difference(&prev).copied().collect();
        let stopped: Vec<ProxyPair> = prev.difference(&cur).copied().collect();
        assert_eq!(tracker.started(), started.as_slice(), "step {step}");
        assert_eq!(tracker.stopped(), stopped.as_slice(), "step {step}");
        prev = cur;
        tree.validate().unwrap();
        trace.push(snapshot(&tracker));
    }
    trace
}

/// The kept pairs merged with the pairs found again stay exact and sorted
/// through removals, reinsertions into freed slots and teleports, for every
/// regime of the search (few, some, many changed objects), on one thread
/// and on three.
#[test]
fn kept_pairs_across_removals_reinsertions_and_teleports() {
    for (i, share) in [0.0, 0.05, 0.2, 0.4, 1.0].into_iter().enumerate() {
        churn::<f32>(500, share, 10, 40 + i as u64);
        churn::<f64>(500, share, 10, 50 + i as u64);
    }
    for (i, share) in [0.02, 0.3, 1.0].into_iter().enumerate() {
        let one = in_pool(1, || churn::<f32>(5000, share, 4, 60 + i as u64));
        let three = in_pool(3, || churn::<f32>(5000, share, 4, 60 + i as u64));
        assert!(
            one == three,
            "share {share}: thread count changed the answers"
        );
    }
}

/// A scene with more objects than fit in cache (above the size where the
/// pair search and `settle` ask for data ahead), moving smoothly: the tree's
/// pairs equal sort-and-sweep's (exact too) after every step, through
/// re-insertions, in-place refits, rebuilds and every search regime.
#[test]
fn large_scene_equals_sort_and_sweep() {
    use clash_broad::{BroadPhase, SortAndSweep};
    let n = 40_000;
    let mut rng = ChaCha8Rng::seed_from_u64(77);
    let side = 2.0 * (n as f64).cbrt();
    let mut c: Vec<[f64; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(0.0..side)))
        .collect();
    let h: Vec<[f64; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(0.05..0.8)))
        .collect();
    let mut v: Vec<[f64; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(-0.05..0.05)))
        .collect();
    let mut tree = DynamicTree::<f32, usize>::new(0.1).unwrap();
    let mut sap = SortAndSweep::<f32, usize>::new();
    let mut handles = Vec::new();
    for i in 0..n {
        let b = boxed::<f32>(c[i], h[i]);
        handles.push((tree.insert(b, i).unwrap(), sap.insert(b, i).unwrap()));
    }
    let (mut out, mut expect) = (Vec::new(), Vec::new());
    for step in 0..12 {
        for i in 0..n {
            // A few objects stop for a while: some steps re-insert few.
            if step % 4 == 1 && i % 3 != 0 {
                continue;
            }
            for k in 0..3 {
                c[i][k] += v[i][k];
                if c[i][k] < 0.0 || c[i][k] > side {
                    v[i][k] = -v[i][k];
                }
            }
            let b = boxed::<f32>(c[i], h[i]);
            let d = Vector3::new(v[i][0] as f32, v[i][1] as f32, v[i][2] as f32);
            tree.update(handles[i].0, b, d).unwrap();
            sap.update(handles[i].1, b, d).unwrap();
        }
        tree.overlapping_pairs(&mut out);
        sap.overlapping_pairs(&mut expect);
        // Both hand out handles in insertion order, slot for slot.
        let as_ids = |p: &[clash_broad::ProxyPair], bp: &dyn Fn(ProxyHandle) -> usize| {
            p.iter().map(|q| (bp(q.a), bp(q.b))).collect::<Vec<_>>()
        };
        assert_eq!(
            as_ids(&out, &|h| *tree.data(h).unwrap()),
            as_ids(&expect, &|h| *BroadPhase::data(&sap, h).unwrap()),
            "step {step}"
        );
        tree.validate().unwrap();
    }
}
