//! The closed forms (balls, capsules, segments, ball/box, box/box) against
//! independent oracles, and against GJK/EPA on the same shapes.

use crate::check::hull_pair;
use crate::common::{Gen, Opaque, cases};
use crate::oracle::round::point_box;
use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::*;
use clash_math::{Isometry3, Point3, Vector3};

/// Distance from `p` to segment `ab`, by projection (the oracle's own).
fn point_seg(p: &Point3<f64>, a: &Point3<f64>, b: &Point3<f64>) -> f64 {
    let d = b - a;
    let t = if d.norm_squared() > 0.0 {
        ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + d * t - p).norm()
}

/// Distance between segments by golden-section search over the first
/// one's parameter (the distance to a convex set along a segment is convex).
fn seg_seg(a0: &Point3<f64>, a1: &Point3<f64>, b0: &Point3<f64>, b1: &Point3<f64>) -> f64 {
    let f = |s: f64| point_seg(&(a0 + (a1 - a0) * s), b0, b1);
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
    f(lo).min(f(0.0)).min(f(1.0)).min(f(hi))
}

/// A random swept shape (ball, capsule, segment) with its core's two ends
/// in world coordinates under `pose`, and its total radius.
fn swept(g: &mut Gen, pose: &Isometry3<f64>) -> (Shape<f64>, Point3<f64>, Point3<f64>, f64) {
    let m = if g.below(2) == 0 { 0.0 } else { g.f(0.0, 0.2) };
    match g.below(3) {
        0 => {
            let r = g.f(0.0, 1.0);
            let c = pose * Point3::origin();
            (
                Ball::new(r).unwrap().with_margin(m).unwrap().into(),
                c,
                c,
                r + m,
            )
        }
        1 => {
            let (h, r) = (g.f(0.0, 1.0), g.f(0.0, 1.0));
            let a = pose * Point3::new(0.0, 0.0, -h);
            let b = pose * Point3::new(0.0, 0.0, h);
            (
                CapsuleShape::new(h, r)
                    .unwrap()
                    .with_margin(m)
                    .unwrap()
                    .into(),
                a,
                b,
                r + m,
            )
        }
        _ => {
            let (a, b) = (Point3::from(g.unit()), Point3::from(g.unit()));
            (
                SegmentShape::new(a, b)
                    .unwrap()
                    .with_margin(m)
                    .unwrap()
                    .into(),
                pose * a,
                pose * b,
                m,
            )
        }
    }
}

#[test]
fn swept_pairs_match_the_oracle_and_gjk() {
    let mut g = Gen::new(11);
    let req = QueryRequest::default();
    for i in 0..cases(3000) {
        let pa = g.pose_within(0.0);
        let t = g.unit() * g.f(0.0, 3.0);
        let pb = g.pose(t);
        let (sa, a0, a1, ra) = swept(&mut g, &pa);
        let (sb, b0, b1, rb) = swept(&mut g, &pb);
        let exact = seg_seg(&a0, &a1, &b0, &b1) - ra - rb;
        let c = contact(&sa, &pa, &sb, &pb, &req);
        let d = distance(&sa, &pa, &sb, &pb, &req);
        let hit = intersects(&sa, &pa, &sb, &pb, &req);
        assert!(
            (c.distance - exact).abs() < 1e-12,
            "case {i}: {} vs {exact}",
            c.distance
        );
        assert!((d.distance - exact.max(0.0)).abs() < 1e-12, "case {i}");
        if exact.abs() > 1e-12 {
            assert_eq!(hit, exact < 0.0, "case {i}");
        }
        let realised = c.nearest_points[1] - c.nearest_points[0] - c.normal * c.distance;
        assert!(realised.norm() < 1e-12, "case {i}");
        if exact <= 0.0 {
            // The common point lies in both shapes.
            let p = d.nearest_points[0];
            assert!(
                point_seg(&p, &a0, &a1) <= ra + 1e-12 && point_seg(&p, &b0, &b1) <= rb + 1e-12,
                "case {i}"
            );
        }
        // GJK and EPA on the same shapes agree.
        let cg = contact(&Opaque(&sa), &pa, &Opaque(&sb), &pb, &req);
        assert!(
            (cg.distance - exact).abs() < 1e-9,
            "case {i}: gjk {} vs {exact}",
            cg.distance
        );
    }
}

