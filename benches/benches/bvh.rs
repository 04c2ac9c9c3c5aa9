//! clash-bvh against its peers on the same data, in one run:
//! - build of a 1M-triangle mesh: our AABB/SAH tree vs obvhs (PLOC),
//!   parry3d (`TriMesh::new`) and the bvh crate (binned SAH), and our OBB/RSS
//!   trees on the real meshes, on 1 and 2 threads;
//! - mesh/mesh collision of two copies of a real mesh over random poses
//!   (about half colliding), any contact and all pairs, f32 and f64, vs
//!   parry3d's `intersection_test` on two `TriMesh`es;
//! - save and load of the 1M-triangle AABB (f32), OBB and RSS (f64) trees
//!   next to their builds, on 1 and 2 threads.
//!
//! `CLASH_BENCH_TRIS` sets the size of the generated build mesh (default 1M).
//! Print-outs (`==`) give the tree-quality figures criterion does not measure.

use clash_benches::{generated_mesh, read_stl, to_f64};
use clash_bv::{Aabb, BoundingVolume, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, CollisionRequest, FitQuality, TreeVolume, TriMesh};
use clash_math::{Isometry3, Scalar, Triangle, Vector3};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::path::Path;

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

fn mesh_of<T: Scalar>(tris: &[Triangle<T>]) -> TriMesh<T> {
    TriMesh::from_triangles(tris).unwrap().welded(T::ZERO)
}

/// The real 56k-triangle bunny when `../shared/meshes` is present, else a
/// generated closed mesh of similar size.
fn collision_mesh() -> (String, Vec<Triangle<f32>>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/meshes/bunny.stl");
    match read_stl(&path) {
        Ok(t) => ("bunny56k".into(), t),
        Err(_) => ("generated56k".into(), generated_mesh(140, 200)),
    }
}

// --- peers' adapters -------------------------------------------------------

fn obvhs_tris(tris: &[Triangle<f32>]) -> Vec<obvhs::triangle::Triangle> {
    let v = |p: &clash_math::Point3<f32>| glam034::Vec3A::new(p.x, p.y, p.z);
    tris.iter()
        .map(|t| obvhs::triangle::Triangle {
            v0: v(&t.a),
            v1: v(&t.b),
            v2: v(&t.c),
        })
        .collect()
}

struct BvhShape {
    aabb: bvh::aabb::Aabb<f32, 3>,
    node: usize,
}

impl bvh::aabb::Bounded<f32, 3> for BvhShape {
    fn aabb(&self) -> bvh::aabb::Aabb<f32, 3> {
        self.aabb
    }
}

impl bvh::bounding_hierarchy::BHShape<f32, 3> for BvhShape {
    fn set_bh_node_index(&mut self, index: usize) {
        self.node = index;
    }
    fn bh_node_index(&self) -> usize {
        self.node
    }
}

fn bvh_shapes(tris: &[Triangle<f32>]) -> Vec<BvhShape> {
    tris.iter()
        .map(|t| {
            let lo = t.a.inf(&t.b).inf(&t.c);
            let hi = t.a.sup(&t.b).sup(&t.c);
            BvhShape {
                aabb: bvh::aabb::Aabb::with_bounds(lo, hi),
                node: 0,
            }
        })
        .collect()
}

/// parry3d's input: vertex and index vectors.
fn parry_input(mesh: &TriMesh<f32>) -> (Vec<parry3d::math::Vector>, Vec<[u32; 3]>) {
    let v = mesh
        .vertices()
        .iter()
        .map(|p| parry3d::math::Vector::new(p.x, p.y, p.z))
        .collect();
    (v, mesh.indices().to_vec())
}

fn parry_mesh(mesh: &TriMesh<f32>) -> parry3d::shape::TriMesh {
    let (v, i) = parry_input(mesh);
    parry3d::shape::TriMesh::new(v, i).unwrap()
}

fn parry_pose(iso: &Isometry3<f32>) -> parry3d::math::Pose {
    let t = iso.translation.vector;
    let r = iso.rotation.scaled_axis();
    parry3d::math::Pose::new(
        parry3d::math::Vector::new(t.x, t.y, t.z),
        parry3d::math::Vector::new(r.x, r.y, r.z),
    )
}

// --- build -------------------------------------------------------------------

