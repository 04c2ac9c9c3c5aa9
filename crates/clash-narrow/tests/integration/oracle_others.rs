//! Exact-oracle sweeps for the floating-point overlap tests (spheres,
//! capsules, boxes against planes, OBB/triangle).
//!
//! The oracle (`oracle/`, `BigRational`) evaluates each test's contract
//! exactly on the float inputs: squared distances against squared radii (no
//! square roots), exact corner signs for planes, the exact SAT for
//! OBB/triangle in the box frame. These library tests are floating point, so a
//! disagreement is allowed only **within rounding of touching**: the exact
//! answer must flip when the decisive size (radius, plane offset, box
//! half-extents) is changed by a relative `1e-9`. Any other disagreement
//! fails the test. Each case mixes random pairs with pairs constructed to
//! touch (rounded), at scales 1e-6..1e6; disagreement counts are printed.
//!
//! `cargo test -p clash-narrow --test integration oracle_others::` runs 2k–10k cases per
//! test; `cargo test --release -p clash-narrow --test integration oracle_others:: -- --ignored million`
//! runs 1,000,000 per test.

use crate::oracle;

use clash_bv::{Aabb, Capsule, Obb, Sphere};
use clash_math::{Matrix3, Plane, Point3, Rotation3, Segment, Triangle, Vector3};
use clash_narrow::overlap as ov;
use num_traits::{Signed, Zero};
use oracle::{Q, V, q, qv3};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const DELTA: f64 = 1e-9;

/// One case: the library's answer and the exact answer as a function of a
/// relative change `f` of the decisive size (`f = 1`: the input itself).
struct Case {
    lib: bool,
    exact: Box<dyn Fn(f64) -> bool>,
}

fn run(name: &str, n: u64, seed: u64, make: fn(&mut ChaCha8Rng, u64) -> Case) -> (u64, u64) {
    let chunks = 32u64;
    let (near, far, hits) = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed * 1000 + c);
            let (mut near, mut far, mut hits) = (0u64, 0u64, 0u64);
            for i in 0..n / chunks {
                let case = make(&mut rng, i);
                let e = (case.exact)(1.0);
                hits += u64::from(e);
                if case.lib != e {
                    if (case.exact)(1.0 - DELTA) != (case.exact)(1.0 + DELTA) {
                        near += 1;
                    } else {
                        if far < 3 {
                            eprintln!(
                                "{name}: case {i} of chunk {c}: library {} exact {e}",
                                case.lib
                            );
                        }
                        far += 1;
                    }
                }
            }
            (near, far, hits)
        })
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "{name}: {n} cases, {hits} overlapping, {near} disagreements within rounding of touching, {far} others"
    );
    assert!(
        hits > 0 && hits < n,
        "{name}: the sweep must mix both answers"
    );
    (near, far)
}

fn scale_of(rng: &mut ChaCha8Rng) -> f64 {
    10f64.powi(rng.random_range(-6..=6))
}

fn r3(rng: &mut ChaCha8Rng, s: f64) -> [f64; 3] {
    [
        rng.random_range(-1.0..1.0) * s,
        rng.random_range(-1.0..1.0) * s,
        rng.random_range(-1.0..1.0) * s,
    ]
}

fn unit(rng: &mut ChaCha8Rng) -> Vector3<f64> {
    loop {
        let v = Vector3::from(r3(rng, 1.0));
        if v.norm() > 0.1 {
            return v.normalize();
        }
    }
}

fn qf(x: f64) -> Q {
    q(x)
}

fn qmul(v: &V<Q>, f: &Q) -> V<Q> {
    [&v[0] * f, &v[1] * f, &v[2] * f]
}

fn qp(p: &Point3<f64>) -> V<Q> {
    qv3([p.x, p.y, p.z])
}

fn sphere_plane_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let n = unit(rng);
    let d = rng.random_range(-1.0..1.0) * s;
    let r = rng.random_range(0.0..1.0) * s;
    let c = if i.is_multiple_of(2) {
        Point3::from(r3(rng, 2.0 * s))
    } else {
        // touching: the plane point nearest to a random point, pushed out by r
        let x = Point3::from(r3(rng, 2.0 * s));
        let on = x - n * (n.dot(&x.coords) - d);
        on + n * r * if i % 4 == 1 { 1.0 } else { -1.0 }
    };
    let lib = ov::sphere_plane(
        &Sphere {
            center: c,
            radius: r,
        },
        &Plane {
            normal: n,
            offset: d,
        },
    );
    let (nq, cq, dq, rq) = (qv3([n.x, n.y, n.z]), qp(&c), qf(d), qf(r));
    Case {
        lib,
        exact: Box::new(move |f| {
            let e = oracle::dot(&nq, &cq) - &dq;
            let rr = &rq * qf(f);
            &e * &e <= &rr * &rr
        }),
    }
}

