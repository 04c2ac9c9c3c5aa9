//! Cases for the convex-shape benchmark: the same shapes for clash-convex
//! and parry3d-f64 (parry's round solids run along y, ours along z: its
//! poses get a quarter turn about x), poses placed at a signed distance of
//! a multiple of the shapes' size, and brute-force references for the
//! polytope cases.

use clash_convex::query::{QueryRequest, contact};
use clash_convex::{Ball, CapsuleShape, Cone, ConvexHull, Cuboid, Cylinder, Shape};
use clash_math::{Isometry3, Point3, Translation3, Triangle, UnitQuaternion, Vector3};
use parry3d_f64::math::{Pose, Rotation, Vector as PVector};
use parry3d_f64::shape::SharedShape;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A polytope as its vertices and triangles.
pub type Polytope = (Vec<Point3<f64>>, Vec<[u32; 3]>);

/// A shape in both libraries.
#[derive(Clone)]
pub struct Both {
    /// Ours.
    pub ours: Shape<f64>,
    /// Parry's.
    pub theirs: SharedShape,
    /// Parry's shape runs along y where ours runs along z.
    pub turned: bool,
    /// Its polytope for the reference (vertices, triangles), if it is one.
    pub poly: Option<Polytope>,
}

impl Both {
    pub fn ball(r: f64) -> Self {
        Self {
            ours: Ball::new(r).unwrap().into(),
            theirs: SharedShape::ball(r),
            turned: false,
            poly: None,
        }
    }
    pub fn cuboid(h: Vector3<f64>) -> Self {
        let mut pts = Vec::new();
        for k in 0..8 {
            pts.push(Point3::new(
                if k & 1 == 0 { -h.x } else { h.x },
                if k & 2 == 0 { -h.y } else { h.y },
                if k & 4 == 0 { -h.z } else { h.z },
            ));
        }
        let hull = ConvexHull::new(&pts).unwrap();
        Self {
            ours: Cuboid::new(h).unwrap().into(),
            theirs: SharedShape::cuboid(h.x, h.y, h.z),
            turned: false,
            poly: Some((hull.vertices().to_vec(), hull.triangles().to_vec())),
        }
    }
    pub fn capsule(hh: f64, r: f64) -> Self {
        Self {
            ours: CapsuleShape::new(hh, r).unwrap().into(),
            theirs: SharedShape::capsule_y(hh, r),
            turned: true,
            poly: None,
        }
    }
    pub fn cylinder(hh: f64, r: f64) -> Self {
        Self {
            ours: Cylinder::new(hh, r).unwrap().into(),
            theirs: SharedShape::cylinder(hh, r),
            turned: true,
            poly: None,
        }
    }
    pub fn cone(hh: f64, r: f64) -> Self {
        Self {
            ours: Cone::new(hh, r).unwrap().into(),
            theirs: SharedShape::cone(hh, r),
            turned: true,
            poly: None,
        }
    }
    pub fn hull(points: &[Point3<f64>]) -> Self {
        let hull = ConvexHull::new(points).unwrap();
        let pv: Vec<PVector> = hull
            .vertices()
            .iter()
            .map(|p| PVector::new(p.x, p.y, p.z))
            .collect();
        Self {
            theirs: SharedShape::convex_hull(&pv).expect("parry hull"),
            poly: Some((hull.vertices().to_vec(), hull.triangles().to_vec())),
            ours: Arc::new(hull).into(),
            turned: false,
        }
    }
    /// Diameter of the bounding sphere.
    pub fn size(&self) -> f64 {
        2.0 * clash_convex::shape::bounding::bounding_sphere(&self.ours, &Isometry3::identity())
            .radius
    }
    /// Parry's pose for our `pose`.
    pub fn parry_pose(&self, pose: &Isometry3<f64>) -> Pose {
        let p = if self.turned {
            pose * UnitQuaternion::from_axis_angle(&Vector3::x_axis(), std::f64::consts::FRAC_PI_2)
        } else {
            *pose
        };
        let q = p.rotation.quaternion();
        let t = p.translation.vector;
        Pose::from_parts(
            PVector::new(t.x, t.y, t.z),
            Rotation::from_xyzw(q.i, q.j, q.k, q.w),
        )
    }
}

/// One query: two shapes and their poses in both libraries.
pub struct Sample {
    pub a: Both,
    pub b: Both,
    pub pose_a: Isometry3<f64>,
    pub pose_b: Isometry3<f64>,
    pub parry_a: Pose,
    pub parry_b: Pose,
    /// The reference signed distance, when the pair is polytopes.
    pub reference: Option<f64>,
    pub size: f64,
}

/// A uniformly random rotation.
pub fn rotation(r: &mut ChaCha8Rng) -> UnitQuaternion<f64> {
    loop {
        let v = Vector3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        );
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return UnitQuaternion::from_scaled_axis(
                v / n * r.random_range(0.0..std::f64::consts::PI),
            );
        }
    }
}

