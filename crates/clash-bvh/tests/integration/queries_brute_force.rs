//! Ray, closest-point, signed-distance, distance and shape queries equal
//! brute force over all triangles (or triangle pairs), for several volume
//! types, f32 and f64, on random, real and adversarial scenes.

use crate::common;

use clash_bv::{Aabb, Capsule, Kdop18, Obb, Rss, Sphere};
use clash_bvh::{
    BuildOptions, Bvh, DistanceRequest, MeshRayHit, RayQuery, Shape, TreeVolume, TriMesh,
};
use clash_math::nalgebra;
use clash_math::{Isometry3, Plane, Point3, Ray, Scalar, Segment, Triangle, Vector3};
use clash_narrow::cast::Culling;
use clash_narrow::closest::{point_triangle, triangle_triangle};
use common::*;
use rand::RngExt;

/// A uniformly random offset in the cube [-1, 1]³.
fn unit_cube_offset(rng: &mut Rng) -> Vector3<f64> {
    Vector3::new(
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
        rng.random_range(-1.0..1.0),
    )
}

fn random_ray<T: Scalar>(rng: &mut Rng, center: Point3<f64>, size: f64) -> Ray<T> {
    let o = center + unit_cube_offset(rng) * size * 2.0;
    let target = center + unit_cube_offset(rng) * size * 0.6;
    Ray::new(o.map(T::lit), (target - o).map(T::lit))
}

fn check_rays<T: Scalar, B: TreeVolume<T>>(
    mesh: &TriMesh<T>,
    opts: &BuildOptions,
    seed: u64,
    n: usize,
) {
    let tree = Bvh::<T, B>::build(mesh.clone(), opts).unwrap();
    let (lo, hi) = bounds(mesh);
    let mut rng = seeded(seed);
    let mut all = Vec::new();
    let mut hits = 0;
    for k in 0..n {
        let ray = random_ray::<T>(&mut rng, lo, hi);
        let q = match k % 3 {
            0 => RayQuery::default(),
            1 => RayQuery::within(T::lit(0.3), T::lit(0.9)),
            _ => RayQuery {
                culling: Culling::FrontOnly,
                ..RayQuery::default()
            },
        };
        let expected = brute_ray(mesh, &ray, &q);
        let got = tree
            .cast_ray(&ray, &q)
            .map(|h: MeshRayHit<T>| (h.t, h.triangle));
        assert_eq!(
            got,
            expected.first().copied(),
            "{} {}: closest hit",
            T::NAME,
            std::any::type_name::<B>()
        );
        assert_eq!(tree.cast_ray_any(&ray, &q).is_some(), !expected.is_empty());
        tree.cast_ray_all(&ray, &q, &mut all);
        assert_eq!(
            all.iter().map(|h| (h.t, h.triangle)).collect::<Vec<_>>(),
            expected
        );
        hits += usize::from(!expected.is_empty());
    }
    assert!(hits > n / 10, "too few rays hit: {hits}");
}

fn bounds<T: Scalar>(mesh: &TriMesh<T>) -> (Point3<f64>, f64) {
    let v = mesh.vertices();
    let lo = v.iter().fold(v[0], |m, p| m.inf(p)).map(|x| x.to_f64());
    let hi = v.iter().fold(v[0], |m, p| m.sup(p)).map(|x| x.to_f64());
    (nalgebra::center(&lo, &hi), (hi - lo).norm() * 0.5)
}

#[test]
fn rays_equal_brute_force() {
    let bunny64: TriMesh<f64> = read_stl("bunny_lo.stl");
    let bunny32: TriMesh<f32> = read_stl("bunny_lo.stl");
    let soup: TriMesh<f64> = random_soup(&mut seeded(61), 400, 1.0, 0.15);
    check_rays::<f64, Aabb<f64>>(&bunny64, &BuildOptions::sah(), 1, 600);
    check_rays::<f64, Obb<f64>>(&bunny64, &BuildOptions::default(), 2, 600);
    check_rays::<f32, Aabb<f32>>(&bunny32, &BuildOptions::sah(), 3, 600);
    check_rays::<f32, Sphere<f32>>(&bunny32, &BuildOptions::default(), 4, 400);
    check_rays::<f64, Rss<f64>>(&soup, &BuildOptions::default(), 5, 400);
    check_rays::<f64, Kdop18<f64>>(&soup, &BuildOptions::sah(), 6, 400);
    check_rays::<f32, Capsule<f32>>(
        &random_soup(&mut seeded(62), 300, 1.0, 0.15),
        &BuildOptions::default(),
        7,
        400,
    );
}

