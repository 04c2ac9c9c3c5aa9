//! The invariants every answer must obey whatever the algorithm, checked
//! on a scene decoded from bytes: two meshes (triangle soups with
//! degenerate triangles, or closed spheres, of sizes up to `2^40` apart), a
//! pose and query points, at a geometry size from subnormal (`2^-1070`) to
//! `2^120` and a translation from `1e-300` to `1e300` times the size. Shared by the `invariants` fuzz
//! target and the `invariants_at_scale` tests (which feed it random bytes
//! and the fuzz seeds); self-contained, so the fuzz crate can include it
//! with `#[path]`.
//!
//! Beyond the coordinate range ([`Scalar::MAX_COORDINATE`]) the pose must be
//! refused by [`RelativePose::check_range`]; within it, every answer must
//! hold:
//!
//! - mesh/mesh distance (OBB, RSS and AABB trees): finite, its points on
//!   their own triangles, `|point_b - point_a|` equal to the distance, not
//!   above the separation of any pair of corners, not below the gap between
//!   the meshes' boxes, and 0 exactly when [`Bvh::intersects`] says so; a
//!   batch equal to the single calls; an f32 tree within f32 rounding of
//!   the f64 answer, or the mesh or pose refused in f32;
//! - closest points on a mesh: the point on its triangle, the distance its
//!   separation and not above any corner's;
//! - mesh/convex distance to a ball and a box: points on their surfaces,
//!   the distance their separation;
//! - continuous collision of B arriving at A from its pose: a contact at
//!   the end pose is found, its point on A's triangle.
//!
//! "To rounding" is `64 ε M`, with `M` the largest coordinate magnitude of
//! the placed scene.

use clash_bv::{Aabb, Obb, RelativePose, Rss};
use clash_bvh::{BuildOptions, BvPair, Bvh, MeshDistance, MeshError, TreeVolume, TriMesh};
use clash_convex::query::QueryRequest;
use clash_convex::{Ball, Cuboid};
use clash_math::{Isometry3, Point3, Scalar, Triangle, UnitQuaternion, Vector3};
use clash_narrow::closest::point_triangle;

/// One scene: two meshes at `size`, the pose of B in A's frame, and a few
/// query points.
pub struct Scene {
    pub a: TriMesh<f64>,
    pub b: TriMesh<f64>,
    pub pose: Isometry3<f64>,
    pub points: Vec<Point3<f64>>,
    pub size: f64,
}

/// Reads the scene's numbers from the bytes in order; past the end, zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn u16(&mut self) -> u16 {
        match self.0 {
            [a, b, rest @ ..] => {
                let v = u16::from_le_bytes([*a, *b]);
                self.0 = rest;
                v
            }
            [a] => {
                let v = u16::from(*a);
                self.0 = &[];
                v
            }
            [] => 0,
        }
    }
    /// An integer in `lo..=hi`.
    fn int(&mut self, lo: i32, hi: i32) -> i32 {
        lo + (i32::from(self.u16()) % (hi - lo + 1))
    }
    /// A value on the grid of `2^-14` in `[-2, 2)`: exact, and repeats
    /// often enough to make coincident, coplanar and touching features.
    fn unit(&mut self) -> f64 {
        f64::from(self.u16()) / 16384.0 - 2.0
    }
    fn vector(&mut self) -> Vector3<f64> {
        Vector3::new(self.unit(), self.unit(), self.unit())
    }
}

/// A closed sphere of radius 1 (a UV sphere of 3 rings by 4 segments).
fn sphere() -> TriMesh<f64> {
    let (rings, segments) = (3u32, 4u32);
    let mut v = vec![Point3::new(0.0, 0.0, 1.0)];
    for r in 1..rings {
        let th = std::f64::consts::PI * f64::from(r) / f64::from(rings);
        for s in 0..segments {
            let ph = 2.0 * std::f64::consts::PI * f64::from(s) / f64::from(segments);
            v.push(Point3::new(
                th.sin() * ph.cos(),
                th.sin() * ph.sin(),
                th.cos(),
            ));
        }
    }
    v.push(Point3::new(0.0, 0.0, -1.0));
    let south = v.len() as u32 - 1;
    let idx = |r: u32, s: u32| 1 + (r - 1) * segments + (s % segments);
    let mut f = Vec::new();
    for s in 0..segments {
        f.push([0, idx(1, s), idx(1, s + 1)]);
        f.push([south, idx(rings - 1, s + 1), idx(rings - 1, s)]);
        for r in 1..rings - 1 {
            f.push([idx(r, s), idx(r + 1, s), idx(r + 1, s + 1)]);
            f.push([idx(r, s), idx(r + 1, s + 1), idx(r, s + 1)]);
        }
    }
    TriMesh::new(v, f).expect("a valid sphere")
}

