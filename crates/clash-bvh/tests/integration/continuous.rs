//! Continuous collision: the reported first time is confirmed by static
//! tests (apart just before, touching at it), and no motion that dense
//! static sampling finds colliding is reported free.

use crate::common;

use clash_bv::{Aabb, Obb};
use clash_bvh::{BuildOptions, Bvh, Motion, TriMesh};
use clash_math::{Isometry3, Scalar, Triangle, Vector3};
use clash_narrow::closest::triangle_triangle as distance;
use clash_narrow::overlap::triangle_triangle as meets;
use common::*;
use rand::RngExt;

const STEPS: u32 = 6;

/// The sampled motion, written out independently: triangle `t` at time
/// `time`, inside step `k` (clamped to the last step).
fn at(t: &Triangle<f64>, m: &Motion<f64>, time: f64, k: u32) -> Triangle<f64> {
    let dt = 1.0 / STEPS as f64;
    let (t0, t1) = (k as f64 * dt, (k + 1) as f64 * dt);
    let (p0, p1) = (m.pose_at(t0), m.pose_at(t1));
    let c = t.centroid();
    let v = (p1 * c - p0 * c) / dt;
    let s = t.transformed(&p0);
    let d = v * (time - t0);
    Triangle::new(s.a + d, s.b + d, s.c + d)
}

/// Degenerate up to rounding, as the moving test classifies it.
fn near_degenerate(t: &Triangle<f64>) -> bool {
    let (e0, e1) = (t.b - t.a, t.c - t.b);
    e0.cross(&e1).norm_squared() <= 64.0 * f64::EPSILON * e0.norm_squared() * e1.norm_squared()
}

fn step_of(time: f64) -> u32 {
    ((time * STEPS as f64).floor() as u32).min(STEPS - 1)
}

fn any_contact(
    a: &TriMesh<f64>,
    ma: &Motion<f64>,
    b: &TriMesh<f64>,
    mb: &Motion<f64>,
    time: f64,
    k: u32,
) -> bool {
    let bt: Vec<_> = b.triangles().map(|t| at(&t, mb, time, k)).collect();
    a.triangles().any(|ta| {
        let ta = at(&ta, ma, time, k);
        bt.iter().any(|tb| meets(&ta, tb))
    })
}

fn random_motion(rng: &mut Rng) -> Motion<f64> {
    let mut v = || {
        Vector3::new(
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(-1.0..1.0),
        )
    };
    Motion {
        start: Isometry3::new(v() * 0.9, v()),
        linear: v() * 2.0,
        angular: v() * 2.0,
    }
}

fn scenes(
    seed: u64,
    n: usize,
) -> impl Iterator<Item = (TriMesh<f64>, Motion<f64>, TriMesh<f64>, Motion<f64>)> {
    let mut rng = seeded(seed);
    (0..n).map(move |_| {
        let a = random_soup::<f64>(&mut rng, 8, 0.6, 0.3);
        let b = random_soup::<f64>(&mut rng, 8, 0.6, 0.3);
        (a, random_motion(&mut rng), b, random_motion(&mut rng))
    })
}

#[test]
fn first_time_is_confirmed_by_static_tests() {
    let (mut hits, mut at_start) = (0, 0);
    for (ma, mota, mb, motb) in scenes(81, 10_000) {
        let a = Bvh::<f64, Obb<f64>>::build(ma.clone(), &BuildOptions::default()).unwrap();
        let b = Bvh::<f64, Aabb<f64>>::build(mb.clone(), &BuildOptions::default()).unwrap();
        let Some(hit) = a.time_of_contact(&mota, &b, &motb, 1.0, STEPS) else {
            continue;
        };
        hits += 1;
        assert!((0.0..=1.0).contains(&hit.time));
        // At a step boundary the contact may belong to either step's motion
        // (the sampled motion jumps there when the body rotates).
        let candidates = [step_of(hit.time), step_of((hit.time - 1e-12).max(0.0))];
        let scale = 1.0 + hit.point.coords.amax();
        let k = candidates
            .into_iter()
            .find(|&k| {
                let ta = at(&ma.triangle(hit.triangles[0] as usize), &mota, hit.time, k);
                let tb = at(&mb.triangle(hit.triangles[1] as usize), &motb, hit.time, k);
                // Two degenerate triangles (segments, points) are advanced
                // conservatively to a distance of sqrt(eps) * scale (see
                // `clash_narrow::moving::triangle_triangle`); others exactly.
                let tol = if near_degenerate(&ta) && near_degenerate(&tb) {
                    2.0 * f64::EPSILON.sqrt()
                } else {
                    1e-9
                };
                distance(&ta, &tb).distance() <= tol * scale
                    && (clash_narrow::closest::point_triangle(&hit.point, &ta).point - hit.point)
                        .norm()
                        <= 1e-6 * scale
            })
            .unwrap_or_else(|| panic!("reported pair apart at t* = {}", hit.time));
        if hit.time == 0.0 {
            at_start += 1;
            assert!(any_contact(&ma, &mota, &mb, &motb, 0.0, 0));
            continue;
        }
        // Nothing touches just before t* (within the same step's motion).
        let before = hit.time - 1e-7;
        if before > 0.0 {
            assert!(
                !any_contact(&ma, &mota, &mb, &motb, before, step_of(before)),
                "contact before t* = {}",
                hit.time
            );
        }
        // The pair overlaps just after (unless it only grazes).
        let after = (hit.time + 1e-7).min(1.0);
        let (ta2, tb2) = (
            at(&ma.triangle(hit.triangles[0] as usize), &mota, after, k),
            at(&mb.triangle(hit.triangles[1] as usize), &motb, after, k),
        );
        assert!(distance(&ta2, &tb2).distance() <= 1e-6 * scale);
    }
    eprintln!("{hits} contacts, {at_start} at time 0");
    assert!(
        hits > 1000 && hits - at_start > 500,
        "{hits} hits, {at_start} at the start"
    );
}