#[test]
fn rays_through_shared_edges_and_vertices_never_slip_through() {
    // A closed sphere: rays from outside aimed at every vertex and every edge
    // midpoint, crossing the surface there (not grazing it), must hit.
    for rings in [8, 13] {
        let m: TriMesh<f64> = uv_sphere(1.0, rings, 2 * rings + 1);
        let tree = Bvh::<f64, Aabb<f64>>::build(m.clone(), &BuildOptions::sah()).unwrap();
        let tree32 = Bvh::<f32, Obb<f32>>::build(
            TriMesh::new(
                m.vertices().iter().map(|p| p.cast()).collect(),
                m.indices().to_vec(),
            )
            .unwrap(),
            &BuildOptions::default(),
        )
        .unwrap();
        let mut targets: Vec<Point3<f64>> = m.vertices().to_vec();
        for t in m.indices() {
            for k in 0..3 {
                targets.push(nalgebra::center(
                    &m.vertices()[t[k] as usize],
                    &m.vertices()[t[(k + 1) % 3] as usize],
                ));
            }
        }
        let origins = [
            Point3::new(3.0, 0.5, 0.25),
            Point3::new(-2.0, -2.0, 1.0),
            Point3::new(0.0, 0.0, 4.0),
        ];
        for o in origins {
            for t in &targets {
                let ray = Ray::new(o, t - o);
                // a ray along a supporting line only grazes the surface: skip it
                if ray.dir.normalize().dot(&t.coords.normalize()) > -0.6 {
                    continue;
                }
                assert!(
                    tree.cast_ray(&ray, &RayQuery::default()).is_some(),
                    "ray {o} -> {t} slipped through"
                );
                let r32 = Ray::new(o.cast(), (t - o).cast());
                assert!(tree32.cast_ray(&r32, &RayQuery::default()).is_some());
            }
        }
        // From the centre outwards through every vertex, too.
        for t in m.vertices() {
            assert!(
                tree.cast_ray(&Ray::new(Point3::origin(), t.coords), &RayQuery::default())
                    .is_some()
            );
        }
    }
}

/// Brute force closest triangle: the smallest squared distance over all
/// triangles as `point_triangle` computes it, the smallest index on a tie.
pub(crate) fn brute_closest<T: Scalar>(mesh: &TriMesh<T>, p: &Point3<T>) -> (T, u32) {
    let mut best = (T::INFINITY, 0);
    for (i, t) in mesh.triangles().enumerate() {
        let d = (point_triangle(p, &t).point - p).norm_squared();
        if d < best.0 {
            best = (d, i as u32);
        }
    }
    best
}

#[test]
fn closest_points_equal_brute_force() {
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    let soup: TriMesh<f32> = random_soup(&mut seeded(63), 500, 1.0, 0.2);
    let mut rng = seeded(64);
    let trees64 = (
        Bvh::<f64, Obb<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap(),
        Bvh::<f64, Aabb<f64>>::build(bunny.clone(), &BuildOptions::sah()).unwrap(),
        Bvh::<f64, Sphere<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap(),
    );
    let (c, r) = bounds(&bunny);
    let mut points: Vec<Point3<f64>> = (0..1500)
        .map(|_| c + unit_cube_offset(&mut rng) * r * 1.5)
        .collect();
    // adversarial: on vertices, on edges, on faces
    for t in bunny.triangles().take(100) {
        points.extend([t.a, nalgebra::center(&t.a, &t.b), t.centroid()]);
    }
    for p in &points {
        let (d2, tri) = brute_closest(&bunny, p);
        for got in [
            trees64.0.closest_point(p),
            trees64.1.closest_point(p),
            trees64.2.closest_point(p),
        ] {
            assert!(got.distance_squared <= d2, "worse than brute force at {p}");
            assert!(
                got.distance_squared == d2
                    || (got.distance_squared - d2).abs() <= 1e-12 * (1.0 + d2),
                "{} vs {d2}",
                got.distance_squared
            );
            if got.distance_squared == d2 {
                assert!(got.triangle <= tri);
            }
            // the point lies on its triangle at that distance
            let on = point_triangle(&got.point, &bunny.triangle(got.triangle as usize)).point;
            assert!((on - got.point).norm() <= 1e-12);
        }
    }
    let batch = trees64.0.closest_points(&points);
    assert_eq!(
        batch,
        points
            .iter()
            .map(|p| trees64.0.closest_point(p))
            .collect::<Vec<_>>()
    );
    let t32 = Bvh::<f32, Rss<f32>>::build(soup.clone(), &BuildOptions::default()).unwrap();
    for _ in 0..1000 {
        let p = Point3::new(
            rng.random_range(-0.5..1.5f32),
            rng.random_range(-0.5..1.5),
            rng.random_range(-0.5..1.5),
        );
        let (d2, _) = brute_closest(&soup, &p);
        let got = t32.closest_point(&p);
        assert!(
            (got.distance_squared - d2).abs() <= 1e-6 * (1.0 + d2),
            "{} vs {d2}",
            got.distance_squared
        );
    }
    // within a radius
    let p = c + Vector3::new(r * 3.0, 0.0, 0.0);
    assert!(trees64.0.closest_point_within(&p, r).is_none());
    assert!(trees64.0.closest_point_within(&p, r * 10.0).is_some());
}

