//! The moving-boxes scene of the broad-phase benchmark and one "world" per
//! broad phase (clash's dynamic tree and sort-and-sweep, parry3d 0.31's
//! `Bvh`, the bvh crate 0.13), each stepping the same scene. Shared by
//! `benches/broad.rs` (criterion) and `broad_count.rs` (instruction
//! counts under callgrind).
#![allow(dead_code)]
use clash_broad::{BroadPhase, ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::{Point3, Scalar, Vector3};
use rand::{RngExt, SeedableRng};

/// Margin of the fat boxes, for clash and parry alike.
pub const MARGIN: f64 = 0.1;

/// `n` boxes of half-widths 0.05..0.8 in a cube of side `2 cbrt(n)` (a few
/// overlaps per box), each moving with a constant velocity up to 0.05 per
/// step and bouncing off the walls.
pub struct Scene {
    pub center: Vec<[f64; 3]>,
    pub half: Vec<[f64; 3]>,
    pub vel: Vec<[f64; 3]>,
    pub side: f64,
}

impl Scene {
    pub fn new(n: usize, seed: u64) -> Self {
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

    pub fn len(&self) -> usize {
        self.center.len()
    }

    pub fn step(&mut self) {
        for (c, v) in self.center.iter_mut().zip(self.vel.iter_mut()) {
            for k in 0..3 {
                c[k] += v[k];
                if c[k] < 0.0 || c[k] > self.side {
                    v[k] = -v[k];
                }
            }
        }
    }

    pub fn bounds(&self, i: usize) -> ([f64; 3], [f64; 3]) {
        let (c, h) = (self.center[i], self.half[i]);
        (
            [c[0] - h[0], c[1] - h[1], c[2] - h[2]],
            [c[0] + h[0], c[1] + h[1], c[2] + h[2]],
        )
    }

    pub fn aabb<T: Scalar>(&self, i: usize) -> Aabb<T> {
        let (lo, hi) = self.bounds(i);
        let p = |a: [f64; 3]| Point3::new(T::lit(a[0]), T::lit(a[1]), T::lit(a[2]));
        Aabb {
            min: p(lo),
            max: p(hi),
        }
    }

    pub fn displacement<T: Scalar>(&self, i: usize) -> Vector3<T> {
        let v = self.vel[i];
        Vector3::new(T::lit(v[0]), T::lit(v[1]), T::lit(v[2]))
    }
}

// ---------------------------------------------------------------- clash

pub struct ClashWorld<T: Scalar, B: BroadPhase<T, u32>> {
    pub scene: Scene,
    pub bp: B,
    handles: Vec<ProxyHandle>,
    pairs: Vec<ProxyPair>,
    _t: core::marker::PhantomData<T>,
}

impl<T: Scalar, B: BroadPhase<T, u32>> ClashWorld<T, B> {
    pub fn new(scene: Scene, mut bp: B) -> Self {
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
    pub fn step(&mut self) -> usize {
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

pub mod parry {
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
            tight_pairs(&self.bvh, &mut self.ws, &self.tight, &mut self.pairs)
        }
    }

    /// Replaces `pairs` with every overlapping pair of `bvh` traversed
    /// against itself, filtered on the tight boxes (smaller index first);
    /// returns their count.
    pub fn tight_pairs(
        bvh: &Bvh,
        ws: &mut BvhWorkspace,
        tight: &[Aabb],
        pairs: &mut Vec<(u32, u32)>,
    ) -> usize {
        pairs.clear();
        bvh.traverse_bvtt_single_tree::<false>(ws, &mut |a, b| {
            if tight[a as usize].intersects(&tight[b as usize]) {
                pairs.push((a.min(b), a.max(b)));
            }
        });
        pairs.len()
    }
}

// ---------------------------------------------------------------- bvh 0.13

pub mod svenstaro {
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

    pub fn aabb<T: BHValue + Scalar>(scene: &Scene, i: usize) -> Aabb<T, 3> {
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
