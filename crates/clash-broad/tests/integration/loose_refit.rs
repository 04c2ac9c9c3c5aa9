//! The state between `update` and the next `settle`: objects that left
//! their fat boxes have new fat boxes, but their leaves keep the old ones
//! (they are *stale*: queries test them apart from the tree), and their
//! re-insertion, or the refit of their ancestors, is deferred to `settle`.
//! These tests check that the tree stays valid and every answer exact in
//! that state, and across insertions, removals, teleports and steps where
//! many objects move at once, in f32 and f64.
use clash_broad::{DynamicTree, PairTracker, ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;

use crate::common;
use common::{brute_pairs, overlaps};

fn cube<T: Scalar>(c: [f64; 3], h: f64) -> Aabb<T> {
    Aabb {
        min: Point3::new(T::lit(c[0] - h), T::lit(c[1] - h), T::lit(c[2] - h)),
        max: Point3::new(T::lit(c[0] + h), T::lit(c[1] + h), T::lit(c[2] + h)),
    }
}

/// Box, point and ray queries equal brute force (no `settle` is called).
fn check_queries<T: Scalar>(
    tree: &DynamicTree<T, usize>,
    boxes: &BTreeMap<ProxyHandle, Aabb<T>>,
    rng: &mut ChaCha8Rng,
    side: f64,
) {
    let mut out = Vec::new();
    for _ in 0..5 {
        let c = [
            rng.random_range(0.0..side),
            rng.random_range(0.0..side),
            rng.random_range(0.0..side),
        ];
        let q = cube::<T>(c, rng.random_range(0.0..2.0));
        tree.query_aabb(&q, &mut out).unwrap();
        let expect: Vec<_> = boxes
            .iter()
            .filter(|(_, b)| overlaps(b, &q))
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(out, expect, "box query on a tree with loose nodes");
        let p = Point3::new(T::lit(c[0]), T::lit(c[1]), T::lit(c[2]));
        tree.query_point(&p, &mut out).unwrap();
        let expect: Vec<_> = boxes
            .iter()
            .filter(|(_, b)| (0..3).all(|k| b.min[k] <= p[k] && p[k] <= b.max[k]))
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(out, expect, "point query on a tree with loose nodes");
        // A ray along x through c: every box it crosses must be reported.
        let ray = Ray::new(
            Point3::new(T::lit(-1000.0), p.y, p.z),
            Vector3::new(T::ONE, T::ZERO, T::ZERO),
        );
        let mut hits = Vec::new();
        tree.cast_ray_all(&ray, T::INFINITY, &mut hits).unwrap();
        let mut got: Vec<_> = hits.iter().map(|h| h.handle).collect();
        got.sort();
        let expect: Vec<_> = boxes
            .iter()
            .filter(|(_, b)| (1..3).all(|k| b.min[k] <= p[k] && p[k] <= b.max[k]))
            .map(|(h, _)| *h)
            .collect();
        assert_eq!(got, expect, "ray on a tree with loose nodes");
        let closest = tree.cast_ray_closest(&ray, T::INFINITY).unwrap();
        assert_eq!(closest.map(|h| h.handle), hits.first().map(|h| h.handle));
    }
}

/// A simulation whose moves come in waves: on some steps nearly every
/// object leaves its fat box (the bulk path of `settle`), on others a share
/// `calm` does (a tenth: the bulk path too; a hundredth: re-insertion one by
/// one). Objects are inserted and removed between updates, while nodes are
/// loose, and some teleport.
fn waves<T: Scalar>(objects: usize, steps: usize, seed: u64) -> usize {
    waves_with::<T>(objects, steps, seed, 0.1)
}

fn waves_with<T: Scalar>(objects: usize, steps: usize, seed: u64, calm: f64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let side = 2.0 * (objects as f64).cbrt() + 1.0;
    let mut tree = DynamicTree::<T, usize>::new(T::lit(0.05)).unwrap();
    let mut bodies: Vec<(ProxyHandle, [f64; 3], f64)> = Vec::new();
    let mut boxes = BTreeMap::new();
    let mut tracker = PairTracker::new();
    let mut prev: Vec<ProxyPair> = Vec::new();
    let mut checked = 0;
    let new_body = |rng: &mut ChaCha8Rng, tree: &mut DynamicTree<T, usize>, id: usize| {
        let c = [
            rng.random_range(0.0..side),
            rng.random_range(0.0..side),
            rng.random_range(0.0..side),
        ];
        let h = rng.random_range(0.1..0.8);
        (tree.insert(cube(c, h), id).unwrap(), c, h)
    };
    for id in 0..objects {
        let b = new_body(&mut rng, &mut tree, id);
        boxes.insert(b.0, cube::<T>(b.1, b.2));
        bodies.push(b);
    }
    for step in 0..steps {
        // Every third step moves (almost) everything; the others a tenth.
        let share = if step % 3 == 0 { 0.95 } else { calm };
        let mut i = 0;
        while i < bodies.len() {
            let r: f64 = rng.random_range(0.0..1.0);
            if r < share {
                let (h, c, half) = &mut bodies[i];
                let d = if rng.random_range(0.0..1.0) < 0.05 {
                    // Teleport.
                    *c = [
                        rng.random_range(0.0..side),
                        rng.random_range(0.0..side),
                        rng.random_range(0.0..side),
                    ];
                    [0.0; 3]
                } else {
                    let d = [
                        rng.random_range(-0.3..0.3),
                        rng.random_range(-0.3..0.3),
                        rng.random_range(-0.3..0.3),
                    ];
                    for k in 0..3 {
                        c[k] += d[k];
                    }
                    d
                };
                let b = cube::<T>(*c, *half);
                tree.update(
                    *h,
                    b,
                    Vector3::new(T::lit(d[0]), T::lit(d[1]), T::lit(d[2])),
                )
                .unwrap();
                boxes.insert(*h, b);
            }
            // Removals and insertions in the middle of the updates, while
            // ancestors of moved leaves are loose.
            if rng.random_range(0.0..1.0) < 0.01 {
                let (h, ..) = bodies.swap_remove(i);
                tree.remove(h).unwrap();
                boxes.remove(&h);
                tree.validate().unwrap();
                let b = new_body(&mut rng, &mut tree, step * objects + i);
                boxes.insert(b.0, cube::<T>(b.1, b.2));
                bodies.push(b);
                tree.validate().unwrap();
            }
            i += 1;
        }
        tree.validate().unwrap();
        check_queries(&tree, &boxes, &mut rng, side);
        tracker.step(&mut tree);
        tree.validate().unwrap();
        let expect = brute_pairs(&boxes);
        assert_eq!(tracker.pairs(), expect.as_slice(), "pairs at step {step}");
        let started: Vec<_> = expect
            .iter()
            .filter(|p| prev.binary_search(p).is_err())
            .copied()
            .collect();
        let stopped: Vec<_> = prev
            .iter()
            .filter(|p| expect.binary_search(p).is_err())
            .copied()
            .collect();
        assert_eq!(tracker.started(), started.as_slice(), "started at {step}");
        assert_eq!(tracker.stopped(), stopped.as_slice(), "stopped at {step}");
        checked += expect.len();
        prev = expect;
    }
    checked
}

#[test]
fn waves_of_moves_f32() {
    assert!(waves::<f32>(400, 60, 21) > 1000);
}

#[test]
fn waves_of_moves_f64() {
    assert!(waves::<f64>(400, 60, 22) > 1000);
}

#[test]
fn waves_and_few_moves_f32_f64() {
    assert!(waves_with::<f32>(1000, 45, 24, 0.01) > 1000);
    assert!(waves_with::<f64>(1000, 45, 25, 0.01) > 1000);
}

#[test]
fn small_waves_validate_after_every_update() {
    // Few objects: the tree is validated after each single update.
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    let mut tree = DynamicTree::<f64, usize>::new(0.1).unwrap();
    let mut centers: Vec<[f64; 3]> = (0..40)
        .map(|_| {
            [
                rng.random_range(0.0..6.0),
                rng.random_range(0.0..6.0),
                rng.random_range(0.0..6.0),
            ]
        })
        .collect();
    let handles: Vec<_> = centers
        .iter()
        .enumerate()
        .map(|(i, c)| tree.insert(cube(*c, 0.5), i).unwrap())
        .collect();
    let mut pairs = Vec::new();
    for _ in 0..50 {
        for (c, h) in centers.iter_mut().zip(&handles) {
            for x in c.iter_mut() {
                *x += rng.random_range(-0.4..0.4);
            }
            tree.update(*h, cube(*c, 0.5), Vector3::zeros()).unwrap();
            tree.validate().unwrap();
        }
        tree.settle();
        tree.validate().unwrap();
        tree.overlapping_pairs(&mut pairs);
        let boxes: BTreeMap<_, _> = handles
            .iter()
            .zip(&centers)
            .map(|(h, c)| (*h, cube::<f64>(*c, 0.5)))
            .collect();
        assert_eq!(pairs, brute_pairs(&boxes));
    }
}

#[test]
fn removing_a_proxy_with_candidate_pairs_and_loose_ancestors() {
    let mut tree = DynamicTree::<f32, u32>::new(0.1).unwrap();
    let a = tree.insert(cube([0.0, 0.0, 0.0], 0.5), 0).unwrap();
    let b = tree.insert(cube([0.8, 0.0, 0.0], 0.5), 1).unwrap();
    let c = tree.insert(cube([5.0, 0.0, 0.0], 0.5), 2).unwrap();
    let d = tree.insert(cube([5.8, 0.0, 0.0], 0.5), 3).unwrap();
    let mut tracker = PairTracker::new();
    tracker.step(&mut tree);
    assert_eq!(
        tracker.pairs(),
        &[ProxyPair::new(a, b), ProxyPair::new(c, d)]
    );
    // b moves far (its ancestors become loose) and then is removed before
    // the next step; c moves onto a.
    assert!(
        tree.update(b, cube([3.0, 0.0, 0.0], 0.5), Vector3::zeros())
            .unwrap()
    );
    assert!(
        tree.update(c, cube([0.9, 0.0, 0.0], 0.5), Vector3::zeros())
            .unwrap()
    );
    tree.validate().unwrap();
    assert_eq!(tree.remove(b).unwrap(), 1);
    tree.validate().unwrap();
    tracker.step(&mut tree);
    assert_eq!(tracker.pairs(), &[ProxyPair::new(a, c)]);
    assert_eq!(tracker.started(), &[ProxyPair::new(a, c)]);
    assert_eq!(
        tracker.stopped(),
        &[ProxyPair::new(a, b), ProxyPair::new(c, d)]
    );
    // A new object takes b's slot: a different handle, a new pair.
    let e = tree.insert(cube([0.0, 0.5, 0.0], 0.5), 4).unwrap();
    assert_eq!(e.index(), b.index());
    assert_ne!(e, b);
    tracker.step(&mut tree);
    assert_eq!(
        tracker.started(),
        &[ProxyPair::new(a, e), ProxyPair::new(e, c)]
    );
    assert!(tracker.stopped().is_empty());
    tree.validate().unwrap();
}

#[test]
fn settle_makes_every_box_exact_again() {
    // Between updates and `settle` the tree is not touched (moved objects
    // are stale); after `settle` every internal box is the exact union of
    // its children's (checked by `validate`) and the tree is close to a
    // fresh build.
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let mut tree = DynamicTree::<f64, ()>::new(0.1).unwrap();
    let n = 2000;
    let mut centers: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            [
                rng.random_range(0.0..25.0),
                rng.random_range(0.0..25.0),
                rng.random_range(0.0..25.0),
            ]
        })
        .collect();
    let handles: Vec<_> = centers
        .iter()
        .map(|c| tree.insert(cube(*c, 0.4), ()).unwrap())
        .collect();
    tree.settle();
    let before = tree.total_internal_area();
    // Everything moves out and back.
    for (c, h) in centers.iter_mut().zip(&handles) {
        c[0] += 1.0;
        tree.update(*h, cube(*c, 0.4), Vector3::zeros()).unwrap();
    }
    for (c, h) in centers.iter_mut().zip(&handles) {
        c[0] -= 1.0;
        tree.update(*h, cube(*c, 0.4), Vector3::zeros()).unwrap();
    }
    tree.validate().unwrap();
    assert_eq!(
        tree.total_internal_area(),
        before,
        "updates leave the tree's boxes as they were"
    );
    tree.settle();
    tree.validate().unwrap();
    let mut fresh = tree.clone();
    fresh.rebuild();
    let ratio = tree.total_internal_area() / fresh.total_internal_area();
    assert!(ratio < 1.2, "settled tree area over a fresh build: {ratio}");
}