fn random_box(rng: &mut ChaCha8Rng, s: f64) -> ([f64; 3], [f64; 3]) {
    let (a, b) = (r3(rng, s), r3(rng, s));
    (
        core::array::from_fn(|k| a[k].min(b[k])),
        core::array::from_fn(|k| a[k].max(b[k])),
    )
}

fn sphere_aabb_case_impl(rng: &mut ChaCha8Rng, i: u64, early: bool) -> Case {
    let s = scale_of(rng);
    let (lo, hi) = random_box(rng, s);
    let r = rng.random_range(0.0..1.0) * s;
    let c = if i.is_multiple_of(2) {
        Point3::from(r3(rng, 2.0 * s))
    } else {
        // touching a corner, an edge or a face from outside (rounded)
        let m = rng.random_range(0..8u32);
        let corner = Point3::new(
            if m & 1 == 0 { lo[0] } else { hi[0] },
            if m & 2 == 0 { lo[1] } else { hi[1] },
            if m & 4 == 0 { lo[2] } else { hi[2] },
        );
        let mut dir = unit(rng);
        for k in 0..3 {
            let out = if m >> k & 1 == 0 { -1.0 } else { 1.0 };
            dir[k] = if rng.random_range(0..3) == 0 {
                0.0
            } else {
                dir[k].abs() * out
            };
        }
        let dir = dir.try_normalize(0.0).unwrap_or(Vector3::x());
        corner + dir * r
    };
    let b = Aabb {
        min: Point3::from(lo),
        max: Point3::from(hi),
    };
    let sp = Sphere {
        center: c,
        radius: r,
    };
    let lib = if early {
        ov::sphere_aabb_early_out(&sp, &b)
    } else {
        ov::sphere_aabb(&sp, &b)
    };
    let (cq, loq, hiq, rq) = (qp(&c), qv3(lo), qv3(hi), qf(r));
    Case {
        lib,
        exact: Box::new(move |f| {
            let rr = &rq * qf(f);
            oracle::dist2_point_box(&cq, &loq, &hiq) <= &rr * &rr
        }),
    }
}

fn sphere_aabb_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    sphere_aabb_case_impl(rng, i, false)
}

fn sphere_aabb_early_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    sphere_aabb_case_impl(rng, i, true)
}

fn random_obb(rng: &mut ChaCha8Rng, s: f64) -> Obb<f64> {
    let axis = unit(rng);
    let rot = Rotation3::new(axis * rng.random_range(0.0..3.1));
    Obb {
        center: Point3::from(r3(rng, s)),
        axes: *rot.matrix(),
        half_extents: Vector3::new(
            rng.random_range(0.0..1.0) * s,
            rng.random_range(0.0..1.0) * s,
            rng.random_range(0.0..1.0) * s,
        ),
    }
}

/// The box frame coordinates `axesᵀ (p - center)`, exactly.
fn local(b: &Obb<f64>, p: &V<Q>) -> V<Q> {
    let d = oracle::sub(p, &qp(&b.center));
    core::array::from_fn(|k| {
        let col: Matrix3<f64> = b.axes;
        let a = qv3([col[(0, k)], col[(1, k)], col[(2, k)]]);
        oracle::dot(&a, &d)
    })
}