/// Independent inside test for a convex closed mesh: behind every face plane.
fn inside_convex(mesh: &TriMesh<f64>, p: &Point3<f64>) -> bool {
    mesh.triangles()
        .all(|t| t.normal().is_none_or(|n| n.dot(&(p - t.a)) <= 0.0))
}

/// Independent inside test for any closed mesh: the winding number by solid angles.
fn winding(mesh: &TriMesh<f64>, p: &Point3<f64>) -> f64 {
    let mut s = 0.0;
    for t in mesh.triangles() {
        let (a, b, c) = (t.a - p, t.b - p, t.c - p);
        let (la, lb, lc) = (a.norm(), b.norm(), c.norm());
        s += 2.0
            * a.dot(&b.cross(&c))
                .atan2(la * lb * lc + a.dot(&b) * lc + b.dot(&c) * la + c.dot(&a) * lb);
    }
    s / (4.0 * std::f64::consts::PI)
}

#[test]
fn signed_distance_sign_is_right_near_edges_and_vertices() {
    let sphere: TriMesh<f64> = uv_sphere(1.0, 10, 14);
    let tree = Bvh::<f64, Obb<f64>>::build(sphere.clone(), &BuildOptions::default()).unwrap();
    let mut rng = seeded(65);
    let mut pts: Vec<Point3<f64>> = (0..3000)
        .map(|_| {
            Point3::new(
                rng.random_range(-1.3..1.3),
                rng.random_range(-1.3..1.3),
                rng.random_range(-1.3..1.3),
            )
        })
        .collect();
    // points just off vertices and edges, on both sides
    for v in sphere.vertices() {
        pts.push(v * (1.0 + 1e-9));
        pts.push(v * (1.0 - 1e-9));
    }
    for t in sphere.indices() {
        let m = nalgebra::center(
            &sphere.vertices()[t[0] as usize],
            &sphere.vertices()[t[1] as usize],
        );
        pts.push(m * (1.0 + 1e-9));
        pts.push(m * (1.0 - 1e-9));
    }
    for p in &pts {
        let sd = tree.signed_distance(p).unwrap();
        let (d2, _) = brute_closest(&sphere, p);
        assert!((sd.distance.abs() - d2.sqrt()).abs() <= 1e-12);
        if sd.distance != 0.0 {
            assert_eq!(sd.distance < 0.0, inside_convex(&sphere, p), "sign at {p}");
        }
    }
    // a real closed, non-convex mesh against the winding number
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tb = Bvh::<f64, Aabb<f64>>::build(bunny.clone(), &BuildOptions::sah()).unwrap();
    let (c, r) = bounds(&bunny);
    for _ in 0..1500 {
        let p = c + unit_cube_offset(&mut rng) * r;
        let sd = tb.signed_distance(&p).unwrap();
        if sd.distance.abs() > 1e-9 {
            assert_eq!(
                sd.distance < 0.0,
                winding(&bunny, &p) > 0.5,
                "bunny sign at {p}"
            );
        }
        assert_eq!(tb.contains_point(&p).unwrap(), sd.distance <= 0.0);
    }
    // open meshes have no inside
    let open: TriMesh<f64> = random_soup(&mut seeded(66), 50, 1.0, 0.2);
    let to = Bvh::<f64, Aabb<f64>>::build(open, &BuildOptions::default()).unwrap();
    assert!(to.signed_distance(&Point3::origin()).is_err());
}

