//! Broad phase per step: update every moving box, then enumerate all
//! overlapping pairs (exact on the tight boxes), for clash-broad's dynamic
//! tree and sort-and-sweep against parry3d 0.31's `Bvh` (updated
//! incrementally with a margin, refit, incrementally optimised, traversed
//! against itself) and the bvh crate 0.13 (rebuilt, then one box query per object).
//!
//! `cargo bench -p clash-benches --bench broad -- --warm-up-time 1 --measurement-time 3`
//!
//! Before the timings it prints the tree quality after 1,000 steps: the sum
//! of internal node areas over that of a fresh SAH rebuild of the same boxes.
use clash_broad::{BroadPhase, DynamicTree, ProxyHandle, ProxyPair, SortAndSweep};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;

/// Margin of the fat boxes, for clash and parry alike.
const MARGIN: f64 = 0.1;

/// `n` boxes of half-widths 0.05..0.8 in a cube of side `2 cbrt(n)` (a few
/// overlaps per box), each moving with a constant velocity up to 0.05 per
/// step and bouncing off the walls.
struct Scene {
    center: Vec<[f64; 3]>,
    half: Vec<[f64; 3]>,
    vel: Vec<[f64; 3]>,
    side: f64,
}

impl Scene {
    fn new(n: usize, seed: u64) -> Self {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let side = 2.0 * (n as f64).cbrt();
        let mut r3 = |lo: f64, hi: f64| {
            [
                rng.random_range(lo..hi),
                rng.random_range(lo..hi),
                rng.random_range(lo..hi),
            ]
        };
        let center = (0..n).map(|_| r3(0.0, side)).collect();
        let half = (0..n).map(|_| r3(0.05, 0.8)).collect();
        let vel = (0..n).map(|_| r3(-0.05, 0.05)).collect();
        Self {
            center,
            half,
            vel,
            side,
        }
    }

    fn len(&self) -> usize {
        self.center.len()
    }

    fn step(&mut self) {
        for (c, v) in self.center.iter_mut().zip(self.vel.iter_mut()) {
            for k in 0..3 {
                c[k] += v[k];
                if c[k] < 0.0 || c[k] > self.side {
                    v[k] = -v[k];
                }
            }
        }
    }

    fn bounds(&self, i: usize) -> ([f64; 3], [f64; 3]) {
        let (c, h) = (self.center[i], self.half[i]);
        (
            [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
            [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
        )
    }

    fn aabb<T: Scalar>(&self, i: usize) -> Aabb<T> {
        let (lo, hi) = self.bounds(i);
        let p = |a: [f64; 3]| Point3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
        Aabb {
            min: p(lo),
            max: p(hi),
        }
    }

    fn displacement<T: Scalar>(&self, i: usize) -> Vector3<T> {
        let v = self.vel[i];
        Vector3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]))
    }
}

// ---------------------------------------------------------------- clash

struct ClashWorld<T: Scalar, B: BroadPhase<T, u32>> {
    scene: Scene,
    bp: B,
    handles: Vec<ProxyHandle>,
    pairs: Vec<ProxyPair>,
    _t: core::marker::PhantomData<T>,
}

impl<T: Scalar, B: BroadPhase<T, u32>> ClashWorld<T, B> {
    fn new(scene: Scene, mut bp: B) -> Self {
        let handles = (0..scene.len())
            .map(|i| bp.insert(scene.aabb(i), i as u32).unwrap())
            .collect();
        Self {
            scene,
            bp,
            handles,
            pairs: Vec::new(),
            _t: core::marker::PhantomData,
        }
    }

    /// One step: move, update every object, enumerate pairs. Returns the pair count.
    fn step(&mut self) -> usize {
        self.scene.step();
        for (i, h) in self.handles.iter().enumerate() {
            self.bp
                .update(*h, self.scene.aabb(i), self.scene.displacement(i))
                .unwrap();
        }
        self.bp.overlapping_pairs(&mut self.pairs);
        self.pairs.len()
    }
}

// ---------------------------------------------------------------- parry3d

mod parry {
    use super::{MARGIN, Scene};
    use parry3d::bounding_volume::{Aabb, BoundingVolume};
    use parry3d::math::Vector;
    use parry3d::partitioning::{Bvh, BvhWorkspace};

    pub struct ParryWorld {
        pub scene: Scene,
        bvh: Bvh,
        ws: BvhWorkspace,
        tight: Vec<Aabb>,
        pairs: Vec<(u32, u32)>,
    }

