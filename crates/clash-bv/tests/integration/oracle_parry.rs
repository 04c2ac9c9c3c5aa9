//! Overlap and distance tests against independent oracles: parry3d 0.31
//! (f32; AABB, ball, cuboid) and, for capsules and RSS, where parry's f32 GJK
//! is too coarse, nested golden-section minimisation in f64; 100k random
//! pairs per type, each pair tested with both the f64 and the f32
//! implementation. Pairs mix general poses, nested volumes, axis-aligned and
//! parallel frames, and near-touching placements.
//!
//! Verdicts: with `D` parry's distance and `tol` its f32 accuracy allowance
//! (`2e-4 * (1 + scale)`),
//! * `D == 0` (parry: intersecting or touching) and ours says disjoint: a
//!   **false negative** (must never happen);
//! * `D > tol` and ours says overlapping: for exact tests a **false
//!   positive** (must never happen), for conservative tests (OBB with the
//!   §4.4.2 epsilon) a counted conservative answer;
//! * `0 < D <= tol`: too close for an f32 oracle, counted as ambiguous;
//! * distances: `|ours - D| <= tol` for exact distances, `ours <= D + tol` for
//!   lower bounds.
//!
//! Exactly touching placements (by construction, with dyadic coordinates)
//! are checked without the oracle in `touching_cases_overlap`.
use crate::common;

use clash_bv::{Aabb, BoundingVolume, Capsule, Obb, Rss, Sphere};
use clash_math::{Isometry3, Matrix3, Point3, Scalar, Vector3};
use parry3d::math::{Pose, Rotation, Vector};
use parry3d::shape::{Ball, Cuboid, Shape};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

const PAIRS: usize = 100_000;

fn v(p: &Vector3<f64>) -> Vector {
    Vector::new(p.x as f32, p.y as f32, p.z as f32)
}

fn pose(center: &Point3<f64>, axes: &Matrix3<f64>) -> Pose {
    let m = parry3d::math::Mat3::from_cols(
        v(&axes.column(0).into_owned()),
        v(&axes.column(1).into_owned()),
        v(&axes.column(2).into_owned()),
    );
    Pose::from_parts(v(&center.coords), Rotation::from_mat3(&m).normalize())
}

#[derive(Default, Debug)]
struct Tally {
    pairs: usize,
    overlapping: usize,
    false_negative: usize,
    false_positive: usize,
    conservative: usize,
    ambiguous: usize,
    distance_errors: usize,
    max_distance_error: f64,
    /// Largest `oracle - ours` (how loose a lower bound gets), absolute.
    max_underestimate: f64,
}

impl Tally {
    fn record(
        &mut self,
        oracle: f64,
        tol: f64,
        overlap: bool,
        dist: Option<f64>,
        exact_overlap: bool,
        exact_distance: bool,
    ) {
        self.pairs += 1;
        if oracle <= 0.0 {
            self.overlapping += 1;
            if !overlap {
                self.false_negative += 1;
            }
        } else if oracle <= tol {
            self.ambiguous += 1;
        } else if overlap {
            if exact_overlap {
                self.false_positive += 1;
            } else {
                self.conservative += 1;
            }
        }
        if let Some(d) = dist {
            self.max_underestimate = self.max_underestimate.max(oracle - d);
            let err = if exact_distance {
                (d - oracle).abs()
            } else {
                d - oracle
            };
            self.max_distance_error = self.max_distance_error.max(err / (1.0 + tol));
            if err > tol || d < 0.0 {
                self.distance_errors += 1;
            }
        }
    }

    fn assert_ok(&self, name: &str) {
        println!("{name}: {self:?}");
        assert_eq!(self.false_negative, 0, "{name}: false negatives");
        assert_eq!(self.false_positive, 0, "{name}: false positives");
        assert_eq!(self.distance_errors, 0, "{name}: distance errors");
        assert!(
            self.overlapping > self.pairs / 10 && self.overlapping < self.pairs * 9 / 10,
            "{name}: unbalanced sample"
        );
    }
}

/// A random frame: general, axis-aligned, or shared with the previous one.
fn frame(r: &mut ChaCha8Rng, mode: u32, shared: &Matrix3<f64>) -> Matrix3<f64> {
    match mode {
        0 => Matrix3::identity(),
        1 => *shared,
        _ => common::rot_matrix(&common::rotation(r)),
    }
}

fn sizes(r: &mut ChaCha8Rng, nested: bool) -> Vector3<f64> {
    let s = if nested { 0.2 } else { 2.0 };
    Vector3::new(
        r.random_range(0.0..s),
        r.random_range(0.0..s),
        r.random_range(0.0..s),
    )
}