fn brute_distance<T: Scalar>(a: &TriMesh<T>, b: &TriMesh<T>, pose: &Isometry3<T>) -> T {
    let placed = clash_bv::RelativePose::new(pose);
    let bt: Vec<Triangle<T>> = b
        .triangles()
        .map(|t| placed.transform_triangle(&t))
        .collect();
    let mut best = T::INFINITY;
    for ta in a.triangles() {
        for tb in &bt {
            best = best.min_of(triangle_triangle(&ta, tb).distance_squared);
        }
    }
    best.sqrt()
}

fn check_distance<T: Scalar, B: clash_bvh::TreeVolume<T>>(
    ma: &TriMesh<T>,
    mb: &TriMesh<T>,
    seed: u64,
    tol: f64,
) {
    let a = Bvh::<T, B>::build(ma.clone(), &BuildOptions::default()).unwrap();
    let b = Bvh::<T, B>::build(mb.clone(), &BuildOptions::sah()).unwrap();
    let mut rng = seeded(seed);
    for _ in 0..8 {
        let pose = random_pose::<T>(&mut rng, 2.0, 3.0);
        let exact = brute_distance(ma, mb, &pose).to_f64();
        let d = a.distance(&b, pose);
        assert!(
            (d.distance.to_f64() - exact).abs() <= tol * (1.0 + exact),
            "{}: {} vs {exact}",
            std::any::type_name::<B>(),
            d.distance
        );
        assert!(
            ((d.point_a - d.point_b).norm() - d.distance).to_f64().abs() <= tol * (1.0 + exact)
        );
        // the points lie on the named triangles
        let ta = ma.triangle(d.triangles[0] as usize);
        let tb = clash_bv::RelativePose::new(&pose)
            .transform_triangle(&mb.triangle(d.triangles[1] as usize));
        assert!(
            (point_triangle(&d.point_a, &ta).point - d.point_a)
                .norm()
                .to_f64()
                <= tol * (1.0 + exact)
        );
        assert!(
            (point_triangle(&d.point_b, &tb).point - d.point_b)
                .norm()
                .to_f64()
                <= tol * (1.0 + exact)
        );
        // upper bound and early out
        let below = T::lit(exact * 0.9);
        assert!(
            a.distance_with(
                &b,
                pose,
                &DistanceRequest {
                    upper_bound: below,
                    stop_below: T::ZERO
                }
            )
            .is_none()
                || exact == 0.0
        );
        let loose = T::lit(exact * 1.5 + 0.01);
        let early = a
            .distance_with(
                &b,
                pose,
                &DistanceRequest {
                    upper_bound: T::INFINITY,
                    stop_below: loose,
                },
            )
            .unwrap();
        assert!(early.distance <= loose && early.distance.to_f64() >= exact - tol * (1.0 + exact));
    }
}

#[test]
fn distance_equals_brute_force() {
    let ma: TriMesh<f64> = random_soup(&mut seeded(67), 200, 1.0, 0.15);
    let mb: TriMesh<f64> = random_soup(&mut seeded(68), 150, 1.0, 0.15);
    check_distance::<f64, Rss<f64>>(&ma, &mb, 1, 1e-12);
    check_distance::<f64, Obb<f64>>(&ma, &mb, 2, 1e-12);
    check_distance::<f64, Aabb<f64>>(&ma, &mb, 3, 1e-12);
    check_distance::<f64, Sphere<f64>>(&ma, &mb, 4, 1e-12);
    check_distance::<f64, Kdop18<f64>>(&ma, &mb, 5, 1e-12);
    let bunny: TriMesh<f32> = read_stl("bunny_lo.stl");
    check_distance::<f32, Rss<f32>>(&bunny, &bunny, 6, 1e-5);
    check_distance::<f32, Obb<f32>>(&bunny, &bunny, 7, 1e-5);
    // batch order
    let a = Bvh::<f64, Rss<f64>>::build(ma.clone(), &BuildOptions::default()).unwrap();
    let poses: Vec<Isometry3<f64>> = (0..50)
        .map(|_| random_pose(&mut seeded(69), 2.0, 3.0))
        .collect();
    assert_eq!(
        a.distance_poses(&a, &poses),
        poses.iter().map(|p| a.distance(&a, p)).collect::<Vec<_>>()
    );
}

