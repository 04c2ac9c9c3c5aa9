//! clash-convex's `query::distance` and `query::contact` against
//! parry3d-f64's `query::distance` and `query::contact` (with an infinite
//! prediction, so that it too answers for shapes apart) on the same shapes
//! and poses: primitives, random hulls of 8, 64 and 512 vertices, and the
//! convex hulls of the Panda arm's collision meshes, at signed distances of
//! -1e-4, +1e-3 and 1 times the shapes' size. Each measurement runs a batch
//! of 256 queries through each library's dynamic shape type (`Shape` and
//! `SharedShape`); criterion reports the time per batch.
//!
//! Before measuring, the accuracy of both against a brute-force reference
//! (polytope pairs) or against each other (round shapes) is printed.
//!
//! Times are the benchmark thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`),
//! not wall-clock time: on the shared 2-core machine the load from other
//! jobs stretches wall-clock times by up to 3x while CPU times stay put.
//! `clash_distance_1e-7` runs the distance at a relative tolerance of
//! 1e-7, the accuracy parry reaches on round shapes (its GJK stops at a
//! relative gap of about 1.5e-7), for a like-for-like comparison there.

#[path = "common/convex_cases.rs"]
mod convex_cases;

use clash_convex::query::{QueryRequest, contact, distance};
use clash_math::Vector3;
use convex_cases::{Both, Sample, panda_hulls, samples, sphere_points};
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 256;
const SEPARATIONS: [(f64, &str); 3] = [
    (-1e-4, "overlap_1e-4"),
    (1e-3, "apart_1e-3"),
    (1.0, "apart_1"),
];

fn cases() -> Vec<(String, Vec<(Both, Both)>)> {
    let mut out = vec![
        (
            "ball_ball".to_owned(),
            vec![(Both::ball(0.5), Both::ball(0.3))],
        ),
        (
            "capsule_capsule".to_owned(),
            vec![(Both::capsule(0.5, 0.2), Both::capsule(0.3, 0.3))],
        ),
        (
            "box_box".to_owned(),
            vec![(
                Both::cuboid(Vector3::new(0.5, 0.3, 0.2)),
                Both::cuboid(Vector3::new(0.4, 0.4, 0.1)),
            )],
        ),
        (
            "ball_box".to_owned(),
            vec![(Both::ball(0.4), Both::cuboid(Vector3::new(0.5, 0.3, 0.2)))],
        ),
        (
            "cylinder_cylinder".to_owned(),
            vec![(Both::cylinder(0.5, 0.2), Both::cylinder(0.3, 0.4))],
        ),
        (
            "cone_box".to_owned(),
            vec![(
                Both::cone(0.5, 0.3),
                Both::cuboid(Vector3::new(0.4, 0.2, 0.3)),
            )],
        ),
    ];
    for n in [8, 64, 512] {
        let pairs = (0..4)
            .map(|k| {
                (
                    Both::hull(&sphere_points(n, 2 * k)),
                    Both::hull(&sphere_points(n, 2 * k + 1)),
                )
            })
            .collect();
        out.push((format!("hull{n}"), pairs));
    }
    let panda = panda_hulls();
    let pairs = (0..panda.len())
        .map(|i| (panda[i].1.clone(), panda[(i + 1) % panda.len()].1.clone()))
        .collect();
    out.push(("panda".to_owned(), pairs));
    out
}

