//! Ray casts against independent oracles: parry3d 0.31 (f32) for triangles,
//! and, for solids, a signed-distance oracle written here: the ray is
//! sampled densely and the first inside sample is refined by bisection.
//! Plus the watertightness test of the triangle cast on fans and grids.

use clash_bv::{Aabb, Capsule, Obb, Sphere};
use clash_math::{Matrix3, Plane, Point3, Ray, Rotation3, Segment, Triangle, Vector3};
use clash_narrow::cast::*;
use parry3d::query::RayCast;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

type P = Point3<f64>;
type V = Vector3<f64>;

fn rv(r: &mut ChaCha8Rng) -> V {
    V::new(
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
        r.random_range(-1.0..1.0),
    )
}

fn seg_dist(p: &P, a: &P, b: &P) -> f64 {
    let ab = b - a;
    let t = if ab.norm_squared() == 0.0 {
        0.0
    } else {
        ((p - a).dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0)
    };
    (p - (a + ab * t)).norm()
}

/// Oracle for a solid given by a signed distance `sd` (negative inside):
/// first `t` in `[0, t_max]` with `sd <= 0`, sampled on `n` steps and refined
/// by bisection; `None` when no sample is inside.
fn first_inside(ray: &Ray<f64>, t_max: f64, n: usize, sd: &impl Fn(&P) -> f64) -> Option<f64> {
    if sd(&ray.origin) <= 0.0 {
        return Some(0.0);
    }
    let mut prev = 0.0;
    for k in 1..=n {
        let t = t_max * k as f64 / n as f64;
        if sd(&ray.at(t)) <= 0.0 {
            let (mut lo, mut hi) = (prev, t);
            for _ in 0..80 {
                let m = 0.5 * (lo + hi);
                if sd(&ray.at(m)) <= 0.0 {
                    hi = m
                } else {
                    lo = m
                }
            }
            return Some(hi);
        }
        prev = t;
    }
    None
}

/// Compares a cast with the oracle. A hit the sampling missed must be a
/// genuine surface point (|sd| small) whose chord is shorter than a step.
fn check_solid(
    name: &str,
    ray: &Ray<f64>,
    hit: Option<RayHit<f64>>,
    sd: impl Fn(&P) -> f64,
    stats: &mut [usize; 3],
) {
    let t_max = 1.0;
    let n = 400;
    let step = t_max / n as f64;
    let oracle = first_inside(ray, t_max, n, &sd);
    let tol = 1e-7 * (1.0 + ray.dir.norm());
    match (hit, oracle) {
        (Some(h), Some(t)) => {
            stats[0] += 1;
            assert!(
                (h.t - t).abs() <= tol,
                "{name}: t {} oracle {t} ray {ray:?}",
                h.t
            );
            assert!((h.point - ray.at(h.t)).norm() <= 1e-9 * (1.0 + ray.at(h.t).coords.norm()));
            if h.t > 0.0 {
                assert!(
                    sd(&h.point).abs() <= tol,
                    "{name}: hit point off surface {}",
                    sd(&h.point)
                );
                assert!(
                    (h.normal.norm() - 1.0).abs() < 1e-9,
                    "{name}: normal {:?}",
                    h.normal
                );
                // outward: stepping back along the normal leaves the solid
                assert!(
                    sd(&(h.point + h.normal * 1e-6)) > 0.0,
                    "{name}: normal not outward"
                );
            } else {
                assert_eq!(h.normal, V::zeros());
            }
        }
        (None, None) => stats[1] += 1,
        (Some(h), None) => {
            stats[2] += 1;
            assert!(
                sd(&h.point).abs() <= tol,
                "{name}: spurious hit t {} sd {}",
                h.t,
                sd(&h.point)
            );
            // the chord must be shorter than a sampling step
            let after = first_inside(&Ray::new(h.point, ray.dir), step, 1, &|p| -sd(p));
            assert!(
                after.is_some() || sd(&ray.at((h.t + step).min(1.0))) > 0.0,
                "{name}: long chord missed by oracle"
            );
        }
        (None, Some(t)) => panic!("{name}: missed a hit at t {t}, ray {ray:?}"),
    }
}