/// The pruning bounds (projection on the centre line, then each type's own
/// bound) never discard the closest pair: every volume type, many poses from
/// overlapping to far apart, and the same scene moved 1e6 away and scaled
/// down to 1e-6.
#[test]
fn distance_pruning_never_misses_the_closest_pair() {
    fn sweep<B: clash_bvh::TreeVolume<f64>>(ma: &TriMesh<f64>, mb: &TriMesh<f64>, seed: u64) {
        let a = Bvh::<f64, B>::build(ma.clone(), &BuildOptions::default()).unwrap();
        let b = Bvh::<f64, B>::build(mb.clone(), &BuildOptions::sah()).unwrap();
        let mut rng = seeded(seed);
        for k in 0..60 {
            let reach = [0.5, 1.5, 4.0][k % 3];
            let pose = random_pose::<f64>(&mut rng, reach, 3.2);
            let exact = brute_distance(ma, mb, &pose);
            let d = a.distance(&b, pose).distance;
            assert!(
                (d - exact).abs() <= 1e-12 * (1.0 + exact),
                "{} pose {k}: {d} vs brute force {exact}",
                std::any::type_name::<B>()
            );
        }
    }
    let ma: TriMesh<f64> = random_soup(&mut seeded(81), 120, 1.0, 0.2);
    let mb: TriMesh<f64> = random_soup(&mut seeded(82), 90, 1.0, 0.2);
    for (k, (scale, shift)) in [(1.0, 0.0), (1.0, 1e6), (1e-6, 0.0)]
        .into_iter()
        .enumerate()
    {
        let moved = |m: &TriMesh<f64>| {
            let v = m
                .vertices()
                .iter()
                .map(|p| Point3::from(p.coords * scale).map(|c| c + shift))
                .collect();
            TriMesh::new(v, m.indices().to_vec()).unwrap()
        };
        let (ma, mb) = (moved(&ma), moved(&mb));
        let seed = 100 + 10 * k as u64;
        if scale == 1.0 && shift == 0.0 {
            sweep::<Rss<f64>>(&ma, &mb, seed);
            sweep::<Obb<f64>>(&ma, &mb, seed + 1);
            sweep::<Aabb<f64>>(&ma, &mb, seed + 2);
            sweep::<Sphere<f64>>(&ma, &mb, seed + 3);
            sweep::<clash_bv::Capsule<f64>>(&ma, &mb, seed + 4);
            sweep::<clash_bv::Kdop14<f64>>(&ma, &mb, seed + 5);
            sweep::<Kdop18<f64>>(&ma, &mb, seed + 6);
        } else {
            sweep::<Rss<f64>>(&ma, &mb, seed);
            sweep::<Obb<f64>>(&ma, &mb, seed + 1);
        }
    }
}

