//! Structural behaviour of the dynamic tree: fat boxes absorb small moves,
//! handles survive updates and rebuilds, bulk builds and rebuilds are valid
//! and tight, and incremental maintenance keeps the SAH cost close to a
//! fresh build.
use clash_broad::{DynamicTree, PairTracker, ProxyHandle};
use clash_bv::Aabb;
use clash_math::{Point3, Vector3};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};

fn bx(c: [f64; 3], h: f64) -> Aabb<f64> {
    Aabb {
        min: Point3::new(c[0] - h, c[1] - h, c[2] - h),
        max: Point3::new(c[0] + h, c[1] + h, c[2] + h),
    }
}

fn random_boxes(n: usize, seed: u64) -> Vec<Aabb<f64>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let side = 2.0 * (n as f64).cbrt();
    (0..n)
        .map(|_| {
            bx(
                [
                    rng.random_range(0.0..side),
                    rng.random_range(0.0..side),
                    rng.random_range(0.0..side),
                ],
                rng.random_range(0.05..0.8),
            )
        })
        .collect()
}

#[test]
fn fat_box_absorbs_small_moves_and_reinserts_large_ones() {
    let mut tree = DynamicTree::<f64, ()>::new(0.2).unwrap();
    let others: Vec<ProxyHandle> = (0..50)
        .map(|i| {
            tree.insert(bx([i as f64 * 3.0, 0.0, 0.0], 0.5), ())
                .unwrap()
        })
        .collect();
    let h = tree.insert(bx([0.0, 5.0, 0.0], 0.5), ()).unwrap();
    assert!(
        !tree
            .update(h, bx([0.1, 5.0, 0.0], 0.5), Vector3::zeros())
            .unwrap(),
        "within margin: nothing to do"
    );
    assert_eq!(
        tree.aabb(h).unwrap(),
        &bx([0.1, 5.0, 0.0], 0.5),
        "the tight box is stored even when absorbed"
    );
    assert!(
        tree.update(h, bx([1.0, 5.0, 0.0], 0.5), Vector3::new(0.5, 0.0, 0.0))
            .unwrap(),
        "left the fat box"
    );
    // Predicted motion: the fat box is stretched ahead (factor 2) and absorbs the next moves.
    assert_eq!(tree.fat_aabb(h).unwrap().max.x, 1.5 + 0.2 + 1.0);
    assert!(
        !tree
            .update(h, bx([1.5, 5.0, 0.0], 0.5), Vector3::new(0.5, 0.0, 0.0))
            .unwrap()
    );
    assert!(
        !tree
            .update(h, bx([2.0, 5.0, 0.0], 0.5), Vector3::new(0.5, 0.0, 0.0))
            .unwrap()
    );
    tree.validate().unwrap();
    // Stopping: the box is inside the fat box [0.3, 2.7], but that trails more
    // than 4 margins behind the new fat box [1.3, 2.7]: it is re-inserted so the
    // fat box does not stay oversized.
    assert!(
        tree.update(h, bx([2.0, 5.0, 0.0], 0.5), Vector3::zeros())
            .unwrap()
    );
    let fat = *tree.fat_aabb(h).unwrap();
    assert!(
        (fat.min.x - 1.3).abs() < 1e-12 && (fat.max.x - 2.7).abs() < 1e-12,
        "{fat:?}"
    );
    assert!(
        !tree
            .update(h, bx([2.0, 5.0, 0.0], 0.5), Vector3::zeros())
            .unwrap()
    );
    tree.validate().unwrap();
    for o in others {
        assert!(
            tree.aabb(o).is_ok(),
            "handles of untouched objects stay valid"
        );
    }
    tree.validate().unwrap();
}

