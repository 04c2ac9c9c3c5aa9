//! Throughput of clash's exact triangle/triangle and triangle/AABB overlap
//! tests and of OBB/OBB (`BoundingVolume::overlaps`), side by side with
//! parry3d (f32) on the same inputs, on random and on adversarial input
//! (shared vertices/edges, coplanar, nearly coplanar, touching boxes). Prints
//! the share of calls that needed the exact path. Throughput is in tests per
//! second (criterion "elem/s").
//!
//! `cargo bench -p clash-benches --bench narrow_overlap -- --warm-up-time 1 --measurement-time 2`

use clash_bv::{Aabb, BoundingVolume, Obb};
use clash_math::{Point3, Rotation3, Triangle, Vector3};
use clash_narrow::overlap::{
    OverlapStats, triangle_aabb, triangle_aabb_with_stats, triangle_triangle,
    triangle_triangle_with_stats,
};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use parry3d::math::{Pose, Vector as PVec};
use parry3d::query::details::{intersection_test_aabb_triangle, intersection_test_cuboid_cuboid};
use parry3d::shape::{Cuboid as PCuboid, Triangle as PTriangle};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

const N: usize = 4096;

fn p(rng: &mut ChaCha8Rng, s: f64) -> Point3<f64> {
    Point3::new(
        rng.random_range(-s..s),
        rng.random_range(-s..s),
        rng.random_range(-s..s),
    )
}

fn random_pairs(rng: &mut ChaCha8Rng) -> Vec<(Triangle<f64>, Triangle<f64>)> {
    (0..N)
        .map(|_| {
            let (o1, o2) = (p(rng, 0.4), p(rng, 0.4));
            let t = |rng: &mut ChaCha8Rng, o: Point3<f64>| {
                Triangle::new(
                    o + p(rng, 0.5).coords,
                    o + p(rng, 0.5).coords,
                    o + p(rng, 0.5).coords,
                )
            };
            (t(rng, o1), t(rng, o2))
        })
        .collect()
}

fn adversarial_pairs(rng: &mut ChaCha8Rng) -> Vec<(Triangle<f64>, Triangle<f64>)> {
    (0..N)
        .map(|i| {
            let t1 = Triangle::new(p(rng, 1.0), p(rng, 1.0), p(rng, 1.0));
            let (u, v) = (rng.random_range(-0.5..1.5), rng.random_range(-0.5..1.5));
            let inplane = |u: f64, v: f64| t1.a + (t1.b - t1.a) * u + (t1.c - t1.a) * v;
            let t2 = match i % 5 {
                0 => Triangle::new(t1.a, p(rng, 1.0), p(rng, 1.0)),
                1 => Triangle::new(t1.b, t1.a, p(rng, 1.0)),
                2 => Triangle::new(inplane(u, v), inplane(v, u), inplane(0.3, 0.9)),
                3 => {
                    let e = 1e-12;
                    let n = Vector3::new(e, -e, e);
                    Triangle::new(inplane(u, v) + n, inplane(v, u) - n, inplane(0.3, 0.9))
                }
                _ => Triangle::new(
                    t1.a + (t1.b - t1.a) * u.clamp(0.0, 1.0),
                    p(rng, 1.0),
                    p(rng, 1.0),
                ),
            };
            (t1, t2)
        })
        .collect()
}

fn box_pairs(rng: &mut ChaCha8Rng, adversarial: bool) -> Vec<(Triangle<f64>, Aabb<f64>)> {
    (0..N)
        .map(|i| {
            let (a, b) = (p(rng, 1.0), p(rng, 1.0));
            let bx = Aabb {
                min: a.inf(&b),
                max: a.sup(&b),
            };
            let t = if !adversarial {
                let o = p(rng, 1.0);
                Triangle::new(
                    o + p(rng, 0.5).coords,
                    o + p(rng, 0.5).coords,
                    o + p(rng, 0.5).coords,
                )
            } else {
                let corner = Point3::new(
                    bx.max.x,
                    if i % 2 == 0 { bx.min.y } else { bx.max.y },
                    bx.min.z,
                );
                match i % 3 {
                    0 => Triangle::new(corner, p(rng, 2.0), p(rng, 2.0)),
                    1 => {
                        let mut t = Triangle::new(p(rng, 2.0), p(rng, 2.0), p(rng, 2.0));
                        t.a.z = bx.max.z;
                        t.b.z = bx.max.z;
                        t.c.z = bx.max.z;
                        t
                    }
                    _ => {
                        let (d1, d2) = (p(rng, 1.0).coords, p(rng, 1.0).coords);
                        Triangle::new(corner + d1, corner + d2, corner - d1 - d2)
                    }
                }
            };
            (t, bx)
        })
        .collect()
}

fn to_f32(t: &Triangle<f64>) -> Triangle<f32> {
    Triangle::new(t.a.cast(), t.b.cast(), t.c.cast())
}

fn ptri(t: &Triangle<f64>) -> PTriangle {
    let v = |p: &Point3<f64>| PVec::new(p.x as f32, p.y as f32, p.z as f32);
    PTriangle::new(v(&t.a), v(&t.b), v(&t.c))
}

