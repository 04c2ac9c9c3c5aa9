//! Pairs far from unit size, from subnormal to near-overflow sizes, answer
//! as the same pair at unit size scaled: a metamorphic oracle (the unit
//! pairs are checked against the brute-force polytope oracle in
//! `gjk_epa`), since the brute-force oracle's exact predicates underflow
//! and overflow at these scales themselves.

use crate::check::DISTANCE_TOL;
use crate::common::{Gen, cases};
use clash_convex::query::{QueryRequest, contact, distance, intersects};
use clash_convex::{
    Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, SegmentShape, Shape, SupportMap,
    TriangleShape,
};
use clash_math::{Isometry3, Point3, Translation3, Vector3};

/// Powers of two the pairs are scaled by: subnormal (`2^-1050`) to huge
/// (`2^1000`), and the edges of the range queried without scaling.
const EXPONENTS: [i32; 10] = [-1050, -1000, -600, -200, -70, -63, 63, 70, 400, 1000];

/// `x · 2^k`, exact for powers of two while no result is subnormal.
fn times(x: f64, k: i32) -> f64 {
    x * 2f64.powi(k / 2) * 2f64.powi(k - k / 2)
}

fn scaled_pose(p: &Isometry3<f64>, k: i32) -> Isometry3<f64> {
    Isometry3::from_parts(
        Translation3::from(p.translation.vector.map(|x| times(x, k))),
        p.rotation,
    )
}

/// The answers on `(a, b)` at scale `2^k` against those at unit scale
/// (`a1`, `b1`): intersection the same, distances, depths and points
/// within the query's accuracy of the unit answers times `2^k`.
fn same_up_to_scale<A, B>(
    unit: (&A, &B),
    scaled: (&A, &B),
    pose_a: &Isometry3<f64>,
    pose_b: &Isometry3<f64>,
    k: i32,
    size: f64,
) -> Result<(), String>
where
    A: SupportMap<f64>,
    B: SupportMap<f64>,
{
    let req = QueryRequest::default();
    let (pa, pb) = (scaled_pose(pose_a, k), scaled_pose(pose_b, k));
    let d1 = distance(unit.0, pose_a, unit.1, pose_b, &req);
    let ds = distance(scaled.0, &pa, scaled.1, &pb, &req);
    let c1 = contact(unit.0, pose_a, unit.1, pose_b, &req);
    let cs = contact(scaled.0, &pa, scaled.1, &pb, &req);
    let h1 = intersects(unit.0, pose_a, unit.1, pose_b, &req);
    let hs = intersects(scaled.0, &pa, scaled.1, &pb, &req);
    let ctx = || format!("2^{k}\nunit {d1:?}\n{c1:?}\nscaled {ds:?}\n{cs:?}");
    // Subnormal results keep fewer digits: their own rounding.
    let floor = times(f64::MIN_POSITIVE, 2);
    let tol = (DISTANCE_TOL * size).max(times(floor, -k));
    let near = |x: f64, y: f64, t: f64| (times(x, -k) - y).abs() <= t;
    if ds.distance == 0.0 || d1.distance == 0.0 {
        // Within the accuracy of touching, either may read 0.
        if !near(ds.distance, d1.distance, tol) {
            return Err(format!("distance {}: {}", ds.distance, ctx()));
        }
    } else if !near(ds.distance, d1.distance, tol) {
        return Err(format!("distance off: {}", ctx()));
    }
    if !near(cs.distance, c1.distance, 1e3 * tol) {
        return Err(format!("signed distance off: {}", ctx()));
    }
    for (p, q) in ds.nearest_points.iter().zip(&d1.nearest_points) {
        if (0..3).any(|i| !near(p[i], q[i], 10.0 * tol)) {
            return Err(format!("distance points off: {}", ctx()));
        }
    }
    if c1.distance.abs() > 1e-6 * size && hs != h1 {
        return Err(format!("intersects {hs} at scale, {h1} at unit: {}", ctx()));
    }
    if !(ds.distance.is_finite() && cs.distance.is_finite() && cs.normal.norm() > 0.5) {
        return Err(format!("not finite: {}", ctx()));
    }
    Ok(())
}

#[test]
fn hull_pairs_far_from_unit_size_answer_as_at_unit_size() {
    for seed in 0..cases(60) as u64 {
        let mut g = Gen::new(seed + 31_000);
        let (ka, kb) = (g.kind(), g.kind());
        let (na, nb) = (4 + g.below(20), 4 + g.below(20));
        let (pa, pb) = (g.points(ka, na), g.points(kb, nb));
        let gaps = [-1.5, -0.5, -0.1, 0.1, 0.5, 3.0];
        let gap = gaps[g.below(gaps.len())];
        let pose_a = g.pose(Vector3::zeros());
        let t = g.unit() * (2.0 + gap);
        let pose_b = g.pose(t);
        let (a1, b1) = (ConvexHull::new(&pa).unwrap(), ConvexHull::new(&pb).unwrap());
        for k in EXPONENTS {
            let scale = |p: &Vec<Point3<f64>>| -> Vec<Point3<f64>> {
                p.iter().map(|p| p.map(|x| times(x, k))).collect()
            };
            let (a, b) = (
                ConvexHull::new(&scale(&pa)).unwrap(),
                ConvexHull::new(&scale(&pb)).unwrap(),
            );
            same_up_to_scale((&a1, &b1), (&a, &b), &pose_a, &pose_b, k, 4.0)
                .unwrap_or_else(|e| panic!("seed {seed} {ka:?} {kb:?} gap {gap}: {e}"));
        }
    }
}