/// Build, save and load of one tree type on 1 and 2 threads.
fn save_load<T: Scalar, B: TreeVolume<T>>(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    name: &str,
    mesh: &TriMesh<T>,
    options: &BuildOptions,
) {
    let file = std::env::temp_dir().join(format!("clash-bench-{name}.clash"));
    let tree = Bvh::<T, B>::build(mesh.clone(), options).unwrap();
    g.bench_function(BenchmarkId::new(format!("save_{name}"), 1), |b| {
        b.iter(|| tree.save(&file).unwrap())
    });
    for threads in [1, 2] {
        let p = pool(threads);
        g.bench_function(BenchmarkId::new(format!("build_{name}"), threads), |b| {
            b.iter_batched(
                || mesh.clone(),
                |m| p.install(|| Bvh::<T, B>::build(m, options).unwrap()),
                criterion::BatchSize::PerIteration,
            )
        });
        g.bench_function(BenchmarkId::new(format!("load_{name}"), threads), |b| {
            b.iter_batched(
                || (),
                |()| p.install(|| Bvh::<T, B>::load(&file).unwrap()),
                criterion::BatchSize::PerIteration,
            )
        });
    }
    let _ = std::fs::remove_file(&file);
}

fn build(c: &mut Criterion) {
    let n: usize = std::env::var("CLASH_BENCH_TRIS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let segments = 1000.min(n / 2).max(4);
    let rings = (n / (2 * segments)).max(2);
    let tris = generated_mesh(rings, segments);
    let mesh = mesh_of(&tris);
    let mut g = c.benchmark_group(format!("build_{}k_tris", tris.len() / 1000));
    g.sample_size(10);
    g.throughput(Throughput::Elements(tris.len() as u64));
    // Each library is timed from its own input as a user holds it, built
    // outside the timing: clash from a `TriMesh` (moved into the tree, so
    // a clone is made per run), obvhs from a triangle slice (borrowed),
    // the bvh crate from shapes that carry their boxes (it writes node
    // indices into them, so fresh ones per run), parry3d from vertex and
    // index vectors (moved into its mesh). Every routine computes the
    // triangles' boxes itself except the bvh crate's, whose shapes hold
    // them; results are dropped outside the timing.
    let per_run = criterion::BatchSize::PerIteration;
    for threads in [1, 2] {
        let p = pool(threads);
        g.bench_function(BenchmarkId::new("clash_aabb_sah_f32", threads), |b| {
            b.iter_batched(
                || mesh.clone(),
                |m| p.install(|| Bvh::<f32, Aabb<f32>>::build(m, &BuildOptions::sah()).unwrap()),
                per_run,
            )
        });
        g.bench_function(BenchmarkId::new("bvh_crate_sah", threads), |b| {
            b.iter_batched(
                || bvh_shapes(&tris),
                |mut shapes| {
                    let tree = p.install(|| {
                        bvh::bvh::Bvh::build_with_executor(&mut shapes, bvh::bvh::rayon_executor)
                    });
                    (tree, shapes)
                },
                per_run,
            )
        });
    }
    let p1 = pool(1);
    let ob = obvhs_tris(&tris);
    g.bench_function(BenchmarkId::new("obvhs_ploc_fast", 1), |b| {
        b.iter_batched(
            || (),
            |()| {
                p1.install(|| {
                    obvhs::bvh2::builder::build_bvh2_from_tris(
                        &ob,
                        obvhs::BvhBuildParams::fast_build(),
                        &mut Default::default(),
                    )
                })
            },
            per_run,
        )
    });
    g.bench_function(BenchmarkId::new("parry3d_trimesh_new", 1), |b| {
        b.iter_batched(
            || parry_input(&mesh),
            |(v, i)| p1.install(|| parry3d::shape::TriMesh::new(v, i).unwrap()),
            per_run,
        )
    });
    g.finish();

    // Quality: sum of internal node areas over the root's.
    let ours = Bvh::<f32, Aabb<f32>>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let theirs = obvhs::bvh2::builder::build_bvh2_from_tris(
        &ob,
        obvhs::BvhBuildParams::fast_build(),
        &mut Default::default(),
    );
    let area = |a: &obvhs::aabb::Aabb| {
        let d = a.max - a.min;
        (d.x * d.y + d.y * d.z + d.z * d.x) as f64
    };
    let internal: f64 = theirs
        .nodes
        .iter()
        .filter(|n| !n.is_leaf())
        .map(|n| area(&n.aabb))
        .sum();
    println!(
        "== SAH cost (sum of internal node areas / root area): clash {:.2}, obvhs {:.2}",
        ours.stats().sah_cost,
        internal / area(&theirs.nodes[0].aabb)
    );
    // The figure above leaves out the leaves, which favours larger ones
    // (obvhs collapses to at most 8 triangles a leaf, clash splits to at
    // most 4): the full cost adds each leaf's area times its triangles
    // (traversal and intersection both costing 1).
    let leaf_terms: f64 = theirs
        .nodes
        .iter()
        .filter(|n| n.is_leaf())
        .map(|n| area(&n.aabb) * f64::from(n.prim_count))
        .sum();
    let ours_leaves: f64 = ours
        .nodes()
        .iter()
        .filter_map(|n| {
            let r = n.triangle_range()?;
            Some(n.bv.surface_area() as f64 * 0.5 * r.len() as f64)
        })
        .sum();
    let ours_root = ours.root_bv().surface_area() as f64 * 0.5;
    println!(
        "== SAH cost with leaves (+ leaf area x triangles, / root area): clash {:.2}, obvhs {:.2}",
        ours.stats().sah_cost + ours_leaves / ours_root,
        (internal + leaf_terms) / area(&theirs.nodes[0].aabb)
    );

    // Save and load against build, each volume type the way it is used:
    // AABB/SAH f32 trees for rays, OBB and RSS f64 trees for collision and
    // distance. A load reads the file (from the page cache) and checks the
    // whole tree (structure, form, containment), on the given threads.
    let mesh64 = mesh_of(&to_f64(&tris));
    let mut g = c.benchmark_group(format!("save_load_{}k_tris", tris.len() / 1000));
    g.sample_size(10);
    save_load::<f32, Aabb<f32>>(&mut g, "aabb_sah_f32", &mesh, &BuildOptions::sah());
    save_load::<f64, Obb<f64>>(&mut g, "obb_f64", &mesh64, &BuildOptions::default());
    save_load::<f64, Rss<f64>>(&mut g, "rss_f64", &mesh64, &BuildOptions::default());
    g.finish();

    // OBB and RSS trees on the real meshes (FCL/coal: ~140 ms for 56k triangles).
    // Each run moves a fresh copy of the mesh in, and the tree is dropped
    // outside the timing, as in the SAH group above (`fcl_build.py` times
    // FCL's build alone too).
    let (name, real) = collision_mesh();
    let real64 = mesh_of(&to_f64(&real));
    let mut g = c.benchmark_group(format!("build_{name}"));
    g.sample_size(10);
    let per_run = criterion::BatchSize::PerIteration;
    let tight_above =
        BuildOptions::default().with_fit(FitQuality::TightAbove { min_triangles: 128 });
    for threads in [1, 2] {
        let p = pool(threads);
        g.bench_function(BenchmarkId::new("clash_obb_f64", threads), |b| {
            b.iter_batched(
                || real64.clone(),
                |m| p.install(|| Bvh::<f64, Obb<f64>>::build(m, &BuildOptions::default()).unwrap()),
                per_run,
            )
        });
        g.bench_function(
            BenchmarkId::new("clash_obb_tight_above_128_f64", threads),
            |b| {
                b.iter_batched(
                    || real64.clone(),
                    |m| p.install(|| Bvh::<f64, Obb<f64>>::build(m, &tight_above).unwrap()),
                    per_run,
                )
            },
        );
        g.bench_function(BenchmarkId::new("clash_rss_f64", threads), |b| {
            b.iter_batched(
                || real64.clone(),
                |m| p.install(|| Bvh::<f64, Rss<f64>>::build(m, &BuildOptions::default()).unwrap()),
                per_run,
            )
        });
    }
    g.finish();
}

// --- mesh/mesh collision -----------------------------------------------------

/// Random poses of a copy of the mesh around itself, scaled so that about
/// half of them collide.
fn poses(tris: &[Triangle<f32>], n: usize) -> Vec<Isometry3<f64>> {
    let lo = tris
        .iter()
        .fold(tris[0].a, |m, t| m.inf(&t.a).inf(&t.b).inf(&t.c));
    let hi = tris
        .iter()
        .fold(tris[0].a, |m, t| m.sup(&t.a).sup(&t.b).sup(&t.c));
    let size = ((hi - lo).norm() as f64) * 0.5;
    let center = nalgebra::center(&lo, &hi).cast::<f64>();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    (0..n)
        .map(|_| {
            let dir = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            );
            let t = dir * size * 1.2;
            let axis = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * 3.0;
            // rotate about the mesh centre, then shift
            let rot = Isometry3::rotation(axis);
            Isometry3::translation(center.x, center.y, center.z)
                * Isometry3::translation(t.x, t.y, t.z)
                * rot
                * Isometry3::translation(-center.x, -center.y, -center.z)
        })
        .collect()
}

