//! A triangle against a ball, capsule or segment: the closed form against
//! an oracle of its own (distance from the core to the triangle by
//! golden-section search along the core, point/triangle by projection and
//! edges) and against GJK on the same shapes, including thin triangles and
//! cores far longer than the gap.

use crate::check::Opaque;
use crate::common::{Gen, cases};
use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::{Ball, CapsuleShape, SegmentShape, Shape, TriangleShape};
use clash_math::{Isometry3, Point3, Vector3};

fn point_seg(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let d = b - a;
    let t = if d.norm_squared() > 0.0 {
        ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t - p).norm()
}

/// Distance from `p` to triangle `t`: the projection when it falls inside
/// (by the signs of the sub-triangles' normals), else the nearest edge.
fn point_tri(p: &Point3<f64>, t: &[Point3<f64>; 3]) -> f64 {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let edges = (0..3)
        .map(|i| point_seg(p, &t[i], &t[(i + 1) % 3]))
        .fold(f64::INFINITY, f64::min);
    let nn = n.norm_squared();
    if nn == 0.0 {
        return edges;
    }
    let q = p - n * ((p - t[0]).dot(&n) / nn);
    let inside = (0..3).all(|i| (t[(i + 1) % 3] - t[i]).cross(&(q - t[i])).dot(&n) >= 0.0);
    if inside {
        (p - q).norm().min(edges)
    } else {
        edges
    }
}

/// Distance from segment `ab` to the triangle, by golden-section search
/// (the distance to a convex set is convex along a segment).
fn seg_tri(a: &Point3<f64>, b: &Point3<f64>, t: &[Point3<f64>; 3]) -> f64 {
    let f = |s: f64| point_tri(&(a + (b - a) * s), t);
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..200 {
        let m1 = hi - g * (hi - lo);
        let m2 = lo + g * (hi - lo);
        if f(m1) <= f(m2) {
            hi = m2;
        } else {
            lo = m1;
        }
    }
    f(lo).min(f(0.0)).min(f(1.0))
}

/// A ball, capsule or segment placed by `pose`: the shape, its core's ends
/// in the world and its total radius.
fn swept(
    g: &mut Gen,
    pose: &Isometry3<f64>,
    long: f64,
) -> (Shape<f64>, Point3<f64>, Point3<f64>, f64) {
    let m = if g.below(2) == 0 { 0.0 } else { g.f(0.0, 0.2) };
    let h = g.f(0.0, 1.0) * long;
    let (a, b) = (
        pose * Point3::new(0.0, 0.0, -h),
        pose * Point3::new(0.0, 0.0, h),
    );
    match g.below(3) {
        0 => {
            let r = g.f(0.0, 0.5);
            let c = pose * Point3::origin();
            (
                Ball::new(r).unwrap().with_margin(m).unwrap().into(),
                c,
                c,
                r + m,
            )
        }
        1 => {
            let r = g.f(0.0, 0.5);
            let s = CapsuleShape::new(h, r).unwrap().with_margin(m).unwrap();
            (s.into(), a, b, r + m)
        }
        _ => {
            let s = SegmentShape::new(Point3::new(0.0, 0.0, -h), Point3::new(0.0, 0.0, h))
                .unwrap()
                .with_margin(m)
                .unwrap();
            (s.into(), a, b, m)
        }
    }
}

/// A random triangle, sometimes thin (a corner near the opposite edge) or
/// degenerate (collinear corners).
fn triangle(g: &mut Gen) -> [Point3<f64>; 3] {
    let p = |g: &mut Gen| Point3::from(g.unit() * g.f(0.2, 1.5));
    let (a, b) = (p(g), p(g));
    let c = match g.below(4) {
        0 => a + (b - a) * g.f(0.0, 1.0) + g.unit() * 1e-9,
        1 => a + (b - a) * g.f(-0.5, 1.5),
        _ => p(g),
    };
    [a, b, c]
}