/// Centres: nested (second inside the first), near each other, or spread.
fn centers(r: &mut ChaCha8Rng, case: u32) -> (Point3<f64>, Point3<f64>) {
    let a = Point3::new(
        r.random_range(-50.0..50.0),
        r.random_range(-50.0..50.0),
        r.random_range(-50.0..50.0),
    );
    let spread = if case == 0 { 0.3 } else { 5.0 };
    let off = Vector3::new(
        r.random_range(-spread..spread),
        r.random_range(-spread..spread),
        r.random_range(-spread..spread),
    );
    (a, a + off)
}

fn run<T: Scalar>(
    name: &str,
    seed: u64,
    mut one: impl FnMut(&mut ChaCha8Rng, u32, u32, &mut Tally),
) -> Tally {
    let mut r = common::rng(seed);
    let mut tally = Tally::default();
    for i in 0..PAIRS {
        one(&mut r, (i % 3) as u32, ((i / 3) % 3) as u32, &mut tally);
    }
    tally.assert_ok(&format!("{name} {}", T::NAME));
    tally
}

fn dist(p1: &Pose, g1: &dyn Shape, p2: &Pose, g2: &dyn Shape) -> f64 {
    parry3d::query::distance(p1, g1, p2, g2).unwrap().distance as f64
}

fn cast_obb<T: Scalar>(b: &Obb<f64>) -> Obb<T> {
    Obb {
        center: common::pt(&b.center),
        axes: b.axes.cast(),
        half_extents: b.half_extents.cast(),
    }
}

fn obb_case<T: Scalar>(r: &mut ChaCha8Rng, case: u32, mode: u32, t: &mut Tally) {
    let (ca, cb) = centers(r, case);
    let fa = frame(r, 2, &Matrix3::identity());
    let fb = frame(r, mode, &fa);
    let fa = if mode == 0 { Matrix3::identity() } else { fa };
    let a = Obb {
        center: ca,
        axes: fa,
        half_extents: sizes(r, false),
    };
    let b = Obb {
        center: cb,
        axes: fb,
        half_extents: sizes(r, case == 0),
    };
    let oracle = dist(
        &pose(&a.center, &a.axes),
        &Cuboid::new(v(&a.half_extents)),
        &pose(&b.center, &b.axes),
        &Cuboid::new(v(&b.half_extents)),
    );
    let (at, bt) = (cast_obb::<T>(&a), cast_obb::<T>(&b));
    let overlap = at.overlaps(&bt);
    let tol = 2e-4 * (1.0 + a.center.coords.abs().max());
    // The relative-frame form is the plain one plus an allowance for the
    // placement's rounding (16ε of B's centre and the translation): it says
    // "overlap" wherever the plain one does, and differs only on pairs
    // within that allowance of touching.
    let rel = Isometry3::identity();
    let rel_overlap = at.overlaps_transformed(&bt, &rel);
    assert!(rel_overlap || !overlap, "{a:?} {b:?}");
    if rel_overlap != overlap {
        let allowance = 16.0 * T::EPSILON.to_f64() * b.center.coords.amax();
        assert!(oracle <= allowance + tol, "{oracle} {a:?} {b:?}");
    }
    t.record(
        oracle,
        tol,
        overlap,
        at.distance_lower_bound(&bt).map(|d| d.to_f64()),
        false,
        false,
    );
}

fn aabb_case<T: Scalar>(r: &mut ChaCha8Rng, case: u32, _mode: u32, t: &mut Tally) {
    let (ca, cb) = centers(r, case);
    let (ha, hb) = (sizes(r, false), sizes(r, case == 0));
    let a = Aabb::<T>::from_center_half_extents(common::pt(&ca), ha.cast());
    let b = Aabb::<T>::from_center_half_extents(common::pt(&cb), hb.cast());
    let oracle = dist(
        &pose(&ca, &Matrix3::identity()),
        &Cuboid::new(v(&ha)),
        &pose(&cb, &Matrix3::identity()),
        &Cuboid::new(v(&hb)),
    );
    // parry's own AABB test, side by side.
    let pa = parry3d::bounding_volume::Aabb::new(
        v(&a.min.coords.map(|x| x.to_f64())),
        v(&a.max.coords.map(|x| x.to_f64())),
    );
    let pb = parry3d::bounding_volume::Aabb::new(
        v(&b.min.coords.map(|x| x.to_f64())),
        v(&b.max.coords.map(|x| x.to_f64())),
    );
    use parry3d::bounding_volume::BoundingVolume as _;
    if T::NAME == "f32" {
        assert_eq!(a.overlaps(&b), pa.intersects(&pb));
    }
    let tol = 2e-4 * (1.0 + ca.coords.abs().max());
    t.record(
        oracle,
        tol,
        a.overlaps(&b),
        a.distance_lower_bound(&b).map(|d| d.to_f64()),
        true,
        true,
    );
}

