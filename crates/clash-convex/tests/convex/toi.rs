//! Time of impact against dense sampling of the polytope oracle.

use crate::common::{Gen, cases};
use crate::oracle::polytope::{Poly, signed_distance};
use clash_convex::toi::{Motion, ToiRequest, ToiStatus, time_of_impact};
use clash_convex::*;
use clash_math::{Isometry3, Point3, Vector3};
use std::sync::Arc;

#[test]
fn ball_into_wall_is_analytic() {
    let ball = Ball::new(0.25_f64).unwrap();
    let wall = Cuboid::new(Vector3::new(0.5, 4.0, 4.0)).unwrap();
    let still = Motion::still(Isometry3::identity());
    for k in 1..50 {
        let speed = k as f64 * 0.7;
        let m = Motion::new(
            Isometry3::translation(-3.0, 0.3, -0.2),
            Vector3::new(speed, 0.0, 0.0),
            Vector3::zeros(),
        );
        let r = time_of_impact(&ball, &m, &wall, &still, &ToiRequest::default());
        let exact = 2.25 / speed;
        if exact <= 1.0 {
            assert_eq!(r.status, ToiStatus::Impact);
            assert!(
                r.time <= exact && exact - r.time < 1e-5 / speed,
                "{speed}: {} vs {exact}",
                r.time
            );
            assert!((r.nearest_points[1].x + 0.5).abs() < 1e-5);
        } else {
            assert_eq!(r.status, ToiStatus::Miss);
        }
    }
    let touching = Motion::still(Isometry3::translation(-0.75, 0.0, 0.0));
    assert_eq!(
        time_of_impact(&ball, &touching, &wall, &still, &ToiRequest::default()).status,
        ToiStatus::Touching
    );
    let away = Motion::new(
        Isometry3::translation(-3.0, 0.0, 0.0),
        Vector3::new(-1.0, 0.0, 0.0),
        Vector3::zeros(),
    );
    assert_eq!(
        time_of_impact(&ball, &away, &wall, &still, &ToiRequest::default()).status,
        ToiStatus::Miss
    );
}

fn corners(e: &Vector3<f64>) -> Vec<Point3<f64>> {
    (0..8)
        .map(|k| {
            Point3::new(
                if k & 1 == 0 { -e.x } else { e.x },
                if k & 2 == 0 { -e.y } else { e.y },
                if k & 4 == 0 { -e.z } else { e.z },
            )
        })
        .collect()
}

/// Twenty cases by default (the oracle samples each motion a thousand
/// times); `CLASH_CONVEX_CASES=60` or more for a wider run.
#[test]
fn tumbling_hulls_match_dense_sampling() {
    let mut g = Gen::new(41);
    let req = ToiRequest::default();
    let mut impacts = 0;
    for i in 0..cases(20) {
        let ha = ConvexHull::new(&corners(&Vector3::new(
            g.f(0.1, 0.5),
            g.f(0.1, 0.5),
            g.f(0.1, 0.5),
        )))
        .unwrap();
        let hb = ConvexHull::new(&g.points(crate::common::Kind::Round, 10)).unwrap();
        let ma = Motion::new(
            g.pose_within(0.1),
            g.unit() * g.f(0.0, 1.0),
            g.unit() * g.f(0.0, 6.0),
        );
        let start_b = ma.start.translation.vector + g.unit() * g.f(2.0, 3.0);
        let towards =
            (ma.start.translation.vector - start_b).normalize() * g.f(1.0, 4.0) + g.unit() * 0.5;
        let mb = Motion::new(g.pose(start_b), towards, g.unit() * g.f(0.0, 6.0));
        let (sa, sb) = (Arc::new(ha.clone()), Arc::new(hb.clone()));
        let r = time_of_impact(&*sa, &ma, &*sb, &mb, &req);
        // The oracle: the first sign change of the brute-force distance on
        // a fine grid, refined by bisection.
        let sd = |t: f64| {
            signed_distance(
                &Poly::from_hull(&ha, &ma.at(t)),
                &Poly::from_hull(&hb, &mb.at(t)),
            )
            .0
        };
        let steps = 1000;
        let first = (0..=steps)
            .map(|k| k as f64 / steps as f64)
            .find(|&t| sd(t) <= 0.0);
        let size = 4.0;
        match (r.status, first) {
            (ToiStatus::Impact, Some(t1)) => {
                impacts += 1;
                let (mut lo, mut hi) = (((t1 * steps as f64) - 1.0).max(0.0) / steps as f64, t1);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if sd(mid) <= 0.0 { hi = mid } else { lo = mid }
                }
                assert!(
                    r.time <= hi + 1e-12,
                    "case {i}: {} after contact at {hi}",
                    r.time
                );
                let gap = sd(r.time);
                assert!(
                    gap >= -1e-12 && gap <= 2e-6 * size,
                    "case {i}: distance {gap} at {}",
                    r.time
                );
            }
            (ToiStatus::Miss, None) => {}
            // A graze shorter than the grid's step can hide from the
            // sampling: then the answer's own distance must be tiny.
            (ToiStatus::Impact, None) => assert!(sd(r.time) <= 2e-6 * size, "case {i}"),
            (s, f) => panic!("case {i}: {s:?} but the oracle says {f:?}"),
        }
    }
    assert!(impacts > 5);
}
