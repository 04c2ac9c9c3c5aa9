//! Exactly touching scenes, swept: triangle soups on a grid of eighths
//! (every sum and difference of coordinates is exact in f32 and f64) under
//! poses that keep them on the grid (signed axis permutations as matrices,
//! grid translations) and under poses that nearly do (tiny rotations), so
//! that shared vertices, collinear edges and coplanar faces are the rule,
//! not the exception. For every bounding volume type, f32 and f64, three
//! build options, both argument orders, and trees reloaded from their
//! bytes, the contact set, any-contact and self-contacts equal brute force
//! over all triangle pairs placed the same way (the exact triangle test).
//!
//! A short sweep runs with the tests; the long one (`docs/long_checks.md`)
//! with
//! `cargo test -p clash-bvh --release --test integration touching_sweep:: -- --ignored`.

use crate::common;

use clash_bv::{Aabb, Capsule, Kdop14, Kdop18, Kdop26, Obb, RelativePose, Rss, Sphere};
use clash_bvh::{Bvh, TreeVolume, TriMesh, TrianglePair};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Triangle, Vector3};
use common::{Rng, brute_force_self_contacts, seeded, sorted, tree_shapes};
use rand::RngExt;

/// A coordinate on the grid of eighths, `k / 8`.
fn eighth<T: Scalar>(k: i32) -> T {
    T::lit(f64::from(k) / 8.0)
}

/// `n` triangles with corners on the grid of eighths in `[0, 2.5]^3`, each
/// within half a unit of its first corner, welded (bit-identical corners
/// share a vertex). Every seventh triangle is flat in a plane `z = k/8`
/// shared with others (coplanar contacts), every eleventh degenerate.
fn grid_soup<T: Scalar>(rng: &mut Rng, n: usize) -> TriMesh<T> {
    let tris: Vec<Triangle<T>> = (0..n)
        .map(|i| {
            let base: [i32; 3] = core::array::from_fn(|_| rng.random_range(0..=16));
            let mut corner = || {
                let d: [i32; 3] = core::array::from_fn(|_| rng.random_range(-4..=4));
                Point3::new(
                    eighth::<T>(base[0] + d[0]),
                    eighth::<T>(base[1] + d[1]),
                    eighth::<T>(base[2] + d[2]),
                )
            };
            let (mut a, mut b, mut c) = (corner(), corner(), corner());
            if i % 7 == 0 {
                let z = eighth::<T>(rng.random_range(0..=2) * 8);
                (a.z, b.z, c.z) = (z, z, z);
            }
            match i % 11 {
                0 => c = a,
                5 => b = a,
                _ => {}
            }
            Triangle::new(a, b, c)
        })
        .collect();
    TriMesh::from_triangles(&tris).unwrap().welded(T::ZERO)
}

/// A signed axis permutation with determinant `+1`.
fn signed_permutation<T: Scalar>(rng: &mut Rng) -> Matrix3<T> {
    let mut axes = [0usize, 1, 2];
    for i in (1..3).rev() {
        axes.swap(i, rng.random_range(0..=i));
    }
    let mut r = Matrix3::<T>::zeros();
    for (row, &col) in axes.iter().enumerate() {
        r[(row, col)] = if rng.random_bool(0.5) {
            T::ONE
        } else {
            -T::ONE
        };
    }
    if r.determinant() < T::ZERO {
        r.set_row(0, &(-r.row(0)));
    }
    r
}

/// A random vertex of `m`.
fn any_vertex<T: Scalar>(rng: &mut Rng, m: &TriMesh<T>) -> Vector3<T> {
    m.vertices()[rng.random_range(0..m.vertices().len())].coords
}

/// A pose that keeps the grid: a signed axis permutation (as a matrix, so
/// that it is applied exactly) and a translation by eighths; with `snap`,
/// the translation that puts a random vertex of `b` exactly on a random
/// vertex of `a` (so the meshes touch at least there).
fn grid_pose<T: Scalar>(
    rng: &mut Rng,
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    snap: bool,
) -> RelativePose<T> {
    let r = signed_permutation::<T>(rng);
    let t = if snap {
        any_vertex(rng, a) - r * any_vertex(rng, b)
    } else {
        Vector3::from_fn(|_, _| eighth::<T>(rng.random_range(-8..=8)))
    };
    RelativePose::from_matrix(r, t)
}