#[test]
fn shapes_equal_brute_force() {
    let mesh: TriMesh<f64> = random_soup(&mut seeded(70), 600, 1.0, 0.1);
    let trees = (
        Bvh::<f64, Obb<f64>>::build(mesh.clone(), &BuildOptions::default()).unwrap(),
        Bvh::<f64, Aabb<f64>>::build(mesh.clone(), &BuildOptions::sah()).unwrap(),
    );
    let mut rng = seeded(71);
    for k in 0..300 {
        let c = Point3::new(
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
            rng.random_range(0.0..1.0),
        );
        let e = Vector3::new(
            rng.random_range(0.01..0.2),
            rng.random_range(0.01..0.2),
            rng.random_range(0.01..0.2),
        );
        let rot =
            *nalgebra::Rotation3::new(Vector3::new(rng.random_range(-2.0..2.0), 0.3, 0.1)).matrix();
        let shape = match k % 6 {
            0 => Shape::Aabb(Aabb {
                min: c - e,
                max: c + e,
            }),
            1 => Shape::Obb(Obb {
                center: c,
                axes: rot,
                half_extents: e,
            }),
            2 => Shape::Sphere(Sphere {
                center: c,
                radius: e.x,
            }),
            3 => Shape::Capsule(Capsule {
                segment: Segment::new(c, c + e * 2.0),
                radius: e.y * 0.5,
            }),
            4 => Shape::Triangle(Triangle::new(c, c + e * 3.0, c + rot * e * 3.0)),
            _ => Shape::HalfSpace(
                Plane::from_normal_and_point(rot.column(0).into_owned(), &c).unwrap(),
            ),
        };
        let expected: Vec<u32> = mesh
            .triangles()
            .enumerate()
            .filter(|(_, t)| match &shape {
                Shape::Aabb(b) => clash_narrow::overlap::triangle_aabb(t, b),
                Shape::Obb(b) => clash_narrow::overlap::obb_triangle(b, t),
                Shape::Sphere(s) => clash_narrow::overlap::sphere_triangle(s, t),
                Shape::Capsule(cap) => clash_narrow::overlap::capsule_triangle(cap, t),
                Shape::Triangle(u) => clash_narrow::overlap::triangle_triangle(t, u),
                Shape::HalfSpace(p) => t.vertices().iter().any(|v| p.signed_distance(v) <= 0.0),
            })
            .map(|(i, _)| i as u32)
            .collect();
        assert_eq!(trees.0.triangles_meeting(&shape), expected, "{shape:?}");
        assert_eq!(trees.1.triangles_meeting(&shape), expected, "{shape:?}");
    }
}

#[test]
fn batch_queries_match_single_queries_on_any_thread_count() {
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f64, Obb<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap();
    let rss = Bvh::<f64, Rss<f64>>::build(bunny.clone(), &BuildOptions::default()).unwrap();
    let (c, r) = bounds(&bunny);
    let mut rng = seeded(90);
    let rays: Vec<Ray<f64>> = (0..300).map(|_| random_ray(&mut rng, c, r)).collect();
    let points: Vec<Point3<f64>> = (0..300)
        .map(|_| c + unit_cube_offset(&mut rng) * r)
        .collect();
    let poses: Vec<Isometry3<f64>> = (0..40).map(|_| random_pose(&mut rng, 1.5, 3.0)).collect();
    let shapes: Vec<Shape<f64>> = points
        .iter()
        .take(50)
        .map(|p| {
            Shape::Sphere(Sphere {
                center: *p,
                radius: r * 0.1,
            })
        })
        .collect();
    let motions: Vec<_> = poses
        .iter()
        .map(|p| {
            (
                clash_bvh::Motion::fixed(Isometry3::identity()),
                clash_bvh::Motion {
                    start: *p,
                    linear: -p.translation.vector,
                    angular: Vector3::new(0.5, 0.0, 0.0),
                },
            )
        })
        .collect();
    let q = RayQuery::default();
    let seq_rays: Vec<_> = rays.iter().map(|ray| tree.cast_ray(ray, &q)).collect();
    let seq_points: Vec<_> = points.iter().map(|p| tree.closest_point(p)).collect();
    let seq_signed: Vec<_> = points
        .iter()
        .map(|p| tree.signed_distance(p).unwrap())
        .collect();
    let seq_dist: Vec<_> = poses.iter().map(|p| rss.distance(&rss, p)).collect();
    let seq_shapes: Vec<_> = shapes.iter().map(|s| tree.triangles_meeting(s)).collect();
    let seq_toc: Vec<_> = motions
        .iter()
        .map(|(a, b)| tree.time_of_contact(a, &tree, b, 1.0, 4))
        .collect();
    assert!(seq_toc.iter().any(|t| t.is_some()));
    for threads in [1, 2, 4] {
        in_pool(threads, || {
            assert_eq!(tree.cast_rays(&rays, &q), seq_rays);
            assert_eq!(tree.closest_points(&points), seq_points);
            assert_eq!(tree.signed_distances(&points).unwrap(), seq_signed);
            assert_eq!(rss.distance_poses(&rss, &poses), seq_dist);
            assert_eq!(tree.triangles_meeting_shapes(&shapes), seq_shapes);
            assert_eq!(tree.time_of_contact_batch(&tree, &motions, 1.0, 4), seq_toc);
        });
    }
}
