//! Oracle tests: pairs, started/stopped pairs and queries of every broad
//! phase equal brute force O(n^2) over random simulations with insertions,
//! removals, teleports and small moves.
//!
//! The long sweep is ignored by default; run it with
//! `cargo test -p clash-broad --release --test integration brute_force:: -- --ignored long_sweep`.
use clash_broad::{
    BroadPhase, DynamicTree, PairTracker, ProxyHandle, ProxyPair, RayHit, SortAndSweep,
};
use clash_bv::Aabb;
use clash_math::{Point3, Ray, Scalar, Vector3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet};

use crate::common;
use common::{brute_pairs, overlaps};

fn contains_point<T: Scalar>(a: &Aabb<T>, p: &Point3<T>) -> bool {
    (0..3).all(|k| a.min[k] <= p[k] && p[k] <= a.max[k])
}

/// Independent slab test for the oracle: entry parameter in [0, max_t].
fn ray_entry<T: Scalar>(b: &Aabb<T>, ray: &Ray<T>, max_t: T) -> Option<T> {
    let (mut lo, mut hi) = (T::ZERO, max_t);
    for k in 0..3 {
        let (o, d) = (ray.origin[k], ray.dir[k]);
        if d == T::ZERO {
            if o < b.min[k] || o > b.max[k] {
                return None;
            }
            continue;
        }
        let inv = T::ONE / d;
        let (mut t1, mut t2) = ((b.min[k] - o) * inv, (b.max[k] - o) * inv);
        if t1 > t2 {
            core::mem::swap(&mut t1, &mut t2);
        }
        lo = lo.max_of(t1);
        hi = hi.min_of(t2);
        if lo > hi {
            return None;
        }
    }
    Some(lo)
}

/// The brute-force oracle: every object's box, by handle.
struct Oracle<T: Scalar> {
    boxes: BTreeMap<ProxyHandle, Aabb<T>>,
}

impl<T: Scalar> Oracle<T> {
    fn pairs(&self) -> Vec<ProxyPair> {
        brute_pairs(&self.boxes)
    }
    fn query_aabb(&self, q: &Aabb<T>) -> Vec<ProxyHandle> {
        self.boxes
            .iter()
            .filter(|(_, b)| overlaps(b, q))
            .map(|(h, _)| *h)
            .collect()
    }
    fn query_point(&self, p: &Point3<T>) -> Vec<ProxyHandle> {
        self.boxes
            .iter()
            .filter(|(_, b)| contains_point(b, p))
            .map(|(h, _)| *h)
            .collect()
    }
    fn ray_all(&self, ray: &Ray<T>, max_t: T) -> Vec<RayHit<T>> {
        let mut v: Vec<RayHit<T>> = self
            .boxes
            .iter()
            .filter_map(|(h, b)| ray_entry(b, ray, max_t).map(|t| RayHit { handle: *h, t }))
            .collect();
        v.sort_by(|x, y| x.t.partial_cmp(&y.t).unwrap().then(x.handle.cmp(&y.handle)));
        v
    }
}

/// Knobs of one simulation.
#[derive(Clone, Copy)]
struct Sim {
    objects: usize,
    steps: usize,
    seed: u64,
    /// Validate the tree after every single operation (else once per step).
    validate_each_op: bool,
}

struct Body<T: Scalar> {
    handle: ProxyHandle,
    center: [f64; 3],
    half: [f64; 3],
    velocity: [f64; 3],
    _t: core::marker::PhantomData<T>,
}

impl<T: Scalar> Body<T> {
    fn aabb(&self) -> Aabb<T> {
        let c = |k: usize, s: f64| T::lit(self.center[k] + s * self.half[k]);
        Aabb {
            min: Point3::new(c(0, -1.0), c(1, -1.0), c(2, -1.0)),
            max: Point3::new(c(0, 1.0), c(1, 1.0), c(2, 1.0)),
        }
    }
}

fn random_point(rng: &mut ChaCha8Rng, side: f64) -> [f64; 3] {
    [
        rng.random_range(0.0..side),
        rng.random_range(0.0..side),
        rng.random_range(0.0..side),
    ]
}