fn sphere_obb_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let b = random_obb(rng, s);
    let r = rng.random_range(0.0..1.0) * s;
    let c = if i.is_multiple_of(2) {
        Point3::from(r3(rng, 2.0 * s))
    } else {
        // touching a face from outside
        let k = rng.random_range(0..3);
        let sign = if rng.random_range(0..2) == 0 {
            -1.0
        } else {
            1.0
        };
        let ax = b.axes.column(k).into_owned();
        let mut u = Vector3::new(
            rng.random_range(-1.0..1.0) * b.half_extents.x,
            rng.random_range(-1.0..1.0) * b.half_extents.y,
            rng.random_range(-1.0..1.0) * b.half_extents.z,
        );
        u[k] = sign * (b.half_extents[k] + r);
        b.center + b.axes * u + ax * 0.0
    };
    let lib = ov::sphere_obb(
        &Sphere {
            center: c,
            radius: r,
        },
        &b,
    );
    let u = local(&b, &qp(&c));
    let h = qv3([b.half_extents.x, b.half_extents.y, b.half_extents.z]);
    let rq = qf(r);
    Case {
        lib,
        exact: Box::new(move |f| {
            let rr = &rq * qf(f);
            let lo = [-h[0].clone(), -h[1].clone(), -h[2].clone()];
            oracle::dist2_point_box(&u, &lo, &h) <= &rr * &rr
        }),
    }
}

fn random_tri(rng: &mut ChaCha8Rng, s: f64) -> Triangle<f64> {
    let t = Triangle::new(
        Point3::from(r3(rng, s)),
        Point3::from(r3(rng, s)),
        Point3::from(r3(rng, s)),
    );
    match rng.random_range(0..20) {
        0 => Triangle::new(t.a, t.b, t.a),
        1 => Triangle::new(t.a, t.a, t.a),
        _ => t,
    }
}

fn qt(t: &Triangle<f64>) -> [V<Q>; 3] {
    [qp(&t.a), qp(&t.b), qp(&t.c)]
}

fn sphere_triangle_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let t = random_tri(rng, s);
    let r = rng.random_range(0.0..1.0) * s;
    let c = if i.is_multiple_of(2) {
        Point3::from(r3(rng, 2.0 * s))
    } else if let Some(n) = t.normal() {
        // touching the face, an edge or a vertex (rounded)
        let (u, v): (f64, f64) = (rng.random_range(0.0..1.0), rng.random_range(0.0..1.0));
        let (u, v) = if u + v > 1.0 {
            (1.0 - u, 1.0 - v)
        } else {
            (u, v)
        };
        match i % 6 {
            1 => t.at_barycentric(u, v) + n * r,
            3 => t.a + (t.b - t.a) * u + ((t.b - t.a).cross(&n)).normalize() * r,
            _ => t.c + ((t.c - t.a) + (t.c - t.b)).normalize() * r,
        }
    } else {
        t.a + unit(rng) * r
    };
    let lib = ov::sphere_triangle(
        &Sphere {
            center: c,
            radius: r,
        },
        &t,
    );
    let (cq, tq, rq) = (qp(&c), qt(&t), qf(r));
    Case {
        lib,
        exact: Box::new(move |f| {
            let rr = &rq * qf(f);
            oracle::dist2_point_triangle(&cq, &tq) <= &rr * &rr
        }),
    }
}

fn sphere_capsule_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let (a, b) = (Point3::from(r3(rng, s)), Point3::from(r3(rng, s)));
    let b = if i.is_multiple_of(10) { a } else { b };
    let (r1, r2) = (
        rng.random_range(0.0..1.0) * s,
        rng.random_range(0.0..1.0) * s,
    );
    let c = if i.is_multiple_of(2) {
        Point3::from(r3(rng, 2.0 * s))
    } else {
        let d = (b - a).try_normalize(0.0).unwrap_or(Vector3::x());
        let side = d
            .cross(&unit(rng))
            .try_normalize(0.0)
            .unwrap_or(Vector3::y());
        match i % 4 {
            1 => a + (b - a) * rng.random_range(0.0..1.0) + side * (r1 + r2),
            _ => b + d * (r1 + r2),
        }
    };
    let cap = Capsule {
        segment: Segment::new(a, b),
        radius: r2,
    };
    let lib = ov::sphere_capsule(
        &Sphere {
            center: c,
            radius: r1,
        },
        &cap,
    );
    let (cq, aq, bq, rq) = (qp(&c), qp(&a), qp(&b), qf(r1) + qf(r2));
    Case {
        lib,
        exact: Box::new(move |f| {
            let rr = &rq * qf(f);
            oracle::dist2_point_segment(&cq, &aq, &bq) <= &rr * &rr
        }),
    }
}

fn corners_q(lo: &V<Q>, hi: &V<Q>) -> Vec<V<Q>> {
    (0..8)
        .map(|m: u32| {
            core::array::from_fn(|k| {
                if m >> k & 1 == 0 {
                    lo[k].clone()
                } else {
                    hi[k].clone()
                }
            })
        })
        .collect()
}

