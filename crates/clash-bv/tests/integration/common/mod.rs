//! Shared generators and helpers for the clash-bv integration tests.
#![allow(dead_code)]

use clash_bv::{Aabb, Capsule, Kdop, Obb, Rss, Sphere};
use clash_math::{
    Isometry3, Matrix3, Point3, Scalar, Translation3, Triangle, UnitQuaternion, Vector3,
};
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Deterministic RNG.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Converts an f64 point to `T`.
pub fn pt<T: Scalar>(p: &Point3<f64>) -> Point3<T> {
    Point3::new(T::lit(p.x), T::lit(p.y), T::lit(p.z))
}

/// A uniformly random rotation.
pub fn rotation(r: &mut impl Rng) -> UnitQuaternion<f64> {
    let q = clash_math::nalgebra::Quaternion::new(
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
    );
    UnitQuaternion::try_new(q, 1e-6).unwrap_or_else(UnitQuaternion::identity)
}

/// A random rigid motion with translations in `[-s, s]`.
pub fn isometry(r: &mut impl Rng, s: f64) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::new(
            r.random_range(-s..s),
            r.random_range(-s..s),
            r.random_range(-s..s),
        ),
        rotation(r),
    )
}

/// Converts an f64 isometry to `T`.
pub fn iso<T: Scalar>(i: &Isometry3<f64>) -> Isometry3<T> {
    i.cast::<T>()
}

/// Point clouds of several shapes: general, clustered far from the origin,
/// collinear, coplanar, duplicated, single point, tiny scale.
pub fn cloud(kind: u8, n: usize, seed: u64) -> Vec<Point3<f64>> {
    let mut r = rng(seed);
    let n = n.max(1);
    let unit = |r: &mut ChaCha8Rng| {
        Vector3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        )
    };
    let rot = rotation(&mut r);
    match kind % 7 {
        0 => (0..n).map(|_| Point3::from(unit(&mut r) * 50.0)).collect(),
        1 => {
            let o = unit(&mut r) * 1e4;
            (0..n)
                .map(|_| {
                    Point3::from(
                        o + rot
                            * Vector3::new(
                                r.random_range(-3.0..3.0),
                                r.random_range(-0.5..0.5),
                                r.random_range(-0.1..0.1),
                            ),
                    )
                })
                .collect()
        }
        2 => {
            let (a, d) = (unit(&mut r) * 10.0, unit(&mut r));
            (0..n)
                .map(|_| Point3::from(a + d * r.random_range(-20.0..20.0)))
                .collect()
        }
        3 => (0..n)
            .map(|_| {
                Point3::from(
                    rot * Vector3::new(r.random_range(-5.0..5.0), r.random_range(-5.0..5.0), 0.0),
                )
            })
            .collect(),
        4 => {
            let base: Vec<Point3<f64>> = (0..n.div_ceil(3))
                .map(|_| Point3::from(unit(&mut r) * 2.0))
                .collect();
            (0..n).map(|i| base[i % base.len()]).collect()
        }
        5 => vec![Point3::from(unit(&mut r) * 7.0); n],
        _ => (0..n).map(|_| Point3::from(unit(&mut r) * 1e-3)).collect(),
    }
}

/// Consecutive triples as triangles (the last ones wrap around).
pub fn triangles<T: Scalar>(p: &[Point3<T>]) -> Vec<Triangle<T>> {
    (0..p.len().max(1))
        .step_by(3)
        .map(|i| Triangle::new(p[i % p.len()], p[(i + 1) % p.len()], p[(i + 2) % p.len()]))
        .collect()
}

/// Containment slack: `rel * (size + coordinate magnitude)`, `rel` = 1e-5
/// for f32 and 1e-12 for f64 (a few hundred ulps of the magnitudes involved).
pub fn tolerance<T: Scalar>(points: &[Point3<T>]) -> T {
    let rel = if T::NAME == "f32" { 1e-5 } else { 1e-12 };
    let mag = points
        .iter()
        .fold(T::ZERO, |m, p| m.max_of(p.coords.abs().max()));
    let b = Aabb::from_points(points).unwrap();
    let size = (b.max - b.min).norm();
    (size + mag + T::ONE * T::lit(1e-30)) * T::lit(rel)
}

