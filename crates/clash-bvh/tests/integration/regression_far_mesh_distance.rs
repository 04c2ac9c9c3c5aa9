//! Regression: mesh/mesh distance between meshes far apart. The 902-
//! triangle bunny against itself translated by `T` along x answered
//! distances up to 66% short, with a witness point that was not on its
//! mesh, once `T` passed about 1e15 times the mesh's size: the closest
//! points of two triangles took a corner's projection on the other's plane
//! as a candidate when a floating-point inside test, lost to cancellation at
//! that separation, said it fell in the face. Every candidate is now a
//! convex combination of its triangle's corners.
//!
//! The oracle: for a pure translation along x by `T ≥ 1e10`, the exact
//! distance is `T - w` with `w = max x - min x` of the mesh, to within
//! `L² / (2 (T - w))` for lateral offsets `L` of about the mesh's size, far
//! below an ulp of `T`; `w` is exact in f64 (a difference of two f32
//! values), so `T - w` is rounded once.

use crate::common::*;
use clash_bv::{Aabb, Obb, Rss};
use clash_bvh::{BuildOptions, BvPair, Bvh, MeshDistance, TreeVolume, TriMesh};
use clash_math::{Isometry3, Point3, Triangle, Vector3};
use clash_narrow::closest::point_triangle;

/// Ulps of `x` between `a` and `b`.
fn ulps_apart(a: f64, b: f64) -> f64 {
    (a - b).abs() / (f64::EPSILON * a.abs().max(b.abs()))
}

/// The triangle of `mesh` with the given input index, placed by `pose`
/// the way the trees place it (the rotation's matrix, then the
/// translation).
fn placed(mesh: &TriMesh<f64>, index: u32, pose: &Isometry3<f64>) -> Triangle<f64> {
    let t = mesh.triangle(index as usize);
    let r = pose.rotation.to_rotation_matrix().into_inner();
    let v = pose.translation.vector;
    let p = |q: Point3<f64>| Point3::from(r * q.coords + v);
    Triangle::new(p(t.a), p(t.b), p(t.c))
}

/// `true` when `p` lies on `t` to within `tol`: its distance to the
/// triangle's closest point (a convex combination of the corners).
fn on_triangle(p: &Point3<f64>, t: &Triangle<f64>, tol: f64) -> bool {
    (point_triangle(p, t).point - p).norm() <= tol
}

/// Checks one answer: the distance within 4 ulps of `expected`, the
/// points on their triangles, and their separation equal to the distance.
fn check(d: &MeshDistance<f64>, mesh: &TriMesh<f64>, pose: &Isometry3<f64>, expected: f64) {
    let t = pose.translation.vector.amax();
    assert!(
        ulps_apart(d.distance, expected) <= 4.0,
        "T = {t:e}: {} against {expected} ({} ulps)",
        d.distance,
        ulps_apart(d.distance, expected)
    );
    let ta = mesh.triangle(d.triangles[0] as usize);
    assert!(
        on_triangle(&d.point_a, &ta, 1e-14),
        "T = {t:e}: point_a {:?} is not on triangle {} of A",
        d.point_a,
        d.triangles[0]
    );
    let tb = placed(mesh, d.triangles[1], pose);
    assert!(
        on_triangle(&d.point_b, &tb, 8.0 * f64::EPSILON * t),
        "T = {t:e}: point_b {:?} is not on triangle {} of B",
        d.point_b,
        d.triangles[1]
    );
    let separation = (d.point_b - d.point_a).norm();
    assert!(
        ulps_apart(separation, d.distance) <= 2.0,
        "T = {t:e}: |point_b - point_a| = {separation} against {}",
        d.distance
    );
}

fn far_translations<B>(options: &BuildOptions)
where
    B: TreeVolume<f64> + BvPair<f64, B>,
{
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let (lo, hi) = mesh
        .vertices()
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.x), hi.max(p.x))
        });
    let w = hi - lo;
    let tree: Bvh<f64, B> = Bvh::build(mesh.clone(), options).unwrap();
    for exponent in 10..=35 {
        for mantissa in [1.0, 3.7] {
            let t = mantissa * 10f64.powi(exponent);
            let pose = Isometry3::translation(t, 0.0, 0.0);
            let d = tree.distance(&tree, pose);
            check(&d, &mesh, &pose, t - w);
            // The same along another axis and against it: the extent
            // along that axis.
            let (lo_z, hi_z) = mesh
                .vertices()
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                    (lo.min(p.z), hi.max(p.z))
                });
            let pose = Isometry3::translation(0.0, 0.0, -t);
            let d = tree.distance(&tree, pose);
            check(&d, &mesh, &pose, t - (hi_z - lo_z));
        }
    }
}

#[test]
fn bunny_far_apart_obb_tree() {
    far_translations::<Obb<f64>>(&BuildOptions::default());
}

#[test]
fn bunny_far_apart_rss_tree() {
    far_translations::<Rss<f64>>(&BuildOptions::sah());
}

#[test]
fn bunny_far_apart_aabb_tree() {
    far_translations::<Aabb<f64>>(&BuildOptions::sah());
}

/// Two single triangles a unit apart in size, `T` apart in space and at a
/// skew angle: the distance is at least the gap along x (exact lower
/// bound: every point of A has `x <= 1`, every point of B `x >= T`), and
/// at most that of the corners' pairs; the points lie on their triangles.
#[test]
fn skew_triangles_far_apart() {
    let a = Triangle::new(
        Point3::new(0.0, 0.0, 0.0),
        Point3::new(1.0, 0.3, -0.2),
        Point3::new(0.4, 1.0, 0.7),
    );
    for exponent in 0..=38 {
        let t = 10f64.powi(exponent) * 1.37;
        let off = Vector3::new(t, 0.25, -0.5);
        let b = Triangle::new(
            Point3::new(0.1, 0.9, 0.0) + off,
            Point3::new(0.7, -0.4, 0.5) + off,
            Point3::new(0.2, 0.3, -0.9) + off,
        );
        let c = clash_narrow::closest::triangle_triangle(&a, &b);
        let d = c.distance();
        let gap = (b.a.x.min(b.b.x).min(b.c.x)) - 1.0;
        assert!(
            d >= gap * (1.0 - 4.0 * f64::EPSILON),
            "T = {t:e}: {d} < {gap}"
        );
        for p in a.vertices() {
            for q in b.vertices() {
                assert!(
                    d <= (q - p).norm() * (1.0 + 4.0 * f64::EPSILON),
                    "T = {t:e}"
                );
            }
        }
        assert!(on_triangle(&c.a, &a, 1e-14), "T = {t:e}: {:?}", c.a);
        assert!(
            on_triangle(&c.b, &b, 8.0 * f64::EPSILON * t.max(1.0)),
            "T = {t:e}: {:?}",
            c.b
        );
    }
}