#[test]
fn stale_objects_removed_reused_and_queried_before_settle() {
    // Objects that left their fat boxes keep their old leaf boxes until
    // `settle`: queries must find them at their new places, and a removed
    // stale object must not linger (its slot is reused by a new object,
    // which may itself become stale).
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for round in 0..40 {
        let mut tree = DynamicTree::<f32, usize>::new(0.05).unwrap();
        let mut boxes = BTreeMap::new();
        let mut live = Vec::new();
        for id in 0..30 {
            let c = [0; 3].map(|_| rng.random_range(0.0..6.0));
            let h = tree.insert(cube(c, 0.5), id).unwrap();
            boxes.insert(h, cube::<f32>(c, 0.5));
            live.push(h);
        }
        tree.settle();
        for op in 0..60 {
            let i = rng.random_range(0..live.len());
            match rng.random_range(0..4) {
                0 => {
                    let h = live.swap_remove(i);
                    tree.remove(h).unwrap();
                    boxes.remove(&h);
                }
                1 => {
                    let c = [0; 3].map(|_| rng.random_range(0.0..6.0));
                    let h = tree.insert(cube(c, 0.4), 100 + op).unwrap();
                    boxes.insert(h, cube::<f32>(c, 0.4));
                    live.push(h);
                }
                _ => {
                    // A jump: far outside the fat box.
                    let c = [0; 3].map(|_| rng.random_range(0.0..6.0));
                    tree.update(live[i], cube(c, 0.5), Vector3::zeros())
                        .unwrap();
                    boxes.insert(live[i], cube::<f32>(c, 0.5));
                }
            }
            tree.validate().unwrap();
            check_queries(&tree, &boxes, &mut rng, 6.0);
            if live.len() < 5 {
                break;
            }
        }
        if round % 2 == 0 {
            tree.settle();
            tree.validate().unwrap();
            check_queries(&tree, &boxes, &mut rng, 6.0);
        }
        let mut pairs = Vec::new();
        tree.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, brute_pairs(&boxes));
        tree.validate().unwrap();
    }
}