/// Plane (with the given, not exactly unit, normal) meets the point set's hull
/// iff the signed values are not all strictly of one sign.
fn plane_meets(n: &V<Q>, d: &Q, pts: &[V<Q>]) -> bool {
    let vals: Vec<Q> = pts.iter().map(|p| oracle::dot(n, p) - d).collect();
    !(vals.iter().all(|v| v.is_positive()) || vals.iter().all(|v| v.is_negative()))
}

fn aabb_plane_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let (lo, hi) = random_box(rng, s);
    let n = if i.is_multiple_of(5) {
        Vector3::z()
    } else {
        unit(rng)
    };
    let d = if i.is_multiple_of(2) {
        rng.random_range(-1.5..1.5) * s
    } else {
        // through a corner (rounded)
        let m = rng.random_range(0..8u32);
        let c = Vector3::new(
            if m & 1 == 0 { lo[0] } else { hi[0] },
            if m & 2 == 0 { lo[1] } else { hi[1] },
            if m & 4 == 0 { lo[2] } else { hi[2] },
        );
        n.dot(&c)
    };
    let lib = ov::aabb_plane(
        &Aabb {
            min: Point3::from(lo),
            max: Point3::from(hi),
        },
        &Plane {
            normal: n,
            offset: d,
        },
    );
    let (nq, dq) = (qv3([n.x, n.y, n.z]), qf(d));
    let (loq, hiq) = (qv3(lo), qv3(hi));
    Case {
        lib,
        exact: Box::new(move |f| {
            // grow/shrink the box about its centre by f
            let two = Q::from_integer(2.into());
            let c: V<Q> = core::array::from_fn(|k| (&loq[k] + &hiq[k]) / &two);
            let e: V<Q> = core::array::from_fn(|k| (&hiq[k] - &loq[k]) / &two * qf(f));
            let l = oracle::sub(&c, &e);
            let h: V<Q> = core::array::from_fn(|k| &c[k] + &e[k]);
            plane_meets(&nq, &dq, &corners_q(&l, &h))
        }),
    }
}

fn obb_plane_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let b = random_obb(rng, s);
    let n = unit(rng);
    let d = if i.is_multiple_of(2) {
        rng.random_range(-1.5..1.5) * s
    } else {
        let sg = |bit: u32| if i >> bit & 1 == 0 { -1.0 } else { 1.0 };
        let c = b.center
            + b.axes
                * Vector3::new(
                    sg(1) * b.half_extents.x,
                    sg(2) * b.half_extents.y,
                    sg(3) * b.half_extents.z,
                );
        n.dot(&c.coords)
    };
    let lib = ov::obb_plane(
        &b,
        &Plane {
            normal: n,
            offset: d,
        },
    );
    let (nq, dq) = (qv3([n.x, n.y, n.z]), qf(d));
    let cq = qp(&b.center);
    let axes: Vec<V<Q>> = (0..3)
        .map(|k| qv3([b.axes[(0, k)], b.axes[(1, k)], b.axes[(2, k)]]))
        .collect();
    let h = qv3([b.half_extents.x, b.half_extents.y, b.half_extents.z]);
    Case {
        lib,
        exact: Box::new(move |f| {
            // the contract with the given axes: |n·c - d| <= Σ h_k |n·a_k|
            let r = (0..3).fold(Q::zero(), |acc, k| {
                acc + &h[k] * oracle::dot(&nq, &axes[k]).abs()
            }) * qf(f);
            let sd = oracle::dot(&nq, &cq) - &dq;
            sd.abs() <= r
        }),
    }
}

fn obb_triangle_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let b = random_obb(rng, s);
    let t = if i.is_multiple_of(2) {
        random_tri(rng, 2.0 * s)
    } else {
        // a vertex on a box corner (rounded), the rest random
        let sg = |bit: u32| if i >> bit & 1 == 0 { -1.0 } else { 1.0 };
        let c = b.center
            + b.axes
                * Vector3::new(
                    sg(1) * b.half_extents.x,
                    sg(2) * b.half_extents.y,
                    sg(3) * b.half_extents.z,
                );
        Triangle::new(
            c,
            Point3::from(r3(rng, 2.0 * s)),
            Point3::from(r3(rng, 2.0 * s)),
        )
    };
    let lib = ov::obb_triangle(&b, &t);
    let tl: [V<Q>; 3] = [
        local(&b, &qp(&t.a)),
        local(&b, &qp(&t.b)),
        local(&b, &qp(&t.c)),
    ];
    let h = qv3([b.half_extents.x, b.half_extents.y, b.half_extents.z]);
    Case {
        lib,
        exact: Box::new(move |f| {
            let hh = qmul(&h, &qf(f));
            let lo = [-hh[0].clone(), -hh[1].clone(), -hh[2].clone()];
            oracle::tri_box(&tl, &lo, &hh)
        }),
    }
}