/// A mesh at unit scale (a soup of up to 8 triangles from the bytes, or
/// the sphere), scaled by the power of two `size` (exact, but for rounding
/// in the subnormal range); `None` when [`TriMesh::new`] refuses it as too
/// small, which it must do only below `1 / MAX_COORDINATE`.
fn mesh(bytes: &mut Bytes, size: f64) -> Option<TriMesh<f64>> {
    let m = match bytes.int(0, 8) {
        0 => sphere(),
        n => {
            let tris: Vec<Triangle<f64>> = (0..n)
                .map(|_| {
                    let c = bytes.vector() * 0.5;
                    let mut p = || Point3::from(c + bytes.vector() * 0.25);
                    Triangle::new(p(), p(), p())
                })
                .collect();
            TriMesh::from_triangles(&tris).expect("finite corners")
        }
    };
    let v: Vec<_> = m.vertices().iter().map(|p| p * size).collect();
    let magnitude = v.iter().fold(0.0_f64, |m, p| m.max(p.coords.amax()));
    match TriMesh::new(v, m.indices().to_vec()) {
        Ok(mesh) => Some(mesh),
        Err(e) => {
            // Only a mesh too small for the arithmetic may be refused.
            assert!(
                matches!(e, MeshError::TooSmall { .. })
                    && magnitude < 1.0 / f64::MAX_COORDINATE
                    && magnitude > 0.0,
                "a mesh of magnitude {magnitude:e} was refused: {e}"
            );
            None
        }
    }
}

/// The scene the bytes describe; `None` when a mesh is refused as too
/// small (as it must be).
pub fn scene(data: &[u8]) -> Option<Scene> {
    let mut bytes = Bytes(data);
    // One scene in four anywhere down to subnormal sizes (mostly refused
    // as too small); the others within the range, where answers are due.
    let exponent = match bytes.int(0, 3) {
        0 => bytes.int(-1070, 120),
        _ => bytes.int(-128, 120),
    };
    let size = 2f64.powi(exponent);
    // B's size relative to A's.
    let ratio = 2f64.powi(bytes.int(-40, 40));
    // Likewise one translation in four anywhere from 1e-300 to 1e300 times
    // the size (often beyond the range), the others up to 1e40 times.
    let reach = size
        * 10f64.powi(match bytes.int(0, 3) {
            0 => bytes.int(-300, 300),
            _ => bytes.int(-300, 40),
        });
    let dir = bytes.vector();
    let rotation = match bytes.int(0, 2) {
        0 => UnitQuaternion::identity(),
        1 => UnitQuaternion::from_axis_angle(&Vector3::z_axis(), std::f64::consts::FRAC_PI_2),
        _ => UnitQuaternion::from_scaled_axis(bytes.vector()),
    };
    let a = mesh(&mut bytes, size);
    let b = mesh(
        &mut bytes,
        (size * ratio).clamp(f64::MIN_POSITIVE * f64::EPSILON, 2f64.powi(120)),
    );
    let (a, b) = a.zip(b)?;
    let pose = Isometry3::from_parts((dir * reach).into(), rotation);
    let points = (0..3)
        .map(|_| Point3::from(bytes.vector() * reach.max(size)))
        .collect();
    Some(Scene {
        a,
        b,
        pose,
        points,
        size,
    })
}

