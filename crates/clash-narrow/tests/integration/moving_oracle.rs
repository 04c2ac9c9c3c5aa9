//! Moving tests against independent static tests written here (15-axis SAT
//! for OBB/OBB, 13-axis SAT for triangle/OBB, the crate's exact
//! `overlap::triangle_triangle` for triangles, distances for spheres), on
//! random cases:
//!
//! * the reported first time `t*` is right: disjoint at `t* - ε` and touching
//!   (SAT gap <= tolerance) at `t* + ε`, and the contact point lies on both
//!   shapes at `t*`;
//! * dense sampling of `[0, T]` (every 10th case, 101 samples): whenever a
//!   sampled static test finds contact, the moving test reports one with
//!   `t* <=` the first sampled contact time; so a reported "no contact" is
//!   never contradicted by sampling. (A reported contact that sampling misses
//!   is allowed: a brief contact falls between samples; the `t* ± ε` check
//!   covers those.)

use clash_bv::{Aabb, Obb, Sphere};
use clash_math::{Matrix3, Plane, Point3, Rotation3, Triangle, Vector3};
use clash_narrow::closest;
use clash_narrow::moving::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

type P = Point3<f64>;
type V = Vector3<f64>;

fn rv(r: &mut ChaCha8Rng, s: f64) -> V {
    V::new(
        r.random_range(-s..s),
        r.random_range(-s..s),
        r.random_range(-s..s),
    )
}

fn robb(r: &mut ChaCha8Rng) -> Obb<f64> {
    let rot = Rotation3::new(rv(r, 3.2));
    let axes: Matrix3<f64> = *rot.matrix();
    Obb {
        center: P::from(rv(r, 3.0)),
        axes,
        half_extents: V::new(
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
        ),
    }
}

fn rtri(r: &mut ChaCha8Rng) -> Triangle<f64> {
    let c = rv(r, 3.0);
    Triangle::new(
        P::from(c + rv(r, 1.0)),
        P::from(c + rv(r, 1.0)),
        P::from(c + rv(r, 1.0)),
    )
}

fn shift_obb(o: &Obb<f64>, v: &V, t: f64) -> Obb<f64> {
    Obb {
        center: o.center + v * t,
        ..*o
    }
}

fn shift_tri(t: &Triangle<f64>, v: &V, s: f64) -> Triangle<f64> {
    Triangle::new(t.a + v * s, t.b + v * s, t.c + v * s)
}

/// Largest separation gap over the candidate axes (positive: separated by at
/// least that much; <= 0: no axis separates). Independent brute force.
fn sat_gap(
    axes: &[V],
    proj_a: impl Fn(&V) -> (f64, f64),
    proj_b: impl Fn(&V) -> (f64, f64),
) -> f64 {
    let mut gap = f64::NEG_INFINITY;
    for l in axes {
        let n = l.norm();
        if n < 1e-9 {
            continue;
        }
        let l = l / n;
        let (a0, a1) = proj_a(&l);
        let (b0, b1) = proj_b(&l);
        gap = gap.max(b0 - a1).max(a0 - b1);
    }
    gap
}

fn obb_proj(o: &Obb<f64>, l: &V) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for k in 0..8 {
        let mut p = o.center;
        for i in 0..3 {
            let s = if k >> i & 1 == 1 { 1.0 } else { -1.0 };
            p += o.axes.column(i) * (s * o.half_extents[i]);
        }
        let d = l.dot(&p.coords);
        lo = lo.min(d);
        hi = hi.max(d);
    }
    (lo, hi)
}

fn tri_proj(t: &Triangle<f64>, l: &V) -> (f64, f64) {
    let d = [l.dot(&t.a.coords), l.dot(&t.b.coords), l.dot(&t.c.coords)];
    (d[0].min(d[1]).min(d[2]), d[0].max(d[1]).max(d[2]))
}

fn obb_obb_gap(a: &Obb<f64>, b: &Obb<f64>) -> f64 {
    let mut axes = Vec::new();
    for i in 0..3 {
        axes.push(a.axes.column(i).into_owned());
        axes.push(b.axes.column(i).into_owned());
        for j in 0..3 {
            axes.push(a.axes.column(i).cross(&b.axes.column(j)));
        }
    }
    sat_gap(&axes, |l| obb_proj(a, l), |l| obb_proj(b, l))
}