fn new_body<T: Scalar>(rng: &mut ChaCha8Rng, side: f64) -> Body<T> {
    Body {
        handle: ProxyHandle::new(u32::MAX, 0),
        center: random_point(rng, side),
        half: [
            rng.random_range(0.05..0.8),
            rng.random_range(0.05..0.8),
            rng.random_range(0.05..0.8),
        ],
        velocity: [
            rng.random_range(-0.05..0.05),
            rng.random_range(-0.05..0.05),
            rng.random_range(-0.05..0.05),
        ],
        _t: core::marker::PhantomData,
    }
}

/// Runs one random simulation on broad phase `bp`, comparing everything with
/// the oracle after every step. `check` validates the structure.
fn simulate<T: Scalar, B: BroadPhase<T, usize>>(bp: &mut B, sim: Sim, check: &dyn Fn(&B)) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(sim.seed);
    let side = 2.0 * (sim.objects as f64).cbrt() + 1.0;
    let mut bodies: Vec<Body<T>> = Vec::new();
    let mut oracle = Oracle::<T> {
        boxes: BTreeMap::new(),
    };
    let mut tracker = PairTracker::new();
    let mut prev: BTreeSet<ProxyPair> = BTreeSet::new();
    let mut next_id = 0usize;
    let mut removed: Vec<ProxyHandle> = Vec::new();
    let (mut q_handles, mut q_hits) = (Vec::new(), Vec::new());
    let mut checked_pairs = 0usize;

    let insert = |bp: &mut B,
                  bodies: &mut Vec<Body<T>>,
                  oracle: &mut Oracle<T>,
                  rng: &mut ChaCha8Rng,
                  next_id: &mut usize| {
        let mut b = new_body::<T>(rng, side);
        b.handle = bp.insert(b.aabb(), *next_id).expect("valid insert");
        assert_eq!(*bp.data(b.handle).unwrap(), *next_id);
        *next_id += 1;
        oracle.boxes.insert(b.handle, b.aabb());
        bodies.push(b);
    };

    for _ in 0..sim.objects {
        insert(bp, &mut bodies, &mut oracle, &mut rng, &mut next_id);
        if sim.validate_each_op {
            check(bp);
        }
    }
    check(bp);

    let churn = (sim.objects / 50).max(1);
    for step in 0..sim.steps {
        // Insertions and removals keep the population around `objects`.
        let target = sim.objects as i64 + rng.random_range(-(churn as i64)..=churn as i64);
        while (bodies.len() as i64) < target {
            insert(bp, &mut bodies, &mut oracle, &mut rng, &mut next_id);
            if sim.validate_each_op {
                check(bp);
            }
        }
        while bodies.len() as i64 > target && !bodies.is_empty() {
            let i = rng.random_range(0..bodies.len());
            let b = bodies.swap_remove(i);
            bp.remove(b.handle).expect("live handle");
            oracle.boxes.remove(&b.handle);
            removed.push(b.handle);
            if sim.validate_each_op {
                check(bp);
            }
        }
        // A removed handle stays stale, even after its slot was reused.
        if let Some(&h) = removed.last() {
            assert!(bp.remove(h).is_err());
            assert!(bp.update(h, bodies[0].aabb(), Vector3::zeros()).is_err());
            assert!(bp.aabb(h).is_err());
        }
        // Moves: a few teleports, many small moves.
        for b in bodies.iter_mut() {
            let r: f64 = rng.random_range(0.0..1.0);
            let displacement = if r < 0.01 {
                b.center = random_point(&mut rng, side);
                Vector3::zeros()
            } else if r < 0.4 {
                for k in 0..3 {
                    b.center[k] += b.velocity[k];
                    if b.center[k] < 0.0 || b.center[k] > side {
                        b.velocity[k] = -b.velocity[k];
                    }
                }
                if rng.random_range(0.0..1.0) < 0.05 {
                    b.velocity = [
                        rng.random_range(-0.1..0.1),
                        rng.random_range(-0.1..0.1),
                        rng.random_range(-0.1..0.1),
                    ];
                }
                Vector3::new(
                    T::lit(b.velocity[0]),
                    T::lit(b.velocity[1]),
                    T::lit(b.velocity[2]),
                )
            } else {
                continue;
            };
            bp.update(b.handle, b.aabb(), displacement)
                .expect("valid update");
            oracle.boxes.insert(b.handle, b.aabb());
            if sim.validate_each_op {
                check(bp);
            }
        }
        check(bp);
        assert_eq!(bp.len(), oracle.boxes.len());

        // Pairs and their changes.
        tracker.step(bp);
        let expect = oracle.pairs();
        assert_eq!(
            tracker.pairs(),
            expect.as_slice(),
            "pairs differ at step {step}"
        );
        let cur: BTreeSet<ProxyPair> = expect.iter().copied().collect();
        let started: Vec<ProxyPair> = cur.difference(&prev).copied().collect();
        let stopped: Vec<ProxyPair> = prev.difference(&cur).copied().collect();
        assert_eq!(
            tracker.started(),
            started.as_slice(),
            "started pairs differ at step {step}"
        );
        assert_eq!(
            tracker.stopped(),
            stopped.as_slice(),
            "stopped pairs differ at step {step}"
        );
        checked_pairs += expect.len();
        prev = cur;

        // Queries.
        for _ in 0..3 {
            let c = random_point(&mut rng, side);
            let e: f64 = rng.random_range(0.0..2.0);
            let q = Aabb {
                min: Point3::new(T::lit(c[0] - e), T::lit(c[1] - e), T::lit(c[2] - e)),
                max: Point3::new(T::lit(c[0] + e), T::lit(c[1] + e), T::lit(c[2] + e)),
            };
            bp.query_aabb(&q, &mut q_handles).unwrap();
            assert_eq!(
                q_handles,
                oracle.query_aabb(&q),
                "aabb query differs at step {step}"
            );
            let p = Point3::new(T::lit(c[0]), T::lit(c[1]), T::lit(c[2]));
            bp.query_point(&p, &mut q_handles).unwrap();
            assert_eq!(
                q_handles,
                oracle.query_point(&p),
                "point query differs at step {step}"
            );
            // Rays from outside or inside the scene, some axis-parallel.
            let o = random_point(&mut rng, side);
            let mut d = [
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ];
            if rng.random_range(0.0..1.0) < 0.3 {
                d[rng.random_range(0..3usize)] = 0.0;
            }
            let ray = Ray::new(
                Point3::new(T::lit(o[0]), T::lit(o[1]), T::lit(o[2])),
                Vector3::new(T::lit(d[0]), T::lit(d[1]), T::lit(d[2])),
            );
            let max_t = if rng.random_range(0.0..1.0) < 0.5 {
                T::INFINITY
            } else {
                T::lit(rng.random_range(0.0..side))
            };
            bp.cast_ray_all(&ray, max_t, &mut q_hits).unwrap();
            let expect_hits = oracle.ray_all(&ray, max_t);
            assert_eq!(q_hits, expect_hits, "ray (all) differs at step {step}");
            assert_eq!(
                bp.cast_ray_closest(&ray, max_t).unwrap(),
                expect_hits.first().copied(),
                "closest ray hit differs at step {step}"
            );
        }
    }
    checked_pairs
}