    fn aabb(scene: &Scene, i: usize) -> Aabb {
        let (lo, hi) = scene.bounds(i);
        let v = |a: [f64; 3]| Vector::new(a[0] as f32, a[1] as f32, a[2] as f32);
        Aabb::new(v(lo), v(hi))
    }

    impl ParryWorld {
        pub fn new(scene: Scene) -> Self {
            let mut bvh = Bvh::new();
            let tight: Vec<Aabb> = (0..scene.len()).map(|i| aabb(&scene, i)).collect();
            for (i, b) in tight.iter().enumerate() {
                let _ = bvh.insert_or_update_partially(*b, i as u32, MARGIN as f32);
            }
            let mut ws = BvhWorkspace::default();
            bvh.refit(&mut ws);
            Self {
                scene,
                bvh,
                ws,
                tight,
                pairs: Vec::new(),
            }
        }

        /// One step as a parry-based broad phase does it: partial updates with
        /// a change-detection margin, one refit, incremental optimisation, then
        /// the tree traversed against itself; pairs filtered on the tight boxes.
        pub fn step(&mut self) -> usize {
            self.scene.step();
            for i in 0..self.scene.len() {
                let b = aabb(&self.scene, i);
                self.tight[i] = b;
                let _ = self
                    .bvh
                    .insert_or_update_partially(b, i as u32, MARGIN as f32);
            }
            self.bvh.refit(&mut self.ws);
            self.bvh.optimize_incremental(&mut self.ws);
            self.pairs.clear();
            let (tight, pairs) = (&self.tight, &mut self.pairs);
            self.bvh
                .traverse_bvtt_single_tree::<false>(&mut self.ws, &mut |a, b| {
                    if tight[a as usize].intersects(&tight[b as usize]) {
                        pairs.push((a.min(b), a.max(b)));
                    }
                });
            self.pairs.len()
        }
    }
}

// ---------------------------------------------------------------- bvh 0.13

mod svenstaro {
    use super::Scene;
    use bvh::aabb::{Aabb, Bounded};
    use bvh::bounding_hierarchy::{BHShape, BHValue};
    use bvh::bvh::Bvh;
    use clash_math::{Point3, Scalar};

    pub struct Shape<T: BHValue> {
        aabb: Aabb<T, 3>,
        node: usize,
        index: u32,
    }
    impl<T: BHValue> Bounded<T, 3> for Shape<T> {
        fn aabb(&self) -> Aabb<T, 3> {
            self.aabb
        }
    }
    impl<T: BHValue> BHShape<T, 3> for Shape<T> {
        fn set_bh_node_index(&mut self, i: usize) {
            self.node = i;
        }
        fn bh_node_index(&self) -> usize {
            self.node
        }
    }

    pub struct BvhWorld<T: BHValue + Scalar> {
        pub scene: Scene,
        shapes: Vec<Shape<T>>,
        pairs: Vec<(u32, u32)>,
    }

    fn aabb<T: BHValue + Scalar>(scene: &Scene, i: usize) -> Aabb<T, 3> {
        let (lo, hi) = scene.bounds(i);
        let p = |a: [f64; 3]| Point3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
        Aabb::with_bounds(p(lo), p(hi))
    }

    impl<T: BHValue + Scalar> BvhWorld<T> {
        pub fn new(scene: Scene) -> Self {
            let shapes = (0..scene.len())
                .map(|i| Shape {
                    aabb: aabb(&scene, i),
                    node: 0,
                    index: i as u32,
                })
                .collect();
            Self {
                scene,
                shapes,
                pairs: Vec::new(),
            }
        }

        /// One step: every box moved, so rebuild, then one query per box.
        pub fn step(&mut self) -> usize {
            self.scene.step();
            for (i, s) in self.shapes.iter_mut().enumerate() {
                s.aabb = aabb(&self.scene, i);
            }
            let bvh = Bvh::build(&mut self.shapes);
            self.pairs.clear();
            for s in &self.shapes {
                for other in bvh.traverse_iterator(&s.aabb, &self.shapes) {
                    if s.index < other.index {
                        self.pairs.push((s.index, other.index));
                    }
                }
            }
            self.pairs.len()
        }
    }
}

// ---------------------------------------------------------------- runs

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
        g.bench_function(BenchmarkId::new("clash_tree_p8", "f32"), |b| {
            b.iter(|| black_box(tree32_p8.step()))
        });
        g.bench_function(BenchmarkId::new("parry3d_bvh", "f32"), |b| {
            b.iter(|| black_box(parry.step()))
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

criterion_group!(benches, broad);
criterion_main!(benches);