fn sphere_case<T: Scalar>(r: &mut ChaCha8Rng, case: u32, _mode: u32, t: &mut Tally) {
    let (ca, cb) = centers(r, case);
    let (ra, rb) = (
        r.random_range(0.0..2.0),
        r.random_range(0.0..if case == 0 { 0.2 } else { 2.0 }),
    );
    let a = Sphere::<T>::new(common::pt(&ca), T::lit(ra));
    let b = Sphere::<T>::new(common::pt(&cb), T::lit(rb));
    let oracle = dist(
        &pose(&ca, &Matrix3::identity()),
        &Ball::new(ra as f32),
        &pose(&cb, &Matrix3::identity()),
        &Ball::new(rb as f32),
    );
    let tol = 2e-4 * (1.0 + ca.coords.abs().max());
    t.record(
        oracle,
        tol,
        a.overlaps(&b),
        a.distance_lower_bound(&b).map(|d| d.to_f64()),
        true,
        true,
    );
}

fn segment_ends(
    r: &mut ChaCha8Rng,
    c: &Point3<f64>,
    axes: &Matrix3<f64>,
    len: f64,
) -> (Point3<f64>, Point3<f64>) {
    let d = axes.column(0) * len * 0.5;
    let _ = r;
    (c - d, c + d)
}

fn capsule_case<T: Scalar>(r: &mut ChaCha8Rng, case: u32, mode: u32, t: &mut Tally) {
    let (ca, cb) = centers(r, case);
    let fa = frame(r, 2, &Matrix3::identity());
    let fb = frame(r, mode, &fa);
    let (la, lb) = (
        r.random_range(0.0..4.0),
        r.random_range(0.0..if case == 0 { 0.3 } else { 4.0 }),
    );
    let (ra, rb) = (
        r.random_range(0.0..1.0),
        r.random_range(0.0..if case == 0 { 0.1 } else { 1.0 }),
    );
    let (a0, a1) = segment_ends(r, &ca, &fa, la);
    let (b0, b1) = segment_ends(r, &cb, &fb, lb);
    let a = Capsule::<T>::new(common::pt(&a0), common::pt(&a1), T::lit(ra));
    let b = Capsule::<T>::new(common::pt(&b0), common::pt(&b1), T::lit(rb));
    // parry's capsule/capsule distance (GJK in f32) is off by up to 7e-2 on
    // these pairs (checked against dense sampling), so the oracle here is an
    // independent f64 minimisation: nested golden-section search over the
    // two segment parameters (the distance is convex in both).
    let oracle = (golden_segment_distance(&a0, &a1, &b0, &b1) - ra - rb).max(0.0);
    let tol = if T::NAME == "f32" {
        2e-5 * (1.0 + ca.coords.abs().max())
    } else {
        1e-9
    };
    // The overlap test is exact up to `tol`; the distance is a lower bound
    // (never above the oracle by more than `tol`), lowered by the bound on
    // the segment distance's rounding, which near parallel cores reaches
    // `√ε` of their lengths (`capsule_against_parry` bounds how far).
    t.record(
        oracle,
        tol,
        a.overlaps(&b),
        a.distance_lower_bound(&b).map(|d| d.to_f64()),
        true,
        false,
    );
}

/// Minimum of a unimodal function on `[0, 1]` by golden-section search.
fn golden_min(f: impl Fn(f64) -> f64) -> f64 {
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut lo, mut hi) = (0.0, 1.0);
    let (mut x1, mut x2) = (hi - g * (hi - lo), lo + g * (hi - lo));
    let (mut f1, mut f2) = (f(x1), f(x2));
    for _ in 0..64 {
        if f1 <= f2 {
            hi = x2;
            x2 = x1;
            f2 = f1;
            x1 = hi - g * (hi - lo);
            f1 = f(x1);
        } else {
            lo = x1;
            x1 = x2;
            f1 = f2;
            x2 = lo + g * (hi - lo);
            f2 = f(x2);
        }
    }
    f(0.0).min(f(1.0)).min(f1).min(f2)
}

/// Segment/segment distance by nested golden-section search (the oracle).
fn golden_segment_distance(
    a0: &Point3<f64>,
    a1: &Point3<f64>,
    b0: &Point3<f64>,
    b1: &Point3<f64>,
) -> f64 {
    golden_min(|s| {
        let p = a0 + (a1 - a0) * s;
        golden_min(|t| (p - (b0 + (b1 - b0) * t)).norm())
    })
}