fn run_tree<T: Scalar>(sim: Sim, margin: f64) -> (usize, f64) {
    let mut tree = DynamicTree::<T, usize>::new(T::lit(margin)).unwrap();
    let pairs = simulate(&mut tree, sim, &|t: &DynamicTree<T, usize>| {
        t.validate().unwrap()
    });
    // Quality after the run, against a fresh SAH rebuild of the same fat boxes.
    let mut fresh = tree.clone();
    fresh.rebuild();
    fresh.validate().unwrap();
    let ratio = tree.total_internal_area().to_f64()
        / fresh.total_internal_area().to_f64().max(f64::MIN_POSITIVE);
    (pairs, ratio)
}

fn run_sap<T: Scalar>(sim: Sim) -> usize {
    let mut sap = SortAndSweep::<T, usize>::new();
    simulate(&mut sap, sim, &|_: &SortAndSweep<T, usize>| {})
}

#[test]
fn tree_10_objects_f64() {
    let (pairs, _) = run_tree::<f64>(
        Sim {
            objects: 10,
            steps: 1000,
            seed: 1,
            validate_each_op: true,
        },
        0.1,
    );
    assert!(pairs > 0, "the simulation must produce overlaps");
}

#[test]
fn tree_100_objects_f32() {
    let (pairs, _) = run_tree::<f32>(
        Sim {
            objects: 100,
            steps: 1000,
            seed: 2,
            validate_each_op: true,
        },
        0.1,
    );
    assert!(pairs > 1000);
}