/// Checks every invariant on the scene the bytes describe; panics with
/// the scene and the broken invariant. Returns `false` when the scene is
/// beyond the coordinate range or a mesh too small for it (and refused, as
/// it must be).
pub fn check(data: &[u8]) -> bool {
    let Some(s) = scene(data) else {
        return false;
    };
    let range = RelativePose::from(s.pose).check_range();
    if !(s.pose.translation.vector.amax() <= f64::MAX_COORDINATE) {
        assert!(
            range.is_err(),
            "a translation beyond the range was not refused"
        );
        return false;
    }
    assert!(range.is_ok(), "a translation within the range was refused");
    // The placed meshes must stay within the range too (a size near the
    // top of it, moved, can pass it).
    if s.pose.translation.vector.amax() + 4.0 * s.size > f64::MAX_COORDINATE {
        return false;
    }
    check_mesh_distance::<Obb<f64>>(&s, "obb");
    check_mesh_distance::<Rss<f64>>(&s, "rss");
    check_mesh_distance::<Aabb<f64>>(&s, "aabb");
    check_f32(&s);
    check_closest_points(&s);
    check_mesh_convex(&s);
    check_continuous(&s);
    true
}

/// The triangle of `mesh` with input index `i`, placed by `pose` as the
/// trees place it (rotation matrix, then translation).
fn placed(mesh: &TriMesh<f64>, i: u32, pose: &RelativePose<f64>) -> Triangle<f64> {
    pose.transform_triangle(&mesh.triangle(i as usize))
}

/// `|v|` without squaring (no underflow at subnormal scales).
fn norm(v: &Vector3<f64>) -> f64 {
    let m = v.amax();
    if m > 0.0 { (v / m).norm() * m } else { 0.0 }
}

/// Rounding at magnitude `m`: `64 ε m`, and at least a few of the
/// smallest subnormals.
fn rounding(m: f64) -> f64 {
    (64.0 * f64::EPSILON * m).max(8.0 * f64::from_bits(1))
}

fn magnitude(points: impl IntoIterator<Item = Point3<f64>>) -> f64 {
    points.into_iter().fold(0.0, |m, p| m.max(p.coords.amax()))
}

/// `|p - (closest point of t)|` within `64 ε M` (M: t's and p's magnitude).
fn assert_on(p: &Point3<f64>, t: &Triangle<f64>, what: &str) {
    let m = magnitude([*p, t.a, t.b, t.c]);
    let off = norm(&(point_triangle(p, t).point - p));
    assert!(
        off <= rounding(m),
        "{what}: {p:?} is {off:e} off its triangle {t:?}"
    );
}

/// The gap between the two boxes of point sets, a lower bound on their
/// hulls' distance.
fn box_gap(a: &[Point3<f64>], b: &[Point3<f64>]) -> f64 {
    let bounds = |s: &[Point3<f64>]| {
        s.iter().fold(
            (
                Vector3::repeat(f64::INFINITY),
                Vector3::repeat(f64::NEG_INFINITY),
            ),
            |(lo, hi), p| (lo.inf(&p.coords), hi.sup(&p.coords)),
        )
    };
    let ((la, ha), (lb, hb)) = (bounds(a), bounds(b));
    let gap = (lb - ha).sup(&(la - hb)).sup(&Vector3::zeros());
    norm(&gap)
}

