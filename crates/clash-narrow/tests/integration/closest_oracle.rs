//! Closest points against independent oracles: parry3d 0.31 (f32) and, in
//! f64, convex minimisation by nested ternary search (segment/segment,
//! point/triangle) and dense sampling (optimality of every result).
//!
//! Tolerances: f64 results agree with the ternary-search oracle to
//! `1e-9 * scale`; f32 results agree with parry to `2e-4 * scale`, where
//! `scale` is the coordinate magnitude of the case (1e-3 .. 1e3).

use clash_bv::{Aabb, Obb};
use clash_math::{Matrix3, Point3, Rotation3, Segment, Tetrahedron, Triangle, Vector3};
use clash_narrow::closest::*;
use parry3d::query::PointQuery;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub(crate) type P = Point3<f64>;

pub(crate) fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A random point in a cube of half-side `scale` about `center`.
pub(crate) fn rp(r: &mut ChaCha8Rng, center: &P, scale: f64) -> P {
    center
        + Vector3::new(
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
            r.random_range(-1.0..1.0),
        ) * scale
}

pub(crate) fn scale_of(r: &mut ChaCha8Rng) -> f64 {
    10f64.powf(r.random_range(-3.0..3.0))
}

/// Random triangle, sometimes degenerate (segment or point) or a sliver.
pub(crate) fn rtri(r: &mut ChaCha8Rng, c: &P, s: f64) -> Triangle<f64> {
    let a = rp(r, c, s);
    let b = rp(r, c, s);
    match r.random_range(0..10) {
        0 => Triangle::new(a, b, a + (b - a) * r.random_range(-1.0..2.0)), // collinear
        1 => Triangle::new(a, a, a),                                       // point
        2 => Triangle::new(a, b, b),                                       // segment
        3 => Triangle::new(
            a,
            b,
            nalgebra_lerp(&a, &b, 0.5) + Vector3::new(0.0, 0.0, s * 1e-7),
        ), // sliver
        _ => Triangle::new(a, b, rp(r, c, s)),
    }
}

fn nalgebra_lerp(a: &P, b: &P, t: f64) -> P {
    a + (b - a) * t
}

/// Minimum of a convex function on [lo, hi] by golden-section search
/// (bracket shrunk to 1e-13 of its width), also trying both ends.
fn ternary(lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> (f64, f64) {
    const G: f64 = 0.618_033_988_749_894_8;
    let (mut a, mut b) = (lo, hi);
    let mut x1 = b - G * (b - a);
    let mut x2 = a + G * (b - a);
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..64 {
        if f1 <= f2 {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - G * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + G * (b - a);
            f2 = f(x2);
        }
    }
    let mut best = if f1 <= f2 { (x1, f1) } else { (x2, f2) };
    for c in [lo, hi] {
        let v = f(c);
        if v < best.1 {
            best = (c, v);
        }
    }
    best
}

fn seg_dist_oracle(s1: &Segment<f64>, s2: &Segment<f64>) -> f64 {
    let pt = |p: P, s: &Segment<f64>| ternary(0.0, 1.0, |t| (s.at(t) - p).norm()).1;
    ternary(0.0, 1.0, |s| pt(s1.at(s), s2)).1
}

pub(crate) fn tri_point_oracle(p: &P, t: &Triangle<f64>) -> f64 {
    ternary(0.0, 1.0, |v| {
        ternary(0.0, 1.0 - v, |w| (t.at_barycentric(v, w) - p).norm()).1
    })
    .1
}

fn on_segment(q: &P, s: &Segment<f64>, tol: f64) -> bool {
    let (_, c) = point_segment(q, s);
    (c - q).norm() <= tol
}

fn on_triangle(q: &P, t: &Triangle<f64>, tol: f64) -> bool {
    // Independent of point_triangle: ternary-search distance.
    tri_point_oracle(q, t) <= tol
}

/// Points sampled on a triangle: corners, edge points and a barycentric grid.
pub(crate) fn samples(t: &Triangle<f64>, n: usize) -> Vec<P> {
    let mut out = Vec::new();
    for i in 0..=n {
        for j in 0..=(n - i) {
            out.push(t.at_barycentric(i as f64 / n as f64, j as f64 / n as f64));
        }
    }
    out
}

#[test]
fn closest_point_triangle_vs_ternary_oracle_f64() {
    let mut r = rng(1);
    let mut worst = 0.0_f64;
    for _ in 0..3000 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s * 2.0);
        let t = rtri(&mut r, &c, s);
        let p = rp(&mut r, &c, s * 2.0);
        let q = point_triangle(&p, &t);
        let d = (q.point - p).norm();
        let oracle = tri_point_oracle(&p, &t);
        let tol = 1e-9 * s;
        worst = worst.max((d - oracle).abs() / s);
        assert!(
            (d - oracle).abs() <= tol,
            "d {d} oracle {oracle} p {p:?} t {t:?}"
        );
        // The point lies on the triangle and matches its barycentrics.
        assert!(on_triangle(&q.point, &t, tol));
        let bary = t.a.coords * q.u + t.b.coords * q.v + t.c.coords * q.w;
        assert!(
            (bary - q.point.coords).norm() <= 1e-6 * s,
            "barycentrics {q:?} {t:?}"
        );
        assert!(
            (q.u + q.v + q.w - 1.0).abs() < 1e-9 && q.u >= -1e-12 && q.v >= -1e-12 && q.w >= -1e-12
        );
    }
    println!("point/triangle worst relative error vs ternary oracle: {worst:e}");
}