fn tri_obb_gap(t: &Triangle<f64>, o: &Obb<f64>) -> f64 {
    let mut axes = vec![t.scaled_normal()];
    for i in 0..3 {
        axes.push(o.axes.column(i).into_owned());
        for e in t.edges() {
            axes.push(o.axes.column(i).cross(&e.direction()));
        }
    }
    sat_gap(&axes, |l| tri_proj(t, l), |l| obb_proj(o, l))
}

fn dist_to_obb(p: &P, o: &Obb<f64>) -> f64 {
    let d = p - o.center;
    let mut e2 = 0.0;
    for i in 0..3 {
        let x = o.axes.column(i).dot(&d).abs() - o.half_extents[i];
        if x > 0.0 {
            e2 += x * x;
        }
    }
    e2.sqrt()
}

struct Tally {
    cases: usize,
    contacts: usize,
    initial: usize,
    strict_after_fail: usize,
}

impl Tally {
    fn new() -> Self {
        Tally {
            cases: 0,
            contacts: 0,
            initial: 0,
            strict_after_fail: 0,
        }
    }
}

/// The shared first-time check: `gap(t)` is the static oracle's separation.
fn check_first_time(
    name: &str,
    c: &Contact<f64>,
    gap: &impl Fn(f64) -> f64,
    t_end: f64,
    tally: &mut Tally,
) {
    let eps = 1e-7;
    tally.contacts += 1;
    assert!(
        (0.0..=t_end).contains(&c.time),
        "{name}: time {} outside [0, {t_end}]",
        c.time
    );
    if c.time == 0.0 {
        tally.initial += 1;
        assert!(
            gap(0.0) <= 1e-9,
            "{name}: reported initial overlap but gap {}",
            gap(0.0)
        );
        return;
    }
    assert!(
        gap(0.0) > -1e-9,
        "{name}: overlapping at 0 but time {}",
        c.time
    );
    assert!(
        gap(c.time - eps) > -1e-9,
        "{name}: overlapping before t* ({})",
        gap(c.time - eps)
    );
    assert!(
        gap(c.time).abs() <= 1e-9,
        "{name}: not touching at t*: gap {}",
        gap(c.time)
    );
    let after = gap(c.time + eps);
    assert!(after <= 1e-9, "{name}: separated after t*: gap {after}");
    if after > 0.0 {
        tally.strict_after_fail += 1;
    }
    assert!(
        (c.normal.norm() - 1.0).abs() < 1e-9,
        "{name}: normal {:?}",
        c.normal
    );
}

/// Dense sampling: the first sampled contact time bounds t* from above.
fn check_sampled(
    name: &str,
    c: Option<&Contact<f64>>,
    gap: &impl Fn(f64) -> f64,
    t_end: f64,
    n: usize,
) {
    for k in 0..=n {
        let t = t_end * k as f64 / n as f64;
        if gap(t) <= 0.0 {
            let c = c.unwrap_or_else(|| {
                panic!("{name}: sampling found contact at {t} but none reported")
            });
            assert!(
                c.time <= t + 1e-9,
                "{name}: t* {} after sampled contact {t}",
                c.time
            );
            return;
        }
    }
}

#[test]
fn moving_obb_obb_first_time_100k() {
    let mut r = ChaCha8Rng::seed_from_u64(31);
    let mut tally = Tally::new();
    for i in 0..100_000 {
        let (a, b) = (robb(&mut r), robb(&mut r));
        let (va, vb) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        let t_end = 1.0;
        tally.cases += 1;
        let gap = |t: f64| obb_obb_gap(&shift_obb(&a, &va, t), &shift_obb(&b, &vb, t));
        let c = obb_obb(&a, &va, &b, &vb, t_end);
        if let Some(c) = &c {
            check_first_time("obb/obb", c, &gap, t_end, &mut tally);
            let tol = 1e-6;
            let (at, bt) = (shift_obb(&a, &va, c.time), shift_obb(&b, &vb, c.time));
            assert!(
                dist_to_obb(&c.point, &at) <= tol && dist_to_obb(&c.point, &bt) <= tol,
                "contact point off the boxes at {}: {} {}",
                c.time,
                dist_to_obb(&c.point, &at),
                dist_to_obb(&c.point, &bt)
            );
        }
        if i % 10 == 0 {
            check_sampled("obb/obb", c.as_ref(), &gap, t_end, 100);
        }
    }
    println!(
        "obb/obb: {} cases, {} contacts ({} at t = 0), {} strict 'overlapping at t*+1e-7' failures (grazing, gap <= 1e-9)",
        tally.cases, tally.contacts, tally.initial, tally.strict_after_fail
    );
}

