//! Shared helpers for the clash-bvh integration tests: mesh loading and
//! generation, random poses, and brute-force oracles.
#![allow(dead_code)]

use clash_bvh::{BuildOptions, SplitRule, TriMesh, TrianglePair};
use clash_math::{Isometry3, Point3, Scalar, Triangle, Vector3};
use rand::{RngExt, SeedableRng};
use std::path::PathBuf;

pub type Rng = rand_chacha::ChaCha8Rng;

pub fn seeded(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Runs `f` in a fresh rayon pool of `threads` threads.
pub fn in_pool<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

/// The tree shapes the collision oracles sweep: the default (median split,
/// one triangle per leaf), mean split with up to three triangles per leaf,
/// and binned SAH.
pub fn tree_shapes() -> [BuildOptions; 3] {
    [
        BuildOptions::default(),
        BuildOptions::default()
            .with_split(SplitRule::Mean)
            .with_max_leaf_size(3),
        BuildOptions::sah(),
    ]
}

pub fn mesh_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/meshes")
        .join(name)
}

/// A binary STL file as a welded mesh (bit-identical corners share a vertex);
/// triangle `i` is facet `i`.
pub fn read_stl<T: Scalar>(name: &str) -> TriMesh<T> {
    let bytes = std::fs::read(mesh_path(name)).expect("test mesh present");
    let n = u32::from_le_bytes(bytes[80..84].try_into().unwrap()) as usize;
    assert_eq!(bytes.len(), 84 + 50 * n, "binary STL size");
    let f = |o: usize| T::from_f32_exact(f32::from_le_bytes(bytes[o..o + 4].try_into().unwrap()));
    let tris: Vec<Triangle<T>> = (0..n)
        .map(|i| {
            let o = 84 + 50 * i + 12;
            let p = |k: usize| Point3::new(f(o + 12 * k), f(o + 12 * k + 4), f(o + 12 * k + 8));
            Triangle::new(p(0), p(1), p(2))
        })
        .collect();
    TriMesh::from_triangles(&tris).unwrap().welded(T::ZERO)
}

/// A triangle soup of `n` random triangles with corners in a cube of side
/// `size`, edges up to `edge` long, some of them degenerate.
pub fn random_soup<T: Scalar>(rng: &mut Rng, n: usize, size: f64, edge: f64) -> TriMesh<T> {
    let tris: Vec<Triangle<T>> = (0..n)
        .map(|i| {
            let c = Vector3::new(
                rng.random_range(0.0..size),
                rng.random_range(0.0..size),
                rng.random_range(0.0..size),
            );
            let mut p = || {
                Point3::from(
                    (c + Vector3::new(
                        rng.random_range(-edge..edge),
                        rng.random_range(-edge..edge),
                        rng.random_range(-edge..edge),
                    ))
                    .map(T::lit),
                )
            };
            let (a, b, mut cc) = (p(), p(), p());
            match i % 17 {
                0 => cc = a,                                             // segment
                1 => cc = Point3::from((a.coords + b.coords) * T::HALF), // collinear
                2 => return Triangle::new(a, a, a),                      // point
                _ => {}
            }
            Triangle::new(a, b, cc)
        })
        .collect();
    TriMesh::from_triangles(&tris).unwrap()
}

/// The closed cube `[0, size]³` as 12 triangles wound outwards.
pub fn cube<T: Scalar>(size: f64) -> TriMesh<T> {
    let v = (0..8)
        .map(|i| {
            Point3::new(
                T::lit(size * (i & 1) as f64),
                T::lit(size * ((i >> 1) & 1) as f64),
                T::lit(size * ((i >> 2) & 1) as f64),
            )
        })
        .collect();
    let f = vec![
        [0, 2, 1],
        [1, 2, 3],
        [4, 5, 6],
        [5, 7, 6],
        [0, 1, 4],
        [1, 5, 4],
        [2, 6, 3],
        [3, 6, 7],
        [0, 4, 2],
        [2, 4, 6],
        [1, 3, 5],
        [3, 7, 5],
    ];
    TriMesh::new(v, f).unwrap()
}

