//! Bad input gives a typed error and leaves the structure untouched:
//! NaN and inverted boxes, NaN displacements and queries, stale, removed
//! and never-issued handles (including a reused slot's old handle).
use clash_broad::{
    BroadPhase, BroadPhaseError, DynamicTree, PairTracker, ProxyHandle, ProxyUpdate, SortAndSweep,
};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Vector3};

fn cube(x: f64) -> Aabb<f64> {
    Aabb {
        min: Point3::new(x, 0.0, 0.0),
        max: Point3::new(x + 1.0, 1.0, 1.0),
    }
}

fn nan_box() -> Aabb<f64> {
    Aabb {
        min: Point3::new(f64::NAN, 0.0, 0.0),
        max: Point3::new(1.0, 1.0, 1.0),
    }
}

fn inverted() -> Aabb<f64> {
    Aabb {
        min: Point3::new(0.0, 0.0, 2.0),
        max: Point3::new(1.0, 1.0, 1.0),
    }
}

/// Every refusal on a populated broad phase; `check` validates it after each.
fn refusals<B: BroadPhase<f64, u32>>(bp: &mut B, check: &dyn Fn(&B)) {
    let handles: Vec<ProxyHandle> = (0..20)
        .map(|i| bp.insert(cube(i as f64 * 0.45), i).unwrap())
        .collect();
    let mut tracker = PairTracker::new();
    tracker.step(bp);
    let before = tracker.pairs().to_vec();
    assert_eq!(
        before.len(),
        19 + 18,
        "neighbours overlap, and so do next-but-one neighbours"
    );
    check(bp);

    assert_eq!(
        bp.insert(nan_box(), 99),
        Err(BroadPhaseError::NonFinite { what: "aabb" })
    );
    let inf = Aabb {
        min: Point3::new(0.0, f64::NEG_INFINITY, 0.0),
        max: Point3::new(1.0, 1.0, 1.0),
    };
    assert_eq!(
        bp.insert(inf, 99),
        Err(BroadPhaseError::NonFinite { what: "aabb" })
    );
    assert_eq!(
        bp.insert(inverted(), 99),
        Err(BroadPhaseError::InvertedAabb { axis: 2 })
    );
    check(bp);
    let h = handles[3];
    assert_eq!(
        bp.update(h, nan_box(), Vector3::zeros()),
        Err(BroadPhaseError::NonFinite { what: "aabb" })
    );
    assert_eq!(
        bp.update(h, inverted(), Vector3::zeros()),
        Err(BroadPhaseError::InvertedAabb { axis: 2 })
    );
    assert_eq!(
        bp.update(h, cube(50.0), Vector3::new(0.0, f64::NAN, 0.0)),
        Err(BroadPhaseError::NonFinite {
            what: "displacement"
        })
    );
    assert_eq!(
        bp.aabb(h).unwrap(),
        &cube(3.0 * 0.45),
        "a refused update keeps the old box"
    );
    check(bp);
    batch_refusals(bp, &handles);
    check(bp);

    let unknown = ProxyHandle::new(1000, 0);
    assert_eq!(
        bp.remove(unknown),
        Err(BroadPhaseError::UnknownHandle(unknown))
    );
    assert_eq!(
        bp.update(unknown, cube(0.0), Vector3::zeros()),
        Err(BroadPhaseError::UnknownHandle(unknown))
    );
    assert_eq!(
        bp.data(unknown),
        Err(BroadPhaseError::UnknownHandle(unknown))
    );
    let wrong_generation = ProxyHandle::new(h.index(), h.generation() + 1);
    assert_eq!(
        bp.remove(wrong_generation),
        Err(BroadPhaseError::StaleHandle(wrong_generation))
    );

    // Removed, then the slot reused: the old handle stays stale.
    assert_eq!(bp.remove(h), Ok(3));
    check(bp);
    assert_eq!(bp.remove(h), Err(BroadPhaseError::StaleHandle(h)));
    let reused = bp.insert(cube(100.0), 77).unwrap();
    assert_eq!(reused.index(), h.index(), "the free slot is reused");
    assert_ne!(reused, h);
    assert_eq!(
        bp.update(h, cube(0.0), Vector3::zeros()),
        Err(BroadPhaseError::StaleHandle(h))
    );
    assert_eq!(bp.aabb(h), Err(BroadPhaseError::StaleHandle(h)));
    assert_eq!(bp.data(reused), Ok(&77));
    check(bp);

    // Queries with bad input.
    let mut out = Vec::new();
    let mut hits = Vec::new();
    assert!(bp.query_aabb(&nan_box(), &mut out).is_err());
    assert!(bp.query_aabb(&inverted(), &mut out).is_err());
    assert!(
        bp.query_point(&Point3::new(0.0, f64::NAN, 0.0), &mut out)
            .is_err()
    );
    let nan_ray = Ray::new(Point3::new(0.0, 0.0, 0.0), Vector3::new(f64::NAN, 0.0, 0.0));
    assert!(bp.cast_ray_all(&nan_ray, 1.0, &mut hits).is_err());
    assert!(bp.cast_ray_closest(&nan_ray, 1.0).is_err());
    let ray = Ray::new(Point3::new(-1.0, 0.5, 0.5), Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(
        bp.cast_ray_closest(&ray, -1.0),
        Err(BroadPhaseError::InvalidParameter { what: "max_t" })
    );
    assert!(bp.cast_ray_closest(&ray, f64::NAN).is_err());
    let first = bp.cast_ray_closest(&ray, f64::INFINITY).unwrap().unwrap();
    assert_eq!((first.handle, first.t), (handles[0], 1.0));
    check(bp);

    // The pairs are those of the valid operations only.
    tracker.step(bp);
    let removed: Vec<_> = before
        .iter()
        .filter(|p| p.a == h || p.b == h)
        .copied()
        .collect();
    assert_eq!(tracker.stopped(), removed.as_slice());
    assert!(tracker.started().is_empty());
}

/// A batch of updates is refused whole, with the error of its first bad
/// update; the 20 cubes of [`refusals`] keep their boxes. A good batch then
/// moves them all, and another one back.
fn batch_refusals<B: BroadPhase<f64, u32>>(bp: &mut B, handles: &[ProxyHandle]) {
    let start = |k: usize| cube(k as f64 * 0.45);
    let moved = |k: usize, dx: f64| ProxyUpdate {
        handle: handles[k],
        aabb: cube(k as f64 * 0.45 + dx),
        displacement: Vector3::zeros(),
    };
    let forward: Vec<_> = (0..20).map(|k| moved(k, 0.1)).collect();
    let unchanged = |bp: &B| (0..20).all(|k| bp.aabb(handles[k]) == Ok(&start(k)));
    let refused = |bp: &mut B, edit: &BatchEdit<'_>| {
        let mut batch = forward.clone();
        edit(&mut batch);
        let r = bp.update_many(&batch);
        assert!(unchanged(bp), "a refused batch moves nothing");
        r
    };
    assert_eq!(
        refused(bp, &|b| b[7].aabb = nan_box()),
        Err(BroadPhaseError::NonFinite { what: "aabb" })
    );
    // The first bad update decides the error: a duplicate at 5, an
    // inverted box at 9.
    assert_eq!(
        refused(bp, &|b| {
            b[5].handle = b[2].handle;
            b[9].aabb = inverted();
        }),
        Err(BroadPhaseError::DuplicateHandle(handles[2]))
    );
    assert_eq!(
        refused(bp, &|b| {
            b[4].displacement.z = f64::INFINITY;
            b[5].handle = b[2].handle;
        }),
        Err(BroadPhaseError::NonFinite {
            what: "displacement"
        })
    );
    let unknown = ProxyHandle::new(1000, 0);
    let stale = ProxyHandle::new(handles[3].index(), handles[3].generation() + 1);
    assert_eq!(
        refused(bp, &|b| b[19].handle = unknown),
        Err(BroadPhaseError::UnknownHandle(unknown))
    );
    assert_eq!(
        refused(bp, &|b| b[0].handle = stale),
        Err(BroadPhaseError::StaleHandle(stale))
    );
    // Each cube leaves its fat box (margin 0.05) both ways.
    assert_eq!(bp.update_many(&forward), Ok(20));
    assert!((0..20).all(|k| bp.aabb(handles[k]) == Ok(&forward[k].aabb)));
    let back: Vec<_> = (0..20).map(|k| moved(k, 0.0)).collect();
    assert_eq!(bp.update_many(&back), Ok(20));
    assert!(unchanged(bp));
    assert_eq!(bp.update_many(&[]), Ok(0));
}

