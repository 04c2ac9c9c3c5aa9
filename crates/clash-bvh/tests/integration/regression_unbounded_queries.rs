//! Regression: point and ray queries at the ends of their ranges.
//!
//! - **Rays over the whole line:** a ray query with `t_min = -∞` (the line
//!   up to `t_max`; and in `f32`, a `t_min` such as `-1e300` given in `f64`
//!   rounds to `-∞`) answered no hit, even for a line through the mesh.
//!   Against brute force over every triangle, on both precisions and at
//!   lines through the mesh, behind the origin and beside the mesh.
//! - **Signed distance far away:** the sign of a point's signed distance to
//!   a closed mesh when the point is up to `1e16` times the mesh's size
//!   away, on every side: always positive (outside), with the magnitude
//!   within rounding of the distance to the nearest corner, for a convex
//!   mesh whose nearest feature far along an axis is a corner or a face.

use crate::common::*;
use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, RayQuery, TreeVolume, TriMesh};
use clash_math::{Point3, Ray, Scalar, Vector3};
use rand::RngExt;

fn whole_line<T: Scalar, B: TreeVolume<T>>() {
    let tree = Bvh::<T, B>::build(cube::<T>(1.0), &BuildOptions::default()).unwrap();
    let mut rng = seeded(71);
    let mut hits = 0;
    for i in 0..400 {
        let origin = Point3::new(
            T::lit(rng.random_range(-2.0..3.0)),
            T::lit(rng.random_range(-2.0..3.0)),
            T::lit(rng.random_range(-2.0..3.0)),
        );
        // Lines through a point of the cube (or near it), either way.
        let target = Point3::new(
            T::lit(rng.random_range(-0.2..1.2)),
            T::lit(rng.random_range(-0.2..1.2)),
            T::lit(rng.random_range(-0.2..1.2)),
        );
        let sign = T::lit(if rng.random_bool(0.5) { 1.0 } else { -1.0 });
        let dir = (target - origin) * sign;
        let ray = Ray::new(origin, dir);
        let t_max = if i % 3 == 0 {
            T::INFINITY
        } else {
            T::lit(rng.random_range(-3.0..3.0))
        };
        let query = RayQuery::within(T::NEG_INFINITY, t_max);
        let got = tree.cast_ray(&ray, &query).map(|h| h.t.to_f64());
        // The brute force takes a finite interval: the lines meet the cube
        // within `|t| < 1e6` (directions are not short).
        let finite = RayQuery::within(T::lit(-1e30), t_max);
        let want = brute_ray(tree.mesh(), &ray, &finite)
            .first()
            .map(|h| h.0.to_f64());
        match (got, want) {
            (Some(g), Some(w)) => {
                hits += 1;
                assert!(
                    (g - w).abs() <= 1e-5 * (1.0 + w.abs()),
                    "ray {i}: t {g} against brute force {w}"
                );
            }
            (None, None) => {}
            other => panic!("ray {i} ({ray:?}, t_max {t_max:?}): {other:?}"),
        }
    }
    assert!(hits > 100, "only {hits} of the lines meet the cube");
    // The recorded case: a line along z through the cube, its origin below.
    let ray = Ray::new(
        Point3::new(T::lit(0.5), T::lit(0.5), T::lit(-1.0)),
        Vector3::z(),
    );
    let t = |t_min: T| tree.cast_ray(&ray, &RayQuery::within(t_min, T::INFINITY));
    assert_eq!(t(T::NEG_INFINITY).map(|h| h.t), Some(T::ONE));
    assert_eq!(t(T::lit(-1e300)).map(|h| h.t), Some(T::ONE));
    // Behind the origin: the line's first hit is the cube's bottom face,
    // at `t = -3` from above.
    let down = Ray::new(
        Point3::new(T::lit(0.5), T::lit(0.5), T::lit(3.0)),
        Vector3::z(),
    );
    let behind = tree.cast_ray(&down, &RayQuery::within(T::NEG_INFINITY, T::ZERO));
    assert_eq!(behind.map(|h| h.t), Some(T::lit(-3.0)));
}

#[test]
fn rays_over_the_whole_line_equal_brute_force() {
    whole_line::<f64, Obb<f64>>();
    whole_line::<f32, Obb<f32>>();
    whole_line::<f64, Aabb<f64>>();
    whole_line::<f32, Aabb<f32>>();
}

fn far_sign<T: Scalar>(mesh: TriMesh<T>, what: &str) {
    let tree = Bvh::<T, Obb<T>>::build(mesh, &BuildOptions::default()).unwrap();
    let corners = tree.mesh().vertices().to_vec();
    let mut rng = seeded(72);
    for k in 0..600 {
        let scale = 10f64.powf(rng.random_range(1.0..16.0));
        let axis = k % 7;
        let u = if axis < 6 {
            let mut u = Vector3::zeros();
            u[axis % 3] = if axis < 3 { 1.0 } else { -1.0 };
            u
        } else {
            Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            )
            .normalize()
        };
        let p = Point3::from((u * scale).map(T::lit));
        let s = tree.signed_distance(&p).unwrap();
        let d = s.distance.to_f64();
        let nearest = corners
            .iter()
            .map(|c| (c - p).map(|x| x.to_f64()).norm())
            .fold(f64::INFINITY, f64::min);
        assert!(d > 0.0, "{what}: point {p:?} answered {d} (inside)");
        // The mesh is within its diameter (at most 2) of its nearest
        // corner, and no farther than that corner, to rounding.
        let rounding = nearest * T::EPSILON.to_f64() * 8.0;
        assert!(
            d <= nearest + rounding && d >= nearest - 2.0 - rounding,
            "{what}: point {p:?} at {d}, nearest corner at {nearest}"
        );
    }
}

#[test]
fn signed_distance_far_away_is_positive() {
    far_sign(uv_sphere::<f64>(1.0, 2, 3), "octahedron f64");
    far_sign(uv_sphere::<f64>(1.0, 8, 12), "uv sphere f64");
    far_sign(cube::<f64>(1.0), "cube f64");
    far_sign(uv_sphere::<f32>(1.0, 8, 12), "uv sphere f32");
}
