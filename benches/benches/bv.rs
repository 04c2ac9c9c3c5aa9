//! Bounding-volume benchmarks: every fitting method on a real mesh, and the
//! BV/BV overlap tests with parry3d's AABB, ball and cuboid tests side by
//! side. Before the timings it prints how much smaller the tight OBB
//! (`Obb::fit_tight_triangles`) is than the continuous-PCA OBB
//! (`Obb::fit_pca_triangles`, Eberly §6.1.3) on every benchmark mesh.
use clash_benches::{corners, meshes, to_f64};
use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
use clash_math::{Isometry3, Matrix3, Point3, Triangle, UnitQuaternion, Vector3};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use parry3d::math::{Pose, Rotation, Vector};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::time::Instant;

fn tightness_report() {
    println!("\nOBB tightness: volume(tight) / volume(PCA of triangles), f64 fits");
    println!(
        "{:<22} {:>8} {:>12} {:>12} {:>8} {:>10} {:>10}",
        "mesh", "tris", "vol PCA", "vol tight", "ratio", "t PCA", "t tight"
    );
    for (name, tris) in meshes() {
        let t64 = to_f64(&tris);
        let t0 = Instant::now();
        let pca = Obb::fit_pca_triangles(&t64).expect("mesh");
        let dt_pca = t0.elapsed();
        let t0 = Instant::now();
        let tight = Obb::fit_tight_triangles(&t64).expect("mesh");
        let dt_tight = t0.elapsed();
        println!(
            "{:<22} {:>8} {:>12.5e} {:>12.5e} {:>8.4} {:>10.2?} {:>10.2?}",
            name,
            tris.len(),
            pca.volume(),
            tight.volume(),
            tight.volume() / pca.volume(),
            dt_pca,
            dt_tight
        );
    }
    println!();
}

fn fitting(c: &mut Criterion) {
    tightness_report();
    let all = meshes();
    // A mid-sized real mesh (dog_sacrum, 4404 triangles, when present).
    let (name, tris) = all
        .iter()
        .find(|(n, _)| n == "dog_sacrum")
        .unwrap_or(&all[0])
        .clone();
    let tris: Vec<Triangle<f64>> = to_f64(&tris);
    let pts: Vec<Point3<f64>> = tris.iter().flat_map(|t| t.vertices()).collect();
    let mut g = c.benchmark_group(format!("fit/{name}"));
    g.bench_function("aabb", |b| b.iter(|| Aabb::from_points(black_box(&pts))));
    let ppts: Vec<Vector> = pts
        .iter()
        .map(|p| Vector::new(p.x as f32, p.y as f32, p.z as f32))
        .collect();
    g.bench_function("parry_aabb_f32", |b| {
        b.iter(|| parry3d::bounding_volume::Aabb::from_points(black_box(ppts.iter().copied())))
    });
    g.bench_function("sphere_ritter", |b| {
        b.iter(|| Sphere::ritter(black_box(&pts)))
    });
    g.bench_function("sphere_ritter_eigen", |b| {
        b.iter(|| Sphere::ritter_eigen(black_box(&pts)))
    });
    g.bench_function("sphere_ritter_iterative_8", |b| {
        b.iter(|| Sphere::ritter_iterative(black_box(&pts), 8))
    });
    g.bench_function("sphere_welzl", |b| {
        b.iter(|| Sphere::welzl(black_box(&pts)))
    });
    g.bench_function("parry_bounding_sphere_f32", |b| {
        b.iter(|| parry3d::bounding_volume::details::point_cloud_bounding_sphere(black_box(&ppts)))
    });
    g.bench_function("obb_pca_points", |b| {
        b.iter(|| Obb::fit_pca_points(black_box(&pts)))
    });
    g.bench_function("obb_pca_hull", |b| {
        b.iter(|| Obb::fit_pca_hull(black_box(&pts)))
    });
    g.bench_function("obb_pca_triangles", |b| {
        b.iter(|| Obb::fit_pca_triangles(black_box(&tris)))
    });
    g.bench_function("obb_tight_triangles", |b| {
        b.iter(|| Obb::fit_tight_triangles(black_box(&tris)))
    });
    g.bench_function("capsule_pca", |b| {
        b.iter(|| Capsule::fit_pca(black_box(&pts)))
    });
    g.bench_function("rss_pca", |b| b.iter(|| Rss::fit_pca(black_box(&pts))));
    g.bench_function("kdop14", |b| {
        b.iter(|| Kdop14::from_points(black_box(&pts)))
    });
    g.bench_function("kdop18", |b| {
        b.iter(|| Kdop18::from_points(black_box(&pts)))
    });
    g.bench_function("kdop26", |b| {
        b.iter(|| Kdop26::from_points(black_box(&pts)))
    });
    g.finish();
    let small = corners(&all[0].1);
    let mut g = c.benchmark_group("fit_f32_small_mesh");
    g.bench_function(BenchmarkId::new("obb_tight", &all[0].0), |b| {
        b.iter(|| Obb::fit_tight(black_box(&small)))
    });
    g.bench_function(BenchmarkId::new("sphere_welzl", &all[0].0), |b| {
        b.iter(|| Sphere::welzl(black_box(&small)))
    });
    g.finish();
}