#[test]
fn cast_solids_vs_sampling_oracle() {
    let mut r = ChaCha8Rng::seed_from_u64(11);
    let mut stats = [[0usize; 3]; 7];
    for i in 0..20000 {
        let c = P::from(rv(&mut r) * 0.5);
        let origin = P::from(rv(&mut r) * 2.0);
        // aim near the shape most of the time
        let target = c + rv(&mut r) * 0.8;
        let ray = Ray::new(origin, (target - origin) * r.random_range(0.5..2.0));
        let rad = r.random_range(0.05..0.6);
        // sphere
        let sp = Sphere {
            center: c,
            radius: rad,
        };
        check_solid(
            "sphere",
            &ray,
            ray_sphere(&ray, &sp, 0.0, 1.0),
            |p| (p - c).norm() - rad,
            &mut stats[0],
        );
        // aabb
        let h = V::new(
            r.random_range(0.0..0.6),
            r.random_range(0.0..0.6),
            r.random_range(0.0..0.6),
        );
        let bsd = |q: &V, h: &V| {
            let d = q.abs() - h;
            d.sup(&V::zeros()).norm() + d.max().min(0.0)
        };
        let aabb = Aabb {
            min: c - h,
            max: c + h,
        };
        check_solid(
            "aabb",
            &ray,
            ray_aabb(&ray, &aabb, 0.0, 1.0),
            |p| bsd(&(p - c), &h),
            &mut stats[1],
        );
        // obb
        let rot = Rotation3::new(rv(&mut r) * 3.0);
        let axes: Matrix3<f64> = *rot.matrix();
        let obb = Obb {
            center: c,
            axes,
            half_extents: h,
        };
        check_solid(
            "obb",
            &ray,
            ray_obb(&ray, &obb, 0.0, 1.0),
            |p| bsd(&(rot.inverse() * (p - c)), &h),
            &mut stats[2],
        );
        // capsule
        let (a, b) = (c + rv(&mut r) * 0.5, c + rv(&mut r) * 0.5);
        let cap = Capsule {
            segment: Segment::new(a, b),
            radius: rad,
        };
        check_solid(
            "capsule",
            &ray,
            ray_capsule(&ray, &cap, 0.0, 1.0),
            |p| seg_dist(p, &a, &b) - rad,
            &mut stats[3],
        );
        // cylinder
        let cyl = Cylinder {
            segment: Segment::new(a, b),
            radius: rad,
        };
        let axis = (b - a).normalize();
        let len = (b - a).norm();
        let csd = |p: &P| {
            let w = p - a;
            let along = w.dot(&axis);
            let radial = (w - axis * along).norm() - rad;
            let cap = (along - len * 0.5).abs() - len * 0.5;
            let d = clash_math::nalgebra::Vector2::new(radial, cap);
            d.sup(&clash_math::nalgebra::Vector2::zeros()).norm() + radial.max(cap).min(0.0)
        };
        check_solid(
            "cylinder",
            &ray,
            ray_cylinder(&ray, &cyl, 0.0, 1.0),
            csd,
            &mut stats[4],
        );
        // convex polyhedron: the OBB as six planes
        let mut planes = Vec::new();
        for k in 0..3 {
            let n = axes.column(k).into_owned();
            planes.push(Plane::from_normal_and_point(n, &(c + n * h[k])).unwrap());
            planes.push(Plane::from_normal_and_point(-n, &(c - n * h[k])).unwrap());
        }
        check_solid(
            "polyhedron",
            &ray,
            ray_convex_polyhedron(&ray, &planes, 0.0, 1.0),
            |p| bsd(&(rot.inverse() * (p - c)), &h),
            &mut stats[5],
        );
        // plane: crossing of the line with the plane, by the sign change
        let pl = planes[i % 6];
        let hit = ray_plane(&ray, &pl, 0.0, 1.0);
        let (s0, s1) = (
            pl.signed_distance(&ray.origin),
            pl.signed_distance(&ray.at(1.0)),
        );
        if s0 * s1 < 0.0 {
            let h = hit.expect("plane crossing missed");
            assert!(pl.signed_distance(&h.point).abs() < 1e-9);
            assert!(h.normal.dot(&ray.dir) < 0.0);
            stats[6][0] += 1;
        } else if s0 * s1 > 0.0 {
            assert!(hit.is_none());
            stats[6][1] += 1;
        }
    }
    println!(
        "[hit agree, miss agree, hit with chord < step] per shape (sphere aabb obb capsule cylinder polyhedron plane): {stats:?}"
    );
}