#[test]
fn moving_obb_obb_f32_matches_f64() {
    let mut r = ChaCha8Rng::seed_from_u64(32);
    let mut worst = 0.0_f64;
    let mut flips = 0;
    for _ in 0..20_000 {
        let (a, b) = (robb(&mut r), robb(&mut r));
        let (va, vb) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        let c64 = obb_obb(&a, &va, &b, &vb, 1.0);
        let cast = |o: &Obb<f64>| Obb {
            center: o.center.cast::<f32>(),
            axes: o.axes.cast::<f32>(),
            half_extents: o.half_extents.cast::<f32>(),
        };
        let c32 = obb_obb(&cast(&a), &va.cast(), &cast(&b), &vb.cast(), 1.0f32);
        match (c64, c32) {
            (Some(x), Some(y)) => worst = worst.max((x.time - y.time as f64).abs()),
            (None, None) => {}
            (x, _) => {
                flips += 1;
                // only near-grazing cases may flip: the f64 gap stays tiny
                let t = x.map(|c| c.time).unwrap_or(0.5);
                let g = obb_obb_gap(&shift_obb(&a, &va, t), &shift_obb(&b, &vb, t));
                assert!(
                    g.abs() < 1e-4 || x.is_none(),
                    "f32/f64 disagree away from grazing, gap {g}"
                );
            }
        }
    }
    println!("obb/obb f32 vs f64: worst |t32 - t64| {worst:e}, {flips} hit/miss flips of 20000");
    assert!(worst < 1e-3);
}

#[test]
fn moving_triangle_obb_first_time_100k() {
    let mut r = ChaCha8Rng::seed_from_u64(33);
    let mut tally = Tally::new();
    for i in 0..100_000 {
        let t = rtri(&mut r);
        let o = robb(&mut r);
        let (vt, vo) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        tally.cases += 1;
        let gap = |s: f64| tri_obb_gap(&shift_tri(&t, &vt, s), &shift_obb(&o, &vo, s));
        let c = triangle_obb(&t, &vt, &o, &vo, 1.0);
        if let Some(c) = &c {
            check_first_time("triangle/obb", c, &gap, 1.0, &mut tally);
            let (tt, ot) = (shift_tri(&t, &vt, c.time), shift_obb(&o, &vo, c.time));
            let dt = (closest::point_triangle(&c.point, &tt).point - c.point).norm();
            assert!(
                dt <= 1e-6 && dist_to_obb(&c.point, &ot) <= 1e-6,
                "contact point off: {dt} {}",
                dist_to_obb(&c.point, &ot)
            );
        }
        if i % 10 == 0 {
            check_sampled("triangle/obb", c.as_ref(), &gap, 1.0, 100);
        }
    }
    println!(
        "triangle/obb: {} cases, {} contacts ({} at t = 0), {} strict failures after t*",
        tally.cases, tally.contacts, tally.initial, tally.strict_after_fail
    );
}

#[test]
fn moving_triangle_triangle_first_time_100k() {
    let mut r = ChaCha8Rng::seed_from_u64(34);
    let mut tally = Tally::new();
    let mut exact_after_fail = 0;
    for i in 0..100_000 {
        let (a, b) = (rtri(&mut r), rtri(&mut r));
        let (va, vb) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        tally.cases += 1;
        // gap: exact distance (closest points, validated in closest_oracle),
        // cross-checked against the exact overlap predicate when touching.
        let gap = |s: f64| {
            closest::triangle_triangle(&shift_tri(&a, &va, s), &shift_tri(&b, &vb, s)).distance()
        };
        let c = triangle_triangle(&a, &va, &b, &vb, 1.0);
        if let Some(c) = &c {
            check_first_time("triangle/triangle", c, &gap, 1.0, &mut tally);
            let (at, bt) = (shift_tri(&a, &va, c.time), shift_tri(&b, &vb, c.time));
            let da = (closest::point_triangle(&c.point, &at).point - c.point).norm();
            let db = (closest::point_triangle(&c.point, &bt).point - c.point).norm();
            assert!(da <= 1e-6 && db <= 1e-6, "contact point off: {da} {db}");
            // just after first contact the exact predicate sees an overlap
            // unless the contact is a graze
            let s = c.time + 1e-7;
            if c.time > 0.0
                && !clash_narrow::overlap::triangle_triangle(
                    &shift_tri(&a, &va, s),
                    &shift_tri(&b, &vb, s),
                )
            {
                exact_after_fail += 1;
                assert!(gap(s) < 1e-6);
            }
        } else {
            assert!(!clash_narrow::overlap::triangle_triangle(&a, &b));
        }
        if i % 10 == 0 {
            let exact_gap = |s: f64| {
                if clash_narrow::overlap::triangle_triangle(
                    &shift_tri(&a, &va, s),
                    &shift_tri(&b, &vb, s),
                ) {
                    0.0
                } else {
                    1.0
                }
            };
            check_sampled("triangle/triangle", c.as_ref(), &exact_gap, 1.0, 100);
        }
    }
    // The distance oracle rounds to ~1e-17 instead of 0 for overlapping
    // triangles, so the strict count uses the exact overlap predicate.
    println!(
        "triangle/triangle: {} cases, {} contacts ({} at t = 0), exact predicate disjoint at t*+1e-7 in {} cases (all within 1e-6: grazing)",
        tally.cases, tally.contacts, tally.initial, exact_after_fail
    );
}

