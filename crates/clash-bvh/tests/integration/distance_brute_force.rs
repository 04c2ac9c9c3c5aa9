//! Mesh/mesh distance equals brute force over all triangle pairs on the
//! scenes where the search has the least to prune: near-touching poses (gaps
//! from 1e-2 down to 1e-10 of the mesh size, bisected), nested meshes (one
//! inside the other: every volume pair overlaps, yet the distance is
//! positive), and soups of degenerate triangles; f32 and f64, RSS and OBB
//! trees, and trees of two different volume types. Touching is distance 0
//! exactly when the meshes intersect.

use crate::common;

use clash_bv::{Aabb, BoundingVolume, Capsule, Kdop14, Obb, RelativePose, Rss, Sphere};
use clash_bvh::{BuildOptions, BvPair, Bvh, DistanceRequest, TreeVolume, TriMesh};
use clash_math::{Isometry3, Point3, Scalar, Triangle, Vector3};
use clash_narrow::closest::{point_triangle, triangle_triangle};
use common::*;
use rand::RngExt;

/// The smallest triangle/triangle distance over all pairs (triangles of `b`
/// placed as the trees place them), with the pair.
fn brute<T: Scalar>(a: &TriMesh<T>, b: &TriMesh<T>, pose: &Isometry3<T>) -> (T, [usize; 2]) {
    let placed = RelativePose::new(pose);
    let bt: Vec<Triangle<T>> = b
        .triangles()
        .map(|t| placed.transform_triangle(&t))
        .collect();
    let mut best = (T::INFINITY, [0, 0]);
    for (i, ta) in a.triangles().enumerate() {
        for (j, tb) in bt.iter().enumerate() {
            let d2 = triangle_triangle(&ta, tb).distance_squared;
            if d2 < best.0 {
                best = (d2, [i, j]);
            }
        }
    }
    (best.0.sqrt(), best.1)
}

/// Checks one pose against brute force: the distance, the points on the
/// named triangles, agreement with `intersects`, and `distance_with`'s
/// upper bound just above and below the answer.
fn check_pose<T: Scalar, B: BoundingVolume<T> + BvPair<T, B2>, B2: BoundingVolume<T>>(
    ta: &Bvh<T, B>,
    tb: &Bvh<T, B2>,
    pose: &Isometry3<T>,
    tol: f64,
    what: &str,
) -> f64 {
    let (exact, _) = brute(ta.mesh(), tb.mesh(), pose);
    let exact = exact.to_f64();
    let d = ta.distance(tb, pose);
    assert!(
        (d.distance.to_f64() - exact).abs() <= tol * (1.0 + exact),
        "{what} {}/{}: {} vs brute force {exact}",
        std::any::type_name::<B>(),
        std::any::type_name::<B2>(),
        d.distance
    );
    let placed = RelativePose::new(pose);
    let tri_a = ta.mesh().triangle(d.triangles[0] as usize);
    let tri_b = placed.transform_triangle(&tb.mesh().triangle(d.triangles[1] as usize));
    let on = |p: &Point3<T>, t: &Triangle<T>| (point_triangle(p, t).point - p).norm().to_f64();
    assert!(
        on(&d.point_a, &tri_a) <= tol * (1.0 + exact),
        "{what}: a off"
    );
    assert!(
        on(&d.point_b, &tri_b) <= tol * (1.0 + exact),
        "{what}: b off"
    );
    assert_eq!(
        d.distance == T::ZERO,
        ta.intersects(tb, pose),
        "{what}: distance {} but intersects {}",
        d.distance,
        ta.intersects(tb, pose)
    );
    if exact > 0.0 {
        let above = ta.distance_with(
            tb,
            pose,
            &DistanceRequest {
                upper_bound: T::lit(exact * 1.01),
                stop_below: T::ZERO,
            },
        );
        assert_eq!(above.map(|x| x.distance), Some(d.distance), "{what}");
        let below = ta.distance_with(
            tb,
            pose,
            &DistanceRequest {
                upper_bound: T::lit(exact * 0.99),
                stop_below: T::ZERO,
            },
        );
        assert!(below.is_none(), "{what}: found below the minimum");
    }
    exact
}