/// A rotation of at most `angle` radians that puts a random vertex of `b`
/// within rounding of a random vertex of `a`: the meshes touch, or miss
/// by an ulp, there.
fn nearly_grid_pose<T: Scalar>(
    rng: &mut Rng,
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    angle: f64,
) -> RelativePose<T> {
    let axis = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
    .try_normalize(1e-9)
    .unwrap_or(Vector3::z());
    let rotation = clash_math::Rotation3::new((axis * rng.random_range(0.0..angle)).map(T::lit));
    let r = rotation.into_inner();
    let t = any_vertex(rng, a) - r * any_vertex(rng, b);
    RelativePose::new(&Isometry3::from_parts(
        t.into(),
        clash_math::UnitQuaternion::from_rotation_matrix(&rotation),
    ))
}

/// The inverse of a pose, exactly, for grid poses (the transpose of a
/// signed permutation, and `-Rᵀ t` on the grid).
fn inverse<T: Scalar>(p: &RelativePose<T>) -> RelativePose<T> {
    let rt = p.rotation.transpose();
    RelativePose::from_matrix(rt, -(rt * p.translation))
}

/// Every touching pair, by the exact triangle test on all pairs, `b`
/// placed in `a`'s frame as trees place it.
fn brute_force<T: Scalar>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    pose: &RelativePose<T>,
) -> Vec<TrianglePair> {
    let bt: Vec<Triangle<T>> = b.triangles().map(|t| pose.transform_triangle(&t)).collect();
    let mut out = Vec::new();
    for (i, ta) in a.triangles().enumerate() {
        for (j, tb) in bt.iter().enumerate() {
            if clash_narrow::overlap::triangle_triangle(&ta, tb) {
                out.push([i as u32, j as u32]);
            }
        }
    }
    out
}

/// The pairs of `a` not in `b` (both sorted).
fn difference(a: &[TrianglePair], b: &[TrianglePair]) -> Vec<TrianglePair> {
    a.iter()
        .filter(|p| b.binary_search(p).is_err())
        .copied()
        .collect()
}

/// What brute force says about one scene: the self-contacts of `a`, and
/// per pose the contacts of `b` placed in `a`'s frame and, for poses with
/// an exact inverse, those of `a` placed in `b`'s.
struct Expected<T: Scalar> {
    self_a: Vec<TrianglePair>,
    poses: Vec<PoseExpected<T>>,
}

/// A pose, the pairs brute force finds under it, and those under its exact
/// inverse (with the meshes swapped), if it has one.
type PoseExpected<T> = (
    RelativePose<T>,
    Vec<TrianglePair>,
    Option<Vec<TrianglePair>>,
);

impl<T: Scalar> Expected<T> {
    fn new(a: &TriMesh<T>, b: &TriMesh<T>, poses: &[(RelativePose<T>, bool)]) -> Self {
        let poses = poses
            .iter()
            .map(|(pose, exact_inverse)| {
                let want = sorted(brute_force(a, b, pose));
                let other = exact_inverse.then(|| {
                    let other = sorted(brute_force(b, a, &inverse(pose)));
                    // The exact inverse meets the same pairs, swapped.
                    let back: Vec<TrianglePair> = other.iter().map(|&[j, i]| [i, j]).collect();
                    assert_eq!(sorted(back), want, "the exact inverse disagrees");
                    other
                });
                (*pose, want, other)
            })
            .collect();
        Self {
            self_a: sorted(brute_force_self_contacts(a)),
            poses,
        }
    }
}