fn rss_case<T: Scalar>(r: &mut ChaCha8Rng, case: u32, mode: u32, t: &mut Tally) {
    let (ca, cb) = centers(r, case);
    let fa = frame(r, 2, &Matrix3::identity());
    let fb = frame(r, mode, &fa);
    let fa = if mode == 0 { Matrix3::identity() } else { fa };
    let s = if case == 0 { 0.2 } else { 2.0 };
    let (ha, hb) = (
        [r.random_range(0.0..2.0), r.random_range(0.0..2.0)],
        [r.random_range(0.0..s), r.random_range(0.0..s)],
    );
    let (ra, rb) = (r.random_range(0.0..1.0), r.random_range(0.0..s * 0.5));
    let a = Rss::<T> {
        center: common::pt(&ca),
        axes: fa.cast(),
        half_lengths: [T::lit(ha[0]), T::lit(ha[1])],
        radius: T::lit(ra),
    };
    let b = Rss::<T> {
        center: common::pt(&cb),
        axes: fb.cast(),
        half_lengths: [T::lit(hb[0]), T::lit(hb[1])],
        radius: T::lit(rb),
    };
    // parry's RoundCuboid distance (GJK with margins, f32) overestimates by
    // up to 6e-3 on these pairs, so the oracle is an independent f64
    // minimisation: nested golden-section search over the point of A's
    // rectangle, with the point/rectangle distance to B by clamping in B's
    // frame (jointly convex, so the nested search is exact up to rounding).
    let oracle = (golden_rectangle_distance(&ca, &fa, ha, &cb, &fb, hb) - ra - rb).max(0.0);
    let tol = if T::NAME == "f32" {
        2e-5 * (1.0 + ca.coords.abs().max())
    } else {
        1e-8
    };
    t.record(
        oracle,
        tol,
        a.overlaps(&b),
        a.distance_lower_bound(&b).map(|d| d.to_f64()),
        true,
        true,
    );
}

/// Distance between two rectangles by nested golden-section search (the oracle).
fn golden_rectangle_distance(
    ca: &Point3<f64>,
    fa: &Matrix3<f64>,
    ha: [f64; 2],
    cb: &Point3<f64>,
    fb: &Matrix3<f64>,
    hb: [f64; 2],
) -> f64 {
    let to_b = |p: Point3<f64>| {
        let d = fb.transpose() * (p - cb);
        let q = Vector3::new(d.x.clamp(-hb[0], hb[0]), d.y.clamp(-hb[1], hb[1]), 0.0);
        (d - q).norm()
    };
    golden_min(|s| {
        golden_min(|t| {
            let u = (2.0 * s - 1.0) * ha[0];
            let v = (2.0 * t - 1.0) * ha[1];
            to_b(ca + fa.column(0) * u + fa.column(1) * v)
        })
    })
}

#[test]
fn obb_against_parry() {
    run::<f64>("obb", 1, obb_case::<f64>);
    run::<f32>("obb", 1, obb_case::<f32>);
}

#[test]
fn aabb_against_parry() {
    run::<f64>("aabb", 2, aabb_case::<f64>);
    run::<f32>("aabb", 2, aabb_case::<f32>);
}

#[test]
fn sphere_against_parry() {
    run::<f64>("sphere", 3, sphere_case::<f64>);
    run::<f32>("sphere", 3, sphere_case::<f32>);
}

#[test]
fn capsule_against_parry() {
    // The distance bound stays within a few ulps of the truth but for
    // nearly parallel cores, where it gives up to `2√ε` (of `f64`, in which
    // it is computed) of their lengths.
    let t = run::<f64>("capsule", 4, capsule_case::<f64>);
    assert!(t.max_underestimate < 1e-8, "{t:?}");
    let t = run::<f32>("capsule", 4, capsule_case::<f32>);
    assert!(t.max_underestimate < 1e-4, "{t:?}");
}

#[test]
fn rss_against_golden_section_oracle() {
    run::<f64>("rss", 5, rss_case::<f64>);
    run::<f32>("rss", 5, rss_case::<f32>);
}