/// A bounding volume grown by a margin (for tolerance checks).
pub trait Inflate<T: Scalar> {
    /// The volume grown by `d` in every direction (or more).
    fn inflated(&self, d: T) -> Self;
}

impl<T: Scalar> Inflate<T> for Aabb<T> {
    fn inflated(&self, d: T) -> Self {
        Aabb {
            min: self.min.map(|x| x - d),
            max: self.max.map(|x| x + d),
        }
    }
}
impl<T: Scalar> Inflate<T> for Sphere<T> {
    fn inflated(&self, d: T) -> Self {
        Sphere {
            center: self.center,
            radius: self.radius + d,
        }
    }
}
impl<T: Scalar> Inflate<T> for Obb<T> {
    fn inflated(&self, d: T) -> Self {
        Obb {
            half_extents: self.half_extents.add_scalar(d),
            ..*self
        }
    }
}
impl<T: Scalar> Inflate<T> for Capsule<T> {
    fn inflated(&self, d: T) -> Self {
        Capsule {
            radius: self.radius + d,
            ..*self
        }
    }
}
impl<T: Scalar> Inflate<T> for Rss<T> {
    fn inflated(&self, d: T) -> Self {
        Rss {
            radius: self.radius + d,
            ..*self
        }
    }
}
impl<T: Scalar, const N: usize> Inflate<T> for Kdop<T, N> {
    fn inflated(&self, d: T) -> Self {
        let d = d * T::lit(2.0); // directions have length up to sqrt(3)
        Kdop {
            min: self.min.map(|x| x - d),
            max: self.max.map(|x| x + d),
        }
    }
}

/// Points on the surface of each BV type (corners, extremes), for checking
/// that a merge or transform contains a whole volume.
pub trait SamplePoints<T: Scalar> {
    /// Some points of the volume, including its extreme points where known.
    fn sample(&self, r: &mut ChaCha8Rng) -> Vec<Point3<T>>;
}

/// A random unit vector.
pub fn unit_vector<T: Scalar>(r: &mut ChaCha8Rng) -> Vector3<T> {
    sphere_dirs(r, 1)[0]
}

fn sphere_dirs<T: Scalar>(r: &mut ChaCha8Rng, n: usize) -> Vec<Vector3<T>> {
    (0..n)
        .map(|_| {
            let v = Vector3::new(
                r.random_range(-1.0..1.0),
                r.random_range(-1.0..1.0),
                r.random_range(-1.0..1.0_f64),
            );
            let v = v.try_normalize(1e-9).unwrap_or(Vector3::x());
            Vector3::new(T::lit(v.x), T::lit(v.y), T::lit(v.z))
        })
        .collect()
}

impl<T: Scalar> SamplePoints<T> for Aabb<T> {
    fn sample(&self, _: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        self.corners().to_vec()
    }
}
impl<T: Scalar> SamplePoints<T> for Obb<T> {
    fn sample(&self, _: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        self.corners().to_vec()
    }
}
impl<T: Scalar> SamplePoints<T> for Sphere<T> {
    fn sample(&self, r: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        sphere_dirs(r, 32)
            .into_iter()
            .map(|d| self.center + d * self.radius)
            .collect()
    }
}
impl<T: Scalar> SamplePoints<T> for Capsule<T> {
    fn sample(&self, r: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        let mut v = Vec::new();
        for d in sphere_dirs::<T>(r, 16) {
            v.push(self.segment.a + d * self.radius);
            v.push(self.segment.b + d * self.radius);
        }
        v
    }
}
impl<T: Scalar> SamplePoints<T> for Rss<T> {
    fn sample(&self, r: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        let mut v = Vec::new();
        for d in sphere_dirs::<T>(r, 8) {
            for c in self.rectangle_corners() {
                v.push(c + d * self.radius);
            }
        }
        v
    }
}
impl<T: Scalar, const N: usize> SamplePoints<T> for Kdop<T, N> {
    fn sample(&self, _: &mut ChaCha8Rng) -> Vec<Point3<T>> {
        // The polytope's vertices are not public; the input points of the
        // merge test already cover k-DOPs.
        let _ = self;
        Vec::new()
    }
}

/// A random matrix as a rotation for `T`.
pub fn rot_matrix<T: Scalar>(q: &UnitQuaternion<f64>) -> Matrix3<T> {
    q.to_rotation_matrix().matrix().cast::<T>()
}