#[test]
fn closest_point_triangle_vs_parry_f32() {
    let mut r = rng(2);
    let mut disagreements = 0;
    let n = 20000;
    for _ in 0..n {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let t = rtri(&mut r, &c, s);
        let p = rp(&mut r, &c, s * 2.0);
        let tf = Triangle::new(t.a.cast::<f32>(), t.b.cast::<f32>(), t.c.cast::<f32>());
        let pf = p.cast::<f32>();
        let ours = point_triangle(&pf, &tf).point;
        let v = |x: &Point3<f32>| parry3d::math::Vector::new(x.x, x.y, x.z);
        let pt = parry3d::shape::Triangle::new(v(&tf.a), v(&tf.b), v(&tf.c));
        let proj = pt.project_local_point(v(&pf), true);
        let dp = (proj.point - v(&pf)).length();
        let d = (ours - pf).norm();
        if (d - dp).abs() > 2e-4 * s as f32 {
            disagreements += 1;
            // Where parry and we disagree, ours must be the closer one (parry
            // is known to be inexact on degenerate triangles).
            let exact = tri_point_oracle(
                &pf.cast(),
                &Triangle::new(tf.a.cast(), tf.b.cast(), tf.c.cast()),
            );
            assert!(
                (d as f64 - exact).abs() <= 2e-4 * s,
                "ours {d} parry {dp} oracle {exact} {t:?} {p:?}"
            );
        }
    }
    println!(
        "point/triangle vs parry: {disagreements} / {n} disagreements beyond 2e-4*scale (ours verified by oracle)"
    );
}

