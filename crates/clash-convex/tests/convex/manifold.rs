//! Contact manifolds: boxes resting on boxes, random box and hull pairs
//! (every point on both shapes, realising its distance, none deeper than
//! the contact), and the one-point fallback.

use crate::common::{Gen, Kind, cases};
use crate::oracle::polytope::Poly;
use clash_convex::manifold::contact_manifold;
use clash_convex::query::{QueryRequest, contact};
use clash_convex::*;
use clash_math::{Isometry3, Point3, Vector3};
use clash_narrow::closest;
use std::sync::Arc;

fn solid_distance(p: &Point3<f64>, poly: &Poly) -> f64 {
    if poly.contains_exact(p) {
        return 0.0;
    }
    poly.tris
        .iter()
        .map(|t| (closest::point_triangle(p, t).point - p).norm())
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn box_resting_on_a_box_has_four_points() {
    let mut g = Gen::new(31);
    for i in 0..cases(200) {
        let e = Vector3::new(g.f(0.2, 1.0), g.f(0.2, 1.0), g.f(0.2, 1.0));
        let f = Vector3::new(g.f(0.1, 0.5), g.f(0.1, 0.5), g.f(0.1, 0.5));
        let (a, b) = (Cuboid::new(e).unwrap(), Cuboid::new(f).unwrap());
        let depth = g.f(0.0, 0.05);
        let turn = g.f(-3.0, 3.0);
        // B rests on A's top face, well inside it, turned about the normal.
        let pose = Isometry3::new(
            Vector3::new(
                g.f(-0.1, 0.1) * e.x,
                g.f(-0.1, 0.1) * e.y,
                e.z + f.z - depth,
            ),
            Vector3::z() * turn,
        );
        let base = g.pose_within(5.0);
        let pose_b = base * pose;
        let m = contact_manifold(&a, &base, &b, &pose_b, &QueryRequest::default());
        if f.x.max(f.y) * 1.5 < e.x.min(e.y) * 0.9 {
            assert_eq!(m.points().len(), 4, "case {i}: {m:?}");
        }
        assert!(
            (m.normal - base.rotation * Vector3::z()).norm() < 1e-9,
            "case {i}"
        );
        for p in m.points() {
            assert!((p.distance + depth).abs() < 1e-9, "case {i}: {p:?}");
            let realised = p.point_b - p.point_a - m.normal * p.distance;
            assert!(realised.norm() < 1e-9, "case {i}");
        }
    }
}

/// A random box or hull, as a shape and as a polytope for the checks.
fn faceted(g: &mut Gen, i: usize) -> (Shape<f64>, ConvexHull<f64>) {
    if i.is_multiple_of(3) {
        let e = Vector3::new(g.f(0.05, 1.0), g.f(0.05, 1.0), g.f(0.05, 1.0));
        let mut pts = Vec::new();
        for k in 0..8 {
            pts.push(Point3::new(
                if k & 1 == 0 { -e.x } else { e.x },
                if k & 2 == 0 { -e.y } else { e.y },
                if k & 4 == 0 { -e.z } else { e.z },
            ));
        }
        (
            Cuboid::new(e).unwrap().into(),
            ConvexHull::new(&pts).unwrap(),
        )
    } else {
        let k = [Kind::Round, Kind::Box, Kind::Tetra, Kind::Flat, Kind::Blob][g.below(5)];
        let n = 8 + g.below(20);
        let h = ConvexHull::new(&g.points(k, n)).unwrap();
        (Arc::new(h.clone()).into(), h)
    }
}

#[test]
fn manifold_points_lie_on_both_shapes() {
    let mut g = Gen::new(32);
    let req = QueryRequest::default();
    let mut multi = 0;
    for i in 0..cases(1500) {
        let (sa, ha) = faceted(&mut g, i);
        let (sb, hb) = faceted(&mut g, i / 3);
        let pa = g.pose_within(0.5);
        let pb = g.pose_within(2.0);
        let m = contact_manifold(&sa, &pa, &sb, &pb, &req);
        let c = contact(&sa, &pa, &sb, &pb, &req);
        if c.distance > 0.0 {
            assert!(m.points().is_empty(), "case {i}");
            continue;
        }
        assert!(
            !m.points().is_empty(),
            "case {i}: {c:?} {m:?} {sa:?} {sb:?} {pa:?} {pb:?}"
        );
        let (polya, polyb) = (Poly::from_hull(&ha, &pa), Poly::from_hull(&hb, &pb));
        let size = polya.size().max(polyb.size());
        let tol = 1e-9 * size;
        if m.points().len() > 1 {
            multi += 1;
            assert!(
                (m.distance() - c.distance).abs() < 1e-6 * size,
                "case {i}: {m:?} vs {c:?}"
            );
        }
        for p in m.points() {
            assert!(
                solid_distance(&p.point_a, &polya) < tol,
                "case {i}: {p:?} off A"
            );
            assert!(
                solid_distance(&p.point_b, &polyb) < tol,
                "case {i}: {p:?} off B"
            );
            assert!(
                (p.point_b - p.point_a - m.normal * p.distance).norm() < tol,
                "case {i}"
            );
            assert!(
                p.distance >= c.distance - 1e-6 * size,
                "case {i}: deeper than the contact"
            );
        }
    }
    assert!(multi > 0);
}

#[test]
fn other_pairs_get_the_deepest_point_and_apart_pairs_none() {
    let mut g = Gen::new(33);
    let ball = Ball::new(0.5).unwrap();
    let cyl = Cylinder::new(0.5, 0.3).unwrap();
    for i in 0..cases(300) {
        let pa = g.pose_within(0.5);
        let pb = g.pose_within(1.2);
        let c = contact(&ball, &pa, &cyl, &pb, &QueryRequest::default());
        let m = contact_manifold(&ball, &pa, &cyl, &pb, &QueryRequest::default());
        if c.distance <= 0.0 {
            assert_eq!(m.points().len(), 1, "case {i}");
            assert_eq!(m.points()[0].distance, c.distance);
        } else {
            assert!(m.points().is_empty());
            // Within the security margin, near pairs get their point.
            let req = QueryRequest {
                security_margin: c.distance + 1e-9,
                ..QueryRequest::default()
            };
            assert_eq!(
                contact_manifold(&ball, &pa, &cyl, &pb, &req).points().len(),
                1
            );
        }
    }
}