/// Every built-in shape, `dims` multiplied by `2^k` (margins too).
fn builtin(kind: usize, dims: [f64; 3], k: i32) -> Shape<f64> {
    let [x, y, z] = dims.map(|d| times(d, k));
    let m = times(0.05, k);
    match kind {
        0 => Ball::new(x).unwrap().with_margin(m).unwrap().into(),
        1 => Cuboid::new(Vector3::new(x, y, z))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        2 => CapsuleShape::new(x, y)
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        3 => Cylinder::new(x, y).unwrap().with_margin(m).unwrap().into(),
        4 => Cone::new(x, y).unwrap().into(),
        5 => SegmentShape::new(Point3::new(-x, 0.0, 0.0), Point3::new(0.0, y, z))
            .unwrap()
            .with_margin(m)
            .unwrap()
            .into(),
        _ => TriangleShape::new(
            Point3::new(x, 0.0, 0.0),
            Point3::new(0.0, y, 0.0),
            Point3::new(0.0, 0.0, z),
        )
        .unwrap()
        .into(),
    }
}

#[test]
fn builtin_pairs_far_from_unit_size_answer_as_at_unit_size() {
    let mut g = Gen::new(7);
    for case in 0..cases(200) {
        let (ka, kb) = (case % 7, (case / 7) % 7);
        let dims = |g: &mut Gen| [g.f(0.2, 1.0), g.f(0.2, 1.0), g.f(0.2, 1.0)];
        let (da, db) = (dims(&mut g), dims(&mut g));
        let pose_a = g.pose(Vector3::zeros());
        let t = g.unit() * g.f(0.0, 3.0);
        let pose_b = g.pose(t);
        let (a1, b1) = (builtin(ka, da, 0), builtin(kb, db, 0));
        for k in EXPONENTS {
            let (a, b) = (builtin(ka, da, k), builtin(kb, db, k));
            same_up_to_scale((&a1, &b1), (&a, &b), &pose_a, &pose_b, k, 4.0)
                .unwrap_or_else(|e| panic!("case {case} kinds {ka} {kb}: {e}"));
        }
    }
}

/// Single precision: sizes from `2^-120` to `2^20` (below its coordinate
/// limit, `2^26`) answer as at unit size.
#[test]
fn single_precision_pairs_far_from_unit_size() {
    let mut g = Gen::new(11);
    for case in 0..cases(100) {
        let pts = |g: &mut Gen, k: i32| -> Vec<Point3<f32>> {
            (0..12)
                .map(|_| {
                    let u = g.unit();
                    Point3::new(u.x as f32, u.y as f32, u.z as f32)
                })
                .map(|p| p.map(|x| x * 2f32.powi(k)))
                .collect()
        };
        let seed = g.below(1 << 30) as u64;
        let dir = g.unit().map(|x| x as f32) * (1.0 + g.f(-0.8, 1.5) as f32);
        for k in [-120, -60, -20, 20] {
            let mut ga = Gen::new(seed);
            let (a, b) = (
                ConvexHull::new(&pts(&mut ga, k)).unwrap(),
                ConvexHull::new(&pts(&mut ga, k)).unwrap(),
            );
            let mut gu = Gen::new(seed);
            let (a1, b1) = (
                ConvexHull::new(&pts(&mut gu, 0)).unwrap(),
                ConvexHull::new(&pts(&mut gu, 0)).unwrap(),
            );
            let s = 2f32.powi(k);
            let pose = Isometry3::translation(dir.x, dir.y, dir.z);
            let scaled = Isometry3::translation(dir.x * s, dir.y * s, dir.z * s);
            let req = QueryRequest::default();
            let id = Isometry3::identity();
            let (d1, ds) = (
                distance(&a1, &id, &b1, &pose, &req),
                distance(&a, &id, &b, &scaled, &req),
            );
            let (c1, cs) = (
                contact(&a1, &id, &b1, &pose, &req),
                contact(&a, &id, &b, &scaled, &req),
            );
            let tol = 1e-4;
            assert!(
                (ds.distance / s - d1.distance).abs() <= tol,
                "case {case} 2^{k}: distance {} vs {}",
                ds.distance / s,
                d1.distance
            );
            assert!(
                (cs.distance / s - c1.distance).abs() <= 10.0 * tol,
                "case {case} 2^{k}: signed {} vs {}",
                cs.distance / s,
                c1.distance
            );
            assert!(
                (cs.normal.norm() - 1.0).abs() <= 1e-3,
                "case {case} 2^{k}: normal {:?}",
                cs.normal
            );
        }
    }
}