/// `update` keeps the fat box exactly when the documented rule says so:
/// the new tight box lies in it, and it lies in the new fat box (margin,
/// stretched by `prediction * displacement`) grown by `4 margin +
/// prediction * reach` on every side. Moves of every size, displacements
/// small and large, margins from zero to huge.
#[test]
fn update_keeps_the_fat_box_by_the_documented_rule() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for margin in [0.0, 0.01, 0.1, 1.0, 1e300] {
        let (m, p) = (margin, 2.0);
        let mut tree = DynamicTree::<f64, ()>::new(margin).unwrap();
        let h = tree.insert(bx([0.0; 3], 0.5), ()).unwrap();
        let mut c = [0.0; 3];
        let (mut kept, mut refattened) = (0, 0);
        for _ in 0..20_000 {
            let scale = [1e-3, 1e-2, 0.1, 1.0][rng.random_range(0..4usize)];
            let d = [0; 3].map(|_| rng.random_range(-1.0..1.0) * scale);
            for k in 0..3 {
                c[k] += d[k] * rng.random_range(0.0..2.0);
            }
            let a = bx(c, 0.5);
            let old = *tree.fat_aabb(h).unwrap();
            let reach = d.iter().fold(0.0f64, |r, x| r.max(x.abs()));
            let slack = 4.0 * m + p * reach;
            let keep = (0..3).all(|k| {
                let dp = d[k] * p;
                let lo = a.min[k] - m + dp.min(0.0);
                let hi = a.max[k] + m + dp.max(0.0);
                old.min[k] <= a.min[k]
                    && a.max[k] <= old.max[k]
                    && lo - slack <= old.min[k]
                    && old.max[k] <= hi + slack
            });
            let moved = tree.update(h, a, Vector3::from(d)).unwrap();
            assert_eq!(moved, !keep, "margin {m}: {a:?} in {old:?}, d {d:?}");
            if keep {
                kept += 1;
                assert_eq!(tree.fat_aabb(h).unwrap(), &old);
            } else {
                refattened += 1;
            }
            assert_eq!(tree.aabb(h).unwrap(), &a);
        }
        tree.validate().unwrap();
        // Both outcomes are exercised (with no margin nearly every move
        // leaves the fat box; with a huge one none does).
        if (0.01..=1.0).contains(&margin) {
            assert!(
                kept > 1000 && refattened > 1000,
                "{margin}: {kept} {refattened}"
            );
        }
    }
}

#[test]
fn bulk_build_equals_incremental_answers_and_is_tighter() {
    let boxes = random_boxes(5000, 11);
    let mut bulk = DynamicTree::<f64, usize>::new(0.0).unwrap();
    let hb = bulk.insert_bulk(boxes.iter().copied().zip(0..)).unwrap();
    bulk.validate().unwrap();
    let mut inc = DynamicTree::<f64, usize>::new(0.0).unwrap();
    let hi: Vec<_> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| inc.insert(*b, i).unwrap())
        .collect();
    inc.validate().unwrap();
    assert_eq!(hb, hi, "same slots, same handles");
    let (mut pb, mut pi) = (Vec::new(), Vec::new());
    bulk.overlapping_pairs(&mut pb);
    inc.overlapping_pairs(&mut pi);
    assert!(pb.len() > 1000, "{} pairs", pb.len());
    assert_eq!(pb, pi);
    for (i, h) in hb.iter().enumerate() {
        assert_eq!(bulk.data(*h), Ok(&i));
    }
    let (a_bulk, a_inc) = (bulk.total_internal_area(), inc.total_internal_area());
    eprintln!(
        "SAH area: bulk {a_bulk:.1}, incremental {a_inc:.1}, ratio {:.3}",
        a_inc / a_bulk
    );
    assert!(
        a_bulk <= a_inc * 1.05,
        "a top-down SAH build is at least as good as insertion"
    );
    // Height stays logarithmic for both.
    assert!(
        bulk.height() < 40 && inc.height() < 40,
        "heights {} {}",
        bulk.height(),
        inc.height()
    );
}

#[test]
fn rebuild_keeps_handles_and_answers() {
    let boxes = random_boxes(3000, 12);
    let mut tree = DynamicTree::<f32, u32>::new(0.05).unwrap();
    let cast = |b: &Aabb<f64>| Aabb {
        min: b.min.cast::<f32>(),
        max: b.max.cast::<f32>(),
    };
    let handles: Vec<_> = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| tree.insert(cast(b), i as u32).unwrap())
        .collect();
    for h in handles.iter().step_by(3) {
        tree.remove(*h).unwrap();
    }
    let mut before = Vec::new();
    tree.overlapping_pairs(&mut before);
    tree.rebuild();
    tree.validate().unwrap();
    let mut after = Vec::new();
    tree.overlapping_pairs(&mut after);
    assert_eq!(before, after);
    for (i, h) in handles.iter().enumerate() {
        assert_eq!(tree.data(*h).is_ok(), i % 3 != 0);
    }
    // The rebuilt tree keeps working incrementally.
    let h = handles[1];
    tree.update(
        h,
        Aabb {
            min: Point3::new(-50.0, -50.0, -50.0),
            max: Point3::new(-49.0, -49.0, -49.0),
        },
        Vector3::zeros(),
    )
    .unwrap();
    tree.insert(
        Aabb {
            min: Point3::new(-49.5, -49.5, -49.5),
            max: Point3::new(-48.0, -48.0, -48.0),
        },
        9999,
    )
    .unwrap();
    tree.validate().unwrap();
    let mut q = Vec::new();
    tree.query_point(&Point3::new(-49.2, -49.2, -49.2), &mut q)
        .unwrap();
    assert_eq!(q.len(), 2);
    let mut empty = DynamicTree::<f64, ()>::new(0.0).unwrap();
    empty.rebuild();
    empty.validate().unwrap();
    assert_eq!(empty.total_internal_area(), 0.0);
}