#[test]
fn cast_interval_and_segment_and_inside() {
    let sp = Sphere {
        center: P::new(0.0, 0.0, 5.0),
        radius: 1.0,
    };
    let ray = Ray::new(P::origin(), V::z());
    assert!((ray_sphere(&ray, &sp, 0.0, f64::INFINITY).unwrap().t - 4.0).abs() < 1e-12);
    assert!(ray_sphere(&ray, &sp, 0.0, 3.9).is_none());
    // interval starting inside the sphere
    let h = ray_sphere(&ray, &sp, 5.0, 10.0).unwrap();
    assert_eq!((h.t, h.normal), (5.0, V::zeros()));
    // a segment is a ray on [0, 1]
    let seg = Segment::new(P::new(0.0, 0.0, 0.0), P::new(0.0, 0.0, 8.0));
    assert!((ray_sphere(&segment_ray(&seg), &sp, 0.0, 1.0).unwrap().t - 0.5).abs() < 1e-12);
    // non-finite input: None, no panic
    let bad = Ray::new(P::new(f64::NAN, 0.0, 0.0), V::z());
    assert!(ray_sphere(&bad, &sp, 0.0, 1.0).is_none());
    let tri = Triangle::new(
        P::new(-1.0, -1.0, 1.0),
        P::new(1.0, -1.0, 1.0),
        P::new(0.0, 1.0, 1.0),
    );
    assert!(ray_triangle(&bad, &tri, Culling::BothSides, 0.0, 10.0).is_none());
    assert!(
        ray_aabb(
            &Ray::new(P::origin(), V::new(f64::INFINITY, 0.0, 0.0)),
            &Aabb {
                min: P::new(1.0, -1.0, -1.0),
                max: P::new(2.0, 1.0, 1.0)
            },
            0.0,
            1.0
        )
        .is_none()
    );
    assert!(ray_triangle(&ray, &tri, Culling::BothSides, f64::NAN, 10.0).is_none());
    // culling: the triangle is counter-clockwise seen from +z, so a ray going
    // down (-z) hits its front; ours goes up: back face.
    assert!(ray_triangle(&ray, &tri, Culling::FrontOnly, 0.0, 10.0).is_none());
    let h = ray_triangle(&ray, &tri, Culling::BothSides, 0.0, 10.0).unwrap();
    assert!(!h.front && (h.t - 1.0).abs() < 1e-15);
    let down = Ray::new(P::new(0.0, 0.0, 3.0), -V::z());
    assert!(
        ray_triangle(&down, &tri, Culling::FrontOnly, 0.0, 10.0)
            .unwrap()
            .front
    );
}

fn pv(p: &Point3<f32>) -> parry3d::math::Vector {
    parry3d::math::Vector::new(p.x, p.y, p.z)
}

#[test]
fn cast_ray_triangle_vs_parry_and_f64() {
    let mut r = ChaCha8Rng::seed_from_u64(12);
    let n = 50000;
    let (mut hits, mut misses, mut parry_dis, mut f64_dis) = (0, 0, 0, 0);
    for _ in 0..n {
        let s = 10f64.powf(r.random_range(-3.0..3.0));
        let c = rv(&mut r) * s;
        let tri = Triangle::new(
            P::from(c + rv(&mut r) * s),
            P::from(c + rv(&mut r) * s),
            P::from(c + rv(&mut r) * s),
        );
        let origin = P::from(c + rv(&mut r) * 3.0 * s);
        let target = P::from(c + rv(&mut r) * s);
        let ray = Ray::new(origin, target - origin);
        // f64 oracle: plane parameter + barycentric sign test with a margin
        let nrm = tri.scaled_normal();
        let denom = nrm.dot(&ray.dir);
        let t_or = nrm.dot(&(tri.a - ray.origin)) / denom;
        let x = ray.at(t_or);
        let b = [
            (tri.c - tri.b).cross(&(x - tri.b)).dot(&nrm),
            (tri.a - tri.c).cross(&(x - tri.c)).dot(&nrm),
            (tri.b - tri.a).cross(&(x - tri.a)).dot(&nrm),
        ];
        let margin = 1e-9 * nrm.norm_squared();
        let inside = b.iter().all(|v| *v > margin) && t_or > 0.0 && t_or < 10.0;
        let outside = b.iter().any(|v| *v < -margin) || !(-1e-9..=10.0 + 1e-9).contains(&t_or);
        let ours = ray_triangle(&ray, &tri, Culling::BothSides, 0.0, 10.0);
        match ours {
            Some(h) => {
                hits += 1;
                if outside {
                    f64_dis += 1;
                }
                assert!(!outside, "spurious hit {h:?}");
                assert!(
                    (h.t - t_or).abs() <= 1e-9 * t_or.abs().max(1.0) * 100.0,
                    "t {} oracle {t_or}",
                    h.t
                );
                let bary = tri.a.coords * h.u + tri.b.coords * h.v + tri.c.coords * h.w;
                assert!((P::from(bary) - ray.at(h.t)).norm() <= 1e-9 * s * 10.0);
                assert!(h.front == (denom < 0.0));
            }
            None => {
                misses += 1;
                if inside {
                    f64_dis += 1;
                }
                assert!(!inside, "missed hit at {t_or}");
            }
        }
        // parry, f32 (hit/miss agreement away from edges, and t)
        let tf = Triangle::new(
            tri.a.cast::<f32>(),
            tri.b.cast::<f32>(),
            tri.c.cast::<f32>(),
        );
        let rf = Ray::new(ray.origin.cast::<f32>(), ray.dir.cast::<f32>());
        let ours32 = ray_triangle(&rf, &tf, Culling::BothSides, 0.0, 10.0);
        let pt = parry3d::shape::Triangle::new(pv(&tf.a), pv(&tf.b), pv(&tf.c));
        let pr = parry3d::query::Ray::new(
            pv(&rf.origin),
            parry3d::math::Vector::new(rf.dir.x, rf.dir.y, rf.dir.z),
        );
        let theirs = pt.cast_local_ray(&pr, 10.0, true);
        let clear = b.iter().all(|v| v.abs() > 1e-4 * nrm.norm_squared())
            && (t_or.abs() > 1e-4)
            && (t_or - 10.0).abs() > 1e-4;
        match (ours32, theirs) {
            (Some(h), Some(t)) => assert!(
                ((h.t - t) as f64).abs() <= 1e-3 * (t as f64).abs().max(1.0),
                "f32 t {} parry {t}",
                h.t
            ),
            (None, None) => {}
            _ => {
                parry_dis += 1;
                assert!(
                    !clear,
                    "f32 disagreement with parry away from edges: ours {ours32:?} parry {theirs:?}"
                );
            }
        }
    }
    println!(
        "ray/triangle: {hits} hits, {misses} misses of {n}; f64 oracle disagreements {f64_dis}; parry f32 disagreements (all within 1e-4 of an edge) {parry_dis}"
    );
}