#[test]
fn ball_against_box_matches_the_oracle() {
    let mut g = Gen::new(12);
    let req = QueryRequest::default();
    for i in 0..cases(3000) {
        let e = [g.f(0.0, 1.0), g.f(0.0, 1.0), g.f(0.0, 1.0)];
        let (r, mb, mc) = (
            g.f(0.0, 1.0),
            g.f(0.0, 0.1),
            if i.is_multiple_of(2) {
                0.0
            } else {
                g.f(0.0, 0.1)
            },
        );
        let cube = Cuboid::new(Vector3::from(e))
            .unwrap()
            .with_margin(mc)
            .unwrap();
        let ball = Ball::new(r).unwrap().with_margin(mb).unwrap();
        let pose_box = g.pose_within(3.0);
        let local = Point3::from(g.unit() * g.f(0.0, 2.5));
        let pose_ball = Isometry3::translation(
            (pose_box * local).x,
            (pose_box * local).y,
            (pose_box * local).z,
        );
        let exact = point_box(&local, e) - r - mb - mc;
        for swap in [false, true] {
            let c = if swap {
                contact(&cube, &pose_box, &ball, &pose_ball, &req)
            } else {
                contact(&ball, &pose_ball, &cube, &pose_box, &req)
            };
            assert!(
                (c.distance - exact).abs() < 1e-12,
                "case {i} swap {swap}: {} vs {exact}",
                c.distance
            );
            let realised = c.nearest_points[1] - c.nearest_points[0] - c.normal * c.distance;
            assert!(realised.norm() < 1e-12, "case {i}");
            let hit = intersects(&ball, &pose_ball, &cube, &pose_box, &req);
            if exact.abs() > 1e-12 {
                assert_eq!(hit, exact < 0.0, "case {i}");
            }
        }
        for swap in [false, true] {
            let d = if swap {
                distance(&cube, &pose_box, &ball, &pose_ball, &req)
            } else {
                distance(&ball, &pose_ball, &cube, &pose_box, &req)
            };
            assert!(
                (d.distance - exact.max(0.0)).abs() < 1e-12,
                "case {i} swap {swap}"
            );
            let [on_ball, on_box] = if swap {
                [d.nearest_points[1], d.nearest_points[0]]
            } else {
                d.nearest_points
            };
            // Each point lies on its shape; apart, they realise the
            // distance along the normal.
            let p = pose_box.inverse() * on_box;
            assert!(point_box(&p, e) <= mc + 1e-12, "case {i} swap {swap}");
            assert!(
                (on_ball - pose_ball * Point3::origin()).norm() <= r + mb + 1e-12,
                "case {i} swap {swap}"
            );
            if exact > 0.0 {
                let realised = d.nearest_points[1] - d.nearest_points[0] - d.normal * d.distance;
                assert!(realised.norm() < 1e-12, "case {i} swap {swap}");
            } else {
                assert_eq!(on_ball, on_box, "case {i} swap {swap}");
            }
        }
    }
}

/// A box as a hull of its corners, for the polytope oracle.
fn box_hull(e: &Vector3<f64>) -> ConvexHull<f64> {
    let mut pts = Vec::new();
    for k in 0..8 {
        pts.push(Point3::new(
            if k & 1 == 0 { -e.x } else { e.x },
            if k & 2 == 0 { -e.y } else { e.y },
            if k & 4 == 0 { -e.z } else { e.z },
        ));
    }
    ConvexHull::new(&pts).unwrap()
}