/// A change that spoils a batch of updates.
type BatchEdit<'a> = dyn Fn(&mut Vec<ProxyUpdate<f64>>) + 'a;

/// A batch large enough to be decided in parallel is refused with the
/// error of its first bad update, on pools of one to three threads, and
/// nothing moves; so is a displacement whose fat box would overflow.
#[test]
fn dynamic_tree_refuses_bad_batches_in_order() {
    let n = 6000;
    let mut tree = DynamicTree::<f64, usize>::new(0.05).unwrap();
    let handles: Vec<_> = (0..n)
        .map(|i| tree.insert(cube(i as f64 * 0.5), i).unwrap())
        .collect();
    let good: Vec<_> = (0..n)
        .map(|i| ProxyUpdate {
            handle: handles[i],
            aabb: cube(i as f64 * 0.5 + 0.3),
            displacement: Vector3::new(0.3, 0.0, 0.0),
        })
        .collect();
    let cases: [(&BatchEdit<'_>, BroadPhaseError); 3] = [
        (
            &|b| {
                b[4500].aabb = nan_box();
                b[3000].handle = b[10].handle;
            },
            BroadPhaseError::DuplicateHandle(handles[10]),
        ),
        (
            &|b| {
                b[5999].handle = b[0].handle;
                b[4000].displacement.x = f64::MAX;
            },
            BroadPhaseError::NonFinite {
                what: "displacement",
            },
        ),
        (
            &|b| {
                b[5000].aabb = inverted();
                b[5001].aabb = nan_box();
            },
            BroadPhaseError::InvertedAabb { axis: 2 },
        ),
    ];
    for threads in 1..=3 {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for (edit, error) in &cases {
            let mut batch = good.clone();
            edit(&mut batch);
            assert_eq!(pool.install(|| tree.update_many(&batch)), Err(*error));
            assert!((0..n).all(|i| tree.aabb(handles[i]) == Ok(&cube(i as f64 * 0.5))));
            tree.validate().unwrap();
        }
    }
    assert_eq!(tree.update_many(&good), Ok(n));
    tree.validate().unwrap();
}

#[test]
fn dynamic_tree_refuses_bad_input() {
    let mut tree = DynamicTree::<f64, u32>::new(0.05).unwrap();
    refusals(&mut tree, &|t: &DynamicTree<f64, u32>| {
        t.validate().unwrap()
    });
}

#[test]
fn sort_and_sweep_refuses_bad_input() {
    let mut sap = SortAndSweep::<f64, u32>::new();
    refusals(&mut sap, &|_: &SortAndSweep<f64, u32>| {});
}

#[test]
fn bad_parameters_and_bulk_input() {
    assert_eq!(
        DynamicTree::<f32>::new(-1.0).unwrap_err(),
        BroadPhaseError::InvalidParameter { what: "margin" }
    );
    assert_eq!(
        DynamicTree::<f32>::new(f32::NAN).unwrap_err(),
        BroadPhaseError::InvalidParameter { what: "margin" }
    );
    assert_eq!(
        DynamicTree::<f32>::with_prediction(0.1, f32::INFINITY).unwrap_err(),
        BroadPhaseError::InvalidParameter { what: "prediction" }
    );

    let mut tree = DynamicTree::<f64, u32>::new(0.1).unwrap();
    let a = tree.insert(cube(0.0), 0).unwrap();
    // One bad box in a bulk insertion: nothing is inserted.
    let items = vec![(cube(1.0), 1), (nan_box(), 2), (cube(2.0), 3)];
    assert_eq!(
        tree.insert_bulk(items),
        Err(BroadPhaseError::NonFinite { what: "aabb" })
    );
    assert_eq!(tree.len(), 1);
    tree.validate().unwrap();
    // A displacement so large that the fat box overflows is refused too.
    let huge = Vector3::new(f64::MAX, 0.0, 0.0);
    assert_eq!(
        tree.update(a, cube(0.0), huge),
        Err(BroadPhaseError::NonFinite {
            what: "displacement"
        })
    );
    tree.validate().unwrap();
    assert_eq!(tree.fat_aabb(a).unwrap().min.x, -0.1);
}