/// `n` samples of pairs drawn from `pairs`, each placed at signed distance
/// `separation` times the pair's size (moved along the contact normal until
/// clash's contact says so within 1e-9 of the size), with the brute-force
/// reference when `reference` is set.
pub fn samples(
    pairs: &[(Both, Both)],
    separation: f64,
    n: usize,
    seed: u64,
    reference: bool,
) -> Vec<Sample> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let tight = QueryRequest {
        tolerance: 1e-13,
        max_iterations: 1000,
        ..QueryRequest::default()
    };
    (0..n)
        .map(|k| {
            let (a, b) = pairs[k % pairs.len()].clone();
            let size = a.size().max(b.size());
            let target = separation * size;
            let pose_a = Isometry3::from_parts(Translation3::identity(), rotation(&mut r));
            let dir = rotation(&mut r) * Vector3::x();
            let mut pose_b =
                Isometry3::from_parts(Translation3::from(dir * (size + target)), rotation(&mut r));
            for _ in 0..50 {
                let c = contact(&a.ours, &pose_a, &b.ours, &pose_b, &tight);
                let err = target - c.distance;
                if err.abs() <= 1e-9 * size {
                    break;
                }
                pose_b.translation.vector += c.normal * err;
            }
            let reference = match (&a.poly, &b.poly) {
                (Some(pa), Some(pb)) if reference && pa.0.len() <= 160 && pb.0.len() <= 160 => {
                    Some(polytope_signed_distance(pa, &pose_a, pb, &pose_b))
                }
                _ => None,
            };
            Sample {
                parry_a: a.parry_pose(&pose_a),
                parry_b: b.parry_pose(&pose_b),
                a,
                b,
                pose_a,
                pose_b,
                reference,
                size,
            }
        })
        .collect()
}

/// Brute-force signed distance of two placed polytopes: the minimum over
/// triangle pairs when apart (exact triangle tests decide), the least
/// overlap over face normals and edge cross products when overlapping.
fn polytope_signed_distance(
    a: &(Vec<Point3<f64>>, Vec<[u32; 3]>),
    pose_a: &Isometry3<f64>,
    b: &(Vec<Point3<f64>>, Vec<[u32; 3]>),
    pose_b: &Isometry3<f64>,
) -> f64 {
    let place = |(v, t): &(Vec<Point3<f64>>, Vec<[u32; 3]>), pose: &Isometry3<f64>| {
        let v: Vec<Point3<f64>> = v.iter().map(|p| pose * p).collect();
        let tris: Vec<Triangle<f64>> = t
            .iter()
            .map(|f| Triangle::new(v[f[0] as usize], v[f[1] as usize], v[f[2] as usize]))
            .collect();
        let mut edges = Vec::new();
        for f in t {
            for k in 0..3 {
                let (i, j) = (f[k], f[(k + 1) % 3]);
                if i < j {
                    edges.push(v[j as usize] - v[i as usize]);
                }
            }
        }
        (v, tris, edges)
    };
    let (va, ta, ea) = place(a, pose_a);
    let (vb, tb, eb) = place(b, pose_b);
    let inside = |v: &[Point3<f64>], t: &[Triangle<f64>], p: &Point3<f64>| {
        t.iter()
            .all(|t| clash_math::predicates::orient3d(&t.a, &t.b, &t.c, p) <= 0.0)
            && !v.is_empty()
    };
    let meet = ta.iter().any(|x| {
        tb.iter()
            .any(|y| clash_narrow::overlap::triangle_triangle(x, y))
    }) || inside(&vb, &tb, &va[0])
        || inside(&va, &ta, &vb[0]);
    if !meet {
        let mut best = f64::INFINITY;
        for x in &ta {
            for y in &tb {
                best = best.min(clash_narrow::closest::triangle_triangle(x, y).distance_squared);
            }
        }
        return best.sqrt();
    }
    let support = |v: &[Point3<f64>], u: &Vector3<f64>| {
        v.iter()
            .map(|p| p.coords.dot(u))
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let mut axes: Vec<Vector3<f64>> = ta.iter().chain(&tb).filter_map(|t| t.normal()).collect();
    for x in &ea {
        for y in &eb {
            let c = x.cross(y);
            if c.norm() > 1e-12 * x.norm() * y.norm() {
                axes.push(c.normalize());
            }
        }
    }
    let depth = axes
        .iter()
        .map(|u| (support(&va, u) + support(&vb, &-u)).min(support(&vb, u) + support(&va, &-u)))
        .fold(f64::INFINITY, f64::min);
    -depth
}

/// `n` random points on the unit sphere: a hull with (nearly) `n` vertices.
pub fn sphere_points(n: usize, seed: u64) -> Vec<Point3<f64>> {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| Point3::from(rotation(&mut r) * Vector3::new(r.random_range(0.6..1.0), 0.0, 0.0)))
        .map(|p| Point3::from(p.coords.normalize()))
        .collect()
}

/// The convex hulls of the Panda arm's collision meshes (`data/robots/panda/meshes/collision`).
pub fn panda_hulls() -> Vec<(String, Both)> {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../data/robots/panda/meshes/collision"
    );
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("data/robots/panda")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "stl"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let tris = clash_benches::read_stl(p).expect("panda STL");
            let pts: Vec<Point3<f64>> = clash_benches::corners(&tris)
                .iter()
                .map(|p| p.cast())
                .collect();
            (
                p.file_stem().unwrap().to_string_lossy().into_owned(),
                Both::hull(&pts),
            )
        })
        .collect()
}
