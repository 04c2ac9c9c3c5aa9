//! Closest point on a mesh against parry3d's `project_local_point`, on
//! several meshes (a generated ellipsoid, and the torso, the bunny and the
//! Panda link of `../shared/meshes` when present), two point sets per mesh
//! (near: surface samples pushed off by 1e-3 of the size along the normal,
//! either side; far: uniform in a box 2.5 times the bounds about their
//! centre), clash in `f32` and `f64` with three trees (`Aabb` with the
//! default options, `Aabb` with SAH, `Obb` with the default options)
//! beside parry3d (`f32`) and parry3d-f64 on the same points. The
//! preamble checks every tree's distances against parry's on the first
//! 2000 points of each set. `CLASH_BENCH_POINTS` sizes the sets (20k).

use clash_benches::{generated_mesh, read_stl, to_f64};
use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, TriMesh};
use clash_math::{Point3, Scalar, Triangle, Vector3};
use criterion::{BenchmarkId, Criterion, Throughput};
use rand::{RngExt, SeedableRng};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

fn welded<T: Scalar>(tris: &[Triangle<T>]) -> TriMesh<T> {
    TriMesh::from_triangles(tris).unwrap().welded(T::ZERO)
}

/// The meshes: `(name, triangles)`; the real ones only when readable.
fn meshes() -> Vec<(String, Vec<Triangle<f32>>)> {
    let mut out = vec![("ellipsoid100k".to_owned(), generated_mesh(50, 1000))];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/meshes");
    for name in ["gr1_torso", "bunny", "panda_link6"] {
        match read_stl(&dir.join(format!("{name}.stl"))) {
            Ok(t) if !t.is_empty() => out.push((format!("{name}{}k", t.len() / 1000), t)),
            _ => println!("== closest point: {name}.stl absent, skipped"),
        }
    }
    out
}