fn collide(c: &mut Criterion) {
    let (name, tris) = collision_mesh();
    let n_poses = 10_000;
    let poses64 = poses(&tris, n_poses);
    let poses32: Vec<Isometry3<f32>> = poses64.iter().map(|p| p.cast()).collect();
    let m32 = mesh_of(&tris);
    let m64 = mesh_of(&to_f64(&tris));
    let obb64 = Bvh::<f64, Obb<f64>>::build(m64.clone(), &BuildOptions::default()).unwrap();
    let obb32 = Bvh::<f32, Obb<f32>>::build(m32.clone(), &BuildOptions::default()).unwrap();
    let rss64 = Bvh::<f64, Rss<f64>>::build(m64.clone(), &BuildOptions::default()).unwrap();
    let aabb64 = Bvh::<f64, Aabb<f64>>::build(m64.clone(), &BuildOptions::sah()).unwrap();
    let tight_top = BuildOptions::default().with_fit(FitQuality::TightAbove { min_triangles: 128 });
    let obb64_top = Bvh::<f64, Obb<f64>>::build(m64.clone(), &tight_top).unwrap();
    let colliding = obb64
        .intersects_poses(&obb64, &poses64)
        .iter()
        .filter(|&&b| b)
        .count();
    println!("== {name}: {colliding} of {n_poses} poses collide");

    let mut g = c.benchmark_group(format!("collide_{name}_{n_poses}_poses"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(n_poses as u64));
    for threads in [1, 2] {
        let p = pool(threads);
        g.bench_function(BenchmarkId::new("clash_obb_f64_any", threads), |b| {
            b.iter(|| p.install(|| black_box(obb64.intersects_poses(&obb64, &poses64))))
        });
    }
    let p1 = pool(1);
    g.bench_function(
        BenchmarkId::new("clash_obb_tight_above_128_f64_any", 1),
        |b| b.iter(|| p1.install(|| black_box(obb64_top.intersects_poses(&obb64_top, &poses64)))),
    );
    g.bench_function(BenchmarkId::new("clash_obb_f32_any", 1), |b| {
        b.iter(|| p1.install(|| black_box(obb32.intersects_poses(&obb32, &poses32))))
    });
    g.bench_function(BenchmarkId::new("clash_rss_f64_any", 1), |b| {
        b.iter(|| p1.install(|| black_box(rss64.intersects_poses(&rss64, &poses64))))
    });
    g.bench_function(BenchmarkId::new("clash_aabb_f64_any", 1), |b| {
        b.iter(|| p1.install(|| black_box(aabb64.intersects_poses(&aabb64, &poses64))))
    });
    g.bench_function(BenchmarkId::new("clash_obb_f64_all_pairs", 1), |b| {
        b.iter(|| {
            p1.install(|| {
                black_box(obb64.collide_poses(&obb64, &poses64, &CollisionRequest::all()))
            })
        })
    });
    g.finish();

    // parry3d is ~100x slower per pose: a subset of the same poses.
    let n_parry = 200;
    let pm = parry_mesh(&m32);
    let mut g = c.benchmark_group(format!("collide_{name}_{n_parry}_poses"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(n_parry as u64));
    let pp: Vec<_> = poses32[..n_parry].iter().map(parry_pose).collect();
    let id = parry_pose(&Isometry3::identity());
    g.bench_function(BenchmarkId::new("parry3d_f32_any", 1), |b| {
        b.iter(|| {
            pp.iter()
                .filter(|p| {
                    parry3d::query::intersection_test(&id, &pm, p, &pm)
                        .is_ok_and(|r| r.intersecting)
                })
                .count()
        })
    });
    g.bench_function(BenchmarkId::new("clash_obb_f32_any", 1), |b| {
        b.iter(|| {
            poses32[..n_parry]
                .iter()
                .filter(|p| obb32.intersects(&obb32, *p))
                .count()
        })
    });
    g.finish();
    let agree = poses32[..n_parry]
        .iter()
        .zip(&pp)
        .filter(|(c, p)| {
            obb32.intersects(&obb32, *c)
                == parry3d::query::intersection_test(&id, &pm, p, &pm).is_ok_and(|r| r.intersecting)
        })
        .count();
    println!("== parry3d agrees with clash on {agree} of {n_parry} poses (any contact, f32)");
    // Who is right where they differ: the same pose in f64, where the exact
    // triangle test and the distance query see the transform with less rounding.
    let rss64 = Bvh::<f64, Rss<f64>>::build(m64.clone(), &BuildOptions::default()).unwrap();
    for (k, (c32, p)) in poses32[..n_parry].iter().zip(&pp).enumerate() {
        let ours = obb32.intersects(&obb32, c32);
        let theirs =
            parry3d::query::intersection_test(&id, &pm, p, &pm).is_ok_and(|r| r.intersecting);
        if ours != theirs {
            let pose64 = poses64[k];
            let pairs = obb64
                .collide(&obb64, pose64, &CollisionRequest::all())
                .pairs
                .len();
            let d = rss64.distance(&rss64, pose64).distance;
            println!(
                "== pose {k}: clash f32 {ours}, parry3d {theirs}; clash f64: {pairs} intersecting pairs, distance {d:e}"
            );
        }
    }
}

criterion_group!(benches, collide, build);
criterion_main!(benches);