/// Exactly touching placements (dyadic coordinates, so the contact is exact
/// in both precisions) must overlap: the volumes are closed.
#[test]
fn touching_cases_overlap() {
    fn check<T: Scalar>() {
        let l = |x: f64| T::lit(x);
        let p = |x: f64, y: f64, z: f64| Point3::new(l(x), l(y), l(z));
        let a = Aabb::new(p(0.0, 0.0, 0.0), p(1.0, 1.0, 1.0));
        assert!(a.overlaps(&Aabb::new(p(1.0, 0.5, 0.25), p(2.0, 3.0, 0.75))));
        assert!(!a.overlaps(&Aabb::new(
            p(1.0 + 1.0 / 1024.0, 0.5, 0.25),
            p(2.0, 3.0, 0.75)
        )));
        assert!(
            Sphere::new(p(0.0, 0.0, 0.0), l(1.5)).overlaps(&Sphere::new(p(2.5, 0.0, 0.0), l(1.0)))
        );
        assert!(
            !Sphere::new(p(0.0, 0.0, 0.0), l(1.5))
                .overlaps(&Sphere::new(p(2.5 + 1.0 / 512.0, 0.0, 0.0), l(1.0)))
        );
        let o = |c: Point3<T>, h: f64| Obb {
            center: c,
            axes: Matrix3::identity(),
            half_extents: Vector3::repeat(l(h)),
        };
        assert!(o(p(0.0, 0.0, 0.0), 0.5).overlaps(&o(p(1.25, 0.5, 0.0), 0.75)));
        assert!(!o(p(0.0, 0.0, 0.0), 0.5).overlaps(&o(p(1.25 + 1.0 / 256.0, 0.5, 0.0), 0.75)));
        // Parallel capsules at exactly the radius sum; crossing ones touching.
        let c = Capsule::new(p(0.0, 0.0, 0.0), p(4.0, 0.0, 0.0), l(0.25));
        assert!(c.overlaps(&Capsule::new(p(1.0, 0.75, 0.0), p(3.0, 0.75, 0.0), l(0.5))));
        assert!(c.overlaps(&Capsule::new(p(2.0, -1.0, 0.5), p(2.0, 1.0, 0.5), l(0.25))));
        assert!(!c.overlaps(&Capsule::new(
            p(2.0, -1.0, 0.5),
            p(2.0, 1.0, 0.5),
            l(0.25 - 1.0 / 256.0)
        )));
        // Parallel rectangles stacked at exactly the radius sum.
        let rs = |c: Point3<T>, rad: f64| Rss {
            center: c,
            axes: Matrix3::identity(),
            half_lengths: [l(1.0), l(0.5)],
            radius: l(rad),
        };
        assert!(rs(p(0.0, 0.0, 0.0), 0.25).overlaps(&rs(p(0.5, 0.25, 0.75), 0.5)));
        assert!(!rs(p(0.0, 0.0, 0.0), 0.25).overlaps(&rs(p(0.5, 0.25, 0.75 + 1.0 / 128.0), 0.5)));
        // Nested: a small box deep inside a big rotated one.
        let q = common::rot_matrix::<T>(&common::rotation(&mut common::rng(3)));
        let big = Obb {
            center: p(3.0, -2.0, 1.0),
            axes: q,
            half_extents: Vector3::repeat(l(4.0)),
        };
        let small = Obb {
            center: p(3.5, -2.0, 1.0),
            axes: Matrix3::identity(),
            half_extents: Vector3::repeat(l(0.01)),
        };
        assert!(big.overlaps(&small) && small.overlaps(&big));
    }
    check::<f32>();
    check::<f64>();
}

/// The relative-frame OBB test equals the test against the moved box.
#[test]
fn obb_relative_frame_matches_moved_box() {
    let mut r = common::rng(9);
    let mut agree = 0;
    for _ in 0..20_000 {
        let a = Obb {
            center: Point3::new(r.random_range(-2.0..2.0), 0.0, 0.0),
            axes: common::rot_matrix(&common::rotation(&mut r)),
            half_extents: sizes(&mut r, false),
        };
        let b = Obb {
            center: Point3::new(0.0, r.random_range(-2.0..2.0), 0.0),
            axes: common::rot_matrix(&common::rotation(&mut r)),
            half_extents: sizes(&mut r, false),
        };
        let m = common::isometry(&mut r, 3.0);
        let rel = a.overlaps_transformed(&b, &m);
        let moved = a.overlaps(&b.transformed(&m));
        if rel == moved {
            agree += 1;
        } else {
            // Disagreement only allowed at a hair's breadth from touching.
            let d = dist(
                &pose(&a.center, &a.axes),
                &Cuboid::new(v(&a.half_extents)),
                &pose(
                    &(m * b.center),
                    &(m.rotation.to_rotation_matrix().matrix() * b.axes),
                ),
                &Cuboid::new(v(&b.half_extents)),
            );
            assert!(d < 1e-4, "relative-frame disagreement at distance {d}");
        }
    }
    assert!(agree > 19_990);
}