fn check(case: usize, long: f64, g: &mut Gen) {
    let t = triangle(g);
    let tri = TriangleShape::new(t[0], t[1], t[2]).unwrap();
    let t_pose = Isometry3::identity();
    let at = g.unit() * g.f(0.0, 3.0);
    let pose = g.pose(at);
    let (s, a, b, radius) = swept(g, &pose, long);
    let exact = seg_tri(&a, &b, &t) - radius;
    let size = 3.0 + (b - a).norm();
    let req = QueryRequest::default();
    for flip in [false, true] {
        let (d, c, hit) = if flip {
            (
                distance(&s, &pose, &tri, &t_pose, &req),
                contact(&s, &pose, &tri, &t_pose, &req),
                intersects(&s, &pose, &tri, &t_pose, &req),
            )
        } else {
            (
                distance(&tri, &t_pose, &s, &pose, &req),
                contact(&tri, &t_pose, &s, &pose, &req),
                intersects(&tri, &t_pose, &s, &pose, &req),
            )
        };
        let ctx = || format!("case {case} flip {flip} exact {exact:e}\n{d:?}\n{c:?}");
        // The oracle's own search, and the rounding of points on a core
        // whose ends are far out (coordinates of 10^15 are whole to 1/8).
        let ends = a.coords.amax().max(b.coords.amax());
        let tol = 1e-9 * (1.0 + exact.abs()) + 16.0 * f64::EPSILON * ends;
        if exact > tol {
            assert!((d.distance - exact).abs() <= tol, "distance: {}", ctx());
            assert!((c.distance - exact).abs() <= tol, "contact: {}", ctx());
            let gap = (d.nearest_points[1] - d.nearest_points[0]).norm();
            assert!((gap - d.distance).abs() <= tol, "points: {}", ctx());
            assert!(!hit, "intersects: {}", ctx());
        } else if exact < -tol {
            assert_eq!(d.distance, 0.0, "overlap: {}", ctx());
            assert!(hit, "intersects: {}", ctx());
        }
        // Against GJK on the same shapes, where its tolerance is small
        // against the gap.
        if long == 1.0 && exact > 1e-6 {
            let gjk = if flip {
                distance(&Opaque(&s), &pose, &Opaque(&tri), &t_pose, &req)
            } else {
                distance(&Opaque(&tri), &t_pose, &Opaque(&s), &pose, &req)
            };
            assert!(
                (gjk.distance - d.distance).abs() <= 1e-9 * size,
                "gjk: {}",
                ctx()
            );
        }
    }
}

#[test]
fn triangles_against_balls_capsules_and_segments_match_the_oracle() {
    let mut g = Gen::new(41);
    for case in 0..cases(2000) {
        check(case, 1.0, &mut g);
    }
}

/// Cores up to 10^30 long: the distance is the gap to the rounding of the
/// core's coordinates, not GJK's tolerance relative to the core's length
/// (10^-10 of it), and exact where the core's points are exact.
#[test]
fn cores_far_longer_than_the_gap_keep_the_gap() {
    let mut g = Gen::new(43);
    for case in 0..cases(500) {
        let long = [1e3, 1e8, 1e15, 1e30][case % 4];
        check(case, long, &mut g);
    }
    // A segment along z, 2e30 long, 2 from a triangle in the plane x = 1.
    let tri = TriangleShape::new(
        Point3::new(1.0, 0.0, 0.0),
        Point3::new(1.0, 1.0, 0.0),
        Point3::new(1.0, 0.0, 1.0),
    )
    .unwrap();
    let s = CapsuleShape::new(1e30, 0.25).unwrap();
    let pose = Isometry3::translation(3.0, 0.0, 0.0);
    let req = QueryRequest::default();
    let d = distance(&tri, &Isometry3::identity(), &s, &pose, &req);
    assert_eq!(d.distance, 1.75, "{d:?}");
    assert_eq!(d.normal, Vector3::x());
    assert!(!intersects(&tri, &Isometry3::identity(), &s, &pose, &req));
}
