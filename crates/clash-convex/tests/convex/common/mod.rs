//! Random cases for the tests: point sets of every kind, poses, scales.
#![allow(dead_code)]

/// The number of random cases a test runs: `default`, or the value of the
/// environment variable `CLASH_CONVEX_CASES` when set.
pub fn cases(default: usize) -> usize {
    std::env::var("CLASH_CONVEX_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

use clash_math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A seeded random source with geometric helpers.
pub struct Gen(pub ChaCha8Rng);

/// The kinds of point sets hulls are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Points on a sphere (every point a vertex).
    Round,
    /// Points in a ball (some inside).
    Blob,
    /// The corners of a random box.
    Box,
    /// Points in a plane: a flat hull.
    Flat,
    /// Points near a line: a needle-thin hull, sometimes exactly a segment.
    Needle,
    /// A few points each repeated.
    Duplicates,
    /// A tetrahedron.
    Tetra,
}

impl Gen {
    /// The source for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// Uniform in `[lo, hi)`.
    pub fn f(&mut self, lo: f64, hi: f64) -> f64 {
        self.0.random_range(lo..hi)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0.random_range(0..n)
    }

    /// A uniformly random unit vector.
    pub fn unit(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(self.f(-1.0, 1.0), self.f(-1.0, 1.0), self.f(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }

    /// A uniformly random rotation.
    pub fn rotation(&mut self) -> UnitQuaternion<f64> {
        let axis = self.unit();
        UnitQuaternion::from_scaled_axis(axis * self.f(0.0, std::f64::consts::PI))
    }

    /// A pose with a random rotation and the given translation.
    pub fn pose(&mut self, t: Vector3<f64>) -> Isometry3<f64> {
        Isometry3::from_parts(Translation3::from(t), self.rotation())
    }

    /// A pose with a random rotation, translated by up to `max` in a random
    /// direction.
    pub fn pose_within(&mut self, max: f64) -> Isometry3<f64> {
        let t = self.unit() * self.f(0.0, max.max(f64::MIN_POSITIVE));
        self.pose(t)
    }

    /// `n` points of the given kind, of size about 1 about the origin.
    pub fn points(&mut self, kind: Kind, n: usize) -> Vec<Point3<f64>> {
        match kind {
            Kind::Round => (0..n).map(|_| Point3::from(self.unit())).collect(),
            Kind::Blob => (0..n)
                .map(|_| Point3::from(self.unit() * self.f(0.0, 1.0)))
                .collect(),
            Kind::Box => {
                let e = [self.f(0.05, 1.0), self.f(0.05, 1.0), self.f(0.05, 1.0)];
                let mut pts = Vec::new();
                for i in 0..8 {
                    pts.push(Point3::new(
                        if i & 1 == 0 { -e[0] } else { e[0] },
                        if i & 2 == 0 { -e[1] } else { e[1] },
                        if i & 4 == 0 { -e[2] } else { e[2] },
                    ));
                }
                pts
            }
            Kind::Flat => (0..n.max(3))
                .map(|_| Point3::new(self.f(-1.0, 1.0), self.f(-1.0, 1.0), 0.0))
                .collect(),
            Kind::Needle => {
                let exact = self.below(2) == 0;
                (0..n.max(2))
                    .map(|_| {
                        let x = self.f(-1.0, 1.0);
                        if exact {
                            Point3::new(x, 0.0, 0.0)
                        } else {
                            Point3::new(x, self.f(-1e-7, 1e-7), self.f(-1e-7, 1e-7))
                        }
                    })
                    .collect()
            }
            Kind::Duplicates => {
                let base = self.points(Kind::Blob, (n / 3).max(4));
                let mut pts = Vec::new();
                for p in &base {
                    for _ in 0..3 {
                        pts.push(*p);
                    }
                }
                pts
            }
            Kind::Tetra => (0..4).map(|_| Point3::from(self.unit())).collect(),
        }
    }

    /// A random kind, solid kinds more often.
    pub fn kind(&mut self) -> Kind {
        const KINDS: [Kind; 10] = [
            Kind::Round,
            Kind::Round,
            Kind::Blob,
            Kind::Blob,
            Kind::Box,
            Kind::Box,
            Kind::Flat,
            Kind::Needle,
            Kind::Duplicates,
            Kind::Tetra,
        ];
        KINDS[self.below(KINDS.len())]
    }
}

pub use crate::check::Opaque;
