//! Queries on built trees against the peers, same data in one run:
//! - closest-hit rays on a large mesh (issue goal: 1M rays on a 1M-triangle
//!   mesh; `CLASH_BENCH_TRIS` and `CLASH_BENCH_RAYS` scale it) vs obvhs
//!   (`Bvh2::ray_traverse`, and its compressed wide `CwBvh::ray_traverse`,
//!   its fastest traversal, both with its Möller–Trumbore triangle test) and
//!   parry3d (`TriMesh::cast_local_ray`), with hit counts compared;
//! - closest point on several meshes, near and far points, vs parry3d and
//!   parry3d-f64 `project_local_point` (`common/closest_cases.rs`);
//! - mesh/mesh distance on separated poses (RSS and OBB trees, f64) and on
//!   near-touching ones (gap 1e-3 of the size, RSS), vs parry3d
//!   `query::distance` on two `TriMesh`es.

use clash_benches::{generated_mesh, read_stl, to_f64};
use clash_bv::{Aabb, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, RayQuery, TriMesh};
use clash_math::{Isometry3, Point3, Ray, Scalar, Triangle, Vector3};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::path::Path;

#[path = "common/closest_cases.rs"]
mod closest_cases;
use closest_cases::closest_points;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap()
}

fn mesh_of<T: Scalar>(tris: &[Triangle<T>]) -> TriMesh<T> {
    TriMesh::from_triangles(tris).unwrap().welded(T::ZERO)
}

fn sized_mesh(n: usize) -> Vec<Triangle<f32>> {
    let segments = 1000.min(n / 2).max(4);
    generated_mesh((n / (2 * segments)).max(2), segments)
}