fn check_mesh_distance<B>(s: &Scene, label: &str)
where
    B: TreeVolume<f64> + BvPair<f64, B>,
{
    let options = BuildOptions::sah();
    let ta: Bvh<f64, B> = Bvh::build(s.a.clone(), &options).unwrap();
    let tb: Bvh<f64, B> = Bvh::build(s.b.clone(), &options).unwrap();
    let pose = RelativePose::from(s.pose);
    let d: MeshDistance<f64> = ta.distance(&tb, pose);
    let bv: Vec<Point3<f64>> =
        s.b.vertices()
            .iter()
            .map(|p| pose.transform_point(p))
            .collect();
    let m = magnitude(s.a.vertices().iter().copied().chain(bv.iter().copied()));
    let tol = rounding(m);
    assert!(
        d.distance.is_finite() && d.distance >= 0.0,
        "{label}: {d:?}"
    );
    assert_on(&d.point_a, &s.a.triangle(d.triangles[0] as usize), label);
    assert_on(&d.point_b, &placed(&s.b, d.triangles[1], &pose), label);
    let sep = norm(&(d.point_b - d.point_a));
    if d.distance > 0.0 {
        assert!(
            (sep - d.distance).abs() <= tol.max(4.0 * f64::EPSILON * d.distance),
            "{label}: separation {sep:e} against distance {:e}",
            d.distance
        );
    } else {
        // Touching: the points lie within the margin below which the
        // trees confirm contact exactly (`√ε M`).
        assert!(
            sep <= f64::EPSILON.sqrt() * m,
            "{label}: touching points {sep:e} apart"
        );
    }
    let corners =
        s.a.vertices()
            .iter()
            .flat_map(|p| bv.iter().map(move |q| norm(&(q - p))))
            .fold(f64::INFINITY, f64::min);
    assert!(
        d.distance <= corners + tol,
        "{label}: {:e} above the corners' {corners:e}",
        d.distance
    );
    let gap = box_gap(s.a.vertices(), &bv);
    assert!(
        d.distance >= gap - tol,
        "{label}: {:e} below the boxes' gap {gap:e}",
        d.distance
    );
    let meets = ta.intersects(&tb, pose);
    assert_eq!(
        meets,
        d.distance == 0.0,
        "{label}: intersects {meets}, {d:?}"
    );
    let batch = ta.distance_poses(&tb, &[s.pose, s.pose]);
    assert!(batch.iter().all(|b| *b == d), "{label}: batch differs");
}

fn check_f32(s: &Scene) {
    let to32 = |m: &TriMesh<f64>| {
        TriMesh::<f32>::new(
            m.vertices().iter().map(|p| p.map(|x| x as f32)).collect(),
            m.indices().to_vec(),
        )
    };
    let pose32 = RelativePose::<f32>::from(s.pose.cast::<f32>());
    let (a, b) = match (to32(&s.a), to32(&s.b)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            // Refused: beyond f32's range, or too small for it.
            let m = magnitude(s.a.vertices().iter().chain(s.b.vertices()).copied());
            let small = |m: &TriMesh<f64>| {
                magnitude(m.vertices().iter().copied()) < 1.0 / f64::from(f32::MAX_COORDINATE)
            };
            assert!(
                m > f64::from(f32::MAX_COORDINATE) || small(&s.a) || small(&s.b),
                "f32 mesh refused at {m:e}: {e}"
            );
            return;
        }
    };
    if pose32.check_range().is_err() {
        return;
    }
    let options = BuildOptions::sah();
    let (ta, tb): (Bvh<f32, Rss<f32>>, Bvh<f32, Rss<f32>>) = (
        Bvh::build(a.clone(), &options).unwrap(),
        Bvh::build(b.clone(), &options).unwrap(),
    );
    let d32 = f64::from(ta.distance(&tb, pose32).distance);
    let t64: (Bvh<f64, Rss<f64>>, Bvh<f64, Rss<f64>>) = (
        Bvh::build(s.a.clone(), &options).unwrap(),
        Bvh::build(s.b.clone(), &options).unwrap(),
    );
    let d64 = t64.0.distance(&t64.1, s.pose).distance;
    let bv = s.b.vertices().iter().map(|p| s.pose * p);
    let m = magnitude(s.a.vertices().iter().copied().chain(bv));
    assert!(
        (d32 - d64).abs() <= 256.0 * f64::from(f32::EPSILON) * m + 1e-37,
        "f32 {d32:e} against f64 {d64:e} at magnitude {m:e}"
    );
}