#[test]
fn box_against_box_matches_the_polytope_oracle() {
    let mut g = Gen::new(13);
    let req = QueryRequest::default();
    for i in 0..cases(1500) {
        let ea = Vector3::new(g.f(0.01, 1.0), g.f(0.01, 1.0), g.f(0.01, 1.0));
        let eb = Vector3::new(g.f(0.01, 1.0), g.f(0.01, 1.0), g.f(0.01, 1.0));
        let pa = g.pose_within(2.0);
        let dir = g.unit();
        let pb = if i.is_multiple_of(4) {
            // Aligned boxes: face against face.
            let t = pa.translation.vector + dir * g.f(0.0, 2.0);
            Isometry3::from_parts(t.into(), pa.rotation)
        } else {
            let t = pa.translation.vector + dir * g.f(0.0, 2.5);
            g.pose(t)
        };
        let a = Cuboid::new(ea).unwrap();
        let b = Cuboid::new(eb).unwrap();
        let (ha, hb) = (box_hull(&ea), box_hull(&eb));
        // The oracle runs on the hulls of the corners.
        let oracle = hull_pair(&ha, &pa, &hb, &pb, &req, false)
            .unwrap_or_else(|e| panic!("case {i}: hulls: {e}"));
        let c = contact(&a, &pa, &b, &pb, &req);
        let d = distance(&a, &pa, &b, &pb, &req);
        let tol = 1e-9 * oracle.size;
        assert!(
            (c.distance - oracle.signed).abs() < tol,
            "case {i}: {c:?} vs {}",
            oracle.signed
        );
        assert!(
            (d.distance - oracle.signed.max(0.0)).abs() < tol,
            "case {i}"
        );
        let realised = c.nearest_points[1] - c.nearest_points[0] - c.normal * c.distance;
        assert!(
            realised.norm() < tol,
            "case {i}: {c:?} ({:e})",
            realised.norm()
        );
        if oracle.signed.abs() > 1e-12 {
            assert_eq!(
                intersects(&a, &pa, &b, &pb, &req),
                oracle.signed < 0.0,
                "case {i}"
            );
        }
    }
}

#[test]
fn every_shape_pair_agrees_with_gjk() {
    // Closed forms where the pair has one, GJK and EPA otherwise: the
    // answers must agree with GJK and EPA run on the same support maps.
    let mut g = Gen::new(14);
    let req = QueryRequest::default();
    for i in 0..cases(2000) {
        let sa = crate::shapes::random_shape(&mut g, i);
        let sb = crate::shapes::random_shape(&mut g, i / 8);
        let pa = g.pose_within(1.0);
        let pb = g.pose_within(3.0);
        let c = contact(&sa, &pa, &sb, &pb, &req);
        let cg = contact(&Opaque(&sa), &pa, &Opaque(&sb), &pb, &req);
        let size = sa.extent() + sb.extent() + sa.margin() + sb.margin() + 1.0;
        assert!(
            (c.distance - cg.distance).abs() < 1e-6 * size,
            "case {i}: {sa:?} {sb:?}\n{c:?}\n{cg:?}"
        );
    }
}

/// A fuzz find: a cone of zero height and radius (a point) took every point
/// above it for inside (both sides of its inside test were 0) and answered
/// a depth from a normal of NaN parts.
#[test]
fn degenerate_round_solids_against_balls() {
    use crate::check::ball_solid;
    let mut g = Gen::new(15);
    for i in 0..cases(2000) {
        let kind = 1 + i % 2;
        let dims = [
            [0.0, 0.0, 0.0],
            [0.0, g.f(0.0, 1.0), 0.0],
            [g.f(0.0, 1.0), 0.0, 0.0],
        ][i % 3];
        let pose = g.pose_within(1.0);
        let centre = Point3::from(g.unit() * g.f(0.0, 1.5));
        ball_solid(kind, dims, g.f(0.0, 0.5), &pose, &centre)
            .unwrap_or_else(|e| panic!("case {i}: {e}"));
    }
}