fn rays(c: &mut Criterion) {
    let tris = sized_mesh(env("CLASH_BENCH_TRIS", 1_000_000));
    let n_rays = env("CLASH_BENCH_RAYS", 1_000_000);
    let mesh = mesh_of(&tris);
    let ours = Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    // Rays from a box around the ellipsoid towards points inside it: most hit.
    let rays: Vec<Ray<f32>> = (0..n_rays)
        .map(|_| {
            let o = Point3::new(
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0),
                rng.random_range(-3.0..3.0f32),
            );
            let t = Point3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-0.5..0.5),
                rng.random_range(-0.25..0.25f32),
            );
            Ray::new(o, t - o)
        })
        .collect();
    let v3 = |p: &Point3<f32>| glam034::Vec3A::new(p.x, p.y, p.z);
    let ob_tris: Vec<obvhs::triangle::Triangle> = tris
        .iter()
        .map(|t| obvhs::triangle::Triangle {
            v0: v3(&t.a),
            v1: v3(&t.b),
            v2: v3(&t.c),
        })
        .collect();
    let ob = obvhs::bvh2::builder::build_bvh2_from_tris(
        &ob_tris,
        obvhs::BvhBuildParams::medium_build(),
        &mut Default::default(),
    );
    // obvhs's compressed wide BVH (its fastest traversal), with the
    // triangles reordered to the leaf order as its examples do.
    let cw = obvhs::cwbvh::builder::build_cwbvh_from_tris(
        &ob_tris,
        obvhs::BvhBuildParams::medium_build(),
        &mut Default::default(),
    );
    let cw_tris: Vec<obvhs::triangle::Triangle> = cw
        .primitive_indices
        .iter()
        .map(|&i| ob_tris[i as usize])
        .collect();
    let pm = {
        let v = mesh
            .vertices()
            .iter()
            .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
            .collect();
        parry3d::shape::TriMesh::new(v, mesh.indices().to_vec()).unwrap()
    };
    let pool = one_thread();
    let q = RayQuery::default();
    let count_ours = || {
        rays.iter()
            .filter(|r| ours.cast_ray(r, &q).is_some())
            .count()
    };
    let count_obvhs = || {
        rays.iter()
            .filter(|r| {
                let ray = obvhs::ray::Ray::new_inf(
                    v3(&r.origin),
                    glam034::Vec3A::new(r.dir.x, r.dir.y, r.dir.z),
                );
                let mut hit = obvhs::ray::RayHit::none();
                ob.ray_traverse(ray, &mut hit, |ray, id| {
                    ob_tris[ob.primitive_indices[id] as usize].intersect(ray)
                })
            })
            .count()
    };
    let count_cwbvh = || {
        rays.iter()
            .filter(|r| {
                let ray = obvhs::ray::Ray::new_inf(
                    v3(&r.origin),
                    glam034::Vec3A::new(r.dir.x, r.dir.y, r.dir.z),
                );
                let mut hit = obvhs::ray::RayHit::none();
                cw.ray_traverse(ray, &mut hit, |ray, id| cw_tris[id].intersect(ray))
            })
            .count()
    };
    use parry3d::query::RayCast;
    let count_parry = |n: usize| {
        rays[..n]
            .iter()
            .filter(|r| {
                let ray = parry3d::query::Ray::new(
                    parry3d::math::Vector::new(r.origin.x, r.origin.y, r.origin.z),
                    parry3d::math::Vector::new(r.dir.x, r.dir.y, r.dir.z),
                );
                pm.cast_local_ray(&ray, f32::MAX, false).is_some()
            })
            .count()
    };
    let n_parry = n_rays.min(100_000);
    println!(
        "== closest-hit rays: hits clash {} / obvhs Bvh2 {} / obvhs CwBvh {} of {n_rays}; on the first {n_parry}: clash {}, parry3d {}",
        count_ours(),
        count_obvhs(),
        count_cwbvh(),
        rays[..n_parry]
            .iter()
            .filter(|r| ours.cast_ray(r, &q).is_some())
            .count(),
        count_parry(n_parry)
    );
    let mut g = c.benchmark_group(format!("rays_{}k_tris", tris.len() / 1000));
    g.sample_size(10);
    g.throughput(Throughput::Elements(n_rays as u64));
    g.bench_function(BenchmarkId::new("clash_aabb_sah_f32", 1), |b| {
        b.iter(|| pool.install(|| black_box(count_ours())))
    });
    g.bench_function(BenchmarkId::new("obvhs_bvh2_medium", 1), |b| {
        b.iter(|| pool.install(|| black_box(count_obvhs())))
    });
    g.bench_function(BenchmarkId::new("obvhs_cwbvh_medium", 1), |b| {
        b.iter(|| pool.install(|| black_box(count_cwbvh())))
    });
    g.throughput(Throughput::Elements(n_parry as u64));
    g.bench_function(BenchmarkId::new("parry3d_trimesh", 1), |b| {
        b.iter(|| black_box(count_parry(n_parry)))
    });
    g.finish();
}