/// Near and far point sets of `n` points each for the mesh.
fn point_sets(mesh: &TriMesh<f32>, n: usize, seed: u64) -> [(&'static str, Vec<Point3<f32>>); 2] {
    let v = mesh.vertices();
    let (mut lo, mut hi) = (v[0], v[0]);
    for p in v {
        lo = lo.inf(p);
        hi = hi.sup(p);
    }
    let size = (hi - lo).norm();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut near = Vec::with_capacity(n);
    while near.len() < n {
        let t = mesh.triangle(rng.random_range(0..mesh.num_triangles()));
        let Some(normal) = t.normal() else { continue };
        let (a, b): (f32, f32) = (rng.random(), rng.random());
        let (a, b) = if a + b > 1.0 {
            (1.0 - a, 1.0 - b)
        } else {
            (a, b)
        };
        let s = if rng.random_bool(0.5) { 1e-3 } else { -1e-3 } * size;
        near.push(t.a + (t.b - t.a) * a + (t.c - t.a) * b + normal * s);
    }
    let (c, h) = (nalgebra::center(&lo, &hi), (hi - lo) * 1.25);
    let far = (0..n)
        .map(|_| {
            c + Vector3::new(
                h.x * rng.random_range(-1.0..1.0f32),
                h.y * rng.random_range(-1.0..1.0f32),
                h.z * rng.random_range(-1.0..1.0f32),
            )
        })
        .collect();
    [("near", near), ("far", far)]
}

/// The three clash trees of one precision, named.
struct Trees<T: Scalar> {
    aabb: Bvh<T, Aabb<T>>,
    sah: Bvh<T, Aabb<T>>,
    obb: Bvh<T, Obb<T>>,
}

impl<T: Scalar> Trees<T> {
    fn new(mesh: TriMesh<T>) -> Self {
        Self {
            aabb: Bvh::build(mesh.clone(), &BuildOptions::default()).unwrap(),
            sah: Bvh::build(mesh.clone(), &BuildOptions::sah()).unwrap(),
            obb: Bvh::build(mesh, &BuildOptions::default()).unwrap(),
        }
    }

    /// Each tree's distance to `p`, in the order of [`TREES`].
    fn distances(&self, p: &Point3<T>) -> [T; 3] {
        [
            self.aabb.closest_point(p).distance_squared.sqrt(),
            self.sah.closest_point(p).distance_squared.sqrt(),
            self.obb.closest_point(p).distance_squared.sqrt(),
        ]
    }
}

const TREES: [&str; 3] = ["aabb", "aabb_sah", "obb"];

fn pv32(p: &Point3<f32>) -> parry3d::math::Vector {
    parry3d::math::Vector::new(p.x, p.y, p.z)
}

fn pv64(p: &Point3<f64>) -> parry3d_f64::math::Vector {
    parry3d_f64::math::Vector::new(p.x, p.y, p.z)
}

fn sci(x: [f64; 3]) -> String {
    x.map(|w| format!("{w:.1e}")).join(" ")
}

pub fn closest_points(c: &mut Criterion) {
    use parry3d::query::PointQuery as _;
    use parry3d_f64::query::PointQuery as _;
    let n = env("CLASH_BENCH_POINTS", 20_000);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for (seed, (name, tris)) in meshes().into_iter().enumerate() {
        let m32 = welded(&tris);
        let m64 = welded(&to_f64(&tris));
        let (t32, t64) = (Trees::new(m32.clone()), Trees::new(m64.clone()));
        let p32 = parry3d::shape::TriMesh::new(
            m32.vertices().iter().map(pv32).collect(),
            m32.indices().to_vec(),
        )
        .unwrap();
        let p64 = parry3d_f64::shape::TriMesh::new(
            m64.vertices().iter().map(pv64).collect(),
            m64.indices().to_vec(),
        )
        .unwrap();
        let root = t64.aabb.root_bv();
        let size = (root.max - root.min).norm();
        for (set, points) in point_sets(&m32, n, 40 + seed as u64) {
            let points64: Vec<Point3<f64>> = points.iter().map(|p| p.cast()).collect();
            // Every tree against parry3d-f64 on the same points (the f32
            // ones within f32 rounding of the size, the f64 ones within
            // f64 rounding), which also derives any lazy layout.
            let (mut worst32, mut worst64, mut parry32) = ([0.0f64; 3], [0.0f64; 3], 0.0f64);
            for (p, q) in points.iter().zip(&points64).take(2000) {
                let r = (p64.project_local_point(pv64(q), false).point - pv64(q)).length();
                let r32 = (p32.project_local_point(pv32(p), false).point - pv32(p)).length();
                parry32 = parry32.max((f64::from(r32) - r).abs());
                let (d32, d64) = (t32.distances(p), t64.distances(q));
                for k in 0..3 {
                    worst32[k] = worst32[k].max((f64::from(d32[k]) - r).abs());
                    worst64[k] = worst64[k].max((d64[k] - r).abs());
                }
            }
            println!(
                "== closest point {name} {set}: largest |x - parry3d-f64| / size over 2000 points: clash f32 {TREES:?} {}, parry3d f32 {:.1e}, clash f64 {}",
                sci(worst32.map(|w| w / size)),
                parry32 / size,
                sci(worst64.map(|w| w / size))
            );
            assert!(
                worst32.iter().all(|&w| w <= 1e-5 * size)
                    && worst64.iter().all(|&w| w <= 1e-10 * size),
                "closest point {name} {set}: clash and parry3d disagree"
            );
            let mut g = c.benchmark_group(format!("closest_point_{name}_{set}"));
            g.sample_size(10)
                .warm_up_time(Duration::from_millis(500))
                .measurement_time(Duration::from_secs(2));
            g.throughput(Throughput::Elements(points.len() as u64));
            macro_rules! ours {
                ($id:expr, $tree:expr, $pts:expr) => {
                    g.bench_function(BenchmarkId::new($id, 1), |b| {
                        b.iter(|| {
                            pool.install(|| {
                                $pts.iter()
                                    .map(|p| $tree.closest_point(p).distance_squared.to_f64())
                                    .sum::<f64>()
                            })
                        })
                    });
                };
            }
            ours!("clash_aabb_f32", t32.aabb, points);
            ours!("clash_aabb_sah_f32", t32.sah, points);
            ours!("clash_obb_f32", t32.obb, points);
            g.bench_function(BenchmarkId::new("parry3d_f32", 1), |b| {
                b.iter(|| {
                    points
                        .iter()
                        .map(|p| black_box(p32.project_local_point(pv32(p), false)).point.x)
                        .sum::<f32>()
                })
            });
            ours!("clash_aabb_f64", t64.aabb, points64);
            ours!("clash_aabb_sah_f64", t64.sah, points64);
            ours!("clash_obb_f64", t64.obb, points64);
            g.bench_function(BenchmarkId::new("parry3d_f64", 1), |b| {
                b.iter(|| {
                    points64
                        .iter()
                        .map(|p| black_box(p64.project_local_point(pv64(p), false)).point.x)
                        .sum::<f64>()
                })
            });
            g.finish();
        }
    }
}