#[test]
fn incremental_quality_stays_near_fresh_build() {
    // 2,000 boxes, 1,000 steps of coherent motion: quality within 10% of a fresh SAH build.
    let n = 2000;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    let side = 2.0 * (n as f64).cbrt();
    let mut centers: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            [
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
                rng.random_range(0.0..side),
            ]
        })
        .collect();
    let mut vel: Vec<[f64; 3]> = (0..n)
        .map(|_| {
            [
                rng.random_range(-0.05..0.05),
                rng.random_range(-0.05..0.05),
                rng.random_range(-0.05..0.05),
            ]
        })
        .collect();
    let half: Vec<f64> = (0..n).map(|_| rng.random_range(0.05..0.8)).collect();
    let mut tree = DynamicTree::<f64, ()>::new(0.1).unwrap();
    let handles: Vec<_> = (0..n)
        .map(|i| tree.insert(bx(centers[i], half[i]), ()).unwrap())
        .collect();
    let mut tracker = PairTracker::new();
    for _ in 0..1000 {
        for i in 0..n {
            for k in 0..3 {
                centers[i][k] += vel[i][k];
                if centers[i][k] < 0.0 || centers[i][k] > side {
                    vel[i][k] = -vel[i][k];
                }
            }
            tree.update(handles[i], bx(centers[i], half[i]), Vector3::from(vel[i]))
                .unwrap();
        }
        tracker.step(&mut tree);
    }
    tree.validate().unwrap();
    let mut fresh = tree.clone();
    fresh.rebuild();
    let ratio = tree.total_internal_area() / fresh.total_internal_area();
    eprintln!("quality after 1000 steps: {ratio:.4}");
    assert!(ratio < 1.10, "tree area is {ratio} times a fresh SAH build");
    assert!(!tracker.pairs().is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random operation sequences on a small tree: valid after every
    /// operation, pairs equal brute force at the end.
    #[test]
    fn random_operations_keep_the_tree_valid(ops in proptest::collection::vec((0u8..4, 0usize..40, -10.0f64..10.0, -10.0f64..10.0, 0.0f64..3.0), 1..120)) {
        let mut tree = DynamicTree::<f64, ()>::new(0.25).unwrap();
        let mut live: Vec<(ProxyHandle, Aabb<f64>)> = Vec::new();
        for (op, pick, x, y, h) in ops {
            let b = bx([x, y, x - y], h);
            match op {
                0 | 1 => live.push((tree.insert(b, ()).unwrap(), b)),
                2 if !live.is_empty() => {
                    let i = pick % live.len();
                    tree.update(live[i].0, b, Vector3::new(y * 0.1, 0.0, -x * 0.1)).unwrap();
                    live[i].1 = b;
                }
                3 if !live.is_empty() => {
                    let (handle, _) = live.swap_remove(pick % live.len());
                    tree.remove(handle).unwrap();
                    prop_assert!(tree.remove(handle).is_err());
                }
                _ => {}
            }
            prop_assert!(tree.validate().is_ok(), "{:?}", tree.validate());
        }
        let mut expect = Vec::new();
        for i in 0..live.len() {
            for j in i + 1..live.len() {
                let (a, b) = (&live[i].1, &live[j].1);
                if (0..3).all(|k| a.min[k] <= b.max[k] && b.min[k] <= a.max[k]) {
                    expect.push(clash_broad::ProxyPair::new(live[i].0, live[j].0));
                }
            }
        }
        expect.sort();
        let mut got = Vec::new();
        tree.overlapping_pairs(&mut got);
        prop_assert_eq!(got, expect);
    }
}