#[test]
fn closest_segment_segment_oracles() {
    let mut r = rng(3);
    let mut worst = 0.0_f64;
    for i in 0..4000 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let a = rp(&mut r, &c, s);
        let b = rp(&mut r, &c, s);
        let s1 = Segment::new(a, b);
        let s2 = match i % 6 {
            // parallel, offset
            0 => {
                let off = Vector3::new(
                    r.random_range(-1.0..1.0),
                    r.random_range(-1.0..1.0),
                    r.random_range(-1.0..1.0),
                ) * s;
                Segment::new(
                    a + off + (b - a) * r.random_range(-1.0..1.0),
                    b + off + (b - a) * r.random_range(-1.0..1.0),
                )
            }
            // collinear overlapping
            1 => Segment::new(
                a + (b - a) * r.random_range(-0.5..0.5),
                a + (b - a) * r.random_range(0.5..1.5),
            ),
            // degenerate point
            2 => {
                let q = rp(&mut r, &c, s);
                Segment::new(q, q)
            }
            // nearly parallel
            3 => Segment::new(
                a + Vector3::new(0.0, s * 1e-3, 0.0),
                b + Vector3::new(s * 1e-9, 0.0, s * 1e-3),
            ),
            // coincident end point
            4 => Segment::new(b, rp(&mut r, &c, s)),
            _ => Segment::new(rp(&mut r, &c, s), rp(&mut r, &c, s)),
        };
        let res = segment_segment(&s1, &s2);
        let d = res.points.distance();
        let oracle = seg_dist_oracle(&s1, &s2);
        let tol = 1e-9 * s;
        worst = worst.max((d - oracle).abs() / s);
        assert!(
            (d - oracle).abs() <= tol,
            "case {i}: d {d} oracle {oracle} {s1:?} {s2:?}"
        );
        assert!(
            (res.points.a - s1.at(res.s)).norm() <= tol
                && (res.points.b - s2.at(res.t)).norm() <= tol
        );
        assert!((0.0..=1.0).contains(&res.s) && (0.0..=1.0).contains(&res.t));
        assert!(on_segment(&res.points.a, &s1, tol) && on_segment(&res.points.b, &s2, tol));
        // Optimality against a sample grid.
        for k in 0..=20 {
            for l in 0..=20 {
                let e = (s1.at(k as f64 / 20.0) - s2.at(l as f64 / 20.0)).norm();
                assert!(e >= d - tol);
            }
        }
    }
    println!("segment/segment worst relative error vs ternary oracle: {worst:e}");
}

#[test]
fn closest_segment_segment_vs_parry_f32() {
    let mut r = rng(4);
    let v = |x: &Point3<f32>| parry3d::math::Vector::new(x.x, x.y, x.z);
    let id = parry3d::math::Pose::identity();
    let n = 20000;
    let mut disagreements = 0;
    let mut large = 0;
    for _ in 0..n {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let pts: Vec<Point3<f32>> = (0..4).map(|_| rp(&mut r, &c, s).cast::<f32>()).collect();
        let (s1, s2) = (Segment::new(pts[0], pts[1]), Segment::new(pts[2], pts[3]));
        let ours = segment_segment(&s1, &s2).points.distance();
        let g1 = parry3d::shape::Segment::new(v(&pts[0]), v(&pts[1]));
        let g2 = parry3d::shape::Segment::new(v(&pts[2]), v(&pts[3]));
        let theirs = parry3d::query::distance(&id, &g1, &id, &g2)
            .unwrap()
            .distance;
        if (ours - theirs).abs() > 2e-4 * s as f32 {
            disagreements += 1;
            let oracle = seg_dist_oracle(
                &Segment::new(pts[0].cast(), pts[1].cast()),
                &Segment::new(pts[2].cast(), pts[3].cast()),
            );
            if s >= 0.1 {
                large += 1;
            }
            assert!(
                (ours as f64 - oracle).abs() <= 2e-4 * s,
                "ours {ours} parry {theirs} oracle {oracle}"
            );
        }
    }
    // parry's GJK-based segment distance has an absolute tolerance, so it
    // disagrees mostly at small scales; every disagreement is settled by the
    // f64 oracle in our favour.
    println!(
        "segment/segment vs parry: {disagreements} / {n} disagreements ({large} at scale >= 0.1)"
    );
}

pub(crate) fn check_pair_on_triangles(
    cp: &ClosestPoints<f64>,
    t1: &Triangle<f64>,
    t2: &Triangle<f64>,
    tol: f64,
) {
    assert!(on_triangle(&cp.a, t1, tol), "a not on t1");
    assert!(on_triangle(&cp.b, t2, tol), "b not on t2");
    assert!(
        ((cp.a - cp.b).norm_squared() - cp.distance_squared).abs()
            <= tol * tol + 1e-12 * cp.distance_squared
    );
}

