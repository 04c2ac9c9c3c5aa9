//! The pair search and the tree do not depend on the number of threads:
//! the same world, stepped on pools of one, two and three threads, gives
//! the same pairs (equal to a sweep on the tight boxes), the same binary
//! tree and the same traversal copy after every step, and validates. The
//! moves go to one tree by `update`, one by one, and to a twin by
//! `update_many` in one batch: the two stay identical.
//!
//! The steps move chosen numbers of objects so that every parallel path
//! runs: the first search (the traversal), the copy of the tree, box
//! queries on the tree (after re-insertions) and on the kept copy, the
//! traversal against itself, the refit of many loose nodes and the filter
//! of many fat pairs. `CLASH_BROAD_THREADS_N` sets the object
//! count (20,000 by default, the least that reaches the parallel queries on
//! the tree).
use crate::{DynamicTree, ProxyPair, ProxyUpdate};
use clash_bv::Aabb;
use clash_math::{Point3, Vector3};
use rand::{RngExt, SeedableRng};

/// A binary node: its box, parent, children, height and proxy.
type NodeRecord = ([f64; 6], u32, [u32; 2], u32, u32);

type Snapshot = (
    Vec<ProxyPair>,
    Vec<NodeRecord>,
    Vec<super::pair_tree::Node4>,
);

/// The binary tree's nodes, comparable as plain values.
fn binary_nodes(tree: &DynamicTree<f64, usize>) -> Vec<NodeRecord> {
    tree.nodes
        .iter()
        .map(|m| {
            let b = &m.aabb;
            let a = [b.min.x, b.min.y, b.min.z, b.max.x, b.max.y, b.max.z];
            (a, m.parent, m.child, m.height, m.proxy)
        })
        .collect()
}

fn boxed(c: [f64; 3], h: f64) -> Aabb<f64> {
    Aabb {
        min: Point3::new(c[0] - h, c[1] - h, c[2] - h),
        max: Point3::new(c[0] + h, c[1] + h, c[2] + h),
    }
}

/// Every overlapping pair of `boxes` (by index), sorted: a sweep along x.
fn sweep_pairs(boxes: &[Aabb<f64>]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..boxes.len()).collect();
    order.sort_by(|&a, &b| boxes[a].min.x.total_cmp(&boxes[b].min.x).then(a.cmp(&b)));
    let mut out = Vec::new();
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if boxes[j].min.x > boxes[i].max.x {
                break;
            }
            if (0..3)
                .all(|a| boxes[i].min[a] <= boxes[j].max[a] && boxes[j].min[a] <= boxes[i].max[a])
            {
                out.push((i.min(j), i.max(j)));
            }
        }
    }
    out.sort_unstable();
    out
}

/// Steps the world of `n` boxes; after each step, the pairs, the binary
/// tree's nodes and the copy's nodes. Pairs are checked against the sweep
/// and the tree validated on the way.
fn run(n: usize) -> Vec<Snapshot> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(36);
    let side = 2.0 * (n as f64).cbrt();
    let mut centre: Vec<[f64; 3]> = (0..n)
        .map(|_| [0; 3].map(|_| rng.random_range(0.0..side)))
        .collect();
    // Large enough boxes that the fat pairs fill many chunks of the filter.
    let half: Vec<f64> = (0..n).map(|_| rng.random_range(0.3..1.0)).collect();
    let mut tree = DynamicTree::<f64, usize>::new(0.1).unwrap();
    let handles: Vec<_> = (0..n)
        .map(|i| tree.insert(boxed(centre[i], half[i]), i).unwrap())
        .collect();
    let mut twin = tree.clone();
    let mut out = Vec::new();
    let mut snapshots = Vec::new();
    // Objects moved per step (to a new place: each leaves its fat box).
    for moved in [0, n * 3 / 100, n / 10, n / 10, n * 3 / 100, n / 2, n] {
        // Each object moved at most once per step, in the order first picked.
        let mut picked = vec![false; n];
        let mut batch = Vec::new();
        for _ in 0..moved {
            let i = rng.random_range(0..n);
            centre[i] = [0; 3].map(|_| rng.random_range(0.0..side));
            if !std::mem::replace(&mut picked[i], true) {
                batch.push(i);
            }
        }
        let updates: Vec<_> = batch
            .iter()
            .map(|&i| ProxyUpdate {
                handle: handles[i],
                aabb: boxed(centre[i], half[i]),
                displacement: Vector3::zeros(),
            })
            .collect();
        let mut changed = 0;
        for u in &updates {
            changed += usize::from(tree.update(u.handle, u.aabb, u.displacement).unwrap());
        }
        assert_eq!(twin.update_many(&updates), Ok(changed), "{moved} moved");
        tree.overlapping_pairs(&mut out);
        let mut twin_pairs = Vec::new();
        twin.overlapping_pairs(&mut twin_pairs);
        assert_eq!(twin_pairs, out, "{moved} moved");
        let boxes: Vec<_> = (0..n).map(|i| boxed(centre[i], half[i])).collect();
        let expect: Vec<ProxyPair> = sweep_pairs(&boxes)
            .into_iter()
            .map(|(i, j)| ProxyPair::new(handles[i], handles[j]))
            .collect();
        assert_eq!(out, expect, "{moved} moved");
        tree.validate().unwrap();
        let (nodes, twin_nodes) = (binary_nodes(&tree), binary_nodes(&twin));
        assert!(
            twin_nodes == nodes,
            "{moved} moved: the twin's tree differs"
        );
        assert!(twin.pair_tree.nodes == tree.pair_tree.nodes);
        snapshots.push((out.clone(), nodes, tree.pair_tree.nodes.clone()));
    }
    snapshots
}

#[test]
fn pairs_and_tree_do_not_depend_on_the_thread_count() {
    let n = std::env::var("CLASH_BROAD_THREADS_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000);
    let on = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run(n))
    };
    let one = on(1);
    assert!(one.iter().all(|s| !s.0.is_empty() && !s.2.is_empty()));
    for threads in [2, 3] {
        let other = on(threads);
        for (step, (a, b)) in one.iter().zip(&other).enumerate() {
            assert!(a == b, "step {step}: 1 and {threads} threads differ");
        }
    }
}