/// One scene: meshes `a` and `b`, trees of type `B` built with every
/// option set (and `b`'s reloaded from its bytes), against brute force.
fn check_scene<T: Scalar, B: TreeVolume<T>>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    expected: &Expected<T>,
    what: &str,
) {
    for (k, opts) in tree_shapes().iter().enumerate() {
        let ta = Bvh::<T, B>::build(a.clone(), opts).unwrap();
        let tb = Bvh::<T, B>::build(b.clone(), opts).unwrap();
        let tb_loaded = Bvh::<T, B>::from_bytes(&tb.to_bytes()).unwrap();
        let what = format!("{what} {} {} opts {k}", T::NAME, B::NAME);
        assert_eq!(
            sorted(ta.self_contacts()),
            expected.self_a,
            "{what}: self-contacts"
        );
        for (pose, want, other) in &expected.poses {
            for (tree_b, which) in [(&tb, "built"), (&tb_loaded, "loaded")] {
                let got = sorted(ta.contacts(tree_b, pose));
                assert!(
                    &got == want,
                    "{what} {which}: contacts, pose {:?} {:?}: missed {:?}, extra {:?}",
                    pose.rotation,
                    pose.translation,
                    difference(want, &got),
                    difference(&got, want),
                );
                assert_eq!(
                    ta.intersects(tree_b, pose),
                    !want.is_empty(),
                    "{what} {which}: any contact"
                );
            }
            if let Some(other) = other {
                let got = sorted(tb.contacts(&ta, inverse(pose)));
                assert!(
                    &got == other,
                    "{what}: contacts, other order: missed {:?}, extra {:?}",
                    difference(other, &got),
                    difference(&got, other),
                );
            }
        }
    }
}

/// Every bounding volume type on one scene; the number of touching pairs
/// brute force saw.
fn every_type<T: Scalar>(
    a: &TriMesh<T>,
    b: &TriMesh<T>,
    poses: &[(RelativePose<T>, bool)],
    what: &str,
) -> usize {
    let expected = Expected::new(a, b, poses);
    check_scene::<T, Aabb<T>>(a, b, &expected, what);
    check_scene::<T, Obb<T>>(a, b, &expected, what);
    check_scene::<T, Rss<T>>(a, b, &expected, what);
    check_scene::<T, Sphere<T>>(a, b, &expected, what);
    check_scene::<T, Capsule<T>>(a, b, &expected, what);
    check_scene::<T, Kdop14<T>>(a, b, &expected, what);
    check_scene::<T, Kdop18<T>>(a, b, &expected, what);
    check_scene::<T, Kdop26<T>>(a, b, &expected, what);
    expected.poses.iter().map(|p| p.1.len()).sum()
}

/// `scenes` scenes from `seed`: grid soups of `n` triangles under grid
/// poses and nearly grid poses.
fn sweep<T: Scalar>(seed: u64, scenes: usize, n: usize) {
    let mut rng = seeded(seed);
    let mut seen = 0;
    for s in 0..scenes {
        let a: TriMesh<T> = grid_soup(&mut rng, n);
        let b: TriMesh<T> = grid_soup(&mut rng, n);
        let mut poses: Vec<(RelativePose<T>, bool)> = vec![(
            RelativePose::from_matrix(Matrix3::identity(), Vector3::zeros()),
            true,
        )];
        for snap in [false, true, true, true] {
            poses.push((grid_pose(&mut rng, &a, &b, snap), true));
        }
        for angle in [1e-6, 1e-3, 3.0] {
            poses.push((nearly_grid_pose(&mut rng, &a, &b, angle), false));
        }
        seen += every_type(&a, &b, &poses, &format!("seed {seed} scene {s}"));
        // A mesh against itself: every triangle touches its own copy.
        let id = [(poses[0].0, true)];
        seen += every_type(&a, &a, &id, &format!("seed {seed} scene {s} self-copy"));
    }
    assert!(seen > 0, "the sweep met no contact");
}

#[test]
fn touching_grid_scenes_f64() {
    sweep::<f64>(1, 2, 60);
}

#[test]
fn touching_grid_scenes_f32() {
    sweep::<f32>(2, 2, 60);
}

/// The long sweep: `CLASH_SWEEP_SEEDS` seeds (default 3) per scalar,
/// each of 10 scenes of 120 triangles (`docs/long_checks.md` gives its
/// last run; set more seeds for a longer sweep).
#[test]
#[ignore = "long: run it in release (docs/long_checks.md); CLASH_SWEEP_SEEDS sets more seeds"]
fn touching_grid_scenes_long() {
    let seeds: u64 = std::env::var("CLASH_SWEEP_SEEDS").map_or(3, |s| s.parse().unwrap());
    for seed in 0..seeds {
        sweep::<f64>(100 + seed, 10, 120);
        sweep::<f32>(200 + seed, 10, 120);
    }
}