/// Vertices of a jittered grid, triangulated two ways per cell.
fn grid<T: clash_math::Scalar>(n: usize, r: &mut ChaCha8Rng) -> Vec<Triangle<T>> {
    let mut v = vec![vec![Point3::origin(); n + 1]; n + 1];
    for (i, row) in v.iter_mut().enumerate() {
        for (j, p) in row.iter_mut().enumerate() {
            let jit = |r: &mut ChaCha8Rng| r.random_range(-0.3..0.3);
            *p = Point3::new(
                T::lit(i as f64 + jit(r)),
                T::lit(j as f64 + jit(r)),
                T::lit(jit(r) / 3.0),
            );
        }
    }
    let mut out = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let (a, b, c, d) = (v[i][j], v[i + 1][j], v[i + 1][j + 1], v[i][j + 1]);
            if (i + j) % 2 == 0 {
                out.push(Triangle::new(a, b, c));
                out.push(Triangle::new(a, c, d));
            } else {
                out.push(Triangle::new(a, b, d));
                out.push(Triangle::new(b, c, d));
            }
        }
    }
    out
}

fn watertight<T: clash_math::Scalar>(seed: u64) -> (usize, usize) {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let n = 8;
    let tris = grid::<T>(n, &mut r);
    let mut rays = 0;
    let mut double = 0;
    for tri in &tris {
        // targets: each vertex and points on each edge (computed in T, so they
        // are as close to the edge as T allows), avoiding the grid border
        let mut targets = vec![tri.a, tri.b, tri.c];
        for e in tri.edges() {
            for k in 1..8 {
                targets.push(e.at(T::lit(k as f64 / 8.0)));
            }
        }
        for target in targets {
            let inner = |x: T| x.to_f64() > 0.4 && x.to_f64() < n as f64 - 0.4;
            if !(inner(target.x) && inner(target.y)) {
                continue;
            }
            for _ in 0..4 {
                // Steep rays (|horizontal| <= 0.35 |vertical|), so the jittered
                // height field (slope <= 0.5) never folds over as seen along
                // the ray: the union of the triangles covers a neighbourhood
                // of every interior target and no ray may miss all of them.
                let dz = r.random_range(1.0..40.0) * if r.random_bool(0.5) { 1.0 } else { -1.0 };
                let off = Vector3::new(
                    r.random_range(-0.25..0.25) * dz,
                    r.random_range(-0.25..0.25) * dz,
                    dz,
                );
                let origin = Point3::new(
                    target.x + T::lit(off.x),
                    target.y + T::lit(off.y),
                    target.z + T::lit(off.z),
                );
                let ray = Ray::new(origin, target - origin);
                let count = tris
                    .iter()
                    .filter(|t| {
                        ray_triangle(&ray, t, Culling::BothSides, T::ZERO, T::lit(2.0)).is_some()
                    })
                    .count();
                assert!(count >= 1, "ray slipped between triangles: {ray:?}");
                rays += 1;
                if count > 1 {
                    double += 1;
                }
            }
        }
    }
    (rays, double)
}