/// A rotation about the centre of `m`'s bounding box followed by a shift
/// along `dir` that leaves a gap of about `gap` (bisected on the tree's own
/// distance; brute force then checks the result).
fn near_pose<T: Scalar, B: TreeVolume<T>>(
    tree: &Bvh<T, B>,
    rng: &mut Rng,
    gap: f64,
) -> Isometry3<T> {
    let v = tree.mesh().vertices();
    let lo = v.iter().fold(Vector3::repeat(f64::INFINITY), |a, p| {
        a.inf(&p.coords.map(|c| c.to_f64()))
    });
    let hi = v.iter().fold(Vector3::repeat(f64::NEG_INFINITY), |a, p| {
        a.sup(&p.coords.map(|c| c.to_f64()))
    });
    let (c, size) = ((lo + hi) / 2.0, (hi - lo).norm());
    let rot = random_pose::<f64>(rng, 1.0, 3.2).rotation;
    let dir = Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
    .normalize();
    let at = |s: f64| -> Isometry3<T> {
        let t = c + dir * s - rot * c;
        Isometry3::from_parts(t.map(T::lit).into(), rot.cast())
    };
    let (mut inside, mut outside) = (0.0, 2.0 * size);
    for _ in 0..80 {
        let m = 0.5 * (inside + outside);
        if tree.distance(tree, at(m)).distance.to_f64() < gap * size {
            inside = m;
        } else {
            outside = m;
        }
    }
    at(outside)
}

fn near_touching<T: Scalar, B: TreeVolume<T>>(
    mesh: &TriMesh<T>,
    seed: u64,
    poses: usize,
    tol: f64,
) {
    let a = Bvh::<T, B>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let b = Bvh::<T, B>::build(mesh.clone(), &BuildOptions::sah()).unwrap();
    let mut rng = seeded(seed);
    for k in 0..poses {
        let gap = [1e-2, 1e-4, 1e-7, 1e-10][k % 4];
        let pose = near_pose(&a, &mut rng, gap);
        check_pose(
            &a,
            &b,
            &pose,
            tol,
            &format!("near-touching pose {k} (gap {gap})"),
        );
    }
}

#[test]
fn near_touching_distance_equals_brute_force() {
    let bunny64: TriMesh<f64> = read_stl("bunny_lo.stl");
    near_touching::<f64, Rss<f64>>(&bunny64, 1, 8, 1e-12);
    near_touching::<f64, Obb<f64>>(&bunny64, 2, 4, 1e-12);
    let bunny32: TriMesh<f32> = read_stl("bunny_lo.stl");
    near_touching::<f32, Rss<f32>>(&bunny32, 3, 6, 1e-5);
    let soup: TriMesh<f64> = random_soup(&mut seeded(4), 300, 1.0, 0.15);
    near_touching::<f64, Rss<f64>>(&soup, 5, 8, 1e-12);
    let soup32: TriMesh<f32> = random_soup(&mut seeded(6), 300, 1.0, 0.15);
    near_touching::<f32, Rss<f32>>(&soup32, 7, 4, 1e-5);
}

/// One mesh inside another: a sphere or a soup inside a larger closed
/// sphere, at random offsets and rotations that keep it inside.
#[test]
fn nested_distance_equals_brute_force() {
    fn nested<T: Scalar, B: TreeVolume<T>>(seed: u64, tol: f64) {
        let outer: TriMesh<T> = uv_sphere(1.0, 16, 24);
        let inners: [TriMesh<T>; 2] = [
            uv_sphere(0.4, 10, 14),
            random_soup(&mut seeded(seed), 150, 0.6, 0.1),
        ];
        let to = Bvh::<T, B>::build(outer.clone(), &BuildOptions::default()).unwrap();
        let mut rng = seeded(seed + 1);
        for (k, inner) in inners.iter().enumerate() {
            let ti = Bvh::<T, B>::build(inner.clone(), &BuildOptions::sah()).unwrap();
            for j in 0..6 {
                // the soup spans [0, 0.6]^3 (+-0.1): centre it first
                let centre = if k == 1 { -0.3 } else { 0.0 };
                let r = random_pose::<f64>(&mut rng, 1.0, 3.2).rotation;
                let shift = Vector3::new(
                    rng.random_range(-0.2..0.2),
                    rng.random_range(-0.2..0.2),
                    rng.random_range(-0.2..0.2),
                ) + r * Vector3::repeat(centre);
                let pose = Isometry3::from_parts(shift.map(T::lit).into(), r.cast());
                let d = check_pose(&to, &ti, &pose, tol, &format!("nested {k}/{j}"));
                assert!(d > 0.0, "nested {k}/{j} touches");
                // and the other way round
                let inv = pose.inverse();
                check_pose(&ti, &to, &inv, tol, &format!("nesting {k}/{j}"));
            }
        }
    }
    nested::<f64, Rss<f64>>(10, 1e-12);
    nested::<f64, Obb<f64>>(11, 1e-12);
    nested::<f32, Rss<f32>>(12, 1e-5);
}

