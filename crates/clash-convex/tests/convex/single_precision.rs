//! The same queries in `f32`: hull pairs against the `f64` polytope oracle
//! (run on the same, exactly widened, coordinates), and every built-in
//! shape pair against its `f64` twin.

use crate::common::{Gen, cases};
use crate::oracle::polytope::{Poly, signed_distance};
use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::*;
use clash_math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use std::sync::Arc;

fn pose32(p: &Isometry3<f64>) -> Isometry3<f32> {
    let q = p.rotation.quaternion();
    let rot = UnitQuaternion::from_quaternion(clash_math::nalgebra::Quaternion::new(
        q.w as f32, q.i as f32, q.j as f32, q.k as f32,
    ));
    Isometry3::from_parts(Translation3::from(p.translation.vector.cast::<f32>()), rot)
}

fn pose64(p: &Isometry3<f32>) -> Isometry3<f64> {
    let q = p.rotation.quaternion();
    let rot = UnitQuaternion::new_unchecked(clash_math::nalgebra::Quaternion::new(
        f64::from(q.w),
        f64::from(q.i),
        f64::from(q.j),
        f64::from(q.k),
    ));
    Isometry3::from_parts(Translation3::from(p.translation.vector.cast::<f64>()), rot)
}

#[test]
fn f32_hull_pairs_match_the_oracle() {
    let mut g = Gen::new(51);
    let req = QueryRequest::<f32>::default();
    for i in 0..cases(400) {
        let (ka, kb) = (g.kind(), g.kind());
        let pa: Vec<Point3<f32>> = g.points(ka, 12).iter().map(|p| p.cast()).collect();
        let pb: Vec<Point3<f32>> = g.points(kb, 12).iter().map(|p| p.cast()).collect();
        let (a, b) = (ConvexHull::new(&pa).unwrap(), ConvexHull::new(&pb).unwrap());
        let (a64, b64) = (
            ConvexHull::new(&pa.iter().map(|p| p.cast::<f64>()).collect::<Vec<_>>()).unwrap(),
            ConvexHull::new(&pb.iter().map(|p| p.cast::<f64>()).collect::<Vec<_>>()).unwrap(),
        );
        let t = g.unit() * g.f(0.0, 3.0);
        let (qa, qb) = (pose32(&g.pose_within(0.5)), pose32(&g.pose(t)));
        let (oa, ob) = (
            Poly::from_hull(&a64, &pose64(&qa)),
            Poly::from_hull(&b64, &pose64(&qb)),
        );
        let exact = signed_distance(&oa, &ob).0;
        let c = contact(&a, &qa, &b, &qb, &req);
        let d = distance(&a, &qa, &b, &qb, &req);
        let tol = 1e-4 * oa.size().max(ob.size());
        assert!(c.distance.is_finite() && d.distance.is_finite(), "case {i}");
        assert!(
            (f64::from(c.distance) - exact).abs() < tol,
            "case {i}: {} vs {exact}",
            c.distance
        );
        assert!(
            (f64::from(d.distance) - exact.max(0.0)).abs() < tol,
            "case {i}"
        );
        if exact.abs() > tol {
            assert_eq!(intersects(&a, &qa, &b, &qb, &req), exact < 0.0, "case {i}");
        }
    }
}

/// Every shape kind in both precisions.
fn twins(g: &mut Gen, i: usize) -> (Shape<f32>, Shape<f64>) {
    let (x, y, z) = (
        g.f(0.05, 1.0) as f32,
        g.f(0.05, 1.0) as f32,
        g.f(0.05, 1.0) as f32,
    );
    let (xd, yd, zd) = (f64::from(x), f64::from(y), f64::from(z));
    match i % 6 {
        0 => (Ball::new(x).unwrap().into(), Ball::new(xd).unwrap().into()),
        1 => (
            Cuboid::new(Vector3::new(x, y, z)).unwrap().into(),
            Cuboid::new(Vector3::new(xd, yd, zd)).unwrap().into(),
        ),
        2 => (
            CapsuleShape::new(x, y).unwrap().into(),
            CapsuleShape::new(xd, yd).unwrap().into(),
        ),
        3 => (
            Cylinder::new(x, y).unwrap().into(),
            Cylinder::new(xd, yd).unwrap().into(),
        ),
        4 => (
            Cone::new(x, y).unwrap().into(),
            Cone::new(xd, yd).unwrap().into(),
        ),
        _ => {
            let k = g.kind();
            let p: Vec<Point3<f32>> = g.points(k, 10).iter().map(|p| p.cast()).collect();
            let p64: Vec<Point3<f64>> = p.iter().map(|q| q.cast()).collect();
            (
                Arc::new(ConvexHull::new(&p).unwrap()).into(),
                Arc::new(ConvexHull::new(&p64).unwrap()).into(),
            )
        }
    }
}

#[test]
fn f32_shapes_match_their_f64_twins() {
    let mut g = Gen::new(52);
    for i in 0..cases(600) {
        let (a, a64) = twins(&mut g, i);
        let (b, b64) = twins(&mut g, i / 6);
        let t = g.unit() * g.f(0.0, 2.5);
        let (qa, qb) = (pose32(&g.pose_within(0.3)), pose32(&g.pose(t)));
        let c = contact(&a, &qa, &b, &qb, &QueryRequest::default());
        let c64 = contact(
            &a64,
            &pose64(&qa),
            &b64,
            &pose64(&qb),
            &QueryRequest::default(),
        );
        let size = (a64.extent() + b64.extent() + a64.margin() + b64.margin()).max(1.0);
        // Round solids overlapping deeply converge no better than EPA's
        // polytope in either precision: compare within both bounds.
        let tol = 2e-4 * size + f64::from(c.error_bound) + c64.error_bound;
        assert!(
            (f64::from(c.distance) - c64.distance).abs() < tol,
            "case {i}: {a:?} {b:?}\n{c:?}\n{c64:?}"
        );
    }
}