#[test]
fn cast_ray_triangle_watertight_grid() {
    let (r32, d32) = watertight::<f32>(13);
    let (r64, d64) = watertight::<f64>(14);
    println!(
        "watertight: f32 {r32} rays at edges/vertices, all hit ({d32} hit more than one); f64 {r64} rays ({d64} multi)"
    );
}

#[test]
fn cast_ray_triangle_watertight_fan() {
    // A fan around a shared centre vertex; rays through the centre exactly.
    for (k, n) in [3usize, 5, 7, 16].iter().enumerate() {
        let mut r = ChaCha8Rng::seed_from_u64(20 + k as u64);
        let centre = Point3::new(0.1_f32, -0.3, 0.2);
        let ring: Vec<Point3<f32>> = (0..*n)
            .map(|i| {
                let a = i as f32 / *n as f32 * std::f32::consts::TAU;
                Point3::new(a.cos(), a.sin(), r.random_range(-0.3..0.3))
            })
            .collect();
        let fan: Vec<Triangle<f32>> = (0..*n)
            .map(|i| Triangle::new(centre, ring[i], ring[(i + 1) % n]))
            .collect();
        for _ in 0..2000 {
            // steep rays: the fan (slope <= 0.5) does not fold as seen along them
            let dz: f32 = r.random_range(1.0..5.0) * if r.random_bool(0.5) { 1.0 } else { -1.0 };
            let origin = centre
                + Vector3::new(
                    r.random_range(-0.3..0.3) * dz,
                    r.random_range(-0.3..0.3) * dz,
                    dz,
                );
            let ray = Ray::new(origin, centre - origin);
            let hits = fan
                .iter()
                .filter(|t| ray_triangle(&ray, t, Culling::BothSides, 0.0, 2.0).is_some())
                .count();
            assert!(hits >= 1, "ray through the fan centre slipped: {ray:?}");
        }
    }
}

/// What a BVH ray query relies on: a ray that hits a triangle also hits the
/// triangle's bounding box, with the hit inside the box's interval, even for
/// rays grazing the triangle's edges (where the box is tight).
fn box_contains_triangle_hits<T: clash_math::Scalar>(seed: u64) -> usize {
    let mut r = ChaCha8Rng::seed_from_u64(seed);
    let mut hits = 0;
    for _ in 0..20000 {
        let s = 10f64.powf(r.random_range(-3.0..3.0));
        let c = rv(&mut r) * s;
        let p = |r: &mut ChaCha8Rng| {
            let x = c + rv(r) * s;
            Point3::new(T::lit(x.x), T::lit(x.y), T::lit(x.z))
        };
        // axis-aligned triangles make the box flat: the hardest case
        let mut tri = Triangle::new(p(&mut r), p(&mut r), p(&mut r));
        if r.random_bool(0.3) {
            tri.b.z = tri.a.z;
            tri.c.z = tri.a.z;
        }
        let origin = p(&mut r);
        // aim at an edge point or a corner
        let e = tri.edges()[r.random_range(0..3)];
        let target = e.at(T::lit(r.random_range(0.0..1.0)));
        let ray = Ray::new(origin, target - origin);
        let aabb = Aabb {
            min: tri.a.coords.inf(&tri.b.coords).inf(&tri.c.coords).into(),
            max: tri.a.coords.sup(&tri.b.coords).sup(&tri.c.coords).into(),
        };
        if let Some(h) = ray_triangle(&ray, &tri, Culling::BothSides, T::ZERO, T::lit(2.0)) {
            hits += 1;
            let (t0, t1, _) = ray_aabb_interval(&ray, &aabb, T::ZERO, T::lit(2.0))
                .expect("box missed by a ray that hits its triangle");
            let slack = T::lit(1e-5) * (T::ONE + h.t);
            assert!(
                t0 <= h.t + slack && h.t <= t1 + slack,
                "hit {} outside box interval [{t0}, {t1}]",
                h.t
            );
        }
    }
    hits
}

#[test]
fn cast_box_of_triangle_never_misses_its_hits() {
    let h32 = box_contains_triangle_hits::<f32>(15);
    let h64 = box_contains_triangle_hits::<f64>(16);
    println!("triangle hits inside their AABB's slab interval: f32 {h32}, f64 {h64} (all)");
    assert!(h32 > 1000 && h64 > 1000);
}