#[test]
fn no_sampled_contact_is_reported_free() {
    for (ma, mota, mb, motb) in scenes(82, 800) {
        let a = Bvh::<f64, Obb<f64>>::build(ma.clone(), &BuildOptions::default()).unwrap();
        let b = Bvh::<f64, Obb<f64>>::build(mb.clone(), &BuildOptions::default()).unwrap();
        let reported = a.time_of_contact(&mota, &b, &motb, 1.0, STEPS);
        // Dense static sampling of the sampled motion.
        let first = (0..=STEPS * 24)
            .map(|i| i as f64 / (STEPS * 24) as f64)
            .find(|&t| any_contact(&ma, &mota, &mb, &motb, t, step_of(t)));
        if let Some(t) = first {
            let hit = reported
                .unwrap_or_else(|| panic!("sampling finds contact at {t}, time_of_contact none"));
            assert!(
                hit.time <= t + 1e-9,
                "reported {} after sampled contact {t}",
                hit.time
            );
        }
    }
}

#[test]
fn pure_translation_is_exact_and_f32_works() {
    // A unit tetrahedron sliding onto another along x: first contact at 0.25.
    let tet = |s: f64| {
        TriMesh::<f64>::new(
            vec![[0.0, 0.0, 0.0], [s, 0.0, 0.0], [0.0, s, 0.0], [0.0, 0.0, s]]
                .into_iter()
                .map(clash_math::Point3::from)
                .collect(),
            vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        )
        .unwrap()
    };
    let a = Bvh::<f64, Obb<f64>>::build(tet(1.0), &BuildOptions::default()).unwrap();
    let still = Motion::fixed(Isometry3::identity());
    let moving = Motion {
        start: Isometry3::translation(2.0, 0.0, 0.0),
        linear: Vector3::new(-4.0, 0.0, 0.0),
        angular: Vector3::zeros(),
    };
    let hit = a.time_of_contact(&still, &a, &moving, 1.0, 1).unwrap();
    assert!((hit.time - 0.25).abs() < 1e-12, "{}", hit.time);
    assert!(a.time_of_contact(&still, &a, &moving, 0.2, 3).is_none());
    let a32 = Bvh::<f32, Obb<f32>>::build(
        TriMesh::new(
            tet(1.0).vertices().iter().map(|p| p.cast()).collect(),
            tet(1.0).indices().to_vec(),
        )
        .unwrap(),
        &BuildOptions::default(),
    )
    .unwrap();
    let m32 = Motion {
        start: Isometry3::translation(2.0f32, 0.0, 0.0),
        linear: Vector3::new(-4.0f32, 0.0, 0.0),
        angular: Vector3::zeros(),
    };
    let h32 = a32
        .time_of_contact(&Motion::fixed(Isometry3::identity()), &a32, &m32, 1.0, 4)
        .unwrap();
    assert!((h32.time - 0.25).abs() < 1e-5);
    let _ = f64::NAME;
}

/// A body coming from far away, `T` from 1e3 to 1e35 times its size, to
/// rest touching the fixed one at the end of the motion: the contact is
/// found (it was missed from 1e15 on: the step's velocity, rounded at the
/// motion's magnitude, stopped short of the end pose), at the end or
/// within rounding of it, and its point lies on the fixed body's triangle
/// (it was the midpoint of the two triangles' points, off both by the
/// rounding of the motion).
#[test]
fn contact_after_a_long_approach_is_found_on_the_fixed_body() {
    let a = Bvh::<f64, Obb<f64>>::build(cube::<f64>(1.0), &BuildOptions::default()).unwrap();
    let b = Bvh::<f64, Aabb<f64>>::build(cube::<f64>(0.125), &BuildOptions::default()).unwrap();
    let still = Motion::fixed(Isometry3::identity());
    for e in 3..=35 {
        let far = 10f64.powi(e);
        for steps in [1, 7] {
            // B ends touching A's face x = 1 at (1, 0.4, 0.4).
            let approach = Motion {
                start: Isometry3::translation(1.0 + far, 0.4, 0.4),
                linear: Vector3::new(-far, 0.0, 0.0),
                angular: Vector3::zeros(),
            };
            // `1 + T` rounds from 2^53 on: B then ends inside A, and the
            // contact comes a rounding before the end.
            assert!(a.intersects(&b, approach.pose_at(1.0)));
            let hit = a
                .time_of_contact(&still, &b, &approach, 1.0, steps)
                .unwrap_or_else(|| panic!("T = 1e{e}, {steps} steps: no contact"));
            assert!(
                hit.time <= 1.0 && hit.time >= 1.0 - 16.0 * f64::EPSILON,
                "T = 1e{e}: contact at {}",
                hit.time
            );
            let on = a.mesh().triangle(hit.triangles[0] as usize);
            let off =
                (clash_narrow::closest::point_triangle(&hit.point, &on).point - hit.point).norm();
            assert!(off <= 4.0 * f64::EPSILON, "T = 1e{e}: point {off} off A");
        }
    }
}
