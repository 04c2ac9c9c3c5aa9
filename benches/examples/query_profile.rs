//! Runs one kind of query on one pair of shapes in a loop, for profilers
//! (`perf record`, callgrind) and quick timings: prints the CPU time per
//! query.
//!
//! ```sh
//! cargo run --release -p clash-benches --example query_profile -- PAIR SEPARATION QUERY SECONDS
//! # PAIR: ball_ball capsule_capsule box_box ball_box cylinder_cylinder cone_box hull8 hull64 hull512
//! # SEPARATION: a multiple of the shapes' size (-1e-4, 1e-3, 1); QUERY: distance contact intersects
//! ```

use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::shape::bounding::bounding_sphere;
use clash_convex::*;
use clash_math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

/// A small deterministic generator (xorshift), to need no dependency.
struct Rng(u64);

impl Rng {
    fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn unit(&mut self) -> Vector3<f64> {
        loop {
            let v = Vector3::new(
                2.0 * self.f() - 1.0,
                2.0 * self.f() - 1.0,
                2.0 * self.f() - 1.0,
            );
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
    fn rotation(&mut self) -> UnitQuaternion<f64> {
        UnitQuaternion::from_scaled_axis(self.unit() * (self.f() * std::f64::consts::PI))
    }
}

fn hull(n: usize, r: &mut Rng) -> Shape<f64> {
    let pts: Vec<Point3<f64>> = (0..n).map(|_| Point3::from(r.unit())).collect();
    Arc::new(ConvexHull::new(&pts).unwrap()).into()
}

fn pair(name: &str, r: &mut Rng) -> (Shape<f64>, Shape<f64>) {
    let v = |x: f64, y: f64, z: f64| Vector3::new(x, y, z);
    match name {
        "ball_ball" => (
            Ball::new(0.5).unwrap().into(),
            Ball::new(0.3).unwrap().into(),
        ),
        "capsule_capsule" => (
            CapsuleShape::new(0.5, 0.2).unwrap().into(),
            CapsuleShape::new(0.3, 0.3).unwrap().into(),
        ),
        "box_box" => (
            Cuboid::new(v(0.5, 0.3, 0.2)).unwrap().into(),
            Cuboid::new(v(0.4, 0.4, 0.1)).unwrap().into(),
        ),
        "ball_box" => (
            Ball::new(0.4).unwrap().into(),
            Cuboid::new(v(0.5, 0.3, 0.2)).unwrap().into(),
        ),
        "cylinder_cylinder" => (
            Cylinder::new(0.5, 0.2).unwrap().into(),
            Cylinder::new(0.3, 0.4).unwrap().into(),
        ),
        "cone_box" => (
            Cone::new(0.5, 0.3).unwrap().into(),
            Cuboid::new(v(0.4, 0.2, 0.3)).unwrap().into(),
        ),
        "hull8" => (hull(8, r), hull(8, r)),
        "hull64" => (hull(64, r), hull(64, r)),
        "hull512" => (hull(512, r), hull(512, r)),
        other => panic!("unknown pair {other}"),
    }
}

/// Counts support calls (GJK and EPA each make one per iteration).
struct Counting<'a>(&'a Shape<f64>, std::cell::Cell<u64>);

impl SupportMap<f64> for Counting<'_> {
    fn support_point(&self, d: &Vector3<f64>) -> Point3<f64> {
        self.1.set(self.1.get() + 1);
        self.0.support_point(d)
    }
    fn support_point_hinted(&self, d: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        self.1.set(self.1.get() + 1);
        self.0.support_point_hinted(d, hint)
    }
    fn margin(&self) -> f64 {
        self.0.margin()
    }
    fn center(&self) -> Point3<f64> {
        self.0.center()
    }
    fn extent(&self) -> f64 {
        self.0.extent()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("box_box", |s| s.as_str());
    let separation: f64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1e-3);
    let query = args.get(3).map_or("distance", |s| s.as_str());
    let seconds: f64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(2.0);
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let (a, b) = pair(name, &mut r);
    let id = Isometry3::identity();
    let size = 2.0
        * bounding_sphere(&a, &id)
            .radius
            .max(bounding_sphere(&b, &id).radius);
    let target = separation * size;
    let req = QueryRequest::default();
    // 256 pose pairs at the signed distance asked.
    let poses: Vec<(Isometry3<f64>, Isometry3<f64>)> = (0..256)
        .map(|_| {
            let pa = Isometry3::from_parts(Translation3::identity(), r.rotation());
            let mut pb =
                Isometry3::from_parts(Translation3::from(r.unit() * (size + target)), r.rotation());
            for _ in 0..50 {
                let c = contact(&a, &pa, &b, &pb, &req);
                let err = target - c.distance;
                if err.abs() <= 1e-9 * size {
                    break;
                }
                pb.translation.vector += c.normal * err;
            }
            (pa, pb)
        })
        .collect();
    // A negative time asks for a fixed number of rounds over the poses
    // (for instruction counts under callgrind).
    let rounds = if seconds < 0.0 {
        (-seconds) as u64
    } else {
        u64::MAX
    };
    let seconds = if seconds < 0.0 {
        f64::INFINITY
    } else {
        seconds
    };
    let counting = Counting(&a, std::cell::Cell::new(0));
    for (pa, pb) in &poses {
        match query {
            "contact" => black_box(contact(&counting, pa, &b, pb, &req).distance),
            _ => black_box(distance(&counting, pa, &b, pb, &req).distance),
        };
    }
    println!(
        "{:.2} support calls per query through GJK/EPA (closed forms not used here)",
        counting.1.get() as f64 / poses.len() as f64
    );
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed().as_secs_f64() < seconds.abs() && n / (poses.len() as u64) < rounds {
        for (pa, pb) in &poses {
            match query {
                "contact" => {
                    black_box(contact(&a, pa, &b, pb, &req).distance);
                }
                "intersects" => {
                    black_box(intersects(&a, pa, &b, pb, &req));
                }
                _ => {
                    black_box(distance(&a, pa, &b, pb, &req).distance);
                }
            }
        }
        n += poses.len() as u64;
    }
    println!(
        "{name} {separation} {query}: {:.1} ns per query ({n} queries, wall clock)",
        start.elapsed().as_secs_f64() * 1e9 / n as f64
    );
}