/// Meshes of degenerate triangles only (points, segments, collinear
/// corners) against each other and against a regular mesh.
#[test]
fn degenerate_triangles_distance_equals_brute_force() {
    let mut rng = seeded(20);
    let mut tris = Vec::new();
    for i in 0..120 {
        let c = Vector3::new(
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
        );
        let mut p = || {
            Point3::from(
                c + Vector3::new(
                    rng.random_range(-0.1..0.1),
                    rng.random_range(-0.1..0.1),
                    rng.random_range(-0.1..0.1),
                ),
            )
        };
        let (a, b) = (p(), p());
        tris.push(match i % 3 {
            0 => Triangle::new(a, a, a),
            1 => Triangle::new(a, b, a),
            _ => Triangle::new(a, b, Point3::from((a.coords + b.coords) * 0.5)),
        });
    }
    let degenerate = TriMesh::from_triangles(&tris).unwrap();
    let sphere: TriMesh<f64> = uv_sphere(0.5, 8, 12);
    let td = Bvh::<f64, Rss<f64>>::build(degenerate.clone(), &BuildOptions::default()).unwrap();
    let ts = Bvh::<f64, Rss<f64>>::build(sphere, &BuildOptions::default()).unwrap();
    for k in 0..10 {
        let pose = random_pose::<f64>(&mut rng, 1.5, 3.2);
        check_pose(
            &td,
            &td,
            &pose,
            1e-12,
            &format!("degenerate/degenerate {k}"),
        );
        check_pose(&td, &ts, &pose, 1e-12, &format!("degenerate/sphere {k}"));
    }
}

/// Trees of two different volume types measure the same distance as brute
/// force (and so as trees of one type): near-touching bunnies and a sphere
/// nested in another, each pair of types both ways round.
#[test]
fn mixed_volume_distance_equals_brute_force() {
    fn pair<B: TreeVolume<f64> + BvPair<f64, B2>, B2: TreeVolume<f64> + BvPair<f64, B>>(
        a: &TriMesh<f64>,
        b: &TriMesh<f64>,
        poses: &[Isometry3<f64>],
        what: &str,
    ) {
        let ta = Bvh::<f64, B>::build(a.clone(), &BuildOptions::default()).unwrap();
        let tb = Bvh::<f64, B2>::build(b.clone(), &BuildOptions::sah()).unwrap();
        for (k, pose) in poses.iter().enumerate() {
            check_pose(&ta, &tb, pose, 1e-12, &format!("{what} {k}"));
            check_pose(
                &tb,
                &ta,
                &pose.inverse(),
                1e-12,
                &format!("{what} {k}, swapped"),
            );
        }
    }
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    let rss = Bvh::<f64, Rss<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap();
    let mut rng = seeded(30);
    let near: Vec<_> = [1e-2, 1e-7]
        .iter()
        .map(|&gap| near_pose(&rss, &mut rng, gap))
        .collect();
    pair::<Obb<f64>, Aabb<f64>>(&bunny, &bunny, &near, "bunny obb/aabb");
    pair::<Rss<f64>, Sphere<f64>>(&bunny, &bunny, &near, "bunny rss/sphere");
    pair::<Kdop14<f64>, Capsule<f64>>(&bunny, &bunny, &near, "bunny kdop14/capsule");
    let outer: TriMesh<f64> = uv_sphere(1.0, 16, 24);
    let inner: TriMesh<f64> = uv_sphere(0.4, 10, 14);
    let nested: Vec<_> = (0..3)
        .map(|_| {
            let r = random_pose::<f64>(&mut rng, 1.0, 3.2).rotation;
            let shift = Vector3::new(
                rng.random_range(-0.2..0.2),
                rng.random_range(-0.2..0.2),
                rng.random_range(-0.2..0.2),
            );
            Isometry3::from_parts(shift.into(), r)
        })
        .collect();
    pair::<Sphere<f64>, Obb<f64>>(&outer, &inner, &nested, "nested sphere/obb");
}