#[test]
fn moving_degenerate_triangles() {
    // two segments (collapsed triangles) approaching head on, crossing
    let a = Triangle::new(
        P::new(-1.0, 0.0, 0.0),
        P::new(1.0, 0.0, 0.0),
        P::new(1.0, 0.0, 0.0),
    );
    let b = Triangle::new(
        P::new(0.0, -1.0, 2.0),
        P::new(0.0, 1.0, 2.0),
        P::new(0.0, 1.0, 2.0),
    );
    let c = triangle_triangle(&a, &V::zeros(), &b, &V::new(0.0, 0.0, -1.0), 3.0).unwrap();
    assert!((c.time - 2.0).abs() < 1e-6, "{c:?}");
    assert!((c.point - P::origin()).norm() < 1e-6);
    // parallel segments passing each other at distance 1: no contact
    let b2 = Triangle::new(
        P::new(-1.0, 1.0, 2.0),
        P::new(1.0, 1.0, 2.0),
        P::new(1.0, 1.0, 2.0),
    );
    assert!(triangle_triangle(&a, &V::zeros(), &b2, &V::new(0.0, 0.0, -1.0), 5.0).is_none());
    // a point against a segment
    let p = Triangle::new(
        P::new(0.5, 0.0, 3.0),
        P::new(0.5, 0.0, 3.0),
        P::new(0.5, 0.0, 3.0),
    );
    let c = triangle_triangle(&a, &V::zeros(), &p, &V::new(0.0, 0.0, -2.0), 2.0).unwrap();
    assert!((c.time - 1.5).abs() < 1e-6);
    // a segment against a full triangle uses the axes
    let t = Triangle::new(
        P::new(-1.0, -1.0, 0.0),
        P::new(1.0, -1.0, 0.0),
        P::new(0.0, 1.0, 0.0),
    );
    let s = Triangle::new(
        P::new(0.0, 0.0, 1.0),
        P::new(0.0, 0.0, 2.0),
        P::new(0.0, 0.0, 2.0),
    );
    let c = triangle_triangle(&t, &V::zeros(), &s, &V::new(0.0, 0.0, -0.5), 4.0).unwrap();
    assert!((c.time - 2.0).abs() < 1e-9);
}

