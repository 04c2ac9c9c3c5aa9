//! The churn scene of the broad-phase benchmark: `n` boxes at rest (the
//! boxes of [`Scene`]) of which each step removes a fixed fraction, chosen
//! at random, and inserts as many new boxes at random places; one "world"
//! per broad phase (clash's dynamic tree, parry3d 0.31's `Bvh` by full
//! insertion, and by partial insertion plus one refit), each replaying the
//! same sequence of removals and insertions from the same seed.
#![allow(dead_code)]
use super::broad_worlds::{MARGIN, Scene};
use clash_broad::{DynamicTree, ProxyHandle, ProxyPair};
use clash_bv::Aabb;
use clash_math::Point3;
use rand::{RngExt, SeedableRng};

/// The sequence of changes: which positions are replaced each step, and by
/// which boxes. Every world owns one built from the same seed.
pub struct Churn {
    rng: rand_chacha::ChaCha8Rng,
    /// A permutation of the positions; each step draws its positions from it
    /// by a partial Fisher–Yates shuffle (distinct positions, O(k) a step).
    perm: Vec<u32>,
    side: f64,
    /// Positions replaced this step, and their new boxes (min, max).
    pub picked: Vec<u32>,
    pub boxes: Vec<([f64; 3], [f64; 3])>,
}

impl Churn {
    /// Replaces `fraction` of `n` positions a step.
    pub fn new(n: usize, fraction: f64, seed: u64) -> Self {
        let k = ((n as f64) * fraction).round() as usize;
        Self {
            rng: rand_chacha::ChaCha8Rng::seed_from_u64(seed),
            perm: (0..n as u32).collect(),
            side: 2.0 * (n as f64).cbrt(),
            picked: Vec::with_capacity(k),
            boxes: Vec::with_capacity(k),
        }
        .with_len(k)
    }

    fn with_len(mut self, k: usize) -> Self {
        self.picked.resize(k, 0);
        self.boxes.resize(k, ([0.0; 3], [0.0; 3]));
        self
    }

    /// Draws the next step's positions and boxes.
    pub fn next(&mut self) {
        let n = self.perm.len();
        for j in 0..self.picked.len() {
            let r = self.rng.random_range(j..n);
            self.perm.swap(j, r);
            self.picked[j] = self.perm[j];
            let mut b = ([0.0; 3], [0.0; 3]);
            for a in 0..3 {
                let c = self.rng.random_range(0.0..self.side);
                let h = self.rng.random_range(0.05..0.8);
                b.0[a] = c - h;
                b.1[a] = c + h;
            }
            self.boxes[j] = b;
        }
    }
}

fn clash_box(b: &([f64; 3], [f64; 3])) -> Aabb<f32> {
    let p = |a: [f64; 3]| Point3::new(a[0] as f32, a[1] as f32, a[2] as f32);
    Aabb {
        min: p(b.0),
        max: p(b.1),
    }
}

/// clash's dynamic tree (f32, margin [`MARGIN`]) under churn: `remove`
/// then `insert` per replaced object, then `settle`.
pub struct ClashChurn {
    pub tree: DynamicTree<f32, u32>,
    handles: Vec<ProxyHandle>,
    churn: Churn,
    pairs: Vec<ProxyPair>,
}

impl ClashChurn {
    pub fn new(n: usize, fraction: f64, seed: u64) -> Self {
        let scene = Scene::new(n, seed);
        let mut tree = DynamicTree::<f32, u32>::new(MARGIN as f32).unwrap();
        let handles = (0..n)
            .map(|i| tree.insert(scene.aabb(i), i as u32).unwrap())
            .collect();
        Self {
            tree,
            handles,
            churn: Churn::new(n, fraction, seed + 1),
            pairs: Vec::new(),
        }
    }

    /// One step of churn; returns the number of objects replaced.
    pub fn churn(&mut self) -> usize {
        self.churn.next();
        for &p in &self.churn.picked {
            self.tree.remove(self.handles[p as usize]).unwrap();
        }
        for (&p, b) in self.churn.picked.iter().zip(&self.churn.boxes) {
            self.handles[p as usize] = self.tree.insert(clash_box(b), p).unwrap();
        }
        // The tree brought up to date, as parry's is after its insertions.
        self.tree.settle();
        self.churn.picked.len()
    }

    /// All overlapping pairs; returns their count.
    pub fn pairs(&mut self) -> usize {
        self.tree.overlapping_pairs(&mut self.pairs);
        self.pairs.len()
    }

    /// The pairs of the last [`pairs`](Self::pairs) as sorted position pairs.
    pub fn position_pairs(&self) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = self
            .pairs
            .iter()
            .map(|p| {
                let (a, b) = (*self.tree.data(p.a).unwrap(), *self.tree.data(p.b).unwrap());
                (a.min(b), a.max(b))
            })
            .collect();
        out.sort_unstable();
        out
    }
}

pub mod parry {
    use super::{Churn, MARGIN, Scene};
    use crate::broad_worlds::parry::tight_pairs;
    use parry3d::bounding_volume::{Aabb, BoundingVolume};
    use parry3d::math::Vector;
    use parry3d::partitioning::{Bvh, BvhWorkspace};

    fn aabb(b: &([f64; 3], [f64; 3])) -> Aabb {
        let v = |a: [f64; 3]| Vector::new(a[0] as f32, a[1] as f32, a[2] as f32);
        Aabb::new(v(b.0), v(b.1))
    }

    /// parry3d's `Bvh` under churn, the leaf index being the position:
    /// `remove` then, with `partial`, `insert_or_update_partially` of the
    /// fat box and one `refit` per step (as rapier's broad phase does), or
    /// else `insert` of the fat box (ancestors kept up to date).
    pub struct ParryChurn {
        bvh: Bvh,
        ws: BvhWorkspace,
        tight: Vec<Aabb>,
        churn: Churn,
        partial: bool,
        pairs: Vec<(u32, u32)>,
    }

    impl ParryChurn {
        pub fn new(n: usize, fraction: f64, seed: u64, partial: bool) -> Self {
            let scene = Scene::new(n, seed);
            let tight: Vec<Aabb> = (0..n).map(|i| aabb(&scene.bounds(i))).collect();
            let mut bvh = Bvh::new();
            for (i, b) in tight.iter().enumerate() {
                bvh.insert(b.loosened(MARGIN as f32), i as u32);
            }
            Self {
                bvh,
                ws: BvhWorkspace::default(),
                tight,
                churn: Churn::new(n, fraction, seed + 1),
                partial,
                pairs: Vec::new(),
            }
        }

        pub fn churn(&mut self) -> usize {
            self.churn.next();
            for &p in &self.churn.picked {
                self.bvh.remove(p);
            }
            for (&p, b) in self.churn.picked.iter().zip(&self.churn.boxes) {
                let t = aabb(b);
                self.tight[p as usize] = t;
                if self.partial {
                    let _ = self
                        .bvh
                        .insert_or_update_partially(t.loosened(MARGIN as f32), p, 0.0);
                } else {
                    self.bvh.insert(t.loosened(MARGIN as f32), p);
                }
            }
            if self.partial {
                self.bvh.refit(&mut self.ws);
            }
            self.churn.picked.len()
        }

        /// All overlapping pairs (the tree traversed against itself,
        /// filtered on the tight boxes); returns their count.
        pub fn pairs(&mut self) -> usize {
            tight_pairs(&self.bvh, &mut self.ws, &self.tight, &mut self.pairs)
        }

        pub fn position_pairs(&self) -> Vec<(u32, u32)> {
            let mut out = self.pairs.clone();
            out.sort_unstable();
            out
        }
    }
}