/// Prints the largest error of each library against the reference,
/// relative to the size: brute force for polytope pairs; for round shapes
/// clash at its default tolerance (checked against closed forms and
/// bracketing polytopes by clash-convex's tests), which also measures
/// clash at a tolerance of 1e-7.
fn accuracy(name: &str, sep: &str, s: &[Sample]) {
    let req = QueryRequest::default();
    let loose = QueryRequest {
        tolerance: 1e-7,
        ..QueryRequest::default()
    };
    let (mut ours, mut ours_loose, mut theirs) = (0.0_f64, 0.0_f64, 0.0_f64);
    for x in s {
        let c = contact(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &req).distance;
        let d = distance(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &req).distance;
        let dl = distance(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &loose).distance;
        let p =
            parry3d_f64::query::contact(&x.parry_a, &*x.a.theirs, &x.parry_b, &*x.b.theirs, 1e30)
                .ok()
                .flatten()
                .map_or(f64::NAN, |k| k.dist);
        let pd = parry3d_f64::query::distance(&x.parry_a, &*x.a.theirs, &x.parry_b, &*x.b.theirs)
            .map_or(f64::NAN, |k| k.distance);
        let r = x.reference.unwrap_or(c);
        let err = |v: f64, exact: f64| (v - exact).abs() / x.size;
        if x.reference.is_some() {
            ours = ours.max(err(c, r)).max(err(d, r.max(0.0)));
        }
        ours_loose = ours_loose.max(err(dl, r.max(0.0)));
        theirs = theirs.max(err(p, r)).max(err(pd, r.max(0.0)));
    }
    let what = if s.iter().all(|x| x.reference.is_some()) {
        "brute force"
    } else {
        "clash at 1e-10"
    };
    eprintln!(
        "accuracy {name:18} {sep:13} vs {what:14}: clash {ours:.1e}, clash at 1e-7 {ours_loose:.1e}, parry {theirs:.1e} (max error / size)"
    );
}

/// The calling thread's CPU time.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` writes one `timespec` through the valid,
    // exclusive pointer it is given and reads nothing else.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Criterion's measurement as the thread's CPU time.
struct CpuTime;

impl Measurement for CpuTime {
    type Intermediate = Duration;
    type Value = Duration;
    fn start(&self) -> Duration {
        thread_cpu_time()
    }
    fn end(&self, start: Duration) -> Duration {
        thread_cpu_time().saturating_sub(start)
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, v: &Duration) -> f64 {
        v.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        static WALL: WallTime = WallTime;
        WALL.formatter()
    }
}

fn convex(c: &mut Criterion<CpuTime>) {
    let req = QueryRequest::default();
    let loose = QueryRequest {
        tolerance: 1e-7,
        ..QueryRequest::default()
    };
    for (name, pairs) in cases() {
        for (sep, label) in SEPARATIONS {
            let s = samples(&pairs, sep, N, 7, true);
            accuracy(&name, label, &s);
            let mut g = c.benchmark_group(format!("convex/{name}/{label}"));
            g.throughput(Throughput::Elements(N as u64));
            g.sample_size(20);
            g.warm_up_time(Duration::from_millis(300));
            g.measurement_time(Duration::from_millis(800));
            g.bench_function("clash_distance", |b| {
                b.iter(|| {
                    for x in &s {
                        black_box(
                            distance(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &req).distance,
                        );
                    }
                })
            });
            if name.starts_with("cylinder") || name.starts_with("cone") {
                g.bench_function("clash_distance_1e-7", |b| {
                    b.iter(|| {
                        for x in &s {
                            black_box(
                                distance(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &loose)
                                    .distance,
                            );
                        }
                    })
                });
            }
            g.bench_function("parry_distance", |b| {
                b.iter(|| {
                    for x in &s {
                        black_box(
                            parry3d_f64::query::distance(
                                &x.parry_a,
                                &*x.a.theirs,
                                &x.parry_b,
                                &*x.b.theirs,
                            )
                            .ok(),
                        );
                    }
                })
            });
            g.bench_function("clash_contact", |b| {
                b.iter(|| {
                    for x in &s {
                        black_box(
                            contact(&x.a.ours, &x.pose_a, &x.b.ours, &x.pose_b, &req).distance,
                        );
                    }
                })
            });
            g.bench_function("parry_contact", |b| {
                b.iter(|| {
                    for x in &s {
                        black_box(
                            parry3d_f64::query::contact(
                                &x.parry_a,
                                &*x.a.theirs,
                                &x.parry_b,
                                &*x.b.theirs,
                                1e30,
                            )
                            .ok()
                            .flatten()
                            .map(|k| k.dist),
                        );
                    }
                })
            });
            g.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().with_measurement(CpuTime);
    targets = convex
}
criterion_main!(benches);
