//! Narrow-phase queries of `clash_narrow` against parry3d 0.31 (f32), plus
//! the f64 variants: ray/triangle, point/triangle closest point,
//! segment/segment and triangle/triangle distance, moving OBB/OBB (parry:
//! `cast_shapes` on two cuboids). Each measurement runs a batch of 1024
//! random queries; criterion reports the time per batch and queries/s.

use std::hint::black_box;

use clash_bv::Obb;
use clash_math::{Matrix3, Point3, Ray, Rotation3, Scalar, Segment, Triangle, Vector3};
use clash_narrow::{cast, closest, moving};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry3d::query::{PointQuery, RayCast};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 1024;

fn v3(r: &mut ChaCha8Rng, s: f64) -> Vector3<f64> {
    Vector3::new(
        r.random_range(-s..s),
        r.random_range(-s..s),
        r.random_range(-s..s),
    )
}

fn tri(r: &mut ChaCha8Rng) -> Triangle<f64> {
    let c = v3(r, 2.0);
    Triangle::new(
        Point3::from(c + v3(r, 1.0)),
        Point3::from(c + v3(r, 1.0)),
        Point3::from(c + v3(r, 1.0)),
    )
}

fn cast_tri<T: Scalar>(t: &Triangle<f64>) -> Triangle<T> {
    let f = |p: &Point3<f64>| Point3::new(T::lit(p.x), T::lit(p.y), T::lit(p.z));
    Triangle::new(f(&t.a), f(&t.b), f(&t.c))
}

fn cast_p<T: Scalar>(p: &Point3<f64>) -> Point3<T> {
    Point3::new(T::lit(p.x), T::lit(p.y), T::lit(p.z))
}

fn pv(p: &Point3<f64>) -> parry3d::math::Vector {
    parry3d::math::Vector::new(p.x as f32, p.y as f32, p.z as f32)
}

fn ptri(t: &Triangle<f64>) -> parry3d::shape::Triangle {
    parry3d::shape::Triangle::new(pv(&t.a), pv(&t.b), pv(&t.c))
}

fn bench_ray_triangle(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(1);
    let cases: Vec<(Ray<f64>, Triangle<f64>)> = (0..N)
        .map(|_| {
            let t = tri(&mut r);
            let o = Point3::from(v3(&mut r, 4.0));
            // aim at the triangle's neighbourhood: about half hit
            let target = t.centroid() + v3(&mut r, 0.6);
            (Ray::new(o, target - o), t)
        })
        .collect();
    let mut g = c.benchmark_group("ray_triangle");
    g.throughput(Throughput::Elements(N as u64));
    let c32: Vec<_> = cases
        .iter()
        .map(|(ray, t)| {
            (
                Ray::new(cast_p::<f32>(&ray.origin), ray.dir.cast::<f32>()),
                cast_tri::<f32>(t),
            )
        })
        .collect();
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            c32.iter()
                .filter(|(ray, t)| {
                    cast::ray_triangle(
                        black_box(ray),
                        black_box(t),
                        cast::Culling::BothSides,
                        0.0,
                        f32::INFINITY,
                    )
                    .is_some()
                })
                .count()
        })
    });
    g.bench_function("clash_f64", |b| {
        b.iter(|| {
            cases
                .iter()
                .filter(|(ray, t)| {
                    cast::ray_triangle(
                        black_box(ray),
                        black_box(t),
                        cast::Culling::BothSides,
                        0.0,
                        f64::INFINITY,
                    )
                    .is_some()
                })
                .count()
        })
    });
    let cp: Vec<_> = cases
        .iter()
        .map(|(ray, t)| {
            (
                parry3d::query::Ray::new(
                    pv(&ray.origin),
                    parry3d::math::Vector::new(
                        ray.dir.x as f32,
                        ray.dir.y as f32,
                        ray.dir.z as f32,
                    ),
                ),
                ptri(t),
            )
        })
        .collect();
    g.bench_function("parry_f32", |b| {
        b.iter(|| {
            cp.iter()
                .filter(|(ray, t)| {
                    black_box(t)
                        .cast_local_ray(black_box(ray), f32::MAX, true)
                        .is_some()
                })
                .count()
        })
    });
    g.finish();
}

