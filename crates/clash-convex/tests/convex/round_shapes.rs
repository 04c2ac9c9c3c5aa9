//! Cylinders and cones: against balls, where the exact signed distance of
//! the centre is a closed form, and against hulls and each other, where
//! inscribed and circumscribed polytopes bracket the answer.

use crate::common::{Gen, Opaque, cases};
use crate::oracle::polytope::{Poly, signed_distance};
use crate::oracle::round::{cone_bracket, cylinder_bracket, point_cone, point_cylinder};
use clash_convex::query::{QueryRequest, QueryStatus, contact, distance, intersects};
use clash_convex::*;
use clash_math::{Isometry3, Point3};

#[test]
fn balls_against_round_solids_match_closed_forms() {
    let mut g = Gen::new(21);
    let req = QueryRequest::default();
    for i in 0..cases(3000) {
        let (h, r) = (g.f(0.01, 1.0), g.f(0.01, 1.0));
        let br = g.f(0.0, 0.5);
        let ball = Ball::new(br).unwrap();
        let pose = g.pose_within(2.0);
        let local = Point3::from(g.unit() * g.f(0.0, 2.5));
        let at = pose * local;
        let pose_ball = Isometry3::translation(at.x, at.y, at.z);
        let cone = i % 2 == 1;
        let exact = if cone {
            point_cone(&local, h, r)
        } else {
            point_cylinder(&local, h, r)
        } - br;
        let shape: Shape<f64> = if cone {
            Cone::new(h, r).unwrap().into()
        } else {
            Cylinder::new(h, r).unwrap().into()
        };
        // The closed form.
        let c = contact(&shape, &pose, &ball, &pose_ball, &req);
        assert!(
            (c.distance - exact).abs() < 1e-12,
            "case {i} cone {cone}: {} vs {exact}",
            c.distance
        );
        let realised = c.nearest_points[1] - c.nearest_points[0] - c.normal * c.distance;
        assert!(realised.norm() < 1e-12, "case {i}");
        let d = distance(&shape, &pose, &ball, &pose_ball, &req);
        assert!((d.distance - exact.max(0.0)).abs() < 1e-12, "case {i}");
        // GJK and EPA on the same shapes: distances to 1e-9; depths to 1e-6
        // unless the result owns a larger error bound (a centre on the
        // axis makes every direction around it a minimum, which EPA's
        // polytope resolves only to its capacity).
        let g_c = contact(&Opaque(&shape), &pose, &Opaque(&ball), &pose_ball, &req);
        if exact > 0.0 {
            assert!(
                (g_c.distance - exact).abs() < 1e-9,
                "case {i} cone {cone}: gjk {} vs {exact}",
                g_c.distance
            );
        } else {
            let err = (g_c.distance - exact).abs();
            assert!(
                err < 1e-6
                    || (g_c.status == QueryStatus::IterationLimit
                        && err <= g_c.error_bound + 1e-12),
                "case {i} cone {cone}: epa {} vs {exact} {g_c:?}",
                g_c.distance
            );
        }
        let g_d = distance(&Opaque(&shape), &pose, &Opaque(&ball), &pose_ball, &req);
        assert!((g_d.distance - exact.max(0.0)).abs() < 1e-9, "case {i}");
        if exact.abs() > 1e-9 {
            assert_eq!(
                intersects(&shape, &pose, &ball, &pose_ball, &req),
                exact < 0.0,
                "case {i}"
            );
        }
    }
}

/// A cylinder or a cone with the polytopes inside and around it.
fn round_solid(g: &mut Gen, cone: bool) -> (Shape<f64>, ConvexHull<f64>, ConvexHull<f64>) {
    let (h, r) = (g.f(0.05, 1.0), g.f(0.05, 1.0));
    if cone {
        let (i, o) = cone_bracket(h, r, 64);
        (Cone::new(h, r).unwrap().into(), i, o)
    } else {
        let (i, o) = cylinder_bracket(h, r, 64);
        (Cylinder::new(h, r).unwrap().into(), i, o)
    }
}

#[test]
fn round_solids_against_hulls_lie_in_the_bracket() {
    let mut g = Gen::new(22);
    let req = QueryRequest::default();
    for i in 0..cases(40) {
        let (shape, inner, outer) = round_solid(&mut g, i % 2 == 1);
        let other_round = i.is_multiple_of(3);
        let (other, o_in, o_out): (Shape<f64>, ConvexHull<f64>, ConvexHull<f64>) = if other_round {
            round_solid(&mut g, i.is_multiple_of(4))
        } else {
            let k = g.kind();
            let h = ConvexHull::new(&g.points(k, 12)).unwrap();
            (std::sync::Arc::new(h.clone()).into(), h.clone(), h)
        };
        let pa = g.pose_within(0.5);
        let pb = g.pose_within(2.5);
        let hi = signed_distance(&Poly::from_hull(&inner, &pa), &Poly::from_hull(&o_in, &pb)).0;
        let lo = signed_distance(&Poly::from_hull(&outer, &pa), &Poly::from_hull(&o_out, &pb)).0;
        let c = contact(&shape, &pa, &other, &pb, &req);
        let slack = 1e-9;
        assert!(
            c.distance >= lo - slack && c.distance <= hi + slack,
            "case {i}: {} not in [{lo}, {hi}]\n{shape:?}\n{other:?}\n{c:?}",
            c.distance
        );
        let d = distance(&shape, &pa, &other, &pb, &req);
        assert!(
            d.distance >= lo.max(0.0) - slack && d.distance <= hi.max(0.0) + slack,
            "case {i}"
        );
        if lo > 0.0 {
            assert!(!intersects(&shape, &pa, &other, &pb, &req), "case {i}");
        }
        if hi < 0.0 {
            assert!(intersects(&shape, &pa, &other, &pb, &req), "case {i}");
        }
    }
}