/// A closed UV sphere with `rings` x `segments` quads (as triangles).
pub fn uv_sphere<T: Scalar>(radius: f64, rings: u32, segments: u32) -> TriMesh<T> {
    let mut v = vec![Point3::new(0.0, 0.0, radius)];
    for r in 1..rings {
        let th = std::f64::consts::PI * r as f64 / rings as f64;
        for s in 0..segments {
            let ph = 2.0 * std::f64::consts::PI * s as f64 / segments as f64;
            v.push(Point3::new(
                radius * th.sin() * ph.cos(),
                radius * th.sin() * ph.sin(),
                radius * th.cos(),
            ));
        }
    }
    v.push(Point3::new(0.0, 0.0, -radius));
    let south = v.len() as u32 - 1;
    let idx = |r: u32, s: u32| 1 + (r - 1) * segments + (s % segments);
    let mut f = Vec::new();
    for s in 0..segments {
        f.push([0, idx(1, s), idx(1, s + 1)]);
        f.push([south, idx(rings - 1, s + 1), idx(rings - 1, s)]);
    }
    for r in 1..rings - 1 {
        for s in 0..segments {
            f.push([idx(r, s), idx(r + 1, s), idx(r + 1, s + 1)]);
            f.push([idx(r, s), idx(r + 1, s + 1), idx(r, s + 1)]);
        }
    }
    TriMesh::new(v.into_iter().map(|p| p.map(T::lit)).collect(), f).unwrap()
}

/// A random rigid motion with rotation angle up to `angle` and translation in
/// a cube of half-side `reach`.
pub fn random_pose<T: Scalar>(rng: &mut Rng, reach: f64, angle: f64) -> Isometry3<T> {
    let axis = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    );
    let axis = axis.try_normalize(1e-9).unwrap_or(Vector3::z()) * rng.random_range(0.0..angle);
    let t = Vector3::new(
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
        rng.random_range(-reach..reach),
    );
    Isometry3::new(t.map(T::lit), axis.map(T::lit))
}

/// Every intersecting pair of triangles, by testing all pairs.
pub fn brute_force_contacts<T: Scalar>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    b_to_a: &Isometry3<T>,
) -> Vec<TrianglePair> {
    // Placed as trees place them: by the pose's rotation matrix.
    let pose = clash_bv::RelativePose::new(b_to_a);
    let bt: Vec<Triangle<T>> = b.triangles().map(|t| pose.transform_triangle(&t)).collect();
    let bbox: Vec<_> = bt.iter().map(aabb).collect();
    let mut out = Vec::new();
    for (i, ta) in a.triangles().enumerate() {
        let ba = aabb(&ta);
        for (j, tb) in bt.iter().enumerate() {
            // Exact box reject: disjoint closed boxes cannot hold touching triangles.
            if disjoint(&ba, &bbox[j]) {
                continue;
            }
            if clash_narrow::overlap::triangle_triangle(&ta, tb) {
                out.push([i as u32, j as u32]);
            }
        }
    }
    out
}

/// Every intersecting pair `i < j` of triangles: pairs sharing a vertex
/// index count when they meet beyond what they share.
pub fn brute_force_self_contacts<T: Scalar>(m: &TriMesh<T>) -> Vec<TrianglePair> {
    use clash_narrow::overlap::{
        SharedCorners, triangle_triangle, triangle_triangle_beyond_shared,
    };
    let tris: Vec<Triangle<T>> = m.triangles().collect();
    let idx = m.indices();
    let mut out = Vec::new();
    for i in 0..tris.len() {
        for j in i + 1..tris.len() {
            if disjoint(&aabb(&tris[i]), &aabb(&tris[j])) {
                continue;
            }
            let meet = match SharedCorners::of_indices(idx[i], idx[j]) {
                None => triangle_triangle(&tris[i], &tris[j]),
                Some(s) => triangle_triangle_beyond_shared(&tris[i], &tris[j], s),
            };
            if meet {
                out.push([i as u32, j as u32]);
            }
        }
    }
    out
}

fn aabb<T: Scalar>(t: &Triangle<T>) -> (Point3<T>, Point3<T>) {
    (t.a.inf(&t.b).inf(&t.c), t.a.sup(&t.b).sup(&t.c))
}

fn disjoint<T: Scalar>(a: &(Point3<T>, Point3<T>), b: &(Point3<T>, Point3<T>)) -> bool {
    (0..3).any(|k| a.1[k] < b.0[k] || b.1[k] < a.0[k])
}

pub fn sorted(mut v: Vec<TrianglePair>) -> Vec<TrianglePair> {
    v.sort_unstable();
    v
}

/// Every hit `(t, triangle)` of `ray` on the mesh within the query, by
/// clash-narrow's ray/triangle test on each triangle, sorted by `t` then
/// triangle index: the oracle of the ray queries.
pub fn brute_ray<T: Scalar>(
    mesh: &TriMesh<T>,
    ray: &clash_math::Ray<T>,
    q: &clash_bvh::RayQuery<T>,
) -> Vec<(T, u32)> {
    let mut v: Vec<(T, u32)> = mesh
        .triangles()
        .enumerate()
        .filter_map(|(i, t)| {
            clash_narrow::cast::ray_triangle(ray, &t, q.culling, q.t_min, q.t_max)
                .map(|h| (h.t, i as u32))
        })
        .collect();
    v.sort_by(|a, b| a.0.partial_cmp(&b.0).unwrap().then(a.1.cmp(&b.1)));
    v
}