const PAIRS: usize = 1024;

fn random_rotation(r: &mut rand_chacha::ChaCha8Rng) -> UnitQuaternion<f32> {
    let v = Vector3::new(
        r.random_range(-3.0..3.0),
        r.random_range(-3.0..3.0),
        r.random_range(-3.0..3.0),
    );
    UnitQuaternion::from_scaled_axis(v)
}

fn v(p: &Vector3<f32>) -> Vector {
    Vector::new(p.x, p.y, p.z)
}

fn overlap(c: &mut Criterion) {
    let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let center = |r: &mut rand_chacha::ChaCha8Rng| {
        Point3::new(
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0_f32),
        )
    };
    let half = |r: &mut rand_chacha::ChaCha8Rng| {
        Vector3::new(
            r.random_range(0.1..1.5),
            r.random_range(0.1..1.5),
            r.random_range(0.1..1.5_f32),
        )
    };
    let obbs: Vec<(Obb<f32>, Obb<f32>)> = (0..PAIRS)
        .map(|_| {
            let mut o = || Obb {
                center: center(&mut r),
                axes: *random_rotation(&mut r).to_rotation_matrix().matrix(),
                half_extents: half(&mut r),
            };
            (o(), o())
        })
        .collect();
    let mut g = c.benchmark_group("overlap_1024_pairs_f32");
    let aabbs: Vec<(Aabb<f32>, Aabb<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            (
                Aabb::from_center_half_extents(a.center, a.half_extents),
                Aabb::from_center_half_extents(b.center, b.half_extents),
            )
        })
        .collect();
    let paabbs: Vec<_> = aabbs
        .iter()
        .map(|(a, b)| {
            (
                parry3d::bounding_volume::Aabb::new(v(&a.min.coords), v(&a.max.coords)),
                parry3d::bounding_volume::Aabb::new(v(&b.min.coords), v(&b.max.coords)),
            )
        })
        .collect();
    g.bench_function("aabb", |b| {
        b.iter(|| {
            aabbs
                .iter()
                .filter(|(x, y)| black_box(x).overlaps(y))
                .count()
        })
    });
    g.bench_function("parry_aabb", |b| {
        use parry3d::bounding_volume::BoundingVolume as _;
        b.iter(|| {
            paabbs
                .iter()
                .filter(|(x, y)| black_box(x).intersects(y))
                .count()
        })
    });
    let spheres: Vec<(Sphere<f32>, Sphere<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            (
                Sphere::new(a.center, a.half_extents.x),
                Sphere::new(b.center, b.half_extents.x),
            )
        })
        .collect();
    let pspheres: Vec<_> = spheres
        .iter()
        .map(|(a, b)| {
            (
                parry3d::bounding_volume::BoundingSphere::new(v(&a.center.coords), a.radius),
                parry3d::bounding_volume::BoundingSphere::new(v(&b.center.coords), b.radius),
            )
        })
        .collect();
    g.bench_function("sphere", |b| {
        b.iter(|| {
            spheres
                .iter()
                .filter(|(x, y)| black_box(x).overlaps(y))
                .count()
        })
    });
    g.bench_function("parry_ball", |b| {
        use parry3d::bounding_volume::BoundingVolume as _;
        b.iter(|| {
            pspheres
                .iter()
                .filter(|(x, y)| black_box(x).intersects(y))
                .count()
        })
    });
    g.bench_function("obb_sat", |b| {
        b.iter(|| {
            obbs.iter()
                .filter(|(x, y)| black_box(x).overlaps(y))
                .count()
        })
    });
    let rel: Vec<(Obb<f32>, Obb<f32>, Isometry3<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            (
                *a,
                Obb {
                    center: Point3::origin(),
                    axes: Matrix3::identity(),
                    half_extents: b.half_extents,
                },
                Isometry3::from_parts(b.center.coords.into(), UnitQuaternion::from_matrix(&b.axes)),
            )
        })
        .collect();
    g.bench_function("obb_sat_relative_frame", |b| {
        b.iter(|| {
            rel.iter()
                .filter(|(x, y, m)| black_box(x).overlaps_transformed(y, m))
                .count()
        })
    });
    let pose = |o: &Obb<f32>| {
        let m = parry3d::math::Mat3::from_cols(
            v(&o.axes.column(0).into_owned()),
            v(&o.axes.column(1).into_owned()),
            v(&o.axes.column(2).into_owned()),
        );
        Pose::from_parts(v(&o.center.coords), Rotation::from_mat3(&m).normalize())
    };
    let pobbs: Vec<_> = obbs
        .iter()
        .map(|(a, b)| {
            (
                pose(a),
                parry3d::shape::Cuboid::new(v(&a.half_extents)),
                pose(b),
                parry3d::shape::Cuboid::new(v(&b.half_extents)),
            )
        })
        .collect();
    g.bench_function("parry_cuboid_intersection_test", |b| {
        b.iter(|| {
            pobbs
                .iter()
                .filter(|(pa, ca, pb, cb)| {
                    parry3d::query::intersection_test(pa, black_box(ca), pb, cb)
                        .map(|i| i.intersecting)
                        .unwrap_or(false)
                })
                .count()
        })
    });
    let caps: Vec<(Capsule<f32>, Capsule<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            let cap = |o: &Obb<f32>| {
                let d = o.axes.column(0) * o.half_extents.x;
                Capsule::new(o.center - d, o.center + d, o.half_extents.y * 0.5)
            };
            (cap(a), cap(b))
        })
        .collect();
    g.bench_function("capsule", |b| {
        b.iter(|| {
            caps.iter()
                .filter(|(x, y)| black_box(x).overlaps(y))
                .count()
        })
    });
    let rss: Vec<(Rss<f32>, Rss<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            let rs = |o: &Obb<f32>| Rss {
                center: o.center,
                axes: o.axes,
                half_lengths: [o.half_extents.x, o.half_extents.y],
                radius: o.half_extents.z * 0.5,
            };
            (rs(a), rs(b))
        })
        .collect();
    g.bench_function("rss", |b| {
        b.iter(|| rss.iter().filter(|(x, y)| black_box(x).overlaps(y)).count())
    });
    let dops: Vec<(Kdop26<f32>, Kdop26<f32>)> = obbs
        .iter()
        .map(|(a, b)| {
            (
                Kdop26::from_points(&a.corners()).expect("finite"),
                Kdop26::from_points(&b.corners()).expect("finite"),
            )
        })
        .collect();
    g.bench_function("kdop26", |b| {
        b.iter(|| {
            dops.iter()
                .filter(|(x, y)| black_box(x).overlaps(y))
                .count()
        })
    });
    g.finish();
}

criterion_group!(benches, fitting, overlap);
criterion_main!(benches);