#[test]
fn moving_spheres_and_aabbs() {
    let mut r = ChaCha8Rng::seed_from_u64(35);
    let mut tallies = [
        Tally::new(),
        Tally::new(),
        Tally::new(),
        Tally::new(),
        Tally::new(),
    ];
    for i in 0..20_000 {
        let s = Sphere {
            center: P::from(rv(&mut r, 3.0)),
            radius: r.random_range(0.05..1.0),
        };
        let v = rv(&mut r, 4.0);
        // sphere / sphere
        let s2 = Sphere {
            center: P::from(rv(&mut r, 3.0)),
            radius: r.random_range(0.05..1.0),
        };
        let v2 = rv(&mut r, 4.0);
        let gap =
            |t: f64| ((s2.center + v2 * t) - (s.center + v * t)).norm() - s.radius - s2.radius;
        let c = sphere_sphere(&s, &v, &s2, &v2, 1.0);
        if let Some(c) = &c {
            check_first_time("sphere/sphere", c, &gap, 1.0, &mut tallies[0]);
        }
        check_sampled("sphere/sphere", c.as_ref(), &gap, 1.0, 50);
        // sphere / plane (two-sided)
        let pl = Plane::from_normal_and_point(rv(&mut r, 1.0), &P::from(rv(&mut r, 2.0))).unwrap();
        let gap = |t: f64| pl.signed_distance(&(s.center + v * t)).abs() - s.radius;
        let c = sphere_plane(&s, &v, &pl, 1.0);
        if let Some(c) = &c {
            check_first_time("sphere/plane", c, &gap, 1.0, &mut tallies[1]);
            assert!(pl.signed_distance(&c.point).abs() < 1e-9);
        }
        check_sampled("sphere/plane", c.as_ref(), &gap, 1.0, 50);
        // sphere / triangle
        let tri = rtri(&mut r);
        let gap = |t: f64| {
            let p = s.center + v * t;
            (closest::point_triangle(&p, &tri).point - p).norm() - s.radius
        };
        let c = sphere_triangle(&s, &v, &tri, 1.0);
        if let Some(c) = &c {
            check_first_time("sphere/triangle", c, &gap, 1.0, &mut tallies[2]);
        }
        check_sampled("sphere/triangle", c.as_ref(), &gap, 1.0, 50);
        // sphere / aabb
        let cen = P::from(rv(&mut r, 3.0));
        let h = V::new(
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
        );
        let bx = Aabb {
            min: cen - h,
            max: cen + h,
        };
        let gap = |t: f64| {
            let p = s.center + v * t;
            let d = (p - cen).abs() - h;
            d.sup(&V::zeros()).norm() + d.max().min(0.0) - s.radius
        };
        let c = sphere_aabb(&s, &v, &bx, 1.0);
        if let Some(c) = &c {
            check_first_time("sphere/aabb", c, &gap, 1.0, &mut tallies[3]);
        }
        check_sampled("sphere/aabb", c.as_ref(), &gap, 1.0, 50);
        // aabb / aabb
        let cen2 = P::from(rv(&mut r, 3.0));
        let h2 = V::new(
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
            r.random_range(0.05..1.0),
        );
        let b2 = Aabb {
            min: cen2 - h2,
            max: cen2 + h2,
        };
        let gap = |t: f64| {
            let (p, q) = (cen + v * t, cen2 + v2 * t);
            ((q - p).abs() - h - h2).max()
        };
        let c = aabb_aabb(&bx, &v, &b2, &v2, 1.0);
        if let Some(c) = &c {
            check_first_time("aabb/aabb", c, &gap, 1.0, &mut tallies[4]);
            let (p, q) = (cen + v * c.time, cen2 + v2 * c.time);
            for k in 0..3 {
                assert!(
                    (c.point[k] - p[k]).abs() <= h[k] + 1e-9
                        && (c.point[k] - q[k]).abs() <= h2[k] + 1e-9
                );
            }
        }
        check_sampled("aabb/aabb", c.as_ref(), &gap, 1.0, 50);
        let _ = i;
    }
    for (name, t) in [
        "sphere/sphere",
        "sphere/plane",
        "sphere/triangle",
        "sphere/aabb",
        "aabb/aabb",
    ]
    .iter()
    .zip(&tallies)
    {
        println!(
            "{name}: {} contacts ({} at t = 0) of 20000, {} strict failures after t*",
            t.contacts, t.initial, t.strict_after_fail
        );
    }
}

#[test]
fn moving_interval_halving_and_conservative_advancement() {
    let mut r = ChaCha8Rng::seed_from_u64(36);
    for _ in 0..2000 {
        let s = Sphere {
            center: P::from(rv(&mut r, 3.0)),
            radius: r.random_range(0.05..1.0),
        };
        let s2 = Sphere {
            center: P::from(rv(&mut r, 3.0)),
            radius: r.random_range(0.05..1.0),
        };
        let (v, v2) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        let exact = sphere_sphere(&s, &v, &s2, &v2, 1.0).map(|c| c.time);
        // RTCD §5.5.1: bounding spheres of each motion over [t0, t1]
        let halving = interval_halving(0.0, 1.0, 1e-9, |t0, t1| {
            let m = 0.5 * (t0 + t1);
            let r0 = s.radius + v.norm() * (t1 - t0) * 0.5;
            let r1 = s2.radius + v2.norm() * (t1 - t0) * 0.5;
            ((s2.center + v2 * m) - (s.center + v * m)).norm() <= r0 + r1
        });
        let dist =
            |t: f64| ((s2.center + v2 * t) - (s.center + v * t)).norm() - s.radius - s2.radius;
        let ca = conservative_advancement(0.0, 1.0, dist, (v2 - v).norm(), 1e-9, 10_000);
        match exact {
            Some(t) => {
                let h = halving.expect("halving missed a contact");
                assert!(h <= t + 1e-12 && t - h < 1e-6, "halving {h} exact {t}");
                let a = ca.expect("advancement missed a contact");
                assert!(a <= t + 1e-12 && t - a < 1e-6, "advancement {a} exact {t}");
            }
            None => assert!(ca.is_none()),
        }
    }
}

