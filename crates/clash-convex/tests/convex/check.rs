//! The checks of a query answer against the oracles, shared by the tests,
//! the million-case run and the fuzz target.
#![allow(dead_code)]

use crate::oracle::polytope::{Poly, signed_distance};
use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::{ConvexHull, SupportMap};
use clash_math::{Isometry3, Point3, Vector3};
use clash_narrow::closest;

/// Accuracy asked, relative to the shapes' size.
pub const DISTANCE_TOL: f64 = 1e-9;
/// Depth accuracy asked, relative to the shapes' size.
pub const DEPTH_TOL: f64 = 1e-6;
/// Signed distances closer to 0 than this (relative) are within rounding
/// of touching: the intersection answer is not checked there unless the
/// case is exact.
pub const AMBIGUOUS: f64 = 1e-12;

/// What a checked case was.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The oracle's signed distance (margins included).
    pub signed: f64,
    /// The size the tolerances were relative to.
    pub size: f64,
    /// The error of our signed distance, relative to the size.
    pub error: f64,
}

fn finite_point(p: &Point3<f64>) -> bool {
    p.iter().all(|x| x.is_finite())
}

fn finite_vec(v: &Vector3<f64>) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Distance from `p` to the solid core (0 inside or on it, a hair of
/// rounding aside).
fn solid_distance(p: &Point3<f64>, poly: &Poly) -> f64 {
    if poly.contains_exact(p) {
        return 0.0;
    }
    poly.tris
        .iter()
        .map(|t| (closest::point_triangle(p, t).point - p).norm())
        .fold(f64::INFINITY, f64::min)
}

/// Checks `intersects`, `distance` and `contact` on two hulls against the
/// brute-force oracle. `exact` says the configuration is exactly
/// representable (the intersection answer is then checked even at 0).
pub fn hull_pair(
    a: &ConvexHull<f64>,
    pose_a: &Isometry3<f64>,
    b: &ConvexHull<f64>,
    pose_b: &Isometry3<f64>,
    req: &QueryRequest<f64>,
    exact: bool,
) -> Result<Outcome, String> {
    let pa = Poly::from_hull(a, pose_a);
    let pb = Poly::from_hull(b, pose_b);
    let size = pa.size().max(pb.size()).max(f64::MIN_POSITIVE);
    let margins = a.margin() + b.margin();
    let (core, _) = signed_distance(&pa, &pb);
    let signed = core - margins;
    let d = distance(a, pose_a, b, pose_b, req);
    let c = contact(a, pose_a, b, pose_b, req);
    let hit = intersects(a, pose_a, b, pose_b, req);
    let ctx = || format!("oracle {signed:e} size {size:e}\ndistance {d:?}\ncontact {c:?}");
    if !(d.distance.is_finite()
        && d.nearest_points.iter().all(finite_point)
        && finite_vec(&d.normal)
        && c.distance.is_finite()
        && c.nearest_points.iter().all(finite_point)
        && finite_vec(&c.normal)
        && d.error_bound.is_finite()
        && c.error_bound.is_finite())
    {
        return Err(format!("non-finite answer\n{}", ctx()));
    }
    if (c.normal.norm() - 1.0).abs() > 1e-9 {
        return Err(format!("contact normal not unit\n{}", ctx()));
    }
    // The vertices' own rounding in the world frame, where the oracle works.
    let magnitude = pa
        .verts
        .iter()
        .chain(&pb.verts)
        .map(|p| p.coords.amax())
        .fold(0.0, f64::max);
    let rounding = 64.0 * f64::EPSILON * magnitude;
    let tol_d = DISTANCE_TOL * size + rounding;
    let tol_p = DEPTH_TOL * size + rounding;
    let error;
    if signed > 0.0 {
        error = (c.distance - signed).abs();
        if (d.distance - signed).abs() > tol_d || error > tol_d {
            return Err(format!(
                "distance off by {:e}\n{}",
                error.max((d.distance - signed).abs()),
                ctx()
            ));
        }
        for (p, poly, m) in [
            (d.nearest_points[0], &pa, a.margin()),
            (d.nearest_points[1], &pb, b.margin()),
        ] {
            let off = (solid_distance(&p, poly) - m).abs();
            if off > tol_d.max(1e-12 * size) * 10.0 {
                return Err(format!(
                    "closest point {p} off its shape by {off:e}\n{}",
                    ctx()
                ));
            }
        }
        let gap = (d.nearest_points[1] - d.nearest_points[0]).norm();
        if (gap - d.distance).abs() > tol_d {
            return Err(format!("closest points {gap:e} apart\n{}", ctx()));
        }
    } else {
        error = (c.distance - signed).abs();
        if d.distance != 0.0 && d.distance > tol_d {
            return Err(format!("overlap but distance {:e}\n{}", d.distance, ctx()));
        }
        if error > tol_p {
            return Err(format!("depth off by {error:e}\n{}", ctx()));
        }
    }
    // Witness points of the contact lie on their shapes and realise it.
    for (p, poly, m) in [
        (c.nearest_points[0], &pa, a.margin()),
        (c.nearest_points[1], &pb, b.margin()),
    ] {
        let off = (solid_distance(&p, poly) - m).max(0.0);
        if off > tol_p {
            return Err(format!(
                "contact point {p} off its shape by {off:e}\n{}",
                ctx()
            ));
        }
    }
    let realised = c.nearest_points[1] - c.nearest_points[0] - c.normal * c.distance;
    if realised.norm() > tol_p {
        return Err(format!(
            "contact points do not realise the distance ({:e})\n{}",
            realised.norm(),
            ctx()
        ));
    }
    let threshold = req.security_margin;
    let decided = exact || (signed - threshold).abs() > AMBIGUOUS * size + rounding;
    if decided && hit != (signed <= threshold) {
        return Err(format!("intersects says {hit}\n{}", ctx()));
    }
    Ok(Outcome {
        signed,
        size,
        error: error / size,
    })
}
