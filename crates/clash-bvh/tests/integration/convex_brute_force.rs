//! A mesh against convex shapes (`intersects_convex`,
//! `triangles_meeting_convex`, `contacts_with_convex`,
//! `distance_to_convex`) equals the same leaf queries run on every triangle
//! (the traversal prunes nothing it should not), and ball distances equal
//! the closest point of the mesh minus the radius (an oracle sharing no
//! code with GJK). Random soups and a real mesh, three volume types, f32
//! and f64, shapes placed touching, near, overlapping and far.

use crate::common;

use clash_bv::{Aabb, Kdop18, Obb, Rss};
use clash_bvh::{BuildOptions, Bvh, TreeVolume, TriMesh};
use clash_convex::query::{self, QueryRequest, QueryStatus};
use clash_convex::{
    Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, Shape, SupportMap, TriangleShape,
};
use clash_math::{Isometry3, Point3, Scalar, Vector3};
use clash_narrow::overlap;
use common::*;
use rand::RngExt;

/// Convex shapes of every kind, sized about `size`, some with margins.
fn shapes<T: Scalar>(rng: &mut Rng, size: f64) -> Vec<Shape<T>> {
    let s = |x: f64| T::lit(x * size);
    let hull_points: Vec<Point3<T>> = (0..12)
        .map(|_| {
            Point3::new(
                s(rng.random_range(-0.5..0.5)),
                s(rng.random_range(-0.5..0.5)),
                s(rng.random_range(-0.5..0.5)),
            )
        })
        .collect();
    vec![
        Shape::Ball(Ball::new(s(0.3)).unwrap()),
        Shape::Cuboid(Cuboid::new(Vector3::new(s(0.4), s(0.2), s(0.3))).unwrap()),
        Shape::Cuboid(
            Cuboid::new(Vector3::new(s(0.2), s(0.2), s(0.2)))
                .unwrap()
                .with_margin(s(0.05))
                .unwrap(),
        ),
        Shape::Capsule(CapsuleShape::new(s(0.5), s(0.1)).unwrap()),
        Shape::Cylinder(Cylinder::new(s(0.4), s(0.2)).unwrap()),
        Shape::Cone(Cone::new(s(0.4), s(0.25)).unwrap()),
        Shape::ConvexHull(ConvexHull::new(&hull_points).unwrap().into()),
        Shape::Triangle(
            TriangleShape::new(
                Point3::new(s(-0.5), s(0.0), s(0.0)),
                Point3::new(s(0.5), s(0.1), s(0.0)),
                Point3::new(s(0.0), s(0.6), s(0.2)),
            )
            .unwrap(),
        ),
    ]
}

/// The leaf test the tree must agree with, on one triangle: the exact
/// tests for a plain triangle or box without security margin, else GJK.
fn brute_meets<T: Scalar>(
    t: &clash_math::Triangle<T>,
    shape: &Shape<T>,
    pose: &Isometry3<T>,
    req: &QueryRequest<T>,
) -> bool {
    let plain = req.security_margin == T::ZERO && shape.margin() == T::ZERO;
    match shape {
        Shape::Triangle(u) if plain => {
            overlap::triangle_triangle(t, &u.triangle().transformed(pose))
        }
        Shape::Cuboid(b) if plain => {
            let obb = Obb {
                center: Point3::from(pose.translation.vector),
                axes: pose.rotation.to_rotation_matrix().into_inner(),
                half_extents: b.half_extents(),
            };
            overlap::obb_triangle(&obb, t)
        }
        _ => {
            let ts = TriangleShape::new(t.a, t.b, t.c).unwrap();
            query::intersects(&ts, &Isometry3::identity(), shape, pose, req)
        }
    }
}