#[test]
fn closest_triangle_triangle_sampling_and_parry() {
    let mut r = rng(5);
    let v = |x: &Point3<f32>| parry3d::math::Vector::new(x.x, x.y, x.z);
    let id = parry3d::math::Pose::identity();
    let mut parry_disagreements = 0;
    let mut parry_large = 0;
    let mut intersecting = 0;
    let n = 3000;
    for i in 0..n {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let t1 = rtri(&mut r, &c, s);
        let t2 = if i % 5 == 0 {
            // share a vertex or an edge (touching)
            let q = rp(&mut r, &c, s);
            if i % 10 == 0 {
                Triangle::new(t1.a, t1.b, q)
            } else {
                Triangle::new(t1.c, q, rp(&mut r, &c, s))
            }
        } else {
            rtri(&mut r, &c, s)
        };
        let cp = triangle_triangle(&t1, &t2);
        let d = cp.distance();
        let tol = 1e-8 * s;
        check_pair_on_triangles(&cp, &t1, &t2, tol);
        // Optimality: no sampled pair (or exact point/triangle pair) is closer.
        let (sa, sb) = (samples(&t1, 8), samples(&t2, 8));
        for p in &sa {
            assert!((p - point_triangle(p, &t2).point).norm() >= d - tol);
            for q in &sb {
                assert!(
                    (p - q).norm() >= d - tol,
                    "sample pair closer: {} < {d}",
                    (p - q).norm()
                );
            }
        }
        for q in &sb {
            assert!((q - point_triangle(q, &t1).point).norm() >= d - tol);
        }
        // Intersection agrees with the exact static overlap test.
        let overlap = clash_narrow::overlap::triangle_triangle(&t1, &t2);
        if overlap {
            intersecting += 1;
            assert!(d <= 1e-9 * s, "overlapping triangles at distance {d}");
        } else {
            assert!(d > 0.0 || cp.a == cp.b);
        }
        // parry, f32
        let (f1, f2) = (
            t1.vertices().map(|p| p.cast::<f32>()),
            t2.vertices().map(|p| p.cast::<f32>()),
        );
        let g1 = parry3d::shape::Triangle::new(v(&f1[0]), v(&f1[1]), v(&f1[2]));
        let g2 = parry3d::shape::Triangle::new(v(&f2[0]), v(&f2[1]), v(&f2[2]));
        let theirs = parry3d::query::distance(&id, &g1, &id, &g2)
            .unwrap()
            .distance;
        let ours32 = triangle_triangle(
            &Triangle::new(f1[0], f1[1], f1[2]),
            &Triangle::new(f2[0], f2[1], f2[2]),
        )
        .distance();
        if (ours32 - theirs).abs() > 2e-4 * s as f32 {
            parry_disagreements += 1;
            if s >= 0.1 {
                parry_large += 1;
            }
            // ours (f32) must match our f64 result, which the sampling validated
            assert!(
                (ours32 as f64 - d).abs() <= 2e-4 * s,
                "f32 {ours32} f64 {d} parry {theirs}"
            );
        }
    }
    println!(
        "triangle/triangle: {intersecting} intersecting of {n}; parry f32 disagreements beyond 2e-4*scale: {parry_disagreements} ({parry_large} at scale >= 0.1; parry GJK tolerance is absolute)"
    );
}

#[test]
fn closest_intersecting_triangles_common_point() {
    let mut r = rng(6);
    for _ in 0..2000 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        // t2 pierces t1: one corner above, two below the plane of t1 near its centroid.
        let t1 = Triangle::new(rp(&mut r, &c, s), rp(&mut r, &c, s), rp(&mut r, &c, s));
        let Some(n) = t1.normal() else { continue };
        let g = t1.centroid();
        let u = n
            .cross(&Vector3::x())
            .try_normalize(1e-9)
            .unwrap_or_else(|| n.cross(&Vector3::y()).normalize());
        let t2 = Triangle::new(
            g + n * s * 0.3,
            g - n * s * 0.3 + u * s * 1e-3,
            g - n * s * 0.2 - u * s * 1e-3,
        );
        let cp = triangle_triangle(&t1, &t2);
        assert!(cp.distance() <= 1e-9 * s);
        assert!(on_triangle(&cp.a, &t1, 1e-9 * s) && on_triangle(&cp.a, &t2, 1e-8 * s));
    }
}