#[test]
fn tree_1000_objects_f64() {
    let (pairs, ratio) = run_tree::<f64>(
        Sim {
            objects: 1000,
            steps: 1000,
            seed: 3,
            validate_each_op: false,
        },
        0.1,
    );
    eprintln!("1000 objects, 1000 steps: tree area / fresh SAH rebuild = {ratio:.3}");
    assert!(pairs > 100_000);
}

#[test]
fn tree_1000_objects_f32_zero_margin() {
    let (pairs, _) = run_tree::<f32>(
        Sim {
            objects: 1000,
            steps: 200,
            seed: 4,
            validate_each_op: true,
        },
        0.0,
    );
    assert!(pairs > 10_000);
}

#[test]
fn tree_10000_objects_f32() {
    let (pairs, ratio) = run_tree::<f32>(
        Sim {
            objects: 10_000,
            steps: 10,
            seed: 5,
            validate_each_op: false,
        },
        0.1,
    );
    eprintln!("10000 objects, 10 steps: tree area / fresh SAH rebuild = {ratio:.3}");
    assert!(pairs > 10_000);
}

#[test]
fn sort_and_sweep_10_100_1000() {
    assert!(
        run_sap::<f64>(Sim {
            objects: 10,
            steps: 1000,
            seed: 6,
            validate_each_op: false
        }) > 0
    );
    assert!(
        run_sap::<f32>(Sim {
            objects: 100,
            steps: 1000,
            seed: 7,
            validate_each_op: false
        }) > 1000
    );
    assert!(
        run_sap::<f64>(Sim {
            objects: 1000,
            steps: 300,
            seed: 8,
            validate_each_op: false
        }) > 10_000
    );
}

#[test]
fn sort_and_sweep_10000() {
    assert!(
        run_sap::<f64>(Sim {
            objects: 10_000,
            steps: 5,
            seed: 9,
            validate_each_op: false
        }) > 10_000
    );
}

/// The full sweep: 1,000 steps at every size up to 10,000 objects.
/// `cargo test -p clash-broad --release --test integration brute_force:: -- --ignored long_sweep`
#[test]
#[ignore = "long: several minutes"]
fn long_sweep() {
    for (i, n) in [10usize, 100, 1000, 10_000].into_iter().enumerate() {
        let sim = Sim {
            objects: n,
            steps: 1000,
            seed: 100 + i as u64,
            validate_each_op: false,
        };
        let (_, ratio) = run_tree::<f64>(sim, 0.1);
        eprintln!("{n} objects: tree area / fresh SAH rebuild = {ratio:.3}");
        run_sap::<f32>(sim);
    }
}

