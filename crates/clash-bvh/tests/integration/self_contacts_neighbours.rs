//! Self-collision reports neighbours (triangles sharing a vertex or an edge
//! by index) that intersect beyond what they share: faces folded over their
//! neighbours, neighbours piercing each other next to a shared vertex, a
//! face duplicated on its own three vertices. The tree's answer equals brute
//! force over all pairs, for every volume type, in `f32` and `f64`, on
//! folded grids with exact (dyadic) coordinates and on the meshes the repo
//! ships. The neighbour test itself is checked against an exact rational
//! oracle in `clash-narrow` (`tests/oracle_neighbours.rs`).

use crate::common;

use clash_bv::{Aabb, Capsule, Kdop14, Kdop18, Kdop26, Obb, Rss, Sphere};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh, TrianglePair};
use clash_math::{Point3, Scalar};
use common::*;
use rand::RngExt;

/// A welded `n` x `n` grid of unit quads (two triangles each), heights 0
/// in one half and small integers in the other, with a few vertices pushed
/// in the plane past their neighbours (folds: coplanar overlaps where the
/// grid is flat, piercings where it is not); everything on a grid of
/// eighths, so coplanarity is exact.
fn folded_grid<T: Scalar>(rng: &mut Rng, n: usize, folds: usize) -> TriMesh<T> {
    let id = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut p: Vec<[f64; 3]> = (0..=n)
        .flat_map(|i| (0..=n).map(move |j| (i, j)))
        .map(|(i, j)| [i as f64, j as f64, 0.0])
        .collect();
    for q in p.iter_mut().filter(|q| q[0] > (n / 2) as f64) {
        q[2] = rng.random_range(-2i32..=2) as f64 * 0.125;
    }
    for _ in 0..folds {
        let k = rng.random_range(0..p.len());
        p[k][0] += rng.random_range(-12i32..=12) as f64 * 0.125;
        p[k][1] += rng.random_range(-12i32..=12) as f64 * 0.125;
    }
    let mut idx = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            idx.push([a, b, c]);
            idx.push([a, c, d]);
        }
    }
    // A face duplicated on its own vertices, once in each winding.
    let f = idx[rng.random_range(0..idx.len())];
    idx.push([f[1], f[2], f[0]]);
    idx.push([f[0], f[2], f[1]]);
    let vertices = p
        .iter()
        .map(|q| Point3::new(T::lit(q[0]), T::lit(q[1]), T::lit(q[2])))
        .collect();
    TriMesh::new(vertices, idx).unwrap()
}

fn shares_index(mesh: &TriMesh<impl Scalar>, [i, j]: TrianglePair) -> bool {
    let idx = mesh.indices();
    idx[i as usize].iter().any(|v| idx[j as usize].contains(v))
}

/// The tree's self-contacts of `mesh` for every volume type, each equal to
/// `want`.
fn check_every_type<T: Scalar>(mesh: &TriMesh<T>, want: &[TrianglePair]) {
    fn one<T: Scalar, B: TreeVolume<T>>(mesh: &TriMesh<T>, want: &[TrianglePair]) {
        for opts in [BuildOptions::default(), BuildOptions::sah()] {
            let tree = Bvh::<T, B>::build(mesh.clone(), &opts).unwrap();
            assert_eq!(
                sorted(tree.self_contacts()),
                want,
                "{}",
                core::any::type_name::<B>()
            );
        }
    }
    one::<T, Aabb<T>>(mesh, want);
    one::<T, Obb<T>>(mesh, want);
    one::<T, Rss<T>>(mesh, want);
    one::<T, Sphere<T>>(mesh, want);
    one::<T, Capsule<T>>(mesh, want);
    one::<T, Kdop14<T>>(mesh, want);
    one::<T, Kdop18<T>>(mesh, want);
    one::<T, Kdop26<T>>(mesh, want);
}

#[test]
fn folded_grids_equal_brute_force_with_neighbours() {
    let mut rng = seeded(2511);
    let (mut neighbours, mut others) = (0, 0);
    for round in 0..6 {
        let folds = [0, 3, 10, 30, 60, 120][round];
        let m64: TriMesh<f64> = folded_grid(&mut rng, 16, folds);
        let m32 = TriMesh::<f32>::new(
            m64.vertices().iter().map(|p| p.cast::<f32>()).collect(),
            m64.indices().to_vec(),
        )
        .unwrap();
        let want = sorted(brute_force_self_contacts(&m64));
        // The grid is exact in f32 too: the same answer.
        assert_eq!(sorted(brute_force_self_contacts(&m32)), want);
        check_every_type(&m64, &want);
        check_every_type(&m32, &want);
        // The duplicated face meets its two copies and they meet each other.
        let n = m64.indices().len() as u32;
        assert!(want.contains(&[n - 2, n - 1]));
        if folds == 0 {
            // An unfolded grid meets itself only through the copies.
            assert!(want.iter().all(|p| p[1] >= n - 2));
        }
        for &p in &want {
            if shares_index(&m64, p) {
                neighbours += 1;
            } else {
                others += 1;
            }
        }
    }
    // Both kinds occur, so neither check is vacuous.
    assert!(
        neighbours > 50 && others > 20,
        "{neighbours} neighbour and {others} other contacts"
    );
}

#[test]
fn shipped_meshes_equal_brute_force() {
    for name in ["bunny_lo.stl", "dog_sacrum.stl"] {
        let mesh: TriMesh<f64> = read_stl(name);
        let want = sorted(brute_force_self_contacts(&mesh));
        check_every_type(&mesh, &want);
        let m32: TriMesh<f32> = read_stl(name);
        check_every_type(&m32, &sorted(brute_force_self_contacts(&m32)));
    }
}