fn capsule_triangle_case(rng: &mut ChaCha8Rng, i: u64) -> Case {
    let s = scale_of(rng);
    let t = random_tri(rng, s);
    let r = rng.random_range(0.0..0.5) * s * if i.is_multiple_of(7) { 0.0 } else { 1.0 };
    let (a, b) = if i.is_multiple_of(2) {
        (
            Point3::from(r3(rng, 2.0 * s)),
            Point3::from(r3(rng, 2.0 * s)),
        )
    } else if let Some(n) = t.normal() {
        // resting on the face or crossing an edge at distance r (rounded)
        let (u, v): (f64, f64) = (rng.random_range(0.0..0.5), rng.random_range(0.0..0.5));
        let x = t.at_barycentric(u, v) + n * r;
        let dir = n.cross(&unit(rng)) * s;
        (x - dir, x + dir)
    } else {
        let x = t.a + unit(rng) * r;
        (x, x + unit(rng) * s)
    };
    let lib = ov::capsule_triangle(
        &Capsule {
            segment: Segment::new(a, b),
            radius: r,
        },
        &t,
    );
    let (aq, bq, tq, rq) = (qp(&a), qp(&b), qt(&t), qf(r));
    let d2 = oracle::dist2_segment_triangle(&aq, &bq, &tq);
    Case {
        lib,
        exact: Box::new(move |f| {
            let rr = &rq * qf(f);
            d2 <= &rr * &rr
        }),
    }
}

fn check(name: &str, n: u64, seed: u64, make: fn(&mut ChaCha8Rng, u64) -> Case) {
    let (_near, far) = run(name, n, seed, make);
    assert_eq!(
        far, 0,
        "{name}: disagreements not explained by rounding near touching"
    );
}

#[test]
fn sphere_and_box_tests_match_exact_oracle() {
    check("sphere_plane", 10_000, 1, sphere_plane_case);
    check("sphere_aabb", 10_000, 2, sphere_aabb_case);
    check("sphere_aabb_early_out", 10_000, 3, sphere_aabb_early_case);
    check("sphere_obb", 5_000, 4, sphere_obb_case);
    check("sphere_capsule", 10_000, 5, sphere_capsule_case);
    check("aabb_plane", 10_000, 6, aabb_plane_case);
    check("obb_plane", 5_000, 7, obb_plane_case);
}

#[test]
fn triangle_distance_tests_match_exact_oracle() {
    check("sphere_triangle", 5_000, 8, sphere_triangle_case);
    check("capsule_triangle", 2_000, 9, capsule_triangle_case);
    check("obb_triangle", 2_000, 10, obb_triangle_case);
}

#[test]
#[ignore = "slow: 1M exact-rational cases per test; run with --release -- --ignored million"]
fn million_other_tests_match_exact_oracle() {
    for (i, (name, make)) in [
        (
            "sphere_plane",
            sphere_plane_case as fn(&mut ChaCha8Rng, u64) -> Case,
        ),
        ("sphere_aabb", sphere_aabb_case),
        ("sphere_aabb_early_out", sphere_aabb_early_case),
        ("sphere_obb", sphere_obb_case),
        ("sphere_capsule", sphere_capsule_case),
        ("aabb_plane", aabb_plane_case),
        ("obb_plane", obb_plane_case),
        ("sphere_triangle", sphere_triangle_case),
        ("capsule_triangle", capsule_triangle_case),
        ("obb_triangle", obb_triangle_case),
    ]
    .into_iter()
    .enumerate()
    {
        // `CLASH_MILLION_ONLY=name,name` runs a subset.
        if let Ok(only) = std::env::var("CLASH_MILLION_ONLY")
            && !only.split(',').any(|n| n == name)
        {
            continue;
        }
        check(name, 1_000_000, 100 + i as u64, make);
    }
}