/// A wavy `n` x `n` grid of triangles over the unit square in the plane
/// z = 0 (heights up to `wave`, so no two triangles are coplanar).
fn wavy_plate<T: Scalar>(n: usize, wave: f64, rng: &mut Rng) -> TriMesh<T> {
    let mut vertices = Vec::new();
    for i in 0..=n {
        for j in 0..=n {
            let (x, y) = (i as f64 / n as f64, j as f64 / n as f64);
            let z = wave * rng.random_range(-1.0..1.0);
            vertices.push(Point3::new(T::lit(x), T::lit(y), T::lit(z)));
        }
    }
    let at = |i: usize, j: usize| (i * (n + 1) + j) as u32;
    let mut faces = Vec::new();
    for i in 0..n {
        for j in 0..n {
            faces.push([at(i, j), at(i + 1, j), at(i + 1, j + 1)]);
            faces.push([at(i, j), at(i + 1, j + 1), at(i, j + 1)]);
        }
    }
    TriMesh::new(vertices, faces).unwrap()
}

/// Two wavy plates stacked face to face, tilted a little and shifted
/// sideways, at gaps from 1e-2 down to 1e-9 of their size: the node pairs
/// are flat RSS stacked a hair apart, the ones the distance bound prunes
/// across the volumes' normals rather than along the centre line. The
/// answer equals brute force exactly (the same triangle/triangle function
/// over every pair).
#[test]
fn stacked_plates_distance_equals_brute_force() {
    fn plates<T: Scalar, B: TreeVolume<T>>(seed: u64) {
        let mut rng = seeded(seed);
        let a = wavy_plate::<T>(8, 0.002, &mut rng);
        let b = wavy_plate::<T>(7, 0.002, &mut rng);
        let ta = Bvh::<T, B>::build(a, &BuildOptions::sah()).unwrap();
        let tb = Bvh::<T, B>::build(b, &BuildOptions::default()).unwrap();
        for (k, gap) in [1e-2, 1e-4, 1e-6, 1e-9].into_iter().enumerate() {
            let tilt = Vector3::new(
                rng.random_range(-0.01..0.01),
                rng.random_range(-0.01..0.01),
                rng.random_range(-3.2..3.2),
            );
            let shift = Vector3::new(
                rng.random_range(-0.3..0.3),
                rng.random_range(-0.3..0.3),
                0.0,
            );
            let pose =
                |z: f64| Isometry3::new((shift + Vector3::z() * z).map(T::lit), tilt.map(T::lit));
            // Bisected on the tree's own distance; brute force then checks.
            let (mut lo, mut hi) = (0.0, 0.1);
            for _ in 0..60 {
                let m = 0.5 * (lo + hi);
                if ta.distance(&tb, pose(m)).distance.to_f64() < gap {
                    lo = m;
                } else {
                    hi = m;
                }
            }
            let pose = pose(hi);
            let (exact, _) = brute(ta.mesh(), tb.mesh(), &pose);
            let d = ta.distance(&tb, pose);
            assert_eq!(
                d.distance,
                exact,
                "{} plates, gap {gap} (pose {k})",
                std::any::type_name::<B>()
            );
            check_pose(&ta, &tb, &pose, 1e-5, &format!("plates gap {gap}"));
        }
    }
    plates::<f64, Rss<f64>>(20);
    plates::<f32, Rss<f32>>(21);
    plates::<f64, Obb<f64>>(22);
}
