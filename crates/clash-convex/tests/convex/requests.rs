//! The request's knobs and the result's status: upper bounds, iteration
//! limits, security margins, warm starts, Nesterov, non-finite poses.

use crate::common::{Gen, Kind, Opaque, cases};
use clash_convex::gjk::GjkVariant;
use clash_convex::query::{QueryRequest, QueryStatus, contact, distance, intersects};
use clash_convex::*;
use clash_math::{Isometry3, Translation3, Vector3};
use std::sync::Arc;

fn hulls(g: &mut Gen) -> (Shape<f64>, Shape<f64>) {
    let (ka, kb) = (g.kind(), g.kind());
    let a = ConvexHull::new(&g.points(ka, 40)).unwrap();
    let b = ConvexHull::new(&g.points(kb, 40)).unwrap();
    (Arc::new(a).into(), Arc::new(b).into())
}

#[test]
fn upper_bound_stops_early_with_a_lower_bound() {
    let mut g = Gen::new(61);
    for i in 0..cases(300) {
        let (a, b) = hulls(&mut g);
        let (pa, pb) = (g.pose_within(0.1), g.pose_within(6.0));
        let exact = distance(&a, &pa, &b, &pb, &QueryRequest::default());
        let bound = g.f(0.0, 4.0);
        let req = QueryRequest {
            distance_upper_bound: bound,
            ..QueryRequest::default()
        };
        for r in [
            distance(&a, &pa, &b, &pb, &req),
            distance(&Opaque(&a), &pa, &Opaque(&b), &pb, &req),
        ] {
            if r.status == QueryStatus::UpperBoundExceeded {
                assert!(exact.distance > bound - 1e-9, "case {i}");
                assert!(
                    r.distance > bound && r.distance <= exact.distance + 1e-9,
                    "case {i}: {r:?} {exact:?}"
                );
            } else {
                assert!(exact.distance <= bound + 1e-9, "case {i}");
                assert!((r.distance - exact.distance).abs() < 1e-9, "case {i}");
            }
        }
        let c = contact(&a, &pa, &b, &pb, &req);
        assert_eq!(
            c.status == QueryStatus::UpperBoundExceeded,
            c.distance > bound,
            "case {i}"
        );
    }
}

#[test]
fn iteration_limits_bound_their_error() {
    let mut g = Gen::new(62);
    let cyl = Cylinder::new(0.5, 0.4).unwrap();
    let cone = Cone::new(0.6, 0.5).unwrap();
    for i in 0..cases(300) {
        let (pa, pb) = (g.pose_within(0.1), g.pose_within(2.0));
        let exact = contact(&cyl, &pa, &cone, &pb, &QueryRequest::default());
        for it in [1, 2, 4, 8] {
            let req = QueryRequest {
                max_iterations: it,
                ..QueryRequest::default()
            };
            let r = contact(&cyl, &pa, &cone, &pb, &req);
            assert!(
                r.distance.is_finite() && r.error_bound.is_finite(),
                "case {i}"
            );
            if r.status == QueryStatus::IterationLimit {
                assert!(
                    (r.distance - exact.distance).abs() <= r.error_bound + 1e-9,
                    "case {i} it {it}: {r:?} {exact:?}"
                );
            } else {
                assert!(
                    (r.distance - exact.distance).abs() <= 1e-6,
                    "case {i} it {it}: {r:?} {exact:?}"
                );
            }
            let d = distance(&cyl, &pa, &cone, &pb, &req);
            let e = distance(&cyl, &pa, &cone, &pb, &QueryRequest::default());
            assert!(
                (d.distance - e.distance).abs() <= d.error_bound + 1e-9,
                "case {i} it {it}"
            );
        }
    }
}