#[test]
fn closest_segment_triangle_sampling() {
    let mut r = rng(7);
    for _ in 0..300 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let t = rtri(&mut r, &c, s);
        let seg = Segment::new(rp(&mut r, &c, s), rp(&mut r, &c, s));
        let cp = segment_triangle(&seg, &t);
        let d = cp.distance();
        let tol = 1e-8 * s;
        assert!(on_segment(&cp.a, &seg, tol) && on_triangle(&cp.b, &t, tol));
        // Oracle: convex in the segment parameter.
        let oracle = ternary(0.0, 1.0, |u| tri_point_oracle(&seg.at(u), &t)).1;
        assert!((d - oracle).abs() <= 1e-7 * s, "d {d} oracle {oracle}");
    }
}

#[test]
fn closest_point_boxes_tetrahedron_polyhedron_plane() {
    let mut r = rng(8);
    for _ in 0..3000 {
        let s = scale_of(&mut r);
        let c = rp(&mut r, &P::origin(), s);
        let p = rp(&mut r, &c, 3.0 * s);
        let h = Vector3::new(
            r.random_range(0.0..1.0),
            r.random_range(0.0..1.0),
            r.random_range(0.0..1.0),
        ) * s;
        // AABB: the clamp is optimal: compare to a sampled grid of the box.
        let aabb = Aabb {
            min: c - h,
            max: c + h,
        };
        let q = point_aabb(&p, &aabb);
        let d = (q - p).norm();
        let tol = 1e-9 * s;
        for k in 0..3 {
            assert!(q[k] >= aabb.min[k] - tol && q[k] <= aabb.max[k] + tol);
        }
        for i in 0..=6 {
            for j in 0..=6 {
                for l in 0..=6 {
                    let x = aabb.min
                        + Vector3::new(h.x * i as f64, h.y * j as f64, h.z * l as f64) / 3.0;
                    assert!((x - p).norm() >= d - tol);
                }
            }
        }
        // OBB: rotate the same box; the result is the rotated AABB answer.
        let rot = Rotation3::new(Vector3::new(
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0),
            r.random_range(-3.0..3.0),
        ));
        let axes: Matrix3<f64> = *rot.matrix();
        let obb = Obb {
            center: c,
            axes,
            half_extents: h,
        };
        let local = P::from(rot.inverse() * (p - c));
        let ql = point_aabb(
            &local,
            &Aabb {
                min: P::from(-h),
                max: P::from(h),
            },
        );
        let qo = point_obb(&p, &obb);
        assert!((qo - (c + rot * ql.coords)).norm() <= 1e-9 * s);
        // Plane.
        let plane = clash_math::Plane::from_normal_and_point(rot * Vector3::z(), &c).unwrap();
        let (qp, sd) = point_plane(&p, &plane);
        assert!(
            plane.signed_distance(&qp).abs() <= 1e-9 * s
                && ((qp - p).norm() - sd.abs()).abs() <= 1e-9 * s
        );
        // Tetrahedron (either orientation), and the same solid as a polyhedron.
        let tet = Tetrahedron::new(
            rp(&mut r, &c, s),
            rp(&mut r, &c, s),
            rp(&mut r, &c, s),
            rp(&mut r, &c, s),
        );
        let qt = point_tetrahedron(&p, &tet);
        let dt = (qt - p).norm();
        let faces = tet.faces();
        let inside = {
            let sv = tet.signed_volume();
            faces
                .iter()
                .all(|f| f.scaled_normal().dot(&(p - f.a)) * sv <= 0.0)
        };
        let oracle = if inside {
            0.0
        } else {
            faces
                .iter()
                .map(|f| tri_point_oracle(&p, f))
                .fold(f64::INFINITY, f64::min)
        };
        assert!(
            (dt - oracle).abs() <= 1e-7 * s,
            "tet d {dt} oracle {oracle}"
        );
        let verts = tet.vertices();
        let idx: Vec<[usize; 3]> = if tet.signed_volume() >= 0.0 {
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]
        } else {
            vec![[0, 1, 2], [0, 3, 1], [0, 2, 3], [1, 3, 2]]
        };
        let qh = point_convex_polyhedron(
            &p,
            &ConvexPolyhedron {
                vertices: &verts,
                faces: &idx,
            },
        )
        .unwrap();
        assert!(
            ((qh - p).norm() - oracle).abs() <= 1e-7 * s,
            "poly {} oracle {oracle}",
            (qh - p).norm()
        );
    }
}