#[test]
fn moving_non_finite_inputs_give_none() {
    let o = Obb {
        center: P::origin(),
        axes: Matrix3::identity(),
        half_extents: V::new(1.0, 1.0, 1.0),
    };
    let nan = V::new(f64::NAN, 0.0, 0.0);
    let inf = V::new(f64::INFINITY, 0.0, 0.0);
    assert!(obb_obb(&o, &nan, &o, &V::zeros(), 1.0).is_none());
    assert!(obb_obb(&o, &V::zeros(), &o, &inf, 1.0).is_none());
    assert!(obb_obb(&o, &V::zeros(), &o, &V::zeros(), f64::NAN).is_none());
    assert!(obb_obb(&o, &V::zeros(), &o, &V::zeros(), -1.0).is_none());
    let t = Triangle::new(
        P::origin(),
        P::new(1.0, 0.0, 0.0),
        P::new(f64::NAN, 1.0, 0.0),
    );
    assert!(triangle_obb(&t, &V::zeros(), &o, &V::zeros(), 1.0).is_none());
    assert!(triangle_triangle(&t, &V::zeros(), &t, &V::zeros(), 1.0).is_none());
    let s = Sphere {
        center: P::origin(),
        radius: f64::INFINITY,
    };
    assert!(sphere_sphere(&s, &V::zeros(), &s, &V::zeros(), 1.0).is_none());
    assert!(
        sphere_aabb(
            &s,
            &V::zeros(),
            &Aabb {
                min: P::origin(),
                max: P::origin()
            },
            1.0
        )
        .is_none()
    );
    assert!(interval_halving(0.0, f64::NAN, 1e-3, |_, _| true).is_none());
    // overlapping at t = 0: time 0 and zero normal
    let c = obb_obb(&o, &V::zeros(), &o, &V::x(), 1.0).unwrap();
    assert_eq!((c.time, c.normal), (0.0, V::zeros()));
}

#[test]
fn moving_triangle_tests_f32_match_f64() {
    let mut r = ChaCha8Rng::seed_from_u64(37);
    let c3 =
        |t: &Triangle<f64>| Triangle::new(t.a.cast::<f32>(), t.b.cast::<f32>(), t.c.cast::<f32>());
    let (mut worst_tt, mut worst_to, mut flips) = (0.0_f64, 0.0_f64, 0);
    for _ in 0..20_000 {
        let (a, b) = (rtri(&mut r), rtri(&mut r));
        let o = robb(&mut r);
        let (va, vb) = (rv(&mut r, 4.0), rv(&mut r, 4.0));
        let o32 = Obb {
            center: o.center.cast::<f32>(),
            axes: o.axes.cast::<f32>(),
            half_extents: o.half_extents.cast::<f32>(),
        };
        let tt64 = triangle_triangle(&a, &va, &b, &vb, 1.0);
        let tt32 = triangle_triangle(&c3(&a), &va.cast(), &c3(&b), &vb.cast(), 1.0f32);
        let to64 = triangle_obb(&a, &va, &o, &vb, 1.0);
        let to32 = triangle_obb(&c3(&a), &va.cast(), &o32, &vb.cast(), 1.0f32);
        for (x, y, worst) in [
            (tt64.map(|c| c.time), tt32.map(|c| c.time), &mut worst_tt),
            (to64.map(|c| c.time), to32.map(|c| c.time), &mut worst_to),
        ] {
            match (x, y) {
                (Some(x), Some(y)) => *worst = worst.max((x - y as f64).abs()),
                (None, None) => {}
                _ => flips += 1,
            }
        }
    }
    println!(
        "f32 vs f64: worst |dt| triangle/triangle {worst_tt:e}, triangle/obb {worst_to:e}; {flips} hit/miss flips of 40000"
    );
    assert!(worst_tt < 1e-3 && worst_to < 1e-3 && flips < 20);
}