#[test]
fn security_margin_widens_and_narrows_intersection() {
    let mut g = Gen::new(63);
    for i in 0..cases(400) {
        let (a, b) = hulls(&mut g);
        let (pa, pb) = (g.pose_within(0.1), g.pose_within(2.5));
        let c = contact(&a, &pa, &b, &pb, &QueryRequest::default());
        let margin = g.f(-0.3, 0.3);
        let req = QueryRequest {
            security_margin: margin,
            ..QueryRequest::default()
        };
        if (c.distance - margin).abs() > 1e-9 {
            assert_eq!(
                intersects(&a, &pa, &b, &pb, &req),
                c.distance <= margin,
                "case {i}: {} vs {margin}",
                c.distance
            );
            assert_eq!(
                intersects(&Opaque(&a), &pa, &Opaque(&b), &pb, &req),
                c.distance <= margin,
                "case {i}"
            );
        }
    }
}

#[test]
fn warm_starts_give_the_same_answers() {
    let mut g = Gen::new(64);
    let big = ConvexHull::new(&g.points(Kind::Round, 600)).unwrap();
    let shapes: Vec<Shape<f64>> = vec![
        Arc::new(big).into(),
        Cuboid::new(Vector3::new(0.5, 0.3, 0.2)).unwrap().into(),
        Cylinder::new(0.4, 0.3).unwrap().into(),
    ];
    for (k, a) in shapes.iter().enumerate() {
        let b = &shapes[(k + 1) % shapes.len()];
        // A pair moving a little from frame to frame.
        let mut pa = g.pose_within(0.1);
        let mut pb = g.pose_within(2.5);
        let mut warm = None;
        for step in 0..cases(200) {
            let req = QueryRequest {
                warm_start: warm,
                ..QueryRequest::default()
            };
            let cold = contact(a, &pa, b, &pb, &QueryRequest::default());
            let hot = contact(a, &pa, b, &pb, &req);
            assert!(
                (hot.distance - cold.distance).abs() < 1e-6,
                "shape {k} step {step}: {hot:?} {cold:?}"
            );
            let d = distance(a, &pa, b, &pb, &req.with_warm_start(hot.warm_start));
            assert!(
                (d.distance - cold.distance.max(0.0)).abs() < 1e-6,
                "shape {k} step {step}"
            );
            warm = Some(hot.warm_start);
            let dt = g.unit() * 0.02;
            pb = Isometry3::from_parts(Translation3::from(pb.translation.vector + dt), pb.rotation);
            pa = Isometry3::from_parts(pa.translation, pa.rotation * g.rotation().powf(0.01));
        }
    }
}

#[test]
fn nesterov_agrees_with_plain() {
    let mut g = Gen::new(65);
    let nesterov = QueryRequest {
        gjk_variant: GjkVariant::Nesterov,
        ..QueryRequest::default()
    };
    for i in 0..cases(500) {
        let (a, b) = if i.is_multiple_of(2) {
            hulls(&mut g)
        } else {
            (
                Cylinder::new(0.5, 0.3).unwrap().into(),
                Cone::new(0.4, 0.5).unwrap().into(),
            )
        };
        let (pa, pb) = (g.pose_within(0.1), g.pose_within(2.5));
        let p = contact(&a, &pa, &b, &pb, &QueryRequest::default());
        let n = contact(&a, &pa, &b, &pb, &nesterov);
        assert!(
            (p.distance - n.distance).abs() < 1e-6,
            "case {i}: {p:?} {n:?}"
        );
    }
}

#[test]
fn non_finite_poses_answer_without_nan() {
    let b = Cuboid::new(Vector3::new(1.0, 1.0, 1.0)).unwrap();
    let bad = Isometry3::translation(f64::NAN, 0.0, 0.0);
    let inf = Isometry3::translation(0.0, f64::INFINITY, 0.0);
    let ok = Isometry3::identity();
    for (pa, pb) in [(bad, ok), (ok, bad), (inf, ok)] {
        let req = QueryRequest::default();
        assert!(!intersects(&b, &pa, &b, &pb, &req));
        let d = distance(&b, &pa, &b, &pb, &req);
        assert_eq!(d.status, QueryStatus::NonFinitePose);
        assert!(
            d.nearest_points
                .iter()
                .all(|p| p.iter().all(|x| x.is_finite()))
        );
        let c = contact(&b, &pa, &b, &pb, &req);
        assert_eq!(c.status, QueryStatus::NonFinitePose);
        assert!(!c.normal.iter().any(|x| x.is_nan()));
    }
}