fn check<T: Scalar, B: TreeVolume<T>>(
    mesh: &TriMesh<T>,
    seed: u64,
    poses: usize,
) -> (usize, usize) {
    let tree = Bvh::<T, B>::build(mesh.clone(), &BuildOptions::default()).unwrap();
    let (lo, hi) = mesh.vertices().iter().fold(
        (
            Point3::from([f64::INFINITY; 3]),
            Point3::from([f64::NEG_INFINITY; 3]),
        ),
        |(lo, hi), p| {
            let p = p.map(|x| x.to_f64());
            (lo.inf(&p), hi.sup(&p))
        },
    );
    let size = (hi - lo).amax();
    let mut rng = seeded(seed);
    let identity = Isometry3::identity();
    let (mut meeting, mut apart) = (0, 0);
    for shape in shapes::<T>(&mut rng, size * 0.3) {
        for k in 0..poses {
            // Around the mesh: inside, at its surface and beyond it.
            let reach = [0.2, 0.6, 1.2][k % 3];
            let c = lo + (hi - lo) * 0.5;
            let offset = Vector3::new(
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
                rng.random_range(-1.0..1.0),
            ) * size
                * reach;
            let pose = Isometry3::new(
                (c.coords + offset).map(T::lit),
                Vector3::new(
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                    rng.random_range(-3.0..3.0),
                )
                .map(T::lit),
            );
            for margin in [0.0, 0.02] {
                let req = QueryRequest {
                    security_margin: T::lit(margin * size),
                    ..QueryRequest::default()
                };
                let want: Vec<u32> = (0..mesh.num_triangles() as u32)
                    .filter(|&i| brute_meets(&mesh.triangle(i as usize), &shape, &pose, &req))
                    .collect();
                let got = tree.triangles_meeting_convex(&shape, &pose, &req);
                assert_eq!(got, want, "{shape:?} at {pose:?}, margin {margin}");
                assert_eq!(
                    tree.intersects_convex(&shape, &pose, &req),
                    !want.is_empty()
                );
                let contacts = tree.contacts_with_convex(&shape, &pose, &req);
                assert_eq!(
                    contacts.iter().map(|c| c.triangle).collect::<Vec<_>>(),
                    want
                );
                for c in &contacts {
                    let t = mesh.triangle(c.triangle as usize);
                    let ts = TriangleShape::new(t.a, t.b, t.c).unwrap();
                    let direct = query::contact(&ts, &identity, &shape, &pose, &req);
                    assert_eq!(c.contact, direct);
                }
                if want.is_empty() {
                    apart += 1;
                } else {
                    meeting += 1;
                }
            }
            // Distance: the minimum over all triangles.
            let req = QueryRequest::default();
            let got = tree.distance_to_convex(&shape, &pose, &req).unwrap();
            let best = (0..mesh.num_triangles())
                .map(|i| {
                    let t = mesh.triangle(i);
                    let ts = TriangleShape::new(t.a, t.b, t.c).unwrap();
                    query::distance(&ts, &identity, &shape, &pose, &req).distance
                })
                .fold(T::INFINITY, |a, b| a.min(b));
            let tol = T::lit(size) * T::EPSILON.sqrt();
            assert!(
                (got.distance - best).abs() <= tol,
                "{shape:?}: tree {} brute force {}",
                got.distance.to_f64(),
                best.to_f64()
            );
            assert_eq!(got.status, QueryStatus::Converged);
            if got.distance > T::ZERO {
                let gap = (got.nearest_points[1] - got.nearest_points[0]).norm();
                assert!((gap - got.distance).abs() <= tol);
            } else {
                assert!(tree.intersects_convex(&shape, &pose, &req));
            }
            // An upper bound below the distance finds nothing.
            if got.distance > T::lit(0.01 * size) {
                let bounded = QueryRequest {
                    distance_upper_bound: got.distance * T::lit(0.5),
                    ..req
                };
                assert!(tree.distance_to_convex(&shape, &pose, &bounded).is_none());
            }
        }
    }
    (meeting, apart)
}

fn check_all<T: Scalar>(mesh: &TriMesh<T>, seed: u64, poses: usize) {
    let mut counts = [check::<T, Obb<T>>(mesh, seed, poses)];
    let aabb = check::<T, Aabb<T>>(mesh, seed + 1, poses);
    let rss = check::<T, Rss<T>>(mesh, seed + 2, poses);
    let kdop = check::<T, Kdop18<T>>(mesh, seed + 3, poses);
    counts[0] = (
        counts[0].0 + aabb.0 + rss.0 + kdop.0,
        counts[0].1 + aabb.1 + rss.1 + kdop.1,
    );
    // Both answers are frequent, so neither is tested vacuously.
    let (meeting, apart) = counts[0];
    assert!(
        meeting * 5 > meeting + apart && apart * 5 > meeting + apart,
        "{meeting} meeting, {apart} apart"
    );
}

#[test]
fn random_soups_against_every_shape_kind() {
    let mut rng = seeded(71);
    let soup64: TriMesh<f64> = random_soup(&mut rng, 120, 2.0, 0.5);
    check_all(&soup64, 100, 6);
    let soup32: TriMesh<f32> = random_soup(&mut rng, 120, 2.0, 0.5);
    check_all(&soup32, 200, 6);
}

#[test]
fn a_real_mesh_against_every_shape_kind() {
    let bunny: TriMesh<f64> = read_stl("bunny_lo.stl");
    check_all(&bunny, 300, 3);
}