fn bench_tri_tri(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (name, pairs) in [
        ("random", random_pairs(&mut rng)),
        ("adversarial", adversarial_pairs(&mut rng)),
    ] {
        let mut st = OverlapStats::default();
        let hits = pairs
            .iter()
            .filter(|(a, b)| triangle_triangle_with_stats(a, b, &mut st))
            .count();
        println!(
            "triangle_triangle/{name}: {hits}/{N} overlap; exact path taken by {:.2}% of calls ({} exact predicates)",
            100.0 * st.exact_share(),
            st.exact_predicates
        );
        let p32: Vec<_> = pairs.iter().map(|(a, b)| (to_f32(a), to_f32(b))).collect();
        let pp: Vec<_> = pairs.iter().map(|(a, b)| (ptri(a), ptri(b))).collect();
        let id = Pose::IDENTITY;
        let mut g = c.benchmark_group(format!("triangle_triangle/{name}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("clash_f64", |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|(x, y)| triangle_triangle(black_box(x), black_box(y)))
                    .count()
            })
        });
        g.bench_function("clash_f32", |b| {
            b.iter(|| {
                p32.iter()
                    .filter(|(x, y)| triangle_triangle(black_box(x), black_box(y)))
                    .count()
            })
        });
        g.bench_function("parry3d_f32", |b| {
            b.iter(|| {
                pp.iter()
                    .filter(|(x, y)| {
                        parry3d::query::intersection_test(&id, black_box(x), &id, black_box(y))
                            .map(|r| r.intersecting)
                            .unwrap_or(false)
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_tri_aabb(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for (name, pairs) in [
        ("random", box_pairs(&mut rng, false)),
        ("adversarial", box_pairs(&mut rng, true)),
    ] {
        let mut st = OverlapStats::default();
        let hits = pairs
            .iter()
            .filter(|(t, b)| triangle_aabb_with_stats(t, b, &mut st))
            .count();
        println!(
            "triangle_aabb/{name}: {hits}/{N} overlap; exact path taken by {:.2}% of calls ({} exact predicates)",
            100.0 * st.exact_share(),
            st.exact_predicates
        );
        let pp: Vec<_> = pairs
            .iter()
            .map(|(t, b)| {
                let v = |p: &Point3<f64>| PVec::new(p.x as f32, p.y as f32, p.z as f32);
                (
                    ptri(t),
                    parry3d::bounding_volume::Aabb::new(v(&b.min), v(&b.max)),
                )
            })
            .collect();
        let p32: Vec<_> = pairs
            .iter()
            .map(|(t, b)| {
                (
                    to_f32(t),
                    Aabb {
                        min: b.min.cast::<f32>(),
                        max: b.max.cast::<f32>(),
                    },
                )
            })
            .collect();
        let mut g = c.benchmark_group(format!("triangle_aabb/{name}"));
        g.throughput(Throughput::Elements(N as u64));
        g.bench_function("clash_f64", |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|(t, x)| triangle_aabb(black_box(t), black_box(x)))
                    .count()
            })
        });
        g.bench_function("clash_f32", |b| {
            b.iter(|| {
                p32.iter()
                    .filter(|(t, x)| triangle_aabb(black_box(t), black_box(x)))
                    .count()
            })
        });
        g.bench_function("parry3d_f32", |b| {
            b.iter(|| {
                pp.iter()
                    .filter(|(t, x)| intersection_test_aabb_triangle(black_box(x), black_box(t)))
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_obb_obb(c: &mut Criterion) {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mk = |rng: &mut ChaCha8Rng| {
        let axis = Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0f32),
        );
        Obb {
            center: Point3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0f32),
            ),
            axes: *Rotation3::new(axis).matrix(),
            half_extents: Vector3::new(
                rng.random_range(0.05..0.5),
                rng.random_range(0.05..0.5),
                rng.random_range(0.05..0.5f32),
            ),
        }
    };
    let pairs: Vec<(Obb<f32>, Obb<f32>)> = (0..N).map(|_| (mk(&mut rng), mk(&mut rng))).collect();
    let pose = |o: &Obb<f32>| {
        let r = Rotation3::from_matrix_unchecked(o.axes);
        let q = clash_math::UnitQuaternion::from_rotation_matrix(&r);
        let rot = parry3d::math::Rotation::from_xyzw(q.i, q.j, q.k, q.w);
        Pose::from_parts(PVec::new(o.center.x, o.center.y, o.center.z), rot)
    };
    let pp: Vec<_> = pairs
        .iter()
        .map(|(a, b)| {
            let ca = PCuboid::new(PVec::new(
                a.half_extents.x,
                a.half_extents.y,
                a.half_extents.z,
            ));
            let cb = PCuboid::new(PVec::new(
                b.half_extents.x,
                b.half_extents.y,
                b.half_extents.z,
            ));
            (pose(a).inv_mul(&pose(b)), ca, cb)
        })
        .collect();
    let hits = pairs.iter().filter(|(a, b)| a.overlaps(b)).count();
    println!("obb_obb/random: {hits}/{N} overlap");
    let mut g = c.benchmark_group("obb_obb/random");
    g.throughput(Throughput::Elements(N as u64));
    g.bench_function("clash_f32", |b| {
        b.iter(|| {
            pairs
                .iter()
                .filter(|(x, y)| black_box(x).overlaps(black_box(y)))
                .count()
        })
    });
    g.bench_function("parry3d_f32", |b| {
        b.iter(|| {
            pp.iter()
                .filter(|(p12, x, y)| {
                    intersection_test_cuboid_cuboid(p12, black_box(x), black_box(y))
                })
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, bench_tri_tri, bench_tri_aabb, bench_obb_obb);
criterion_main!(benches);