fn check_closest_points(s: &Scene) {
    let tree: Bvh<f64, Obb<f64>> = Bvh::build(s.a.clone(), &BuildOptions::default()).unwrap();
    for p in &s.points {
        let c = tree.closest_point(p);
        let t = s.a.triangle(c.triangle as usize);
        assert_on(&c.point, &t, "closest point");
        let m = magnitude([*p, t.a, t.b, t.c]);
        let d = norm(&(c.point - p));
        // `distance_squared` is the separation squared, as far as f64
        // holds a square.
        assert!(
            (c.distance_squared - d * d).abs() <= 4.0 * d * rounding(m) + f64::MIN_POSITIVE,
            "closest point: distance_squared {:e} against separation {d:e}",
            c.distance_squared
        );
        let nearest_corner =
            s.a.vertices()
                .iter()
                .map(|v| norm(&(v - p)))
                .fold(f64::INFINITY, f64::min);
        assert!(
            d <= nearest_corner + rounding(m),
            "closest point: {d:e} above a corner's {nearest_corner:e}"
        );
    }
}

fn check_mesh_convex(s: &Scene) {
    let tree: Bvh<f64, Obb<f64>> = Bvh::build(s.a.clone(), &BuildOptions::default()).unwrap();
    let r = s.size * 0.25;
    let ball = Ball::new(r).unwrap();
    let half = Vector3::new(r, 0.5 * r, 2.0 * r);
    let cuboid = Cuboid::new(half).unwrap();
    let m = magnitude(
        s.a.vertices()
            .iter()
            .copied()
            .chain([Point3::from(s.pose.translation.vector)]),
    ) + 4.0 * r;
    let tol = rounding(m);
    let request = QueryRequest::default();
    if let Some(d) = tree.distance_to_convex(&ball, &s.pose, &request) {
        let [pa, pb] = d.nearest_points;
        assert_on(&pa, &s.a.triangle(d.triangle as usize), "ball: mesh point");
        let from_centre = norm(&(pb - Point3::from(s.pose.translation.vector)));
        // On the sphere when apart (to GJK's tolerance, relative to the
        // shapes' size, on a round shape); in the ball when touching.
        let gjk = tol + 1e-9 * (r + s.size);
        if d.distance > 0.0 {
            assert!(
                (from_centre - r).abs() <= gjk,
                "ball: {pb:?} is {from_centre:e} from the centre, radius {r:e}"
            );
        } else {
            assert!(
                from_centre <= r + tol,
                "ball: common point {pb:?} outside the ball"
            );
        }
        assert!(
            (norm(&(pb - pa)) - d.distance).abs() <= gjk,
            "ball: separation"
        );
    }
    if let Some(d) = tree.distance_to_convex(&cuboid, &s.pose, &request) {
        let [pa, pb] = d.nearest_points;
        assert_on(&pa, &s.a.triangle(d.triangle as usize), "box: mesh point");
        let local = s.pose.inverse_transform_point(&pb);
        let out = (local.coords.abs() - half).max();
        assert!(out <= tol, "box: {pb:?} is {out:e} outside the box");
        assert!(
            (norm(&(pb - pa)) - d.distance).abs() <= tol,
            "box: separation"
        );
    }
}

/// B arriving at A: B translates from its pose to the rotation alone (the
/// translation's end, `t + (-t) · 1`, is exactly 0) over `[0, 1]`, A fixed.
/// When the meshes meet at the end pose, a contact is found, at a time in
/// `[0, 1]`, its point on A's triangle.
fn check_continuous(s: &Scene) {
    use clash_bvh::Motion;
    let a: Bvh<f64, Obb<f64>> = Bvh::build(s.a.clone(), &BuildOptions::default()).unwrap();
    let b: Bvh<f64, Obb<f64>> = Bvh::build(s.b.clone(), &BuildOptions::default()).unwrap();
    let arrival = Motion {
        start: s.pose,
        linear: -s.pose.translation.vector,
        angular: Vector3::zeros(),
    };
    let end = arrival.pose_at(1.0);
    assert_eq!(end.translation.vector, Vector3::zeros());
    let hit = a.time_of_contact(&Motion::fixed(Isometry3::identity()), &b, &arrival, 1.0, 3);
    if a.intersects(&b, end) {
        assert!(
            hit.is_some(),
            "continuous: the contact at the end was missed"
        );
    }
    if let Some(h) = hit {
        assert!((0.0..=1.0).contains(&h.time), "continuous: time {}", h.time);
        assert_on(
            &h.point,
            &s.a.triangle(h.triangles[0] as usize),
            "continuous: contact point",
        );
    }
}