/// A ball's distance to the mesh is the distance from its centre to the
/// mesh's closest point minus its radius: an oracle that runs no GJK.
#[test]
fn ball_distance_is_the_closest_point_minus_the_radius() {
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f64, Obb<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let mut rng = seeded(72);
    let req = QueryRequest::default();
    let mut apart = 0;
    for _ in 0..200 {
        // bunny_lo spans about [-0.46, 0.47] x [-0.67, 0.78] x [-0.96, 1.02].
        let c = Point3::new(
            rng.random_range(-0.6..0.6),
            rng.random_range(-0.8..0.9),
            rng.random_range(-1.1..1.1),
        );
        let r = rng.random_range(0.01..0.2);
        let ball = Ball::new(r).unwrap();
        let pose = Isometry3::translation(c.x, c.y, c.z);
        let got = tree.distance_to_convex(&ball, &pose, &req).unwrap();
        let closest = tree.closest_point(&c);
        let want = (closest.distance_squared.sqrt() - r).max(0.0);
        // Within 1e-9 relative to the mesh's size (about 2).
        assert!(
            (got.distance - want).abs() < 2e-9,
            "{} vs {want}",
            got.distance
        );
        if want > 0.0 {
            apart += 1;
            assert!((got.nearest_points[0] - closest.point).norm() < 1e-6);
        }
        assert_eq!(
            tree.intersects_convex(&ball, &pose, &req),
            want == 0.0 || got.distance == 0.0
        );
    }
    assert!(apart > 20 && apart < 180, "{apart} of 200 apart");
}

/// A pose with NaN meets nothing and has no distance.
#[test]
fn non_finite_poses_meet_nothing() {
    let mesh: TriMesh<f64> = read_stl("bunny_lo.stl");
    let tree = Bvh::<f64, Aabb<f64>>::build(mesh, &BuildOptions::default()).unwrap();
    let ball = Ball::new(10.0).unwrap();
    let pose = Isometry3::translation(f64::NAN, 0.0, 0.0);
    let req = QueryRequest::default();
    assert!(!tree.intersects_convex(&ball, &pose, &req));
    assert!(tree.triangles_meeting_convex(&ball, &pose, &req).is_empty());
    assert!(tree.distance_to_convex(&ball, &pose, &req).is_none());
}

/// Curved shapes placed touching the unit cube's corners, edges and faces
/// to within rounding (a cylinder of radius 1 centred `(0.894, 0.447, 0)`
/// from the corner measured 6.6e-11 apart while `intersects_convex` said
/// they meet): `distance_to_convex` answers 0 exactly when
/// `intersects_convex` says they meet, on every volume type.
#[test]
fn curved_shapes_touching_agree_with_intersects() {
    fn run<B: TreeVolume<f64>>() {
        let tree = Bvh::<f64, B>::build(cube::<f64>(1.0), &BuildOptions::default()).unwrap();
        let mut rng = seeded(93);
        let request = QueryRequest::default();
        let (mut meeting, mut cases) = (0, 0);
        let mut check = |shape: &Shape<f64>, pose: &Isometry3<f64>, what: &str| {
            cases += 1;
            let meets = tree.intersects_convex(shape, pose, &request);
            let d = tree.distance_to_convex(shape, pose, &request).unwrap();
            meeting += usize::from(meets);
            assert_eq!(
                d.distance == 0.0,
                meets,
                "{what}: distance {} but intersects {meets} at {pose:?}",
                d.distance
            );
        };
        // The recorded case: a cylinder of radius 1 along z, its axis
        // through (0.894, 0.447), touching the corner at the origin.
        let cylinder = Shape::Cylinder(Cylinder::new(1.0, 1.0).unwrap());
        check(
            &cylinder,
            &Isometry3::translation(0.894, 0.447, 0.0),
            "recorded cylinder",
        );
        for _ in 0..300 {
            let r = rng.random_range(0.05..1.5);
            let shapes = [
                (Shape::Ball(Ball::new(r).unwrap()), r),
                (Shape::Cylinder(Cylinder::new(r, r).unwrap()), r),
                (Shape::Capsule(CapsuleShape::new(r, r).unwrap()), r),
            ];
            // A unit direction from a cube corner, edge point or face point,
            // the shape's centre at its radius along it (touching up to
            // rounding for the ball; the axis-side for the others).
            let u = Vector3::new(rng.random_range(0.0..1.0), rng.random_range(0.0..1.0), 0.0)
                .normalize();
            let base = [
                Point3::new(0.0, 0.0, 0.5),
                Point3::new(1.0, 1.0, 0.5),
                Point3::new(0.0, 0.0, 0.0),
            ][rng.random_range(0..3)];
            let sign = Vector3::new(
                if base.x == 0.0 { -1.0 } else { 1.0 },
                if base.y == 0.0 { -1.0 } else { 1.0 },
                1.0,
            );
            let dir = u.component_mul(&sign);
            // Touching to rounding, a few ulps either way, or 1e-9 apart.
            let gap = [0.0, 4.0 * f64::EPSILON, -4.0 * f64::EPSILON, 1e-9][rng.random_range(0..4)];
            for (shape, r) in &shapes {
                let centre = base + dir * (*r * (1.0 + gap));
                check(
                    shape,
                    &Isometry3::translation(centre.x, centre.y, centre.z),
                    "touching",
                );
            }
        }
        assert!(meeting > 10 && meeting < cases, "{meeting} of {cases} meet");
    }
    run::<Obb<f64>>();
    run::<Aabb<f64>>();
    run::<Rss<f64>>();
}