fn bench_point_triangle(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(2);
    let cases: Vec<(Point3<f64>, Triangle<f64>)> = (0..N)
        .map(|_| (Point3::from(v3(&mut r, 3.0)), tri(&mut r)))
        .collect();
    let mut g = c.benchmark_group("point_triangle");
    g.throughput(Throughput::Elements(N as u64));
    let c32: Vec<_> = cases
        .iter()
        .map(|(p, t)| (cast_p::<f32>(p), cast_tri::<f32>(t)))
        .collect();
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            c32.iter()
                .map(|(p, t)| closest::point_triangle(black_box(p), black_box(t)).point.x)
                .sum::<f32>()
        })
    });
    g.bench_function("clash_f64", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|(p, t)| closest::point_triangle(black_box(p), black_box(t)).point.x)
                .sum::<f64>()
        })
    });
    let cp: Vec<_> = cases.iter().map(|(p, t)| (pv(p), ptri(t))).collect();
    g.bench_function("parry_f32", |b| {
        b.iter(|| {
            cp.iter()
                .map(|(p, t)| {
                    black_box(t)
                        .project_local_point(*black_box(p), true)
                        .point
                        .x
                })
                .sum::<f32>()
        })
    });
    g.finish();
}

fn bench_segment_segment(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(3);
    let cases: Vec<(Segment<f64>, Segment<f64>)> = (0..N)
        .map(|_| {
            let p: Vec<Point3<f64>> = (0..4).map(|_| Point3::from(v3(&mut r, 2.0))).collect();
            (Segment::new(p[0], p[1]), Segment::new(p[2], p[3]))
        })
        .collect();
    let mut g = c.benchmark_group("segment_segment");
    g.throughput(Throughput::Elements(N as u64));
    let c32: Vec<_> = cases
        .iter()
        .map(|(s, t)| {
            (
                Segment::new(cast_p::<f32>(&s.a), cast_p(&s.b)),
                Segment::new(cast_p::<f32>(&t.a), cast_p(&t.b)),
            )
        })
        .collect();
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            c32.iter()
                .map(|(s, t)| {
                    closest::segment_segment(black_box(s), black_box(t))
                        .points
                        .distance_squared
                })
                .sum::<f32>()
        })
    });
    g.bench_function("clash_f64", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|(s, t)| {
                    closest::segment_segment(black_box(s), black_box(t))
                        .points
                        .distance_squared
                })
                .sum::<f64>()
        })
    });
    let id = parry3d::math::Pose::identity();
    let cp: Vec<_> = cases
        .iter()
        .map(|(s, t)| {
            (
                parry3d::shape::Segment::new(pv(&s.a), pv(&s.b)),
                parry3d::shape::Segment::new(pv(&t.a), pv(&t.b)),
            )
        })
        .collect();
    g.bench_function("parry_f32", |b| {
        b.iter(|| {
            cp.iter()
                .map(|(s, t)| {
                    parry3d::query::distance(&id, black_box(s), &id, black_box(t))
                        .unwrap()
                        .distance
                })
                .sum::<f32>()
        })
    });
    g.finish();
}

fn bench_triangle_triangle(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(4);
    let cases: Vec<(Triangle<f64>, Triangle<f64>)> =
        (0..N).map(|_| (tri(&mut r), tri(&mut r))).collect();
    let mut g = c.benchmark_group("triangle_triangle_distance");
    g.throughput(Throughput::Elements(N as u64));
    let c32: Vec<_> = cases
        .iter()
        .map(|(s, t)| (cast_tri::<f32>(s), cast_tri::<f32>(t)))
        .collect();
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            c32.iter()
                .map(|(s, t)| {
                    closest::triangle_triangle(black_box(s), black_box(t)).distance_squared
                })
                .sum::<f32>()
        })
    });
    g.bench_function("clash_f64", |b| {
        b.iter(|| {
            cases
                .iter()
                .map(|(s, t)| {
                    closest::triangle_triangle(black_box(s), black_box(t)).distance_squared
                })
                .sum::<f64>()
        })
    });
    let id = parry3d::math::Pose::identity();
    let cp: Vec<_> = cases.iter().map(|(s, t)| (ptri(s), ptri(t))).collect();
    g.bench_function("parry_f32", |b| {
        b.iter(|| {
            cp.iter()
                .map(|(s, t)| {
                    parry3d::query::distance(&id, black_box(s), &id, black_box(t))
                        .unwrap()
                        .distance
                })
                .sum::<f32>()
        })
    });
    g.finish();
}

