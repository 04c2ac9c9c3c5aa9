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

/// Checks a ball against a box, cylinder or cone, through the closed form
/// and through GJK/EPA, against the exact signed distance of its centre.
/// `kind`: 0 box, 1 cylinder, 2 cone. Returns GJK/EPA's error relative to
/// the size, and whether that answer owned its error (iteration limit or
/// EPA's capacity, with a bound that covers it).
pub fn ball_solid(
    kind: usize,
    dims: [f64; 3],
    radius: f64,
    pose: &Isometry3<f64>,
    centre_local: &Point3<f64>,
) -> Result<(f64, bool), String> {
    use crate::oracle::round::{point_box, point_cone, point_cylinder};
    use clash_convex::query::QueryStatus;
    use clash_convex::{Ball, Cone, Cuboid, Cylinder, Shape};
    let (shape, exact): (Shape<f64>, f64) = match kind {
        0 => (
            Cuboid::new(Vector3::from(dims))
                .map_err(|e| e.to_string())?
                .into(),
            point_box(centre_local, dims),
        ),
        1 => (
            Cylinder::new(dims[0], dims[1])
                .map_err(|e| e.to_string())?
                .into(),
            point_cylinder(centre_local, dims[0], dims[1]),
        ),
        _ => (
            Cone::new(dims[0], dims[1])
                .map_err(|e| e.to_string())?
                .into(),
            point_cone(centre_local, dims[0], dims[1]),
        ),
    };
    let exact = exact - radius;
    let ball = Ball::new(radius).map_err(|e| e.to_string())?;
    let at = pose * centre_local;
    let pose_ball = Isometry3::translation(at.x, at.y, at.z);
    let size = shape.extent() + radius + 1e-300;
    let req = QueryRequest::default();
    let closed = contact(&shape, pose, &ball, &pose_ball, &req);
    let gjk = contact(&Opaque(&shape), pose, &Opaque(&ball), &pose_ball, &req);
    let gjk_d = distance(&Opaque(&shape), pose, &Opaque(&ball), &pose_ball, &req);
    let rounding =
        64.0 * f64::EPSILON * (pose.translation.vector.amax() + centre_local.coords.amax() + size);
    let ctx = || {
        format!(
            "kind {kind} dims {dims:?} r {radius} exact {exact:e}\nclosed {closed:?}\ngjk {gjk:?}"
        )
    };
    for r in [&closed, &gjk] {
        if !(r.distance.is_finite()
            && r.nearest_points.iter().all(finite_point)
            && finite_vec(&r.normal))
        {
            return Err(format!("non-finite answer\n{}", ctx()));
        }
    }
    if (closed.distance - exact).abs() > 1e-12 * size + rounding {
        return Err(format!("closed form off\n{}", ctx()));
    }
    if exact > 0.0 {
        if (gjk.distance - exact).abs() > DISTANCE_TOL * size + rounding
            || (gjk_d.distance - exact).abs() > DISTANCE_TOL * size + rounding
        {
            return Err(format!("GJK distance off\n{}", ctx()));
        }
    } else {
        let err = (gjk.distance - exact).abs();
        let owned = gjk.status == QueryStatus::IterationLimit && err <= gjk.error_bound + rounding;
        if err > DEPTH_TOL * size + rounding && !owned {
            return Err(format!("EPA depth off by {err:e}\n{}", ctx()));
        }
    }
    Ok((
        (gjk.distance - exact).abs() / size,
        gjk.status == QueryStatus::IterationLimit,
    ))
}

/// A shape seen only through its support map (no closed forms).
pub struct Opaque<'a, S>(pub &'a S);

impl<S: SupportMap<f64>> SupportMap<f64> for Opaque<'_, S> {
    fn support_point(&self, d: &Vector3<f64>) -> Point3<f64> {
        self.0.support_point(d)
    }
    fn support_point_hinted(&self, d: &Vector3<f64>, hint: &mut u32) -> Point3<f64> {
        self.0.support_point_hinted(d, hint)
    }
    fn margin(&self) -> f64 {
        self.0.margin()
    }
    fn center(&self) -> Point3<f64> {
        self.0.center()
    }
    fn extent(&self) -> f64 {
        self.0.extent()
    }
}