/// Churn on the dynamic tree: each round removes a share of the objects
/// (from a few, which `settle` re-inserts one by one, to a third, which it
/// links after refitting in place), inserts as many new ones and a few
/// more, and removes some of those again before `settle`. Box, point and
/// ray queries while the new leaves wait to be linked, and the pairs after,
/// equal brute force; the tree validates at each stage. Then the case of
/// a tree whose root was removed while new objects wait.
#[test]
fn tree_churn_with_queries_before_settle() {
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let side = 12.0;
    let mut tree = DynamicTree::<f32, usize>::new(0.05).unwrap();
    let mut oracle = Oracle::<f32> {
        boxes: BTreeMap::new(),
    };
    let mut live: Vec<ProxyHandle> = Vec::new();
    let (mut handles, mut hits, mut pairs) = (Vec::new(), Vec::new(), Vec::new());
    let mut check_queries =
        |tree: &DynamicTree<f32, usize>, oracle: &Oracle<f32>, rng: &mut ChaCha8Rng| {
            for _ in 0..20 {
                let c = random_point(rng, side);
                let p = Point3::new(c[0] as f32, c[1] as f32, c[2] as f32);
                let r = Vector3::new(0.7, 0.4, 1.1);
                let q = Aabb {
                    min: p - r,
                    max: p + r,
                };
                tree.query_aabb(&q, &mut handles).unwrap();
                assert_eq!(handles, oracle.query_aabb(&q), "box query");
                tree.query_point(&p, &mut handles).unwrap();
                assert_eq!(handles, oracle.query_point(&p), "point query");
                let d = random_point(rng, 2.0);
                let dir = Vector3::new(d[0] as f32 - 1.0, d[1] as f32 - 1.0, d[2] as f32 - 1.0);
                let ray = Ray::new(p, dir);
                tree.cast_ray_all(&ray, 20.0, &mut hits).unwrap();
                let expect = oracle.ray_all(&ray, 20.0);
                assert_eq!(hits, expect, "ray (all)");
                assert_eq!(
                    tree.cast_ray_closest(&ray, 20.0).unwrap(),
                    expect.first().copied(),
                    "ray (closest)"
                );
            }
        };
    for round in 0..16 {
        let share = [0.0, 0.01, 0.1, 0.35][round % 4];
        let k = ((live.len() as f64 * share) as usize).min(live.len());
        for _ in 0..k {
            let h = live.swap_remove(rng.random_range(0..live.len()));
            tree.remove(h).unwrap();
            oracle.boxes.remove(&h);
        }
        for i in 0..k + 60 {
            let b = new_body::<f32>(&mut rng, side).aabb();
            let h = tree.insert(b, i).unwrap();
            oracle.boxes.insert(h, b);
            live.push(h);
        }
        for _ in 0..5 {
            let h = live.pop().unwrap();
            tree.remove(h).unwrap();
            oracle.boxes.remove(&h);
        }
        tree.validate().unwrap();
        check_queries(&tree, &oracle, &mut rng);
        tree.overlapping_pairs(&mut pairs);
        assert_eq!(pairs, oracle.pairs(), "pairs after round {round}");
        tree.validate().unwrap();
        check_queries(&tree, &oracle, &mut rng);
    }
    assert!(live.len() > 500, "{} objects", live.len());
    // The root's object removed while a new one waits: no tree, one object.
    let mut tree = DynamicTree::<f32, usize>::new(0.05).unwrap();
    let cube = |x: f32| Aabb {
        min: Point3::new(x, 0.0, 0.0),
        max: Point3::new(x + 1.0, 1.0, 1.0),
    };
    let a = tree.insert(cube(0.0), 0).unwrap();
    let b = tree.insert(cube(0.5), 1).unwrap();
    tree.remove(a).unwrap();
    tree.validate().unwrap();
    tree.query_aabb(&cube(0.2), &mut handles).unwrap();
    assert_eq!(handles, vec![b]);
    tree.query_point(&Point3::new(1.2, 0.5, 0.5), &mut handles)
        .unwrap();
    assert_eq!(handles, vec![b]);
    let ray = Ray::new(Point3::new(-1.0, 0.5, 0.5), Vector3::new(1.0, 0.0, 0.0));
    assert_eq!(
        tree.cast_ray_closest(&ray, 10.0).unwrap(),
        Some(RayHit { handle: b, t: 1.5 })
    );
    let c = tree.insert(cube(1.2), 2).unwrap();
    tree.overlapping_pairs(&mut pairs);
    // `c` takes the slot `a` left, so its handle may order first.
    assert_eq!(
        pairs,
        vec![ProxyPair {
            a: b.min(c),
            b: b.max(c)
        }]
    );
    tree.validate().unwrap();
}