struct MovingCase {
    rot_a: Vector3<f64>,
    rot_b: Vector3<f64>,
    a: Obb<f64>,
    b: Obb<f64>,
    va: Vector3<f64>,
    vb: Vector3<f64>,
}

fn bench_moving_obb_obb(c: &mut Criterion) {
    let mut r = ChaCha8Rng::seed_from_u64(5);
    let cases: Vec<MovingCase> = (0..N)
        .map(|_| {
            let obb = |r: &mut ChaCha8Rng| {
                let rv = v3(r, 3.0);
                let axes: Matrix3<f64> = *Rotation3::new(rv).matrix();
                let h = Vector3::new(
                    r.random_range(0.1..1.0),
                    r.random_range(0.1..1.0),
                    r.random_range(0.1..1.0),
                );
                (
                    rv,
                    Obb {
                        center: Point3::from(v3(r, 3.0)),
                        axes,
                        half_extents: h,
                    },
                )
            };
            let (rot_a, a) = obb(&mut r);
            let (rot_b, b) = obb(&mut r);
            MovingCase {
                rot_a,
                rot_b,
                a,
                b,
                va: v3(&mut r, 4.0),
                vb: v3(&mut r, 4.0),
            }
        })
        .collect();
    let mut g = c.benchmark_group("moving_obb_obb");
    g.throughput(Throughput::Elements(N as u64));
    let f32obb = |o: &Obb<f64>| Obb {
        center: cast_p::<f32>(&o.center),
        axes: o.axes.cast::<f32>(),
        half_extents: o.half_extents.cast::<f32>(),
    };
    let c32: Vec<_> = cases
        .iter()
        .map(|m| {
            (
                f32obb(&m.a),
                m.va.cast::<f32>(),
                f32obb(&m.b),
                m.vb.cast::<f32>(),
            )
        })
        .collect();
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            c32.iter()
                .filter(|(a, va, o, vb)| {
                    moving::obb_obb(black_box(a), va, black_box(o), vb, 1.0).is_some()
                })
                .count()
        })
    });
    g.bench_function("clash_f64", |b| {
        b.iter(|| {
            cases
                .iter()
                .filter(|m| {
                    moving::obb_obb(black_box(&m.a), &m.va, black_box(&m.b), &m.vb, 1.0).is_some()
                })
                .count()
        })
    });
    let pvec = |v: &Vector3<f64>| parry3d::math::Vector::new(v.x as f32, v.y as f32, v.z as f32);
    let cp: Vec<_> = cases
        .iter()
        .map(|m| {
            let pose =
                |o: &Obb<f64>, rv: &Vector3<f64>| parry3d::math::Pose::new(pv(&o.center), pvec(rv));
            (
                pose(&m.a, &m.rot_a),
                pvec(&m.va),
                parry3d::shape::Cuboid::new(pvec(&m.a.half_extents)),
                pose(&m.b, &m.rot_b),
                pvec(&m.vb),
                parry3d::shape::Cuboid::new(pvec(&m.b.half_extents)),
            )
        })
        .collect();
    let opts = parry3d::query::ShapeCastOptions::with_max_time_of_impact(1.0);
    g.bench_function("parry_f32_cast_shapes", |b| {
        b.iter(|| {
            cp.iter()
                .filter(|(pa, va, ga, pb, vb, gb)| {
                    parry3d::query::cast_shapes(
                        pa,
                        *va,
                        black_box(ga),
                        pb,
                        *vb,
                        black_box(gb),
                        opts,
                    )
                    .unwrap()
                    .is_some()
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    bench_ray_triangle,
    bench_point_triangle,
    bench_segment_segment,
    bench_triangle_triangle,
    bench_moving_obb_obb
);
criterion_main!(benches);