fn distance(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/meshes/bunny.stl");
    let (name, tris) = match read_stl(&path) {
        Ok(t) => ("bunny56k".to_owned(), t),
        Err(_) => ("generated56k".to_owned(), generated_mesh(140, 200)),
    };
    let m64 = mesh_of(&to_f64(&tris));
    let rss = Bvh::<f64, Rss<f64>>::build(m64.clone(), &BuildOptions::default()).unwrap();
    let obb = Bvh::<f64, Obb<f64>>::build(m64.clone(), &BuildOptions::default()).unwrap();
    let size = rss.root_bv().half_lengths[0].max(rss.root_bv().half_lengths[1]) * 2.0
        + rss.root_bv().radius * 2.0;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    // Separated poses: shifted by 1.2 to 2 sizes in a random direction.
    let poses: Vec<Isometry3<f64>> = (0..200)
        .map(|_| {
            let d = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
            .normalize();
            let t = d * size * rng.random_range(1.2..2.0);
            Isometry3::new(
                t,
                Vector3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                ),
            )
        })
        .collect();
    let pool = one_thread();
    let mut g = c.benchmark_group(format!("distance_{name}_{}_poses", poses.len()));
    g.sample_size(10);
    g.throughput(Throughput::Elements(poses.len() as u64));
    g.bench_function(BenchmarkId::new("clash_rss_f64", 1), |b| {
        b.iter(|| pool.install(|| black_box(rss.distance_poses(&rss, &poses))))
    });
    g.bench_function(BenchmarkId::new("clash_obb_f64", 1), |b| {
        b.iter(|| pool.install(|| black_box(obb.distance_poses(&obb, &poses))))
    });
    g.finish();

    // Near-touching poses: the first 50 rotations, each shifted along its
    // direction until the gap is 1e-3 of the size (bisected), where most
    // node pairs survive the bounds.
    let near: Vec<Isometry3<f64>> = poses
        .iter()
        .take(50)
        .map(|p| {
            let dir = p.translation.vector.normalize();
            let at = |s: f64| Isometry3::from_parts((dir * s).into(), p.rotation);
            let (mut inside, mut outside) = (0.0, 2.0 * size);
            for _ in 0..50 {
                let m = 0.5 * (inside + outside);
                if rss.distance(&rss, at(m)).distance < 1e-3 * size {
                    inside = m;
                } else {
                    outside = m;
                }
            }
            at(outside)
        })
        .collect();
    let mut g = c.benchmark_group(format!("distance_{name}_near_{}_poses", near.len()));
    g.sample_size(10);
    g.throughput(Throughput::Elements(near.len() as u64));
    g.bench_function(BenchmarkId::new("clash_rss_f64", 1), |b| {
        b.iter(|| pool.install(|| black_box(rss.distance_poses(&rss, &near))))
    });
    g.finish();

    // parry3d on the 4.4k-triangle sacrum (it takes ~60 ms for 10k meshes): same for us.
    let small =
        read_stl(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/meshes/dog_sacrum.stl"))
            .unwrap();
    let s32 = mesh_of(&small);
    let srss = Bvh::<f32, Rss<f32>>::build(s32.clone(), &BuildOptions::default()).unwrap();
    let pm = {
        let v = s32
            .vertices()
            .iter()
            .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
            .collect();
        parry3d::shape::TriMesh::new(v, s32.indices().to_vec()).unwrap()
    };
    let sposes: Vec<Isometry3<f32>> = poses
        .iter()
        .take(20)
        .map(|p| {
            let mut q: Isometry3<f32> = p.cast();
            q.translation.vector *= 0.08 / size as f32;
            q
        })
        .collect();
    let id = parry3d::math::Pose::new(parry3d::math::Vector::ZERO, parry3d::math::Vector::ZERO);
    let ppose = |iso: &Isometry3<f32>| {
        let t = iso.translation.vector;
        let r = iso.rotation.scaled_axis();
        parry3d::math::Pose::new(
            parry3d::math::Vector::new(t.x, t.y, t.z),
            parry3d::math::Vector::new(r.x, r.y, r.z),
        )
    };
    let mut worst = 0.0f32;
    for p in &sposes {
        let a = srss.distance(&srss, p).distance;
        let b = parry3d::query::distance(&id, &pm, &ppose(p), &pm).map_or(f32::NAN, |d| d.distance);
        worst = worst.max((a - b).abs());
    }
    println!(
        "== distance: largest |clash - parry3d| over {} sacrum poses: {worst:e}",
        sposes.len()
    );
    let mut g = c.benchmark_group(format!("distance_sacrum4k_{}_poses", sposes.len()));
    g.sample_size(10);
    g.throughput(Throughput::Elements(sposes.len() as u64));
    g.bench_function(BenchmarkId::new("clash_rss_f32", 1), |b| {
        b.iter(|| {
            sposes
                .iter()
                .map(|p| srss.distance(&srss, p).distance)
                .sum::<f32>()
        })
    });
    g.bench_function(BenchmarkId::new("parry3d_distance", 1), |b| {
        b.iter(|| {
            sposes
                .iter()
                .map(|p| {
                    parry3d::query::distance(&id, &pm, &ppose(p), &pm).map_or(0.0, |d| d.distance)
                })
                .sum::<f32>()
        })
    });
    g.finish();
}

criterion_group!(benches, rays, closest_points, distance);
criterion_main!(benches);
